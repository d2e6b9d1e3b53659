"""Message catalogs: every user-facing sentence of the app and the explanations, in English and Chinese.

The catalogs are TOML files in ``bleu_core/locales/`` (one per language); a key is ``table.name`` (``corpus.title``)
and a message is a ``str.format`` template (``"{count} segments"``).  Both catalogs hold the same keys and the same
placeholders, which a test checks.  The core returns numbers and codes; the pages (and the command line, in English)
turn them into sentences here.
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Literal

Language = Literal["en", "zh"]
LANGUAGES: tuple[Language, ...] = ("en", "zh")
DEFAULT_LANGUAGE: Language = "en"
#: How each language names itself in the language switch.
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "zh": "中文"}


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    flat: dict[str, str] = {}
    for name, value in table.items():
        key = f"{prefix}{name}"
        if isinstance(value, Mapping):
            flat.update(_flatten(value, key + "."))
        elif isinstance(value, str):
            flat[key] = value
        else:
            raise TypeError(f"catalog entry {key} must be text; got {type(value).__name__}")
    return flat


@cache
def catalog(language: str) -> Mapping[str, str]:
    """The flat ``key -> template`` catalog of ``language`` (read once per process)."""
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}; got {language!r}")
    source = resources.files("bleu_core").joinpath("locales", f"{language}.toml").read_text(encoding="utf-8")
    return _flatten(tomllib.loads(source))


def language_or_default(value: object) -> Language:
    """``value`` if it names a catalog (``"zh"``, ``"zh-CN"``, ``"ZH"``), else English."""
    if isinstance(value, str):
        base = value.strip().lower().split("-")[0].split("_")[0]
        for language in LANGUAGES:
            if base == language:
                return language
    return DEFAULT_LANGUAGE


def text(key: str, language: str = DEFAULT_LANGUAGE, /, **params: Any) -> str:
    """The message ``key`` in ``language``, its ``{placeholders}`` filled from ``params``.

    A key missing from the catalog is a KeyError naming it (a test keeps the catalogs complete).
    """
    try:
        template = catalog(language)[key]
    except KeyError:
        raise KeyError(f"no message {key!r} in the {language} catalog") from None
    return template.format_map(params)


def placeholders(template: str) -> frozenset[str]:
    """The names a template fills in (``"{n} of {total:,}"`` -> {"n", "total"})."""
    return frozenset(name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name)


@dataclass(frozen=True, slots=True)
class Message:
    """A sentence not yet put into a language: a catalog key and the values it shows."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def render(self, language: str = DEFAULT_LANGUAGE) -> str:
        """The sentence in ``language``; parameters that are messages (or tuples of them, joined by "; ") are put
        into the same language."""
        return text(self.key, language, **{name: _render_param(value, language) for name, value in self.params.items()})

    def __str__(self) -> str:
        return self.render(DEFAULT_LANGUAGE)


def _render_param(value: Any, language: str) -> Any:
    if isinstance(value, Message):
        return value.render(language)
    if isinstance(value, tuple) and value and all(isinstance(v, Message) for v in value):
        return "; ".join(v.render(language) for v in value)
    return value


def message(key: str, **params: Any) -> Message:
    """A :class:`Message` (``message("settings.weight", n=3)``)."""
    return Message(key, params)


def joined(parts: Sequence[Message], key: str) -> Message:
    """``parts`` as one message, joined by the catalog's ``key`` (``"{first}, {rest}"``) in each language."""
    result = parts[-1]
    for part in reversed(parts[:-1]):
        result = message(key, first=part, rest=result)
    return result
