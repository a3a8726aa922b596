"""RelayServer.page_url: the relay's own address, or the path through a JupyterHub learner's server."""

from __future__ import annotations

import pytest

from lesson_lib.net.relay import RelayServer


def test_the_page_url_is_the_relays_own_address_outside_a_hub(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JUPYTERHUB_SERVICE_PREFIX", raising=False)
    with RelayServer("http://127.0.0.1:9/v1", "openai-chat") as relay:
        assert relay.page_url == f"http://127.0.0.1:{relay.port}/"


def test_in_a_hub_learners_kernel_the_page_url_goes_through_their_servers_proxy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("JUPYTERHUB_SERVICE_PREFIX", "/user/ana/")
    with RelayServer("http://127.0.0.1:9/v1", "openai-chat") as relay:
        assert relay.page_url == f"/user/ana/proxy/{relay.port}/"
