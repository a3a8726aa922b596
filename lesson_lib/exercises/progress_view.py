"""The instructor's view of many learners' progress records (:mod:`.progress`): who is stuck where.

:func:`table` reads the progress files of many learners and returns a :class:`Table`, learner by question:
how many attempts (answered checks: right, wrong, right family or unreadable), solved or not, and stuck or
not. Each path it is given is one of:

- a progress file (``alice.jsonl`` is the learner ``alice``; ``.../alice/.boundary-lab/progress.jsonl`` and
  ``.../alice/progress.jsonl`` are ``alice`` too);
- a learner's folder holding ``progress.jsonl``, or a learner's home holding ``.boundary-lab/progress.jsonl``
  (the learner is the folder's name; a folder or home without the file is a learner with no records yet);
- a folder of ``*.jsonl`` files, one per learner (each learner named by the file's stem).

**Stuck**, defined: a question the learner has answered at least once and not solved, with either
``wrong_limit`` (default 3) or more attempts, or a first attempt ``minutes`` (default 10) or more before
``now``. A question answered right once is solved, whatever came before or after. A question only
"opened" (checked with ``...`` still in the cell) has no attempts and is never stuck.

The rendering (:meth:`Table.text`, :meth:`Table.html`) shows classes and counts (solved in n attempts,
n attempts and not solved, stuck), never a time. Reading only: this module writes nothing and imports no
network code.
"""

from __future__ import annotations

import html
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ..i18n import text
from .progress import FILE_NAME, Reading, Record, read

#: The defaults of the stuck rule.
WRONG_LIMIT = 3
MINUTES = 10.0


@dataclass(frozen=True)
class Cell:
    """One learner's progress on one question: its attempts (answered checks), the attempt that first was
    right (None if none was), and whether it is stuck."""

    attempts: int
    solved_at: int | None
    stuck: bool

    @property
    def solved(self) -> bool:
        """Whether an attempt was right."""
        return self.solved_at is not None

    @property
    def status(self) -> str:
        """``solved``, ``stuck``, ``trying`` (attempts, not solved, not stuck) or ``opened`` (no attempt)."""
        if self.solved:
            return "solved"
        if self.stuck:
            return "stuck"
        return "trying" if self.attempts else "opened"

    def label(self) -> str:
        """The cell as the rendering shows it, in the current language."""
        shown = self.solved_at if self.solved_at is not None else self.attempts
        return text(f"progress.view.{self.status}", attempts=shown)


@dataclass(frozen=True)
class Table:
    """Learner by question; a learner without a record of a question has no cell for it. ``torn`` counts
    each learner's skipped lines; ``errors`` says, by learner, why a file could not be read at all."""

    learners: tuple[str, ...]
    questions: tuple[str, ...]
    cells: Mapping[tuple[str, str], Cell]
    torn: Mapping[str, int]
    errors: Mapping[str, str]
    wrong_limit: int
    minutes: float

    def stuck(self) -> list[tuple[str, str]]:
        """Every (learner, question) that is stuck, learner by learner, questions in order."""
        return [(lr, q) for lr in self.learners for q in self.questions if self._is_stuck(lr, q)]

    def _is_stuck(self, learner: str, question: str) -> bool:
        cell = self.cells.get((learner, question))
        return cell is not None and cell.stuck

    def _rows(self) -> list[list[str]]:
        rows = [[text("progress.view.learner"), *self.questions]]
        for learner in self.learners:
            cells = [self.cells.get((learner, q)) for q in self.questions]
            rows.append([learner, *(c.label() if c else "" for c in cells)])
        return rows

    def _notes(self) -> list[str]:
        notes = [text("progress.view.torn", learner=lr, torn=n) for lr, n in self.torn.items() if n]
        notes += [text("progress.view.unreadable", learner=lr, reason=why) for lr, why in self.errors.items()]
        legend = text("progress.view.legend", wrong_limit=self.wrong_limit, minutes=f"{self.minutes:g}")
        return [legend, *notes]

    def text(self) -> str:
        """The table as plain text (columns padded with spaces), the legend and any skipped lines under it."""
        if not self.questions:
            return "\n".join([text("progress.view.empty"), *self._notes()[1:]])
        rows = self._rows()
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows]
        return "\n".join([*lines, "", *self._notes()])

    def html(self) -> str:
        """The table as an HTML ``<table>``; each cell's ``class`` is its status, a stuck one is shaded."""
        if not self.questions:
            notes = [text("progress.view.empty"), *self._notes()[1:]]
            return "".join(f"<p>{html.escape(n)}</p>" for n in notes)
        head, *rows = self._rows()
        out = ['<table class="boundary-lab-progress">', "<tr>"]
        out += [f"<th>{html.escape(h)}</th>" for h in head] + ["</tr>"]
        for learner, row in zip(self.learners, rows, strict=True):
            out.append(f"<tr><th>{html.escape(learner)}</th>")
            for q, label in zip(self.questions, row[1:], strict=True):
                cell = self.cells.get((learner, q))
                status = cell.status if cell else "none"
                style = ' style="background:#f8d0d0"' if status == "stuck" else ""
                out.append(f'<td class="{status}"{style}>{html.escape(label)}</td>')
            out.append("</tr>")
        out.append("</table>")
        out += [f"<p>{html.escape(n)}</p>" for n in self._notes()]
        return "".join(out)

    def _repr_html_(self) -> str:
        return self.html()


def _learner_name(file: Path) -> str:
    if file.name != FILE_NAME:
        return file.stem
    folder = file.parent
    return folder.parent.name if folder.name == ".boundary-lab" else folder.name


def _one_learner(where: Path) -> list[tuple[str, Path]]:
    """The learners of the folder ``where``: its own progress file, else its ``*.jsonl`` files, else none yet.
    A folder that cannot be listed is one learner whose file then fails to read (and is shown failing)."""
    own = [where / FILE_NAME, where / ".boundary-lab" / FILE_NAME]
    try:
        mine = next((f for f in own if f.is_file()), None)
        listed = sorted(where / name for name in os.listdir(where) if name.endswith(".jsonl"))
    except PermissionError:
        return [(where.absolute().name, where / FILE_NAME)]
    many = [f for f in listed if f.is_file() and f.name != FILE_NAME]
    if mine is not None:
        return [(_learner_name(mine), mine)]
    if many:
        return [(f.stem, f) for f in many]
    return [(where.absolute().name, where / ".boundary-lab" / FILE_NAME)]


def learner_files(paths: Iterable[str | os.PathLike[str]]) -> list[tuple[str, Path]]:
    """Each learner's name and progress file, from ``paths`` as :func:`table` reads them; two learners of
    the same name are named by their files' paths instead.

    Raises ``FileNotFoundError`` naming a path that does not exist.
    """
    found: list[tuple[str, Path]] = []
    for given in paths:
        where = Path(given).expanduser()
        try:
            is_folder = where.is_dir()
            is_file = where.exists() and not is_folder
        except PermissionError:  # a folder on the way cannot be entered: reading the file will say so
            found.append((_learner_name(where), where))
            continue
        if is_folder:
            found += _one_learner(where)
        elif is_file:
            found.append((_learner_name(where), where))
        else:
            raise FileNotFoundError(f"paths: {os.fspath(given)!r} is neither a file nor a folder")
    names = [name for name, _ in found]
    return [(name if names.count(name) == 1 else str(file), file) for name, file in found]


def cell(records: Iterable[Record], *, now: datetime, wrong_limit: int, minutes: float) -> Cell:
    """The cell of one learner's records of one question, by the stuck rule of this module."""
    answered = [r for r in records if r.outcome != "unanswered"]
    answered.sort(key=lambda r: r.time)  # stable: records of the same second stay in file order
    solved_at = next((n for n, r in enumerate(answered, 1) if r.outcome == "right"), None)
    first = answered[0].time if answered else None
    overdue = first is not None and now - first >= timedelta(minutes=minutes)
    stuck = bool(answered) and solved_at is None and (len(answered) >= wrong_limit or overdue)
    return Cell(len(answered), solved_at, stuck)


def _check_arguments(paths: object, now: object, wrong_limit: object, minutes: object) -> list[str]:
    if isinstance(paths, str | os.PathLike) or not isinstance(paths, Iterable):
        raise ValueError(f"paths must be a list of files or folders, got {paths!r}")
    listed = list(paths)
    if not listed or not all(isinstance(p, str | os.PathLike) and os.fspath(p).strip() for p in listed):
        raise ValueError(f"paths must be a non-empty list of files or folders, got {listed!r}")
    if now is not None and (not isinstance(now, datetime) or now.tzinfo is None):
        raise ValueError(f"now must be a timezone-aware datetime or None, got {now!r}")
    if isinstance(wrong_limit, bool) or not isinstance(wrong_limit, int) or wrong_limit < 1:
        raise ValueError(f"wrong_limit must be an int of at least 1, got {wrong_limit!r}")
    if isinstance(minutes, bool) or not isinstance(minutes, int | float) or not minutes > 0:
        raise ValueError(f"minutes must be a number above 0, got {minutes!r}")
    return listed


def table(
    paths: Iterable[str | os.PathLike[str]],
    *,
    now: datetime | None = None,
    wrong_limit: int = WRONG_LIMIT,
    minutes: float = MINUTES,
) -> Table:
    """The progress of every learner found in ``paths`` (see the module), stuck by the rule of the module as
    of ``now`` (default: the current time). Arguments are checked before any file is read."""
    listed = _check_arguments(paths, now, wrong_limit, minutes)
    moment = now or datetime.now(UTC)
    readings: dict[str, Reading] = {}
    errors: dict[str, str] = {}
    for name, file in learner_files(listed):
        try:
            readings[name] = read(file)
        except OSError as exc:  # shown in the table's notes, never dropped silently
            readings[name] = Reading(file, (), 0)
            errors[name] = f"{exc.strerror or exc}: {file}"
    questions = sorted({r.question for reading in readings.values() for r in reading.records})
    cells: dict[tuple[str, str], Cell] = {}
    for name, reading in readings.items():
        for q in questions:
            of_q = [r for r in reading.records if r.question == q]
            if of_q:
                cells[name, q] = cell(of_q, now=moment, wrong_limit=wrong_limit, minutes=minutes)
    torn = {name: reading.torn for name, reading in readings.items()}
    return Table(tuple(readings), tuple(questions), cells, torn, errors, wrong_limit, float(minutes))
