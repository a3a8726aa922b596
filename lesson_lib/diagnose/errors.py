"""What ``boundary-lab diagnose`` refuses: an input that cannot be read as a stream (exit status 2)."""

from __future__ import annotations

__all__ = ["InputError"]


class InputError(Exception):
    """The input cannot be read as a stream: a missing or empty file, an unknown format, a HAR entry without
    a body, an undetectable contract, a bad ``--entry``. ``str(exc)`` is one line naming the problem (and,
    where there is one, what to capture or pass instead); it never quotes the stream's content."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))
