"""What common BLEU write-up mistakes cost, in numbers: sacreBLEU's sentence score next to one step done wrong.

:func:`common_mistakes` reads an :func:`~bleu_core.teach.explain.explain` result and recomputes the score with one
step changed at a time (no log, an inverted brevity penalty, no clipping, the shortest reference, text tokenized
before scoring), through the same scorer as everything else.  Every sentence is built from the numbers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bleu_core.i18n import Message
from bleu_core.stats.scoring import score_statistics
from bleu_core.stats.segment_stats import SegmentStats
from bleu_core.teach.explain import Explanation, explain
from bleu_core.tokenizers import tokenize_line
from bleu_core.tools import check_sentence_input

__all__ = ["MistakeCheck", "common_mistakes", "pretokenize"]


@dataclass(frozen=True, slots=True)
class MistakeCheck:
    """sacreBLEU's sentence score next to the score with one step done wrong.

    The prose is in the catalogs (``mistakes.<key>_*``): :attr:`title`, :attr:`wrong_rule`, :attr:`correct_rule`
    and :attr:`detail` are messages for any language; ``mistake``, ``wrong_formula``, ``correct_formula`` and
    ``explanation`` are the same in English.
    """

    key: str
    correct: float
    wrong: float
    detail: Message

    @property
    def _name(self) -> str:
        return self.key.replace("-", "_")

    @property
    def title(self) -> Message:
        return Message(f"mistakes.{self._name}_title")

    @property
    def wrong_rule(self) -> Message:
        return Message(f"mistakes.{self._name}_wrong")

    @property
    def correct_rule(self) -> Message:
        return Message(f"mistakes.{self._name}_correct")

    @property
    def mistake(self) -> str:
        return str(self.title)

    @property
    def wrong_formula(self) -> str:
        return str(self.wrong_rule)

    @property
    def correct_formula(self) -> str:
        return str(self.correct_rule)

    @property
    def explanation(self) -> str:
        return str(self.detail)

    @property
    def differs(self) -> bool:
        return not math.isclose(self.correct, self.wrong, rel_tol=1e-9, abs_tol=1e-12)


_HYPHEN = re.compile(r"(?<=\w)-(?=\w)")
_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)")


def pretokenize(text: str) -> str:
    """Text as a Moses-style tokenizer leaves it: 13a tokens, hyphens as ``@-@``, ``don't`` as ``don 't``.

    Used to show what scoring already-tokenized text does to a sacreBLEU score.
    """
    joined = " ".join(tokenize_line(text, "13a"))
    return _APOSTROPHE.sub(" '", _HYPHEN.sub(" @-@ ", joined))


def _rescore(trace: Explanation, matches: Sequence[int] | None = None, ref_len: int | None = None) -> float:
    stats = SegmentStats(
        np.array([list(matches) if matches is not None else [o.matches for o in trace.orders]], dtype=np.int64),
        np.array([[o.total for o in trace.orders]], dtype=np.int64),
        np.array([trace.length.candidate_length], dtype=np.int64),
        np.array([trace.length.chosen_length if ref_len is None else ref_len], dtype=np.int64),
    )
    return float(score_statistics(stats, trace.options).score[0])


def _used(trace: Explanation) -> list[tuple[float, float]]:
    """(weight, precision) of the orders sacreBLEU uses, the precisions after smoothing."""
    return [(o.weight, o.precision) for o in trace.orders if o.weight > 0]


def _no_log(trace: Explanation) -> MistakeCheck:
    used = _used(trace)
    mean = math.fsum(w * p for w, p in used)
    wrong = 0.0 if trace.no_unigram_match else trace.bp * math.exp(mean)
    if trace.no_unigram_match:
        detail = Message("mistakes.no_log_no_match")
    else:
        detail = Message(
            "mistakes.no_log_detail",
            {"mean": f"{mean:.4f}", "bp": f"{trace.bp:.4f}", "wrong": f"{wrong:.4f}", "score": f"{trace.score:.4f}"},
        )
    return MistakeCheck("no-log", trace.score, wrong, detail)


def _inverted_bp(trace: Explanation) -> MistakeCheck:
    c, r = trace.length.candidate_length, trace.length.chosen_length
    if 0 < c < r:
        wrong_bp = math.exp(1 - c / r)
        wrong = trace.score / trace.bp * wrong_bp
        detail = Message(
            "mistakes.inverted_bp_detail", {"c": c, "r": r, "wrong_bp": f"{wrong_bp:.4f}", "bp": f"{trace.bp:.4f}"}
        )
    else:
        wrong = trace.score
        detail = Message("mistakes.inverted_bp_same", {"c": c, "r": r})
    return MistakeCheck("inverted-bp", trace.score, wrong, detail)


def _times(count: int) -> Message:
    return Message({1: "mistakes.once", 2: "mistakes.twice"}.get(count, "mistakes.times"), {"count": count})


def _no_clipping(trace: Explanation) -> MistakeCheck:
    unclipped = [sum(row.candidate_count for row in o.rows if row.max_reference_count > 0) for o in trace.orders]
    wrong = _rescore(trace, matches=unclipped)
    changed = [(o, u) for o, u in zip(trace.orders, unclipped, strict=True) if u != o.matches]
    if not changed:
        detail = Message("mistakes.no_clipping_nothing")
    else:
        parts = []
        for o, u in changed:
            row = max(o.rows, key=lambda x: x.clipped_away)
            parts.append(
                Message(
                    "mistakes.no_clipping_part",
                    {
                        "n": o.order,
                        "unclipped": f"{u}/{o.total}",
                        "fraction": o.fraction,
                        "ngram": row.text,
                        "times": _times(row.candidate_count),
                        "most": _times(row.max_reference_count),
                    },
                )
            )
        detail = Message("mistakes.no_clipping_detail", {"parts": tuple(parts)})
    return MistakeCheck("no-clipping", trace.score, wrong, detail)


def _shortest(trace: Explanation) -> MistakeCheck:
    lengths = trace.length.reference_lengths
    shortest, r, c = min(lengths), trace.length.chosen_length, trace.length.candidate_length
    wrong = _rescore(trace, ref_len=shortest)
    if len(lengths) == 1:
        detail = Message("mistakes.shortest_one")
    elif shortest == r:
        detail = Message("mistakes.shortest_same", {"r": r, "c": c})
    else:
        wrong_bp = float(score_statistics(_length_stats(c, shortest), trace.options).bp[0])
        params = {"shortest": shortest, "c": c, "r": r, "bp": f"{trace.bp:.4f}", "wrong_bp": f"{wrong_bp:.4f}"}
        same = math.isclose(wrong_bp, trace.bp)
        detail = Message("mistakes.shortest_same_bp" if same else "mistakes.shortest_detail", params)
    return MistakeCheck("shortest-reference", trace.score, wrong, detail)


def _length_stats(candidate_length: int, reference_length: int) -> SegmentStats:
    return SegmentStats(
        np.zeros((1, 1), dtype=np.int64),
        np.ones((1, 1), dtype=np.int64),
        np.array([candidate_length], dtype=np.int64),
        np.array([reference_length], dtype=np.int64),
    )


def _tokenized(trace: Explanation) -> MistakeCheck:
    candidate = pretokenize(trace.candidate)
    references = [pretokenize(ref) for ref in trace.references]
    again = explain(candidate, references)
    wrong = again.score
    if again.candidate_tokens == trace.candidate_tokens and again.reference_tokens == trace.reference_tokens:
        detail = Message("mistakes.tokenized_same")
    else:
        detail = Message(
            "mistakes.tokenized_detail",
            {
                "before": trace.length.candidate_length,
                "after": again.length.candidate_length,
                "tokens": " ".join(again.candidate_tokens),
                "counts": ", ".join(o.fraction for o in again.orders),
                "wrong": f"{wrong:.4f}",
            },
        )
    return MistakeCheck("tokenized-text", trace.score, wrong, detail)


def common_mistakes(candidate: str, references: Sequence[str]) -> tuple[MistakeCheck, ...]:
    """sacreBLEU's sentence BLEU (13a, exp smoothing, effective order) next to five common mistakes.

    Each check changes one step and keeps the rest: exp(Σ w·p_n) without the log; BP as
    exp(1 − c/r); unclipped counts; the shortest reference length; text tokenized before scoring.
    """
    refs = check_sentence_input(candidate, references)
    trace = explain(candidate, refs)
    return (_no_log(trace), _inverted_bp(trace), _no_clipping(trace), _shortest(trace), _tokenized(trace))
