"""Why two BLEU tools disagree, step by step, and what common write-up mistakes cost, in numbers.

:func:`trace_implementation` follows one tool of :data:`bleu_core.compat.IMPLEMENTATIONS`
through the steps every BLEU shares (tokens, clipped counts, reference length r,
brevity penalty, the precision that enters the log, weights, the rule that decides
the final number) and keeps every intermediate with a phrase saying how the tool got
it.  :func:`compare_traces` lines two such traces up and names the first step where
the numbers part ways; :func:`common_mistakes` recomputes sacreBLEU's sentence score
with one step done wrong at a time.  Every sentence is built from the numbers of the
input, not written per example.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .compat import (
    _PERL_LOG_ZERO,
    IMPLEMENTATIONS,
    Implementation,
    _clipped,
    check_sentence_input,
)
from .explain import Explanation, choose_reference_length, explain
from .scoring import score_statistics
from .statistics import SegmentStats
from .tokenizers import tokenize_line

__all__ = [
    "STEP_SETTINGS",
    "Divergence",
    "ImplementationTrace",
    "MistakeCheck",
    "OrderStep",
    "Step",
    "common_mistakes",
    "compare_traces",
    "pretokenize",
    "trace_implementation",
    "trace_implementations",
]

WHITESPACE = "whitespace"
_TOKENIZER_NAMES = {"13a": "13a", WHITESPACE: "whitespace split"}


# ---------------------------------------------------------------------------
# Traces
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OrderStep:
    """One n-gram order as one tool uses it."""

    order: int
    matches: int
    total: int  # the denominator the tool divides by (NLTK: at least 1)
    precision: float  # the p_n that enters the log; 0.0 when the tool keeps a zero
    weight: float  # the weight this order gets (0 when the tool leaves it out)
    note: str  # how the tool got ``precision`` from matches/total, as a verb phrase ("uses 3/8 = 0.375")

    @property
    def fraction(self) -> str:
        return f"{self.matches}/{self.total}"


@dataclass(frozen=True, slots=True)
class ImplementationTrace:
    """Every intermediate of one tool's sentence BLEU."""

    implementation: Implementation
    tokenizer: str  # "13a" or "whitespace"
    candidate_tokens: tuple[str, ...]
    reference_tokens: tuple[tuple[str, ...], ...]
    orders: tuple[OrderStep, ...]
    candidate_length: int
    reference_length: int
    length_note: str  # how r was chosen
    bp: float
    rule: str  # the rule that decided the score when it is not BP·exp(Σ w·log p); "" otherwise
    score: float  # in [0, 1]; NaN where the tool has no score or fails

    @property
    def native_score(self) -> float:
        """The score on the tool's own scale."""
        return 100 * self.score if self.implementation.scale == "0-100" else self.score

    @property
    def final_rule(self) -> str:
        return self.rule or "BLEU = BP·exp(Σ w_n·log p_n)"


def number(value: float) -> str:
    """A precision or score for a sentence: 4 significant digits, 2 for the tiny ones (2.2e-308)."""
    if math.isnan(value):
        return "NaN"
    if value != 0 and abs(value) < 1e-4:
        return f"{value:.2g}"
    return f"{value:.4g}"


def _length_note(rule: str, candidate_length: int, lengths: Sequence[int], chosen: int) -> str:
    listed = ", ".join(str(length) for length in lengths)
    if len(lengths) == 1:
        return f"r = {chosen}, the only reference's length"
    if rule == "shortest":
        return f"r = {chosen}, the shortest of the reference lengths {listed}"
    ties = "the first listed" if rule == "closest, ties first" else "the shorter"
    tied = sorted({length for length in lengths if abs(length - candidate_length) == abs(chosen - candidate_length)})
    if len(tied) > 1:
        return (
            f"r = {chosen}: lengths {' and '.join(map(str, tied))} are equally close to c = {candidate_length}, "
            f"the tie goes to {ties}"
        )
    return f"r = {chosen}, the reference length closest to c = {candidate_length} (of {listed})"


def _closest_first(candidate_length: int, lengths: Sequence[int]) -> int:
    diffs = [abs(candidate_length - length) for length in lengths]
    return lengths[diffs.index(min(diffs))]


def _bp(candidate_length: int, reference_length: int) -> float:
    """exp(1 - r/c) for c < r, 1 otherwise, 0 for an empty candidate (as sacreBLEU and NLTK)."""
    if candidate_length >= reference_length:
        return 1.0
    if candidate_length == 0:
        return 0.0
    return math.exp(1 - reference_length / candidate_length)


def _combine(bp: float, orders: Sequence[OrderStep]) -> float:
    return bp * math.exp(math.fsum(o.weight * math.log(o.precision) for o in orders if o.weight > 0))


def _plain(m: int, t: int) -> str:
    return f"uses {m}/{t} = {number(m / t)}"


def _counts(candidate: Sequence[str], references: Sequence[Sequence[str]], max_order: int) -> list[tuple[int, int]]:
    return [_clipped(candidate, references, n) for n in range(1, max_order + 1)]


def _trace_sacrebleu(implementation: Implementation, candidate: str, references: Sequence[str]) -> ImplementationTrace:
    trace = explain(candidate, references)  # sacreBLEU's sentence defaults: 13a, exp smoothing, effective order
    orders = []
    zeros = 0
    for o in trace.orders:
        if o.total == 0 or o.weight == 0:
            note = f"leaves the order out: the candidate has no {o.order}-grams (effective order)"
        elif o.matches == 0:
            zeros += 1
            note = f"uses 1/({2**zeros}·{o.total}) = {number(o.precision)} (exp smoothing)"
        else:
            note = _plain(o.matches, o.total)
        orders.append(OrderStep(o.order, o.matches, o.total, o.precision, o.weight, note))
    c, r = trace.length.candidate_length, trace.length.chosen_length
    return ImplementationTrace(
        implementation=implementation,
        tokenizer="13a",
        candidate_tokens=trace.candidate_tokens,
        reference_tokens=trace.reference_tokens,
        orders=tuple(orders),
        candidate_length=c,
        reference_length=r,
        length_note=_length_note(implementation.ref_length_rule, c, trace.length.reference_lengths, r),
        bp=trace.bp,
        rule="no unigram match: 0" if trace.no_unigram_match else "",
        score=trace.score,
    )


def _trace_nltk(
    implementation: Implementation, candidate: str, references: Sequence[str], variant: str
) -> ImplementationTrace:
    """NLTK 3.10 method0 / method1, or NLTK 3.2 (``variant`` "method0", "method1", "legacy")."""
    cand = candidate.split()
    refs = [ref.split() for ref in references]
    orders = []
    for n, (m, t) in enumerate(_counts(cand, refs, 4), start=1):
        d = max(1, t)
        floor = "" if t else f" (there are no {n}-grams; NLTK divides by at least 1)"
        if m:
            orders.append(OrderStep(n, m, d, float(Fraction(m, d)), 0.25, _plain(m, d) + floor))
        elif variant == "method0":
            note = f"substitutes {number(sys.float_info.min)} (sys.float_info.min){floor}"
            orders.append(OrderStep(n, m, d, sys.float_info.min, 0.25, note))
        elif variant == "method1":
            note = f"uses 0.1/{d} = {number(0.1 / d)} (method1, epsilon = 0.1){floor}"
            orders.append(OrderStep(n, m, d, 0.1 / d, 0.25, note))
        else:
            note = f"leaves it out of the sum, weight and all{floor}"
            orders.append(OrderStep(n, m, d, 0.0, 0.0, note))
    c = len(cand)
    lengths = [len(r) for r in refs]
    r = choose_reference_length(c, lengths).chosen_length
    bp = _bp(c, r)
    no_unigram = orders[0].matches == 0
    return ImplementationTrace(
        implementation=implementation,
        tokenizer=WHITESPACE,
        candidate_tokens=tuple(cand),
        reference_tokens=tuple(tuple(ref) for ref in refs),
        orders=tuple(orders),
        candidate_length=c,
        reference_length=r,
        length_note=_length_note(implementation.ref_length_rule, c, lengths, r),
        bp=bp,
        rule="no unigram match: 0" if no_unigram else "",
        score=0.0 if no_unigram else _combine(bp, orders),
    )


def _trace_unsmoothed(
    implementation: Implementation,
    candidate: str,
    references: Sequence[str],
    tokenizer: str,
) -> ImplementationTrace:
    """The tools without smoothing, where a zero precision zeroes the score: MATLAB, HF, torchmetrics, multi-bleu."""
    key = implementation.key
    if tokenizer == "13a":
        cand, refs = tokenize_line(candidate, "13a"), [tokenize_line(ref, "13a") for ref in references]
    else:
        cand, refs = candidate.split(), [ref.split() for ref in references]
    c = len(cand)
    lengths = [len(ref) for ref in refs]
    rule_name = implementation.ref_length_rule
    if rule_name == "shortest":
        r = min(lengths)
    elif rule_name == "closest, ties first":
        r = _closest_first(c, lengths)
    else:
        r = choose_reference_length(c, lengths).chosen_length
    counts = _counts(cand, refs, 4)
    orders = []
    for n, (m, t) in enumerate(counts, start=1):
        if t == 0:
            orders.append(OrderStep(n, m, t, 0.0, 0.25, f"has no {n}-grams to count: 0"))
        elif m == 0:
            orders.append(OrderStep(n, m, t, 0.0, 0.25, f"keeps 0/{t} = 0 (no smoothing)"))
        else:
            orders.append(OrderStep(n, m, t, m / t, 0.25, _plain(m, t)))
    if key == "hf-evaluate":
        bp = 0.0 if c == 0 or r == 0 else (1.0 if c / r > 1 else math.exp(1 - 1 / (c / r)))
    else:
        bp = _bp(c, r)
    rule = ""
    zero = next((o for o in orders if o.precision == 0), None)
    if key == "matlab" and not cand and not any(refs):
        rule, score = "candidate and references all empty: NaN", math.nan
    elif key == "matlab" and c < 4:
        rule, score = f"the candidate has fewer words ({c}) than weights (4): 0", 0.0
    elif key == "multi-bleu" and r == 0:
        rule, score = "r = 0: the script prints BLEU = 0", 0.0
    elif key == "multi-bleu" and c == 0:
        rule, score = "an empty hypothesis file: the script dies (Illegal division by zero)", math.nan
    elif zero is not None:
        if key == "multi-bleu":
            rule = f"p_{zero.order} = 0: log 0 is taken as {_PERL_LOG_ZERO:.0f}, so BLEU = 0"
        elif key == "torchmetrics":
            rule = f"p_{zero.order} = 0: an order without a match gives 0"
        else:
            rule = f"p_{zero.order} = 0: any zero precision gives 0"
        score = 0.0
    else:
        score = _combine(bp, orders)
    return ImplementationTrace(
        implementation=implementation,
        tokenizer=tokenizer,
        candidate_tokens=tuple(cand),
        reference_tokens=tuple(tuple(ref) for ref in refs),
        orders=tuple(orders),
        candidate_length=c,
        reference_length=r,
        length_note=_length_note(rule_name, c, lengths, r),
        bp=bp,
        rule=rule,
        score=score,
    )


_TRACERS: dict[str, Callable[[Implementation, str, Sequence[str]], ImplementationTrace]] = {
    "sacrebleu": _trace_sacrebleu,
    "nltk": lambda i, c, r: _trace_nltk(i, c, r, "method0"),
    "nltk-method1": lambda i, c, r: _trace_nltk(i, c, r, "method1"),
    "nltk-legacy": lambda i, c, r: _trace_nltk(i, c, r, "legacy"),
    "matlab": lambda i, c, r: _trace_unsmoothed(i, c, r, WHITESPACE),
    "hf-evaluate": lambda i, c, r: _trace_unsmoothed(i, c, r, "13a"),
    "torchmetrics": lambda i, c, r: _trace_unsmoothed(i, c, r, WHITESPACE),
    "multi-bleu": lambda i, c, r: _trace_unsmoothed(i, c, r, WHITESPACE),
}


def trace_implementation(key: str, candidate: str, references: Sequence[str]) -> ImplementationTrace:
    """One tool's sentence BLEU of ``candidate``, every step kept; the score equals :mod:`bleu_core.compat`'s.

    Tokens as in :func:`bleu_core.compat.compare_implementations` (13a for sacreBLEU and
    HF evaluate, whitespace for the others), default settings throughout.
    """
    if key not in IMPLEMENTATIONS:
        raise ValueError(f"unknown implementation {key!r}; choose one of {', '.join(IMPLEMENTATIONS)}")
    refs = check_sentence_input(candidate, references)
    return _TRACERS[key](IMPLEMENTATIONS[key], candidate, refs)


def trace_implementations(candidate: str, references: Sequence[str]) -> tuple[ImplementationTrace, ...]:
    """:func:`trace_implementation` for every tool of the registry, in its order."""
    refs = check_sentence_input(candidate, references)
    return tuple(_TRACERS[key](impl, candidate, refs) for key, impl in IMPLEMENTATIONS.items())


# ---------------------------------------------------------------------------
# Where two traces part ways
# ---------------------------------------------------------------------------

#: The registry setting behind each step (what to name when a tool differs there).
STEP_SETTINGS: dict[str, tuple[str, ...]] = {
    "tokens": ("tokenizer",),
    "clipped counts": ("tokenizer",),
    "reference length r": ("ref_length_rule",),
    "brevity penalty": ("ref_length_rule",),
    "precisions": ("zero_handling",),
    "weights": ("weights",),
    "final rule": ("zero_handling",),
    "score": ("scale",),
}


@dataclass(frozen=True, slots=True)
class Step:
    """One step of BLEU for two tools side by side."""

    name: str
    first: str
    second: str
    differs: bool
    explanation: str  # a sentence built from the numbers; "" when the step agrees


@dataclass(frozen=True, slots=True)
class Divergence:
    """Two tools' traces lined up step by step."""

    first: ImplementationTrace
    second: ImplementationTrace
    steps: tuple[Step, ...]

    @property
    def first_difference(self) -> Step | None:
        """The earliest step where the numbers differ (the scale alone does not count)."""
        return next((s for s in self.steps if s.differs and s.name != "score"), None)

    @property
    def differing(self) -> tuple[Step, ...]:
        return tuple(s for s in self.steps if s.differs)

    @property
    def summary(self) -> str:
        a, b = self.first.implementation.label, self.second.implementation.label
        step = self.first_difference
        if step is None:
            return f"{a} and {b} agree at every step on this input: BLEU = {number(self.first.score)} in [0, 1]."
        return f"{a} and {b} first part ways at the step '{step.name}': {step.explanation}"


def _first_token_difference(a: Sequence[str], b: Sequence[str]) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"token {i + 1} is '{x}' for one and '{y}' for the other"
    longer = a if len(a) > len(b) else b
    return f"one has {len(longer) - min(len(a), len(b))} more token(s) at the end ('{longer[min(len(a), len(b))]}')"


def _tokens_step(a: ImplementationTrace, b: ImplementationTrace) -> Step:
    same_candidate = a.candidate_tokens == b.candidate_tokens
    same = same_candidate and a.reference_tokens == b.reference_tokens
    first = f"{_TOKENIZER_NAMES[a.tokenizer]}: {a.candidate_length} candidate tokens"
    second = f"{_TOKENIZER_NAMES[b.tokenizer]}: {b.candidate_length} candidate tokens"
    if same:
        return Step("tokens", first, second, False, "")
    if not same_candidate:
        where = "in the candidate, " + _first_token_difference(a.candidate_tokens, b.candidate_tokens)
    else:
        k = next(k for k, (x, y) in enumerate(zip(a.reference_tokens, b.reference_tokens, strict=True)) if x != y)
        where = f"in reference {k + 1}, " + _first_token_difference(a.reference_tokens[k], b.reference_tokens[k])
    text = (
        f"{a.implementation.label} tokenizes with {_TOKENIZER_NAMES[a.tokenizer]} and "
        f"{b.implementation.label} with {_TOKENIZER_NAMES[b.tokenizer]}; {where}. Every later number follows."
    )
    return Step("tokens", first, second, True, text)


def _counts_step(a: ImplementationTrace, b: ImplementationTrace, tokens_differ: bool) -> Step:
    pairs = list(zip(a.orders, b.orders, strict=True))
    first = ", ".join(o.fraction for o in a.orders)
    second = ", ".join(o.fraction for o in b.orders)
    changed = [(x, y) for x, y in pairs if (x.matches, x.total) != (y.matches, y.total)]
    if not changed:
        return Step("clipped counts", first, second, False, "")
    listed = "; ".join(f"p_{x.order} = {x.fraction} vs {y.fraction}" for x, y in changed)
    if tokens_differ:
        cause = "the tokens differ"
    else:
        cause = "the same tokens are divided differently (NLTK divides by at least 1 where there are no n-grams)"
    return Step("clipped counts", first, second, True, f"{listed}: {cause}.")


def _length_step(a: ImplementationTrace, b: ImplementationTrace) -> Step:
    first = f"c = {a.candidate_length}, r = {a.reference_length}"
    second = f"c = {b.candidate_length}, r = {b.reference_length}"
    if (a.candidate_length, a.reference_length) == (b.candidate_length, b.reference_length):
        return Step("reference length r", first, second, False, "")
    text = f"{a.implementation.label} takes {a.length_note}; {b.implementation.label} takes {b.length_note}."
    return Step("reference length r", first, second, True, text)


def _bp_step(a: ImplementationTrace, b: ImplementationTrace) -> Step:
    first, second = f"BP = {a.bp:.4f}", f"BP = {b.bp:.4f}"
    if math.isclose(a.bp, b.bp, rel_tol=1e-12, abs_tol=1e-15):
        return Step("brevity penalty", first, second, False, "")
    if (a.candidate_length, a.reference_length) != (b.candidate_length, b.reference_length):
        cause = "because c or r differs"
    else:
        cause = "with the same c and r: the formulas differ"
    text = f"BP = {a.bp:.4f} for {a.implementation.label} and {b.bp:.4f} for {b.implementation.label}, {cause}."
    return Step("brevity penalty", first, second, True, text)


def _precision_value(o: OrderStep) -> str:
    return f"p{o.order} = {number(o.precision)}" if o.weight > 0 else f"p{o.order} left out"


def _precision_step(a: ImplementationTrace, b: ImplementationTrace) -> Step:
    first = ", ".join(_precision_value(o) for o in a.orders)
    second = ", ".join(_precision_value(o) for o in b.orders)
    changed = [
        (x, y)
        for x, y in zip(a.orders, b.orders, strict=True)
        if (x.weight > 0) != (y.weight > 0)
        or (x.weight > 0 and not math.isclose(x.precision, y.precision, rel_tol=1e-12, abs_tol=0.0))
    ]
    if not changed:
        return Step("precisions", first, second, False, "")
    parts = []
    for x, y in changed:
        where = (
            f"p_{x.order} = {x.fraction}" if x.fraction == y.fraction else f"p_{x.order} ({x.fraction} vs {y.fraction})"
        )
        parts.append(f"for {where}, {a.implementation.label} {x.note} and {b.implementation.label} {y.note}")
    text = "; ".join(parts)
    return Step("precisions", first, second, True, text + ".")


def _weights_step(a: ImplementationTrace, b: ImplementationTrace) -> Step:
    first = ", ".join(f"{o.weight:.3g}" for o in a.orders)
    second = ", ".join(f"{o.weight:.3g}" for o in b.orders)
    if all(math.isclose(x.weight, y.weight, abs_tol=1e-12) for x, y in zip(a.orders, b.orders, strict=True)):
        return Step("weights", first, second, False, "")
    text = (
        f"{a.implementation.label} weighs the orders {first} and {b.implementation.label} {second} "
        f"({a.implementation.label}: {a.implementation.weights}; {b.implementation.label}: {b.implementation.weights})."
    )
    return Step("weights", first, second, True, text)


def _rule_step(a: ImplementationTrace, b: ImplementationTrace) -> Step:
    if a.final_rule == b.final_rule:
        return Step("final rule", a.final_rule, b.final_rule, False, "")
    text = f"{a.implementation.label}: {a.final_rule}; {b.implementation.label}: {b.final_rule}."
    return Step("final rule", a.final_rule, b.final_rule, True, text)


def _score_value(trace: ImplementationTrace) -> str:
    native = number(trace.native_score)
    if trace.implementation.scale == "0-100":
        return f"{native} (0-100) = {number(trace.score)}"
    return f"{native} (0-1)"


def _score_step(a: ImplementationTrace, b: ImplementationTrace) -> Step:
    first, second = _score_value(a), _score_value(b)
    same_unit = (math.isnan(a.score) and math.isnan(b.score)) or math.isclose(
        a.score, b.score, rel_tol=1e-9, abs_tol=1e-300
    )
    same_scale = a.implementation.scale == b.implementation.scale
    if same_unit and same_scale:
        return Step("score", first, second, False, "")
    text = f"{a.implementation.label} reports {first}, {b.implementation.label} {second}"
    if same_unit:
        text += ": the same number on different scales"
    return Step("score", first, second, True, text + ".")


def compare_traces(first: ImplementationTrace, second: ImplementationTrace) -> Divergence:
    """Line up two traces of the same input and explain each step where they differ."""
    tokens = _tokens_step(first, second)
    steps = (
        tokens,
        _counts_step(first, second, tokens.differs),
        _length_step(first, second),
        _bp_step(first, second),
        _precision_step(first, second),
        _weights_step(first, second),
        _rule_step(first, second),
        _score_step(first, second),
    )
    return Divergence(first, second, steps)


# ---------------------------------------------------------------------------
# Common mistakes in BLEU write-ups
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MistakeCheck:
    """sacreBLEU's sentence score next to the score with one step done wrong."""

    key: str
    mistake: str
    wrong_formula: str
    correct_formula: str
    correct: float
    wrong: float
    explanation: str

    @property
    def differs(self) -> bool:
        return not math.isclose(self.correct, self.wrong, rel_tol=1e-9, abs_tol=1e-12)


_HYPHEN = re.compile(r"(?<=\w)-(?=\w)")
_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)")


def pretokenize(text: str) -> str:
    """Text as a Moses-style tokenizer leaves it: 13a tokens, hyphens as ``@-@``, ``don't`` as ``don 't``.

    Used to show what scoring already-tokenized text does to a sacreBLEU score.
    """
    joined = " ".join(tokenize_line(text, "13a"))
    return _APOSTROPHE.sub(" '", _HYPHEN.sub(" @-@ ", joined))


def _rescore(trace: Explanation, matches: Sequence[int] | None = None, ref_len: int | None = None) -> float:
    stats = SegmentStats(
        np.array([list(matches) if matches is not None else [o.matches for o in trace.orders]], dtype=np.int64),
        np.array([[o.total for o in trace.orders]], dtype=np.int64),
        np.array([trace.length.candidate_length], dtype=np.int64),
        np.array([trace.length.chosen_length if ref_len is None else ref_len], dtype=np.int64),
    )
    return float(score_statistics(stats, trace.options).score[0])


def _used(trace: Explanation) -> list[tuple[float, float]]:
    """(weight, precision) of the orders sacreBLEU uses, the precisions after smoothing."""
    return [(o.weight, o.precision) for o in trace.orders if o.weight > 0]


def _no_log(trace: Explanation) -> MistakeCheck:
    used = _used(trace)
    mean = math.fsum(w * p for w, p in used)
    wrong = 0.0 if trace.no_unigram_match else trace.bp * math.exp(mean)
    if trace.no_unigram_match:
        text = "No unigram matches, so both are 0 here."
    else:
        text = (
            f"Σ w·p_n = {mean:.4f} is the arithmetic mean of the precisions; exponentiating it gives "
            f"{trace.bp:.4f}·exp({mean:.4f}) = {wrong:.4f}, which can never fall below BP = {trace.bp:.4f} "
            f"however poor the match. The geometric mean exp(Σ w·log p_n) gives {trace.score:.4f}."
        )
    return MistakeCheck(
        "no-log",
        "exp of the weighted precisions, without the log",
        "BP·exp(Σ w_n·p_n)",
        "BP·exp(Σ w_n·log p_n)",
        trace.score,
        wrong,
        text,
    )


def _inverted_bp(trace: Explanation) -> MistakeCheck:
    c, r = trace.length.candidate_length, trace.length.chosen_length
    if 0 < c < r:
        wrong_bp = math.exp(1 - c / r)
        wrong = trace.score / trace.bp * wrong_bp
        text = (
            f"With c = {c} < r = {r}, exp(1 − c/r) = exp(1 − {c}/{r}) = {wrong_bp:.4f} is above 1 and rewards "
            f"the short candidate; exp(1 − r/c) = {trace.bp:.4f} penalizes it."
        )
    else:
        wrong = trace.score
        text = f"Here c = {c} ≥ r = {r}, so BP = 1 under either formula; a shorter candidate would show the mistake."
    return MistakeCheck(
        "inverted-bp",
        "brevity penalty written as exp(1 − c/r)",
        "exp(1 − c/r)",
        "exp(1 − r/c)",
        trace.score,
        wrong,
        text,
    )


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def _no_clipping(trace: Explanation) -> MistakeCheck:
    unclipped = [sum(row.candidate_count for row in o.rows if row.max_reference_count > 0) for o in trace.orders]
    wrong = _rescore(trace, matches=unclipped)
    changed = [(o, u) for o, u in zip(trace.orders, unclipped, strict=True) if u != o.matches]
    if not changed:
        text = (
            "No n-gram occurs in the candidate more often than in the reference that has it most: "
            "clipping removes nothing here."
        )
    else:
        parts = []
        for o, u in changed:
            row = max(o.rows, key=lambda x: x.clipped_away)
            parts.append(
                f"p_{o.order} becomes {u}/{o.total} instead of {o.fraction} ('{row.text}' counted "
                f"{_times(row.candidate_count)}, though no reference has it more than "
                f"{_times(row.max_reference_count)})"
            )
        text = "; ".join(parts) + "."
    return MistakeCheck(
        "no-clipping",
        "forgetting to clip the counts",
        "count every candidate n-gram found in a reference",
        "min(count, max count in one reference)",
        trace.score,
        wrong,
        text,
    )


def _shortest(trace: Explanation) -> MistakeCheck:
    lengths = trace.length.reference_lengths
    shortest, r, c = min(lengths), trace.length.chosen_length, trace.length.candidate_length
    wrong = _rescore(trace, ref_len=shortest)
    if len(lengths) == 1:
        text = "With one reference, shortest and closest are the same."
    elif shortest == r:
        text = f"The closest reference (r = {r} for c = {c}) is also the shortest here."
    else:
        wrong_bp = float(score_statistics(_length_stats(c, shortest), trace.options).bp[0])
        text = f"The shortest reference has {shortest} tokens, the one closest to c = {c} has {r}: "
        if math.isclose(wrong_bp, trace.bp):
            text += f"c is at least both, so BP = {trace.bp:.4f} either way."
        else:
            text += f"BP = {wrong_bp:.4f} instead of {trace.bp:.4f}."
    return MistakeCheck(
        "shortest-reference",
        "the shortest reference instead of the closest",
        "r = shortest reference length",
        "r = closest reference length",
        trace.score,
        wrong,
        text,
    )


def _length_stats(candidate_length: int, reference_length: int) -> SegmentStats:
    return SegmentStats(
        np.zeros((1, 1), dtype=np.int64),
        np.ones((1, 1), dtype=np.int64),
        np.array([candidate_length], dtype=np.int64),
        np.array([reference_length], dtype=np.int64),
    )


def _tokenized(trace: Explanation) -> MistakeCheck:
    candidate = pretokenize(trace.candidate)
    references = [pretokenize(ref) for ref in trace.references]
    again = explain(candidate, references)
    wrong = again.score
    if again.candidate_tokens == trace.candidate_tokens and again.reference_tokens == trace.reference_tokens:
        text = (
            "A Moses-style tokenizer (hyphens as @-@, apostrophes split off) changes no token of this text, "
            "so the score is the same here; on real text it usually is not."
        )
    else:
        counts = ", ".join(o.fraction for o in again.orders)
        text = (
            f"A Moses-style tokenizer (hyphens as @-@, apostrophes split off) run before sacreBLEU turns the "
            f"candidate's {trace.length.candidate_length} tokens into {again.length.candidate_length} "
            f"('{' '.join(again.candidate_tokens)}'); the counts become {counts} and BLEU {wrong:.4f}: "
            "scores on tokenized text are not comparable with sacreBLEU's."
        )
    return MistakeCheck(
        "tokenized-text",
        "scoring already-tokenized text",
        "sacreBLEU on Moses-tokenized text",
        "sacreBLEU on the plain text",
        trace.score,
        wrong,
        text,
    )


def common_mistakes(candidate: str, references: Sequence[str]) -> tuple[MistakeCheck, ...]:
    """sacreBLEU's sentence BLEU (13a, exp smoothing, effective order) next to five common mistakes.

    Each check changes one step and keeps the rest: exp(Σ w·p_n) without the log; BP as
    exp(1 − c/r); unclipped counts; the shortest reference length; text tokenized before scoring.
    """
    refs = check_sentence_input(candidate, references)
    trace = explain(candidate, refs)
    return (_no_log(trace), _inverted_bp(trace), _no_clipping(trace), _shortest(trace), _tokenized(trace))
