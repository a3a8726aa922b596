"""Open JupyterLab on the course as a newcomer should first see it (``make lab``).

What it does, in order, and why:

1. **Trusts the course's notebooks** (every ``.ipynb`` under ``notebooks/``), as ``jupyter trust`` does:
   their signatures go into the notary database of the Jupyter data folder this JupyterLab uses. A notebook
   from a fresh clone is untrusted, and JupyterLab renders only "safe" output types in untrusted cells;
   the widget view (``application/vnd.jupyter.widget-view+json``) is not one, so every explorer would show
   its ``text/plain`` repr instead of the picture stored in the notebook's widget state. Trusted, the
   widget manager restores that state when the notebook opens (it does so whatever the widget setting
   ``saveState`` says: that setting only decides whether saving writes the state back). A restored view
   has no kernel behind it, so ipywidgets would put a red "disconnected" icon on each of its controls;
   the explorers themselves (``lesson_lib.teach.widgets``) show one notice instead, that their controls come
   alive once the cell has run, and keep the stored controls inert until then.
   The notebooks' files are not changed.
2. **Puts this course's Jupyter settings first** on ``JUPYTER_CONFIG_PATH`` (``tools/lab_config/``): the
   announcements plugin is disabled (no "Would you like to get notified about official Jupyter news?"
   notification over the lesson, no update check), the server never fetches a news feed, and the
   extension manager is read-only (``requirements.txt`` pins everything the lessons need).
   A learner's own settings in their user folders stay as they are.
3. **Starts JupyterLab** (``python -m jupyterlab``) on ``notebooks/00_start_here.ipynb``, or with the
   arguments given: ``python tools/lab.py [JUPYTERLAB_ARGUMENTS ...]``; any positional argument replaces
   the default notebook. The process is replaced by JupyterLab (same process id), so Ctrl-C stops it.

The real-browser tests start their JupyterLab through this script, so they check what ``make lab`` does.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
CONFIG = ROOT / "tools" / "lab_config"
FIRST_LESSON = Path("notebooks") / "00_start_here.ipynb"


def course_notebooks(folder: Path = NOTEBOOKS) -> list[Path]:
    """Every notebook of the course under ``folder``, checkpoints left out, in a stable order."""
    return sorted(p for p in folder.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def trust(paths: Sequence[Path]) -> list[Path]:
    """Sign each notebook in the notary of the current Jupyter data folder (``JUPYTER_DATA_DIR`` or the
    user's default), exactly as ``jupyter trust`` does; return those that were not trusted before."""
    import nbformat
    from nbformat.sign import NotebookNotary

    signed = []
    with NotebookNotary() as notary:
        for path in paths:
            notebook = nbformat.read(path, nbformat.NO_CONVERT)
            if not notary.check_signature(notebook):
                notary.sign(notebook)
                signed.append(path)
    return signed


def lab_environment(environ: dict[str, str] | None = None) -> dict[str, str]:
    """``environ`` (default: this process's) with the course's config folder first on JUPYTER_CONFIG_PATH."""
    env = dict(os.environ if environ is None else environ)
    rest = [p for p in env.get("JUPYTER_CONFIG_PATH", "").split(os.pathsep) if p and p != str(CONFIG)]
    env["JUPYTER_CONFIG_PATH"] = os.pathsep.join([str(CONFIG), *rest])
    return env


def lab_argv(arguments: Sequence[str]) -> list[str]:
    """The JupyterLab command line: the given arguments, and the first lesson unless a path is given."""
    argv = [sys.executable, "-m", "jupyterlab", *arguments]
    if not any(not a.startswith("-") for a in arguments):
        argv.append(str(FIRST_LESSON))
    return argv


def main(arguments: Sequence[str]) -> int:
    notebooks = course_notebooks()
    signed = trust(notebooks)
    print(f"lab.py: {len(notebooks)} course notebooks trusted ({len(signed)} newly signed)", flush=True)
    env = lab_environment()
    os.chdir(ROOT)
    argv = lab_argv(arguments)
    os.execve(sys.executable, argv, env)
    return 1  # not reached: execve replaces this process


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
