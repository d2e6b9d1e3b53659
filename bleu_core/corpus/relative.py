"""Relative diagnosis: which term of BLEU is unusual for this system, not which one is always lowest.

With equal weights, log p_N is the most negative term for nearly every system, so "p4 costs the most" says
little.  This module judges each term against what is typical:

- **against other systems** on the same test set (when given): the other systems' median, lowest and highest
  p_n, BP and c/r; a term outside the others' range is unusual, and ``bleu_if_typical`` is the BLEU this
  system would get with that one term at the others' median;
- **against its own decay**: the ratios p_{n+1}/p_n.  On all 78 WMT22 systems of the eight language pairs we
  measured (13a/zh/char as WMT used them), each ratio was larger than the one before (p2/p1 < p3/p2 <
  p4/p3): once words match, longer matches get likelier.  A ratio that falls instead (by more than
  :data:`DECAY_TOLERANCE`) marks the order where longer matches break off, and ``bleu_if_typical`` continues
  the previous ratio;
- **length**: c/r below 1 costs BP; above :data:`LONG_RATIO` (the WMT22 systems stayed within 0.91-1.04) the
  extra words lower every p_n instead.

Results are codes and numbers (:class:`Finding`); the pages turn them into sentences.  Every figure is
computed from summed statistics with the one scorer's terms (:class:`bleu_core.corpus.diagnosis.Term`).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping
from dataclasses import dataclass, replace
from itertools import pairwise

from bleu_core.api import BleuResult
from bleu_core.corpus.diagnosis import CorpusAnalysis

#: c/r above this is long for a translation system (WMT22's 78 systems: 0.91 to 1.04).
LONG_RATIO = 1.05
#: A ratio p_{n+1}/p_n must fall by more than this below the one before to count as a break: on the WMT22
#: systems each ratio exceeded the one before by at least about 0.008, so a smaller dip is noise of a small corpus.
DECAY_TOLERANCE = 0.01

# Finding codes (the pages hold one message per code).
BELOW_OTHERS = "below_others"  # a p_n (or BP) lower than every other system's
ABOVE_OTHERS = "above_others"  # higher than every other system's
LOWEST_GAP = "largest_gap"  # the term whose gap to the others' median costs the most BLEU
DECAY_BREAKS = "decay_breaks"  # p_{n+1}/p_n smaller than p_n/p_{n-1}
DECAY_REGULAR = "decay_regular"  # every ratio larger than the one before (the usual pattern)
COSTLIEST_EXPECTED = "costliest_expected"  # the largest order costs the most, as for nearly every system
COSTLIEST_UNUSUAL = "costliest_unusual"  # another term costs the most
SHORT = "short"  # c < r: BP < 1
LONG = "long"  # c/r > LONG_RATIO
ZERO_ORDER = "zero_order"  # p_n = 0: BLEU is 0 without smoothing
BELOW_OTHERS_SEVERAL = "below_others_several"  # several terms lower than every other system's, in one finding
SPELLING = "spelling"  # words written with other characters than the references (value: matches at stake)
CODES = (
    BELOW_OTHERS,
    BELOW_OTHERS_SEVERAL,
    SPELLING,
    ABOVE_OTHERS,
    LOWEST_GAP,
    DECAY_BREAKS,
    DECAY_REGULAR,
    COSTLIEST_EXPECTED,
    COSTLIEST_UNUSUAL,
    SHORT,
    LONG,
    ZERO_ORDER,
)


@dataclass(frozen=True, slots=True)
class TermComparison:
    """One term (p_n, BP or c/r) of this system beside the other systems' values."""

    term: str  # "p1".."pN", "BP", "c/r"
    value: float
    median: float | None  # of the other systems (None without others)
    low: float | None
    high: float | None
    rank: int | None  # 1 = best among all systems (highest p_n / BP; c/r closest to 1)
    systems: int  # systems ranked, this one included
    bleu_if_median: float | None  # 0-1: BLEU with this term at the others' median (p_n and BP only)
    bleu_if_perfect: float | None  # 0-1: BLEU with this term perfect (p_n = 1, BP = 1)


@dataclass(frozen=True, slots=True)
class Finding:
    """One observation: a code, the term it is about, and its numbers (``typical`` and BLEU figures may be None)."""

    code: str
    term: str
    value: float
    typical: float | None = None
    bleu_if_typical: float | None = None  # 0-1
    bleu_if_perfect: float | None = None  # 0-1
    cost: float | None = None  # 0-1: what BLEU would gain were this fixed (None: nothing to fix, only a fact)


@dataclass(frozen=True, slots=True)
class RelativeDiagnosis:
    """Findings, most telling first, and the term-by-term comparison with other systems."""

    findings: tuple[Finding, ...]
    comparisons: tuple[TermComparison, ...]
    decay: tuple[float | None, ...]  # p_{n+1}/p_n for n = 1..N-1 (None where p_n = 0)
    others: int


def raw_precisions(result: BleuResult) -> tuple[float, ...]:
    """p_n = matches / totals before smoothing (0 for an order without n-grams)."""
    return tuple(m / t if t else 0.0 for m, t in zip(result.counts, result.totals, strict=True))


def decay_ratios(precisions: tuple[float, ...]) -> tuple[float | None, ...]:
    """p_{n+1}/p_n for each n (None where p_n = 0)."""
    return tuple(precisions[n + 1] / precisions[n] if precisions[n] > 0 else None for n in range(len(precisions) - 1))


def _with_terms(analysis: CorpusAnalysis, values: Mapping[str, float]) -> float:
    """BLEU (0-1) with some terms' factors replaced: p_n -> ``values[p_n]`` (weighted), BP -> ``values["BP"]``."""
    logs = {t.name: t for t in analysis.terms}
    values = {term: value for term, value in values.items() if term in logs}
    if not values:
        return analysis.result.score
    if any(value <= 0 for value in values.values()):
        return 0.0
    rest = sum(t.value for t in analysis.terms if t.name not in values)
    if not math.isfinite(rest):
        return 0.0
    return math.exp(rest + sum(logs[term].weight * math.log(value) for term, value in values.items()))


def _with_term(analysis: CorpusAnalysis, term: str, value: float) -> float:
    """BLEU (0-1) with one term's factor replaced (see :func:`_with_terms`)."""
    return _with_terms(analysis, {term: value})


def _rank(value: float, others: list[float], better: str) -> int:
    if better == "closest_to_1":
        return 1 + sum(abs(o - 1.0) < abs(value - 1.0) for o in others)
    return 1 + sum(o > value for o in others)


def _comparisons(analysis: CorpusAnalysis, others: Mapping[str, BleuResult]) -> tuple[TermComparison, ...]:
    result = analysis.result
    mine = raw_precisions(result)
    theirs = [raw_precisions(o) for o in others.values()]
    perfect = {t.name: t.bleu_if_perfect for t in analysis.terms}
    rows = []
    values: list[tuple[str, float, list[float], str]] = [
        (f"p{n + 1}", mine[n], [p[n] for p in theirs if len(p) > n], "highest") for n in range(len(mine))
    ]
    values.append(("BP", result.bp, [o.bp for o in others.values()], "highest"))
    values.append(("c/r", result.ratio, [o.ratio for o in others.values()], "closest_to_1"))
    for term, value, other, better in values:
        median = statistics.median(other) if other else None
        rows.append(
            TermComparison(
                term=term,
                value=value,
                median=median,
                low=min(other) if other else None,
                high=max(other) if other else None,
                rank=_rank(value, other, better) if other else None,
                systems=len(other) + 1,
                bleu_if_median=_with_term(analysis, term, median) if median is not None and term != "c/r" else None,
                bleu_if_perfect=perfect.get(term),
            )
        )
    return tuple(rows)


def _against_others(analysis: CorpusAnalysis, comparisons: tuple[TermComparison, ...]) -> list[Finding]:
    findings = []
    score = analysis.result.score
    gaps = []
    for c in comparisons:
        if c.median is None or c.low is None or c.high is None or c.term == "c/r":
            continue
        if c.value < c.low:
            findings.append(Finding(BELOW_OTHERS, c.term, c.value, c.median, c.bleu_if_median, c.bleu_if_perfect))
        elif c.value > c.high:
            findings.append(Finding(ABOVE_OTHERS, c.term, c.value, c.median, c.bleu_if_median, c.bleu_if_perfect))
        if c.bleu_if_median is not None and c.bleu_if_median > score:
            gaps.append(c)
    below = [f for f in findings if f.code == BELOW_OTHERS]
    if len(below) > 1:  # one line for every term below all others, with BLEU at all their medians at once
        medians = {f.term: f.typical for f in below if f.typical is not None}
        several = Finding(
            BELOW_OTHERS_SEVERAL,
            term_span([f.term for f in below]),
            float(comparisons[0].systems - 1),
            None,
            _with_terms(analysis, medians),
        )
        findings = [several, *(f for f in findings if f.code != BELOW_OTHERS)]
    if gaps:
        worst = max(gaps, key=lambda c: c.bleu_if_median or 0.0)
        findings = [f for f in findings if not (f.code == BELOW_OTHERS and f.term == worst.term)]  # said below
        findings.insert(
            0, Finding(LOWEST_GAP, worst.term, worst.value, worst.median, worst.bleu_if_median, worst.bleu_if_perfect)
        )
    return findings


def term_span(terms: list[str]) -> str:
    """Terms named together: consecutive orders as a range ("p1–p4"), then the rest ("p1–p3, BP")."""
    orders = [int(term[1:]) for term in terms if term[:1] == "p" and term[1:].isdigit()]
    rest = [term for term in terms if not (term[:1] == "p" and term[1:].isdigit())]
    runs: list[str] = []
    for order in sorted(orders):
        if runs and runs[-1].split("–")[-1] == f"p{order - 1}":
            runs[-1] = f"{runs[-1].split('–')[0]}–p{order}"
        else:
            runs.append(f"p{order}")
    return ", ".join(runs + rest)


def _decay(analysis: CorpusAnalysis, precisions: tuple[float, ...], ratios: tuple[float | None, ...]) -> list[Finding]:
    breaks = []
    for n in range(1, len(ratios)):
        before, after = ratios[n - 1], ratios[n]
        if before is None or after is None or after >= before - DECAY_TOLERANCE:
            continue
        # Order n + 2 had the ratio p_{n+2}/p_{n+1} stayed at p_{n+1}/p_n: p_{n+2} = p_{n+1} · (p_{n+1}/p_n).
        term = f"p{n + 2}"
        typical = precisions[n] * before
        breaks.append(Finding(DECAY_BREAKS, term, after, before, _with_term(analysis, term, typical)))
    known = [r for r in ratios if r is not None]
    rising = len(known) == len(ratios) > 1 and all(a < b for a, b in pairwise(known))
    if rising:
        return [Finding(DECAY_REGULAR, f"p{len(precisions)}", known[-1], None)]
    return breaks  # a dip within the tolerance is neither a break nor the usual rise: nothing to say


def _length(analysis: CorpusAnalysis) -> list[Finding]:
    result = analysis.result
    perfect = {t.name: t.bleu_if_perfect for t in analysis.terms}
    if result.ref_len and result.sys_len < result.ref_len:
        return [Finding(SHORT, "BP", result.ratio, 1.0, perfect.get("BP"), perfect.get("BP"))]
    if result.ratio > LONG_RATIO:
        return [Finding(LONG, "c/r", result.ratio, 1.0)]
    return []


def _costliest(analysis: CorpusAnalysis) -> list[Finding]:
    """Which term costs the most, and whether that is the usual one; nothing when it is BP (:data:`SHORT` says it)."""
    worst = analysis.costliest
    if worst.name == "BP":
        return []
    value = analysis.result.bp if worst.name == "BP" else raw_precisions(analysis.result)[int(worst.name[1:]) - 1]
    largest = f"p{max(int(t.name[1:]) for t in analysis.terms if t.name != 'BP')}"
    code = COSTLIEST_EXPECTED if worst.name == largest else COSTLIEST_UNUSUAL
    return [Finding(code, worst.name, value, None, None, worst.bleu_if_perfect)]


def relative_diagnosis(
    analysis: CorpusAnalysis,
    others: Mapping[str, BleuResult] | None = None,
    respelled: BleuResult | None = None,
    at_stake: int = 0,
) -> RelativeDiagnosis:
    """Judge each term against the other systems (if any), the decay of p_n, and length; costliest first.

    ``others`` must be scored on the same test set with the same options (they are compared as numbers).
    ``respelled`` is the corpus scored with the words written two ways spelled as the references spell them
    (:func:`bleu_core.corpus.spelling_twins.bleu_if_spelled_alike`), ``at_stake`` the unigram matches at stake.
    """
    others = dict(others or {})
    for name, other in others.items():
        if other.options.for_counting() != analysis.result.options.for_counting():
            raise ValueError(f"system {name!r} was scored with other settings; score every system with the same ones")
    precisions = raw_precisions(analysis.result)
    ratios = decay_ratios(precisions)
    zeros = [
        Finding(ZERO_ORDER, f"p{n + 1}", 0.0) for n, p in enumerate(precisions) if p == 0 and analysis.result.totals[n]
    ]
    comparisons = _comparisons(analysis, others)
    # (a respelling that would not raise the score says nothing about what the spelling costs)
    spelling = (
        [Finding(SPELLING, "spelling", float(at_stake), None, respelled.score)]
        if respelled is not None and respelled.score > analysis.result.score
        else []
    )
    findings = [
        *_against_others(analysis, comparisons),
        *_length(analysis),
        *_decay(analysis, precisions, ratios),
        *spelling,
    ]
    return RelativeDiagnosis(
        (*zeros, *costliest_first(findings, analysis.result.score), *_costliest(analysis)),
        comparisons if others else (),
        ratios,
        len(others),
    )


def _cost(finding: Finding, score: float) -> float | None:
    """What fixing the finding would add to BLEU (0-1): up to its typical value, or to perfect for a short output."""
    target = finding.bleu_if_perfect if finding.code == SHORT else finding.bleu_if_typical
    if target is None or finding.code == ABOVE_OTHERS:
        return None
    return max(target - score, 0.0)


def costliest_first(findings: list[Finding], score: float) -> list[Finding]:
    """The findings with their cost, those that cost BLEU first (most first), then the facts in their order."""
    costed = [replace(f, cost=_cost(f, score)) for f in findings]
    losses = sorted((f for f in costed if f.cost), key=lambda f: -(f.cost or 0.0))
    return losses + [f for f in costed if not f.cost]
