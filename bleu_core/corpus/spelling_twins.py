"""Words the system writes with another character than the references: ``don't`` against ``don’t``.

BLEU compares characters exactly, so a system that writes a straight apostrophe where the references write a
curly one (or "-" for "–", a full-width comma for ",") loses every such match: the word shows
up twice, once as under-produced and once as over-produced.  :func:`spelling_twins` pairs those up.

A pair is an under-produced unigram (missed > 0) and an over-produced one (over > 0) that become the same word
once the character classes below are folded.  ``kind`` names the one fold that makes them equal, or
``"several"`` when one fold alone does not.  ``lost`` = min(missed of the reference form, over of the system
form): at most that many unigram matches could come back if the two were written alike (per segment the
clipping may keep fewer).  Unigrams only: the longer n-grams holding such a word are consequences.  Letter case
is not folded: "The" against "the" is usually a real difference of one sentence, not of a whole system's
spelling.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import pairwise
from typing import Literal, NamedTuple

import numpy as np

from bleu_core.api import BleuResult, result_from_statistics
from bleu_core.corpus.produced_ngrams import NgramStat
from bleu_core.options import BleuOptions
from bleu_core.stats.corpus_ngrams import TokenizedCorpus, Tokens
from bleu_core.stats.segment_stats import SegmentStats
from bleu_core.stats.token_lists import token_list_statistics

Kind = Literal["apostrophe", "quote", "dash", "width", "several"]

_APOSTROPHES = str.maketrans(dict.fromkeys("’‘ʼʹ`´′‛", "'"))
_QUOTES = str.maketrans(dict.fromkeys("“”„‟«»″〝〞＂", '"'))
_DASHES = str.maketrans(dict.fromkeys("‐‑‒–—―−﹣－", "-"))

#: The single folds, in the order a pair's ``kind`` is looked for.
FOLDS: tuple[tuple[Kind, Callable[[str], str]], ...] = (
    ("apostrophe", lambda word: word.translate(_APOSTROPHES)),
    ("quote", lambda word: word.translate(_QUOTES)),
    ("dash", lambda word: word.translate(_DASHES)),
    ("width", lambda word: unicodedata.normalize("NFKC", word)),
)


def fold(word: str) -> str:
    """``word`` with every fold applied (NFKC first, so that full-width quotes and dashes fold too)."""
    folded = unicodedata.normalize("NFKC", word)
    return folded.translate(_APOSTROPHES).translate(_QUOTES).translate(_DASHES)


class Twin(NamedTuple):
    """One word written two ways: as the references write it and as the system writes it."""

    reference: str
    hypothesis: str
    kind: Kind
    lost: int  # at most this many unigram matches lost (see the module docstring)
    missed: int  # the reference form's under-produced occurrences
    over: int  # the system form's over-produced occurrences

    @property
    def characters(self) -> tuple[tuple[str, str], ...]:
        """The characters that differ, (reference's, system's), each pair once; empty when the lengths differ."""
        if len(self.reference) != len(self.hypothesis):
            return ()
        pairs = ((r, h) for r, h in zip(self.reference, self.hypothesis, strict=True) if r != h)
        return tuple(dict.fromkeys(pairs))


def _kind(reference: str, hypothesis: str) -> Kind:
    for kind, one in FOLDS:
        if one(reference) == one(hypothesis):
            return kind
    return "several"


def spelling_twins(stats: Iterable[NgramStat], top: int | None = None) -> tuple[Twin, ...]:
    """The words written differently (the first ``top``), most matches at stake first (ties: the reference form)."""
    under: dict[str, list[NgramStat]] = {}
    over: dict[str, list[NgramStat]] = {}
    for stat in stats:
        if len(stat.ngram) != 1:
            continue
        if stat.missed > 0:
            under.setdefault(fold(stat.ngram[0]), []).append(stat)
        if stat.over > 0:
            over.setdefault(fold(stat.ngram[0]), []).append(stat)
    twins = [
        Twin(u.ngram[0], o.ngram[0], _kind(u.ngram[0], o.ngram[0]), min(u.missed, o.over), u.missed, o.over)
        for key, forms in under.items()
        for u in forms
        for o in over.get(key, ())
        if u.ngram != o.ngram
    ]
    twins.sort(key=lambda twin: (-twin.lost, twin.reference, twin.hypothesis))
    return tuple(twins[:top])


def matches_at_stake(twins: Iterable[Twin]) -> int:
    """At most how many unigram matches the differently written words lose, all together: per folded word,
    min(its reference forms' missed occurrences, its system forms' over-produced ones), summed."""
    missed: dict[str, dict[str, int]] = {}
    over: dict[str, dict[str, int]] = {}
    for twin in twins:
        key = fold(twin.reference)
        missed.setdefault(key, {})[twin.reference] = twin.missed
        over.setdefault(key, {})[twin.hypothesis] = twin.over
    return sum(min(sum(missed[key].values()), sum(over[key].values())) for key in missed)


def respelled(corpus: TokenizedCorpus, twins: Iterable[Twin]) -> tuple[Tokens, ...]:
    """The hypotheses' tokens with the twins' words written as each segment's references write them.

    In a segment, the occurrences of a system form that one reference holds (as many as the reference holding
    the most) stay: they match as written.  Each further occurrence becomes a reference form of the same word
    that the segment's references hold more of than the hypothesis; of several, the one a reference writes
    beside the same neighbours (an opening „ before the word it opens), else the one most at stake (``twins``
    come in that order).  With none, it stays too.  So no unigram match is lost, and a form the references use
    in one segment is not forced on another.  Lengths do not change: one token for one token.
    """
    forms: dict[str, list[str]] = {}
    for twin in twins:
        forms.setdefault(twin.hypothesis, []).append(twin.reference)
    out: list[Tokens] = []
    for index, tokens in enumerate(corpus.hypotheses):
        if forms.keys().isdisjoint(tokens):
            out.append(tokens)
            continue
        out.append(_respelled_segment(tokens, corpus.present_references(index), forms))
    return tuple(out)


def _respelled_segment(tokens: Tokens, references: Sequence[Tokens], forms: Mapping[str, list[str]]) -> Tokens:
    held: Counter[str] = Counter()  # per token, the most any one reference holds (BLEU's clip)
    pairs: set[tuple[str, str]] = set()
    for reference in references:
        held |= Counter(reference)
        pairs.update(pairwise(reference))
    written = Counter(tokens)
    room = {form: held[form] - written[form] for options in forms.values() for form in options}
    kept = {form: held[form] for form in forms}
    new: list[str] = []
    for at, token in enumerate(tokens):
        if token not in forms:
            new.append(token)
        elif kept[token] > 0:
            kept[token] -= 1
            new.append(token)
        elif free := [form for form in forms[token] if room[form] > 0]:
            before, after = new[-1] if new else None, tokens[at + 1] if at + 1 < len(tokens) else None
            form = max(free, key=lambda form: ((before, form) in pairs) + ((form, after) in pairs))
            room[form] -= 1
            new.append(form)
        else:
            new.append(token)
    return tuple(new)


def bleu_if_spelled_alike(
    corpus: TokenizedCorpus, stats: SegmentStats, twins: Iterable[Twin], options: BleuOptions
) -> BleuResult:
    """Corpus BLEU had the system written the twins' words as the references do (:func:`respelled`).

    ``stats`` are the corpus's segment statistics; only the rows of segments whose tokens change are counted
    again (lengths stay, so totals and reference lengths stay too).
    """
    hypotheses = respelled(corpus, twins)
    changed = [i for i, (new, old) in enumerate(zip(hypotheses, corpus.hypotheses, strict=True)) if new != old]
    changed = [i for i in changed if corpus.present_references(i)]  # no reference: nothing matches either way
    matches = stats.matches.copy()
    if changed:
        counted = token_list_statistics(
            [hypotheses[i] for i in changed], [corpus.present_references(i) for i in changed], stats.max_order
        )
        matches[np.asarray(changed)] = counted.matches
    n_refs = max((len(refs) for refs in corpus.references), default=1)
    return result_from_statistics(SegmentStats(matches, stats.totals, stats.hyp_len, stats.ref_len), options, n_refs)
