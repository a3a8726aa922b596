"""Every dotted ``lesson_lib...`` name a learner or a maintainer reads resolves to a module or an attribute.

A lesson that says "``lesson_lib.relay.RelayServer``" after the class moved sends a learner to an
``ImportError``. The notebooks (both editions, prose and code), the READMEs, the docs and the catalogues
are searched; each name is resolved by importing its longest importable prefix and reading the rest as
attributes. And the notebooks import only from the public packages (``docs/design.md``).
"""

from __future__ import annotations

import ast
import importlib
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NAME = re.compile(r"\blesson_lib(?:\.[A-Za-z_]\w*)*")
#: Names docs/design.md reserves for work not built yet ("Beyond the notebooks"); a name leaves this set
#: when its module lands, and then it must resolve like any other.
RESERVED: tuple[str, ...] = ()
PUBLIC = {
    "lesson_lib",
    "lesson_lib.net",
    "lesson_lib.teach.widgets",
    "lesson_lib.teach.viz",
    "lesson_lib.exercises",
    "lesson_lib.captures",
    "lesson_lib.guard",
    "lesson_lib.faults",
    "lesson_lib.teach.fault_scores",
    "lesson_lib.teach.proxy_matrix",
    "lesson_lib.teach.bench_names",
}


FILES = sorted(
    str(p.relative_to(ROOT))
    for pattern in ("notebooks/**/*.ipynb", "*.md", "docs/*.md", "lesson_lib/i18n/locales/*/*.py")
    for p in ROOT.glob(pattern)
)


def _texts(path: Path) -> list[tuple[str, str]]:
    """(where, text) pairs: a notebook's cells by id, or the whole file."""
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        return [(cell["id"], "".join(cell["source"])) for cell in cells]
    return [("", path.read_text(encoding="utf-8"))]


def resolves(name: str) -> bool:
    """True if ``name`` is an importable module, or an importable module followed by attributes."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def test_the_resolver_can_fail() -> None:
    assert resolves("lesson_lib.net.RelayServer") and resolves("lesson_lib.core.sse")
    assert not resolves("lesson_lib.relay.RelayServer") and not resolves("lesson_lib.SSEParser.nope")


@pytest.mark.parametrize("name", FILES)
def test_every_lesson_lib_name_resolves(name: str) -> None:
    unresolved = [
        f"{where} {found}"
        for where, text in _texts(ROOT / name)
        for found in sorted({m.group(0) for m in NAME.finditer(text)})
        if not resolves(found) and not found.startswith(RESERVED)
    ]
    assert unresolved == []


def test_notebooks_import_only_public_packages() -> None:
    private = []
    for path in sorted(ROOT.glob("notebooks/**/*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "code":
                continue
            lines = "".join(cell["source"]).splitlines()
            src = "\n".join(line for line in lines if not line.lstrip().startswith(("%", "!")))
            for node in ast.walk(ast.parse(src)):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("lesson_lib"):
                    if node.module not in PUBLIC:
                        private.append(f"{path.relative_to(ROOT)} {cell['id']}: {node.module}")
                elif isinstance(node, ast.Import):
                    private += [
                        f"{path.relative_to(ROOT)} {cell['id']}: {a.name}"
                        for a in node.names
                        if a.name.startswith("lesson_lib") and a.name not in PUBLIC
                    ]
    assert private == []


def test_the_public_api_the_design_lists_exists() -> None:
    """Each backticked name in a bullet of docs/design.md's "The public API" is an attribute of that bullet's
    packages (prose words such as TypedDict are not code names of the package and are listed apart)."""
    prose = {"TypedDict", "Unpack"}
    text = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    section = text[text.index("## The public API") : text.index("### Beyond the notebooks")]
    section = section.split("\n\n")[2]  # the bullets, not the paragraphs around them
    missing, bullets = [], re.split(r"\n- ", "\n" + section)[1:]
    for item in bullets:
        packages = [importlib.import_module(m) for m in re.findall(r"`(lesson_lib[\w.]*)`", item)]
        for name in re.findall(r"`(\w+)`", item):
            if name.startswith("lesson_lib") or name in prose:
                continue
            if not any(hasattr(package, name) for package in packages):
                missing.append(name)
    assert len(bullets) >= 5 and missing == []


@pytest.mark.parametrize("name", FILES)
def test_every_test_file_a_text_names_exists(name: str) -> None:
    """A lesson or guide that cites ``tests/core/test_x.py`` as its proof names a file that is there."""
    missing = [
        f"{where} {path}"
        for where, text in _texts(ROOT / name)
        for path in sorted(set(re.findall(r"\btests/[\w/]+\.py\b", text)))
        if not (ROOT / path).is_file() and not path.endswith("/test_x.py")  # test_x: a placeholder
    ]
    assert missing == []
