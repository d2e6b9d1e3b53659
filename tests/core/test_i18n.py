"""The message catalogs: both languages hold the same keys and placeholders, every key the code uses exists,
and the Chinese catalog is translated (no English words beyond the technical terms both languages share)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bleu_core.i18n import LANGUAGES, Message, catalog, language_or_default, message, placeholders, text
from bleu_core.teach.examples import PRESETS
from tests.i18n_check import english_words

ROOT = Path(__file__).resolve().parents[2]
#: Literal keys passed to t(...), text(...), message(...) or Message(...) anywhere in the app or the core.
KEY_USE = re.compile(r"""\b(?:t|text|message|Message)\(\s*["']([a-z0-9_]+\.[a-z0-9_.]+)["']""")


def used_keys() -> set[str]:
    keys: set[str] = set()
    for path in [ROOT / "app.py", *(ROOT / "pages").rglob("*.py"), *(ROOT / "bleu_core").rglob("*.py")]:
        keys.update(KEY_USE.findall(path.read_text(encoding="utf-8")))
    return keys


def test_both_catalogs_hold_the_same_keys() -> None:
    en, zh = set(catalog("en")), set(catalog("zh"))
    assert en - zh == set(), "keys missing from zh.toml"
    assert zh - en == set(), "keys missing from en.toml"


def test_placeholders_agree_between_languages() -> None:
    en, zh = catalog("en"), catalog("zh")
    differ = {key: (placeholders(en[key]), placeholders(zh[key])) for key in en if key in zh}
    assert {k: v for k, v in differ.items() if v[0] != v[1]} == {}


def test_every_key_the_code_uses_exists() -> None:
    keys = used_keys()
    assert len(keys) > 20, "the key scanner found almost nothing: is the pattern still right?"
    assert sorted(keys - set(catalog("en"))) == []


def example_words(key: str) -> set[str]:
    """The words of the example a preset's entry quotes (its text stays English in the Chinese interface)."""
    presets = {f"presets.{p.key}.": (p.candidate, *p.references) for p in PRESETS}
    lines = next((texts for prefix, texts in presets.items() if key.startswith(prefix)), ())
    return {word.lower() for line in lines for word in re.findall(r"[A-Za-z]+", line)}


def test_chinese_catalog_is_translated() -> None:
    untranslated = {
        key: words
        for key, value in catalog("zh").items()
        if (words := [w for w in english_words(value) if w.lower() not in example_words(key)])
    }
    assert untranslated == {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_formats(language: str) -> None:
    for key, template in catalog(language).items():
        sample = {name: 1 for name in placeholders(template)}
        assert text(key, language, **sample)


def test_messages_and_language_names() -> None:
    assert str(message("settings.weight", n=3)) == "w3"
    assert Message("nav.about").render("zh") == "关于 BLEU"
    assert [language_or_default(v) for v in ("zh", "zh-CN", "ZH_tw", "fr", None, 3)] == ["zh", "zh", "zh"] + ["en"] * 3
    with pytest.raises(KeyError, match=r"no message 'nav\.nowhere'"):
        text("nav.nowhere", "zh")
    with pytest.raises(ValueError, match="language must be one of"):
        catalog("xx")
