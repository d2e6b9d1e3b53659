"""A corpus tokenized once, and every segment's n-gram counts counted once, for the corpus views.

The vectorized engine (:mod:`bleu_core.stats.counting`) keeps no token strings, so the views that name words and
n-grams (the n-gram lists, word accuracy, the segments holding an n-gram) share one tokenization of the
corpus, :class:`TokenizedCorpus`, and one count of each segment's n-grams, :class:`CorpusNgrams`: per segment
and order, the candidate count of every n-gram and the most times any one reference holds it.  Clipping is
then ``min(candidate, reference)`` (:func:`bleu_core.stats.clipping.clip_counts`'s rule), read off these counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bleu_core.stats.clipping import max_reference_counts, ngram_counts
from bleu_core.stats.progress import Progress
from bleu_core.tokenizers import tokenize_lines

Ngram = tuple[str, ...]
Tokens = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TokenizedCorpus:
    """Tokens of every hypothesis and reference, as BLEU sees them (tokenizer and case folding applied).

    ``references[i][k]`` holds the tokens of reference k of segment i, or None where that reference is missing.
    """

    hypotheses: tuple[Tokens, ...]
    references: tuple[tuple[Tokens | None, ...], ...]
    tokenize: str
    lowercase: bool

    def __len__(self) -> int:
        return len(self.hypotheses)

    def present_references(self, index: int) -> tuple[Tokens, ...]:
        """The references segment ``index`` has (missing ones left out)."""
        return tuple(tokens for tokens in self.references[index] if tokens is not None)


def tokenize_corpus(
    hypotheses: Sequence[str], references: Sequence[Sequence[str | None]], tokenize: str, lowercase: bool
) -> TokenizedCorpus:
    """Tokenize a corpus once (``references[k][i]``: reference k of segment i; None: missing)."""
    hyp_tokens = tokenize_lines(list(hypotheses), tokenize, lowercase)
    streams = [
        [
            tuple(tokens) if raw is not None else None
            for tokens, raw in zip(
                tokenize_lines([line or "" for line in stream], tokenize, lowercase), stream, strict=True
            )
        ]
        for stream in references
    ]
    per_segment = tuple(tuple(stream[i] for stream in streams) for i in range(len(hyp_tokens)))
    return TokenizedCorpus(tuple(tuple(tokens) for tokens in hyp_tokens), per_segment, tokenize, lowercase)


@dataclass(frozen=True, slots=True)
class OrderCounts:
    """One segment's n-grams of one order: candidate counts and, per n-gram, the most in any one reference."""

    hypothesis: Counter[Ngram]
    reference: Counter[Ngram]


@dataclass(frozen=True, slots=True)
class CorpusNgrams:
    """Per segment and order (``counts[i][n - 1]``), the n-gram counts that clipping needs, counted once."""

    corpus: TokenizedCorpus
    max_order: int
    counts: tuple[tuple[OrderCounts, ...], ...]


def count_ngrams(corpus: TokenizedCorpus, max_order: int, progress: Progress | None = None) -> CorpusNgrams:
    """Count every segment's candidate n-grams and their reference ceilings (orders 1..``max_order``)."""
    if max_order < 1:
        raise ValueError(f"max_order must be at least 1; got {max_order}")
    rows = []
    step = max(1, len(corpus) // 50)
    for i, tokens in enumerate(corpus.hypotheses):
        references = corpus.present_references(i)
        rows.append(
            tuple(
                OrderCounts(ngram_counts(tokens, n), max_reference_counts(references, n))
                for n in range(1, max_order + 1)
            )
        )
        if progress is not None and i % step == 0:
            progress(i / max(len(corpus), 1))
    if progress is not None:
        progress(1.0)
    return CorpusNgrams(corpus, max_order, tuple(rows))


@dataclass(frozen=True, slots=True)
class NgramOccurrence:
    """Where one n-gram occurs in one segment: token start positions (each span is ``[start, start + n)``)."""

    segment: int  # 0-based
    hypothesis_starts: tuple[int, ...]
    reference_starts: tuple[tuple[int, ...] | None, ...]  # per reference; None where it is missing
    hypothesis_count: int
    reference_count: int  # the most in any one reference
    clipped: int  # min(hypothesis_count, reference_count): the matches BLEU counts

    @property
    def missed(self) -> int:
        return self.reference_count - self.clipped

    @property
    def over(self) -> int:
        return self.hypothesis_count - self.clipped


def _starts(tokens: Tokens, ngram: Ngram) -> tuple[int, ...]:
    n = len(ngram)
    first = ngram[0]
    return tuple(s for s in range(len(tokens) - n + 1) if tokens[s] == first and tokens[s : s + n] == ngram)


def ngram_segments(corpus: TokenizedCorpus, ngram: Ngram) -> tuple[NgramOccurrence, ...]:
    """Every segment whose hypothesis or references hold ``ngram``, with the token spans to highlight."""
    if not ngram:
        raise ValueError("ngram must hold at least one token")
    found = []
    for i, tokens in enumerate(corpus.hypotheses):
        hyp = _starts(tokens, ngram)
        refs = tuple(None if ref is None else _starts(ref, ngram) for ref in corpus.references[i])
        if not hyp and not any(refs):
            continue
        most = max((len(r) for r in refs if r is not None), default=0)
        found.append(NgramOccurrence(i, hyp, refs, len(hyp), most, min(len(hyp), most)))
    return tuple(found)
