"""The waterfall: from one tool's score to another's one setting at a time, the steps adding up to the gap.

Checked for every ordered pair of tools on random sentences and corpora and on WMT22 segments; the endpoints are
the tools' own trace scores; NLTK's numbers are the real nltk's; d2l's equals the book's formula written here.
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
import math
import random
import warnings

import pytest
from nltk.translate import bleu_score as nltk_bleu

from bleu_core.gaps.conventions import TOOL_CONVENTIONS, Conventions, Corpus, conventions_of, score_conventions
from bleu_core.gaps.waterfall import (
    PIPELINE,
    RULES_FIRST,
    Waterfall,
    corpus_scores_and_waterfalls,
    corpus_waterfall,
    first_differing_segment,
    waterfall,
)
from bleu_core.tools import IMPLEMENTATIONS, compare_corpus_implementations, trace_implementation
from bleu_core.tools.d2l import d2l_bleu
from tests.conftest import Pair, read_plain

KEYS = list(IMPLEMENTATIONS)
PAIRS = list(itertools.permutations(KEYS, 2))
WORDS = ["the", "a", "cat", "sat", "on", "mat", ".", ",", "dog", "it", "rained", "all", "day", "day's"]


def random_sentence(rng: random.Random, longest: int) -> str:
    text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, longest)))
    return text + "  x" if rng.random() < 0.1 else text  # a doubled space now and then (d2l's split(' '))


def assert_adds_up(result: object, first_score: float, second_score: float) -> None:
    rows = result.rows  # type: ignore[attr-defined]
    assert rows, result
    assert math.isclose(rows[0].score, first_score, rel_tol=1e-12, abs_tol=1e-300)
    assert math.isclose(rows[-1].score, second_score, rel_tol=1e-12, abs_tol=1e-300)
    total = math.fsum(row.change for row in rows)
    assert abs(total - (rows[-1].score - rows[0].score)) <= 1e-12
    assert abs(total - (second_score - first_score)) <= 1e-12
    for before, after in itertools.pairwise(rows):
        assert after.change == after.score - before.score


def test_every_pair_on_random_sentences_adds_up_to_the_gap() -> None:
    rng = random.Random(7)
    checked = 0
    for _ in range(25):
        candidate = random_sentence(rng, 9)
        references = [random_sentence(rng, 10) or "x" for _ in range(rng.randint(1, 3))]
        own = {key: trace_implementation(key, candidate, references).score for key in KEYS}
        for first, second in PAIRS:
            result = waterfall(first, second, candidate, references, rng.choice([PIPELINE, RULES_FIRST]))
            if math.isnan(own[first]) or math.isnan(own[second]):
                assert result.reason and not result.rows
                continue
            assert_adds_up(result, own[first], own[second])
            checked += 1
    assert checked > 1500


def test_every_pair_on_random_corpora_adds_up_to_the_gap() -> None:
    rng = random.Random(11)
    for _ in range(6):
        size = rng.randint(1, 5)
        hypotheses = [random_sentence(rng, 8) or "a" for _ in range(size)]
        streams = [[random_sentence(rng, 9) or "x" for _ in range(size)] for _ in range(rng.randint(1, 2))]
        for first, second in PAIRS:
            result = corpus_waterfall(first, second, hypotheses, streams)
            if result.reason:
                continue
            assert_adds_up(result, result.first_score, result.second_score)


def test_each_tool_sits_at_its_own_point() -> None:
    """The parametrised scorer at a tool's conventions is the tool's own trace score."""
    rng = random.Random(3)
    for _ in range(60):
        candidate = random_sentence(rng, 8)
        references = [random_sentence(rng, 9) for _ in range(rng.randint(1, 3))]
        for key in KEYS:
            own = trace_implementation(key, candidate, references).score
            if math.isnan(own):
                continue
            ours = score_conventions(Corpus((candidate,), (tuple(references),)), conventions_of(key, corpus=False))
            assert math.isclose(ours, own, rel_tol=1e-12, abs_tol=1e-300), (key, candidate, references)


@pytest.fixture(scope="module")
def wmt(pairs: list[Pair]) -> tuple[list[str], list[list[str]]]:
    pair = next(p for p in pairs if p.name == "de-en") if any(p.name == "de-en" for p in pairs) else pairs[0]
    hypotheses = read_plain(pair.systems[0])[:120]
    streams = [read_plain(ref)[:120] for ref in pair.references[:2]]
    return hypotheses, streams


def test_every_pair_on_wmt22_corpus_and_segments(wmt: tuple[list[str], list[list[str]]]) -> None:
    hypotheses, streams = wmt
    for first, second in PAIRS:
        result = corpus_waterfall(first, second, hypotheses, streams)
        assert not result.reason, result.reason
        assert_adds_up(result, result.first_score, result.second_score)
    for i in range(0, 120, 15):
        references = [s[i] for s in streams]
        for first, second in PAIRS:
            own_a = trace_implementation(first, hypotheses[i], references).score
            own_b = trace_implementation(second, hypotheses[i], references).score
            assert_adds_up(waterfall(first, second, hypotheses[i], references), own_a, own_b)


def test_sentence_only_tools_corpus_score_is_the_mean_of_their_traces(
    wmt: tuple[list[str], list[list[str]]],
) -> None:
    """The waterfall reads a sentence-only tool's corpus score off the counts; its own traces, averaged, agree."""
    rng = random.Random(5)
    corpora = [wmt] + [
        (
            [random_sentence(rng, 8) or "a" for _ in range(size)],
            [[random_sentence(rng, 9) or "x" for _ in range(size)] for _ in range(rng.randint(1, 2))],
        )
        for size in (1, 3, 7, 20)
    ]
    corpora += [(["", "a b c"], [["", "a b c"]]), (["", "a b"], [["x y", "a b c"]]), (["a b", ""], [["", "a b"]])]
    sentence_only = [key for key, impl in IMPLEMENTATIONS.items() if not impl.corpus_level]
    assert len(sentence_only) >= 3
    for hypotheses, streams in corpora:
        for key in sentence_only:
            traces = [trace_implementation(key, h, [s[i] for s in streams]).score for i, h in enumerate(hypotheses)]
            mean = math.fsum(traces) / len(traces)
            result = corpus_waterfall("sacrebleu", key, hypotheses, streams)
            if math.isnan(mean):
                assert result.no_score == key
                continue
            assert math.isclose(result.second_score, mean, rel_tol=1e-12, abs_tol=1e-300), key


def _same(a: Waterfall, b: Waterfall) -> bool:
    """Equal waterfalls, NaN scores counted equal."""
    return repr(a) == repr(b)


def test_the_tables_scores_and_waterfalls_equal_each_computed_alone() -> None:
    """Scoring each tool once for the table and its waterfalls (and handing the scores to the chosen pair's
    waterfall) changes no number: each equals the result of scoring from scratch."""
    rng = random.Random(29)
    corpora = [
        ([random_sentence(rng, 8) or "a" for _ in range(12)], [[random_sentence(rng, 9) or "x" for _ in range(12)]]),
        (["", "a b c", "the cat"], [["", "a b c", "the cat sat"], ["x", "a b", "cat"]]),
    ]
    for hypotheses, streams in corpora:
        rows, waterfalls = corpus_scores_and_waterfalls("sacrebleu", hypotheses, streams)
        alone = compare_corpus_implementations(hypotheses, streams)
        assert repr([(impl.key, native, unit) for impl, native, unit in rows]) == repr(
            [(impl.key, native, unit) for impl, native, unit in alone]
        )
        assert list(waterfalls) == list(IMPLEMENTATIONS)
        own = {key: result.second_score for key, result in waterfalls.items()}
        for key, result in waterfalls.items():
            assert _same(result, corpus_waterfall("sacrebleu", key, hypotheses, streams)), key
        for first, second in (("nltk", "matlab"), ("torchmetrics", "nltk-legacy"), ("d2l", "sacrebleu")):
            given = corpus_waterfall(first, second, hypotheses, streams, own_scores=own)
            assert _same(given, corpus_waterfall(first, second, hypotheses, streams)), (first, second)


def quiet(function: object, *args: object, **kwargs: object) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(function(*args, **kwargs))  # type: ignore[operator]


def test_nltk_endpoints_are_the_real_nltk(wmt: tuple[list[str], list[list[str]]]) -> None:
    hypotheses, streams = wmt
    references = [[s[i].split() for s in streams] for i in range(len(hypotheses))]
    tokens = [h.split() for h in hypotheses]
    method1 = nltk_bleu.SmoothingFunction().method1
    for key, smoothing in (("nltk", None), ("nltk-method1", method1)):
        real = quiet(nltk_bleu.corpus_bleu, references, tokens, smoothing_function=smoothing)
        result = corpus_waterfall("sacrebleu", key, hypotheses, streams)
        assert result.rows[-1].score == pytest.approx(real, rel=1e-12)
        for i in range(0, 120, 10):
            real = quiet(nltk_bleu.sentence_bleu, references[i], tokens[i], smoothing_function=smoothing)
            result = waterfall(key, "sacrebleu", hypotheses[i], [s[i] for s in streams])
            assert result.rows[0].score == pytest.approx(real, rel=1e-12, abs=1e-300)


def test_nltk_short_segment_is_attributed_to_its_denominator_floor() -> None:
    """A 3-word segment has no 4-grams; NLTK divides by max(1, 0) = 1: p4 = 1/2, BLEU = 0.5^(1/4) = 0.8409."""
    result = corpus_waterfall("sacrebleu", "nltk", ["a b c d", "x y z"], [["a b c d", "x y z"]])
    assert result.first_score == 1.0
    assert result.second_score == pytest.approx(0.5**0.25, rel=1e-15)
    (moving,) = result.moving
    assert moving.field == "denominator"
    assert moving.change == pytest.approx(0.5**0.25 - 1, rel=1e-15)
    assert "max(1, n-grams) per segment" in moving.setting


def book_bleu(prediction: str, label: str, k: int) -> float:
    """d2l's BLEU from the book's formula: exp(min(0, 1 - len_label/len_pred)) · Π_{n<=min(k, len_pred)} p_n^(1/2^n),
    with p_n the clipped n-gram matches against the one label over the prediction's n-grams."""
    pred, lab = prediction.split(" "), label.split(" ")
    score = math.exp(min(0.0, 1 - len(lab) / len(pred)))
    for n in range(1, min(k, len(pred)) + 1):
        grams = collections.Counter(tuple(pred[i : i + n]) for i in range(len(pred) - n + 1))
        in_label = collections.Counter(tuple(lab[i : i + n]) for i in range(len(lab) - n + 1))
        clipped = sum(min(count, in_label[gram]) for gram, count in grams.items())
        score *= (clipped / (len(pred) - n + 1)) ** (0.5**n)
    return score


def test_d2l_is_the_books_formula() -> None:
    rng = random.Random(5)
    for _ in range(400):
        prediction, label, k = random_sentence(rng, 9), random_sentence(rng, 9), rng.randint(1, 4)
        assert d2l_bleu(prediction, label, k) == pytest.approx(book_bleu(prediction, label, k), rel=1e-15, abs=0)
    # 3 of 4 words and 1 of 3 bigrams ("il est") match, same length: 0.75^(1/2) · (1/3)^(1/4).
    assert d2l_bleu("il est bon .", "il est riche .", 2) == pytest.approx(0.75**0.5 * (1 / 3) ** 0.25, rel=1e-15)
    # Only the first reference counts in the registry entry.
    trace = trace_implementation("d2l", "the cat sat", ["the cat sat", "a dog"])
    assert trace.score == 1.0 and len(trace.reference_tokens) == 1


def test_orders_and_bad_input() -> None:
    a = waterfall("hf-evaluate", "nltk", "the cat sat on the mat", ["the cat is on the mat", "a cat"], RULES_FIRST)
    b = waterfall("hf-evaluate", "nltk", "the cat sat on the mat", ["the cat is on the mat", "a cat"], PIPELINE)
    assert [r.field for r in a.rows[1:]] == [f for f in RULES_FIRST if f in {r.field for r in b.rows[1:]}]
    assert a.rows[-1].score == b.rows[-1].score
    with pytest.raises(ValueError, match="order must name each setting once"):
        waterfall("nltk", "d2l", "a", ["a"], PIPELINE[:-1])
    with pytest.raises(ValueError, match="unknown implementation"):
        waterfall("nltk", "nope", "a", ["a"])
    with pytest.raises(ValueError, match="smoothing must be one of"):
        Conventions(smoothing="add-one")
    empty = waterfall("multi-bleu", "nltk", "", ["a b"])
    assert not empty.rows and "multi-bleu.perl has no score" in empty.reason


def test_default_segment_is_one_where_the_pair_differs() -> None:
    hypotheses = ["the cat sat on the mat", "a b c"]
    streams = [["the cat sat on the mat", "a b c"]]
    assert first_differing_segment("sacrebleu", "nltk", hypotheses, streams) == 1
    assert first_differing_segment("sacrebleu", "sacrebleu", hypotheses, streams) == 0


def test_every_registry_tool_has_a_point() -> None:
    assert set(TOOL_CONVENTIONS) == set(IMPLEMENTATIONS)


def test_reported_fields_are_the_tools_own() -> None:
    """sacreBLEU's counts, totals, lengths and ratio; HF's lengths and ratio; NLTK's per-order fractions."""
    import re
    from fractions import Fraction

    import sacrebleu

    from bleu_core.gaps.fields import reported_fields
    from bleu_core.tokenizers import tokenize_line
    from bleu_core.tools.hf_evaluate import hf_evaluate_bleu

    candidate = "the bakery sold the well-known rye bread by noon"
    references = ["by noon the corner bakery had sold its famous rye bread", "the bakery was out by noon"]
    real = sacrebleu.sentence_bleu(candidate, references)
    fields = dict(reported_fields(trace_implementation("sacrebleu", candidate, references)))
    assert (fields["counts"], fields["totals"]) == (str(real.counts), str(real.totals))
    assert (fields["sys_len"], fields["ref_len"]) == (str(real.sys_len), str(real.ref_len))
    assert fields["ratio"] == f"{real.sys_len / real.ref_len:.4g}" and fields["score"] == f"{real.score:.4g}"
    tokens = [tokenize_line(r, "13a") for r in references]
    hf = hf_evaluate_bleu([tokenize_line(candidate, "13a")], [tokens])
    fields = dict(reported_fields(trace_implementation("hf-evaluate", candidate, references)))
    assert fields["translation_length"] == str(hf["translation_length"])
    assert fields["reference_length"] == str(hf["reference_length"])
    assert fields["length_ratio"] == f"{hf['length_ratio']:.4g}"
    fields = dict(reported_fields(trace_implementation("nltk", candidate, references)))
    for n in range(1, 5):
        shown = re.fullmatch(r"Fraction\((\d+), (\d+)\)", fields[f"modified_precision n={n}"])
        assert shown is not None
        expected = nltk_bleu.modified_precision([r.split() for r in references], candidate.split(), n)
        # NLTK keeps its fractions unnormalized (0/7, 2/8): the shown numbers are its numerator and denominator.
        assert (int(shown[1]), int(shown[2])) == (expected.numerator, expected.denominator)
        assert Fraction(int(shown[1]), int(shown[2])) == Fraction(expected.numerator, expected.denominator)


def test_divergence_names_the_single_reference_and_the_missing_orders() -> None:
    from bleu_core.gaps.divergence import compare_traces

    references = ["the cat sat", "a dog sat here"]
    result = compare_traces(
        trace_implementation("sacrebleu", "the cat sat", references),
        trace_implementation("d2l", "the cat sat", references),
    )
    steps = {step.name: step for step in result.steps}
    assert steps["tokens"].explanation.startswith(
        "The tokens are the same, but d2l reads only the first reference of 2"
    )
    assert not steps["clipped counts"].differs  # d2l's missing orders 3 and 4 are a weights matter
    assert steps["weights"].differs


def test_rounding_of_the_float_arithmetic_moves_nothing() -> None:
    """A change of a few units in the last place (a formula written in another order) is no difference; a
    change from 0 to a tiny number (NLTK's stand-in for log 0) still is."""
    result = waterfall("sacrebleu", "nltk", "the cat is on the mat", ["the cat sat on the mat", "a cat on the mat"])
    last = result.rows[-1]
    noise = dataclasses.replace(last, score=0.35, change=8.327e-17)
    tiny = dataclasses.replace(last, score=7.6e-78, change=7.6e-78)
    assert dataclasses.replace(result, rows=(result.rows[0], noise)).moving == ()
    assert dataclasses.replace(result, rows=(result.rows[0], tiny)).moving == (tiny,)
