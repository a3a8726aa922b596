"""lesson_lib.net.proxies: real nginx, Caddy and mitmproxy started on 127.0.0.1 in front of a ReplayServer.

Arguments are refused by name before any process starts; a missing program raises ProxyUnavailable naming
the command that installs it; every configuration of SETTINGS starts and proxies a body unchanged; stop
is idempotent and leaves no process and no listening port. Two facts of the matrix are also checked here
in the proxies' own words (their logs): Caddy's clean end after an upstream drop, and nginx buffering a
slow reader's body to a temporary file.
"""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import httpx
import pytest

from lesson_lib.net.proxies import KINDS, SETTINGS, Proxy, ProxyUnavailable
from lesson_lib.net.replay import ReplayServer
from tests.net.proxy_programs import require

BODY = "data: 你好\n\ndata: café 🙂\n\n".encode() * 20
UPSTREAM = "http://127.0.0.1:9"  # never connected to by the argument tests


@pytest.mark.parametrize(
    ("arguments", "options", "named"),
    [
        (("squid", UPSTREAM), {}, "kind"),
        (("nginx", UPSTREAM, "turbo"), {}, "setting"),
        (("caddy", UPSTREAM, "buffering_off"), {}, "setting"),
        (("nginx", "https://127.0.0.1:9"), {}, "upstream_url"),
        (("nginx", "http://127.0.0.1"), {}, "upstream_url"),
        (("nginx", "http://127.0.0.1:9/v1"), {}, "upstream_url"),
        (("nginx", UPSTREAM), {"start_timeout": 0}, "start_timeout"),
        (("nginx", UPSTREAM), {"start_timeout": "5"}, "start_timeout"),
    ],
)
def test_bad_arguments_are_refused_by_name_before_anything_starts(
    arguments: tuple[str, ...], options: dict[str, object], named: str
) -> None:
    # executable= a missing path: had anything been looked up or started first, ProxyUnavailable would win
    with pytest.raises((ValueError, TypeError), match=named):
        Proxy(*arguments, executable="/nonexistent/program", **options)  # type: ignore[arg-type]


def test_an_upstream_url_of_the_wrong_type_is_named() -> None:
    with pytest.raises(TypeError, match="upstream_url"):
        Proxy("nginx", 8080)  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_missing_program_names_its_install_command(kind: str) -> None:
    proxy = Proxy(kind, UPSTREAM, executable="/nonexistent/program")
    with pytest.raises(ProxyUnavailable) as raised:
        proxy.start()
    assert KINDS[kind].install in str(raised.value)
    assert "/nonexistent/program" in str(raised.value)
    with pytest.raises(RuntimeError, match="not started"):
        proxy.url  # noqa: B018 (the property raises)


@pytest.mark.parametrize(("kind", "setting"), list(SETTINGS))
def test_every_setting_starts_and_proxies_the_body_unchanged(kind: str, setting: str) -> None:
    require(kind)
    with ReplayServer(BODY, cuts=[100, 300]) as server, Proxy(kind, server.url, setting) as proxy:
        assert proxy.url.startswith("http://127.0.0.1:") and proxy.url != server.url
        with httpx.Client(trust_env=False, timeout=10) as client:
            response = client.post(proxy.url + "/v1/chat/completions", json={"stream": True})
        assert response.status_code == 200
        assert response.content == BODY  # gzip settings: httpx asked for gzip and decoded it
        assert server.requests[-1].path == "/v1/chat/completions"


def _alive(pid: int) -> bool:
    try:
        os.killpg(pid, 0)  # the proxy runs in a session (and process group) of its own
    except ProcessLookupError:
        return False
    return True


def _accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


@pytest.mark.parametrize("kind", list(KINDS))
def test_stop_is_idempotent_and_leaves_no_process(kind: str) -> None:
    require(kind)
    with ReplayServer(BODY) as server:
        proxy = Proxy(kind, server.url).start()
        pid, port = proxy._process.pid, proxy.port  # type: ignore[union-attr] (read only)
        assert port is not None and _alive(pid) and _accepts(port)
        proxy.stop()
        proxy.stop()
        assert not _alive(pid)
        assert not _accepts(port)
        with pytest.raises(RuntimeError, match="not started"):
            proxy.url  # noqa: B018
        assert proxy.log()  # what the program wrote is kept after its folder is gone


def test_caddy_ends_the_response_cleanly_after_an_upstream_drop_and_says_so_in_its_log() -> None:
    # The matrix's "Caddy turns a drop into a clean end", at the HTTP layer: the chunked body Caddy sends
    # ends with its terminating chunk (httpx raises nothing), while its log says the response was incomplete.
    require("caddy")
    with ReplayServer(BODY, cuts=[100], drop_after=250) as server, Proxy("caddy", server.url) as proxy:
        with httpx.Client(trust_env=False, timeout=10) as client, client.stream("GET", proxy.url) as response:
            received = b"".join(response.iter_raw())
        assert received == BODY[:250]
        deadline = time.monotonic() + 5
        while "aborting with incomplete response" not in proxy.log() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "aborting with incomplete response" in proxy.log()
    # Without Caddy the same upstream's cut is an error the client sees.
    with (
        ReplayServer(BODY, cuts=[100], drop_after=250) as server,
        httpx.Client(trust_env=False, timeout=10) as client,
        client.stream("GET", server.url) as response,
        pytest.raises(httpx.RemoteProtocolError),
    ):
        b"".join(response.iter_raw())


def test_nginx_takes_a_slow_readers_body_into_a_temporary_file() -> None:
    # Backpressure through nginx's defaults: a client that reads nothing after the headers; nginx reads the
    # whole 4 MiB body from the upstream anyway and says where it put it (proxy_max_temp_file_size, 1024m).
    require("nginx")
    body = b"data: " + b"x" * (4 * 1024 * 1024) + b"\n\n"
    cuts = list(range(65536, len(body), 65536))
    with (
        ReplayServer(body, cuts=cuts, x_accel_buffering=None) as server,
        Proxy("nginx", server.url) as proxy,
        socket.create_connection(("127.0.0.1", proxy.port or 0)) as sock,
    ):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        sock.recv(1024)  # the headers (and perhaps some body): then nothing more is read
        deadline = time.monotonic() + 10
        while server.body_bytes_sent < len(body) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.body_bytes_sent == len(body)
        assert "buffered to a temporary file" in proxy.log()


def test_a_missing_program_named_by_its_environment_variable_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("BOUNDARY_LAB_NGINX", str(tmp_path / "nginx"))
    with pytest.raises(ProxyUnavailable, match=r"BOUNDARY_LAB_NGINX=.*apt-get install nginx"):
        Proxy("nginx", UPSTREAM).start()


def test_each_setting_is_described_as_its_file_says_in_english_and_in_chinese(restore_language):
    from lesson_lib import set_language
    from lesson_lib.net import PROXY_SETTINGS

    for setting in PROXY_SETTINGS.values():
        comments = [line.lstrip("# ") for line in setting.text().splitlines() if line.startswith("#")]
        said = " ".join(comments).split(' The lines before "http"')[0]
        assert setting.describe() == said, setting.filename
    set_language("zh-CN")
    for setting in PROXY_SETTINGS.values():
        assert any("\u4e00" <= c <= "\u9fff" for c in setting.describe()), setting.filename
