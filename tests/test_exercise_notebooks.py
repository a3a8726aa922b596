"""The exercise notebooks: learner copies are exactly what tools/make_exercises.py generates from the
solution notebooks, no solution text leaks into them, and the stored checker outputs say what they must
(✓ in every solution copy, "not attempted yet" in every learner copy)."""

from __future__ import annotations

import copy
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
    for out_dir, solutions in make_exercises.EDITIONS:  # the English and the Chinese edition
        assert make_exercises.stale(out_dir, solutions) == [], f"{out_dir}: run `make exercises`"


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
        "bug_hunt.ipynb": 10,
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


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.name)
def test_learner_notebook_clears_outputs_and_widget_state(path):
    solution = read(path)
    solution.metadata["widgets"] = {"state": {}}
    learner = make_exercises.learner_notebook(solution)
    assert "widgets" not in learner.metadata
    for cell in learner.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None
            tags = cell.metadata.get("tags", [])
            assert (make_exercises.IGNORE_OUTPUT in tags) == make_exercises.gives_answers(cell)


# -- no output that gives answers away in a learner copy -----------------------------------------------


def _sections(notebook: nbformat.NotebookNode) -> list[list[int]]:
    """The cell indices of each section: a new section starts at each markdown cell opening with '## '."""
    sections: list[list[int]] = [[]]
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "markdown" and cell.source.startswith("## "):
            sections.append([])
        sections[-1].append(index)
    return [s for s in sections if s]


def cells_that_must_hide_outputs(solution: nbformat.NotebookNode) -> set[int]:
    """The rule in tools/make_exercises.py: a code cell with output, other than a checker's verdict, that
    comes after a solution region of its own section, or in a section without a region of its own once the
    notebook's first region has passed."""
    checkers = {id(cell) for cell in checker_cells(solution)}

    def has_region(index: int) -> bool:
        cell = solution.cells[index]
        return bool(make_exercises.solution_text(cell.source, cell.cell_type))

    must, region_seen = set(), False
    for section in _sections(solution):
        regions = [i for i in section if has_region(i)]
        start = regions[0] if regions else (section[0] if region_seen else None)
        if start is not None:
            for index in section:
                cell = solution.cells[index]
                if index > start and cell.cell_type == "code" and cell.outputs and id(cell) not in checkers:
                    must.add(index)
        region_seen = region_seen or bool(regions)
    return must


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.name)
def test_every_cell_whose_output_gives_answers_away_is_tagged(path):
    solution = read(path)
    tagged = {i for i, cell in enumerate(solution.cells) if make_exercises.gives_answers(cell)}
    missing = cells_that_must_hide_outputs(solution) - tagged
    assert not missing, f"{path.name}: tag cells {sorted(missing)} '{make_exercises.ANSWER_OUTPUT}'"


def test_the_evidence_and_the_brute_force_are_tagged():
    """The two cases the rule was written for: interview prep's evidence cells, adversarial cuts' search."""
    expected = {"interview_prep.ipynb": 7, "adversarial_cuts.ipynb": 1}
    expected.update({"bug_hunt.ipynb": 0, "build_it.ipynb": 0})
    for path in SOLUTIONS:
        notebook = read(path)
        assert len(cells_that_must_hide_outputs(notebook)) == expected[path.name], path.name
        assert sum(make_exercises.gives_answers(c) for c in notebook.cells) == expected[path.name], path.name


@pytest.mark.parametrize("path", LEARNERS, ids=lambda p: p.name)
def test_a_learner_copy_carries_no_output_that_gives_answers_away(path):
    learner = read(path)
    solution = read(EXERCISES / "solutions" / path.name)
    for index in cells_that_must_hide_outputs(solution):
        cell = learner.cells[index]
        assert cell.outputs == [], (path.name, index, output_text(cell))
        assert make_exercises.IGNORE_OUTPUT in cell.metadata.get("tags", []), (path.name, index)
        shown = output_text(solution.cells[index]).strip()
        assert shown and shown not in output_text(cell)
    assert make_exercises.answer_outputs_left(learner) == []


def test_clear_answer_outputs_clears_only_tagged_cells():
    notebook = read(EXERCISES / "solutions" / "interview_prep.ipynb")
    learner = make_exercises.learner_notebook(notebook)
    for index, cell in enumerate(learner.cells):  # as if executed
        if cell.cell_type == "code":
            cell.outputs = copy.deepcopy(notebook.cells[index].outputs)
            cell.execution_count = index
    kept = nbformat.v4.new_output("stream", name="stdout", text="imported\n")
    learner.cells[1].outputs = [kept]  # an untagged cell with an output
    assert make_exercises.answer_outputs_left(learner) == [5, 9, 13, 17, 21, 25, 27]
    assert make_exercises.clear_answer_outputs(learner) == 7
    assert make_exercises.answer_outputs_left(learner) == []
    assert learner.cells[1].outputs == [kept]
    assert learner.cells[5].execution_count == 5  # executed in order; only its output is withheld


def test_stale_reports_a_learner_copy_that_carries_answer_outputs(tmp_path):
    solutions = tmp_path / "solutions"
    solutions.mkdir()
    source = EXERCISES / "solutions" / "adversarial_cuts.ipynb"
    (solutions / source.name).write_bytes(source.read_bytes())
    make_exercises.generate(out_dir=tmp_path, solutions=solutions)
    assert make_exercises.stale(out_dir=tmp_path, solutions=solutions) == []
    learner = read(tmp_path / source.name)
    learner.cells[19].outputs = copy.deepcopy(read(source).cells[19].outputs)
    nbformat.write(learner, tmp_path / source.name)
    assert make_exercises.stale(out_dir=tmp_path, solutions=solutions) == [source.name]


def test_each_edition_s_learner_copies_ask_in_its_own_language():
    """A learner copy's stubs are its edition's: a Chinese copy never asks in English, nor the reverse."""
    editions = [(out, solutions) for out, solutions in make_exercises.EDITIONS if solutions.exists()]
    assert {make_exercises.edition_language(solutions) for _, solutions in editions} >= {"en"}
    for out_dir, solutions in editions:
        language = make_exercises.edition_language(solutions)
        others = [stub for lang, stubs in make_exercises.STUBS.items() if lang != language for stub in stubs]
        text = "\n".join(cell.source for path in sorted(out_dir.glob("*.ipynb")) for cell in read(path).cells)
        for stub in make_exercises.STUBS[language]:
            assert stub in text, (out_dir, stub)
        assert [stub for stub in others if stub in text] == [], out_dir


def test_the_chinese_edition_strips_with_chinese_stubs():
    code_stub, markdown_stub = make_exercises.STUBS["zh-CN"]
    solutions = ROOT / "notebooks" / "zh-CN" / "exercises" / "solutions"
    assert make_exercises.edition_language(solutions) == "zh-CN"
    assert make_exercises.edition_language(EXERCISES / "solutions") == "en"
    source = "def f():\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION"
    assert make_exercises.strip_code(source, code_stub) == f"def f():\n    {code_stub}"
    answer = "### 你的回答\n\n<!-- BEGIN SOLUTION -->\n答案。\n<!-- END SOLUTION -->"
    assert make_exercises.strip_markdown(answer, markdown_stub) == f"### 你的回答\n\n{markdown_stub}"
