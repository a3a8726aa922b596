"""Shared test setup.

matplotlib is switched to the non-interactive Agg backend here, at import, before any test module imports
pyplot or the widgets: tests run headless. (Deliberately not through the MPLBACKEND environment variable,
which would also change the backend of anything else started from the same environment.)
"""

import matplotlib

matplotlib.use("Agg")


import pytest

from lesson_lib import i18n


@pytest.fixture
def restore_language():
    """Whatever the test sets, the language is what it was before, afterwards."""
    before = i18n.get_language()
    yield
    i18n.set_language(before)


@pytest.fixture
def chinese(restore_language):
    """The current language is zh-CN for the test (and what it was before, afterwards)."""
    i18n.set_language("zh-CN")


@pytest.fixture
def zh(chinese):
    """Short name for :func:`chinese`."""


@pytest.fixture
def dejavu_only(monkeypatch):
    """Pretend DejaVu Sans is the only font installed (as on a machine without fonts-noto-cjk)."""
    from lesson_lib.teach import viz
    from lesson_lib.teach.viz import glyphs

    viz._reset_font_caches()
    monkeypatch.setattr(glyphs, "_candidate_families", lambda: (viz.SANS,))
    yield
    monkeypatch.undo()
    viz._reset_font_caches()
