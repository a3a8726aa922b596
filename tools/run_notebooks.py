"""Execute every lesson notebook top to bottom in a fresh kernel and store its outputs (``make outputs``).

Outputs are stored with the widget state, so widgets render when a notebook is opened (an explorer restored
that way says that its controls come alive once its cell has run); timing metadata is not recorded, so a
re-run changes only what really changed. Usage: ``python tools/run_notebooks.py [NOTEBOOK ...]`` (default:
every notebook under notebooks/).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
KERNEL = "python3"


def run(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    notebook.metadata["kernelspec"] = {
        "name": KERNEL,
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    client = NotebookClient(
        notebook,
        kernel_name=KERNEL,
        timeout=600,
        resources={"metadata": {"path": str(path.parent)}},
        record_timing=False,
        store_widget_state=True,
        allow_error_names=[],
    )
    client.execute()
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                output["traceback"] = [portable(line) for line in output["traceback"]]
    nbformat.write(notebook, path)


_PYTHON_LIB = re.compile(r"(/[\w.+-]+)+/lib/python3\.\d+/")


def portable(text: str) -> str:
    """A traceback line without this machine's paths: the checkout becomes relative, Python's own
    library folders become ``<python>/``."""
    return _PYTHON_LIB.sub("<python>/", text.replace(f"{ROOT}/", ""))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="tools/run_notebooks.py",
        description="Execute notebooks top to bottom in a fresh kernel and store their outputs.",
    )
    parser.add_argument(
        "notebooks", nargs="*", type=Path, help="notebooks to run (default: every one under notebooks/)"
    )
    args = parser.parse_args(argv)
    paths = list(args.notebooks) or sorted((ROOT / "notebooks").rglob("*.ipynb"))
    missing = [str(p) for p in paths if p.suffix != ".ipynb" or not p.is_file()]
    if missing:
        parser.error(f"notebooks: not a notebook file: {', '.join(missing)}")
    for path in paths:
        if ".ipynb_checkpoints" in path.parts:
            continue
        print(f"executing {path.relative_to(ROOT) if path.is_absolute() else path}", flush=True)
        run(path.resolve())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
