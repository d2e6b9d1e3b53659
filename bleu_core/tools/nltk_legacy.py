"""NLTK 3.2.x ``sentence_bleu`` without smoothing: orders with zero precision were left out, weight and all.

s = sum of w_n log p_n over the orders with p_n > 0 only; BLEU = BP * exp(s).  A missing order thus costs
nothing instead of zeroing the score, which is where the widely copied 2017 tutorial numbers come from.
Clipping and the closest reference length are the shared rules; NLTK's ``max(1, total)`` denominators and
its brevity penalty are taken from :mod:`bleu_core.tools.nltk_bleu`, where those deviations are stated.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from bleu_core.i18n import message
from bleu_core.tools import base
from bleu_core.tools.checks import check_references, check_tokens, check_weight_vector
from bleu_core.tools.nltk_bleu import DEFAULT_WEIGHTS, brevity_penalty, denominators

__all__ = ["IMPLEMENTATION", "nltk_legacy_sentence_bleu", "trace_nltk_legacy"]

IMPLEMENTATION = base.Implementation(
    key="nltk-legacy",
    short_name="NLTK 3.2",
    corpus_level=False,
    name="NLTK 3.2.x sentence_bleu",
    point=base.Conventions(tokenizer="whitespace", denominator="at-least-1", zero_precision="drop", aggregation="mean"),
    source="nltk/translate/bleu_score.py (NLTK 3.2.5)",
)


def trace_nltk_legacy(
    candidate: Sequence[str], references: Sequence[Sequence[str]], weights: Sequence[float]
) -> base.ToolTrace:
    """NLTK 3.2's sentence BLEU of token lists, every step kept (``weights``: checked, one per order)."""
    counts = base.count_corpus([candidate], [references], len(weights))
    c, r = counts.candidate_length, counts.closest_length
    bp = brevity_penalty(r, c)
    orders = []
    steps = zip(counts.matches, counts.totals, denominators(counts)[0], weights, strict=True)
    for n, (m, t, d, w) in enumerate(steps, start=1):
        p = Fraction(m, d)
        note = base.plain_note(m, d) if p > 0 else message("tools.note_dropped")
        if not t:
            note = message("tools.note_floor_sentence", note=note, order=n)
        if p > 0:
            orders.append(base.OrderStep(n, m, d, float(p), w, note))
        else:
            orders.append(base.OrderStep(n, m, d, 0.0, 0.0, note))
    note = base.length_note(base.CLOSEST, c, counts.reference_lengths, r)
    if orders[0].matches == 0:
        return base.ToolTrace(tuple(orders), c, r, note, bp, message("tools.rule_no_unigram"), 0.0)
    # NLTK 3.2 zipped the weights with the non-zero precisions only; for one sentence the zero orders are
    # always the highest ones, so that equals dropping them with their weights.
    s = math.fsum(o.weight * math.log(o.precision) for o in orders if o.precision > 0)
    return base.ToolTrace(tuple(orders), c, r, note, bp, None, bp * math.exp(s))


def nltk_legacy_sentence_bleu(
    references: Sequence[Sequence[str]],
    hypothesis: Sequence[str],
    weights: Sequence[float] = DEFAULT_WEIGHTS,
) -> float:
    """Sentence BLEU as NLTK 3.2.x computed it without smoothing: zero precisions were left out.

    "this is a test" against "this is small test" has p = 3/4, 1/3, 0, 0, giving 0.707107 with weights
    (0.25, 0.25, 0.25, 0.25) and 0.632878 with (0.33, 0.33, 0.33, 0); current NLTK gives about 1e-155
    for the first.  No unigram match gives 0; the closest reference length (ties to the shorter) sets r;
    weights are not normalized.
    """
    hyp = check_tokens(hypothesis, "hypothesis")
    refs = check_references(references, "references")
    vector = check_weight_vector(weights, "weights")
    return trace_nltk_legacy(hyp, refs, vector).score


def sentence_trace(
    implementation: base.Implementation, candidate: str, references: Sequence[str]
) -> base.ImplementationTrace:
    """The registry entry's sentence trace: whitespace tokens, default weights."""
    cand, refs = base.sentence_tokens(implementation, candidate, references)
    return base.ImplementationTrace.of(implementation, cand, refs, trace_nltk_legacy(cand, refs, DEFAULT_WEIGHTS))
