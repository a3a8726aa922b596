"""The core carries data, the catalogue layer words (lesson_lib.core.wording, lesson_lib.i18n.wording).

The core imports no catalogue; ``describe()``, ``str(IdleVerdict)`` and ``repr(Provisional)`` ask the
registered wording, which ``lesson_lib.i18n`` registers on import. The core's enums read as their values
where notebooks and views print them. The options of ``consume`` are a ``TypedDict`` that agrees with what
is checked at run time.
"""

from __future__ import annotations

import ast
import inspect
import json
import subprocess
import sys
import typing
from pathlib import Path

import pytest

import lesson_lib
from lesson_lib import consume, i18n, provisional, set_language
from lesson_lib.captures import load
from lesson_lib.core import completion, wording
from lesson_lib.core.activity import CLOCK_MEANINGS, Clock, IdleLimit, IdleVerdict, Watchdog, timeout_message
from lesson_lib.core.completion import Outcome, Unit, _prepare, stream_updates
from lesson_lib.core.decoding import ByteRole, byte_role
from lesson_lib.core.options import ConsumeOptions, OptionError
from lesson_lib.i18n.wording import CatalogueWording

CORE = Path(lesson_lib.__file__).parent / "core"


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in it (inside functions too), relative ones made absolute."""
    package = "lesson_lib.core"
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            out.add(module)
            out.update(f"{module}.{alias.name}" for alias in node.names)
    return out


def test_no_core_module_imports_a_catalogue():
    offenders = {
        path.name: sorted(m for m in imported_modules(path) if m.startswith("lesson_lib.i18n"))
        for path in sorted(CORE.glob("*.py"))
    }
    assert {name: mods for name, mods in offenders.items() if mods} == {}
    # and no module is loaded by name behind the scanner's back
    for path in CORE.glob("*.py"):
        assert "import_module" not in path.read_text(encoding="utf-8"), path.name


def test_the_scanner_sees_a_relative_import_of_the_catalogue(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from ..i18n import text\n")
    assert "lesson_lib.i18n.text" in imported_modules(probe)


def test_importing_a_core_module_alone_registers_the_catalogue_wording():
    code = (
        "import lesson_lib.core.completion as c\n"
        "from lesson_lib.core.wording import wording\n"
        "print(type(wording()).__name__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "CatalogueWording"


@pytest.fixture
def unregistered():
    """No wording registered for the test (the core on its own); the course's put back afterwards."""
    previous = wording.use_wording(None)
    assert isinstance(previous, CatalogueWording)
    yield
    wording.use_wording(previous)


def test_without_a_wording_the_core_speaks_plain_language_free_text(unregistered, restore_language):
    capture = load("openai-chat/truncated_mid_line")
    result = consume([capture.body], capture.contract)
    guess = provisional('{"city": "北')
    verdict = IdleVerdict(IdleLimit.PROGRESS, 139, 120.0)
    said = {}
    for code in i18n.LANGUAGES:
        set_language(code)
        said[code] = (result.describe(), str(verdict), repr(guess))
    assert said["en"] == said["zh-CN"]  # no language in it
    described, idle, shown = said["en"]
    assert described.startswith("outcome=truncated ")
    assert "truncated_at=line" in described and f"bytes={len(capture.body)}" in described
    assert result.text and result.text not in described  # counts, never the answer
    assert idle == "progress_idle: idle_for=139 s, maximum=120 s"
    assert shown == 'Provisional(value={"city": "北"}, text_chars=11)'


def test_the_registered_wording_is_the_catalogue_in_the_current_language(restore_language):
    capture = load("openai-chat/truncated_mid_line")
    result = consume([capture.body], capture.contract)
    assert result.describe().startswith("The openai-chat stream was truncated in the middle of a line")
    set_language("zh-CN")
    assert result.describe() == CatalogueWording().describe(result)
    assert result.describe().startswith("这条 openai-chat 流被截断了")


def test_a_timed_out_message_is_the_cores_english_and_describe_says_it_in_each_language(restore_language):
    clock = [0.0]

    def reads():
        yield b'data: {"choices": []}\n'
        clock[0] = 5.0
        yield b"\n"

    result = consume(reads(), "openai-chat", clock=lambda: clock[0], idle_timeout=1)
    assert result.outcome is Outcome.TIMED_OUT
    assert result.error is not None and result.error.kind is Clock.IDLE and result.error.limit is Clock.IDLE
    assert result.error.message == "idle_timeout=1 s ran out: no byte arrived for that long"
    assert result.error.message == timeout_message(Clock.IDLE, 1.0)
    assert result.error.message in result.describe()  # English: the same words
    set_language("zh-CN")
    assert result.error.message not in result.describe()
    assert "这么长时间里一个字节也没有收到" in result.describe()
    assert result.error.message == timeout_message("idle_timeout", 1)  # stays English
    english = i18n.catalogue("en")
    assert {clock: english[f"completion.clock.{clock}"] for clock in Clock} == dict(CLOCK_MEANINGS)


def test_timeout_message_refuses_a_clock_it_does_not_know():
    with pytest.raises(ValueError, match="'byte_idle' is not a valid Clock"):
        timeout_message("byte_idle", 1.0)


@pytest.mark.parametrize(
    ("name", "unit"),
    [
        ("openai-chat/truncated_mid_character", Unit.CHARACTER),
        ("openai-chat/truncated_mid_line", Unit.LINE),
        ("anthropic-messages/truncated_mid_event", Unit.EVENT),
        ("openai-chat/truncated_clean_boundary", Unit.COMPLETION),
    ],
)
def test_truncated_at_is_a_unit_that_reads_as_the_string_it_was(name, unit):
    capture = load(name)
    result = consume([capture.body], capture.contract)
    assert type(result.truncated_at) is Unit and result.truncated_at is unit
    value = unit.value
    assert result.truncated_at == value and {value: 1}[result.truncated_at] == 1
    assert (str(result.truncated_at), f"{result.truncated_at}", f"{result.truncated_at!s:12}") == (
        value,
        value,
        f"{value:12}",
    )
    assert repr(result.truncated_at) == repr(value)  # a view printing repr(truncated_at) is unchanged
    assert f"truncated_at={value!r}" in repr(result)
    assert json.dumps({"truncated_at": result.truncated_at}) == json.dumps({"truncated_at": value})


def test_clocks_idle_limits_and_byte_roles_are_enums_that_read_as_their_values():
    assert [str(clock) for clock in Clock] == ["idle_timeout", "progress_timeout", "deadline"]
    now = [0.0]
    dog = Watchdog(byte_idle=5, clock=lambda: now[0])
    now[0] = 6.0
    verdict = dog.check()
    assert verdict is not None and verdict.limit is IdleLimit.BYTE
    assert verdict == IdleVerdict("byte_idle", 6, 5)  # type: ignore[arg-type]  # equal to its string
    roles = {f"{b:02x}": byte_role(b) for b in (0x61, 0xC3, 0xA9, 0xFF)}
    assert all(type(role) is ByteRole for role in roles.values())
    assert str(roles) == "{'61': 'ascii', 'c3': 'lead', 'a9': 'continuation', 'ff': 'invalid'}"
    assert repr(Outcome.COMPLETED) == "<Outcome.COMPLETED: 'completed'>"  # Outcome keeps the enum repr


def test_the_options_typeddict_is_exactly_what_is_checked_at_run_time():
    parameters = inspect.signature(_prepare).parameters.values()
    checked = [p.name for p in parameters if p.kind is inspect.Parameter.KEYWORD_ONLY]
    assert sorted(ConsumeOptions.__optional_keys__) == sorted(checked)
    assert ConsumeOptions.__required_keys__ == frozenset()
    doc = inspect.getdoc(stream_updates) or ""
    assert [name for name in checked if f"``{name}``" not in doc] == []  # each written where it is explained


@pytest.mark.parametrize(
    "function", ["check_options", "consume", "stream_updates", "aconsume", "astream_updates"]
)
def test_consume_and_friends_show_their_options_to_an_editor(function):
    hints = typing.get_type_hints(getattr(completion, function))
    assert hints["options"] == typing.Unpack[ConsumeOptions]
    assert "__doc__ +" not in inspect.getsource(completion)  # no docstring written at run time


def test_a_bad_option_still_raises_before_any_read_naming_it():
    read = []

    def source():
        read.append(True)
        yield b""

    with pytest.raises(OptionError, match="max_events must be an int >= 1"):
        consume(source(), "openai-chat", max_events=0)
    with pytest.raises(TypeError, match="max_event"):
        consume(source(), "openai-chat", max_event=3)  # type: ignore[call-arg]
    assert read == []


def test_what_a_lesson_prints_of_an_error_is_in_the_learners_language(restore_language):
    """``describe()`` of a limit, a bad option and a clock that ran out says in English what ``str()`` says,
    and in Chinese the same facts; ``str()`` and ``message`` stay English whatever the language."""
    from lesson_lib import LimitExceededError, LineSplitter
    from lesson_lib.core.completion import StreamError
    from lesson_lib.core.options import check_int, check_number

    def errors() -> list[object]:
        found: list[object] = []
        for bad in (
            lambda: check_number("idle", 0, minimum=0, maximum=60, low_open=True, none=True),
            lambda: check_int("max_events", 0),
        ):
            with pytest.raises(OptionError) as caught:
                bad()
            found.append(caught.value)
        with pytest.raises(LimitExceededError) as caught:
            LineSplitter(max_line_chars=8).feed("data: 1\ndata: 你好你好你好\n")
        found.append(caught.value)
        found.append(
            StreamError(kind="progress_timeout", message=timeout_message(Clock.PROGRESS, 0.8), maximum=0.8)
        )
        return found

    english = errors()
    assert [e.describe() for e in english] == [
        str(e) if isinstance(e, Exception) else e.message for e in english
    ]
    set_language("zh-CN")
    chinese = errors()
    assert [str(e) for e in chinese[:3]] == [str(e) for e in english[:3]]
    assert [e.describe() for e in chinese] == [
        "idle 必须是数值，取值 > 0 且 <= 60 秒，或者为 None；实际传入的是 0",
        "max_events 必须是整数（int），取值 >= 1；实际传入的是 0",
        "超出上限 max_line_chars=8，位于字符下标 16 处（行下标 1）",
        "progress_timeout=0.8 s 已到期：这么长时间里没有收到任何文本或业务阶段（字节和心跳都不算）",
    ]
    other = OptionError("errors must be 'strict' or 'replace'; got 'x'")  # no range: said as written
    assert other.describe() == str(other)


def test_a_byte_role_label_is_in_the_learners_language(restore_language):
    roles = [byte_role(b) for b in "a你".encode()]
    assert [r.label() for r in roles] == ["ascii", "lead", "continuation", "continuation"]
    set_language("zh-CN")
    assert [r.label() for r in roles] == ["ASCII", "首字节", "后续字节", "后续字节"]
    assert roles[1] == "lead" and f"{roles[1]}" == "lead"  # the value code compares is unchanged
