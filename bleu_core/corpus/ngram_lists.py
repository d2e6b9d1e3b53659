"""N-gram lists of a corpus: which n-grams a system misses, over-generates, or matches more than other systems.

Every count here comes from the one clipping rule, :func:`bleu_core.stats.clipping.clip_counts` (with
:func:`bleu_core.stats.clipping.max_reference_counts` for the reference side), applied segment by segment and
summed over the corpus, so a "match" is exactly what BLEU's numerator counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from bleu_core.options import BleuOptions
from bleu_core.stats.clipping import clip_counts
from bleu_core.stats.corpus_ngrams import CorpusNgrams, count_ngrams, tokenize_corpus
from bleu_core.stats.ngram_keys import positions
from bleu_core.stats.progress import Progress
from bleu_core.tokenizers import Encoded, Vocabulary, encode_lines, tokenize_lines

Ngram = tuple[str, ...]
IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class NgramTally:
    """An n-gram summed over the corpus: how often it was missed or over-generated, and in how many segments."""

    order: int
    ngram: str
    count: int
    segments: int


@dataclass(frozen=True, slots=True)
class NgramTallies:
    """Per order, the most-missed reference n-grams and the most over-generated hypothesis n-grams."""

    missed: tuple[tuple[NgramTally, ...], ...]  # [order - 1] -> most missed first
    overgenerated: tuple[tuple[NgramTally, ...], ...]


class _Tally:
    """Occurrences of n-grams summed over segments, and the number of segments each occurs in."""

    def __init__(self) -> None:
        self.counts: Counter[Ngram] = Counter()
        self.segments: Counter[Ngram] = Counter()

    def add(self, segment: Mapping[Ngram, int]) -> None:
        """Add one segment's positive counts."""
        for gram, count in segment.items():
            if count > 0:
                self.counts[gram] += count
                self.segments[gram] += 1

    def ranked(self, order: int, top: int) -> tuple[NgramTally, ...]:
        """The ``top`` n-grams by count, then by segments, then alphabetically."""
        best = sorted(self.counts.items(), key=lambda item: (-item[1], -self.segments[item[0]], item[0]))[:top]
        return tuple(NgramTally(order, " ".join(gram), count, self.segments[gram]) for gram, count in best)


def _segment_references(references: Sequence[Sequence[str | None]], options: BleuOptions) -> list[list[list[str]]]:
    """Per segment, the token lists of its references (a missing reference, None, is left out)."""
    streams = [
        tokenize_lines([line or "" for line in stream], options.tokenize, options.lowercase) for stream in references
    ]
    n_segments = len(references[0]) if references else 0
    return [
        [tokens[i] for tokens, raw in zip(streams, references, strict=True) if raw[i] is not None]
        for i in range(n_segments)
    ]


def tallies_from_counts(counts: CorpusNgrams, top: int = 25) -> NgramTallies:
    """Missed and over-generated n-grams from counts already made (no second tokenization or reference count)."""
    order = counts.max_order
    missed = [_Tally() for _ in range(order)]
    over = [_Tally() for _ in range(order)]
    for segment in counts.counts:
        for n, grams in enumerate(segment):
            missed[n].add({g: r - min(r, grams.hypothesis.get(g, 0)) for g, r in grams.reference.items()})
            over[n].add({g: h - min(h, grams.reference.get(g, 0)) for g, h in grams.hypothesis.items()})
    return NgramTallies(
        missed=tuple(missed[n].ranked(n + 1, top) for n in range(order)),
        overgenerated=tuple(over[n].ranked(n + 1, top) for n in range(order)),
    )


def ngram_tallies(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    options: BleuOptions,
    top: int = 25,
    progress: Progress | None = None,
) -> NgramTallies:
    """Missed: reference n-grams beyond what the hypothesis produced (max over references − clipped count).

    Over-generated: hypothesis occurrences clipping removed (hypothesis count − clipped count), including
    n-grams in no reference.  Counts are summed over segments; the corpus is tokenized once and each
    segment's references are counted once for all orders (:func:`bleu_core.stats.corpus_ngrams.count_ngrams`).
    """
    corpus = tokenize_corpus(hypotheses, references, options.tokenize, options.lowercase)
    return tallies_from_counts(count_ngrams(corpus, options.max_order, progress), top)


@dataclass(frozen=True, slots=True)
class NgramContrast:
    """An n-gram whose clipped matches in one system differ from the other systems' average."""

    order: int
    ngram: str
    matches: int  # clipped matches of this system, summed over segments
    others: float  # mean clipped matches of the other systems

    @property
    def difference(self) -> float:
        return self.matches - self.others


def clipped_ngram_matches(
    hypotheses: Sequence[str], segment_refs: Sequence[Sequence[Sequence[str]]], options: BleuOptions
) -> Counter[Ngram]:
    """Clipped matches of every n-gram (orders 1..max_order) of one system, summed over its segments."""
    matched: Counter[Ngram] = Counter()
    for i, tokens in enumerate(tokenize_lines(list(hypotheses), options.tokenize, options.lowercase)):
        for n in range(1, options.max_order + 1):
            clipped = clip_counts(tokens, segment_refs[i], n)
            for gram, kept in zip(clipped.ngrams, clipped.clipped, strict=True):
                if kept:
                    matched[gram] += kept
    return matched


Contrasts = tuple[tuple[NgramContrast, ...], tuple[NgramContrast, ...]]


def _contrasts(name: str, matched: Mapping[str, Counter[Ngram]], top: int) -> Contrasts:
    """System ``name``'s n-grams furthest above, and furthest below, the other systems' mean clipped matches."""
    others = [counts for other, counts in matched.items() if other != name]
    grams = set(matched[name]).union(*others)
    contrasts = [
        NgramContrast(len(g), " ".join(g), matched[name][g], sum(o[g] for o in others) / len(others) if others else 0.0)
        for g in grams
    ]
    return _ranked_contrasts(contrasts, top)


def characteristic_ngrams(
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str | None]],
    options: BleuOptions,
    top: int = 15,
    progress: Progress | None = None,
) -> dict[str, Contrasts]:
    """Per system: the n-grams it matches in the references more often than the others (first tuple),
    and those it matches less often (second tuple).  A match is a clipped count, as in BLEU itself.

    Speed trick and its plain version: every stream is encoded once with one vocabulary and each order's
    clipped matches are counted for all systems at once as integer arrays (:func:`_matches_by_order`); only
    the n-grams that can reach a list become strings.  :func:`plain_characteristic_ngrams` clips with
    Counters, segment by segment; both give the same lists (``tests/core/test_lint_and_ngram_lists.py``).
    Measured gain: ``bench/compare_speed.py``.
    """
    names = list(systems)
    vocab = Vocabulary(options.tokenize)
    hyps = [encode_lines(list(systems[name]), options.tokenize, options.lowercase, vocab) for name in names]
    refs = [
        encode_lines([line or "" for line in stream], options.tokenize, options.lowercase, vocab)
        for stream in references
    ]
    candidates: dict[str, list[NgramContrast]] = {name: [] for name in names}
    for order, text, matched in _matches_by_order(hyps, refs, vocab, options.max_order):
        total = matched.sum(axis=0)
        for s, name in enumerate(names):
            others = (total - matched[s]) / (len(names) - 1) if len(names) > 1 else np.zeros(total.shape[0])
            difference = matched[s] - others
            for at in _extremes(difference, top).tolist():
                candidates[name].append(NgramContrast(order, text(at), int(matched[s, at]), float(others[at])))
        if progress is not None:
            progress(order / options.max_order)
    return {name: _ranked_contrasts(candidates[name], top) for name in names}


def _extremes(difference: FloatArray, top: int) -> IntArray:
    """Indices of the non-zero values at least as large as the ``top``-th largest or as small as the ``top``-th
    smallest (ties included, so that sorting these picks exactly what sorting everything would)."""
    size = difference.shape[0]
    if size > 2 * top:
        ordered = np.partition(difference, (top - 1, size - top))
        chosen = (difference <= ordered[top - 1]) | (difference >= ordered[size - top])
    else:
        chosen = np.ones(size, dtype=bool)
    return np.flatnonzero(chosen & (difference != 0))


def _ranked_contrasts(contrasts: list[NgramContrast], top: int) -> Contrasts:
    """The first ``top`` n-grams above the others and the first ``top`` below (most first; ties: the longer
    n-gram, then alphabetical)."""
    contrasts.sort(key=lambda c: (-c.difference, -c.order, c.ngram))
    more = tuple(c for c in contrasts[:top] if c.difference > 0)
    less = tuple(c for c in reversed(contrasts[-top:]) if c.difference < 0)
    return more, less


def _matches_by_order(
    hyps: Sequence[Encoded], refs: Sequence[Encoded], vocab: Vocabulary, max_order: int
) -> Iterator[tuple[int, Callable[[int], str], IntArray]]:
    """Per order n: n, a function giving n-gram ``g``'s text, and the clipped matches (systems x n-grams)
    summed over segments.  N-gram ids: at order 1 a token's index among the tokens seen; at order n the index
    of the pair (its first n-1 tokens' id, its last token) among the pairs seen, so ids stay exact and small."""
    streams = [*hyps, *refs]
    n_segments = hyps[0].lengths.shape[0] if hyps else 0
    lengths = np.concatenate([enc.lengths for enc in streams])
    if n_segments == 0 or not lengths.any():
        return
    tokens, dense = np.unique(np.concatenate([enc.ids for enc in streams]), return_inverse=True)
    segment, remaining = positions(lengths)
    segment %= n_segments  # lines of stream k are segments 0..n-1 again
    stream = np.repeat(np.arange(len(streams), dtype=np.int64), [enc.ids.shape[0] for enc in streams])
    names = vocab.tokens()
    word = (lambda i: chr(int(tokens[i]))) if vocab.tokenize == "char" else (lambda i: names[int(tokens[i])])
    gram = dense.astype(np.int64)
    n_grams, pairs = tokens.shape[0], []
    for n in range(1, max_order + 1):
        if n > 1:
            start = np.flatnonzero(remaining >= n)
            unique_pairs, gram_at = np.unique(gram[start] * tokens.shape[0] + dense[start + n - 1], return_inverse=True)
            gram = np.full(dense.shape[0], -1, dtype=np.int64)
            gram[start] = gram_at
            pairs.append(unique_pairs)
            n_grams = unique_pairs.shape[0]
        yield n, _namer(list(pairs), tokens.shape[0], word), _clipped(gram, segment, stream, len(hyps), n_grams)


def _clipped(gram: IntArray, segment: IntArray, stream: IntArray, n_hyps: int, n_grams: int) -> IntArray:
    """Clipped matches per system and n-gram (-1: no n-gram starts there): per segment, min(the system's count,
    the most in any one reference), summed over segments."""
    valid = gram >= 0
    code = segment * n_grams + gram
    in_refs = valid & (stream >= n_hyps)
    n_streams = int(stream.max(initial=0)) + 1
    per_stream, counts = np.unique(code[in_refs] * n_streams + stream[in_refs], return_counts=True)
    ref_codes, first = np.unique(per_stream // n_streams, return_index=True)
    ref_max = np.maximum.reduceat(counts, first) if first.shape[0] else counts
    matched = np.zeros((n_hyps, n_grams), dtype=np.int64)
    for s in range(n_hyps):
        codes, mine = np.unique(code[valid & (stream == s)], return_counts=True)
        if not ref_codes.shape[0] or not codes.shape[0]:
            continue
        at = np.minimum(np.searchsorted(ref_codes, codes), ref_codes.shape[0] - 1)
        kept = np.where(ref_codes[at] == codes, np.minimum(mine, ref_max[at]), 0)
        matched[s] = np.bincount(codes % n_grams, weights=kept, minlength=n_grams).astype(np.int64)
    return matched


def _namer(pairs: list[IntArray], n_tokens: int, word: Callable[[int], str]) -> Callable[[int], str]:
    """The text of an n-gram of order ``len(pairs) + 1``: its tokens read back through the pairs, joined by spaces."""

    def text(g: int) -> str:
        words = []
        for unique_pairs in reversed(pairs):
            g, last = divmod(int(unique_pairs[g]), n_tokens)
            words.append(word(last))
        words.append(word(g))
        return " ".join(reversed(words))

    return text


def plain_characteristic_ngrams(
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str | None]],
    options: BleuOptions,
    top: int = 15,
) -> dict[str, Contrasts]:
    """:func:`characteristic_ngrams` one segment and order at a time with the one clipping rule (Counters)."""
    segment_refs = _segment_references(references, options)
    matched = {name: clipped_ngram_matches(hyps, segment_refs, options) for name, hyps in systems.items()}
    return {name: _contrasts(name, matched, top) for name in systems}
