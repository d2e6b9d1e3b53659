"""Where two tools part ways and what write-up mistakes cost: traces are the tools' scores, sentences carry numbers."""

from __future__ import annotations

import math
import sys
import warnings

import pytest
import sacrebleu
from hypothesis import given
from hypothesis import strategies as st
from nltk.translate import bleu_score as nltk_bleu

from bleu_core.gaps.divergence import compare_traces
from bleu_core.gaps.mistakes import common_mistakes, pretokenize
from bleu_core.tools import IMPLEMENTATIONS, compare_implementations, trace_implementation, trace_implementations

# No 3- or 4-gram match; c = 9, reference lengths 11 and 6, so r = 11 (closest) but 6 for HF (shortest).
CANDIDATE = "the bakery sold the well-known rye bread by noon"
REFERENCES = ["by noon the corner bakery had sold its famous rye bread", "the bakery was out by noon"]

words = st.lists(st.sampled_from(["a", "b", "c", "a.", "b,", "don't", "x-y", "(c)"]), max_size=7).map(" ".join)


@given(words, st.lists(words, min_size=1, max_size=3))
def test_every_trace_is_the_tool_score(candidate: str, references: list[str]) -> None:
    # The comparison table reads each tool's score off its trace; where the real package is installed
    # (sacreBLEU, NLTK) the trace's score equals it.
    rows = compare_implementations(candidate, references)
    traces = {t.implementation.key: t for t in trace_implementations(candidate, references)}
    for impl, native, unit in rows:
        trace = traces[impl.key]
        assert trace.implementation == impl
        assert (math.isnan(native) and math.isnan(trace.native_score)) or trace.native_score == native
        assert (math.isnan(unit) and math.isnan(trace.score)) or math.isclose(trace.score, unit, rel_tol=1e-15)
        # A tool compared with itself agrees everywhere.
        assert compare_traces(trace, trace).first_difference is None
    sacre = sacrebleu.sentence_bleu(candidate, references).score / 100
    assert math.isclose(traces["sacrebleu"].score, sacre, rel_tol=1e-12, abs_tol=0.0)
    tokens, refs = candidate.split(), [ref.split() for ref in references]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for key, smoother in (("nltk", "method0"), ("nltk-method1", "method1")):
            smooth = getattr(nltk_bleu.SmoothingFunction(), smoother)
            real = nltk_bleu.sentence_bleu(refs, tokens, smoothing_function=smooth)
            assert math.isclose(traces[key].score, real, rel_tol=1e-12, abs_tol=0.0), (key, traces[key].score, real)


def test_nltk_against_sacrebleu_on_the_example() -> None:
    sacre = trace_implementation("sacrebleu", CANDIDATE, REFERENCES)
    nltk = trace_implementation("nltk", CANDIDATE, REFERENCES)
    # p = 7/9, 3/8, 0/7, 0/6 for both; sacreBLEU's exp smoothing gives the k-th zero order 1/(2^k · total).
    assert [o.fraction for o in sacre.orders] == ["7/9", "3/8", "0/7", "0/6"]
    assert [o.precision for o in sacre.orders] == pytest.approx([7 / 9, 3 / 8, 1 / 14, 1 / 24], rel=1e-15)
    assert [o.precision for o in nltk.orders][2:] == [sys.float_info.min, sys.float_info.min]
    # BP = exp(1 - 11/9) for both; sacreBLEU = BP · (7/9 · 3/8 · 1/14 · 1/24)^(1/4).
    assert sacre.bp == nltk.bp == pytest.approx(math.exp(1 - 11 / 9), rel=1e-15)
    assert sacre.score == pytest.approx(math.exp(1 - 11 / 9) * (7 / 9 * 3 / 8 / 14 / 24) ** 0.25, rel=1e-12)
    assert sacre.score == pytest.approx(sacrebleu.sentence_bleu(CANDIDATE, REFERENCES).score / 100, rel=1e-12)
    divergence = compare_traces(sacre, nltk)
    step = divergence.first_difference
    assert step is not None and step.name == "precisions"
    assert [s.name for s in divergence.differing] == ["precisions", "score"]
    assert "sacreBLEU uses 1/(2·7) = 0.07143 (exp smoothing)" in step.explanation
    assert "NLTK substitutes 2.2e-308 (sys.float_info.min)" in step.explanation
    assert "1/(4·6)" in step.explanation
    assert divergence.summary.startswith("sacreBLEU and NLTK first part ways at the step 'precisions'")


def test_hf_parts_ways_at_the_reference_length() -> None:
    divergence = compare_traces(
        trace_implementation("sacrebleu", CANDIDATE, REFERENCES),
        trace_implementation("hf-evaluate", CANDIDATE, REFERENCES),
    )
    step = divergence.first_difference
    assert step is not None and step.name == "reference length r"
    assert "r = 11, the reference length closest to c = 9" in step.explanation
    assert "r = 6, the shortest of the reference lengths 11, 6" in step.explanation
    names = [s.name for s in divergence.differing]
    assert names == ["reference length r", "brevity penalty", "precisions", "final rule", "score"]


def test_tokens_are_the_first_difference_with_punctuation() -> None:
    # 13a splits "mat." into "mat ."; whitespace tools keep "mat." as one token.
    candidate, references = "the cat sat on the mat.", ["the cat sat on the mat."]
    sacre = trace_implementation("sacrebleu", candidate, references)
    multi = trace_implementation("multi-bleu", candidate, references)
    assert sacre.candidate_tokens[-2:] == ("mat", ".") and multi.candidate_tokens[-1] == "mat."
    divergence = compare_traces(sacre, multi)
    step = divergence.first_difference
    assert step is not None and step.name == "tokens"
    assert "token 6 is 'mat' for one and 'mat.' for the other" in step.explanation
    # Both score 1: the differences along the way cancel out, and the scale is the same (0-100).
    assert sacre.score == multi.score == 1.0
    assert "score" not in [s.name for s in divergence.differing]


def test_legacy_nltk_drops_zero_orders_and_its_weights() -> None:
    # The tutorial example: p = 3/4, 1/3, 0/2, 0/1 -> legacy (3/4 · 1/3)^(1/4) = 0.707107.
    legacy = trace_implementation("nltk-legacy", "this is a test", ["this is small test"])
    assert [o.weight for o in legacy.orders] == [0.25, 0.25, 0.0, 0.0]
    assert round(legacy.score, 6) == 0.707107
    divergence = compare_traces(trace_implementation("nltk", "this is a test", ["this is small test"]), legacy)
    assert [s.name for s in divergence.differing] == ["precisions", "weights", "score"]


def test_rules_that_decide_the_score() -> None:
    # Three words: MATLAB needs at least as many words as weights; multi-bleu.perl has no 4-gram (log 0).
    matlab = trace_implementation("matlab", "a b c", ["a b c"])
    assert matlab.score == 0.0 and "fewer words (3) than weights (4)" in str(matlab.rule)
    multi = trace_implementation("multi-bleu", "a b c", ["a b c"])
    assert multi.score == 0.0 and "log 0 is taken as -9999999999" in str(multi.rule)
    assert trace_implementation("sacrebleu", "a b c", ["a b c"]).score == 1.0
    # No unigram match: everyone gives 0; torchmetrics names the order without a match.
    assert "p_1 = 0" in str(trace_implementation("torchmetrics", "x y", ["a b"]).rule)
    assert str(trace_implementation("nltk", "x y", ["a b"]).rule) == "no unigram match: 0"
    # Ties: c = 4 between references of 5 and 3 words; torchmetrics takes the first listed.
    torch = trace_implementation("torchmetrics", "a b c d", ["a b c d e", "a b c"])
    assert torch.reference_length == 5 and "the tie goes to the first listed" in str(torch.length_note)
    assert trace_implementation("nltk", "a b c d", ["a b c d e", "a b c"]).reference_length == 3


def test_common_mistakes_on_the_example() -> None:
    checks = {c.key: c for c in common_mistakes(CANDIDATE, REFERENCES)}
    assert list(checks) == ["no-log", "inverted-bp", "no-clipping", "shortest-reference", "tokenized-text"]
    correct = sacrebleu.sentence_bleu(CANDIDATE, REFERENCES).score / 100
    assert all(c.correct == pytest.approx(correct, rel=1e-12) and c.differs for c in checks.values())
    bp = math.exp(1 - 11 / 9)
    geometric = (7 / 9 * 3 / 8 / 14 / 24) ** 0.25
    # Without the log: BP · exp(mean of 7/9, 3/8, 1/14, 1/24).
    assert checks["no-log"].wrong == pytest.approx(bp * math.exp((7 / 9 + 3 / 8 + 1 / 14 + 1 / 24) / 4), rel=1e-12)
    # exp(1 - c/r) = exp(1 - 9/11) > 1.
    assert checks["inverted-bp"].wrong == pytest.approx(math.exp(1 - 9 / 11) * geometric, rel=1e-12)
    assert "exp(1 − 9/11) = 1.1994" in checks["inverted-bp"].explanation
    # No clipping: "the" twice counts twice, p1 = 8/9.
    assert checks["no-clipping"].wrong == pytest.approx(bp * (8 / 9 * 3 / 8 / 14 / 24) ** 0.25, rel=1e-12)
    assert "p_1 becomes 8/9 instead of 7/9 ('the' counted twice" in checks["no-clipping"].explanation
    # Shortest reference: r = 6 < c = 9, so BP = 1.
    assert checks["shortest-reference"].wrong == pytest.approx(geometric, rel=1e-12)
    # Tokenized text, scored by the real sacreBLEU on the Moses-style tokens.
    tokenized = sacrebleu.sentence_bleu(pretokenize(CANDIDATE), [pretokenize(r) for r in REFERENCES]).score / 100
    assert checks["tokenized-text"].wrong == pytest.approx(tokenized, rel=1e-12)


def test_mistakes_that_do_not_show_on_an_input_say_so() -> None:
    checks = {c.key: c for c in common_mistakes("the cat sat on a mat", ["the cat sat on a mat"])}
    assert checks["no-log"].differs  # exp(1) = e instead of 1
    assert checks["no-log"].wrong == pytest.approx(math.e, rel=1e-12)
    for key in ("inverted-bp", "no-clipping", "shortest-reference", "tokenized-text"):
        assert not checks[key].differs, key
    assert "BP = 1 under either formula" in checks["inverted-bp"].explanation
    assert "clipping removes nothing" in checks["no-clipping"].explanation
    assert "same" in checks["shortest-reference"].explanation
    assert "changes no token" in checks["tokenized-text"].explanation
    # No unigram match: 0 with or without the log.
    assert common_mistakes("x", ["a"])[0].wrong == 0.0


def test_pretokenize_splits_like_moses() -> None:
    assert pretokenize("a well-known fact, isn't it?") == "a well @-@ known fact , isn 't it ?"


@pytest.mark.parametrize(
    ("call", "error", "fragment"),
    [
        (lambda: trace_implementation("bleurt", "a", ["a"]), ValueError, "unknown implementation"),
        (lambda: trace_implementations("a", "a"), TypeError, "list of strings"),
        (lambda: trace_implementations("a", []), ValueError, "no references"),
        (lambda: trace_implementations(["a"], ["a"]), TypeError, "candidate must be a str"),
        (lambda: common_mistakes("a", [1]), TypeError, r"references\[0\]"),
    ],
)
def test_invalid_input_is_explained(call: object, error: type[Exception], fragment: str) -> None:
    with pytest.raises(error, match=fragment):
        call()  # type: ignore[operator]


def test_every_registry_entry_has_a_tracer() -> None:
    traces = trace_implementations(CANDIDATE, REFERENCES)
    assert [t.implementation.key for t in traces] == list(IMPLEMENTATIONS)
