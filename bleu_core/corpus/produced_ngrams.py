"""Over- and under-produced n-grams of a corpus, with a filter and a salience ranking (after compare-mt).

Counts come from :class:`bleu_core.stats.corpus_ngrams.CorpusNgrams` (one tokenization, references counted once)
and follow BLEU's clipping exactly, segment by segment:

- ``clipped`` = Σ_i min(h_i, r_i), the matches BLEU counts (h_i: hypothesis count in segment i;
  r_i: the most times any one reference of segment i holds the n-gram);
- ``missed``  = Σ_i (r_i − min(h_i, r_i)): under-produced occurrences;
- ``over``    = Σ_i (h_i − min(h_i, r_i)): over-produced occurrences (clipped away by BLEU).

Salience (compare-mt's smoothed ratio, α = 1) ranks by ``(R + α) / (R + H + 2α)`` for under-production
and ``(H + α) / (R + H + 2α)`` for over-production, with R = Σ r_i and H = Σ h_i over the corpus.  The
smoothing puts an n-gram missed 50 times above one missed once.
Only n-grams with ``missed > 0`` (``over > 0``) are listed.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal, NamedTuple

from bleu_core.corpus.stopwords import is_punctuation, is_stopword
from bleu_core.stats.corpus_ngrams import CorpusNgrams, Ngram

#: compare-mt's smoothing constant for the ratio.
ALPHA = 1.0
Ranking = Literal["salience", "count"]
RANKINGS: tuple[Ranking, ...] = ("salience", "count")


class NgramStat(NamedTuple):
    """One n-gram summed over the corpus (see the module docstring for the rules).

    A named tuple rather than a frozen dataclass: a corpus has a few hundred thousand of them, and a tuple is
    built several times faster (equally immutable).
    """

    ngram: Ngram
    hypothesis: int  # H = Σ h_i
    reference: int  # R = Σ r_i
    clipped: int
    segments_missed: int  # segments with r_i > h_i
    segments_over: int  # segments with h_i > r_i

    @property
    def order(self) -> int:
        return len(self.ngram)

    @property
    def missed(self) -> int:
        return self.reference - self.clipped

    @property
    def over(self) -> int:
        return self.hypothesis - self.clipped

    def salience(self, under: bool) -> float:
        """compare-mt's smoothed share of this n-gram on the reference side (``under``) or hypothesis side."""
        side = self.reference if under else self.hypothesis
        return (side + ALPHA) / (self.reference + self.hypothesis + 2 * ALPHA)


def _kind(token: str, language: str | None) -> int:
    """A token's class for the filter: 0 a word, 1 punctuation or symbols only, 2 a stop word."""
    if is_punctuation(token):
        return 1
    return 2 if is_stopword(token, language) else 0


@dataclass(frozen=True, slots=True)
class NgramFilter:
    """Which n-grams the lists show: orders from ``min_order``; optionally not all-punctuation, not all stop words."""

    min_order: int = 1
    max_order: int | None = None
    hide_punctuation: bool = True
    hide_stopwords: bool = True
    language: str | None = None  # the stop-word list (bleu_core.corpus.stopwords); None: none

    def keeps(self, ngram: Ngram) -> bool:
        """Whether the lists show ``ngram``."""
        return self.predicate(set(ngram))(ngram)

    def predicate(self, tokens: Iterable[str]) -> Callable[[Ngram], bool]:
        """:meth:`keeps` for n-grams made of ``tokens``, with each token classified once (fast on a corpus)."""
        kinds = {token: _kind(token, self.language) for token in tokens}
        words = frozenset(t for t, k in kinds.items() if k == 0)
        marks = frozenset(t for t, k in kinds.items() if k == 1)
        low, high = self.min_order, self.max_order if self.max_order is not None else 1 << 30

        def keeps(ngram: Ngram) -> bool:
            if not low <= len(ngram) <= high:
                return False
            if self.hide_punctuation and all(map(marks.__contains__, ngram)):
                return False
            return not self.hide_stopwords or any(map(words.__contains__, ngram))

        return keeps


@dataclass(frozen=True, slots=True)
class ProducedLists:
    """The under-produced (missed) and over-produced n-grams shown, best first, and how many were hidden."""

    under: tuple[NgramStat, ...]
    over: tuple[NgramStat, ...]
    hidden_under: int  # n-grams with missed > 0 the filter hid
    hidden_over: int


def ngram_stats(counts: CorpusNgrams) -> tuple[NgramStat, ...]:
    """Every n-gram of the corpus (hypothesis or reference side, all orders), summed with the clipping rule."""
    hyp: Counter[Ngram] = Counter()
    ref: Counter[Ngram] = Counter()
    clipped: dict[Ngram, int] = {}
    seg_missed: dict[Ngram, int] = {}
    seg_over: dict[Ngram, int] = {}
    for segment in counts.counts:
        for order in segment:
            h_counts, r_counts = order.hypothesis, order.reference
            hyp.update(h_counts)
            ref.update(r_counts)
            for gram, h in h_counts.items():
                r = r_counts.get(gram, 0)
                if r:
                    clipped[gram] = clipped.get(gram, 0) + (h if h < r else r)
                if h > r:
                    seg_over[gram] = seg_over.get(gram, 0) + 1
            for gram, r in r_counts.items():
                if r > h_counts.get(gram, 0):
                    seg_missed[gram] = seg_missed.get(gram, 0) + 1
    grams = list(hyp) + [g for g in ref if g not in hyp]  # first seen first; the lists rank them
    return tuple(
        NgramStat(g, hyp.get(g, 0), ref.get(g, 0), clipped.get(g, 0), seg_missed.get(g, 0), seg_over.get(g, 0))
        for g in grams
    )


def _ranked(stats: list[NgramStat], under: bool, rank: Ranking, top: int) -> tuple[NgramStat, ...]:
    def amount(s: NgramStat) -> int:
        return s.missed if under else s.over

    if rank == "salience":
        return tuple(heapq.nsmallest(top, stats, key=lambda s: (-s.salience(under), -amount(s), s.ngram)))
    return tuple(heapq.nsmallest(top, stats, key=lambda s: (-amount(s), -s.salience(under), s.ngram)))


def produced_lists(
    stats: tuple[NgramStat, ...], keep: NgramFilter | None = None, rank: Ranking = "salience", top: int = 25
) -> ProducedLists:
    """The ``top`` under- and over-produced n-grams that pass ``keep``, ranked by salience or by count."""
    if rank not in RANKINGS:
        raise ValueError(f"rank must be one of {', '.join(RANKINGS)}; got {rank!r}")
    if top < 1:
        raise ValueError(f"top must be at least 1; got {top}")
    keep = keep or NgramFilter(hide_punctuation=False, hide_stopwords=False)
    shown_under: list[NgramStat] = []
    shown_over: list[NgramStat] = []
    hidden_under = hidden_over = 0
    keeps = keep.predicate(stat.ngram[0] for stat in stats if len(stat.ngram) == 1)  # every token is a unigram
    for stat in stats:
        missed, over = stat.reference > stat.clipped, stat.hypothesis > stat.clipped
        if not (missed or over):
            continue
        if keeps(stat.ngram):
            if missed:
                shown_under.append(stat)
            if over:
                shown_over.append(stat)
        else:
            hidden_under += missed
            hidden_over += over
    return ProducedLists(
        _ranked(shown_under, True, rank, top), _ranked(shown_over, False, rank, top), hidden_under, hidden_over
    )
