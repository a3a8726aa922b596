"""Which characters a picture draws as glyphs, in which font, and how everything else is written.

A picture shows a character's glyph only where an installed *outline* font covers it, and its code point
(``U+4F60``) otherwise, so drawing never triggers matplotlib's "Glyph ... missing from font(s)" warning
and never shows a tofu box. :func:`glyph_label` makes that choice, deterministically for a machine's
fonts:

* control characters and the space get short names (``LF``, ``CR``, ``TAB``, ``NUL``, ``SP``, ...):
  they are what the line and event lessons are about, and they have no visible glyph;
* other invisible or context-dependent characters (format characters such as U+FEFF or U+200D,
  combining marks, separators, private use, lone surrogates) are always ``U+XXXX``;
* emoji and the other supplementary pictographs (U+1F000 and above, categories So/Sk) are always
  ``U+XXXX``. matplotlib's Agg renderer draws outline glyphs only; Debian's emoji font, Noto Color
  Emoji, is a colour *bitmap* font (CBDT tables) that FreeType-through-Agg cannot paint, so the only
  way to draw one would be a monochrome fallback font that may or may not be installed, which would
  make the same notebook show a glyph on one machine and a box on another. The code point is also the
  fact the lesson is about (U+1F642 is the four bytes F0 9F 99 82);
* anything else (Latin, Greek, Cyrillic, CJK, ...) is drawn as its glyph when a scalable, non-colour
  font in matplotlib's font list covers it (DejaVu Sans first, then Noto Sans CJK SC/JP/TC/KR/HK when
  fonts-noto-cjk is installed, then every other family by name), and as ``U+XXXX`` when none does.
  matplotlib's own "Last Resort" font, which maps every code point to a placeholder box, does not
  count, nor do its TeX fonts (cmr10, ...), whose charmaps are not Unicode.

matplotlib builds its font list when it is first imported on a machine and caches it; a font installed
later is seen after that cache is rebuilt (and :func:`_reset_font_caches` here).

The pictures draw each label in the font that was found to cover it, with DejaVu first, so a label
never needs a glyph that is missing.
"""

from __future__ import annotations

import functools
import unicodedata

from matplotlib import font_manager, ft2font

from .common import SANS

#: Short names for the control characters (and the space) that the lessons meet.
CONTROL_NAMES = {
    "\x00": "NUL",
    "\t": "TAB",
    "\n": "LF",
    "\x0b": "VT",
    "\x0c": "FF",
    "\r": "CR",
    "\x1b": "ESC",
    " ": "SP",
    "\x7f": "DEL",
    "\x85": "NEL",
}

_NEVER_GLYPH_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp", "Mn", "Mc", "Me"}

#: Families tried right after DejaVu Sans, in this order, when installed (the lessons' text is Chinese).
PREFERRED_FAMILIES = (
    "Noto Sans CJK SC",
    "Noto Sans CJK JP",
    "Noto Sans CJK TC",
    "Noto Sans CJK KR",
    "Noto Sans CJK HK",
)


def _unicode_family(name: str) -> bool:
    """False for matplotlib's TeX fonts (cmr10, cmsy10, ...; STIXSize*, STIXNonUnicode): their
    charmaps put symbols at the code points of ordinary letters, so "covers U+0041" means nothing."""
    if name.startswith("Last Resort") or name.startswith("STIXSize") or name == "STIXNonUnicode":
        return False
    return not (name.startswith("cm") and name.endswith("10"))


@functools.cache
def _candidate_families() -> tuple[str, ...]:
    """Font families to try for a glyph: DejaVu Sans, the preferred CJK faces, the rest by name."""
    # Only families with a regular face: drawing asks for normal weight and style, and a family without
    # one would make findfont log a substitution at draw time.
    names = {
        entry.name
        for entry in font_manager.fontManager.ttflist
        if entry.style == "normal"
        and entry.weight in (400, "normal", "regular", "book")
        and _unicode_family(entry.name)
    }
    first = [name for name in (SANS, *PREFERRED_FAMILIES) if name in names]
    return (*first, *sorted(names - set(first)))


@functools.cache
def _family_charmap(family: str) -> frozenset[int]:
    """Code points of the face matplotlib would use for ``family``; empty if it cannot draw them.

    The face checked is the one :func:`matplotlib.font_manager.findfont` resolves for the family at
    normal weight and style, i.e. exactly the file the pictures will draw with. Colour or bitmap-only
    faces (Noto Color Emoji) are excluded: Agg cannot paint them.
    """
    prop = font_manager.FontProperties(family=family, style="normal", weight="normal")
    try:
        path = font_manager.findfont(prop, fallback_to_default=False)
        font = ft2font.FT2Font(str(path), face_index=getattr(path, "face_index", 0))
    except (ValueError, OSError, RuntimeError):
        return frozenset()
    flags = font.face_flags
    if ft2font.FaceFlags.COLOR in flags or ft2font.FaceFlags.SCALABLE not in flags:
        return frozenset()
    if font.family_name.startswith("Last Resort"):
        return frozenset()
    return frozenset(font.get_charmap())


def _is_pictograph(ch: str) -> bool:
    return ord(ch) >= 0x1F000 and unicodedata.category(ch) in ("So", "Sk")


@functools.cache
def glyph_font(ch: str) -> str | None:
    """The font family that draws ``ch`` as a glyph in the pictures, or ``None`` (see the module notes)."""
    if len(ch) != 1:
        raise ValueError(f"one character expected, got {ch!r}")
    if ch in CONTROL_NAMES or unicodedata.category(ch) in _NEVER_GLYPH_CATEGORIES or _is_pictograph(ch):
        return None
    code = ord(ch)
    for family in _candidate_families():
        if code in _family_charmap(family):
            return family
    return None


def glyph_label(ch: str) -> str:
    """What a picture writes for one character: its glyph, a control name (``LF``), or ``U+XXXX``.

    The glyph when an installed outline font covers it (CJK with fonts-noto-cjk, for instance);
    ``U+XXXX`` otherwise, and always for emoji (see the module notes for why). Deterministic for a
    given machine's fonts.
    """
    if ch in CONTROL_NAMES:
        return CONTROL_NAMES[ch]
    if glyph_font(ch) is not None:
        return ch
    return f"U+{ord(ch):04X}"


def _reset_font_caches() -> None:
    """Forget what was learnt about the fonts (after installing one, or in tests)."""
    _candidate_families.cache_clear()
    _family_charmap.cache_clear()
    glyph_font.cache_clear()


def _families_for(text: str, first: str) -> list[str]:
    """The font list for drawing ``text``: ``first``, then the families covering its other characters."""
    families = [first]
    first_map = _family_charmap(first)
    for ch in set(text):
        if ord(ch) in first_map:
            continue
        family = glyph_font(ch)
        if family is not None and family not in families:
            families.append(family)
    return [families[0], *sorted(families[1:])]


def drawable(text: str, first: str = SANS) -> tuple[str, list[str]]:
    """A label (a title, a legend, an axis label, in any language) as it can be drawn, and its font list.

    Every character that ``first`` or another installed outline font covers is kept (Chinese with
    fonts-noto-cjk installed), as are spaces and line breaks; any other character becomes ``<U+XXXX>``,
    so a label never shows a tofu box or triggers matplotlib's missing-glyph warning. The font list is
    ``first``, then the families that cover the label's other characters (see :func:`_families_for`).
    English labels that ``first`` covers come back unchanged, with the font list ``[first]``.
    """
    first_map = _family_charmap(first)
    shown = "".join(
        ch if ch in "\n " or ord(ch) in first_map or glyph_font(ch) is not None else f"<U+{ord(ch):04X}>"
        for ch in text
    )
    return shown, _families_for(shown, first)


def visible_text(text: str) -> str:
    """``text`` made safe to draw: controls escaped (``\\r``), undrawable characters as ``<U+XXXX>``.

    Characters a covering font can draw are kept (see :func:`glyph_font`); U+FFFD stays visible as
    itself when a font has it.
    """
    out = []
    for ch in text:
        if ch in "\r\n\t":
            out.append({"\r": "\\r", "\n": "\\n", "\t": "\\t"}[ch])
        elif ch == " ":
            out.append(" ")
        elif "\udc80" <= ch <= "\udcff":
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        elif glyph_font(ch) is not None:
            out.append(ch)
        elif unicodedata.category(ch) == "Cc":
            out.append(f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"<U+{ord(ch):04X}>")
        else:
            out.append(f"<U+{ord(ch):04X}>")
    return "".join(out)


def chunk_text(chunk: bytes) -> str:
    """A read's bytes as readable text: valid UTF-8 as characters, controls and the rest as escapes.

    ``data: \\xe4\\xbd`` for a read that ends two bytes into 你; ``\\r``, ``\\n`` for line endings.
    """
    out = []
    for ch in chunk.decode("utf-8", "surrogateescape"):
        if ch in "\r\n\t":
            out.append({"\r": "\\r", "\n": "\\n", "\t": "\\t"}[ch])
        elif "\udc80" <= ch <= "\udcff":
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        elif unicodedata.category(ch) == "Cc":
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return "".join(out)


def _fit(text: str, width_chars: int) -> str:
    """Shorten ``text`` to about ``width_chars`` columns (wide characters count two) with an ellipsis."""
    columns, out = 0, []
    for ch in text:
        w = 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
        if columns + w > width_chars - 1:
            out.append("…")
            return "".join(out)
        out.append(ch)
        columns += w
    return "".join(out)


def display_width(text: str) -> int:
    """The columns ``text`` takes in a monospaced terminal or notebook output: two for a wide or full-width
    character (CJK, full-width punctuation), none for a combining mark, one for anything else."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def pad(text: str, width: int, *, right: bool = False) -> str:
    """``text`` followed by spaces up to ``width`` display columns (:func:`display_width`), so that columns of
    Chinese and English line up; with ``right``, the spaces come first (right-aligned, as numbers are).
    Unchanged when it is already that wide or wider."""
    spaces = " " * max(0, width - display_width(text))
    return spaces + text if right else text + spaces
