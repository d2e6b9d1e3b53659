"""Over- and under-produced n-grams of a corpus, with a filter and a salience ranking (after compare-mt).

Counts come from :class:`bleu_core.corpus_ngrams.CorpusNgrams` (one tokenization, references counted once)
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

from collections import Counter
from dataclasses import dataclass
from typing import Literal

from .corpus_ngrams import CorpusNgrams, Ngram
from .stopwords import is_punctuation, is_stopword

#: compare-mt's smoothing constant for the ratio.
ALPHA = 1.0
Ranking = Literal["salience", "count"]
RANKINGS: tuple[Ranking, ...] = ("salience", "count")


@dataclass(frozen=True, slots=True)
class NgramStat:
    """One n-gram summed over the corpus (see the module docstring for the rules)."""

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


@dataclass(frozen=True, slots=True)
class NgramFilter:
    """Which n-grams the lists show: orders from ``min_order``; optionally not all-punctuation, not all stop words."""

    min_order: int = 1
    max_order: int | None = None
    hide_punctuation: bool = True
    hide_stopwords: bool = True
    language: str | None = None  # the stop-word list (bleu_core.stopwords); None: none

    def keeps(self, ngram: Ngram) -> bool:
        n = len(ngram)
        if n < self.min_order or (self.max_order is not None and n > self.max_order):
            return False
        if self.hide_punctuation and all(is_punctuation(t) for t in ngram):
            return False
        return not (self.hide_stopwords and all(is_stopword(t, self.language) or is_punctuation(t) for t in ngram))


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
    clipped: Counter[Ngram] = Counter()
    seg_missed: Counter[Ngram] = Counter()
    seg_over: Counter[Ngram] = Counter()
    for segment in counts.counts:
        for order in segment:
            hyp.update(order.hypothesis)
            ref.update(order.reference)
            for gram in order.hypothesis.keys() | order.reference.keys():
                h, r = order.hypothesis.get(gram, 0), order.reference.get(gram, 0)
                clipped[gram] += min(h, r)
                if r > h:
                    seg_missed[gram] += 1
                elif h > r:
                    seg_over[gram] += 1
    grams = hyp.keys() | ref.keys()
    return tuple(
        NgramStat(g, hyp[g], ref[g], clipped[g], seg_missed[g], seg_over[g]) for g in sorted(grams, key=_sort_key)
    )


def _sort_key(gram: Ngram) -> tuple[int, Ngram]:
    return len(gram), gram


def _ranked(stats: list[NgramStat], under: bool, rank: Ranking, top: int) -> tuple[NgramStat, ...]:
    def amount(s: NgramStat) -> int:
        return s.missed if under else s.over

    if rank == "salience":
        stats.sort(key=lambda s: (-s.salience(under), -amount(s), s.ngram))
    else:
        stats.sort(key=lambda s: (-amount(s), -s.salience(under), s.ngram))
    return tuple(stats[:top])


def produced_lists(
    stats: tuple[NgramStat, ...], keep: NgramFilter | None = None, rank: Ranking = "salience", top: int = 25
) -> ProducedLists:
    """The ``top`` under- and over-produced n-grams that pass ``keep``, ranked by salience or by count."""
    if rank not in RANKINGS:
        raise ValueError(f"rank must be one of {', '.join(RANKINGS)}; got {rank!r}")
    if top < 1:
        raise ValueError(f"top must be at least 1; got {top}")
    keep = keep or NgramFilter(hide_punctuation=False, hide_stopwords=False)
    under = [s for s in stats if s.missed > 0]
    over = [s for s in stats if s.over > 0]
    shown_under = [s for s in under if keep.keeps(s.ngram)]
    shown_over = [s for s in over if keep.keeps(s.ngram)]
    return ProducedLists(
        _ranked(shown_under, True, rank, top),
        _ranked(shown_over, False, rank, top),
        len(under) - len(shown_under),
        len(over) - len(shown_over),
    )
