"""N-gram lists of a corpus: which n-grams a system misses, over-generates, or matches more than other systems.

Every count here comes from the one clipping rule, :func:`bleu_core.clipping.clip_counts` (with
:func:`bleu_core.clipping.max_reference_counts` for the reference side), applied segment by segment and
summed over the corpus, so a "match" is exactly what BLEU's numerator counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .clipping import clip_counts
from .corpus_ngrams import CorpusNgrams, count_ngrams, tokenize_corpus
from .options import BleuOptions
from .progress import Progress
from .tokenizers import tokenize_lines

Ngram = tuple[str, ...]


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
    segment's references are counted once for all orders (:func:`bleu_core.corpus_ngrams.count_ngrams`).
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
    contrasts.sort(key=lambda c: (-c.difference, -c.order, c.ngram))
    more = tuple(c for c in contrasts[:top] if c.difference > 0)
    less = tuple(c for c in reversed(contrasts[-top:]) if c.difference < 0)
    return more, less


def characteristic_ngrams(
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str | None]],
    options: BleuOptions,
    top: int = 15,
    progress: Progress | None = None,
) -> dict[str, Contrasts]:
    """Per system: the n-grams it matches in the references more often than the others (first tuple),
    and those it matches less often (second tuple).  A match is a clipped count, as in BLEU itself."""
    names = list(systems)
    segment_refs = _segment_references(references, options)
    matched: dict[str, Counter[Ngram]] = {}
    for done, name in enumerate(names):
        matched[name] = clipped_ngram_matches(systems[name], segment_refs, options)
        if progress is not None:
            progress((done + 1) / len(names))
    return {name: _contrasts(name, matched, top) for name in names}
