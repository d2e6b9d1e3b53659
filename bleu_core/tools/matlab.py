"""MATLAB Text Analytics Toolbox ``bleuEvaluationScore(candidate, references, NgramWeights=w)`` on token lists.

The counts, r (the closest reference length; MathWorks does not document ties, the shorter is assumed) and the
score are bleu_core's own rules (:func:`bleu_core.stats.scoring.score_statistics` without smoothing, weights
normalized); MATLAB adds two rules of its own before them: 0 for a candidate with fewer words than weights,
NaN when candidate and references are all empty.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bleu_core.i18n import message
from bleu_core.options import BleuOptions, make_options
from bleu_core.stats.scoring import score_statistics
from bleu_core.tools import base
from bleu_core.tools.checks import check_references, check_tokens

__all__ = ["IMPLEMENTATION", "matlab_bleu_evaluation_score", "trace_matlab"]

DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)

IMPLEMENTATION = base.Implementation(
    key="matlab",
    short_name="MATLAB",
    corpus_level=False,
    name="MATLAB bleuEvaluationScore",
    point=base.Conventions(tokenizer="whitespace", aggregation="mean"),
    source="MathWorks documentation of bleuEvaluationScore (Text Analytics Toolbox)",
)


def trace_matlab(candidate: Sequence[str], references: Sequence[Sequence[str]], options: BleuOptions) -> base.ToolTrace:
    """MATLAB's score of one tokenized candidate, every step kept (``options``: no smoothing, the weights)."""
    counts = base.count_corpus([candidate], [references], options.max_order)
    arrays = score_statistics(counts.statistics(), options)
    precisions, weights = arrays.precisions[0], arrays.weights[0]
    orders = tuple(
        base.OrderStep(n, m, t, float(precisions[n - 1]), float(weights[n - 1]), base.unsmoothed_note(n, m, t))
        for n, (m, t) in enumerate(zip(counts.matches, counts.totals, strict=True), start=1)
    )
    c, r = counts.candidate_length, counts.closest_length
    note = base.length_note(base.CLOSEST, c, counts.reference_lengths, r)
    bp = float(arrays.bp[0])
    zero = base.first_zero(orders)
    if not candidate and not any(references):
        return base.ToolTrace(orders, c, r, note, bp, message("tools.rule_matlab_empty"), math.nan)
    if c < options.max_order:
        short = message("tools.rule_matlab_short", words=c, weights=options.max_order)
        return base.ToolTrace(orders, c, r, note, bp, short, 0.0)
    rule = message("tools.rule_any_zero", order=zero.order) if zero is not None else None
    return base.ToolTrace(orders, c, r, note, bp, rule, float(arrays.score[0]))


def matlab_bleu_evaluation_score(
    candidate: Sequence[str],
    references: Sequence[Sequence[str]],
    ngram_weights: Sequence[float] = DEFAULT_WEIGHTS,
) -> float:
    """MATLAB ``bleuEvaluationScore(candidate, references, NgramWeights=w)`` on token lists.

    The weights are normalized to sum to one and their number N sets the highest order;
    no smoothing, so any zero precision with a positive weight gives 0.  The score is 0
    when the candidate has fewer than N words, and NaN when the candidate and every
    reference are empty.  (MATLAB tokenizes with ``tokenizedDocument``, which splits
    punctuation off words: pass its tokens for identical results.)
    """
    cand = check_tokens(candidate, "candidate")
    refs = check_references(references, "references")
    options = make_options(weights=ngram_weights, smooth="none", tokenize="none")
    return trace_matlab(cand, refs, options).score


def sentence_trace(
    implementation: base.Implementation, candidate: str, references: Sequence[str]
) -> base.ImplementationTrace:
    """The registry entry's sentence trace: whitespace tokens, four equal weights."""
    cand, refs = base.sentence_tokens(implementation, candidate, references)
    steps = trace_matlab(cand, refs, make_options(weights=DEFAULT_WEIGHTS, smooth="none", tokenize="none"))
    return base.ImplementationTrace.of(implementation, cand, refs, steps)
