"""Reasoning inside the answer text: ``<think>`` ... ``</think>`` tags, found in every cutting of the text.

Some services send a reasoning model's thinking inside the answer's own text, between ``<think>`` and
``</think>``, rather than in a field of its own: Zhipu's GLM-Z1 models do (its documentation says so;
``docs/research/chinese_services.md``), and so does a model served by a server that was not told to parse
its reasoning out. To the SSE and JSON layers the tags are answer text like any other. The tag is a boundary
of its own, one layer up: a text delta can end inside it (``<thi`` in one delta, ``nk>`` in the next) just as
a read can end inside a UTF-8 character, and the fix is the same: hold back the unfinished part until the
next piece decides it. The documentation read does not say whether a service ever cuts a tag between two
deltas, so this splitter does not rely on it either way.

:class:`ThinkTagSplitter` is sans-IO: it is given the answer's text deltas (``TextDelta`` signals) and gives
back ``TextDelta`` and ``ReasoningDelta`` signals. :func:`~lesson_lib.core.completion.consume` uses it with
``think_tags=True``.

Rules (what it guarantees):

* Outside a tag pair, text is answer text; after ``<think>`` it is reasoning, up to the next ``</think>``.
  The tags themselves are in neither. A ``</think>`` outside, or a ``<think>`` inside, is text like any
  other (tags do not nest).
* Every character given is in exactly one output, in order: joining the answer pieces and the reasoning
  pieces gives the same two texts for every way the text was cut into deltas
  (``tests/core/test_think_tags.py`` checks it in every cutting).
* It holds back at most ``len("</think>") - 1`` characters, the longest end of what it was given that could
  start the tag it is looking for; :meth:`close` gives them back as the text they are (a tag begun and
  never finished is text). Each character is looked at a bounded number of times: linear cost.
"""

from __future__ import annotations

from .contracts.signals import ReasoningDelta, Signal, Terminal, TextDelta

__all__ = ["ThinkTagSplitter"]

OPEN_TAG = "<think>"
CLOSE_TAG = "</think>"


def _partial_tag_at_end(text: str, tag: str) -> int:
    """How many characters at the end of ``text`` are a proper beginning of ``tag`` (0 if none)."""
    for size in range(min(len(tag) - 1, len(text)), 0, -1):
        if text.endswith(tag[:size]):
            return size
    return 0


class ThinkTagSplitter:
    """Split answer text deltas into answer and reasoning at ``<think>`` and ``</think>`` tags (see the
    module's rules). One instance per stream."""

    def __init__(self) -> None:
        self._inside = False
        self._held = ""
        self._tags = 0

    @property
    def inside(self) -> bool:
        """Between a ``<think>`` and its ``</think>``: text now is reasoning."""
        return self._inside

    @property
    def held(self) -> str:
        """The characters held back: the end of the text so far that could begin the next tag."""
        return self._held

    @property
    def tags_seen(self) -> int:
        """How many tags (opening and closing) have been taken out of the text."""
        return self._tags

    def feed(self, text: str) -> list[TextDelta | ReasoningDelta]:
        """The answer and reasoning pieces that ``text`` (the next piece of the answer text) completes, in
        order; none of them empty. What could still begin a tag is held back."""
        text = self._held + text
        self._held = ""
        out: list[TextDelta | ReasoningDelta] = []
        start = 0
        while True:
            tag = CLOSE_TAG if self._inside else OPEN_TAG
            found = text.find(tag, start)
            if found < 0:
                break
            self._emit(out, text[start:found])
            self._inside = not self._inside
            self._tags += 1
            start = found + len(tag)
        rest = text[start:]
        keep = _partial_tag_at_end(rest, CLOSE_TAG if self._inside else OPEN_TAG)
        if keep:
            self._held = rest[-keep:]
            rest = rest[:-keep]
        self._emit(out, rest)
        return out

    def split(self, signals: list[Signal]) -> list[Signal]:
        """``signals`` with each ``TextDelta`` replaced by the pieces :meth:`feed` gives for its text; every
        other signal as it is, in its place. The service's terminal ends the answer text: what was held
        back comes out just before it (:meth:`close`)."""
        out: list[Signal] = []
        for signal in signals:
            if isinstance(signal, TextDelta):
                out.extend(self.feed(signal.text))
            else:
                if isinstance(signal, Terminal):
                    out.extend(self.close())
                out.append(signal)
        return out

    def close(self) -> list[TextDelta | ReasoningDelta]:
        """The end of the answer text: the characters held back are text (a tag never finished is not a
        tag), of the kind the text was in. Returns them as one piece, or nothing."""
        out: list[TextDelta | ReasoningDelta] = []
        self._emit(out, self._held)
        self._held = ""
        return out

    def _emit(self, out: list[TextDelta | ReasoningDelta], text: str) -> None:
        if text:
            out.append(ReasoningDelta(text) if self._inside else TextDelta(text))
