"""What every picture module shares: the resolution, the font names, the colours of bytes and cuts,
and the one input rule (text is taken as its UTF-8 bytes)."""

from __future__ import annotations

#: Every PNG is rendered at this resolution (dots per inch); figure sizes are given in inches.
DPI = 100

#: The font tried first for glyphs, and the monospaced font of the tables.
SANS = "DejaVu Sans"
MONO = "DejaVu Sans Mono"

ASCII_COLOUR = "#e9ecef"  #: one-byte characters, so that the multi-byte ones stand out
PALETTE = (
    "#74c0fc",
    "#8ce99a",
    "#ffd43b",
    "#b197fc",
    "#66d9e8",
    "#faa2c1",
)  #: one colour per multi-byte character
INVALID_COLOUR = "#ff6b6b"
CUT_COLOUR = "#1c7ed6"  #: a cut at a character boundary
WARNING_COLOUR = "#f76707"  #: a cut inside a multi-byte character
CORRUPTING_COLOUR = "#e03131"  #: sweep marks


def _as_bytes(data: bytes | str) -> bytes:
    if isinstance(data, str):
        return data.encode("utf-8")
    return bytes(data)
