"""tools/lab.py, what ``make lab`` runs: the notebooks it trusts, the settings it puts first, its command.

The real proof is in the browser (tests/browser/test_lab_widgets_on_open.py); these check the pieces fast.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.sign import NotebookNotary

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("lab_launcher", ROOT / "tools" / "lab.py")
lab = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lab)


def test_every_course_notebook_is_trusted_in_the_data_folder_jupyter_uses(tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "data"))
    notebooks = lab.course_notebooks()
    assert {p.name for p in notebooks} >= {"00_start_here.ipynb", "04_events_are_not_completion.ipynb"}
    assert any("exercises" in p.parts for p in notebooks)
    with NotebookNotary() as notary:  # what a fresh clone's JupyterLab sees: nothing trusted
        assert not any(notary.check_signature(nbformat.read(p, nbformat.NO_CONVERT)) for p in notebooks)
    assert lab.trust(notebooks) == notebooks
    with NotebookNotary() as notary:  # the notary the server uses: the same data folder
        for path in notebooks:
            assert notary.check_signature(nbformat.read(path, as_version=4)), path
    assert lab.trust(notebooks) == []  # a second run signs nothing new
    assert (tmp_path / "data" / "nbsignatures.db").exists()


def test_checkpoints_are_not_course_notebooks(tmp_path):
    (tmp_path / ".ipynb_checkpoints").mkdir()
    (tmp_path / ".ipynb_checkpoints" / "a-checkpoint.ipynb").write_text("{}")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.ipynb").write_text("{}")
    assert lab.course_notebooks(tmp_path) == [tmp_path / "sub" / "b.ipynb"]


def test_the_course_settings_come_first_and_others_stay():
    env = lab.lab_environment({"JUPYTER_CONFIG_PATH": os.pathsep.join(["/a", str(lab.CONFIG)]), "X": "1"})
    assert env["JUPYTER_CONFIG_PATH"].split(os.pathsep) == [str(lab.CONFIG), "/a"]
    assert env["X"] == "1"
    assert lab.lab_environment({})["JUPYTER_CONFIG_PATH"] == str(lab.CONFIG)


def test_the_course_settings_silence_news_and_update_checks():
    page = json.loads((lab.CONFIG / "labconfig" / "page_config.json").read_text(encoding="utf-8"))
    assert page["disabledExtensions"] == {"@jupyterlab/apputils-extension:announcements": True}
    server = json.loads((lab.CONFIG / "jupyter_server_config.json").read_text(encoding="utf-8"))
    assert server["LabApp"]["news_url"] is None
    assert server["LabApp"]["check_for_updates_class"] == "jupyterlab.NeverCheckForUpdate"


def test_the_command_opens_lesson_00_unless_a_notebook_is_given():
    assert lab.lab_argv([]) == [sys.executable, "-m", "jupyterlab", "notebooks/00_start_here.ipynb"]
    assert lab.lab_argv(["--no-browser"])[-1] == "notebooks/00_start_here.ipynb"
    assert lab.lab_argv(["notebooks/01_chunks_are_not_characters.ipynb"])[-1].startswith("notebooks/01")
    assert "notebooks/00_start_here.ipynb" not in lab.lab_argv(["notebooks/exercises"])


def _make_targets() -> list[str]:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    return sorted(set(re.findall(r"^([a-z][\w-]*):(?!=)", makefile, re.MULTILINE)))


def test_the_readme_names_every_make_target():
    targets = _make_targets()
    assert {"lab", "test", "venv", "clean-venv"} <= set(targets)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [t for t in targets if not re.search(rf"make {re.escape(t)}\b(?!-)", readme)]
    assert not missing, f"README.md does not name make {', make '.join(missing)}"


def test_the_makefile_starts_lab_through_tools_lab_py():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^lab:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert recipe and recipe.group(1).strip() == "$(BIN)/python tools/lab.py"


@pytest.mark.parametrize("name", ["jupyter_server_config.json", "labconfig/page_config.json"])
def test_config_files_are_json(name):
    json.loads((lab.CONFIG / name).read_text(encoding="utf-8"))


def _recipe(makefile: str, target: str) -> list[str]:
    """The command lines of one Makefile rule (comment lines left out)."""
    match = re.search(rf"^{re.escape(target)}:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert match, target
    return [line.strip() for line in match.group(1).splitlines() if not line.strip().startswith("#")]


def _as_powershell(line: str, variables: dict[str, str]) -> str | None:
    """A Makefile command as README's Windows block writes it; None for what has no Windows step."""
    if line.startswith("touch "):
        return None  # the stamp: make's own bookkeeping
    line = re.sub(r"^test -x \S+ \|\| ", "", line)  # the venv is created whether or not it exists
    line = line.replace("$(PYTHON)", "py -3").replace("\\\\n", "\\n")
    for name in ("NBVAL", "VENV", "MITM_VENV"):
        line = line.replace(f"$({name})", variables[name])
    line = line.replace("$(BIN)/", ".venv\\Scripts\\")
    return re.sub(r"^(\.venv(?:-mitmproxy)?)/bin/", r"\1\\Scripts\\", line)


@pytest.mark.parametrize("readme", ["README.md", "README.zh-CN.md"])
def test_the_windows_commands_are_the_makefiles_recipes(readme):
    """README: 'The commands below are the Makefile's recipes for make venv, make lab and make test', in
    both editions, in order; and PYTHONUTF8 is set first."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    variables = dict(re.findall(r"^([A-Z_]+) :?= (.*)$", makefile, re.MULTILINE))
    block = re.search(r"```powershell\n(.*?)```", (ROOT / readme).read_text(encoding="utf-8"), re.S)
    assert block, readme
    lines = [line for line in block.group(1).splitlines() if line and not line.startswith("#")]
    assert lines[0].startswith('$env:PYTHONUTF8 = "1"')
    expected = [
        converted
        for target in ("$(STAMP)", "$(MITM_STAMP)", "lab", "test")
        for line in _recipe(makefile, target)
        if (converted := _as_powershell(line, variables)) is not None
    ]
    assert lines[1:] == expected
