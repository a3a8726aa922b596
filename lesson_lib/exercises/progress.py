"""Opt-in records of ``check()``: which questions a learner tried, how often, and whether it was right.

Off by default: until recording is turned on, :func:`note` (which ``check()`` calls) returns before any
file is opened: nothing is created or written. It is turned on for one Python process by :func:`enable`,
or for every process started with the environment variable ``BOUNDARY_LAB_PROGRESS`` set to a folder (how
a hub's configuration turns it on for its learners); :func:`disable` turns it off for this process,
whatever the variable says.

What a record holds, and nothing else: the question's key, the outcome (``right``, ``wrong``,
``right_family`` for a true but too general answer, ``unreadable`` for an answer the question cannot read,
``unanswered`` when the cell still holds ``...``), the attempt number (the how-many-th answered check of that
question in this file; ``None`` for an unanswered one), the time (UTC, to the second) and the language. Never
the answer, nor anything computed from it (no digest, no length).

Where: one JSON-lines file, ``progress.jsonl``, in the folder given (default ``~/.boundary-lab``), created
readable and writable by its owner only (0600; a folder it creates, 0700). Nothing leaves the machine: this
module imports no network code (``tests/exercises/test_progress.py`` reads its imports, and watches a
process's audit events for sockets while it records).

A learner's functions::

    from lesson_lib.exercises import progress
    progress.enable()        # record this kernel's check() calls in ~/.boundary-lab/progress.jsonl
    progress.recorded()      # what was recorded: the records, and how many lines could not be read
    progress.forget()        # delete the file (recording stays as it was: on or off)
    progress.disable()       # stop recording in this kernel

Guarantees. A record is appended with one ``write`` of a whole line, so a crash leaves at most one torn
line, at the end; the next append first ends that line, and :func:`read` skips every line it cannot read
and counts it (``Reading.torn``), so no torn line hides the other records of a file. The file is bounded:
a record that would take it over ``max_bytes`` (default 1 MiB, several thousand records) is not written
and :class:`ProgressFull` is raised; ``check()`` turns that, and any ``OSError``, into a
:class:`ProgressWarning` that the learner reads under the cell, every time (whatever the warning filters
say about repeats), so no record is lost silently.
"""

from __future__ import annotations

import json
import os
import warnings
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..i18n import get_language, text

#: The outcomes a record may hold, as ``check()`` tells them apart.
OUTCOMES = ("right", "wrong", "right_family", "unreadable", "unanswered")
#: The environment variable that turns recording on, for every process started with it, in its folder.
VARIABLE = "BOUNDARY_LAB_PROGRESS"
#: The file's name in its folder.
FILE_NAME = "progress.jsonl"
#: The default cap on the file's size, in bytes.
MAX_BYTES = 1 << 20
_FIELDS = ("question", "outcome", "attempt", "time", "language")


class ProgressFull(OSError):
    """The progress file is at its size cap: the record was not written."""


class ProgressWarning(UserWarning):
    """A record could not be written (the file is full or cannot be written); ``check()`` still answered."""


@dataclass(frozen=True)
class Record:
    """One ``check()`` call as recorded: no answer text, nor anything computed from it."""

    question: str
    outcome: str
    attempt: int | None
    time: datetime
    language: str

    def line(self) -> str:
        """The record as one JSON line, ending with a line feed."""
        fields = {
            "question": self.question,
            "outcome": self.outcome,
            "attempt": self.attempt,
            "time": self.time.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "language": self.language,
        }
        return json.dumps(fields, ensure_ascii=False) + "\n"


@dataclass(frozen=True)
class Reading:
    """What a progress file holds: its readable records in file order, and how many lines were skipped
    (torn by a crash, or not a record)."""

    path: Path
    records: tuple[Record, ...]
    torn: int


@dataclass(frozen=True)
class _Setting:
    folder: Path
    max_bytes: int


# None: follow the environment variable; False: off for this process, whatever the variable says.
_setting: _Setting | bool | None = None


def _folder_argument(folder: str | os.PathLike[str] | None) -> Path:
    if folder is None:
        return Path.home() / ".boundary-lab"
    if not isinstance(folder, str | os.PathLike) or not os.fspath(folder).strip():
        raise ValueError(f"folder must be a non-empty path or None, got {folder!r}")
    return Path(folder).expanduser().absolute()  # a later os.chdir() does not move the records


def enable(folder: str | os.PathLike[str] | None = None, *, max_bytes: int = MAX_BYTES) -> Path:
    """Record every later ``check()`` of this process in ``folder``/progress.jsonl (default
    ``~/.boundary-lab``), a file of at most ``max_bytes`` bytes. Returns the file's path; creates nothing
    until the first record."""
    path = _folder_argument(folder)
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 256:
        raise ValueError(f"max_bytes must be an int of at least 256, got {max_bytes!r}")
    global _setting
    _setting = _Setting(path, max_bytes)
    return path / FILE_NAME


def disable() -> None:
    """Record nothing more in this process, even when ``BOUNDARY_LAB_PROGRESS`` is set."""
    global _setting
    _setting = False


def _current() -> _Setting | None:
    """Where records go now, or None when recording is off."""
    if isinstance(_setting, _Setting):
        return _setting
    if _setting is False:
        return None
    folder = os.environ.get(VARIABLE, "").strip()
    return _Setting(Path(folder).expanduser().absolute(), MAX_BYTES) if folder else None


def enabled() -> bool:
    """Whether ``check()`` records now."""
    return _current() is not None


def path(folder: str | os.PathLike[str] | None = None) -> Path:
    """The progress file: of ``folder`` if given, else where records go now (or would go by default)."""
    if folder is not None:
        return _folder_argument(folder) / FILE_NAME
    setting = _current()
    return (setting.folder if setting else _folder_argument(None)) / FILE_NAME


def _parse(line: bytes) -> Record | None:
    """The record on ``line``, or None when it is not one (torn, not JSON, a field missing or odd)."""
    try:
        fields = json.loads(line.decode("utf-8"))
        time = datetime.strptime(fields["time"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    except (UnicodeDecodeError, ValueError, KeyError, TypeError):
        return None
    attempt = fields.get("attempt")
    valid = (
        set(fields) == set(_FIELDS)
        and isinstance(fields["question"], str)
        and fields["outcome"] in OUTCOMES
        and (attempt is None or (isinstance(attempt, int) and not isinstance(attempt, bool) and attempt > 0))
        and isinstance(fields["language"], str)
    )
    if not valid:
        return None
    return Record(fields["question"], fields["outcome"], attempt, time, fields["language"])


def read(file: str | os.PathLike[str]) -> Reading:
    """The records of the progress file ``file``, skipping and counting each line that is not a record.

    A missing file reads as no records; any other error of reading it (a folder, no permission) raises.
    """
    if not isinstance(file, str | os.PathLike) or not os.fspath(file).strip():
        raise ValueError(f"file must be a non-empty path, got {file!r}")
    file = Path(file)
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        return Reading(file, (), 0)
    records, torn = [], 0
    for line in data.split(b"\n"):
        if not line.strip():
            continue
        parsed = _parse(line)
        if parsed is None:
            torn += 1
        else:
            records.append(parsed)
    return Reading(file, tuple(records), torn)


def recorded() -> Reading:
    """What has been recorded in the current progress file (see :func:`path`)."""
    return read(path())


def forget(folder: str | os.PathLike[str] | None = None) -> bool:
    """Delete the progress file (of ``folder``, else the current one). True if there was one to delete."""
    file = path(folder)
    try:
        file.unlink()
    except FileNotFoundError:
        return False
    return True


def record(question: str, outcome: str) -> Record | None:
    """Append the record of one ``check()`` of ``question`` with ``outcome``, if recording is on.

    Returns the record written, or None when recording is off (then nothing is opened or created). Raises
    :class:`ProgressFull` (and writes nothing) when the line would take the file over its cap, and
    ``OSError`` when the file cannot be written.
    """
    if not isinstance(question, str) or not question:
        raise ValueError(f"question must be a question's key, got {question!r}")
    if outcome not in OUTCOMES:
        raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}, got {outcome!r}")
    setting = _current()
    if setting is None:
        return None
    file = setting.folder / FILE_NAME
    setting.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    descriptor = os.open(file, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        with os.fdopen(descriptor, "rb", closefd=False) as existing:
            data = existing.read()
        attempt = None
        if outcome != "unanswered":
            earlier = (_parse(line) for line in data.split(b"\n") if line.strip())
            answered = (r for r in earlier if r and r.question == question and r.outcome != "unanswered")
            attempt = 1 + sum(1 for _ in answered)
        now = datetime.now(UTC).replace(microsecond=0)
        written = Record(question, outcome, attempt, now, get_language())
        line = written.line().encode("utf-8")
        if data and not data.endswith(b"\n"):
            line = b"\n" + line  # ends a line torn by a crash: the reader skips it, this record is whole
        if len(data) + len(line) > setting.max_bytes:
            raise ProgressFull(text("progress.full", path=str(file), cap=setting.max_bytes))
        written_bytes = os.write(descriptor, line)
        if written_bytes != len(line):  # a full disk: the torn line is skipped by the reader, and said here
            raise OSError(f"{written_bytes} of the record's {len(line)} bytes were written to {file}")
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    return written


def note(question: str, outcome: str) -> None:
    """What ``check()`` calls: :func:`record`, with an error of writing turned into a
    :class:`ProgressWarning` (so that a full disk never stops ``check()`` from answering)."""
    try:
        record(question, outcome)
    except OSError as exc:
        with warnings.catch_warnings():
            warnings.simplefilter("always", ProgressWarning)  # every time, not once per line of code
            warnings.warn(ProgressWarning(text("progress.not_written", reason=str(exc))), stacklevel=3)
