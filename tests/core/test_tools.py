"""The tools package: one trace per tool, the score read off it, failures and corpus traces."""

from __future__ import annotations

import math

import pytest

from bleu_core.nltk_api import corpus_bleu as nltk_corpus_bleu
from bleu_core.tools import OriginalToolError, trace_implementation
from bleu_core.tools.base import count_corpus
from bleu_core.tools.hf_evaluate import hf_evaluate_bleu, trace_hf_evaluate
from bleu_core.tools.multi_bleu import multi_bleu_perl, trace_multi_bleu
from bleu_core.tools.nltk_bleu import DEFAULT_WEIGHTS, trace_nltk
from bleu_core.tools.torchmetrics_bleu import torchmetrics_bleu, trace_torchmetrics


def test_corpus_trace_is_the_corpus_score() -> None:
    # Two segments: "a b c d" / "a b c d" and "e" / "e f"; the one-word segment has no 2-, 3- or 4-grams,
    # so NLTK divides each of those orders by one more (its max(1, total) per segment): 3/4, 2/3, 1/2.
    hyps = [["a", "b", "c", "d"], ["e"]]
    refs = [[["a", "b", "c", "d"]], [["e", "f"]]]
    counts = count_corpus(hyps, refs, 4)
    assert counts.matches == (5, 3, 2, 1) and counts.totals == (5, 3, 2, 1)
    assert (counts.candidate_length, counts.closest_length) == (5, 6)
    trace = trace_nltk(counts, (hyps[-1], refs[-1]), DEFAULT_WEIGHTS)
    assert [o.fraction for o in trace.orders] == ["5/5", "3/4", "2/3", "1/2"]
    assert "no 2-grams in 1 of 2 segments; NLTK divides each by at least 1" in str(trace.orders[1].note)
    assert trace.score == nltk_corpus_bleu(refs, hyps)
    assert trace.bp == pytest.approx(math.exp(1 - 6 / 5), rel=1e-15)
    assert str(trace.length_note) == "r = 6, the sum over 2 segments of the closest reference length"
    # HF: the shortest reference per segment; torchmetrics: ties to the first; both read off their traces.
    assert trace_hf_evaluate(hyps, refs, 4, False).score == hf_evaluate_bleu(hyps, refs)["bleu"]
    assert trace_torchmetrics(hyps, refs, (0.25,) * 4, False).score == torchmetrics_bleu(hyps, refs)


def test_a_failing_tool_is_a_trace_with_a_failure() -> None:
    trace = trace_multi_bleu([[]], [[["a", "b"]]])
    assert math.isnan(trace.score) and "dies" in str(trace.rule)
    with pytest.raises(OriginalToolError, match="Illegal division by zero"):
        trace.checked_score()
    with pytest.raises(OriginalToolError, match="Illegal division by zero"):
        multi_bleu_perl([""], [["a b"]])
    assert math.isnan(trace_implementation("multi-bleu", "", ["a b"]).score)
    # NLTK's method6 without a trigram match: the trace keeps NLTK's failure, the score function raises it.
    counts = count_corpus([["a", "b"]], [[["a", "b"]]], 4)
    failed = trace_nltk(counts, (["a", "b"], [["a", "b"]]), DEFAULT_WEIGHTS, 6)
    assert math.isnan(failed.score) and "method6" in failed.failure


def test_nltk_stops_before_smoothing_without_a_unigram_match() -> None:
    trace = trace_implementation("nltk-method1", "x y", ["a b"])
    assert trace.score == 0.0 and str(trace.rule) == "no unigram match: 0"
    assert all("unused: NLTK returns 0 before smoothing" in str(o.note) for o in trace.orders)


def test_empty_corpus_counts() -> None:
    counts = count_corpus([], [], 4)
    assert counts.matches == counts.totals == (0, 0, 0, 0) and counts.closest_length == 0
    assert hf_evaluate_bleu([], [])["bleu"] == 0.0
