"""sacreBLEU 2.6 with its defaults: 13a tokens, exp smoothing; effective order for sentences only.

This tool is bleu_core itself: the sentence trace is :func:`bleu_core.teach.explain.explain` (every count, clip and
log term, scored by :func:`bleu_core.stats.scoring.score_statistics`), and the corpus score is
:func:`bleu_core.corpus_bleu`.  Nothing here restates a rule.
"""

from __future__ import annotations

from collections.abc import Sequence

from bleu_core.api import corpus_bleu
from bleu_core.i18n import message
from bleu_core.teach.explain import Explanation, explain
from bleu_core.tools import base
from bleu_core.tools.checks import Streams

__all__ = ["IMPLEMENTATION", "sacrebleu_corpus_bleu", "sacrebleu_sentence_bleu", "trace_sacrebleu"]

IMPLEMENTATION = base.Implementation(
    key="sacrebleu",
    short_name="sacreBLEU",
    name="sacreBLEU sentence_bleu",
    point=base.Conventions(smoothing="exp", empty_orders="effective", scale="0-100"),
    corpus_name="sacreBLEU corpus_bleu",
    source="mjpost/sacrebleu sacrebleu/metrics/bleu.py (2.6)",
)


def trace_sacrebleu(explanation: Explanation) -> base.ToolTrace:
    """The steps of an :func:`~bleu_core.teach.explain.explain` result (exp smoothing) in the tools' common form."""
    orders = []
    zeros = 0
    for o in explanation.orders:
        if o.total == 0 or o.weight == 0:
            note = message("tools.note_effective_order", order=o.order)
        elif o.matches == 0:
            zeros += 1
            note = message("tools.note_exp_smoothing", power=2**zeros, total=o.total, p=base.number(o.precision))
        else:
            note = base.plain_note(o.matches, o.total)
        orders.append(base.OrderStep(o.order, o.matches, o.total, o.precision, o.weight, note))
    length = explanation.length
    c, r = length.candidate_length, length.chosen_length
    return base.ToolTrace(
        orders=tuple(orders),
        candidate_length=c,
        reference_length=r,
        length_note=base.length_note(base.CLOSEST, c, [length.reference_lengths], r),
        bp=explanation.bp,
        rule=message("tools.rule_no_unigram") if explanation.no_unigram_match else None,
        score=explanation.score,
    )


def sacrebleu_sentence_bleu(hypothesis: str, references: Sequence[str]) -> float:
    """``sacrebleu.sentence_bleu(hypothesis, references).score`` (0-100): 13a, exp smoothing, effective order."""
    return 100.0 * trace_sacrebleu(explain(hypothesis, references)).score


def sacrebleu_corpus_bleu(hypotheses: Sequence[str], references: Streams) -> float:
    """``sacrebleu.corpus_bleu(hypotheses, references).score`` (0-100): 13a, exp smoothing, no effective order.

    ``references[k][i]`` is reference k of segment i (sacreBLEU's streams).
    """
    return corpus_bleu(hypotheses, references).score_100


def sentence_trace(
    implementation: base.Implementation, candidate: str, references: Sequence[str]
) -> base.ImplementationTrace:
    """The registry entry's sentence trace (sacreBLEU's sentence defaults)."""
    explanation = explain(candidate, references)
    steps = trace_sacrebleu(explanation)
    return base.ImplementationTrace.of(
        implementation, explanation.candidate_tokens, explanation.reference_tokens, steps
    )


def corpus_score(implementation: base.Implementation, hypotheses: Sequence[str], streams: Streams) -> float:
    """The registry entry's corpus score (0-100)."""
    return sacrebleu_corpus_bleu(hypotheses, streams)
