"""Word accuracy by bucket (after compare-mt): precision, recall and F-measure of matched words.

A word's matches in a segment are BLEU's clipped unigram count, ``min(h, r)``, where h is the word's count in
the hypothesis and r the most times any one reference holds it.  **Multiple references** are handled as
BLEU's clipping handles them: the reference side of a word is that per-word maximum (so recall is measured
against the best-covering reference of each word, and adding a reference never lowers it).  Summed over every
bucket, matched words and hypothesis words are exactly the corpus's unigram matches and totals, so the
overall precision is p1.

Buckets:

- by word frequency: the word's count in all the test set's references (every stream), or in a training
  frequency list (``word count`` per line, :func:`read_frequencies`); both the hypothesis and the reference
  occurrences of a word fall in its bucket;
- by segment: the segment's reference length r (BLEU's closest-length rule), its source length
  (:func:`source_lengths`) or its sentence BLEU.

Precision = matched / hypothesis words, recall = matched / reference words, F = 2PR / (P + R); each is None
where its denominator is 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from bleu_core.stats.corpus_ngrams import CorpusNgrams
from bleu_core.tokenizers import tokenize_lines

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

#: compare-mt's frequency buckets: 0 (unseen), 1, 2, 3, 4, 5-9, 10-99, 100-999, 1000+.
FREQUENCY_EDGES = (1, 2, 3, 4, 5, 10, 100, 1000)
#: Reference-length buckets (tokens): 1-9, 10-19, ..., 50-59, 60+ (and 0 in the first).
LENGTH_EDGES = (10, 20, 30, 40, 50, 60)
#: Sentence-BLEU buckets on the 0-100 scale: [0, 10), [10, 20), ..., [90, 100].
SCORE_EDGES = (10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0)


@dataclass(frozen=True, slots=True)
class WordCounts:
    """One row per (segment, word) present on either side: counts of the word there."""

    vocabulary: tuple[str, ...]
    segment: IntArray
    word: IntArray  # index into ``vocabulary``
    hypothesis: IntArray  # h
    reference: IntArray  # r: the most in any one reference

    @property
    def matched(self) -> IntArray:
        clipped: IntArray = np.minimum(self.hypothesis, self.reference)
        return clipped


@dataclass(frozen=True, slots=True)
class WordBucket:
    """Word accuracy of one bucket ``[low, high)`` (``high`` None: no upper bound)."""

    low: float
    high: float | None
    hypothesis: int  # hypothesis words in the bucket
    reference: int  # reference words (per-word maximum over references)
    matched: int  # clipped matches
    segments: int  # segments contributing (segment buckets), or distinct words (frequency buckets)

    @property
    def precision(self) -> float | None:
        return self.matched / self.hypothesis if self.hypothesis else None

    @property
    def recall(self) -> float | None:
        return self.matched / self.reference if self.reference else None

    @property
    def f_measure(self) -> float | None:
        p, r = self.precision, self.recall
        if p is None or r is None:
            return None
        return 2 * p * r / (p + r) if p + r > 0 else 0.0


def word_counts(counts: CorpusNgrams) -> WordCounts:
    """The unigram counts of every segment as flat arrays (from counts already made)."""
    ids: dict[str, int] = {}
    rows: list[tuple[int, int, int, int]] = []
    for i, segment in enumerate(counts.counts):
        unigrams = segment[0]
        for gram in unigrams.hypothesis.keys() | unigrams.reference.keys():
            word = ids.setdefault(gram[0], len(ids))
            rows.append((i, word, unigrams.hypothesis.get(gram, 0), unigrams.reference.get(gram, 0)))
    table = np.asarray(rows, dtype=np.int64).reshape(-1, 4)
    return WordCounts(tuple(ids), table[:, 0], table[:, 1], table[:, 2], table[:, 3])


def reference_frequencies(counts: CorpusNgrams) -> Counter[str]:
    """How often each word occurs in the test set's references, every stream counted."""
    frequencies: Counter[str] = Counter()
    for segment in counts.corpus.references:
        for tokens in segment:
            if tokens is not None:
                frequencies.update(tokens)
    return frequencies


def read_frequencies(lines: Iterable[str], lowercase: bool = False) -> dict[str, int]:
    """A training-frequency list: ``word count`` per line (whitespace between; blank lines skipped).

    With ``lowercase`` the words are case-folded as BLEU's lowercase option folds tokens, and their counts summed.
    """
    frequencies: Counter[str] = Counter()
    for number, line in enumerate(lines, 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 2 or not parts[1].isdigit():
            raise ValueError(f"line {number} of the frequency file must be 'word count'; got {line.strip()[:60]!r}")
        word = parts[0].lower() if lowercase else parts[0]
        frequencies[word] += int(parts[1])
    return dict(frequencies)


def _buckets(
    words: WordCounts, keys: FloatArray, edges: Sequence[float], group: IntArray, first: float
) -> tuple[WordBucket, ...]:
    """Sum the rows into buckets of ``keys`` (``np.digitize`` over ``edges``); ``group`` counts distinct items."""
    where = np.digitize(keys, np.asarray(edges, dtype=np.float64), right=False)
    bounds = [first, *edges]
    matched = words.matched
    buckets = []
    for b, low in enumerate(bounds):
        inside = where == b
        if not inside.any():
            continue
        buckets.append(
            WordBucket(
                low=float(low),
                high=float(edges[b]) if b < len(edges) else None,
                hypothesis=int(words.hypothesis[inside].sum()),
                reference=int(words.reference[inside].sum()),
                matched=int(matched[inside].sum()),
                segments=int(np.unique(group[inside]).shape[0]),
            )
        )
    return tuple(buckets)


def frequency_buckets(
    words: WordCounts, frequencies: Mapping[str, int], edges: Sequence[int] = FREQUENCY_EDGES
) -> tuple[WordBucket, ...]:
    """Word accuracy by word frequency (``segments`` holds the number of distinct words in a bucket)."""
    per_word = np.asarray([frequencies.get(w, 0) for w in words.vocabulary], dtype=np.float64)
    return _buckets(words, per_word[words.word] if len(per_word) else per_word, edges, words.word, 0.0)


def segment_buckets(
    words: WordCounts, values: Sequence[float] | FloatArray, edges: Sequence[float]
) -> tuple[WordBucket, ...]:
    """Word accuracy of segments grouped by a per-segment value (reference length, sentence BLEU on 0-100)."""
    per_segment = np.asarray(values, dtype=np.float64)
    keys = per_segment[words.segment] if words.segment.shape[0] else np.zeros(0)
    return _buckets(words, keys, edges, words.segment, 0.0)


def source_lengths(source: Sequence[str]) -> IntArray:
    """Tokens per source line, counted with the ``zh`` tokenizer: as 13a on Latin text, one token per Chinese
    character (the source language is unknown, so one rule that suits both kinds of script)."""
    lengths: IntArray = np.asarray([len(tokens) for tokens in tokenize_lines(list(source), "zh")], dtype=np.int64)
    return lengths
