"""Where the real proxies are missing: a skip naming the install command, or, with ``CI`` set, a failure.

.ci/run installs nginx and Caddy and ``make mitmproxy`` builds mitmproxy's venv, so in CI a missing program
is an error that a skip would hide (the model is tests/browser/conftest.py).
"""

from __future__ import annotations

import os

import pytest

from lesson_lib.net.proxies import ProxyUnavailable, find_executable


def require(*kinds: str) -> None:
    """Skip (fail, under ``CI``) the calling test unless every one of ``kinds``' programs is here."""
    for kind in kinds:
        try:
            find_executable(kind)
        except ProxyUnavailable as exc:
            if os.environ.get("CI"):
                pytest.fail(f"CI is set but a proxy is missing: {exc}")
            pytest.skip(str(exc))
