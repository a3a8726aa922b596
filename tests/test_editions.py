"""The Simplified Chinese edition (notebooks/zh-CN/) is the English course cell for cell.

Each Chinese notebook has the English one's cells, in the same order, of the same types and tags. Its
code cells are the English code: the same syntax tree once comments are set aside and prose strings
(strings that a learner reads: with a space or a non-ASCII character in them, on either side) are allowed
to say the same thing in Chinese. Every other constant (bytes on the wire, capture names, keys, numbers)
must be identical, so a change to a lesson's code fails here until it lands in both editions.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
ZH = NOTEBOOKS / "zh-CN"
#: The only call whose argument differs between the editions although it is not prose.
LANGUAGE_CALL = "set_language"
#: What an IPython ``%magic`` or ``!shell`` line becomes for the comparison (compared exactly).
MAGIC = "__ipython__"
#: The context of a print() argument: its strings are prose (but not those of calls nested in it).
PRINTED = "print"


def english_notebooks() -> list[Path]:
    """Every lesson and exercise notebook of the English edition (learner copies and solutions)."""
    return sorted(
        p for p in NOTEBOOKS.rglob("*.ipynb") if ZH not in p.parents and ".ipynb_checkpoints" not in p.parts
    )


def chinese_notebooks() -> list[Path]:
    return sorted(p for p in ZH.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _source(cell: dict) -> str:
    source = cell["source"]
    return "".join(source) if isinstance(source, list) else source


def _parse(code: str) -> ast.Module:
    """A cell's code as a syntax tree; IPython's ``%magic`` and ``!shell`` lines become comparable calls."""
    lines = [
        f"{MAGIC}({line.strip()!r})" if line.lstrip().startswith(("%", "!")) else line
        for line in code.splitlines()
    ]
    flags = ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
    return compile("\n".join(lines), "<cell>", "exec", flags=flags, dont_inherit=True)


def is_prose(value: str) -> bool:
    return any(c.isspace() or not c.isascii() for c in value)


def code_differences(english: str, chinese: str) -> list[str]:
    """Where two code cells differ other than in comments and prose strings ([] if nowhere)."""
    problems: list[str] = []

    def walk(a: object, b: object, where: str, context: str = "") -> None:
        if isinstance(a, ast.AST) or isinstance(b, ast.AST):
            if type(a) is not type(b):
                problems.append(f"{where}: {type(a).__name__} in English, {type(b).__name__} in Chinese")
                return
            if isinstance(a, ast.Constant) and isinstance(b, ast.Constant):
                if a.value == b.value:
                    return
                both_str = isinstance(a.value, str) and isinstance(b.value, str)
                if (
                    both_str
                    and context != MAGIC
                    and (context in (LANGUAGE_CALL, PRINTED) or is_prose(a.value) or is_prose(b.value))
                ):
                    return
                problems.append(f"{where}: {a.value!r} in English, {b.value!r} in Chinese")
                return
            if context == PRINTED and not isinstance(a, ast.JoinedStr):
                context = ""  # only print()'s own strings and f-string text, not the code inside them
            if isinstance(a, ast.Call):
                called = getattr(a.func, "attr", getattr(a.func, "id", None))
                context = called if called in (LANGUAGE_CALL, MAGIC) else context
                if called == "print" and isinstance(b, ast.Call) and len(a.args) == len(b.args):
                    # What print() writes is read by a learner: its string arguments (and the text of
                    # its f-strings) are prose even when they are one word ("stopped:", "ms").
                    walk(a.func, b.func, f"{where}.func", context)
                    for index, (x, y) in enumerate(zip(a.args, b.args, strict=True)):
                        walk(x, y, f"{where}.args[{index}]", PRINTED)
                    walk(a.keywords, b.keywords, f"{where}.keywords", context)
                    return
            for name in a._fields:
                walk(getattr(a, name), getattr(b, name), f"{where}.{name}", context)
        elif isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                problems.append(f"{where}: {len(a)} items in English, {len(b)} in Chinese")
                return
            for index, (x, y) in enumerate(zip(a, b, strict=True)):
                walk(x, y, f"{where}[{index}]", context)
        elif a != b:
            problems.append(f"{where}: {a!r} in English, {b!r} in Chinese")

    walk(_parse(english), _parse(chinese), "code")
    return problems


def pair_problems(english_path: Path, chinese_path: Path) -> list[str]:
    english, chinese = _cells(english_path), _cells(chinese_path)
    if len(english) != len(chinese):
        return [f"{len(english)} cells in English, {len(chinese)} in Chinese"]
    problems = []
    for index, (a, b) in enumerate(zip(english, chinese, strict=True)):
        if a["cell_type"] != b["cell_type"]:
            problems.append(f"cell {index}: {a['cell_type']} in English, {b['cell_type']} in Chinese")
            continue
        tags_a, tags_b = a.get("metadata", {}).get("tags", []), b.get("metadata", {}).get("tags", [])
        if sorted(tags_a) != sorted(tags_b):
            problems.append(f"cell {index}: tags {tags_a} in English, {tags_b} in Chinese")
        if a["cell_type"] == "code":
            problems += [f"cell {index}: {p}" for p in code_differences(_source(a), _source(b))]
        elif sum(c.isalpha() for c in _source(a)) > 3 and not any(
            "\u4e00" <= c <= "\u9fff" for c in _source(b)
        ):
            problems.append(f"cell {index}: the markdown has no Chinese (not translated)")
    return problems


def test_every_chinese_notebook_matches_its_english_one_cell_for_cell():
    problems = {
        str(p.relative_to(ZH)): pair_problems(NOTEBOOKS / p.relative_to(ZH), p)
        for p in chinese_notebooks()
        if (NOTEBOOKS / p.relative_to(ZH)).exists()
    }
    assert {name: found for name, found in problems.items() if found} == {}


#: Strong absolute words in Chinese prose (always, never, forever, the only, cannot, every single, all the).
ZH_ABSOLUTE = re.compile(r"总是|从不|从来不|从来没|永远|绝不|唯一|不可能|每一个|所有的")
EN_ABSOLUTE = re.compile(
    r"\b(never|always|every\w*|only|none|nothing|all|cannot|can['’]t|can not|must)\b", re.I
)
INLINE_CODE = re.compile(r"`[^`]*`")


def test_chinese_absolutes_come_from_the_english():
    """A Chinese lesson cell says "always", "never", "the only"... only where its English cell makes an
    absolute claim, which tests/test_claims.py holds to a proof: a translation adds no claim of its own."""
    added = []
    for chinese in sorted(ZH.glob("[0-9][0-9]_*.ipynb")):
        pairs = zip(_cells(NOTEBOOKS / chinese.name), _cells(chinese), strict=True)
        for index, (a, b) in enumerate(pairs):
            if b["cell_type"] != "markdown":
                continue
            said = ZH_ABSOLUTE.findall(INLINE_CODE.sub("", _source(b)))
            if said and not EN_ABSOLUTE.search(INLINE_CODE.sub("", _source(a))):
                added.append(f"{chinese.name} cell {index}: {said}")
    assert added == []


def test_no_chinese_notebook_without_an_english_one():
    orphans = [p for p in chinese_notebooks() if not (NOTEBOOKS / p.relative_to(ZH)).exists()]
    assert orphans == []


def test_the_comparison_sees_code_drift_and_ignores_prose():
    english = 'set_language("en")\nx = load("openai-chat/completed")  # a capture\nprint(len(x), "bytes in")'
    same = 'set_language("zh-CN")\nx = load("openai-chat/completed")  # 一个样本\nprint(len(x), "字节,共")'
    assert code_differences(english, same) == []
    assert code_differences(english, same.replace("completed", "truncated"))  # a non-prose string
    assert code_differences(english, same.replace("len(x)", "len(x) + 1"))  # code
    assert code_differences("f(b'data: a')", "f(b'data: b')")  # bytes are never prose
    assert code_differences("%matplotlib inline\nx = 1", "%matplotlib widget\nx = 1")
    assert code_differences('print(f"{n} events")', 'print(f"{n} 个事件")') == []
    assert code_differences('print(f"{n} events")', 'print(f"{n + 1} 个事件")')
    assert code_differences('print(x, "stopped:", y)', 'print(x, "停止：", y)') == []  # printed: prose
    assert code_differences('print(load("ok"))', 'print(load("no"))')  # an argument of a call inside
    assert code_differences("print(f\"{d['k']}\")", "print(f\"{d['v']}\")")  # code inside an f-string
    assert code_differences('label("stopped:")', 'label("halted:")')  # one word, not printed: not prose
