"""No module writes another object's private attributes: a change to one layer cannot silently
desynchronise another that reached into it (docs/design.md; issue 13).

The scan reads every module of lesson_lib with ``ast`` and reports each place that assigns, augments,
annotates, deletes or ``setattr``-s an attribute whose name starts with one underscore on anything but
``self`` or ``cls``, or calls a mutating method (``append``, ``clear``...) on such an attribute. Reading
another object's private attribute is not covered here (it cannot desynchronise anything by itself).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

LESSON_LIB = Path(__file__).resolve().parent.parent / "lesson_lib"
_MUTATORS = {"append", "extend", "insert", "pop", "remove", "clear", "update", "add", "discard", "setdefault",
             "popitem", "sort", "reverse", "__setitem__", "__delitem__"}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _foreign_private(node: ast.AST) -> ast.Attribute | None:
    """The first ``<not self/cls>._name`` attribute on the way down an assignment target, if any."""
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Starred):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            owner = node.value
            if not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")):
                return node
        node = node.value
    return None


def _targets(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.Assign):
        found = list(node.targets)
    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
        found = [node.target]
    elif isinstance(node, ast.Delete):
        found = list(node.targets)
    elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
        found = [node.target]
    elif isinstance(node, ast.With | ast.AsyncWith):
        found = [item.optional_vars for item in node.items if item.optional_vars is not None]
    else:
        return []
    flat: list[ast.AST] = []
    while found:
        target = found.pop()
        if isinstance(target, ast.Tuple | ast.List):
            found.extend(target.elts)
        else:
            flat.append(target)
    return flat


def foreign_private_writes(source: str, filename: str = "<source>") -> list[str]:
    """Every write to another object's private attribute in ``source``, as ``file:line: code``."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        for target in _targets(node):
            attribute = _foreign_private(target)
            if attribute is not None:
                found.append(f"{filename}:{node.lineno}: {ast.unparse(target)}")
        is_call = isinstance(node, ast.Call)
        if is_call and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr"):
            args = node.args
            if (
                len(args) >= 2
                and isinstance(args[1], ast.Constant)
                and isinstance(args[1].value, str)
                and _private(args[1].value)
                and not (isinstance(args[0], ast.Name) and args[0].id in ("self", "cls"))
            ):
                found.append(f"{filename}:{node.lineno}: {ast.unparse(node)}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _MUTATORS
            and _foreign_private(node.func.value) is not None
        ):
            found.append(f"{filename}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_of_lesson_lib_writes_another_objects_private_attributes():
    files = sorted(LESSON_LIB.rglob("*.py"))
    assert len(files) > 20  # the scan sees the whole package, sub-packages included
    found = [
        hit
        for path in files
        for hit in foreign_private_writes(path.read_text(encoding="utf-8"), str(path.relative_to(LESSON_LIB)))
    ]
    assert found == []


# What the fast path looked like before issue 13 (lesson_lib/core/sse.py at e5bb9e8, SSEParser._feed_lines):
# nine private attributes of the decoder and the line splitter, written from the parser.
_OLD_FEED_LINES = """
def _feed_lines(self, chunk):
    decoder, lines, raw = self._decoder, self._lines, self._raw
    decoder._bytes_in += len(data) - len(held)
    held = decoder._held = bytes(data[consumed:]) if consumed != len(data) else b""
    lines._chars_in += len(text)
    lines._after_cr = after_cr
    lines._last_text, lines._last_text_start = body, start
    lines._parts = [tail] if tail else []
    lines._pending = len(tail)
    lines._lines_out += complete
"""


def test_the_scan_finds_the_old_fast_paths_nine_writes():
    found = foreign_private_writes(_OLD_FEED_LINES)
    names = sorted(hit.rsplit(".", 1)[-1] for hit in found)
    assert names == sorted(
        ["_bytes_in", "_held", "_chars_in", "_after_cr", "_last_text", "_last_text_start", "_parts",
         "_pending", "_lines_out"]
    )


@pytest.mark.parametrize(
    "code",
    [
        "other._x = 1",
        "self.other._x = 1",
        "a, b._y = 1, 2",
        "other._count += 1",
        "other._items[0] = 1",
        "del other._x",
        "setattr(other, '_x', 1)",
        "other._parts.append(1)",
        "self._lines._parts.clear()",
        "for other._i in range(3): pass",
    ],
)
def test_the_scan_finds_each_kind_of_write(code):
    assert len(foreign_private_writes(code)) == 1


@pytest.mark.parametrize(
    "code",
    [
        "self._x = 1",
        "cls._x = 1",
        "x = other._x",
        "other.public = 1",
        "other.__dict__ = {}",
        "self._parts.append(1)",
    ],
)
def test_the_scan_leaves_own_attributes_and_reads_alone(code):
    assert foreign_private_writes(code) == []
