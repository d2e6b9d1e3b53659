"""Tokenizers identical to sacreBLEU's, run over a whole corpus at once.

``13a``, ``zh`` and ``char`` are re-implemented so that a corpus is tokenized with a handful of C-level
string and numpy operations over the joined text instead of one Python call per line; the tests prove
the output identical to sacreBLEU's on every WMT22 file and on generated text.  ``none``, ``intl`` and
``ja-mecab`` use sacreBLEU's own tokenizers line by line (imported lazily), except that the ids of
:func:`encode_together` come from the bytes of joined streams for ``13a``, ``zh`` and ``none`` alike.

Modules: :mod:`.joined` (a stream as one array of units, line boundaries as offsets), :mod:`.rules`
(13a's four regular expressions as masks), one module per tokenizer (:mod:`.tok13a`, :mod:`.zh`,
:mod:`.char`, :mod:`.none`, :mod:`.sacrebleu_line`), :mod:`.vocabulary` (token ids),
:mod:`.together` (ids from byte spans) and :mod:`.corpus` (the tokenizers by name).
"""

from __future__ import annotations

from bleu_core.tokenizers.corpus import encode_lines, encode_together, tokenize_each, tokenize_line, tokenize_lines
from bleu_core.tokenizers.vocabulary import Encoded, Vocabulary, decode
from bleu_core.tokenizers.zh import is_chinese_char

__all__ = [
    "Encoded",
    "Vocabulary",
    "decode",
    "encode_lines",
    "encode_together",
    "is_chinese_char",
    "tokenize_each",
    "tokenize_line",
    "tokenize_lines",
]
