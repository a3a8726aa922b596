"""What nbval does not check: every lesson is committed executed, portable and shaped as a lesson."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted(
    p for p in (Path(__file__).resolve().parent.parent / "notebooks").rglob("*.ipynb")
    if ".ipynb_checkpoints" not in p.parts
)
LESSONS = [p for p in NOTEBOOKS if re.match(r"\d\d_", p.name) and p.parent.name == "notebooks"]
MACHINE_PATH = re.compile(r"/(root|home|tmp|work|Users)/[\w.-]+|[A-Z]:\\\\")


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def source(cell: dict) -> str:
    return "".join(cell["source"])


def code_cells(path: Path) -> list[dict]:
    return [c for c in cells(path) if c["cell_type"] == "code" and source(c).strip()]


def test_the_lessons_exist():
    names = {p.name for p in LESSONS}
    assert "00_start_here.ipynb" in names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_committed_with_outputs_in_order(path):
    counts = [c["execution_count"] for c in code_cells(path)]
    assert None not in counts, "a code cell was never executed: run `make outputs`"
    assert counts == list(range(1, len(counts) + 1)), "not executed top to bottom in one fresh kernel"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_one_kernelspec(path):
    spec = json.loads(path.read_text(encoding="utf-8"))["metadata"]["kernelspec"]
    assert spec["name"] == "python3"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_machine_paths_or_addresses(path):
    text = path.read_text(encoding="utf-8")
    assert not MACHINE_PATH.search(text)
    for cell in code_cells(path):
        for output in cell.get("outputs", []):
            plain = "".join(output.get("data", {}).get("text/plain", "")) + "".join(output.get("text", ""))
            assert not re.search(r" at 0x[0-9a-f]{6,}", plain), "a repr with a memory address"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_outputs_are_deterministic_kinds(path):
    for cell in code_cells(path):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            assert "image/svg+xml" not in data and "image/jpeg" not in data, "figures are PNG only"
            if output.get("output_type") == "error":
                assert "raises-exception" in cell["metadata"].get("tags", []), "an unexpected error"
        assert "MPLBACKEND" not in source(cell)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_lesson_opens_with_objectives_prerequisites_and_time(path):
    first = source(cells(path)[0]).lower()
    for word in ("objectives", "prerequisites", "time"):
        assert word in first, f"the first cell should state the lesson's {word}"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_lesson_ends_with_a_recap_and_checkable_questions(path):
    text = "\n".join(source(c) for c in cells(path)[-8:])
    assert re.search(r"^#+ .*recap", text, re.I | re.M), "no recap section near the end"
    assert "check(" in text, "no question checked with lesson_lib.exercises near the end"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_lessons_use_lesson_lib_rather_than_reimplementing_a_layer(path):
    code = "\n".join(source(c) for c in code_cells(path))
    assert "lesson_lib" in code
    assert not re.search(r"^class \w*(Parser|Decoder|Splitter)\b", code, re.M)
    assert "getincrementaldecoder" not in code or "lesson_lib.core.decoding" in code
