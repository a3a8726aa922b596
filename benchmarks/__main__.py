"""``python -m benchmarks [--quick] [--only NAME ...]``: run, print, write the results.

A full run writes ``benchmarks/results/<suite>.{md,png}`` for each suite and refreshes its tables in
``benchmarks/README.md``; so does ``--only SUITE`` for that suite (every section of it, at full size). A
``--quick`` run, or one of only some of a suite's sections, writes ``*.tmp`` files beside them instead
(ignored by git), so the committed results always come from a full run of their suite. The exit status
is 1 if a property a section checks (flat cost, k, bounded memory) did not hold.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

from . import diagnose_scale, faults_load, linear_cost, memory, peers
from .harness import environment

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
README = HERE / "README.md"
#: Benchmark suites by name, each a module with SECTIONS, Config, render and plot: linear cost (issue 2),
#: lesson_lib against the peer parsers and the openai SDK (issue 7), and peak memory of one stream against
#: its limits (issue 23), boundary-lab diagnose's MB/s and peak against the input's size (issue 25), and
#: the fault server under hundreds of concurrent streams, its memory over time (issue 26).
SUITES = {
    "linear_cost": linear_cost,
    "peers": peers,
    "memory_bound": memory,
    "diagnose_scale": diagnose_scale,
    "faults_load": faults_load,
}


def main(argv: list[str] | None = None) -> int:
    names = [*SUITES, *(section for suite in SUITES.values() for section in suite.SECTIONS)]
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes: a smoke run of about a minute")
    parser.add_argument(
        "--only",
        action="append",
        choices=names,
        metavar="NAME",
        help=f"run only this suite or section (repeatable): {', '.join(names)}",
    )
    args = parser.parse_args(argv)
    only = set(args.only or [])

    env, failed = environment(), False
    for key, value in env.items():
        print(f"{key}: {value}")
    for suite_name, suite in SUITES.items():
        chosen = [name for name in suite.SECTIONS if not only or suite_name in only or name in only]
        if not chosen:
            continue
        config = suite.Config.quick() if args.quick else suite.Config()
        sections = []
        for name in chosen:
            print(f"\n== {suite_name}: {name} ...", flush=True)
            start = time.perf_counter()
            section = suite.SECTIONS[name](config)
            sections.append(section)
            print(f"## {section.title}  ({time.perf_counter() - start:.0f} s)\n")
            print("\n".join(section.lines), flush=True)
        report = suite.render(sections, env, args.quick)
        # A suite run whole at full size (``--only memory_bound``, say) is a full run of that suite.
        partial = bool(args.quick or len(chosen) < len(suite.SECTIONS))
        suffix = ".tmp" if partial else ""
        RESULTS.mkdir(exist_ok=True)
        md, png = RESULTS / f"{suite_name}.md{suffix}", RESULTS / f"{suite_name}.png{suffix}"
        md.write_text(report, encoding="utf-8")
        suite.plot(sections, str(png), args.quick)
        print(f"\nwrote {md.relative_to(HERE.parent)} and {png.relative_to(HERE.parent)}")
        if not partial:
            _embed_in_readme(suite_name, report)
        if not all(section.ok for section in sections):
            failed = True
            print(f"\n{suite_name}: some property did NOT hold, see above", file=sys.stderr)
    return 1 if failed else 0


def _embed_in_readme(suite_name: str, report: str) -> None:
    """Replace the README's block between the suite's markers with the report (its title dropped)."""
    if not README.exists():
        return
    start, end = f"<!-- results:{suite_name}:start -->", f"<!-- results:{suite_name}:end -->"
    body = report.split("\n", 2)[2].replace("\n## ", "\n### ")  # the README has its own title
    text = README.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(start) + ".*?" + re.escape(end), re.DOTALL)
    if pattern.search(text):
        README.write_text(pattern.sub(lambda _: f"{start}\n{body}{end}", text), encoding="utf-8")
        print(f"refreshed the {suite_name} results in {README.relative_to(HERE.parent)}")


if __name__ == "__main__":
    sys.exit(main())
