"""sacreBLEU's own tokenizers, line by line, from its public classes (``sacrebleu.tokenizers.*``).

They run ``intl`` and ``ja-mecab``, which are not re-implemented, and they are the plain reference that
the whole-stream tokenizers are tested against.  Modules are imported on first use: some are slow to
import, and ``ja-mecab`` needs optional packages.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from importlib import import_module

#: sacreBLEU's public tokenizer class for each name: (module under ``sacrebleu.tokenizers``, class).
CLASSES = {
    "13a": ("tokenizer_13a", "Tokenizer13a"),
    "zh": ("tokenizer_zh", "TokenizerZh"),
    "char": ("tokenizer_char", "TokenizerChar"),
    "none": ("tokenizer_none", "NoneTokenizer"),
    "intl": ("tokenizer_intl", "TokenizerV14International"),
    "ja-mecab": ("tokenizer_ja_mecab", "TokenizerJaMecab"),
}


@cache
def sacrebleu_tokenizer(name: str) -> Callable[[str], str]:
    """A sacreBLEU tokenizer object (one per name: the classes memoise their calls)."""
    module_name, class_name = CLASSES[name]
    module = import_module(f"sacrebleu.tokenizers.{module_name}")
    tokenizer: Callable[[str], str] = getattr(module, class_name)()
    return tokenizer


def tokenize_lines_by_sacrebleu(lines: Sequence[str], name: str) -> list[list[str]]:
    """The tokens of each (already lowercased) line as sacreBLEU's BLEU makes them: rstrip, tokenize, split."""
    tokenizer = sacrebleu_tokenizer(name)
    return [tokenizer(line.rstrip()).split() for line in lines]
