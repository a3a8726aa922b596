"""The exercise notebooks: learner copies are exactly what tools/make_exercises.py generates from the
solution notebooks, no solution text leaks into them, and the stored checker outputs say what they must
(✓ in every solution copy, "not attempted yet" in every learner copy)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = ROOT / "notebooks" / "exercises"
SOLUTIONS = sorted((EXERCISES / "solutions").glob("*.ipynb"))
LEARNERS = sorted(EXERCISES.glob("*.ipynb"))
CHECKER_CALL = re.compile(r"^check_\w+\(")


def _load_tool():
    spec = importlib.util.spec_from_file_location("make_exercises", ROOT / "tools" / "make_exercises.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_exercises = _load_tool()


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def output_text(cell: nbformat.NotebookNode) -> str:
    parts = []
    for output in cell.get("outputs", []):
        parts.append("".join(output.get("text", "")))
        parts.append("".join(output.get("data", {}).get("text/plain", "")))
        parts.extend(output.get("traceback", []))
    return "\n".join(parts)


def checker_cells(notebook: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    """Code cells whose last line calls a checker: their output is the checker's verdict."""
    found = []
    for cell in notebook.cells:
        lines = cell.source.strip().splitlines()
        if cell.cell_type == "code" and lines and CHECKER_CALL.match(lines[-1]):
            found.append(cell)
    return found


def test_the_four_exercises_exist_in_both_copies():
    names = {p.name for p in SOLUTIONS}
    assert names == {"interview_prep.ipynb", "bug_hunt.ipynb", "adversarial_cuts.ipynb", "build_it.ipynb"}
    assert {p.name for p in LEARNERS} == names


@pytest.mark.parametrize("path", SOLUTIONS + LEARNERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_names_are_not_numbered_lessons(path):
    assert not re.match(r"\d\d", path.name)


@pytest.mark.parametrize("path", SOLUTIONS + LEARNERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_first_cell_states_objectives_prerequisites_and_time(path):
    first = read(path).cells[0].source.lower()
    for word in ("objectives", "prerequisites", "time"):
        assert word in first


def test_learner_copies_are_what_make_exercises_generates(tmp_path):
    generated = make_exercises.generate(out_dir=tmp_path, solutions=EXERCISES / "solutions")
    assert sorted(p.name for p in generated) == sorted(p.name for p in LEARNERS)
    for path in generated:
        expected = [(c.cell_type, c.source) for c in read(path).cells]
        committed = [(c.cell_type, c.source) for c in read(EXERCISES / path.name).cells]
        assert committed == expected, f"{path.name} is stale: run `make exercises`"
    assert make_exercises.stale() == []


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.name)
def test_every_solution_notebook_has_solution_regions(path):
    regions = [
        line
        for cell in read(path).cells
        if cell.cell_type in ("code", "markdown")
        for line in make_exercises.solution_text(cell.source, cell.cell_type)
    ]
    assert regions


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.name)
def test_no_solution_text_leaks_into_the_learner_copy(path):
    solution = read(path)
    learner = read(EXERCISES / path.name)
    hidden, visible = set(), []
    for cell in solution.cells:
        inside = make_exercises.solution_text(cell.source, cell.cell_type)
        hidden.update(line.strip() for line in inside if len(line.strip()) >= 8)
        outside = set(inside)
        visible.extend(line for line in cell.source.splitlines() if line not in outside)
    hidden -= {line.strip() for line in visible}  # lines the notebook also shows outside a region
    assert hidden
    learner_text = "\n".join(cell.source + "\n" + output_text(cell) for cell in learner.cells)
    for marker in ("BEGIN SOLUTION", "END SOLUTION"):
        assert marker not in learner_text
    leaked = sorted(line for line in hidden if line in learner_text)
    assert not leaked, leaked


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.name)
def test_solution_checker_cells_report_success(path):
    for cell in checker_cells(read(path)):
        verdict = output_text(cell)
        assert "✓ correct" in verdict, (cell.source, verdict)
        assert "✗" not in verdict


@pytest.mark.parametrize("path", LEARNERS, ids=lambda p: p.name)
def test_learner_checker_cells_report_not_attempted(path):
    for cell in checker_cells(read(path)):
        verdict = output_text(cell)
        assert "✗ not yet" in verdict and "not attempted yet" in verdict, (cell.source, verdict)


def test_the_exercises_with_code_have_checker_cells():
    counts = {p.name: len(checker_cells(read(p))) for p in SOLUTIONS}
    assert counts == {
        "adversarial_cuts.ipynb": 4,
        "bug_hunt.ipynb": 6,
        "build_it.ipynb": 3,
        "interview_prep.ipynb": 0,
    }


# -- the stripping rules -----------------------------------------------------------------------------------


def test_an_indented_region_becomes_not_implemented():
    source = 'def f(x):\n    """Doc."""\n    ### BEGIN SOLUTION\n    y = x + 1\n    return y\n'
    source += "    ### END SOLUTION\n"
    assert make_exercises.strip_code(source) == (
        'def f(x):\n    """Doc."""\n    raise NotImplementedError("your code here")'
    )


def test_a_top_level_region_of_assignments_becomes_ellipses():
    source = "body = 1\n### BEGIN SOLUTION\ncuts = [3,\n        4]\nx: int = 5\n### END SOLUTION\ncheck(cuts)"
    assert make_exercises.strip_code(source) == "body = 1\ncuts = ...\nx = ...\ncheck(cuts)"


@pytest.mark.parametrize(
    "source",
    [
        "### BEGIN SOLUTION\nprint(1)\n### END SOLUTION",  # not an assignment at the top level
        "    ### BEGIN SOLUTION\n    x = 1",  # never ended
        "x = 1\n### END SOLUTION",  # never begun
        "### BEGIN SOLUTION\n### BEGIN SOLUTION\nx = 1\n### END SOLUTION\n### END SOLUTION",  # nested
        "x = 1  ### BEGIN SOLUTION",  # not alone on its line
    ],
)
def test_bad_markers_are_refused(source):
    with pytest.raises(make_exercises.MarkerError):
        make_exercises.strip_code(source)


def test_a_markdown_model_answer_becomes_a_request_for_the_learner_s_own():
    source = "### Your answer\n\n<!-- BEGIN SOLUTION -->\nThe model answer.\n<!-- END SOLUTION -->\n\nAfter."
    stripped = make_exercises.strip_markdown(source)
    assert stripped == f"### Your answer\n\n{make_exercises.MARKDOWN_STUB}\n\nAfter."
    assert make_exercises.solution_text(source, "markdown") == ["The model answer."]


def test_learner_notebook_clears_outputs_and_widget_state():
    solution = read(EXERCISES / "solutions" / "bug_hunt.ipynb")
    solution.metadata["widgets"] = {"state": {}}
    learner = make_exercises.learner_notebook(solution)
    assert "widgets" not in learner.metadata
    for cell in learner.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None
