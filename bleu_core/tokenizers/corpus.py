"""The tokenizers by name, over whole streams of lines, in three outputs.

:func:`tokenize_lines` gives tokens as strings, :func:`encode_lines` gives them as integer ids of a
:class:`Vocabulary` (what n-gram counting needs) without a list of tokens per line, and
:func:`encode_together` gives ids to the tokens of several streams straight from their bytes.

Speed trick and its plain version: ``13a`` and ``zh`` run over a whole stream at once (:mod:`.joined`,
:mod:`.rules`), ``char`` over its code points; :func:`.sacrebleu_line.tokenize_lines_by_sacrebleu` runs
sacreBLEU's own tokenizer line by line, and both give the same tokens on every WMT22 file and on
generated text (tested).  Measured gain (``python -m bench.tricks``, sacreBLEU's caches cleared): 12x
for 13a on de-en ref A, 21-23x for zh on en-zh ref A, 2.7-3.0x for char on en-ja ref A.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bleu_core.tokenizers.char import encode_char, tokenize_char
from bleu_core.tokenizers.joined import Joined, spans, split
from bleu_core.tokenizers.none import join_none
from bleu_core.tokenizers.sacrebleu_line import tokenize_lines_by_sacrebleu
from bleu_core.tokenizers.together import group_streams
from bleu_core.tokenizers.tok13a import join_13a
from bleu_core.tokenizers.vocabulary import Encoded, Vocabulary, encode_joined, encode_token_lists
from bleu_core.tokenizers.zh import join_zh

#: The tokenizers run over joined streams; ``char`` has its own; the others are sacreBLEU's, line by line.
_JOIN: dict[str, Callable[[Sequence[str]], Joined]] = {"13a": join_13a, "zh": join_zh}
#: The tokenizers whose tokens :func:`encode_together` finds in joined streams (``none`` only there: for
#: strings and vocabulary ids, splitting each line is faster than joining).
_SPANS: dict[str, Callable[[Sequence[str]], Joined]] = {**_JOIN, "none": join_none}


def _lowered(lines: Sequence[str], lowercase: bool) -> Sequence[str]:
    # Line by line: str.lower() is context-sensitive (final sigma), so it is not applied to joined text.
    return [line.lower() for line in lines] if lowercase else lines


def _optional(tokenize: str, error: ImportError) -> ValueError:
    """The error for a tokenizer whose optional packages are missing."""
    return ValueError(f"tokenizer {tokenize!r} needs an optional package: {error}")


def tokenize_lines(lines: Sequence[str], tokenize: str = "13a", lowercase: bool = False) -> list[list[str]]:
    """Tokens of each line, as sacreBLEU's BLEU sees them (lowercase, rstrip, tokenize, split)."""
    lines = _lowered(lines, lowercase)
    try:
        if tokenize == "char":
            return tokenize_char(lines)
        if tokenize in _JOIN:
            return split(_JOIN[tokenize](lines))
        return tokenize_lines_by_sacrebleu(lines, tokenize)
    except ImportError as error:  # pragma: no cover - depends on optional extras
        raise _optional(tokenize, error) from error


def tokenize_line(line: str, tokenize: str = "13a", lowercase: bool = False) -> list[str]:
    """Tokens of one line (see :func:`tokenize_lines`)."""
    return tokenize_lines([line], tokenize, lowercase)[0]


def tokenize_each(texts: Sequence[str], tokenize: str = "13a", lowercase: bool = False) -> list[list[str]]:
    """:func:`tokenize_line` of every text, as one stream when no text holds a line break of its own (the
    stream tokenizers read one line per text); text by text otherwise."""
    if any("\n" in text or "\r" in text for text in texts):
        return [tokenize_line(text, tokenize, lowercase) for text in texts]
    return tokenize_lines(list(texts), tokenize, lowercase)


def encode_lines(lines: Sequence[str], tokenize: str, lowercase: bool, vocab: Vocabulary, grow: bool = True) -> Encoded:
    """Token ids of every line as sacreBLEU's BLEU tokenizes it (lowercase, rstrip, tokenize, split).

    With ``grow``, new tokens are added to ``vocab``; without, they get id -1 (``char``: ids are code
    points, known or not).
    """
    lines = _lowered(lines, lowercase)
    try:
        if tokenize == "char":
            return encode_char(lines)
        if tokenize in _JOIN:
            return encode_joined(_JOIN[tokenize](lines), vocab, grow)
        return encode_token_lists(tokenize_lines_by_sacrebleu(lines, tokenize), vocab, grow)
    except ImportError as error:  # pragma: no cover - depends on optional extras
        raise _optional(tokenize, error) from error


def encode_together(
    streams: Sequence[Sequence[str]], tokenize: str, lowercase: bool
) -> tuple[list[Encoded], int] | None:
    """Ids of the tokens of several streams, equal for equal tokens, below the number of distinct tokens.

    The same tokens as :func:`encode_lines`, but no token becomes a string (see :mod:`.together`).  None
    for the tokenizers that need strings (``char``, ``intl``, ``ja-mecab``) and when two distinct tokens
    share a hash: the caller then uses a :class:`Vocabulary`.
    """
    if tokenize not in _SPANS:
        return None
    return group_streams([spans(_SPANS[tokenize](_lowered(lines, lowercase))) for lines in streams])
