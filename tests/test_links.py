"""Every relative link in the course's documents and lessons, in both editions, points to a file that exists.

A link is resolved as a reader's viewer resolves it: from the folder of the document that holds it. Web
links (``http``, ``https``, ``mailto``) and in-page anchors are not followed here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def documents() -> list[tuple[Path, str]]:
    """(path, markdown text) of the READMEs, docs/ and every notebook's markdown cells."""
    found = [
        (p, p.read_text(encoding="utf-8")) for p in [*ROOT.glob("README*.md"), *(ROOT / "docs").glob("*.md")]
    ]
    for path in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        text = "\n".join(
            "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in cells
            if c["cell_type"] == "markdown"
        )
        found.append((path, text))
    return found


def broken_links(path: Path, text: str, root: Path = ROOT) -> list[str]:
    """The relative links in ``text`` (held by ``path``) whose file does not exist."""
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        file = target.split("#", 1)[0]
        if file and not (path.parent / file).exists():
            broken.append(f"{path.relative_to(root)}: {target}")
    return broken


def test_every_relative_link_resolves():
    assert [b for path, text in documents() for b in broken_links(path, text)] == []


def test_a_broken_link_is_found_and_the_others_are_not(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("")
    text = "see [a](missing.md), [b](page.md#top), [c](https://x.org/y), [d](#here), [e](../tmp/none.md)"
    assert broken_links(page, text, tmp_path) == ["page.md: missing.md", "page.md: ../tmp/none.md"]
