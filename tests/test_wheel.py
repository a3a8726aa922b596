"""The package as a user gets it: a built wheel, installed into a fresh venv, works without the checkout.

The wheel is built offline from a copy of the checkout's packaging inputs (``pyproject.toml``, ``README.md``,
``lesson_lib/`` with its ``data`` link, ``data/``) with the build tools of the running environment
(``python -m build --wheel --no-isolation``), so no stale ``build/`` folder of the checkout can leak into it.
The venv has no system site packages and gets the wheel alone (``--no-deps --no-index``): the core needs
nothing else. Everything below runs in that venv, from a folder outside the checkout, with no ``PYTHONPATH``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tomllib
import unicodedata
from importlib.metadata import version
from pathlib import Path

import pytest

from lesson_lib import consume, parse_sse, set_language
from lesson_lib.captures import load, names
from lesson_lib.exercises import check

ROOT = Path(__file__).resolve().parent.parent
CAPTURE = "openai-chat/truncated_mid_event"  # a cut stream: describe() has something to explain
QUESTION = "00.openai_done"  # answered with what the capture's terminal event carries

# What runs in the venv; prints one JSON object.
PROBE = r"""
import json, sys
from pathlib import Path

import lesson_lib
heavy = sorted(m for m in ("httpx", "httpx2", "starlette", "uvicorn", "ipywidgets", "matplotlib", "IPython",
                           "anyio") if m in sys.modules)

from lesson_lib import consume, parse_sse, set_language
from lesson_lib.captures import DATA_DIR, load, names
from lesson_lib.exercises import check

capture = load(sys.argv[1])
result = consume([capture.body], capture.contract)
english = result.describe()
set_language("zh-CN")
chinese = result.describe()
set_language("en")
done = parse_sse([load("openai-chat/completed").body])[-1].data
package = Path(lesson_lib.__file__).parent
print(json.dumps({
    "package": str(package),
    "data_dir": str(DATA_DIR),
    "heavy": heavy,
    "outcome": str(result.outcome),
    "text": result.text,
    "expected_outcome": capture.outcome,
    "expected_text": capture.text,
    "describe_en": english,
    "describe_zh": chinese,
    "check_right": [check(sys.argv[2], done).correct, repr(check(sys.argv[2], done))],
    "check_wrong": [check(sys.argv[2], "data: " + done).correct, repr(check(sys.argv[2], "data: " + done))],
    "captures": {name: len(load(name).body) for name in names()},
    "modules": sorted(p.relative_to(package).as_posix() for p in package.rglob("*.py")),
    "relay_static": sorted(p.name for p in (package / "net" / "relay_static").iterdir()),
    "proxy_configs": sorted(p.name for p in (package / "net" / "proxy_configs").iterdir()),
    "typed": (package / "py.typed").is_file(),
    "diagnose_schema": (package / "diagnose" / "schema.json").is_file(),
}))
"""


def _clean_env() -> dict[str, str]:
    """The environment without anything that would let the venv find the checkout."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    env["PYTHONNOUSERSITE"] = "1"
    return env


def _run(args: list[str | Path], cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    shown = " ".join(str(a) for a in args[:4])  # not the probe's source
    output = f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert done.returncode == 0, f"{shown} ... exit {done.returncode}:\n{output}"
    return done.stdout


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> dict:
    base = tmp_path_factory.mktemp("wheel")
    source, dist, venv, elsewhere = base / "source", base / "dist", base / "venv", base / "elsewhere"
    source.mkdir()
    elsewhere.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    junk = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints")
    shutil.copytree(ROOT / "lesson_lib", source / "lesson_lib", symlinks=True, ignore=junk)
    shutil.copytree(ROOT / "data", source / "data", ignore=junk)

    # setuptools before 70.1 (Python 3.11's venvs bring 65.5) builds wheels with the wheel package.
    setuptools = tuple(int(part) for part in version("setuptools").split(".")[:2])
    if setuptools < (70, 1) and importlib.util.find_spec("wheel") is None:
        pytest.fail("the wheel package is missing: `make venv` installs it from requirements.txt")
    _run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", dist, source], cwd=source)
    (wheel,) = dist.glob("boundary_lab-*.whl")

    _run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=base)
    python = venv / "bin" / "python"
    # The running environment's pip installs into the venv (--python): a venv without pip is made in a
    # tenth of a second, one with pip in several.
    pip = [sys.executable, "-m", "pip", "--python", python]
    _run([*pip, "install", "--quiet", "--no-deps", "--no-index", wheel], cwd=base, env=_clean_env())
    out = _run([python, "-c", PROBE, CAPTURE, QUESTION], cwd=elsewhere, env=_clean_env())
    report = json.loads(out)
    report["venv"] = str(venv)
    # The console script and `python -m lesson_lib`, on a bundled capture, from outside the checkout.
    report["diagnose"] = {}
    for key, command in {
        "script_whole": [venv / "bin" / "boundary-lab", "diagnose"],
        "module_cut": [python, "-m", "lesson_lib", "diagnose"],
    }.items():
        stem = "completed" if key.endswith("whole") else "truncated_mid_event"
        capture = Path(report["data_dir"]) / "openai-chat" / f"{stem}.sse"
        done = subprocess.run(
            [str(a) for a in [*command, capture, "--json"]],
            cwd=elsewhere, env=_clean_env(), capture_output=True, text=True, timeout=120, check=False,
        )
        report["diagnose"][key] = {"status": done.returncode, "out": done.stdout, "err": done.stderr}
    return report


def test_the_venv_imports_the_installed_wheel_not_the_checkout(probe: dict) -> None:
    package = Path(probe["package"])
    assert package.is_relative_to(probe["venv"]), package
    assert Path(probe["data_dir"]) == package / "data"
    assert not Path(probe["data_dir"]).is_symlink()  # the wheel holds the files, not a link to the checkout


def test_import_lesson_lib_loads_no_network_widget_or_plotting_package(probe: dict) -> None:
    assert probe["heavy"] == []


def test_consume_on_a_capture_loaded_by_name(probe: dict) -> None:
    assert probe["outcome"] == probe["expected_outcome"] == "truncated"
    assert probe["text"] == probe["expected_text"] != ""
    here = consume([load(CAPTURE).body], load(CAPTURE).contract)
    assert (probe["outcome"], probe["text"]) == (str(here.outcome), here.text)


def test_describe_in_english_and_in_chinese(probe: dict) -> None:
    here = consume([load(CAPTURE).body], load(CAPTURE).contract)
    english = here.describe()
    set_language("zh-CN")
    try:
        chinese = here.describe()
    finally:
        set_language("en")
    assert probe["describe_en"] == english
    assert probe["describe_zh"] == chinese
    assert probe["describe_en"] != probe["describe_zh"]
    assert any(unicodedata.name(c, "").startswith("CJK UNIFIED") for c in probe["describe_zh"])
    assert probe["describe_en"].isascii()


def test_an_exercise_check(probe: dict) -> None:
    done = parse_sse([load("openai-chat/completed").body])[-1].data
    right, wrong = check(QUESTION, done), check(QUESTION, "data: " + done)
    assert probe["check_right"] == [True, repr(right)]
    assert probe["check_wrong"] == [False, repr(wrong)]


def test_every_module_capture_and_static_file_is_in_the_wheel(probe: dict) -> None:
    package = ROOT / "lesson_lib"
    modules = sorted(
        p.relative_to(package).as_posix()
        for p in package.rglob("*.py")  # rglob does not follow the data link: no capture script here
        if "__pycache__" not in p.parts
    )
    assert probe["modules"] == modules
    assert any(m.startswith("i18n/locales/zh_CN/") for m in probe["modules"])
    assert probe["captures"] == {name: len(load(name).body) for name in names()}
    assert probe["relay_static"] == sorted(p.name for p in (package / "net" / "relay_static").iterdir())
    assert probe["proxy_configs"] == sorted(p.name for p in (package / "net" / "proxy_configs").iterdir())
    assert probe["typed"]  # PEP 561: a user's type checker reads the package's hints


def test_boundary_lab_diagnose_runs_from_the_installed_wheel(probe: dict) -> None:
    """Issue 25: the console script (``[project.scripts]``) exits 0 on a bundled whole capture, and
    ``python -m lesson_lib diagnose`` exits 1 on a cut one, outside the checkout; the schema is packaged."""
    whole, cut = probe["diagnose"]["script_whole"], probe["diagnose"]["module_cut"]
    assert whole["status"] == 0, whole["err"]
    assert json.loads(whole["out"])["is_final"] is True and whole["err"] == ""
    assert cut["status"] == 1, cut["err"]
    assert json.loads(cut["out"])["truncated_at"] == "event"
    assert probe["diagnose_schema"]


def test_the_pinned_lock_satisfies_every_declared_range() -> None:
    """requirements.txt (what the notebooks' outputs rely on) is one installation the extras allow."""
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = {}
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, _, pinned = line.partition("==")
            pins[canonicalize_name(name)] = pinned
    declared = [Requirement(r) for r in project["dependencies"]]
    declared += [Requirement(r) for extra in project["optional-dependencies"].values() for r in extra]
    outside = [
        str(r)
        for r in declared
        if canonicalize_name(r.name) != canonicalize_name(project["name"])
        and not r.specifier.contains(pins.get(canonicalize_name(r.name), "0"), prereleases=True)
    ]
    assert outside == []
    assert set(project["optional-dependencies"]) == {"lessons", "net", "guard", "faults", "dev"}
    assert project["dependencies"] == []  # the core is the standard library
