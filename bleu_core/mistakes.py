"""What common BLEU write-up mistakes cost, in numbers: sacreBLEU's sentence score next to one step done wrong.

:func:`common_mistakes` reads an :func:`~bleu_core.explain.explain` result and recomputes the score with one
step changed at a time (no log, an inverted brevity penalty, no clipping, the shortest reference, text tokenized
before scoring), through the same scorer as everything else.  Every sentence is built from the numbers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .explain import Explanation, explain
from .scoring import score_statistics
from .statistics import SegmentStats
from .tokenizers import tokenize_line
from .tools import check_sentence_input

__all__ = ["MistakeCheck", "common_mistakes", "pretokenize"]


@dataclass(frozen=True, slots=True)
class MistakeCheck:
    """sacreBLEU's sentence score next to the score with one step done wrong."""

    key: str
    mistake: str
    wrong_formula: str
    correct_formula: str
    correct: float
    wrong: float
    explanation: str

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
        text = "No unigram matches, so both are 0 here."
    else:
        text = (
            f"Σ w·p_n = {mean:.4f} is the arithmetic mean of the precisions; exponentiating it gives "
            f"{trace.bp:.4f}·exp({mean:.4f}) = {wrong:.4f}, which can never fall below BP = {trace.bp:.4f} "
            f"however poor the match. The geometric mean exp(Σ w·log p_n) gives {trace.score:.4f}."
        )
    return MistakeCheck(
        "no-log",
        "exp of the weighted precisions, without the log",
        "BP·exp(Σ w_n·p_n)",
        "BP·exp(Σ w_n·log p_n)",
        trace.score,
        wrong,
        text,
    )


def _inverted_bp(trace: Explanation) -> MistakeCheck:
    c, r = trace.length.candidate_length, trace.length.chosen_length
    if 0 < c < r:
        wrong_bp = math.exp(1 - c / r)
        wrong = trace.score / trace.bp * wrong_bp
        text = (
            f"With c = {c} < r = {r}, exp(1 − c/r) = exp(1 − {c}/{r}) = {wrong_bp:.4f} is above 1 and rewards "
            f"the short candidate; exp(1 − r/c) = {trace.bp:.4f} penalizes it."
        )
    else:
        wrong = trace.score
        text = f"Here c = {c} ≥ r = {r}, so BP = 1 under either formula; a shorter candidate would show the mistake."
    return MistakeCheck(
        "inverted-bp",
        "brevity penalty written as exp(1 − c/r)",
        "exp(1 − c/r)",
        "exp(1 − r/c)",
        trace.score,
        wrong,
        text,
    )


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def _no_clipping(trace: Explanation) -> MistakeCheck:
    unclipped = [sum(row.candidate_count for row in o.rows if row.max_reference_count > 0) for o in trace.orders]
    wrong = _rescore(trace, matches=unclipped)
    changed = [(o, u) for o, u in zip(trace.orders, unclipped, strict=True) if u != o.matches]
    if not changed:
        text = (
            "No n-gram occurs in the candidate more often than in the reference that has it most: "
            "clipping removes nothing here."
        )
    else:
        parts = []
        for o, u in changed:
            row = max(o.rows, key=lambda x: x.clipped_away)
            parts.append(
                f"p_{o.order} becomes {u}/{o.total} instead of {o.fraction} ('{row.text}' counted "
                f"{_times(row.candidate_count)}, though no reference has it more than "
                f"{_times(row.max_reference_count)})"
            )
        text = "; ".join(parts) + "."
    return MistakeCheck(
        "no-clipping",
        "forgetting to clip the counts",
        "count every candidate n-gram found in a reference",
        "min(count, max count in one reference)",
        trace.score,
        wrong,
        text,
    )


def _shortest(trace: Explanation) -> MistakeCheck:
    lengths = trace.length.reference_lengths
    shortest, r, c = min(lengths), trace.length.chosen_length, trace.length.candidate_length
    wrong = _rescore(trace, ref_len=shortest)
    if len(lengths) == 1:
        text = "With one reference, shortest and closest are the same."
    elif shortest == r:
        text = f"The closest reference (r = {r} for c = {c}) is also the shortest here."
    else:
        wrong_bp = float(score_statistics(_length_stats(c, shortest), trace.options).bp[0])
        text = f"The shortest reference has {shortest} tokens, the one closest to c = {c} has {r}: "
        if math.isclose(wrong_bp, trace.bp):
            text += f"c is at least both, so BP = {trace.bp:.4f} either way."
        else:
            text += f"BP = {wrong_bp:.4f} instead of {trace.bp:.4f}."
    return MistakeCheck(
        "shortest-reference",
        "the shortest reference instead of the closest",
        "r = shortest reference length",
        "r = closest reference length",
        trace.score,
        wrong,
        text,
    )


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
        text = (
            "A Moses-style tokenizer (hyphens as @-@, apostrophes split off) changes no token of this text, "
            "so the score is the same here; on real text it usually is not."
        )
    else:
        counts = ", ".join(o.fraction for o in again.orders)
        text = (
            f"A Moses-style tokenizer (hyphens as @-@, apostrophes split off) run before sacreBLEU turns the "
            f"candidate's {trace.length.candidate_length} tokens into {again.length.candidate_length} "
            f"('{' '.join(again.candidate_tokens)}'); the counts become {counts} and BLEU {wrong:.4f}: "
            "scores on tokenized text are not comparable with sacreBLEU's."
        )
    return MistakeCheck(
        "tokenized-text",
        "scoring already-tokenized text",
        "sacreBLEU on Moses-tokenized text",
        "sacreBLEU on the plain text",
        trace.score,
        wrong,
        text,
    )


def common_mistakes(candidate: str, references: Sequence[str]) -> tuple[MistakeCheck, ...]:
    """sacreBLEU's sentence BLEU (13a, exp smoothing, effective order) next to five common mistakes.

    Each check changes one step and keeps the rest: exp(Σ w·p_n) without the log; BP as
    exp(1 − c/r); unclipped counts; the shortest reference length; text tokenized before scoring.
    """
    refs = check_sentence_input(candidate, references)
    trace = explain(candidate, refs)
    return (_no_log(trace), _inverted_bp(trace), _no_clipping(trace), _shortest(trace), _tokenized(trace))
