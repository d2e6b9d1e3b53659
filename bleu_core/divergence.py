"""Why two BLEU tools disagree: two tools' sentence traces lined up step by step, the first difference named.

:func:`compare_traces` reads two :class:`~bleu_core.tools.ImplementationTrace` values of the same input (tokens,
clipped counts, reference length r, brevity penalty, the precision that enters the log, weights, the rule that
decides the final number, the score) and explains each step where the numbers part ways.  Every sentence is
built from the numbers of the input, not written per example.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import zip_longest

from .tools import ImplementationTrace, OrderStep, number

__all__ = ["STEP_SETTINGS", "Divergence", "Step", "compare_traces"]

_TOKENIZER_NAMES = {"13a": "13a", "whitespace": "whitespace split", "space": "split(' ')"}


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


def _order_pairs(a: ImplementationTrace, b: ImplementationTrace) -> list[tuple[OrderStep, OrderStep]]:
    """The orders of two tools side by side; an order one tool does not compute is shown as unused (0/0)."""
    pairs = []
    for x, y in zip_longest(a.orders, b.orders):
        n = (x or y).order
        pairs.append(
            (
                x or OrderStep(n, 0, 0, 0.0, 0.0, "has no such order"),
                y or OrderStep(n, 0, 0, 0.0, 0.0, "has no such order"),
            )
        )
    return pairs


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
    shared = min(len(a.reference_tokens), len(b.reference_tokens))
    if not same_candidate:
        where = "in the candidate, " + _first_token_difference(a.candidate_tokens, b.candidate_tokens)
    elif a.reference_tokens[:shared] != b.reference_tokens[:shared]:
        k = next(k for k in range(shared) if a.reference_tokens[k] != b.reference_tokens[k])
        where = f"in reference {k + 1}, " + _first_token_difference(a.reference_tokens[k], b.reference_tokens[k])
    else:  # the same tokens; one tool reads fewer references
        fewer = a if len(a.reference_tokens) < len(b.reference_tokens) else b
        read = "the first reference" if shared == 1 else f"the first {shared} references"
        total = max(len(a.reference_tokens), len(b.reference_tokens))
        text = (
            f"The tokens are the same, but {fewer.implementation.label} reads only {read} of {total}. "
            "Every later number follows."
        )
        return Step("tokens", first, second, True, text)
    text = (
        f"{a.implementation.label} tokenizes with {_TOKENIZER_NAMES[a.tokenizer]} and "
        f"{b.implementation.label} with {_TOKENIZER_NAMES[b.tokenizer]}; {where}. Every later number follows."
    )
    return Step("tokens", first, second, True, text)


def _counts_step(a: ImplementationTrace, b: ImplementationTrace, tokens_differ: bool) -> Step:
    pairs = _order_pairs(a, b)
    first = ", ".join(o.fraction for o in a.orders)
    second = ", ".join(o.fraction for o in b.orders)
    # Orders only one tool computes are the weights' business (d2l's k = 2), not the counts'.
    both = min(len(a.orders), len(b.orders))
    changed = [(x, y) for x, y in pairs[:both] if (x.matches, x.total) != (y.matches, y.total)]
    if not changed:
        return Step("clipped counts", first, second, False, "")
    listed = "; ".join(f"p_{x.order} = {x.fraction} vs {y.fraction}" for x, y in changed)
    if tokens_differ:
        cause = "the tokens differ"
    else:
        cause = "the same tokens are divided differently" + _floor_cause(a, b, changed)
    return Step("clipped counts", first, second, True, f"{listed}: {cause}.")


def _floor_cause(a: ImplementationTrace, b: ImplementationTrace, changed: list[tuple[OrderStep, OrderStep]]) -> str:
    """Which tool divides by more than the candidate's n-grams (NLTK's max(1, total)), or "" when none does."""
    for trace, pick in ((a, 0), (b, 1)):
        raised = [
            pair[pick] for pair in changed if pair[pick].total > max(trace.candidate_length - pair[pick].order + 1, 0)
        ]
        if raised:
            orders = ", ".join(str(o.order) for o in raised)
            return (
                f" ({trace.implementation.label} divides by at least 1 where the candidate has no n-grams "
                f"of order {orders}: max(1, total))"
            )
    return ""


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
        for x, y in _order_pairs(a, b)
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
    if all(math.isclose(x.weight, y.weight, abs_tol=1e-12) for x, y in _order_pairs(a, b)):
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
