"""The ``boundary-lab`` command (also ``python -m lesson_lib``): ``boundary-lab diagnose INPUT ...``.

Exit status: 0 only when the stream is proven complete (``StreamResult.is_final``); 1 for any other outcome
of a readable stream; 2 when the input cannot be read as a stream, with one line on standard error naming
the problem. No traceback: an unexpected failure (a bug) is one line too, naming its type (exit status 2).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .core.contracts import CONTRACTS
from .diagnose import FORMATS, InputError, diagnose, open_input, render_json, render_text

__all__ = ["build_parser", "main"]

PRIVACY = (
    "No stream content is printed, logged or stored by default: the report holds counts, offsets, byte "
    "classes and the framing's event types and IDs. --show-text adds the answer text, what the naive client "
    "showed, and the bytes around the cut."
)


def _entry(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a HAR entry's index (0 or more), got {value!r}") from None
    if number < 0:
        raise argparse.ArgumentTypeError(f"must be a HAR entry's index (0 or more), got {value!r}")
    return number


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on standard error and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: {message}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="boundary-lab", description="Boundary Lab's tools for your own streams.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sub = commands.add_parser(
        "diagnose",
        help="what a capture of a streamed response proves, layer by layer",
        description="Diagnose one captured streamed response (a raw body, a `curl --trace` file, a HAR "
        "export): bytes, characters, lines, events, values, completion. "
        + PRIVACY
        + " Exit status: 0 only when the stream is proven complete, 1 for any other outcome, 2 when the "
        "input cannot be read as a stream.",
    )
    sub.add_argument("input", metavar="INPUT", help="a capture file, or - for standard input")
    sub.add_argument("--contract", metavar="NAME", help=f"the service's contract: {', '.join(CONTRACTS)}")
    sub.add_argument("--format", choices=["auto", *FORMATS], default="auto", help="the input's format")
    sub.add_argument("--entry", type=_entry, metavar="N", help="the HAR entry to read (0-based)")
    sub.add_argument("--json", action="store_true", help="one JSON object (lesson_lib/diagnose/schema.json)")
    sub.add_argument("--show-text", action="store_true", help="include the stream's content (off by default)")
    sub.add_argument("--rows", type=int, default=10, help=argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (``SystemExit`` for usage errors, as argparse does)."""
    args = build_parser().parse_args(argv)
    try:
        source = open_input(args.input, args.format, args.entry)
        diagnosis = diagnose(source, args.contract, show_text=args.show_text, rows=max(1, args.rows))
    except InputError as exc:
        sys.stderr.write(f"boundary-lab diagnose: {exc}\n")
        return 2
    except (OSError, MemoryError, RecursionError) as exc:
        sys.stderr.write(f"boundary-lab diagnose: cannot read the input ({type(exc).__name__})\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("boundary-lab diagnose: interrupted\n")
        return 130
    except Exception as exc:  # a bug here, not the input's fault: still one line (its type, no content)
        sys.stderr.write(f"boundary-lab diagnose: internal error ({type(exc).__name__}); please report it\n")
        return 2
    output = render_json(diagnosis) + "\n" if args.json else render_text(diagnosis)
    try:
        sys.stdout.write(output)
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    return diagnosis.exit_status


def run() -> None:
    """The console script's entry point."""
    sys.exit(main())
