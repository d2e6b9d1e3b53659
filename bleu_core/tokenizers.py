"""Tokenizers identical to sacreBLEU's, run over a whole corpus at once.

``13a``, ``char`` and ``none`` are re-implemented here so that a corpus is
tokenized with a handful of C-level string operations over the joined text
instead of one Python call per line; the tests prove the output identical to
sacreBLEU's on every WMT22 file and on generated text.  ``intl``, ``zh`` and
``ja-mecab`` use sacreBLEU's own tokenizers line by line (imported lazily, so
the CLI stays light for the common case).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

# The four substitutions of mteval-v13a (sacreBLEU's TokenizerRegexp), in order.
# The first one pads single punctuation characters; str.translate does that in C.
_PUNCTUATION = '{|}~[\\]^_`!"#$%&()*+:;<=>?@/'
_PAD_PUNCTUATION = str.maketrans({c: f" {c} " for c in _PUNCTUATION})
_PERIOD_COMMA_AFTER_NON_DIGIT = re.compile(r"([^0-9])([\.,])")
_PERIOD_COMMA_BEFORE_NON_DIGIT = re.compile(r"([\.,])([^0-9])")
_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")


def _regexp_13a(text: str) -> str:
    """Apply the mteval-v13a punctuation rules to ``text`` (one or many padded lines)."""
    text = text.translate(_PAD_PUNCTUATION)
    text = _PERIOD_COMMA_AFTER_NON_DIGIT.sub(r"\1 \2 ", text)
    text = _PERIOD_COMMA_BEFORE_NON_DIGIT.sub(r" \1 \2", text)
    return _DASH_AFTER_DIGIT.sub(r"\1 \2 ", text)


def _fold_newlines(line: str) -> str:
    """sacreBLEU's 13a treatment of a line break inside one segment (after rstrip)."""
    return line.rstrip().replace("<skipped>", "").replace("-\n", "").replace("\n", " ")


def _tokenize_13a(lines: Sequence[str]) -> list[list[str]]:
    """13a over the joined corpus.

    Each line is padded with spaces as sacreBLEU does, and lines are joined with
    a line feed: none of the four rules can match across `` \\n `` because the
    characters around it are spaces, so the result equals line-by-line
    tokenization.
    """
    joined = "\n".join(lines)
    if joined.count("\n") != max(len(lines) - 1, 0):
        joined = "\n".join(_fold_newlines(line) if "\n" in line else line for line in lines)
    joined = joined.replace("<skipped>", "")
    if "&" in joined:
        joined = joined.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    joined = _regexp_13a(" " + joined.replace("\n", " \n ") + " ")
    return [line.split() for line in joined.split("\n")] if lines else []


def _tokenize_char(lines: Sequence[str]) -> list[list[str]]:
    """Every non-whitespace character is a token (sacreBLEU's ``char``)."""
    return [list("".join(line.split())) for line in lines]


def _tokenize_none(lines: Sequence[str]) -> list[list[str]]:
    """Whitespace tokens only (sacreBLEU's ``none``)."""
    return [line.split() for line in lines]


@cache
def _sacrebleu_tokenizer(name: str) -> Callable[[str], str]:
    from sacrebleu.metrics.bleu import _get_tokenizer

    tokenizer: Callable[[str], str] = _get_tokenizer(name)()
    return tokenizer


def _line_by_line(name: str) -> Callable[[Sequence[str]], list[list[str]]]:
    def tokenize(lines: Sequence[str]) -> list[list[str]]:
        tokenizer = _sacrebleu_tokenizer(name)
        return [tokenizer(line.rstrip()).split() for line in lines]

    return tokenize


_TOKENIZE: dict[str, Callable[[Sequence[str]], list[list[str]]]] = {
    "13a": _tokenize_13a,
    "char": _tokenize_char,
    "none": _tokenize_none,
    "intl": _line_by_line("intl"),
    "zh": _line_by_line("zh"),
    "ja-mecab": _line_by_line("ja-mecab"),
}


def tokenize_lines(lines: Sequence[str], tokenize: str = "13a", lowercase: bool = False) -> list[list[str]]:
    """Tokens of each line, as sacreBLEU's BLEU sees them (lowercase, rstrip, tokenize, split)."""
    if lowercase:
        lines = [line.lower() for line in lines]
    try:
        return _TOKENIZE[tokenize](lines)
    except ImportError as error:  # pragma: no cover - depends on optional extras
        raise ValueError(f"tokenizer {tokenize!r} needs an optional package: {error}") from error


def tokenize_line(line: str, tokenize: str = "13a", lowercase: bool = False) -> list[str]:
    """Tokens of one line (see :func:`tokenize_lines`)."""
    return tokenize_lines([line], tokenize, lowercase)[0]
