"""The layers' direction, enforced: import-linter's contracts in ``pyproject.toml`` hold (docs/design.md).

``lint-imports`` (the venv's, beside this interpreter) reads ``[tool.importlinter]``: a layers contract
(cli > exercises > teach > net | diagnose | guard > captures > i18n > core: a module imports only from layers
below its own; net, diagnose and guard are siblings, none imports another) and a forbidden one (the core
imports no network, widget or plotting package, directly or through another module). ``make test`` runs the
same command. The last tests break a copy of the package on purpose and check that the command reports the
violations, so a contract that no longer sees anything would fail here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
CONTRACTS = {c["id"]: c for c in CONFIG["contracts"]}
#: Top to bottom; siblings (independent layers: none imports another) share a line, split by " | ".
LAYERS = ["cli", "exercises", "teach", "net | diagnose | guard | faults", "captures", "i18n", "core"]
FORBIDDEN_IN_CORE = {
    "httpx", "httpx2", "starlette", "uvicorn", "ipywidgets", "matplotlib", "IPython", "anyio", "jiter"
}


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the ``lesson_lib`` under ``root``, with that root's pyproject.toml, no cache."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_contracts_say_the_layers_of_the_design() -> None:
    assert CONFIG["root_package"] == "lesson_lib"
    assert CONFIG["include_external_packages"] is True  # else the forbidden packages are not in the graph
    assert CONTRACTS.keys() == {"layers", "core-standalone"}
    assert CONTRACTS["layers"]["type"] == "layers"
    assert CONTRACTS["layers"]["layers"] == [
        " | ".join(f"lesson_lib.{name}" for name in layer.split(" | ")) for layer in LAYERS
    ]
    assert CONTRACTS["core-standalone"]["type"] == "forbidden"
    assert CONTRACTS["core-standalone"]["source_modules"] == ["lesson_lib.core"]
    assert set(CONTRACTS["core-standalone"]["forbidden_modules"]) == FORBIDDEN_IN_CORE


def test_every_contract_is_kept() -> None:
    done = lint_imports(ROOT)
    report = done.stdout + done.stderr
    for contract in CONTRACTS.values():
        assert f"{contract['name']} KEPT" in report, report
    assert done.returncode == 0, report


def copy_of_the_package(tmp_path: Path) -> None:
    """The package and its pyproject.toml under ``tmp_path``, to be broken there."""
    shutil.copy2(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    junk = shutil.ignore_patterns("__pycache__", "*.pyc", "data")
    shutil.copytree(ROOT / "lesson_lib", tmp_path / "lesson_lib", ignore=junk)


def test_a_core_module_that_imports_upwards_or_httpx_breaks_both_contracts(tmp_path: Path) -> None:
    copy_of_the_package(tmp_path)
    errors = tmp_path / "lesson_lib" / "core" / "errors.py"
    errors.write_text(errors.read_text(encoding="utf-8") + "\nimport httpx\n\nfrom ..net import http\n")
    done = lint_imports(tmp_path)
    report = done.stdout + done.stderr
    assert done.returncode == 1, report
    for contract in CONTRACTS.values():
        assert f"{contract['name']} BROKEN" in report, report
    assert "lesson_lib.core.errors -> lesson_lib.net.http" in report, report
    assert "lesson_lib.core.errors -> httpx" in report, report


def test_the_core_imports_the_standard_library_and_itself_only() -> None:
    """Stronger than the forbidden list: every import in lesson_lib/core names a standard module or core."""
    import ast
    import sys

    outside = []
    for path in sorted((ROOT / "lesson_lib" / "core").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.ImportFrom) and node.level > 1:
                names = [f"lesson_lib.{node.module or ''}"]  # `..x` leaves the core
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and not name.startswith("lesson_lib.core"):
                    outside.append(f"{path.name}: {name}")
    assert outside == []


def test_the_guard_importing_net_breaks_the_layers_contract(tmp_path: Path) -> None:
    """net and guard are siblings: the contract sees the guard, and forbids it to import net."""
    copy_of_the_package(tmp_path)
    paths = tmp_path / "lesson_lib" / "guard" / "paths.py"
    paths.write_text(paths.read_text(encoding="utf-8") + "\nfrom ..net import replay\n")
    done = lint_imports(tmp_path)
    report = done.stdout + done.stderr
    assert done.returncode == 1, report
    assert f"{CONTRACTS['layers']['name']} BROKEN" in report, report
    assert "lesson_lib.guard.paths -> lesson_lib.net.replay" in report, report
