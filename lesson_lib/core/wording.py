"""The seam between the core's data and the words a learner reads.

The core knows what happened (a :class:`~lesson_lib.core.completion.StreamResult`, an
:class:`~lesson_lib.core.activity.IdleVerdict`, a :class:`~lesson_lib.core.values.Provisional` guess); it
does not know how to say it, nor in which language. Those three types keep their methods
(``StreamResult.describe()``, ``str(verdict)``, ``repr(guess)``), and each method asks the registered
:class:`Wording` for its text. The core imports no language catalogue, not even lazily: the words come
from whoever registers a wording with :func:`use_wording`.

``lesson_lib.i18n`` registers the course's wording (:class:`lesson_lib.i18n.wording.CatalogueWording`, the
current language's catalogue) when it is imported, and ``lesson_lib/__init__.py`` imports it. Importing any
``lesson_lib.core`` module runs ``lesson_lib/__init__.py`` first, so in the package as shipped the
catalogue's words are always there. Without a registered wording (the core lifted out on its own, or a test
that unregisters it) :data:`PLAIN` answers: language-free ``name=value`` text, the same in every language.

Guarantees: :func:`wording` always returns a wording (the registered one, else :data:`PLAIN`); a wording
reads its argument's fields and never changes them; what it writes carries counts, names and positions,
never the answer text (``describe()`` promises that).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # only for the annotations: those modules import this one
    from .activity import IdleVerdict
    from .completion import StreamError, StreamResult
    from .decoding import ByteRole
    from .values import Provisional

__all__ = ["PLAIN", "PlainWording", "Wording", "use_wording", "wording"]


class Wording(Protocol):
    """What the core asks of the layer that words its results for a learner."""

    def describe(self, result: StreamResult, /) -> str:
        """One paragraph about what happened to the stream and why: counts only, never the answer text."""
        ...

    def idle_verdict(self, verdict: IdleVerdict, /) -> str:
        """Which idle limit tripped, how long the clock was idle and the limit (``str(verdict)``)."""
        ...

    def provisional(self, guess: Provisional, /) -> str:
        """A still-streaming arguments text's best guess, marked as provisional (``repr(guess)``)."""
        ...

    def byte_role(self, role: ByteRole, /) -> str:
        """The name a learner reads for one byte's role in UTF-8 (``role.label()``)."""
        ...

    def error(self, error: Exception | StreamError, /) -> str:
        """An error's message as a learner reads it (``BoundaryError.describe()``, ``OptionError.describe()``,
        ``StreamError.describe()``); ``str(error)`` or ``error.message`` where it has nothing of its own."""
        ...


class PlainWording:
    """The language-free fallback: field names and values, nothing to translate."""

    def describe(self, result: StreamResult, /) -> str:
        s, err = result.stats, result.error
        parts = [
            f"outcome={result.outcome}",
            f"contract={result.contract or None}",
            f"finish_reason={result.finish_reason}",
            f"end_verified={result.end_verified}",
        ]
        if result.truncated_at is not None:
            parts.append(f"truncated_at={result.truncated_at}")
        if result.withdraw_shown_text:
            parts.append("withdraw_shown_text=True")
        if err is not None:
            parts.append(f"error={err.kind}")
            if err.offset is not None:
                parts.append(f"offset={err.offset}")
            if err.event_index is not None:
                parts.append(f"event={err.event_index}")
        parts += [f"bytes={s.bytes}", f"reads={s.reads}", f"events={s.events}", f"text_chars={s.text_chars}"]
        if result.tool_calls:
            parts.append(f"tool_calls={len(result.tool_calls)}")
        return " ".join(parts)

    def idle_verdict(self, verdict: IdleVerdict, /) -> str:
        return f"{verdict.limit}: idle_for={verdict.idle_for:g} s, maximum={verdict.maximum:g} s"

    def provisional(self, guess: Provisional, /) -> str:
        shown = None if guess.value is None else json.dumps(guess.value, ensure_ascii=False)
        return f"Provisional(value={shown}, text_chars={guess.text_chars})"

    def byte_role(self, role: ByteRole, /) -> str:
        return role.value

    def error(self, error: Exception | StreamError, /) -> str:
        return str(error) if isinstance(error, Exception) else error.message


#: The wording used while none is registered.
PLAIN: Wording = PlainWording()

_registered: Wording | None = None


def use_wording(new: Wording | None) -> Wording | None:
    """Make ``new`` the wording of every result from now on (``None``: back to :data:`PLAIN`); returns the
    one it replaces (``None`` if there was none), so that a caller can put it back."""
    global _registered
    previous, _registered = _registered, new
    return previous


def wording() -> Wording:
    """The registered wording, else :data:`PLAIN`."""
    return PLAIN if _registered is None else _registered
