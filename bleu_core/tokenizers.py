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
from itertools import chain

# The four substitutions of mteval-v13a (sacreBLEU's TokenizerRegexp), in order.  The first pads single
# punctuation characters and is done with str.replace; the space in its character class is left out, since
# padding a space with spaces changes no token.
_PUNCTUATION = '{|}~[\\]^_`!"#$%&()*+:;<=>?@/'
_PUNCTUATION_SET = frozenset(_PUNCTUATION)
_PERIOD_COMMA_AFTER_NON_DIGIT = re.compile(r"([^0-9])([\.,])")
_PERIOD_COMMA_BEFORE_NON_DIGIT = re.compile(r"([\.,])([^0-9])")
_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")
_NEEDS_DIGIT_RULES = re.compile(r"[.,]|[0-9]-")


def _pad_punctuation(text: str) -> str:
    for char in _PUNCTUATION_SET.intersection(text):
        text = text.replace(char, f" {char} ")
    return text


def _digit_rules(chunk: str) -> list[str]:
    """Rules 2-4 of 13a on one whitespace-free chunk, with the spaces that surround it in the text."""
    head = chunk[:-1]
    if head and chunk[-1] in ".," and "." not in head and "," not in head and "-" not in head:
        return [head, chunk[-1]]  # the common "word." / "word,": rule 3 splits the final mark off
    text = _PERIOD_COMMA_AFTER_NON_DIGIT.sub(r"\1 \2 ", f" {chunk} ")
    text = _PERIOD_COMMA_BEFORE_NON_DIGIT.sub(r" \1 \2", text)
    return _DASH_AFTER_DIGIT.sub(r"\1 \2 ", text).split()


def _fold_newlines(line: str) -> str:
    """sacreBLEU's 13a treatment of a line break inside one segment (after rstrip)."""
    return line.rstrip().replace("<skipped>", "").replace("-\n", "").replace("\n", " ")


def _tokenize_13a(lines: Sequence[str]) -> list[list[str]]:
    """13a over the joined corpus, identical to sacreBLEU's line-by-line tokenization.

    Rule 1 (pad punctuation) acts on single characters, so it runs once over the joined text.  Rules 2-4
    (periods, commas and dashes next to digits) never reach across whitespace: every match lies inside one
    whitespace-free chunk plus the space before and after it, and consuming that space cannot change the
    next chunk's matches (rule 2 ends a match on the period or comma, rule 3 starts one there).  So they run
    once per distinct chunk that contains a period, a comma or a digit-dash, and the chunk's pieces replace
    it wherever it occurs.
    """
    if not lines:
        return []
    joined = "\n".join(lines)
    if joined.count("\n") != len(lines) - 1:
        joined = "\n".join(_fold_newlines(line) if "\n" in line else line for line in lines)
    joined = joined.replace("<skipped>", "")
    if "&" in joined:
        joined = joined.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    tokenized = [line.split() for line in _pad_punctuation(joined).split("\n")]
    chunks = set(chain.from_iterable(tokenized))
    pieces = {chunk: _digit_rules(chunk) for chunk in chunks if _NEEDS_DIGIT_RULES.search(chunk)}
    if not pieces:
        return tokenized
    keep = [[chunk] for chunk in chunks.difference(pieces)]
    expand = dict(zip(chunks.difference(pieces), keep, strict=True))
    expand.update(pieces)
    return [list(chain.from_iterable(map(expand.__getitem__, tokens))) for tokens in tokenized]


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
