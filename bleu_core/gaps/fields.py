"""Every score field a tool reports, read off its trace: what a user of that tool sees besides the one number.

sacreBLEU's ``BLEU`` object has counts, totals, precisions, BP, lengths and ratio; HF evaluate's dict has
precisions, brevity_penalty, length_ratio, translation_length and reference_length; NLTK's
``modified_precision`` gives each order's fraction; multi-bleu.perl prints one line with all of it.
"""

from __future__ import annotations

import math

from bleu_core.tools.base import ImplementationTrace, number

__all__ = ["FAILS", "PRINTED_LINE", "reported_fields"]

Field = tuple[str, str]
#: The field of multi-bleu.perl's one printed line, and the value of a tool without a score (pages translate both).
PRINTED_LINE = "printed line"
FAILS = "fails (no score for this input)"


def _ratio(trace: ImplementationTrace) -> float:
    return trace.candidate_length / trace.reference_length if trace.reference_length else 0.0


def _sacrebleu(trace: ImplementationTrace) -> list[Field]:
    orders = trace.orders
    return [
        ("score", f"{100 * trace.score:.4g}"),
        ("counts", str([o.matches for o in orders])),
        ("totals", str([o.total for o in orders])),
        ("precisions", "[" + ", ".join(f"{100 * o.precision:.4g}" for o in orders) + "]"),
        ("bp", f"{trace.bp:.4g}"),
        ("sys_len", str(trace.candidate_length)),
        ("ref_len", str(trace.reference_length)),
        ("ratio", f"{_ratio(trace):.4g}"),
    ]


def _hf(trace: ImplementationTrace) -> list[Field]:
    ratio = _ratio(trace) if trace.candidate_length else 0.0
    return [
        ("bleu", number(trace.score)),
        ("precisions", "[" + ", ".join(number(o.precision) for o in trace.orders) + "]"),
        ("brevity_penalty", number(trace.bp)),
        ("length_ratio", f"{ratio:.4g}"),
        ("translation_length", str(trace.candidate_length)),
        ("reference_length", str(trace.reference_length)),
    ]


def _nltk(trace: ImplementationTrace) -> list[Field]:
    fields = [("score", number(trace.score))]
    fields += [(f"modified_precision n={o.order}", f"Fraction({o.matches}, {o.total})") for o in trace.orders]
    fields += [
        ("hyp_len", str(trace.candidate_length)),
        ("closest_ref_len", str(trace.reference_length)),
        ("brevity_penalty", number(trace.bp)),
    ]
    return fields


def _multi_bleu(trace: ImplementationTrace) -> list[Field]:
    precisions = "/".join(f"{100 * o.precision:.1f}" for o in trace.orders)
    line = (
        f"BLEU = {100 * trace.score:.2f}, {precisions} (BP={trace.bp:.3f}, ratio={_ratio(trace):.3f}, "
        f"hyp_len={trace.candidate_length}, ref_len={trace.reference_length})"
    )
    return [(PRINTED_LINE, line)]


def reported_fields(trace: ImplementationTrace) -> tuple[Field, ...]:
    """(field, value) pairs the tool itself returns or prints for this input; NaN scores shown as "fails"."""
    if math.isnan(trace.score):
        return (("score", FAILS),)
    key = trace.implementation.key
    if key == "sacrebleu":
        return tuple(_sacrebleu(trace))
    if key == "hf-evaluate":
        return tuple(_hf(trace))
    if key.startswith("nltk"):
        return tuple(_nltk(trace))
    if key == "multi-bleu":
        return tuple(_multi_bleu(trace))
    return (("score", number(trace.score)),)  # MATLAB, torchmetrics and d2l return the number alone
