"""Hugging Face ``evaluate.load("bleu")``, i.e. tensorflow/nmt ``compute_bleu``, on token lists.

Clipping and the n-gram totals are bleu_core's shared rules.  HF deviates from the rest in three places,
each stated where it happens: r is the SHORTEST reference of each segment (not the closest); ``smooth=True``
adds 1 to numerator and denominator of every order, unigrams included; and BP is written
exp(1 - 1/ratio) with ratio = c/r, 0 when c or r is 0 (the guard in current ``evaluate``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypedDict

from bleu_core.i18n import Message, message
from bleu_core.stats.scoring import scalar_brevity_penalty
from bleu_core.tokenizers import tokenize_each
from bleu_core.tools import base
from bleu_core.tools.checks import Streams, check_corpus_tokens, check_flag, check_order, segment_references

__all__ = ["IMPLEMENTATION", "HfBleuResult", "hf_evaluate_bleu", "trace_hf_evaluate"]

IMPLEMENTATION = base.Implementation(
    key="hf-evaluate",
    short_name="HF evaluate",
    name="Hugging Face evaluate 'bleu'",
    point=base.Conventions(length_rule="shortest", brevity="ratio"),
    source="huggingface/evaluate metrics/bleu (tensorflow/nmt nmt/scripts/bleu.py)",
)


class HfBleuResult(TypedDict):
    """The dict ``evaluate.load("bleu").compute(...)`` returns."""

    bleu: float
    precisions: list[float]
    brevity_penalty: float
    length_ratio: float
    translation_length: int
    reference_length: int


def hf_brevity_penalty(translation_length: int, reference_length: int) -> tuple[float, float]:
    """(ratio, BP) as HF computes them: BP = exp(1 - 1/ratio) for ratio = c/r <= 1.

    Deviation from :func:`bleu_core.stats.scoring.brevity_penalty`: the form exp(1 - 1/ratio) rounds differently from
    exp(1 - r/c), and ratio and BP are 0 when c or r is 0.
    """
    ratio = float(translation_length) / reference_length if reference_length and translation_length else 0.0
    return ratio, scalar_brevity_penalty(translation_length, reference_length, "ratio")


def trace_hf_evaluate(
    translations: Sequence[Sequence[str]], references: Sequence[Sequence[Sequence[str]]], max_order: int, smooth: bool
) -> base.ToolTrace:
    """HF's corpus BLEU of token lists (``references[i]``: translation i's), every step kept."""
    counts = base.count_corpus(translations, references, max_order)
    # HF's deviation from the shared closest rule: each segment's SHORTEST reference sets r.
    reference_length = sum(min(lengths) for lengths in counts.reference_lengths)
    translation_length = counts.candidate_length
    pairs = zip(counts.matches, counts.totals, strict=True)
    # HF's own smoothing: every order, unigrams included
    orders = tuple(
        base.add_one_step(n, m, t, 1.0 / max_order, smooth, "tools.note_hf_smooth")
        for n, (m, t) in enumerate(pairs, start=1)
    )
    precisions = [o.precision for o in orders]
    # HF's final rule: any zero precision gives 0; otherwise the geometric mean with weights 1/max_order.
    geo_mean = math.exp(sum((1.0 / max_order) * math.log(p) for p in precisions)) if min(precisions) > 0 else 0.0
    _, bp = hf_brevity_penalty(translation_length, reference_length)
    zero = base.first_zero(orders)
    if zero is not None:
        rule: Message | None = message("tools.rule_any_zero", order=zero.order)
    elif bp == 0:
        rule = message("tools.rule_hf_empty")
    else:
        rule = None
    note = base.length_note(base.SHORTEST, translation_length, counts.reference_lengths, reference_length)
    return base.ToolTrace(orders, translation_length, reference_length, note, bp, rule, geo_mean * bp)


def hf_evaluate_bleu(
    predictions: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    max_order: int = 4,
    smooth: bool = False,
) -> HfBleuResult:
    """Hugging Face ``evaluate`` "bleu" on token lists; ``references[i]`` are prediction i's references.

    HF tokenizes strings with its copy of sacreBLEU's 13a tokenizer by default; pass
    ``bleu_core.tokenize_line(text)`` for the same tokens.  Differences from the paper: r is the
    shortest reference; ``smooth=True`` adds 1 to every order; without smoothing any zero precision
    (or an order with no candidate n-grams) gives 0; BP = exp(1 - 1/ratio) (see the module docstring).
    """
    hyps, refs = check_corpus_tokens(predictions, references, "predictions", "references")
    order = check_order(max_order, "max_order")
    trace = trace_hf_evaluate(hyps, refs, order, check_flag(smooth, "smooth"))
    ratio, _ = hf_brevity_penalty(trace.candidate_length, trace.reference_length)
    return HfBleuResult(
        bleu=trace.score,
        precisions=[o.precision for o in trace.orders],
        brevity_penalty=trace.bp,
        length_ratio=ratio,
        translation_length=trace.candidate_length,
        reference_length=trace.reference_length,
    )


def sentence_trace(
    implementation: base.Implementation, candidate: str, references: Sequence[str]
) -> base.ImplementationTrace:
    """The registry entry's sentence trace: 13a tokens, max_order 4, no smoothing."""
    cand, refs = base.sentence_tokens(implementation, candidate, references)
    return base.ImplementationTrace.of(implementation, cand, refs, trace_hf_evaluate([cand], [refs], 4, False))


def corpus_score(implementation: base.Implementation, hypotheses: Sequence[str], streams: Streams) -> float:
    """The registry entry\'s corpus score of sacreBLEU-style streams: 13a tokens, max_order 4, no smoothing."""
    segments = segment_references(hypotheses, streams)
    flat = iter(tokenize_each([ref for refs in segments for ref in refs], "13a"))
    tokens = [[next(flat) for _ in refs] for refs in segments]
    return hf_evaluate_bleu(tokenize_each(hypotheses, "13a"), tokens)["bleu"]
