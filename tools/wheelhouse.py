"""Build the wheelhouse: one folder an instructor carries to install the course where there is no network.

Usage: ``python tools/wheelhouse.py [--out wheelhouse] [--python PYTHON] [--npm hub]`` (``make wheelhouse``).

What the folder holds, once this exits 0:

- a wheel for every line of ``requirements.txt`` and of ``requirements-mitmproxy.txt`` (both copied in), for
  the platform and Python of ``--python`` (the one that will install them: 3.11, as runtime.txt says).
  ``pip download --prefer-binary`` takes, for each pinned version, a wheel wherever one exists for this
  platform, which is what ``--only-binary=:all:`` would take; a pinned version that has only a source
  distribution (an sdist) is kept in ``sources/`` and built into a wheel here, while the network is there.
  So installing from the folder builds nothing and downloads nothing;
- the course itself, built as a wheel (``boundary_lab-*.whl``) from this checkout;
- ``manifest.json`` (each file: name, version, sha256, and how it got here) and ``SHA256SUMS``
  (``sha256sum -c SHA256SUMS`` checks the folder on a machine without Python tools);
- ``README.txt``: how to install from the folder with no network;
- the npm part: when ``--npm DIR`` (by default ``hub/`` in the checkout, where ``make hub`` keeps the
  configurable-http-proxy it pins) holds a ``package.json``, it must hold a ``package-lock.json`` too;
  ``npm ci`` then fills ``npm-cache/`` in the folder (both files are copied beside it), from which
  ``npm ci --offline --cache wheelhouse/npm-cache`` installs the same lock later (npm checks each package
  against the lock's integrity, so the cache is not in the sums). When DIR has no ``package.json``, there
  is no npm part, and the manifest (``"npm": null``), the README and the closing line say so.

The folder is built beside ``--out`` and put in its place only when every step passed: a failed run leaves
the previous wheelhouse as it was. ``--out`` must be a wheelhouse this tool made, an empty folder, or absent.
A bad argument or a failed step prints one line naming it on stderr and exits 2, never a traceback.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REQUIREMENTS = ("requirements.txt", "requirements-mitmproxy.txt")
MANIFEST = "manifest.json"
SUMS = "SHA256SUMS"
SOURCES = "sources"  # sdists: not scanned by --find-links (it reads the folder's top level only)
NPM_CACHE = "npm-cache"
NPM_DEFAULT = "hub"  # the folder of the checkout whose package.json (if any) the npm part packs
COURSE_INPUTS = ("pyproject.toml", "README.md")  # with lesson_lib/ and data/, what the wheel is built from
STEP_TIMEOUT = 1800  # seconds for one pip, build or npm step


class WheelhouseError(Exception):
    """A bad argument or a failed step: the message names it, and the tool prints it on one line."""


@dataclass(frozen=True)
class Options:
    """Checked arguments: ``out`` may be replaced, ``python`` runs pip and build, ``npm`` is optional."""

    out: Path
    python: Path
    npm: Path | None


def required_python() -> str:
    """The ``major.minor`` of runtime.txt (``python-3.11`` gives ``3.11``): the wheels are for that Python."""
    text = (ROOT / "runtime.txt").read_text(encoding="utf-8").strip()
    return text.removeprefix("python-")


def check_arguments(out: str, python: str, npm: str | None) -> Options:
    """Options, or WheelhouseError naming the argument: nothing is written or started before this passes."""
    if not out.strip():
        raise WheelhouseError("--out: an empty path")
    out_path = Path(out).expanduser().resolve()
    if out_path.exists() and not out_path.is_dir():
        raise WheelhouseError(f"--out {out}: exists and is not a folder")
    if out_path.is_dir() and any(out_path.iterdir()) and not (out_path / MANIFEST).is_file():
        raise WheelhouseError(f"--out {out}: a folder with files but no {MANIFEST} (not a wheelhouse): kept")
    if out_path == ROOT or ROOT.is_relative_to(out_path):
        raise WheelhouseError(f"--out {out}: would replace the checkout")
    python_path = Path(python).expanduser()
    if not python_path.is_file():
        raise WheelhouseError(f"--python {python}: no such file")
    npm_path = None
    if npm is not None:
        npm_path = Path(npm).expanduser().resolve()
        if npm_path.exists() and not npm_path.is_dir():
            raise WheelhouseError(f"--npm {npm}: not a folder")
        if (npm_path / "package.json").is_file() and not (npm_path / "package-lock.json").is_file():
            raise WheelhouseError(f"--npm {npm}: package.json without package-lock.json (pin it first)")
    for name in REQUIREMENTS:
        if not (ROOT / name).is_file():
            raise WheelhouseError(f"{name}: missing from the checkout")
    return Options(out=out_path, python=python_path, npm=npm_path)


def _run(step: str, args: list[str | Path], cwd: Path | None = None) -> str:
    """Run one step; its stdout, or WheelhouseError with the step's name and the last line it printed."""
    try:
        done = subprocess.run(
            [str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=STEP_TIMEOUT, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise WheelhouseError(f"{step}: {exc}") from None
    if done.returncode != 0:
        lines = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
        errors = [line for line in lines if line.startswith("ERROR")] or lines[-1:]
        raise WheelhouseError(f"{step}: exit {done.returncode}: {' / '.join(errors[-3:]) or 'no output'}")
    return done.stdout


def _python_version(python: Path) -> str:
    """The ``major.minor`` of the interpreter, or WheelhouseError naming --python."""
    try:
        out = _run("--python", [python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"])
    except WheelhouseError as exc:
        raise WheelhouseError(f"--python {python}: does not run ({exc})") from None
    return out.strip()


def sha256(path: Path) -> str:
    """The file's SHA-256, hex."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def wheel_name_version(filename: str) -> tuple[str, str]:
    """``(name, version)`` from a wheel's file name (``name-version[-build]-py-abi-platform.whl``)."""
    parts = filename.removesuffix(".whl").split("-")
    if len(parts) < 5:
        raise WheelhouseError(f"{filename}: not a wheel's file name")
    return parts[0], parts[1]


def sdist_name_version(filename: str) -> tuple[str, str]:
    """``(name, version)`` from an sdist's file name (``name-version.tar.gz`` or ``.zip``)."""
    stem = filename.removesuffix(".tar.gz").removesuffix(".zip")
    name, _, version = stem.rpartition("-")
    return name, version


def download(options: Options, folder: Path) -> list[str]:
    """Download every requirement into ``folder``; build each sdist into a wheel; the sdists' file names."""
    for name in REQUIREMENTS:
        _run(
            f"pip download -r {name}",
            [options.python, "-m", "pip", "download", "--quiet", "--prefer-binary", "-r", ROOT / name,
             "-d", folder],
        )
        shutil.copy2(ROOT / name, folder / name)
    sources = folder / SOURCES
    sdists = sorted(p for p in folder.iterdir() if p.name.endswith((".tar.gz", ".zip")))
    for sdist in sdists:
        sources.mkdir(exist_ok=True)
        moved = sources / sdist.name
        sdist.rename(moved)
        _run(f"pip wheel {sdist.name}", [options.python, "-m", "pip", "wheel", "--quiet", "--no-deps",
                                         "--wheel-dir", folder, moved])
    return [p.name for p in sdists]


def build_course(options: Options, folder: Path) -> str:
    """Build the course's wheel from a copy of its packaging inputs (no stale build/); its file name."""
    with tempfile.TemporaryDirectory(prefix="wheelhouse-course-") as tmp:
        source = Path(tmp) / "source"
        source.mkdir()
        for name in COURSE_INPUTS:
            shutil.copy2(ROOT / name, source / name)
        junk = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints")
        shutil.copytree(ROOT / "lesson_lib", source / "lesson_lib", symlinks=True, ignore=junk)
        shutil.copytree(ROOT / "data", source / "data", ignore=junk)
        dist = Path(tmp) / "dist"
        command: list[str | Path] = [options.python, "-m", "build", "--wheel", "--no-isolation",
                                     "--outdir", dist, source]
        _run("build the course's wheel", command, cwd=source)
        (wheel,) = dist.glob("boundary_lab-*.whl")
        shutil.copy2(wheel, folder / wheel.name)
        return wheel.name


def npm_hook(options: Options, folder: Path) -> str | None:
    """Fill ``npm-cache/`` from ``--npm DIR``'s lock (``npm ci``); the lock's path, or None without one."""
    if options.npm is None or not (options.npm / "package.json").is_file():
        return None
    lock = options.npm / "package-lock.json"
    with tempfile.TemporaryDirectory(prefix="wheelhouse-npm-") as tmp:
        for name in ("package.json", "package-lock.json"):
            shutil.copy2(options.npm / name, Path(tmp) / name)
        _run("npm ci", ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--cache",
                        folder / NPM_CACHE], cwd=Path(tmp))
    shutil.copy2(lock, folder / "package-lock.json")
    shutil.copy2(options.npm / "package.json", folder / "package.json")
    return str(lock)


README = """\
Boundary Lab's wheelhouse: everything pip needs to install the course with no network.
Python {minor} on {platform} (built with {python}), from the checkout's requirements.txt and
requirements-mitmproxy.txt (copied here). manifest.json lists every file with its sha256, and SHA256SUMS
holds the same sums (every file but these three). Check the folder first:

    cd wheelhouse && sha256sum -c SHA256SUMS && cd ..

Install on a machine with no network (Python {minor}; pip is the one that comes with `python -m venv`):

    python3 -m venv .venv
    .venv/bin/pip install --no-index --find-links wheelhouse -r wheelhouse/requirements.txt
    .venv/bin/pip install --no-index --find-links wheelhouse wheelhouse/{course}

The real-proxy lessons' mitmproxy lives in a venv of its own (it pins an older h11):

    python3 -m venv .venv-mitmproxy
    .venv-mitmproxy/bin/pip install --no-index --find-links wheelhouse \\
        -r wheelhouse/requirements-mitmproxy.txt

Or, in a checkout of the course, its own make targets install from the folder instead of the network
when pip's variables point at it (an absolute path); `make lab` then starts JupyterLab:

    PIP_NO_INDEX=1 PIP_FIND_LINKS=$PWD/wheelhouse make venv mitmproxy
    make lab

Built here from source distributions (they have no wheel for this platform): {sdists}.
npm: {npm}
"""


def write_manifest(options: Options, folder: Path, sdists: list[str], course: str, npm: str | None) -> dict:
    """Write manifest.json, SHA256SUMS and README.txt for the files now in ``folder``; the manifest."""
    probe = "import json, sys, sysconfig as s; print(json.dumps([sys.version.split()[0], s.get_platform()]))"
    python, platform = json.loads(_run("--python", [options.python, "-c", probe]))
    built = {sdist_name_version(s) for s in sdists}
    files = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and NPM_CACHE not in p.parts):
        relative = path.relative_to(folder).as_posix()
        if path.suffix == ".whl":
            name, version = wheel_name_version(path.name)
            built_here = any(name.lower().replace("-", "_") == n.lower().replace("-", "_") and version == v
                             for n, v in built)
            kind = "course" if path.name == course else "built from sdist" if built_here else "downloaded"
        elif path.parent.name == SOURCES:
            (name, version), kind = sdist_name_version(path.name), "sdist"
        else:
            name, version, kind = relative, "", "text"
        files.append({"file": relative, "name": name, "version": version, "sha256": sha256(path),
                      "kind": kind})
    manifest = {
        "python": python,
        "platform": platform,
        "course": course,
        "requirements": list(REQUIREMENTS),
        "built_from_sdist": sdists,
        "npm": {"lock": npm, "cache": NPM_CACHE} if npm else None,
        "files": files,
    }
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    (folder / SUMS).write_text("".join(f"{f['sha256']}  {f['file']}\n" for f in files), encoding="utf-8")
    npm_text = (f"{NPM_CACHE}/ holds the packages of {npm}: npm ci --offline --cache wheelhouse/{NPM_CACHE}"
                if npm else f"no package.json in {options.npm}, so there is no npm part")
    (folder / "README.txt").write_text(
        README.format(python=python, minor=required_python(), platform=platform, course=course,
                      sdists=", ".join(sdists) or "none", npm=npm_text),
        encoding="utf-8",
    )
    return manifest


def build(options: Options) -> dict:
    """Build the wheelhouse at ``options.out`` (replacing it only on success); its manifest."""
    wanted, got = required_python(), _python_version(options.python)
    if got != wanted:
        raise WheelhouseError(f"--python {options.python}: Python {got}; the course's is {wanted}")
    options.out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{options.out.name}-", dir=options.out.parent))
    try:
        sdists = download(options, staging)
        course = build_course(options, staging)
        npm = npm_hook(options, staging)
        manifest = write_manifest(options, staging, sdists, course, npm)
        if options.out.exists():
            shutil.rmtree(options.out)
        staging.rename(options.out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return manifest


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="The course's wheels in one folder, for an offline install.")
    parser.add_argument("--out", default=str(ROOT / "wheelhouse"), help="the folder (replaced on success)")
    parser.add_argument("--python", default=sys.executable, help="the Python 3.11 that will install them")
    parser.add_argument("--npm", metavar="DIR", default=str(ROOT / NPM_DEFAULT),
                        help="a folder with package.json and package-lock.json (default: hub/)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """0 when the wheelhouse is built; 2 for a bad argument or a failed step (one line on stderr)."""
    options = _arguments(sys.argv[1:] if argv is None else argv)
    try:
        manifest = build(check_arguments(options.out, options.python, options.npm))
    except (WheelhouseError, OSError) as exc:
        print(f"wheelhouse: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("wheelhouse: interrupted; the previous folder is unchanged", file=sys.stderr)
        return 2
    wheels = sum(1 for f in manifest["files"] if f["file"].endswith(".whl"))
    sdists = ", ".join(manifest["built_from_sdist"]) or "none"
    print(f"{options.out}: {wheels} wheels for Python {manifest['python']} ({manifest['platform']}); "
          f"built from sdists: {sdists}; npm: {'yes' if manifest['npm'] else 'no package.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
