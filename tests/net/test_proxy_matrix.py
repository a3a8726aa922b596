"""The measured proxy matrix (issue 27): one test per row of the issue's table, stating what is true on this
machine's nginx 1.22, Caddy 2.6 and mitmproxy 11 (where it differs from the issue, the test says so), what
the matrix adds (a cut inside a character, heartbeats, a slow reader), and that the committed
``docs/proxy_matrix.json`` is what the proxies do now.

The whole matrix (``ROWS``) is measured once for the module, concurrently; every test reads those
observations. Nothing here is timed: each class is read from the upstream's own counters
(``lesson_lib.teach.proxy_matrix`` says how).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from lesson_lib.teach.proxy_matrix import (
    MATRIX_CLIENTS,
    ROWS,
    Observation,
    committed_matrix,
    matrix_json,
    matrix_markdown,
    measure,
    observe,
    versions,
)
from tests.net.proxy_programs import require

SDKS = ("openai", "guard+openai")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def matrix() -> Iterator[list[Observation]]:
    require("nginx", "caddy", "mitmproxy")
    yield measure(ROWS)


def cells(
    matrix: list[Observation], kind: str, setting: str, upstream: str, accel: str | None = None
) -> dict[str, Observation]:
    """The row's observations by client (each row of ROWS is measured once)."""
    found = {
        o.client: o
        for o in matrix
        if (o.kind, o.setting, o.upstream, o.x_accel_buffering) == (kind, setting, upstream, accel)
    }
    assert found, f"no such row: {kind} {setting} {upstream} {accel}"
    return found


def test_nginx_defaults_stream_with_and_without_x_accel_buffering(matrix: list[Observation]) -> None:
    # Issue row 1: nginx 1.22 defaults with the upstream's X-Accel-Buffering: no streams. Here (1.22.1) it
    # also streams WITHOUT the header: proxy_buffering on does not hold a body back from a client that
    # reads as fast as it comes; it only lets nginx take in more than the client reads (see slow_reader).
    for accel in ("no", None):
        for client, seen in cells(matrix, "nginx", "defaults", "whole", accel).items():
            assert (seen.delivery, seen.reads_class, seen.outcome, seen.text_intact) == (
                "streamed",
                "several",
                "completed",
                True,
            ), (accel, client)


def test_nginx_gzip_holds_the_stream_for_clients_that_accept_gzip(matrix: list[Observation]) -> None:
    # Issue row 2: gzip on for text/event-stream. The SDKs (Accept-Encoding: gzip) get the whole answer in
    # ONE read after the upstream's last piece; lesson_lib asks for identity, nginx does not compress, and
    # it streams. With the upstream's X-Accel-Buffering: no, nginx flushes its gzip output per read: streamed.
    row = cells(matrix, "nginx", "gzip", "whole")
    for client in SDKS:
        assert (row[client].delivery, row[client].reads, row[client].outcome) == ("at once", 1, "completed")
        assert row[client].text_intact
    assert (row["lesson_lib"].delivery, row["lesson_lib"].reads_class) == ("streamed", "several")
    for client, seen in cells(matrix, "nginx", "gzip", "whole", "no").items():
        assert (seen.delivery, seen.reads_class, seen.text_intact) == ("streamed", "several", True), client


def test_nginx_gzip_holds_even_the_headers_and_passes_a_drop_on(matrix: list[Observation]) -> None:
    # Added: behind gzip on, an SDK that leaves after 1 s has not had the response headers yet (status None:
    # nginx sends them with its first compressed output); an upstream drop arrives at once but still cut,
    # and the SDKs raise (nginx ends the response without its last chunk).
    for client in SDKS:
        leaving = cells(matrix, "nginx", "gzip", "client_leaves")[client]
        assert (leaving.status, leaving.delivery, leaving.outcome) == (None, "nothing", "timed_out")
        dropped = cells(matrix, "nginx", "gzip", "drop")[client]
        assert (dropped.delivery, dropped.outcome, dropped.text_intact) == ("at once", "truncated", True)


def test_two_nginx_hops_lose_x_accel_buffering(matrix: list[Observation]) -> None:
    # Issue row 3: the inner hop honours X-Accel-Buffering: no and does not pass it on; the outer hop gzips
    # and buffers: one read at the end for the SDKs, whether the upstream sent the header or not.
    for accel in ("no", None):
        row = cells(matrix, "nginx", "two_hops_gzip", "whole", accel)
        for client in SDKS:
            assert (row[client].delivery, row[client].reads, row[client].text_intact) == ("at once", 1, True)
        assert row["lesson_lib"].delivery == "streamed"


def test_nginx_read_timeout_cuts_a_stall_and_every_client_detects_it(matrix: list[Observation]) -> None:
    # Issue row 4: proxy_read_timeout 1s against a 3 s stall: nginx ends the response without its last
    # chunk; all three clients report truncated, with the text that came before the stall intact.
    for client, seen in cells(matrix, "nginx", "read_timeout_1s", "stall").items():
        assert (seen.outcome, seen.truncation_detected, seen.text_intact) == ("truncated", True, True), client
    # ...and nginx's default (60 s) lets the same stall through.
    for client, seen in cells(matrix, "nginx", "defaults", "stall").items():
        assert (seen.outcome, seen.text_intact) == ("completed", True), client


def test_heartbeats_keep_a_short_read_timeout_from_cutting_a_stall(matrix: list[Observation]) -> None:
    # Added: the same 3 s stall with an SSE comment every 0.25 s passes nginx's 1 s read timeout whole.
    for client, seen in cells(matrix, "nginx", "read_timeout_1s", "heartbeats").items():
        assert (seen.outcome, seen.delivery, seen.text_intact) == ("completed", "streamed", True), client


def test_caddy_turns_an_upstream_drop_into_a_clean_end(matrix: list[Observation]) -> None:
    # Issue row 5: Caddy ends the response cleanly after the upstream dropped: the SDK returns the partial
    # text with no exception (completed); lesson_lib and the guard read the missing [DONE] and say truncated.
    row = cells(matrix, "caddy", "defaults", "drop")
    sdk = row["openai"]
    assert (sdk.outcome, sdk.raised, sdk.text_intact) == ("completed", None, True)
    assert not sdk.truncation_detected
    for client in ("lesson_lib", "guard+openai"):
        assert (row[client].outcome, row[client].text_intact) == ("truncated", True), client
    # Without a proxy in between, the SDK itself sees the cut body.
    assert cells(matrix, "direct", "none", "drop")["openai"].outcome == "truncated"


def test_mitmproxy_defaults_buffer_and_lose_a_dropped_answer(matrix: list[Observation]) -> None:
    # Issue row 6: mitmproxy reads the whole body before sending any of it: one read at the end; an
    # upstream drop becomes a 502 and all the partial text is lost.
    for client, seen in cells(matrix, "mitmproxy", "defaults", "whole").items():
        assert (seen.delivery, seen.reads, seen.text_intact) == ("at once", 1, True), client
    for client, seen in cells(matrix, "mitmproxy", "defaults", "drop").items():
        assert (seen.status, seen.outcome, seen.delivery, seen.text_intact) == (
            502,
            "service_error",
            "nothing",
            False,
        ), client


def test_mitmproxy_stream_large_bodies_streams(matrix: list[Observation]) -> None:
    # Issue row 7, and a drop then stays a cut body that every client detects.
    for client, seen in cells(matrix, "mitmproxy", "stream_large_bodies_1", "whole").items():
        assert (seen.delivery, seen.reads_class, seen.outcome) == ("streamed", "several", "completed"), client
    for client, seen in cells(matrix, "mitmproxy", "stream_large_bodies_1", "drop").items():
        assert (seen.outcome, seen.text_intact) == ("truncated", True), client


def test_every_proxy_closes_the_upstream_when_the_client_leaves(matrix: list[Observation]) -> None:
    # Issue row 8: every proxy, client leaves after about 1 s: the upstream connection is closed within 2 s.
    leaving = [o for o in matrix if o.upstream == "client_leaves"]
    assert {o.kind for o in leaving} == {"direct", "nginx", "caddy", "mitmproxy"}
    assert all(o.upstream_closed for o in leaving), [o for o in leaving if not o.upstream_closed]
    # behind mitmproxy's defaults the client had nothing to read before it left
    assert {o.delivery for o in leaving if (o.kind, o.setting) == ("mitmproxy", "defaults")} == {"nothing"}


def test_a_cut_inside_a_character_leaves_the_text_whole_through_each_proxy(matrix: list[Observation]) -> None:
    # Added: reads cut inside every multi-byte character, through every proxy measured: the text is whole.
    cut = [o for o in matrix if o.upstream == "cut_in_character"]
    assert len(cut) >= 10
    assert all(o.text_intact and o.outcome == "completed" for o in cut), [o for o in cut if not o.text_intact]


def test_slow_reader_pauses_the_upstream_unless_a_proxy_buffers(matrix: list[Observation]) -> None:
    # Added (backpressure): a reader taking one 1 KiB chunk per 100 ms. nginx with proxy_buffering on (no
    # header) and mitmproxy's defaults take the whole 16 MiB in; nginx with X-Accel-Buffering: no or
    # proxy_buffering off, Caddy and mitmproxy streaming pass the flow control back to the upstream.
    slow = {
        (o.kind, o.setting, o.x_accel_buffering): o.backpressure
        for o in matrix
        if o.upstream == "slow_reader"
    }
    assert slow == {
        ("direct", "none", None): "upstream paused",
        ("nginx", "defaults", None): "proxy buffered",
        ("nginx", "defaults", "no"): "upstream paused",
        ("nginx", "buffering_off", None): "upstream paused",
        ("caddy", "defaults", None): "upstream paused",
        ("mitmproxy", "defaults", None): "proxy buffered",
        ("mitmproxy", "stream_large_bodies_1", None): "upstream paused",
    }


def test_the_committed_matrix_is_what_the_proxies_do_now(matrix: list[Observation]) -> None:
    committed = committed_matrix()
    now = matrix_json(matrix, versions())
    assert committed["versions"] == now["versions"], "other program versions: run tools/proxy_matrix.py"
    differing = [
        (
            new["kind"],
            new["setting"],
            new["upstream"],
            new["client"],
            new["x_accel_buffering"],
            {key: (old[key], new[key]) for key in new if old.get(key) != new[key]},
        )
        for old, new in zip(committed["rows"], now["rows"], strict=True)
        if old != new
    ]
    assert not differing, differing
    assert committed == now


def test_every_client_is_in_the_matrix(matrix: list[Observation]) -> None:
    assert {o.client for o in matrix} == set(MATRIX_CLIENTS)


@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        (("squid", "defaults", "whole", "openai"), "kind"),
        (("nginx", "turbo", "whole", "openai"), "setting"),
        (("direct", "defaults", "whole", "openai"), "setting"),
        (("nginx", "defaults", "trickle", "openai"), "upstream"),
        (("nginx", "defaults", "whole", "curl"), "client"),
    ],
)
def test_observe_refuses_bad_arguments_by_name_before_starting_anything(
    arguments: tuple[str, str, str, str], named: str
) -> None:
    with pytest.raises(ValueError, match=named):
        observe(*arguments)


def test_observe_refuses_a_bad_x_accel_buffering() -> None:
    with pytest.raises(ValueError, match="x_accel_buffering"):
        observe("direct", "none", "whole", "openai", x_accel_buffering="off")


def test_the_tool_refuses_a_missing_out_folder_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "proxy_matrix.py"), "--out", str(tmp_path / "missing")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "--out" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_committed_markdown_is_rendered_from_the_committed_json() -> None:
    data = committed_matrix()
    text = (ROOT / "docs" / "proxy_matrix.md").read_text(encoding="utf-8")
    assert text == matrix_markdown(data)
    assert all(f"{kind}:" in text for kind in ("nginx", "caddy", "mitmproxy", "openai"))


def test_the_tool_names_a_missing_program_and_its_install_command_in_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "BOUNDARY_LAB_CADDY": str(tmp_path / "no-caddy")}
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "proxy_matrix.py"), "--out", str(tmp_path), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "BOUNDARY_LAB_CADDY" in done.stderr and "apt-get install caddy" in done.stderr
    assert list(tmp_path.iterdir()) == []
