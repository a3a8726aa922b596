"""The language setting and the catalogues: the same keys and fields in every language, no key missing.

The keys the code asks for are read from lesson_lib's source: a literal ``text("area.key")`` must exist,
and an f-string key ``text(f"area.{x}.hint")`` covers every key that starts with its literal start.
"""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

import lesson_lib
from lesson_lib import i18n

PACKAGE = Path(lesson_lib.__file__).parent


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def requested_keys() -> tuple[set[str], set[str]]:
    """(exact keys, key prefixes) passed to ``text()`` anywhere in lesson_lib."""
    exact, prefixes = set(), set()
    for path in PACKAGE.rglob("*.py"):
        if "locales" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name not in ("text", "_t"):
                continue
            key = node.args[0]
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                exact.add(key.value)
            elif isinstance(key, ast.JoinedStr) and key.values and isinstance(key.values[0], ast.Constant):
                prefixes.add(key.values[0].value)
    return exact, prefixes




def test_every_language_has_the_same_keys_and_fields():
    english = i18n.catalogue("en")
    for code in i18n.LANGUAGES[1:]:
        other = i18n.catalogue(code)
        assert sorted(english.keys() - other.keys()) == [], f"missing in {code}"
        assert sorted(other.keys() - english.keys()) == [], f"only in {code}, not in en"
        for key, template in english.items():
            assert fields(template) == fields(other[key]), f"{key}: the fields differ between en and {code}"


def test_every_requested_key_exists_and_every_key_is_requested():
    exact, prefixes = requested_keys()
    english = i18n.catalogue("en")
    assert sorted(exact - english.keys()) == []
    unused = [k for k in english if k not in exact and not any(k.startswith(p) for p in prefixes)]
    assert unused == []


def test_translations_are_not_left_in_english():
    """A Chinese string that is the English one unchanged is a key nobody translated (code-only strings,
    such as a unit or a wire value, have no letters to translate and pass)."""
    english, chinese = i18n.catalogue("en"), i18n.catalogue("zh-CN")
    untranslated = [
        key
        for key, value in english.items()
        if chinese[key] == value and sum(c.isalpha() for c in value) > 12 and " " in value.strip()
    ]
    assert untranslated == []


def test_set_language_switches_and_refuses_unknown_codes(restore_language):
    assert i18n.get_language() == "en"
    lesson_lib.set_language("zh-CN")
    assert lesson_lib.get_language() == "zh-CN"
    with pytest.raises(ValueError, match="code must be one of 'en', 'zh-CN', got 'zh'"):
        lesson_lib.set_language("zh")
    assert lesson_lib.get_language() == "zh-CN"  # a refused code changes nothing
    lesson_lib.set_language("en")
    assert lesson_lib.get_language() == "en"


def test_text_raises_for_a_missing_key_or_field(restore_language):
    with pytest.raises(KeyError, match=r"no string 'nowhere\.at_all' in the en catalogue"):
        i18n.text("nowhere.at_all")
    keys = [k for k, v in i18n.catalogue("en").items() if fields(v)]
    if keys:
        with pytest.raises(KeyError, match="needs the field"):
            i18n.text(keys[0])


def test_a_key_outside_its_area_is_refused(tmp_path, monkeypatch):
    root = tmp_path / "fake"
    (root / "locales" / "en").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "locales" / "__init__.py").write_text("")
    (root / "locales" / "en" / "__init__.py").write_text("")
    (root / "locales" / "en" / "widgets.py").write_text("STRINGS = {'viz.title': 'x'}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(i18n, "__package__", "fake")
    i18n.catalogue.cache_clear()
    try:
        with pytest.raises(ValueError, match=r"key 'viz.title' is outside its area widgets"):
            i18n.catalogue("en")
    finally:
        i18n.catalogue.cache_clear()
