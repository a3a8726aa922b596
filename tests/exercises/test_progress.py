"""The opt-in progress records of ``check()`` (lesson_lib.exercises.progress) and the instructor's view of
them (progress_view, tools/progress_view.py): off by default (nothing written anywhere, proven with Python's
audit hooks in a process with its own HOME), the records are what ``check()`` said and never the answer,
attempts count per question, a torn last line is skipped and counted, the size cap warns and never drops a
record silently, ``forget()`` deletes, the view marks the stuck, bad arguments raise naming the argument,
and the modules import no network code.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import warnings
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib.core.decoding import IncrementalUTF8Decoder
from lesson_lib.exercises import check, digest, progress, question
from lesson_lib.exercises.progress import ProgressWarning, Record, read
from lesson_lib.exercises.progress_view import cell, learner_files, table
from lesson_lib.i18n import set_language

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "progress_view.py"
NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


def _final_error_name() -> str:
    """The right answer of 01.final, computed: the error close() raises on an unfinished character."""
    decoder = IncrementalUTF8Decoder()
    decoder.feed("🙂".encode()[:3])
    try:
        decoder.close()
    except Exception as error:  # we want the class name, whatever it is
        return type(error).__name__
    raise AssertionError("close() accepted an unfinished character")


#: (question, answer, the outcome check() gives it): every outcome, with answers whose text is findable.
ANSWERS = [
    ("01.bytes", "a lot of bytes", "unreadable"),
    ("01.bytes", 9, "wrong"),
    ("01.bytes", ..., "unanswered"),
    ("01.bytes", len("你好🙂".encode()), "right"),
    ("01.final", "ZebraDecodeFailure", "wrong"),
    ("01.final", "StreamDecodeError", "right_family"),
    ("01.final", _final_error_name(), "right"),
    ("01.replace", "D", "right"),
]


@pytest.fixture
def isolated(monkeypatch, tmp_path, restore_language):
    """No setting of this process and no BOUNDARY_LAB_PROGRESS: recording off, as by default; HOME is a
    temporary folder, so a record written to the default place lands there."""
    monkeypatch.delenv(progress.VARIABLE, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setattr(progress, "_setting", None)
    return tmp_path


def _outcomes(reading: progress.Reading) -> list[str]:
    return [r.outcome for r in reading.records]


# --- off by default -------------------------------------------------------------------------------------

_AUDIT = r"""
import os, sys
from lesson_lib.exercises import _load_all, check
_load_all()
check("01.bytes", 1)  # warm: every lazy import and catalogue is loaded before the hook
WRITES = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
seen = []
def hook(event, args):
    if event == "open":
        path, mode, flags = args
        if (isinstance(mode, str) and set(mode) & set("wax+")) or (isinstance(flags, int) and flags & WRITES):
            seen.append(f"open {path}")
    elif event.split(".")[0] in ("socket", "shutil") or event in (
        "os.mkdir", "os.rename", "os.remove", "os.rmdir", "os.symlink", "os.link", "os.truncate", "os.chmod"
    ):
        seen.append(event)
sys.addaudithook(hook)
for key, answer in [("01.bytes", 9), ("01.bytes", 10), ("01.final", "Exception"), ("01.replace", "B"),
                    ("01.bytes", "lots"), ("01.bytes", ...)]:
    check(key, answer)
print(repr(seen))
"""


def _audited_checks(home: Path, **variables: str) -> list[str]:
    """What a fresh process with HOME=home (and cwd, TMPDIR there) wrote or connected to while answering
    six checks, as Python's audit hooks saw it."""
    env = {k: v for k, v in os.environ.items() if k != progress.VARIABLE}
    env |= {"HOME": str(home), "TMPDIR": str(home), "PYTHONDONTWRITEBYTECODE": "1", **variables}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-c", _AUDIT], cwd=home, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return ast.literal_eval(done.stdout.strip().splitlines()[-1])


def test_off_by_default_a_check_writes_nothing_anywhere(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    assert _audited_checks(home) == []
    assert list(home.rglob("*")) == []


def test_the_audit_sees_the_records_when_recording_is_on(tmp_path):
    """The control of the test above: the same audit, with the variable set, sees the file opened for
    writing (six times), the folder made, and no socket."""
    home = tmp_path / "home"
    home.mkdir()
    seen = _audited_checks(home, BOUNDARY_LAB_PROGRESS=str(home / "records"))
    assert seen.count(f"open {home / 'records' / 'progress.jsonl'}") == 6
    assert not [event for event in seen if event.startswith("socket")]
    assert _outcomes(read(home / "records" / "progress.jsonl")) == [
        "wrong", "wrong", "right", "right_family", "wrong", "unreadable", "unanswered"
    ]  # the first is the check before the hook


def test_off_in_process_writes_nothing_in_the_default_place(isolated):
    assert not progress.enabled()
    for key, answer, _ in ANSWERS:
        check(key, answer)
    assert not (isolated / "home").exists()
    assert progress.recorded().records == ()


# --- on: the records ------------------------------------------------------------------------------------


def test_the_records_are_what_check_said_and_hold_no_answer(isolated):
    file = progress.enable(isolated / "alice")
    results = [(check(key, answer), outcome) for key, answer, outcome in ANSWERS]
    reading = read(file)
    assert _outcomes(reading) == [outcome for _, outcome in results]
    assert [bool(result) for result, _ in results] == [outcome == "right" for _, outcome in results]
    assert [r.question for r in reading.records] == [key for key, _, _ in ANSWERS]
    assert [r.attempt for r in reading.records] == [1, 2, None, 3, 1, 2, 3, 1]
    raw = file.read_text(encoding="utf-8")
    for line, (key, _, outcome) in zip(raw.splitlines(), ANSWERS, strict=True):
        fields = json.loads(line)
        assert set(fields) == {"question", "outcome", "attempt", "time", "language"}
        assert (fields["question"], fields["outcome"], fields["language"]) == (key, outcome, "en")
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", fields["time"])
    for key, answer, outcome in ANSWERS:
        if isinstance(answer, str):  # a number's digits could be the time's
            assert answer not in raw.replace(key, "")
        if outcome not in ("unanswered", "unreadable"):
            assert digest(question(key).kind, answer) not in raw
    assert not re.search(r"[0-9a-f]{16}", raw)  # nor any digest of an answer


def test_the_default_folder_is_in_home_and_the_language_is_recorded(isolated):
    assert progress.enable() == isolated / "home" / ".boundary-lab" / "progress.jsonl"
    set_language("zh-CN")
    check("01.replace", "D")
    (only,) = progress.recorded().records
    assert (only.language, only.outcome) == ("zh-CN", "right")
    assert oct((isolated / "home" / ".boundary-lab" / "progress.jsonl").stat().st_mode & 0o777) == "0o600"
    assert oct((isolated / "home" / ".boundary-lab").stat().st_mode & 0o777) == "0o700"


def test_the_variable_turns_it_on_and_disable_turns_it_off(isolated, monkeypatch):
    monkeypatch.setenv(progress.VARIABLE, str(isolated / "hub" / "alice"))
    check("01.bytes", 9)
    assert _outcomes(read(isolated / "hub" / "alice" / "progress.jsonl")) == ["wrong"]
    progress.disable()
    check("01.bytes", 10)
    assert _outcomes(read(isolated / "hub" / "alice" / "progress.jsonl")) == ["wrong"]


def test_attempts_count_per_question(isolated):
    progress.enable(isolated)
    for key, answer in [("01.bytes", 9), ("01.replace", "B"), ("01.bytes", 8), ("01.replace", "D")]:
        check(key, answer)
    records = progress.recorded().records
    assert [(r.question, r.attempt) for r in records] == [
        ("01.bytes", 1), ("01.replace", 1), ("01.bytes", 2), ("01.replace", 2)
    ]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["01.bytes", "01.replace"]), st.booleans()), max_size=12))
def test_any_sequence_of_attempts_gives_the_right_counts(attempts):
    right = {"01.bytes": 10, "01.replace": "D"}
    wrong = {"01.bytes": 9, "01.replace": "B"}
    with tempfile.TemporaryDirectory() as folder:
        before = progress._setting
        try:
            progress.enable(folder)
            for key, ok in attempts:
                check(key, right[key] if ok else wrong[key])
        finally:
            progress._setting = before
        records = read(Path(folder) / "progress.jsonl").records
        view = table([folder], now=NOW, wrong_limit=3)
    assert len(records) == len(attempts)
    for key in right:
        mine = [ok for k, ok in attempts if k == key]
        assert [r.attempt for r in records if r.question == key] == list(range(1, len(mine) + 1))
        got = view.cells.get((Path(folder).name, key))
        if not mine:
            assert got is None
            continue
        assert got is not None and got.attempts == len(mine)
        assert got.solved_at == (mine.index(True) + 1 if True in mine else None)
        assert got.stuck == (True not in mine and len(mine) >= 3)


# --- the file: torn lines, the cap, forget --------------------------------------------------------------


def test_a_torn_last_line_is_skipped_and_counted_and_the_next_record_is_whole(isolated):
    file = progress.enable(isolated)
    for answer in (9, 8, 10):
        check("01.bytes", answer)
    whole = file.read_bytes()
    file.write_bytes(whole[: len(whole) - 20])  # what a crash in the middle of the last write leaves
    torn = read(file)
    assert (_outcomes(torn), torn.torn) == (["wrong", "wrong"], 1)
    check("01.replace", "D")
    after = read(file)
    assert (_outcomes(after), after.torn) == (["wrong", "wrong", "right"], 1)
    assert table([file], now=NOW).torn == {isolated.name: 1}
    assert "1 unreadable line" in table([file], now=NOW).text()


def test_a_file_of_garbage_is_counted_line_by_line_not_dropped_silently(isolated):
    file = isolated / "bob.jsonl"
    good = Record("01.bytes", "wrong", 1, NOW, "en").line().encode()
    file.write_bytes(b"\xff\xfe not utf-8\n{}\n" + good + b'{"question": 3}\n')
    reading = read(file)
    assert (len(reading.records), reading.torn) == (1, 3)


def test_the_size_cap_warns_every_time_and_keeps_what_was_written(isolated):
    file = progress.enable(isolated, max_bytes=400)
    for answer in (1, 2, 3):
        assert not check("01.bytes", answer)
    kept = file.read_bytes()
    assert len(kept) <= 400 and len(read(file).records) == 3
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")  # Python's default: a warning once per line of code
        for _ in range(2):
            assert check("01.bytes", 10)  # check() still answers
    assert [w.category for w in caught] == [ProgressWarning, ProgressWarning]
    assert re.search(re.escape(str(file)) + ".*full.*400 bytes", str(caught[0].message))
    assert file.read_bytes() == kept


def test_a_folder_that_cannot_be_written_warns_and_check_still_answers(isolated):
    (isolated / "a_file").write_text("not a folder")
    progress.enable(isolated / "a_file")
    with pytest.warns(ProgressWarning, match="not written"):
        assert check("01.bytes", 10)


def test_forget_deletes_the_file_and_recording_stays_on(isolated):
    file = progress.enable(isolated)
    check("01.bytes", 9)
    assert file.exists()
    assert progress.forget() is True
    assert not file.exists() and progress.recorded().records == ()
    assert progress.forget() is False
    check("01.bytes", 10)
    assert [(r.outcome, r.attempt) for r in progress.recorded().records] == [("right", 1)]


# --- the instructor's view ------------------------------------------------------------------------------


def _write(file: Path, records: list[tuple[str, str, int]]) -> None:
    """Records of (question, outcome, minutes before NOW) in ``file``, attempts numbered per question."""
    file.parent.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    lines = []
    for key, outcome, minutes in records:
        counts[key] = counts.get(key, 0) + (outcome != "unanswered")
        attempt = counts[key] if outcome != "unanswered" else None
        lines.append(Record(key, outcome, attempt, NOW - timedelta(minutes=minutes), "en").line())
    file.write_text("".join(lines), encoding="utf-8")


@pytest.fixture
def room(tmp_path):
    """Five learners' homes: who is stuck where is known by construction."""
    homes = tmp_path / "home"
    _write(homes / "ana/.boundary-lab/progress.jsonl", [("01.bytes", "wrong", 2), ("01.bytes", "right", 1)])
    _write(homes / "bo/.boundary-lab/progress.jsonl",
           [("01.bytes", "wrong", 3), ("01.bytes", "unreadable", 2), ("01.bytes", "right_family", 1)])
    _write(homes / "cy/.boundary-lab/progress.jsonl", [("01.bytes", "wrong", 11), ("01.replace", "wrong", 4)])
    _write(homes / "di/.boundary-lab/progress.jsonl",
           [("01.bytes", "wrong", 30), ("01.bytes", "wrong", 29), ("01.bytes", "wrong", 28),
            ("01.bytes", "wrong", 27), ("01.bytes", "right", 26), ("01.replace", "unanswered", 25)])
    (homes / "ed").mkdir()  # recording off: no file
    return homes


def test_the_view_marks_the_stuck_ones(room):
    view = table(sorted(room.iterdir()), now=NOW)
    assert view.learners == ("ana", "bo", "cy", "di", "ed")
    assert view.questions == ("01.bytes", "01.replace")
    assert view.stuck() == [("bo", "01.bytes"), ("cy", "01.bytes")]
    status = {k: c.status for k, c in view.cells.items()}
    assert status == {
        ("ana", "01.bytes"): "solved", ("bo", "01.bytes"): "stuck", ("cy", "01.bytes"): "stuck",
        ("cy", "01.replace"): "trying", ("di", "01.bytes"): "solved", ("di", "01.replace"): "opened",
    }
    assert (view.cells["di", "01.bytes"].solved_at, view.cells["di", "01.bytes"].attempts) == (5, 5)
    page = view.html()
    assert page.count('class="stuck"') == 2 and "<th>ed</th>" in page
    rows = {line.split()[0]: line for line in view.text().splitlines()[1:6]}
    assert "stuck" in rows["bo"] and "stuck" in rows["cy"] and "stuck" not in rows["di"]


def test_the_stuck_rule_has_its_two_limits(room):
    assert table([room / "cy"], now=NOW, minutes=12).stuck() == []
    assert table([room / "bo"], now=NOW, wrong_limit=4).stuck() == []
    assert table([room / "cy"], now=NOW, minutes=4).stuck() == [("cy", "01.bytes"), ("cy", "01.replace")]
    right_after = [Record("01.bytes", "right", 1, NOW, "en")]
    assert not cell(right_after, now=NOW + timedelta(hours=1), wrong_limit=1, minutes=1).stuck


def test_a_folder_of_files_is_one_learner_per_file(tmp_path):
    _write(tmp_path / "room" / "xu.jsonl", [("01.bytes", "wrong", 1)])
    _write(tmp_path / "room" / "yan.jsonl", [("01.bytes", "right", 1)])
    (tmp_path / "room" / "notes.txt").write_text("not a learner")
    assert [name for name, _ in learner_files([tmp_path / "room"])] == ["xu", "yan"]
    twice = learner_files([tmp_path / "room" / "xu.jsonl", tmp_path / "room" / "xu.jsonl"])
    assert [name for name, _ in twice] == [str(tmp_path / "room" / "xu.jsonl")] * 2


def test_the_view_renders_no_time(room):
    view = table(sorted(room.iterdir()), now=NOW)
    for rendering in (view.text(), view.html()):
        assert not re.search(r"\d\d:\d\d|2026", rendering)


def test_a_file_that_cannot_be_read_is_named_in_the_view_and_the_others_are_shown(room):
    (room / "zed" / ".boundary-lab" / "progress.jsonl").mkdir(parents=True)  # a folder where the file goes
    view = table(sorted(room.iterdir()), now=NOW)
    assert view.learners[-1] == "zed" and view.stuck() == [("bo", "01.bytes"), ("cy", "01.bytes")]
    assert view.errors == {"zed": f"Is a directory: {room / 'zed' / '.boundary-lab' / 'progress.jsonl'}"}
    assert "zed: the records could not be read (Is a directory" in view.text()


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None, reason="needs root and setpriv to drop a capability"
)
def test_an_instructor_without_permission_to_a_file_is_told_so(room):
    """As an instructor account that may not read one learner's file (root without the capabilities that
    bypass file permissions): the tool prints the room, and names the file it could not read."""
    (room / "bo" / ".boundary-lab" / "progress.jsonl").chmod(0)
    command = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", sys.executable, str(TOOL)]
    done = subprocess.run([*command, *sorted(room.iterdir())], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "bo: the records could not be read (Permission denied" in done.stdout
    assert "stuck" in {line.split()[0]: line for line in done.stdout.splitlines()[1:6]}["cy"]


# --- bad arguments --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda: progress.enable(""), "folder"),
        (lambda: progress.enable(3), "folder"),
        (lambda: progress.enable(max_bytes=10), "max_bytes"),
        (lambda: progress.enable(max_bytes=True), "max_bytes"),
        (lambda: progress.record("01.bytes", "maybe"), "outcome"),
        (lambda: progress.record("", "right"), "question"),
        (lambda: read(""), "file"),
        (lambda: table("/tmp"), "paths"),
        (lambda: table([]), "paths"),
        (lambda: table(["/does/not/exist"], wrong_limit=0), "wrong_limit"),
        (lambda: table(["/does/not/exist"], minutes=0), "minutes"),
        (lambda: table(["/does/not/exist"], now=datetime(2026, 1, 1)), "now"),
    ],
)
def test_bad_arguments_raise_naming_the_argument_before_any_io(isolated, call, named):
    with pytest.raises(ValueError, match=named):
        call()
    assert progress._setting is None  # a refused enable() changes nothing


def test_a_path_that_is_not_there_is_named(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"paths.*nowhere"):
        table([tmp_path / "nowhere"])


# --- the tool -------------------------------------------------------------------------------------------


def _tool(*arguments: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(TOOL), *map(str, arguments)], capture_output=True, text=True, timeout=120
    )


def test_the_tool_prints_the_view(room):
    done = _tool(*sorted(room.iterdir()), "--minutes", "100000")
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line for line in done.stdout.splitlines()[1:6]}
    assert "stuck" in rows["bo"] and "stuck" not in rows["cy"]
    page = _tool(room / "bo", "--html")
    assert page.returncode == 0 and page.stdout.count('class="stuck"') == 1


@pytest.mark.parametrize(
    "arguments", [["/does/not/exist"], [".", "--minutes", "-1"], [".", "--wrong-limit", "x"], [],
                  [".", "--watch", "0"]]
)
def test_the_tool_names_a_bad_argument_without_a_traceback(arguments):
    done = _tool(*arguments)
    assert done.returncode == 2 and done.stdout == ""
    assert "Traceback" not in done.stderr and done.stderr.strip()


# --- nothing leaves the machine -------------------------------------------------------------------------

_ALLOWED = {"__future__", "argparse", "collections", "dataclasses", "datetime", "html", "json", "os",
            "pathlib", "sys", "threading", "time", "typing", "warnings", "lesson_lib",
            "ipywidgets"}  # the live view's widget: its value reaches the notebook through the kernel


@pytest.mark.parametrize(
    "path",
    [ROOT / "lesson_lib/exercises/progress.py", ROOT / "lesson_lib/exercises/progress_view.py",
     ROOT / "lesson_lib/exercises/progress_live.py", TOOL],
    ids=lambda p: p.name,
)
def test_the_modules_import_no_network_code(path):
    """Every import is from this allow-list of standard modules (no socket, http, urllib, ssl, asyncio)
    or, within lesson_lib, from the language catalogues and these modules."""
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(("." * node.level) + (node.module or ""))
    outside = {name for name in imported if not name.startswith(".") and name.split(".")[0] not in _ALLOWED}
    inside = {name for name in imported if name.startswith(".") or name.startswith("lesson_lib")}
    assert outside == set()
    assert inside <= {"..i18n", ".progress", ".progress_view", "lesson_lib.exercises.progress_view"}


# --- two writers, and the live view ---------------------------------------------------------------------

_WRITER = r"""
import sys
from lesson_lib.exercises import check, progress
progress.enable(sys.argv[1])
for n in range(60):
    check("01.bytes", n)
"""


def test_two_processes_appending_at_once_leave_every_record_whole(tmp_path):
    """Two kernels of one learner: each record is one write of a whole line to a file opened for appending,
    so lines do not interleave (the attempt numbers may repeat; the view counts records, not numbers)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-c", _WRITER, str(tmp_path)]
    writers = [subprocess.Popen(command, env=env) for _ in range(2)]
    assert [w.wait(timeout=120) for w in writers] == [0, 0]
    reading = read(tmp_path / "progress.jsonl")
    assert (len(reading.records), reading.torn) == (120, 0)
    assert table([tmp_path], now=NOW).cells[tmp_path.name, "01.bytes"].attempts == 120


def test_the_live_view_refreshes_until_closed(isolated):
    from lesson_lib.exercises.progress_live import live

    progress.enable(isolated / "alice")
    check("01.bytes", 9)
    view = live([isolated / "alice"], every=0.05)
    assert 'class="trying"' in view.value
    check("01.bytes", 10)
    deadline = datetime.now(UTC) + timedelta(seconds=10)
    while 'class="solved"' not in view.value and datetime.now(UTC) < deadline:
        threading.Event().wait(0.05)
    assert 'class="solved"' in view.value
    view.close()
    assert not view.refreshing
    with pytest.raises(ValueError, match="every"):
        live([isolated / "alice"], every=0)


def test_a_room_without_records_says_so(tmp_path):
    (tmp_path / "ed").mkdir()
    view = table([tmp_path / "ed"], now=NOW)
    assert (view.learners, view.questions, view.stuck()) == (("ed",), (), [])
    assert view.text() == "no records" and view.html() == "<p>no records</p>"
