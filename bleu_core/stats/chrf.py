"""chrF and chrF++ (Popović 2015, 2017) as sacreBLEU 2.6 computes them: text -> per-segment statistics -> score.

Statistics are an int64 array with one row per segment and three columns per order, character orders
1..``char_order`` first, then word orders 1..``word_order``::

    column 3*i + HYP     n-grams of order i in the hypothesis (0 when the chosen reference has none of that order)
    column 3*i + REF     n-grams of order i in the chosen reference
    column 3*i + MATCH   sum over n-grams of min(hypothesis count, reference count)

Like BLEU's, a corpus score is the score of the column sums: ``chrf_scores(stats.sum(axis=0))``.  With several
references a segment keeps the statistics of its best reference: the first one with the highest F-score, the
score computed by the same rule as the corpus score (so the choice depends on ``eps_smoothing``).

The counting is plain ``Counter`` work, one segment at a time; the F-scores of every (segment, reference) row
are computed at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

#: Offsets of the three statistics within an order's columns.
HYP, REF, MATCH = 0, 1, 2
#: The stand-in for an undefined precision, recall or F-score under ``eps_smoothing`` (chrF++.py's value).
EPSILON = 1e-16
#: What sacreBLEU's chrF++ splits off the start or end of a word: ASCII punctuation only.
PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")

@dataclass(frozen=True, slots=True)
class ChrfOptions:
    """Every chrF setting, checked once (sacreBLEU's defaults: chrF2 over character 1- to 6-grams)."""

    char_order: int = 6
    word_order: int = 0
    beta: float = 2
    lowercase: bool = False
    whitespace: bool = False
    eps_smoothing: bool = False

    def __post_init__(self) -> None:
        if self.char_order < 0 or self.word_order < 0:
            raise ValueError(
                f"n-gram orders must be non-negative; got char_order={self.char_order}, word_order={self.word_order}"
            )
        if self.orders == 0:
            raise ValueError("chrF needs at least one n-gram order; set char_order or word_order to 1 or more")

    @property
    def orders(self) -> int:
        """Character orders and word orders together."""
        return self.char_order + self.word_order

    @property
    def columns(self) -> int:
        """Columns of a statistics row: three per order."""
        return 3 * self.orders


# ---------------------------------------------------------------------------------------------
# Text -> n-gram counts


def split_words(text: str) -> list[str]:
    """chrF++'s words: whitespace-separated, one ASCII punctuation mark split off the end of a word, else off
    its start (so ``"(hi)"`` gives ``"(hi"`` and ``")"``, as in sacreBLEU); one-character words stay whole."""
    words: list[str] = []
    for word in text.split():
        if len(word) > 1 and word[-1] in PUNCTUATION:
            words += (word[:-1], word[-1])
        elif len(word) > 1 and word[0] in PUNCTUATION:
            words += (word[0], word[1:])
        else:
            words.append(word)
    return words


def ngram_counts(text: str, options: ChrfOptions) -> list[Counter[Hashable]]:
    """One counter per order: character n-grams (whitespace removed unless ``options.whitespace``), then word
    n-grams (as tuples of :func:`split_words`).  ``text`` is already lowercased if the options say so."""
    chars = text if options.whitespace else "".join(text.split())
    counts: list[Counter[Hashable]] = [
        Counter([chars[i : i + n] for i in range(len(chars) - n + 1)]) for n in range(1, options.char_order + 1)
    ]
    if options.word_order:
        words = split_words(text)
        counts += [
            Counter([tuple(words[i : i + n]) for i in range(len(words) - n + 1)])
            for n in range(1, options.word_order + 1)
        ]
    return counts


def match_row(hypothesis: Sequence[Counter[Hashable]], reference: Sequence[Counter[Hashable]]) -> list[int]:
    """The statistics of a hypothesis against one reference: per order [hyp count, ref count, matches]; the
    hypothesis count is 0 for an order in which the reference has no n-gram."""
    row: list[int] = []
    for hyp, ref in zip(hypothesis, reference, strict=True):
        matches = 0
        if ref:
            for gram, count in hyp.items():
                held = ref.get(gram)
                if held is not None:
                    matches += count if count < held else held
        row += (sum(hyp.values()) if ref else 0, sum(ref.values()), matches)
    return row


# ---------------------------------------------------------------------------------------------
# Statistics -> score


def chrf_scores(stats: IntArray | FloatArray, options: ChrfOptions) -> FloatArray:
    """chrF on a 0-100 scale for each row of ``stats`` (a single row gives a 0-d array).

    With P_n = matches / hyp and R_n = matches / ref, and F(P, R) = (1 + β²) P R / (β² P + R):
    by default, F of the precisions and recalls averaged over the orders in which both sides have n-grams
    (0 if none); with ``eps_smoothing``, the mean over all orders of F(P_n, R_n), an undefined P_n, R_n or
    F_n counting as 1e-16.  Orders are summed one after another, as sacreBLEU does, to the last bit.
    """
    table = np.asarray(stats)
    factor = options.beta**2
    shape = table.shape[:-1]
    eps_total = np.zeros(shape)
    prec_total, rec_total = np.zeros(shape), np.zeros(shape)
    effective = np.zeros(shape, dtype=np.int64)
    for i in range(options.orders):
        hyp, ref, match = table[..., 3 * i + HYP], table[..., 3 * i + REF], table[..., 3 * i + MATCH]
        prec = np.divide(match, hyp, out=np.full(shape, EPSILON), where=hyp > 0)
        rec = np.divide(match, ref, out=np.full(shape, EPSILON), where=ref > 0)
        denom = factor * prec + rec
        f = np.divide((1 + factor) * prec * rec, denom, out=np.full(shape, EPSILON), where=denom > 0)
        eps_total = eps_total + f
        both = (hyp > 0) & (ref > 0)
        prec_total = prec_total + np.where(both, prec, 0.0)
        rec_total = rec_total + np.where(both, rec, 0.0)
        effective = effective + both
    if options.eps_smoothing:
        return np.asarray(100 * eps_total / options.orders)
    some = effective > 0
    avg_prec = np.divide(prec_total, effective, out=np.zeros(shape), where=some)
    avg_rec = np.divide(rec_total, effective, out=np.zeros(shape), where=some)
    numerator = (1 + factor) * avg_prec * avg_rec
    denominator = factor * avg_prec + avg_rec
    safe = avg_prec + avg_rec != 0
    return np.asarray(100 * np.divide(numerator, denominator, out=np.zeros(shape), where=safe))


def chrf_score(stats: IntArray, options: ChrfOptions) -> float:
    """The chrF of summed statistics (one row, or every segment's row summed first): a corpus score."""
    summed = stats.sum(axis=0) if stats.ndim == 2 else stats
    return float(chrf_scores(summed, options))


# ---------------------------------------------------------------------------------------------
# Text -> statistics


@dataclass(frozen=True, slots=True)
class ChrfReferences:
    """References counted once for many hypotheses: per segment, the n-gram counts of each present reference."""

    counts: tuple[tuple[list[Counter[Hashable]], ...], ...]
    n_refs: int  # references per segment, -1 when segments have different numbers (sacreBLEU's ``var``)

    @property
    def n_segments(self) -> int:
        return len(self.counts)


def prepare_references(streams: Sequence[Sequence[str | None]], options: ChrfOptions) -> ChrfReferences:
    """Count the reference streams (one per reference, each with one line per segment; ``None`` = missing)."""
    counts = []
    sizes = set()
    for lines in zip(*streams, strict=True):
        present = [line.lower() if options.lowercase else line for line in lines if line is not None]
        sizes.add(len(present))
        counts.append(tuple(ngram_counts(line, options) for line in present))
    return ChrfReferences(tuple(counts), sizes.pop() if len(sizes) == 1 else -1)


def best_rows(rows: IntArray, segments: IntArray, options: ChrfOptions) -> IntArray:
    """Of the rows of each segment (``segments``: each row's segment, ascending), the first with the highest chrF."""
    scores = chrf_scores(rows, options)
    order = np.lexsort((np.arange(len(rows)), -scores, segments))
    first = np.ones(len(order), dtype=bool)
    first[1:] = segments[order][1:] != segments[order][:-1]
    return rows[order[first]]


def segment_statistics(hypotheses: Sequence[str], references: ChrfReferences, options: ChrfOptions) -> IntArray:
    """The statistics array (segments x ``options.columns``) of ``hypotheses`` against prepared references."""
    if len(hypotheses) != references.n_segments:
        raise ValueError(
            f"there are {len(hypotheses)} hypotheses but the references have {references.n_segments} segments; "
            "give one reference line per hypothesis"
        )
    rows: list[list[int]] = []
    segments: list[int] = []
    for segment, (hypothesis, refs) in enumerate(zip(hypotheses, references.counts, strict=True)):
        if not refs:
            raise ValueError(f"segment {segment + 1} has no reference; give at least one reference line per segment")
        hyp = ngram_counts(hypothesis.lower() if options.lowercase else hypothesis, options)
        rows += (match_row(hyp, ref) for ref in refs)
        segments += [segment] * len(refs)
    table = np.asarray(rows, dtype=np.int64).reshape(len(rows), options.columns)
    if len(rows) == len(hypotheses):
        return table
    return best_rows(table, np.asarray(segments, dtype=np.int64), options)


def chrf_statistics(
    hypotheses: Sequence[str], streams: Sequence[Sequence[str | None]], options: ChrfOptions
) -> IntArray:
    """The statistics array of ``hypotheses`` against reference streams used once."""
    return segment_statistics(hypotheses, prepare_references(streams, options), options)
