"""torchmetrics ``BLEUScore`` / ``functional.text.bleu_score`` on token lists (torchmetrics splits on whitespace).

Clipping, totals and the brevity penalty are bleu_core's shared rules.  torchmetrics deviates in three places,
stated where they happen: among references equally close to c it takes the FIRST listed (not the shorter);
the score is 0 whenever some order has no clipped match, even with ``smooth=True``; ``smooth=True`` adds 1 to
numerator and denominator of orders 2..N only.  Weights default to 1/N each and are used as given.
torchmetrics computes in float32 tensors, so its printed values can differ from these float64 results in
about the 7th significant digit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bleu_core.i18n import message
from bleu_core.stats.segment_stats import segment_reference_lengths
from bleu_core.tools import base
from bleu_core.tools.checks import (
    Streams,
    check_corpus_tokens,
    check_flag,
    check_order,
    check_weight_vector,
    segment_references,
)

__all__ = ["IMPLEMENTATION", "torchmetrics_bleu", "trace_torchmetrics"]

IMPLEMENTATION = base.Implementation(
    key="torchmetrics",
    short_name="torchmetrics",
    name="torchmetrics BLEUScore",
    point=base.Conventions(tokenizer="whitespace", length_rule="closest-first"),
    source="Lightning-AI/torchmetrics src/torchmetrics/functional/text/bleu.py",
)


def trace_torchmetrics(
    preds: Sequence[Sequence[str]], target: Sequence[Sequence[Sequence[str]]], weights: Sequence[float], smooth: bool
) -> base.ToolTrace:
    """torchmetrics' corpus BLEU of token lists, every step kept (``weights``: one per order, as given)."""
    counts = base.count_corpus(preds, target, len(weights))
    c = counts.candidate_length
    # torchmetrics' deviation: a tie between two reference lengths goes to the FIRST listed, not the shorter
    r = int(segment_reference_lengths([len(p) for p in preds], counts.reference_lengths, "closest-first").sum())
    note = base.length_note(base.CLOSEST_FIRST, c, counts.reference_lengths, r)
    pairs = zip(counts.matches, counts.totals, weights, strict=True)
    # torchmetrics' smoothing: orders 2..N only, and only those with a match
    orders = tuple(
        base.add_one_step(n, m, t, w, smooth and n > 1 and m > 0, "tools.note_torch_smooth")
        for n, (m, t, w) in enumerate(pairs, start=1)
    )
    bp = base.shared_brevity_penalty(c, r)
    missing = next((o for o in orders if o.matches == 0), None)
    if missing is not None:  # checked before smoothing: smooth=True does not save an order without a match
        return base.ToolTrace(orders, c, r, note, bp, message("tools.rule_torch_zero", order=missing.order), 0.0)
    geometric_mean = math.exp(sum(o.weight * math.log(o.precision) for o in orders))
    return base.ToolTrace(orders, c, r, note, bp, None, bp * geometric_mean)


def torchmetrics_bleu(
    preds: Sequence[Sequence[str]],
    target: Sequence[Sequence[Sequence[str]]],
    n_gram: int = 4,
    smooth: bool = False,
    weights: Sequence[float] | None = None,
) -> float:
    """``torchmetrics.functional.text.bleu_score`` on token lists (see the module docstring for its rules)."""
    hyps, refs = check_corpus_tokens(preds, target, "preds", "target")
    order = check_order(n_gram, "n_gram")
    smoothed = check_flag(smooth, "smooth")
    if weights is None:
        vector = tuple([1.0 / order] * order)
    else:
        vector = check_weight_vector(weights, "weights")
        if len(vector) != order:
            raise ValueError(f"List of weights has different weights than `n_gram`: {len(vector)} != {order}")
    return trace_torchmetrics(hyps, refs, vector, smoothed).score


def sentence_trace(
    implementation: base.Implementation, candidate: str, references: Sequence[str]
) -> base.ImplementationTrace:
    """The registry entry's sentence trace: whitespace tokens, 4 orders of weight 1/4, no smoothing."""
    cand, refs = base.sentence_tokens(implementation, candidate, references)
    return base.ImplementationTrace.of(
        implementation, cand, refs, trace_torchmetrics([cand], [refs], (0.25,) * 4, False)
    )


def corpus_score(implementation: base.Implementation, hypotheses: Sequence[str], streams: Streams) -> float:
    """The registry entry\'s corpus score of sacreBLEU-style streams: whitespace tokens, default settings."""
    segments = segment_references(hypotheses, streams)
    return torchmetrics_bleu([h.split() for h in hypotheses], [[ref.split() for ref in refs] for refs in segments])
