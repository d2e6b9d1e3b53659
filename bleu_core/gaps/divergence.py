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

from bleu_core.i18n import Message, joined, message
from bleu_core.tools import ImplementationTrace, OrderStep, number

__all__ = ["Divergence", "Step", "compare_traces"]


def _tokenizer(name: str) -> Message:
    return message(f"tools.tokenizer_{name}")


def _value(value: str) -> Message:
    """A step's value that is only numbers and symbols (the same in every language)."""
    return message("tools.value", value=value)


@dataclass(frozen=True, slots=True)
class Step:
    """One step of BLEU for two tools side by side."""

    name: str  # "tokens", "clipped counts", "reference length r", "brevity penalty", "precisions", ...
    first: Message
    second: Message
    differs: bool
    why: Message | None  # a sentence built from the numbers; None when the step agrees

    @property
    def label(self) -> Message:
        """The step's name as people read it."""
        return message(f"tools.step_{self.name.replace(' ', '_')}")

    @property
    def explanation(self) -> str:
        """:attr:`why` in English; "" when the step agrees."""
        return "" if self.why is None else str(self.why)


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
    def summary_message(self) -> Message:
        a, b = self.first.implementation.label, self.second.implementation.label
        step = self.first_difference
        if step is None:
            return message("tools.agree", first=a, second=b, score=number(self.first.score))
        return message("tools.part_ways", first=a, second=b, step=step.label, why=step.why)

    @property
    def summary(self) -> str:
        return str(self.summary_message)


def _both(
    key: str, a: ImplementationTrace, b: ImplementationTrace, cause: object = None, **pairs: tuple[object, object]
) -> Message:
    """A sentence naming both tools (``first``, ``second``) with each value of ``pairs`` as ``first_<name>`` and
    ``second_<name>`` (and the ``cause`` when given)."""
    values = {f"{side}_{name}": pair[i] for name, pair in pairs.items() for i, side in enumerate(("first", "second"))}
    if cause is not None:
        values["cause"] = cause
    return message(key, first=a.implementation.label, second=b.implementation.label, **values)


def _order_pairs(a: ImplementationTrace, b: ImplementationTrace) -> list[tuple[OrderStep, OrderStep]]:
    """The orders of two tools side by side; an order one tool does not compute is shown as unused (0/0)."""
    pairs = []
    missing = message("tools.note_no_such_order")
    for x, y in zip_longest(a.orders, b.orders):
        n = (x or y).order
        pairs.append((x or OrderStep(n, 0, 0, 0.0, 0.0, missing), y or OrderStep(n, 0, 0, 0.0, 0.0, missing)))
    return pairs


def _first_token_difference(a: Sequence[str], b: Sequence[str]) -> Message:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return message("tools.token_differs", number=i + 1, first=x, second=y)
    longer = a if len(a) > len(b) else b
    shorter = min(len(a), len(b))
    return message("tools.more_tokens", count=len(longer) - shorter, token=longer[shorter])


def _tokens_step(a: ImplementationTrace, b: ImplementationTrace) -> Step:
    same_candidate = a.candidate_tokens == b.candidate_tokens
    same = same_candidate and a.reference_tokens == b.reference_tokens
    first = message("tools.token_count", tokenizer=_tokenizer(a.tokenizer), count=a.candidate_length)
    second = message("tools.token_count", tokenizer=_tokenizer(b.tokenizer), count=b.candidate_length)
    if same:
        return Step("tokens", first, second, False, None)
    shared = min(len(a.reference_tokens), len(b.reference_tokens))
    if not same_candidate:
        where = message("tools.in_candidate", what=_first_token_difference(a.candidate_tokens, b.candidate_tokens))
    elif a.reference_tokens[:shared] != b.reference_tokens[:shared]:
        k = next(k for k in range(shared) if a.reference_tokens[k] != b.reference_tokens[k])
        what = _first_token_difference(a.reference_tokens[k], b.reference_tokens[k])
        where = message("tools.in_reference", number=k + 1, what=what)
    else:  # the same tokens; one tool reads fewer references
        fewer = a if len(a.reference_tokens) < len(b.reference_tokens) else b
        total = max(len(a.reference_tokens), len(b.reference_tokens))
        key = "tools.fewer_references_one" if shared == 1 else "tools.fewer_references"
        why = message(key, tool=fewer.implementation.label, read=shared, total=total)
        return Step("tokens", first, second, True, why)
    why = message(
        "tools.tokenizers_differ",
        first=a.implementation.label,
        first_tokenizer=_tokenizer(a.tokenizer),
        second=b.implementation.label,
        second_tokenizer=_tokenizer(b.tokenizer),
        where=where,
    )
    return Step("tokens", first, second, True, why)


def _counts_step(a: ImplementationTrace, b: ImplementationTrace, tokens_differ: bool) -> Step:
    pairs = _order_pairs(a, b)
    first = _value(", ".join(o.fraction for o in a.orders))
    second = _value(", ".join(o.fraction for o in b.orders))
    # Orders only one tool computes are the weights' business (d2l's k = 2), not the counts'.
    both = min(len(a.orders), len(b.orders))
    changed = [(x, y) for x, y in pairs[:both] if (x.matches, x.total) != (y.matches, y.total)]
    if not changed:
        return Step("clipped counts", first, second, False, None)
    listed = "; ".join(f"p_{x.order} = {x.fraction} vs {y.fraction}" for x, y in changed)
    if tokens_differ:
        cause = message("tools.cause_tokens")
    else:
        floor = _floor_cause(a, b, changed)
        cause = message("tools.cause_divided") if floor is None else message("tools.cause_floor", floor=floor)
    return Step("clipped counts", first, second, True, message("tools.counts_differ", listed=listed, cause=cause))


def _floor_cause(
    a: ImplementationTrace, b: ImplementationTrace, changed: list[tuple[OrderStep, OrderStep]]
) -> Message | None:
    """Which tool divides by more than the candidate's n-grams (NLTK's max(1, total)), or None when none does."""
    for trace, pick in ((a, 0), (b, 1)):
        raised = [
            pair[pick] for pair in changed if pair[pick].total > max(trace.candidate_length - pair[pick].order + 1, 0)
        ]
        if raised:
            orders = ", ".join(str(o.order) for o in raised)
            return message("tools.floor_cause", tool=trace.implementation.label, orders=orders)
    return None


def _length_step(a: ImplementationTrace, b: ImplementationTrace) -> Step:
    first = _value(f"c = {a.candidate_length}, r = {a.reference_length}")
    second = _value(f"c = {b.candidate_length}, r = {b.reference_length}")
    if (a.candidate_length, a.reference_length) == (b.candidate_length, b.reference_length):
        return Step("reference length r", first, second, False, None)
    why = _both("tools.lengths_differ", a, b, note=(a.length_note, b.length_note))
    return Step("reference length r", first, second, True, why)


def _bp_step(a: ImplementationTrace, b: ImplementationTrace) -> Step:
    first, second = _value(f"BP = {a.bp:.4f}"), _value(f"BP = {b.bp:.4f}")
    if math.isclose(a.bp, b.bp, rel_tol=1e-12, abs_tol=1e-15):
        return Step("brevity penalty", first, second, False, None)
    if (a.candidate_length, a.reference_length) != (b.candidate_length, b.reference_length):
        cause = message("tools.bp_cause_lengths")
    else:
        cause = message("tools.bp_cause_formula")
    why = _both("tools.bp_differs", a, b, bp=(f"{a.bp:.4f}", f"{b.bp:.4f}"), cause=cause)
    return Step("brevity penalty", first, second, True, why)


def _precision_value(o: OrderStep) -> Message:
    if o.weight > 0:
        return _value(f"p{o.order} = {number(o.precision)}")
    return message("tools.order_left_out", order=o.order)


def _values(values: Sequence[Message]) -> Message:
    return joined(values, "waterfall.join_comma") if values else _value("")


def _precision_step(a: ImplementationTrace, b: ImplementationTrace) -> Step:
    first = _values([_precision_value(o) for o in a.orders])
    second = _values([_precision_value(o) for o in b.orders])
    changed = [
        (x, y)
        for x, y in _order_pairs(a, b)
        if (x.weight > 0) != (y.weight > 0)
        or (x.weight > 0 and not math.isclose(x.precision, y.precision, rel_tol=1e-12, abs_tol=0.0))
    ]
    if not changed:
        return Step("precisions", first, second, False, None)
    parts = []
    for x, y in changed:
        where = (
            f"p_{x.order} = {x.fraction}" if x.fraction == y.fraction else f"p_{x.order} ({x.fraction} vs {y.fraction})"
        )
        parts.append(
            message(
                "tools.precision_part",
                where=where,
                first=a.implementation.label,
                first_note=x.note,
                second=b.implementation.label,
                second_note=y.note,
            )
        )
    why = message("tools.sentence", text=joined(parts, "waterfall.join_semicolon"))
    return Step("precisions", first, second, True, why)


def _weights_step(a: ImplementationTrace, b: ImplementationTrace) -> Step:
    first_weights = ", ".join(f"{o.weight:.3g}" for o in a.orders)
    second_weights = ", ".join(f"{o.weight:.3g}" for o in b.orders)
    first, second = _value(first_weights), _value(second_weights)
    if all(math.isclose(x.weight, y.weight, abs_tol=1e-12) for x, y in _order_pairs(a, b)):
        return Step("weights", first, second, False, None)
    why = _both(
        "tools.weights_differ", a, b, weights=(first_weights, second_weights), rule=(_weights_rule(a), _weights_rule(b))
    )
    return Step("weights", first, second, True, why)


def _weights_rule(trace: ImplementationTrace) -> Message:
    """How the tool sets its weights, in words (the registry's ``weights``)."""
    return message(f"tools.weights_{trace.implementation.key.replace('-', '_')}")


def _rule_step(a: ImplementationTrace, b: ImplementationTrace) -> Step:
    if a.final_rule == b.final_rule:
        return Step("final rule", a.final_rule, b.final_rule, False, None)
    why = _both("tools.rules_differ", a, b, rule=(a.final_rule, b.final_rule))
    return Step("final rule", a.final_rule, b.final_rule, True, why)


def _score_value(trace: ImplementationTrace) -> Message:
    native = number(trace.native_score)
    if trace.implementation.scale == "0-100":
        return _value(f"{native} (0-100) = {number(trace.score)}")
    return _value(f"{native} (0-1)")


def _score_step(a: ImplementationTrace, b: ImplementationTrace) -> Step:
    first, second = _score_value(a), _score_value(b)
    same_unit = (math.isnan(a.score) and math.isnan(b.score)) or math.isclose(
        a.score, b.score, rel_tol=1e-9, abs_tol=1e-300
    )
    same_scale = a.implementation.scale == b.implementation.scale
    if same_unit and same_scale:
        return Step("score", first, second, False, None)
    key = "tools.scores_scale" if same_unit else "tools.scores_differ"
    why = message(
        key, first=a.implementation.label, first_score=first, second=b.implementation.label, second_score=second
    )
    return Step("score", first, second, True, why)


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
