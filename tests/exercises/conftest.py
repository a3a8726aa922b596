"""Fixtures the exercise tests share."""

from __future__ import annotations

import pytest

from lesson_lib import get_language, set_language


@pytest.fixture
def english():
    """English for the test's duration (the hints asserted are the English catalogue's), then the language
    that was set before."""
    language = get_language()
    set_language("en")
    yield
    set_language(language)
