"""The fictional captures in ``data/``: exact wire bytes of six services' streams, and what they mean.

Notebooks and widgets load captures by name (``"openai-chat/completed"``) so that no lesson prints a path
of the machine it runs on.

Where the files are found, one way for a checkout and a wheel: ``lesson_lib/data`` beside this module. In a
checkout (the ``.pth`` install that the notebooks and tests use) it is a symbolic link to ``data/`` at the
repository's root, where the captures live; a built wheel holds a copy of their files at that place
(``[tool.setuptools.package-data]`` in ``pyproject.toml``), so ``load(name)`` works from ``pip install .``
too (``tests/test_wheel.py``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .i18n import text as _t

#: The folder of captures: ``lesson_lib/data`` (a link to the checkout's ``data/``, or the wheel's copy).
DATA_DIR = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True)
class Capture:
    """One capture: its bytes and the manifest's account of them."""

    name: str  # e.g. "openai-chat/completed" (the file name without its extension)
    contract: str
    body: bytes
    outcome: str
    truncated_at: str | None
    text: str
    finish_reason: str | None
    error_type: str | None
    description: str
    tool_calls: tuple[dict, ...] = ()  # the manifest's expected tool calls (id, name, arguments_text, ...)
    reasoning_text: str = ""

    def __repr__(self) -> str:
        return _t(
            "captures.repr",
            name=repr(self.name),
            bytes=len(self.body),
            contract=self.contract,
            outcome=self.outcome,
        )


@cache
def manifest() -> tuple[dict, ...]:
    """The entries of ``data/manifest.json``, in file order."""
    with open(DATA_DIR / "manifest.json", encoding="utf-8") as handle:
        return tuple(json.load(handle)["captures"])


def names(contract: str | None = None) -> list[str]:
    """Capture names, optionally only those of one contract."""
    return [_name(e["file"]) for e in manifest() if contract is None or e["contract"] == contract]


def load(name: str) -> Capture:
    """The capture called ``name`` (``"contract/stem"``). Raises ``KeyError`` naming the known ones."""
    for entry in manifest():
        if _name(entry["file"]) == name:
            return Capture(
                name=name,
                contract=entry["contract"],
                body=(DATA_DIR / entry["file"]).read_bytes(),
                outcome=entry["outcome"],
                truncated_at=entry["truncated_at"],
                text=entry["text"],
                finish_reason=entry["finish_reason"],
                error_type=entry["error_type"],
                description=entry["description"],
                tool_calls=tuple(entry.get("tool_calls", ())),
                reasoning_text=entry.get("reasoning_text", ""),
            )
    raise KeyError(f"no capture {name!r}; known: {', '.join(names())}")


def _name(file: str) -> str:
    return file.rsplit(".", 1)[0]
