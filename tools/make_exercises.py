"""Generate the learner copies of the exercises from the solution notebooks (``make exercises``).

The solution notebooks in ``notebooks/exercises/solutions/`` (and ``notebooks/zh-CN/exercises/solutions/``
for the Chinese edition) are the only source. Each learner copy in
``notebooks/exercises/`` is its solution notebook with every solution region replaced, outputs cleared,
then executed top to bottom, as are the solution notebooks (``tools/run_notebooks.py``), so that both
are committed with their outputs.

Solution regions follow nbgrader's markers, without needing nbgrader:

* in a code cell, the lines from ``### BEGIN SOLUTION`` to ``### END SOLUTION`` (markers included).
  Indented (inside a function or method), they become ``raise NotImplementedError("your code here")`` at
  the markers' indentation. At the top level of a cell they may only assign names, and each assignment
  becomes ``name = ...`` (so the cell still runs, and its checker says "not attempted yet");
* in a markdown cell, the lines from ``<!-- BEGIN SOLUTION -->`` to ``<!-- END SOLUTION -->`` (a model
  answer) become one line asking for the learner's own answer.

Outputs that give answers away: a code cell tagged ``answer-output`` in the solution notebook (evidence
to run after answering, a brute-force search over the answers) keeps its code in the learner copy but never
its outputs. The learner copy is executed like the others, then those outputs are cleared (the execution
count stays), and the
cell is tagged ``nbval-ignore-output`` there, so that nbval runs it without comparing its outputs. The rule
for which cells need the tag (``tests/test_exercise_notebooks.py`` enforces it): a code cell with output,
other than a checker's verdict, that comes after a solution region of its own section, or in a section
without a region of its own once the notebook's first region has passed.

Usage: ``python tools/make_exercises.py [--no-execute] [--check]``. ``--check`` writes nothing and exits
with status 1 if a committed learner copy is not what its solution notebook generates.
"""

from __future__ import annotations

import argparse
import ast
import copy
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = ROOT / "notebooks" / "exercises"
SOLUTIONS = EXERCISES / "solutions"
#: Each edition's learner copies and solution notebooks: English, then Simplified Chinese (notebooks/zh-CN/).
EDITIONS = (
    (EXERCISES, SOLUTIONS),
    (ROOT / "notebooks" / "zh-CN" / "exercises", ROOT / "notebooks" / "zh-CN" / "exercises" / "solutions"),
)

BEGIN_CODE, END_CODE = "### BEGIN SOLUTION", "### END SOLUTION"
BEGIN_MARKDOWN, END_MARKDOWN = "<!-- BEGIN SOLUTION -->", "<!-- END SOLUTION -->"
CODE_STUB = 'raise NotImplementedError("your code here")'
ANSWER_OUTPUT, IGNORE_OUTPUT = "answer-output", "nbval-ignore-output"
MARKDOWN_STUB = "*Write it here (double-click this cell), then compare with the solution copy.*"


class MarkerError(ValueError):
    """Solution markers that cannot be stripped safely: unmatched, nested, or an unsupported region."""


def regions(source: str, begin: str, end: str) -> list[tuple[int, int]]:
    """The ``(first, last)`` line numbers of each region, markers included. Raises on bad nesting."""
    found, start = [], None
    for number, line in enumerate(source.splitlines()):
        marker = line.strip()
        if marker == begin:
            if start is not None:
                raise MarkerError(f"line {number + 1}: {begin} inside another solution region")
            start = number
        elif marker == end:
            if start is None:
                raise MarkerError(f"line {number + 1}: {end} without {begin}")
            found.append((start, number))
            start = None
        elif begin in line or end in line:
            raise MarkerError(f"line {number + 1}: a solution marker must be alone on its line")
    if start is not None:
        raise MarkerError(f"line {start + 1}: {begin} without {end}")
    return found


def _top_level_stub(body: list[str]) -> list[str]:
    """``name = ...`` for each assignment of a top-level region; anything else is refused."""
    try:
        tree = ast.parse("\n".join(body))
    except SyntaxError as exc:
        raise MarkerError(f"a top-level solution region does not parse: {exc.msg}") from None
    names = []
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and all(isinstance(t, ast.Name) for t in statement.targets):
            names.append(" = ".join(t.id for t in statement.targets))
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            names.append(statement.target.id)
        else:
            raise MarkerError(
                "a solution region at the top level of a cell may only assign names (each becomes "
                "`name = ...`); put other code inside a function"
            )
    if not names:
        raise MarkerError("an empty solution region")
    return [f"{name} = ..." for name in names]


def strip_code(source: str) -> str:
    """A code cell's source with each solution region replaced by its stub."""
    lines = source.splitlines()
    for first, last in reversed(regions(source, BEGIN_CODE, END_CODE)):
        indent = lines[first][: len(lines[first]) - len(lines[first].lstrip())]
        body = lines[first + 1 : last]
        lines[first : last + 1] = [indent + CODE_STUB] if indent else _top_level_stub(body)
    return "\n".join(lines)


def strip_markdown(source: str) -> str:
    """A markdown cell's source with each model answer replaced by a request for the learner's own."""
    lines = source.splitlines()
    for first, last in reversed(regions(source, BEGIN_MARKDOWN, END_MARKDOWN)):
        lines[first : last + 1] = [MARKDOWN_STUB]
    return "\n".join(lines)


def solution_text(source: str, cell_type: str) -> list[str]:
    """The lines inside the solution regions of one cell (markers excluded): what must never leak."""
    begin, end = (BEGIN_CODE, END_CODE) if cell_type == "code" else (BEGIN_MARKDOWN, END_MARKDOWN)
    lines = source.splitlines()
    return [line for first, last in regions(source, begin, end) for line in lines[first + 1 : last]]


def learner_notebook(solution: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The learner copy of a solution notebook, not executed: regions stripped, outputs cleared."""
    notebook = copy.deepcopy(solution)
    notebook.metadata.pop("widgets", None)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.source = strip_code(cell.source)
            cell.outputs = []
            cell.execution_count = None
            if gives_answers(cell):
                tags = cell.metadata.setdefault("tags", [])
                if IGNORE_OUTPUT not in tags:
                    tags.append(IGNORE_OUTPUT)
        elif cell.cell_type == "markdown":
            cell.source = strip_markdown(cell.source)
        cell.metadata.pop("execution", None)
        for marker in (BEGIN_CODE, END_CODE, BEGIN_MARKDOWN, END_MARKDOWN):
            if marker in cell.source:
                raise MarkerError(f"{marker!r} left in a learner cell")
    return notebook


def gives_answers(cell: nbformat.NotebookNode) -> bool:
    """True for a code cell whose outputs give answers away (tagged ``answer-output``)."""
    return cell.cell_type == "code" and ANSWER_OUTPUT in cell.metadata.get("tags", [])


def clear_answer_outputs(notebook: nbformat.NotebookNode) -> int:
    """Clear the outputs of every ``answer-output`` cell of an executed learner copy; return how many.

    The execution count stays: the copy was executed top to bottom in one kernel, as every notebook is
    (``tests/test_notebooks_meta.py``); only what the cell printed is withheld.
    """
    cleared = 0
    for cell in notebook.cells:
        if gives_answers(cell) and cell.outputs:
            cell.outputs = []
            cleared += 1
    return cleared


def answer_outputs_left(notebook: nbformat.NotebookNode) -> list[int]:
    """Indices of the ``answer-output`` cells of a learner copy that still carry outputs."""
    return [i for i, cell in enumerate(notebook.cells) if gives_answers(cell) and cell.outputs]


def solution_paths(solutions: Path = SOLUTIONS) -> list[Path]:
    """The solution notebooks in ``solutions`` (none if the folder does not exist yet)."""
    return sorted(p for p in solutions.glob("*.ipynb") if not p.name.startswith("."))


def generate(out_dir: Path = EXERCISES, solutions: Path = SOLUTIONS) -> list[Path]:
    """Write the learner copy of every solution notebook into ``out_dir``; return their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for path in solution_paths(solutions):
        learner = learner_notebook(nbformat.read(path, as_version=4))
        target = out_dir / path.name
        nbformat.write(learner, target)
        written.append(target)
    return written


def stale(out_dir: Path = EXERCISES, solutions: Path = SOLUTIONS) -> list[str]:
    """Names of learner copies whose cells (source, tags) differ from what their solution notebook
    generates, or that carry an output that gives answers away."""
    differing = []
    for path in solution_paths(solutions):
        expected = learner_notebook(nbformat.read(path, as_version=4))
        target = out_dir / path.name
        if not target.exists():
            differing.append(path.name)
            continue
        committed = nbformat.read(target, as_version=4)
        if [(c.cell_type, c.source, c.metadata.get("tags", [])) for c in committed.cells] != [
            (c.cell_type, c.source, c.metadata.get("tags", [])) for c in expected.cells
        ] or answer_outputs_left(committed):
            differing.append(path.name)
    return differing


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-execute", action="store_true", help="write the learner copies only")
    parser.add_argument("--check", action="store_true", help="only report learner copies that are stale")
    options = parser.parse_args(argv)
    if options.check:
        differing = [
            f"{out_dir.relative_to(ROOT)}/{name}"
            for out_dir, solutions in EDITIONS
            for name in stale(out_dir, solutions)
        ]
        for name in differing:
            print(f"stale: {name} (run `make exercises`)")
        return 1 if differing else 0
    sources, learners = [], []
    for out_dir, solutions in EDITIONS:
        sources += solution_paths(solutions)
        learners += generate(out_dir, solutions)
    for path in learners:
        print(f"generated {path.relative_to(ROOT)}", flush=True)
    if options.no_execute:
        return 0
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from run_notebooks import main as run_notebooks

    status = run_notebooks([str(p) for p in [*sources, *learners]])
    for path in learners:
        notebook = nbformat.read(path, as_version=4)
        if clear_answer_outputs(notebook):
            nbformat.write(notebook, path)
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
