"""Every absolute sentence in the lessons has its proof on record (tests/claims.toml).

The course standard: a sentence in a lesson that says "never", "always", "every" or "only" is computed in a
cell over all the captures, or proven by a test, or it goes. This module makes that checkable.

The extraction rule (the same for the registry and for this test, nothing else is looked at):

1. Files: the markdown cells of ``notebooks/NN_*.ipynb`` (the numbered lessons, not ``exercises/``),
   ``docs/instructor.md``, ``README.md``, ``docs/design.md`` and ``CONTRIBUTING.md``.
2. Units: markdown is cut into blocks at blank lines. A heading line, a table row (but not a ``|---|`` rule)
   and each line of a fenced code block are units of their own; a list item (``-``, ``*`` or ``1.``) starts
   a new block. A block that is not a table row or code line is split into sentences after ``.``, ``!`` or
   ``?`` followed by white space and then a capital letter, a digit, a backtick, ``*``, ``"``, ``(``, ``[``
   or ``_``; not after ``e.g.``, ``i.e.``, ``etc.`` or ``vs.``. White space in a unit is collapsed to one
   space; the text is otherwise kept exactly as written.
3. A unit is a claim to check when, with its inline code spans (```...```) removed, it contains one of the
   words never, always, every (and every...), only, none, nothing, all, cannot, can't, can not, must
   (whole words, any case).

The registry ``tests/claims.toml`` has one ``[[claim]]`` per such unit: ``file``, the ``sentence`` as
extracted, and its ``kind``:

- ``test``: proven by tests; ``proof`` lists node ids ``tests/test_x.py::name`` (or ``::Class::name``).
- ``cell``: computed by a code cell of the same notebook; ``proof`` lists ``notebooks/NN_x.ipynb#cell-id``.
- ``spec``: a fact about a standard or a service, quoted or paraphrased; ``source`` says where it is stated.
- ``measured``: a figure from ``make bench``; ``source`` starts with the file in this repository that
  stores the measurement.
- ``definition``: says what a word, an API or the course means or does by construction; not a finding.
- ``instruction``: tells the learner or the instructor what to do (or what a button is called).

Each entry may have a ``note`` for the reviewer.
"""

from __future__ import annotations

import importlib
import json
import re
import tomllib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REGISTRY = ROOT / "tests" / "claims.toml"
KINDS = {"test", "cell", "spec", "measured", "definition", "instruction"}
#: The maintainer's guides, checked like the lessons.
GUIDES = [ROOT / "docs" / "design.md", ROOT / "CONTRIBUTING.md"]

ABSOLUTE = re.compile(r"\b(never|always|every\w*|only|none|nothing|all|cannot|can['’]t|can not|must)\b", re.I)
INLINE_CODE = re.compile(r"`[^`]*`")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9`*\"(\[_])")
ABBREVIATION = re.compile(r"\b(e\.g|i\.e|etc|vs)\.$")
TABLE_RULE = re.compile(r"\|[\s:|-]*\|")
LIST_ITEM = re.compile(r"([-*]|\d+\.)\s")


def claim_files() -> list[Path]:
    """The files the rule covers, in a stable order."""
    lessons = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    return [*lessons, ROOT / "docs" / "instructor.md", ROOT / "README.md", *GUIDES]


def units(markdown: str) -> Iterator[str]:
    """Headings, table rows, code lines and sentences of one markdown text, white space collapsed."""
    block: list[str] = []
    fenced = False

    def sentences() -> Iterator[str]:
        if not block:
            return
        parts: list[str] = []
        for part in SENTENCE_END.split(" ".join(block)):
            if parts and ABBREVIATION.search(parts[-1]):
                parts[-1] += " " + part
            else:
                parts.append(part)
        block.clear()
        yield from parts

    for line in markdown.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            yield from sentences()
            fenced = not fenced
        elif fenced:
            yield stripped
        elif not stripped:
            yield from sentences()
        elif stripped.startswith(("#", "|")):
            yield from sentences()
            if not TABLE_RULE.fullmatch(stripped):
                yield stripped
        else:
            if LIST_ITEM.match(stripped):
                yield from sentences()
            block.append(stripped)
    yield from sentences()


def is_absolute(unit: str) -> bool:
    return bool(ABSOLUTE.search(INLINE_CODE.sub("", unit)))


def markdown_of(path: Path) -> list[str]:
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown"]
    return [path.read_text(encoding="utf-8")]


def extract() -> list[tuple[str, str]]:
    """Every (file, sentence) the rule selects, in file order; a sentence written twice appears twice."""
    found = []
    for path in claim_files():
        for markdown in markdown_of(path):
            for unit in units(markdown):
                text = " ".join(unit.split())
                if is_absolute(text):
                    found.append((path.relative_to(ROOT).as_posix(), text))
    return found


def registry() -> list[dict]:
    return tomllib.loads(REGISTRY.read_text(encoding="utf-8")).get("claim", [])


def entry_id(entry: dict) -> str:
    return f"{entry['file']}: {entry['sentence'][:70]}"


# --- the rule itself ------------------------------------------------------------------------------------


def test_the_rule_finds_absolute_words_outside_code_only():
    assert is_absolute("It never holds more than 3 bytes.")
    assert is_absolute("Every buffer has a bound")
    assert is_absolute("A decoder can't tell.") and is_absolute("JSON can not carry it.")
    assert not is_absolute("Use `only_once()` here.")  # inside inline code
    assert not is_absolute("A finally block runs on exit.")  # 'finally' is not 'all'
    assert not is_absolute("Some reads are small.")


def test_the_rule_cuts_sentences_tables_headings_and_code_lines():
    markdown = (
        "## 1. Every cut\n\nFirst sentence, e.g. this one. Second `x` sentence\ncontinues here.\n"
        "- a list item\n  continued\n- another\n\n| a | b |\n|---|---|\n| c | d |\n\n"
        "```py\nx = 1  # code\n```\n"
    )
    assert list(units(markdown)) == [
        "## 1. Every cut",
        "First sentence, e.g. this one.",
        "Second `x` sentence continues here.",
        "- a list item continued",
        "- another",
        "| a | b |",
        "| c | d |",
        "x = 1  # code",
    ]


def test_the_rule_covers_every_lesson_and_the_documents():
    names = [path.name for path in claim_files()]
    numbers = [name[:2] for name in names[:-4]]
    assert numbers == sorted(numbers) and {f"{n:02}" for n in range(11)} <= set(numbers)
    assert names[-4:] == ["instructor.md", "README.md", "design.md", "CONTRIBUTING.md"]
    assert all(path.is_file() for path in claim_files())


# --- the registry against the files ---------------------------------------------------------------------


def unregistered(found: list[tuple[str, str]], entries: list[dict]) -> list[str]:
    known = {(entry["file"], entry["sentence"]) for entry in entries}
    return [f"{file}: {sentence}" for file, sentence in found if (file, sentence) not in known]


def stale(found: list[tuple[str, str]], entries: list[dict]) -> list[str]:
    present = set(found)
    return [entry_id(entry) for entry in entries if (entry["file"], entry["sentence"]) not in present]


def test_every_absolute_sentence_is_registered():
    missing = unregistered(extract(), registry())
    assert not missing, (
        "these sentences say never/always/every/only/... and have no entry in tests/claims.toml; prove them "
        "(a test, or a cell over all the captures), or say exactly what is true:\n" + "\n".join(missing)
    )


def test_no_registry_entry_is_stale():
    gone = stale(extract(), registry())
    assert not gone, "registry entries whose sentence is no longer in the file:\n" + "\n".join(gone)


def test_each_sentence_is_registered_once():
    counts = Counter((entry["file"], entry["sentence"]) for entry in registry())
    assert [key for key, count in counts.items() if count > 1] == []


@pytest.mark.parametrize("entry", registry(), ids=entry_id)
def test_entry_has_a_kind_and_what_that_kind_needs(entry):
    assert set(entry) <= {"file", "sentence", "kind", "proof", "source", "note"}, "unknown keys"
    assert entry["kind"] in KINDS
    if entry["kind"] in ("test", "cell"):
        assert entry.get("proof"), "a test or cell claim names its proof"
    else:
        assert "proof" not in entry, "only test and cell claims have a proof"
    if entry["kind"] == "spec":
        assert entry.get("source", "").strip(), "a spec claim says where the fact is stated"
    if entry["kind"] == "measured":
        stored = entry.get("source", "").split()[0] if entry.get("source") else ""
        assert (ROOT / stored).is_file(), "a measured claim names the file that stores the measurement"


def resolve_test(node: str):
    """The function a node id names, imported from its module, or an AssertionError naming what is missing."""
    path, _, rest = node.partition("::")
    assert path.startswith("tests/") and path.endswith(".py") and rest, f"not a test node id: {node}"
    assert (ROOT / path).is_file(), f"no such test file: {path}"
    parts = path[:-3].split("/")
    for depth in range(2, len(parts)):  # its folders' conftests first, as pytest loads them (sys.path)
        if (ROOT.joinpath(*parts[:depth]) / "conftest.py").is_file():
            importlib.import_module(".".join([*parts[:depth], "conftest"]))
    module = importlib.import_module(".".join(parts))
    target = module
    for name in rest.split("::"):
        assert hasattr(target, name), f"{node}: {name} not found"
        target = getattr(target, name)
    assert callable(target) and target.__name__.startswith("test"), f"{node} is not a test"
    return target


@pytest.mark.parametrize(
    "node", sorted({p for e in registry() if e["kind"] == "test" for p in e["proof"]}), ids=str
)
def test_each_proving_test_exists(node):
    resolve_test(node)


@pytest.mark.parametrize("entry", [e for e in registry() if e["kind"] == "cell"], ids=entry_id)
def test_each_proving_cell_is_a_code_cell_of_the_same_notebook(entry):
    for pointer in entry["proof"]:
        notebook, _, cell_id = pointer.partition("#")
        if entry["file"].endswith(".ipynb"):
            assert notebook == entry["file"], f"{pointer}: a lesson's claim is computed in that lesson"
        path = ROOT / notebook
        assert path.is_file() and cell_id, f"no such notebook or no cell id: {pointer}"
        cells = {c.get("id"): c for c in json.loads(path.read_text(encoding="utf-8"))["cells"]}
        assert cell_id in cells, f"{pointer}: no cell with that id"
        assert cells[cell_id]["cell_type"] == "code", f"{pointer} is not a code cell"
        assert cells[cell_id].get("outputs"), f"{pointer} has no stored output to show the learner"


def test_the_registry_checks_can_fail():
    """A new absolute sentence, a changed one and a missing test are each noticed (the checks can fail)."""
    entries = [{"file": "README.md", "sentence": "It always works."}]
    found = [("README.md", unit) for unit in units("It always works. It never fails.") if is_absolute(unit)]
    assert unregistered(found, entries) == ["README.md: It never fails."]
    assert stale([("README.md", "It always works, mostly.")], entries) == ["README.md: It always works."]
    with pytest.raises(AssertionError, match="not found"):
        resolve_test("tests/test_claims.py::test_that_does_not_exist")
    with pytest.raises(AssertionError, match="is not a test"):
        resolve_test("tests/test_claims.py::resolve_test")
