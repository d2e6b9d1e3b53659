"""Moses ``multi-bleu.perl [-lc] ref < hyp`` on lines of already tokenized text (0-100).

Tokens are whitespace-separated.  Clipping, totals, the closest reference length (ties to the shorter) and
the brevity penalty are bleu_core's shared rules; the script's own rules come after them: uniform 1/4
weights on orders 1-4, no smoothing, and ``my_log(0) = -9999999999``, so any order without a match (or
without candidate n-grams, e.g. a 3-word corpus) gives 0.  It prints BLEU = 0 when r = 0 and dies with
"Illegal division by zero" when every hypothesis is empty.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bleu_core.api import check_corpus
from bleu_core.i18n import message
from bleu_core.tools import base
from bleu_core.tools.checks import Streams, check_flag, segment_references

__all__ = ["IMPLEMENTATION", "PERL_LOG_ZERO", "multi_bleu_perl", "trace_multi_bleu"]

#: multi-bleu.perl's my_log(0): the script's deviation from log 0 = -inf (the score still comes out 0).
PERL_LOG_ZERO = -9999999999.0

IMPLEMENTATION = base.Implementation(
    key="multi-bleu",
    short_name="multi-bleu.perl",
    name="Moses multi-bleu.perl",
    point=base.Conventions(tokenizer="whitespace", brevity="zero-when-r-is-0", scale="0-100"),
    source="moses-smt/mosesdecoder scripts/generic/multi-bleu.perl",
)

_DIES = "multi-bleu.perl dies with 'Illegal division by zero' when every hypothesis is empty"


def trace_multi_bleu(
    hypotheses: Sequence[Sequence[str]], references: Sequence[Sequence[Sequence[str]]]
) -> base.ToolTrace:
    """The script's BLEU of tokenized lines (``references[i]``: line i's references), every step kept."""
    counts = base.count_corpus(hypotheses, references, 4)
    c, r = counts.candidate_length, counts.closest_length
    note = base.length_note(base.CLOSEST, c, counts.reference_lengths, r)
    pairs = zip(counts.matches, counts.totals, strict=True)
    orders = tuple(
        base.OrderStep(n, m, t, m / t if t else 0.0, 0.25, base.unsmoothed_note(n, m, t))
        for n, (m, t) in enumerate(pairs, 1)
    )
    bp = base.shared_brevity_penalty(c, r)
    if r == 0:
        return base.ToolTrace(orders, c, r, note, bp, message("tools.rule_multi_r0"), 0.0)
    if c == 0:
        dies = message("tools.rule_multi_dies")
        return base.ToolTrace(orders, c, r, note, bp, dies, math.nan, failure=_DIES)
    logs = [math.log(o.precision) if o.precision else PERL_LOG_ZERO for o in orders]
    bleu = bp * math.exp((logs[0] + logs[1] + logs[2] + logs[3]) / 4)
    zero = base.first_zero(orders)
    rule = (
        message("tools.rule_multi_log0", order=zero.order, value=f"{PERL_LOG_ZERO:.0f}") if zero is not None else None
    )
    return base.ToolTrace(orders, c, r, note, bp, rule, bleu)


def multi_bleu_perl(
    hypotheses: Sequence[str], references: Sequence[Sequence[str | None]], *, lowercase: bool = False
) -> float:
    """Moses ``multi-bleu.perl [-lc] ref < hyp`` (0-100) on lines of already tokenized text.

    ``references[k][i]`` is line i of reference file k (None: that file has no line i).  The
    script prints BLEU = 0 when r = 0 (returned here as 0) and dies when every hypothesis is
    empty (:class:`~bleu_core.tools.base.OriginalToolError`).
    """
    hyps, streams = check_corpus(hypotheses, references)
    lower = check_flag(lowercase, "lowercase")

    def words(line: str) -> list[str]:
        return (line.lower() if lower else line).split()

    segments = [[words(ref) for ref in refs] for refs in segment_references(hyps, streams)]
    return 100 * trace_multi_bleu([words(h) for h in hyps], segments).checked_score()


def sentence_trace(
    implementation: base.Implementation, candidate: str, references: Sequence[str]
) -> base.ImplementationTrace:
    """The registry entry's sentence trace: whitespace tokens, case kept."""
    cand, refs = base.sentence_tokens(implementation, candidate, references)
    return base.ImplementationTrace.of(implementation, cand, refs, trace_multi_bleu([cand], [refs]))


def corpus_score(implementation: base.Implementation, hypotheses: Sequence[str], streams: Streams) -> float:
    """The registry entry's corpus score (0-100) of sacreBLEU-style streams (``streams[k][i]``)."""
    return multi_bleu_perl(hypotheses, streams)
