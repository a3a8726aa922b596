"""``make wheelhouse`` (tools/wheelhouse.py) and an install from it with no network (issue 28, offline).

The module builds a real wheelhouse from the checkout's requirements.txt and requirements-mitmproxy.txt (the
registry is reached here, as by an instructor before a workshop), then, in a network namespace of its own
(``unshare -n``), proves that the namespace has no network and installs from the folder alone: a fresh venv
gets requirements.txt and the course's wheel, a second one requirements-mitmproxy.txt, with pip's
configuration and the machine's local package folders out of reach (``PIP_CONFIG_FILE`` is the null
device, no ``PIP_*`` variable is passed on). The installed course then runs from a folder outside the
checkout. ``unshare -n`` needs root: elsewhere these tests are skipped, except where ``CI`` is set.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from lesson_lib import consume, parse_sse, set_language
from lesson_lib.captures import load
from lesson_lib.exercises import check

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "wheelhouse.py"
spec = importlib.util.spec_from_file_location("wheelhouse_tool", TOOL)
assert spec is not None and spec.loader is not None
wheelhouse = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = wheelhouse  # its dataclass looks its module up there
spec.loader.exec_module(wheelhouse)

CAPTURE = "openai-chat/truncated_mid_event"
QUESTION = "00.openai_done"
# A documentation address (RFC 5737, TEST-NET-1): public, and routed nowhere. It is tried only inside the
# namespace, and only once the namespace is shown to differ from the host's and to hold nothing but lo.
PUBLIC = ("192.0.2.1", 443)


def _unshare_problem() -> str | None:
    """Why ``unshare -n`` cannot run here, or None when it can."""
    if shutil.which("unshare") is None:
        return "unshare (util-linux) is not installed"
    done = subprocess.run(["unshare", "-n", "true"], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return f"`unshare -n` is not permitted here (it needs root): {done.stderr.strip()}"
    return None


@pytest.fixture(scope="module")
def namespaces() -> None:
    """Skip without ``unshare -n`` (not root), except in CI, where that fails the run."""
    problem = _unshare_problem()
    if problem is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set, and the offline install must be proven: {problem}")
        pytest.skip(f"{problem}; run the tests as root to prove the offline install")


# Runs inside the namespace with the host's Python in isolated mode; prints one JSON object.
INSIDE = r"""
import errno, json, os, socket, subprocess, sys
from pathlib import Path

host_ns, host_port, folder, work = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4])
public = (sys.argv[5], int(sys.argv[6]))
report = {"namespace_differs": os.readlink("/proc/self/ns/net") != host_ns,
          "interfaces": sorted(name for _, name in socket.if_nameindex())}
routes = Path("/proc/net/route").read_text().splitlines()[1:]  # IPv4: none
# IPv6: the kernel's own reject routes on lo, and nothing through another device
devices = sorted({line.split()[-1] for line in Path("/proc/net/ipv6_route").read_text().splitlines()})
report["routes"], report["ipv6_route_devices"] = routes, devices

def attempt(address):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(5)
        try:
            s.connect(address)
        except OSError as exc:
            return errno.errorcode.get(exc.errno, type(exc).__name__)
        return "connected"

def run(args, **kw):
    try:
        done = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=900, **kw)
    except (OSError, subprocess.TimeoutExpired) as exc:  # a program an earlier step failed to install
        return {"status": -1, "out": "", "err": repr(exc)}
    return {"status": done.returncode, "out": done.stdout[-4000:], "err": done.stderr[-4000:]}

if not (report["namespace_differs"] and report["interfaces"] == ["lo"] and not routes
        and set(devices) <= {"lo"}):
    print(json.dumps(report))  # not isolated: no connection is tried, and the test fails on this report
    sys.exit(0)
report["public"] = attempt(public)
report["host_loopback_lo_down"] = attempt(("127.0.0.1", host_port))
report["lo_up"] = run(["ip", "link", "set", "lo", "up"])["status"]
with socket.create_server(("127.0.0.1", 0)) as own:  # the namespace's own loopback works once lo is up
    report["own_loopback"] = attempt(own.getsockname())
report["host_loopback_lo_up"] = attempt(("127.0.0.1", host_port))
report["pip_config"] = run([sys.executable, "-m", "pip", "config", "list"])["out"]
# pip with its index, as a learner's machine would: it cannot reach it.
report["pip_index"] = run([sys.executable, "-m", "pip", "download", "--no-deps", "--retries", "0",
                           "--timeout", "5", "-d", work / "probe", "wheel"])

venv, mitm, elsewhere = work / "venv", work / "venv-mitmproxy", work / "elsewhere"
elsewhere.mkdir()
course = json.loads((folder / "manifest.json").read_text())["course"]
offline = ["--no-index", "--find-links", folder]
report["venv"] = run([sys.executable, "-m", "venv", venv])
report["install"] = run([venv / "bin" / "python", "-m", "pip", "install", "--quiet", *offline,
                         "-r", folder / "requirements.txt"])
report["install_course"] = run([venv / "bin" / "python", "-m", "pip", "install", "--quiet", *offline,
                                folder / course])
# The checkout's own `make mitmproxy` (README.txt's second way), pointed at the folder by pip's variables;
# it writes only into MITM_VENV.
env = dict(os.environ, PIP_NO_INDEX="1", PIP_FIND_LINKS=str(folder))
report["make_mitm"] = run(["make", "-C", sys.argv[10], "mitmproxy", f"MITM_VENV={mitm}",
                           f"PYTHON={sys.executable}"], env=env)
report["freeze"] = run([venv / "bin" / "python", "-m", "pip", "freeze", "--all"])["out"]
report["freeze_mitm"] = run([mitm / "bin" / "python", "-m", "pip", "freeze", "--all"])["out"]
report["mitmdump"] = run([mitm / "bin" / "mitmdump", "--version"])
report["probe"] = run([venv / "bin" / "python", "-c", sys.argv[7], *sys.argv[8:10]], cwd=elsewhere)
if (folder / "package.json").is_file():  # the npm part (the hub's configurable-http-proxy)
    npm = work / "npm"
    npm.mkdir()
    for name in ("package.json", "package-lock.json"):
        (npm / name).write_bytes((folder / name).read_bytes())
    report["npm_ci"] = run(["npm", "ci", "--offline", "--ignore-scripts", "--no-audit", "--no-fund",
                            "--cache", folder / "npm-cache"], cwd=npm)
    report["chp"] = run([npm / "node_modules" / ".bin" / "configurable-http-proxy", "--version"])
print(json.dumps(report))
"""

# Runs in the offline venv, from a folder outside the checkout; prints one JSON object.
PROBE = r"""
import json, sys
from importlib.metadata import version
from pathlib import Path

import lesson_lib
from lesson_lib import consume, parse_sse, set_language
from lesson_lib.captures import load
from lesson_lib.exercises import check
import lesson_lib.net.relay, lesson_lib.teach.widgets, lesson_lib.guard  # the extras' parts import
import jupyterlab, voila, openai

capture = load(sys.argv[1])
result = consume([capture.body], capture.contract)
english = result.describe()
set_language("zh-CN")
chinese = result.describe()
set_language("en")
done = parse_sse([load("openai-chat/completed").body])[-1].data
print(json.dumps({
    "package": str(Path(lesson_lib.__file__).parent), "version": version("boundary-lab"),
    "outcome": str(result.outcome), "text": result.text, "describe_en": english, "describe_zh": chinese,
    "check_right": check(sys.argv[2], done).correct,
    "check_wrong": check(sys.argv[2], "data: " + done).correct,
    "jupyterlab": jupyterlab.__version__, "voila": voila.__version__, "openai": openai.__version__,
}))
"""


def _pins(name: str) -> dict[str, str]:
    """``{canonical name: version}`` of a requirements file's ``name==version`` lines."""
    from packaging.utils import canonicalize_name

    pins: dict[str, str] = {}
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            package, _, version = line.partition("==")
            pins[canonicalize_name(package)] = version.strip()
    return pins


@pytest.fixture(scope="module")
def built(namespaces: None, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A wheelhouse built by the tool from the checkout (the registry is reached); (folder, stdout)."""
    folder = tmp_path_factory.mktemp("carried") / "wheelhouse"
    done = subprocess.run([sys.executable, TOOL, "--out", folder], capture_output=True, text=True,
                          timeout=1800, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" and "Traceback" not in done.stdout
    return folder, done.stdout


@pytest.fixture(scope="module")
def offline(built: tuple[Path, str], tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The report of INSIDE, run in ``unshare -n`` with a listener on the host's 127.0.0.1 open meanwhile."""
    folder, _ = built
    work = tmp_path_factory.mktemp("offline")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PIP_", "PYTHON", "VIRTUAL_ENV", "UV_"))}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_NO_CACHE_DIR="1", PYTHONNOUSERSITE="1", HOME=str(work))
    with socket.create_server(("127.0.0.1", 0)) as host_service:
        port = host_service.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass  # outside the namespace, the host's service answers
        done = subprocess.run(
            ["unshare", "-n", "--", sys.executable, "-I", "-c", INSIDE, os.readlink("/proc/self/ns/net"),
             str(port), str(folder), str(work), PUBLIC[0], str(PUBLIC[1]), PROBE, CAPTURE, QUESTION,
             str(ROOT)],
            capture_output=True, text=True, timeout=1800, env=env, check=False,
        )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_the_wheelhouse_holds_a_wheel_for_every_pinned_requirement(built: tuple[Path, str]) -> None:
    from packaging.utils import canonicalize_name

    folder, _ = built
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    wheels: dict[str, set[str]] = {}
    for entry in manifest["files"]:
        if entry["file"].endswith(".whl") and entry["kind"] != "course":
            wheels.setdefault(canonicalize_name(entry["name"]), set()).add(entry["version"])
    for name in ("requirements.txt", "requirements-mitmproxy.txt"):
        missing = {p: v for p, v in _pins(name).items() if v not in wheels.get(p, set())}
        assert missing == {}, name
        assert (folder / name).read_bytes() == (ROOT / name).read_bytes()
    assert manifest["python"].startswith(wheelhouse.required_python() + ".")
    assert manifest["course"].startswith("boundary_lab-") and (folder / manifest["course"]).is_file()


def test_the_manifest_and_sums_cover_every_file_with_its_sha256(built: tuple[Path, str]) -> None:
    folder, _ = built
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    listed = {entry["file"]: entry["sha256"] for entry in manifest["files"]}
    # npm-cache/ (when there is an npm part) is checked by npm against the lock's integrity, not listed.
    present = {p.relative_to(folder).as_posix() for p in folder.rglob("*")
               if p.is_file() and "npm-cache" not in p.relative_to(folder).parts}
    assert present - set(listed) == {"manifest.json", "SHA256SUMS", "README.txt"}
    assert set(listed) <= present
    assert all(wheelhouse.sha256(folder / name) == digest for name, digest in listed.items())
    done = subprocess.run(["sha256sum", "--check", "--quiet", "SHA256SUMS"], cwd=folder,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(listed) == len((folder / "SHA256SUMS").read_text(encoding="utf-8").splitlines())


def test_a_pin_without_a_wheel_is_kept_as_an_sdist_and_built_into_a_wheel(built: tuple[Path, str]) -> None:
    folder, stdout = built
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    sdists = [e for e in manifest["files"] if e["kind"] == "sdist"]
    from_sdist = [e for e in manifest["files"] if e["kind"] == "built from sdist"]
    assert [e["file"] for e in sdists] == [f"sources/{name}" for name in manifest["built_from_sdist"]]
    assert sorted((e["name"].lower(), e["version"]) for e in from_sdist) == sorted(
        (e["name"].lower(), e["version"]) for e in sdists)
    # Measured here: mitmproxy's pyperclip 1.9.0 has no wheel (the one sdist of the two locks).
    assert manifest["built_from_sdist"] == ["pyperclip-1.9.0.tar.gz"]
    assert "pyperclip-1.9.0.tar.gz" in stdout
    readme = (folder / "README.txt").read_text(encoding="utf-8")
    assert "pyperclip-1.9.0.tar.gz" in readme
    assert f"--no-index --find-links wheelhouse wheelhouse/{manifest['course']}" in readme
    assert "--no-index --find-links wheelhouse -r wheelhouse/requirements.txt" in readme


def test_the_namespace_has_no_network(offline: dict) -> None:
    assert offline["namespace_differs"] is True
    assert offline["interfaces"] == ["lo"]
    assert offline["routes"] == []
    assert set(offline["ipv6_route_devices"]) <= {"lo"}
    assert offline["public"] == "ENETUNREACH"  # no route: refused at once, no packet leaves
    assert offline["host_loopback_lo_down"] == "ENETUNREACH"
    assert offline["lo_up"] == 0 and offline["own_loopback"] == "connected"
    # With its own loopback up, the host's 127.0.0.1 service (answering outside meanwhile) is not there.
    assert offline["host_loopback_lo_up"] == "ECONNREFUSED"
    # Only what the test set: no configured index, local package folder or constraint file.
    assert sorted(offline["pip_config"].split()) == [f":env:.config-file='{os.devnull}'",
                                                      ":env:.no-cache-dir='1'"]
    assert offline["pip_index"]["status"] != 0
    assert "Saved" not in offline["pip_index"]["out"]


def test_a_fresh_venv_installs_the_locks_from_the_wheelhouse_alone(offline: dict) -> None:
    for step in ("venv", "install", "install_course", "make_mitm"):
        assert offline[step]["status"] == 0, (step, offline[step]["err"])
    from packaging.utils import canonicalize_name

    def frozen(text: str) -> dict[str, str]:
        return {canonicalize_name(line.partition("==")[0]): line.partition("==")[2]
                for line in text.splitlines() if "==" in line}

    installed, installed_mitm = frozen(offline["freeze"]), frozen(offline["freeze_mitm"])
    assert {p: installed.get(p) for p in _pins("requirements.txt")} == _pins("requirements.txt")
    mitm = _pins("requirements-mitmproxy.txt")
    assert {p: installed_mitm.get(p) for p in mitm} == mitm
    assert offline["mitmdump"]["status"] == 0
    assert "Mitmproxy: " + mitm["mitmproxy"] in offline["mitmdump"]["out"]


def test_the_npm_part_installs_offline_when_the_hub_pins_one(built: tuple[Path, str], offline: dict) -> None:
    folder, stdout = built
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    if not (ROOT / wheelhouse.NPM_DEFAULT / "package.json").is_file():
        assert manifest["npm"] is None and "npm: no package.json" in stdout
        assert not (folder / "npm-cache").exists()
        return  # no npm part to install: what is asserted above is the whole claim until a hub pins one
    assert manifest["npm"]["cache"] == "npm-cache" and "npm: yes" in stdout
    assert offline["npm_ci"]["status"] == 0, offline["npm_ci"]["err"]
    lock = json.loads((folder / "package-lock.json").read_text(encoding="utf-8"))
    pinned = lock["packages"]["node_modules/configurable-http-proxy"]["version"]
    assert offline["chp"]["status"] == 0 and offline["chp"]["out"].strip() == pinned


def test_the_course_installed_offline_works(offline: dict, tmp_path_factory: pytest.TempPathFactory) -> None:
    assert offline["probe"]["status"] == 0, offline["probe"]["err"]
    probe = json.loads(offline["probe"]["out"])
    assert "/venv/lib/" in probe["package"]  # the installed wheel, not the checkout
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert probe["version"] == project["version"]
    capture = load(CAPTURE)
    here = consume([capture.body], capture.contract)
    set_language("zh-CN")
    try:
        chinese = here.describe()
    finally:
        set_language("en")
    assert (probe["outcome"], probe["text"]) == (str(here.outcome), here.text)
    assert (here.outcome, here.text) == (capture.outcome, capture.text)
    assert probe["describe_en"] == here.describe() != chinese == probe["describe_zh"]
    done = parse_sse([load("openai-chat/completed").body])[-1].data
    assert (probe["check_right"], probe["check_wrong"]) == (True, False)
    assert check(QUESTION, done).correct is True
    pins = _pins("requirements.txt")
    assert (probe["jupyterlab"], probe["voila"], probe["openai"]) == (
        pins["jupyterlab"], pins["voila"], pins["openai"])


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--out", "{file}"], "--out"),
        (["--out", "{full}"], "--out"),
        (["--out", ""], "--out"),
        (["--python", "{missing}"], "--python"),
        (["--python", "{file}"], "--python"),
        (["--npm", "{file}"], "--npm"),
        (["--npm", "{unlocked}"], "--npm"),
        (["--out", str(ROOT)], "--out"),
    ],
)
def test_a_bad_argument_is_named_on_one_line_without_a_traceback(
    tmp_path: Path, args: list[str], named: str
) -> None:
    (tmp_path / "file").write_text("not a folder", encoding="utf-8")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("someone's", encoding="utf-8")
    (tmp_path / "unlocked").mkdir()
    (tmp_path / "unlocked" / "package.json").write_text("{}", encoding="utf-8")
    paths = {"file": tmp_path / "file", "full": tmp_path / "full", "missing": tmp_path / "missing",
             "unlocked": tmp_path / "unlocked"}
    argv = [a.format(**paths) for a in args]
    done = subprocess.run([sys.executable, TOOL, "--out", tmp_path / "out", *argv], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and named in done.stderr, done.stderr
    assert (tmp_path / "full" / "notes.txt").read_text(encoding="utf-8") == "someone's"
    assert not (tmp_path / "out").exists()  # nothing was written
    assert not any(p.name.startswith(".out-") for p in tmp_path.iterdir())
