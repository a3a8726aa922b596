"""tools/classroom's place in the design (docs/design.md, "The classroom hub"), checked from the source:
no import between it and lesson_lib, and the modules copied into the hub root need no third-party package
but jupyterhub (and traitlets, which jupyterhub brings)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLASSROOM = ROOT / "tools" / "classroom"


def imported(path: Path) -> set[str]:
    """The top-level names of the modules ``path`` imports (relative imports as ``.``)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add("." if node.level else (node.module or "").split(".")[0])
    return names


def test_lesson_lib_and_the_classroom_do_not_import_each_other():
    for path in CLASSROOM.glob("*.py"):
        assert "lesson_lib" not in imported(path), path
    for path in (ROOT / "lesson_lib").rglob("*.py"):
        assert not imported(path) & {"classroom", "tools"}, path


def test_the_modules_copied_into_the_hub_root_need_only_the_standard_library_and_jupyterhub():
    allowed = set(sys.stdlib_module_names) | {".", "__future__", "jupyterhub", "traitlets"}
    for name in ("cgroups.py", "learners.py", "hubside.py"):
        assert imported(CLASSROOM / name) <= allowed, name
    for name in ("cgroups.py", "learners.py"):
        assert imported(CLASSROOM / name) <= set(sys.stdlib_module_names) | {".", "__future__"}, name
