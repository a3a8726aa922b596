"""The instructor's view, live in a notebook: an HTML widget that reads the learners' records again and again.

>>> from lesson_lib.exercises.progress_live import live
>>> view = live(["/home/alice", "/home/bob"], every=15)   # doctest: +SKIP
>>> view                                                  # doctest: +SKIP

The widget shows :meth:`~.progress_view.Table.html` (learner by question, stuck shaded; the rule is in
:mod:`.progress_view`) and replaces it every ``every`` seconds from a background thread, until
:meth:`LiveView.close`. A path that goes missing or cannot be read shows its error in the widget instead of
the table, and the next round tries again. Reads only, like the rest of the view: the widget's value goes to
the notebook's own frontend through the kernel, nothing else is sent anywhere.
"""

from __future__ import annotations

import html
import os
import threading
from collections.abc import Iterable
from typing import Any

import ipywidgets as W

from .progress_view import MINUTES, WRONG_LIMIT, table


class LiveView(W.HTML):
    """An HTML widget holding the progress table, refreshed until :meth:`close`."""

    def __init__(self, render: Any, every: float, first: str) -> None:
        super().__init__(value=first)
        self._render = render
        self._every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._refresh, name="progress-live", daemon=True)
        self._thread.start()

    def _refresh(self) -> None:
        while not self._stop.wait(self._every):
            try:
                self.value = self._render()
            except (OSError, ValueError) as exc:
                self.value = f"<p>{html.escape(str(exc))}</p>"

    @property
    def refreshing(self) -> bool:
        """Whether the table is still being refreshed."""
        return self._thread.is_alive()

    def close(self) -> None:
        """Stop refreshing (the thread ends within a round) and close the widget."""
        self._stop.set()
        self._thread.join(timeout=max(1.0, 2 * self._every))
        super().close()


def live(
    paths: Iterable[str | os.PathLike[str]],
    *,
    every: float = 30.0,
    wrong_limit: int = WRONG_LIMIT,
    minutes: float = MINUTES,
) -> LiveView:
    """A widget showing :func:`.progress_view.table` of ``paths`` (arguments as there), read again every
    ``every`` seconds. Bad arguments raise ``ValueError`` naming them before anything is read or started."""
    if isinstance(every, bool) or not isinstance(every, int | float) or not every > 0:
        raise ValueError(f"every must be a number of seconds above 0, got {every!r}")
    listed = list(paths) if not isinstance(paths, str | os.PathLike) else paths
    first = table(listed, wrong_limit=wrong_limit, minutes=minutes).html()  # checks arguments, then reads

    def render() -> str:
        return table(listed, wrong_limit=wrong_limit, minutes=minutes).html()

    return LiveView(render, float(every), first)
