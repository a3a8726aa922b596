"""The language a learner reads: one string catalogue per language, and the setting that picks one.

Every string the package shows a learner (widget labels, picture legends, ``describe()``, ``check()``'s
hints and messages) is looked up here by key, in the catalogue of the current language. English is the
default; a Chinese notebook starts with ``lesson_lib.set_language("zh-CN")``.

A catalogue is the package ``lesson_lib/i18n/locales/<language>/`` (``zh-CN`` is the folder ``zh_CN``): one
module per area of the package, each with a ``STRINGS`` dict whose keys all start with the module's name
(``widgets.py`` holds ``widgets.*``), so that two areas can never define the same key. Values are
``str.format`` templates with named fields. ``tests/test_i18n.py`` checks that both catalogues have the
same keys with the same fields, and that every key the code asks for exists.

Guarantees: :func:`text` never falls back to another language and never returns a template unfilled; a
missing key or field raises ``KeyError`` naming it.

Importing this package registers :class:`~lesson_lib.i18n.wording.CatalogueWording` as the core's wording
(:mod:`lesson_lib.core.wording`): the core imports no catalogue, it asks the registered wording for the words
of ``describe()``, an idle verdict and a provisional guess, which then come from the current language here.
``lesson_lib/__init__.py`` imports this package, so the wording is registered before any result exists.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

#: The languages the course is written in, the default first.
LANGUAGES = ("en", "zh-CN")
_language = LANGUAGES[0]


def set_language(code: str) -> None:
    """Make ``code`` (one of :data:`LANGUAGES`) the language of everything the package shows from now on."""
    global _language
    if code not in LANGUAGES:
        raise ValueError(f"code must be one of {', '.join(map(repr, LANGUAGES))}, got {code!r}")
    _language = code


def get_language() -> str:
    """The current language's code (``"en"`` unless :func:`set_language` changed it)."""
    return _language


@cache
def catalogue(code: str) -> Mapping[str, str]:
    """Every string of language ``code``, by key (read-only). Raises ``ValueError`` for an unknown code, and
    ``ValueError`` if a module defines a key outside its own area or two modules define the same key."""
    if code not in LANGUAGES:
        raise ValueError(f"code must be one of {', '.join(map(repr, LANGUAGES))}, got {code!r}")
    package = f"{__package__}.locales.{code.replace('-', '_')}"
    strings: dict[str, str] = {}
    for info in pkgutil.iter_modules(importlib.import_module(package).__path__):
        module = importlib.import_module(f"{package}.{info.name}")
        for key, value in module.STRINGS.items():
            if not key.startswith(f"{info.name}."):
                raise ValueError(f"{package}.{info.name}: key {key!r} is outside its area {info.name}.*")
            strings[key] = value
    return MappingProxyType(strings)


def text(key: str, /, **fields: object) -> str:
    """The current language's string for ``key``, with ``fields`` filled in (``str.format`` names)."""
    try:
        template = catalogue(_language)[key]
    except KeyError:
        raise KeyError(f"no string {key!r} in the {_language} catalogue") from None
    try:
        return template.format(**fields) if fields or "{" in template else template
    except KeyError as exc:
        raise KeyError(f"string {key!r} ({_language}) needs the field {exc.args[0]!r}") from None


# Last, once ``text`` exists: the wording module imports it.
from ..core.wording import use_wording  # noqa: E402
from .wording import CatalogueWording  # noqa: E402

use_wording(CatalogueWording())
