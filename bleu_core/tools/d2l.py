"""The BLEU of "Dive into Deep Learning" (d2l ``bleu(pred_seq, label_seq, k)``), the one many students meet first.

BLEU = exp(min(0, 1 - len_label/len_pred)) * prod_{n=1}^{min(k, len_pred)} p_n^(1/2^n), on ONE label sequence.
Clipping is bleu_core's shared rule (d2l counts each label n-gram down as it is matched, which clips the same
way).  Its own conventions, stated where they happen: tokens are ``str.split(' ')`` (so doubled spaces give
empty tokens and an empty prediction is one empty token); only the first reference is used; the weights
1/2, 1/4, ... are used as given, not normalized; orders longer than the prediction are skipped without
renormalizing; a zero precision zeroes the product.  The book calls it with ``k=2``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bleu_core.i18n import message
from bleu_core.stats.clipping import clipped_matches
from bleu_core.tools import base

__all__ = ["BOOK_K", "IMPLEMENTATION", "d2l_bleu", "d2l_tokens", "trace_d2l"]

#: The ``k`` the book passes when it scores its translations.
BOOK_K = 2

IMPLEMENTATION = base.Implementation(
    key="d2l",
    short_name="d2l",
    corpus_level=False,
    name="Dive into Deep Learning bleu(k=2)",
    point=base.Conventions(
        tokenizer="space", references="first", empty_orders="skip", weights=(0.5, 0.25), aggregation="mean"
    ),
    source="d2l-ai/d2l-en, chapter 'Sequence-to-Sequence Learning for Machine Translation' (d2l.bleu)",
)


def d2l_tokens(text: str) -> list[str]:
    """d2l's tokens: ``text.split(' ')`` (not ``split()``)."""
    return text.split(" ")


def trace_d2l(prediction: Sequence[str], label: Sequence[str], k: int = BOOK_K) -> base.ToolTrace:
    """d2l's BLEU of one token list against one label token list, every step kept, in d2l's arithmetic."""
    c, r = len(prediction), len(label)
    if c == 0:  # d2l's own tokens never get here: ''.split(' ') is ['']
        raise ValueError("d2l divides by len_pred; give at least one token (d2l's split(' ') always gives one)")
    score = math.exp(min(0, 1 - r / c))
    bp, orders, zero = score, [], 0
    for n in range(1, k + 1):
        weight = math.pow(0.5, n)
        matches, total = clipped_matches(prediction, [label], n)
        if n > c:  # d2l loops to min(k, len_pred): the order is skipped, the others keep their weights
            orders.append(base.OrderStep(n, 0, 0, 0.0, 0.0, message("tools.note_d2l_skip", order=n)))
            continue
        p = matches / total
        score *= math.pow(p, weight)
        note = base.plain_note(matches, total) if matches else message("tools.note_d2l_zero", total=total)
        zero = zero or (n if matches == 0 else 0)
        orders.append(base.OrderStep(n, matches, total, p, weight, note))
    length = message("tools.length_d2l", r=r)
    rule = message("tools.rule_d2l_zero", order=zero) if zero else message("tools.rule_d2l")
    return base.ToolTrace(tuple(orders), c, r, length, bp, rule, score)


def d2l_bleu(pred_seq: str, label_seq: str, k: int = BOOK_K) -> float:
    """d2l's ``bleu(pred_seq, label_seq, k)`` of two space-separated strings, in [0, 1]."""
    if not isinstance(pred_seq, str) or not isinstance(label_seq, str):
        raise TypeError("pred_seq and label_seq must be str (d2l splits them on ' ')")
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be a whole number >= 1; got {k!r}")
    return trace_d2l(d2l_tokens(pred_seq), d2l_tokens(label_seq), k).score


def sentence_trace(
    implementation: base.Implementation, candidate: str, references: Sequence[str]
) -> base.ImplementationTrace:
    """The registry entry's sentence trace: split(' ') tokens, the first reference only, k = 2."""
    cand, (label,) = base.sentence_tokens(implementation, candidate, references)
    return base.ImplementationTrace.of(implementation, cand, [label], trace_d2l(cand, label, BOOK_K))
