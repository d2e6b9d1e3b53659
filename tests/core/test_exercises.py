"""The exercise bank (each trap shows its situation, seeds reproduce) and the checking of answers (each mistake's
wrong value is recognized as that mistake)."""

from __future__ import annotations

import collections
import math
import random
from typing import Any

import pytest
import sacrebleu

from bleu_core.teach.examples import PRESETS
from bleu_core.teach.exercise_checks import (
    FEW_DECIMALS,
    MISTAKES,
    Quantity,
    check_answer,
    exercise_steps,
    expected_value,
    mistaken_values,
)
from bleu_core.teach.exercises import (
    PATTERN,
    TRAPS,
    WORD_CLASSES,
    exercise_from_preset,
    exercise_from_text,
    generate_exercise,
    shows_trap,
)
from bleu_core.teach.explain import explain, paper_text

SEEDS = range(40)


# --- the bank ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("trap", TRAPS)
def test_every_trap_shows_its_situation(trap: str) -> None:
    for seed in SEEDS:
        exercise = generate_exercise(seed, trap)
        trace = exercise.explanation()
        length = trace.length
        assert exercise.trap == trap and exercise.seed == seed
        assert trace.score > 0
        if trap == "repeated_words":
            assert any(row.candidate_count > row.max_reference_count > 0 for row in trace.orders[0].rows)
            unigrams = trace.orders[0]
            assert unigrams.matches < sum(r.candidate_count for r in unigrams.rows if r.max_reference_count)
        elif trap == "length_tie":
            tied = sorted({length.reference_lengths[i] for i in length.tied_indices})
            assert len(tied) == 2 and length.chosen_length == tied[0] < length.candidate_length < tied[1]
        elif trap == "short_candidate":
            assert length.candidate_length < length.chosen_length and trace.bp < 1
        elif trap == "zero_match":
            assert trace.zero_orders and trace.options.smooth in ("exp", "floor", "add-k")
            assert trace.orders[0].matches > 0
        else:
            assert min(length.reference_lengths) < length.chosen_length
            assert length.candidate_length < length.chosen_length and trace.bp < 1


def test_same_seed_same_exercise_and_seeds_differ() -> None:
    for trap in (None, *TRAPS):
        assert generate_exercise(7, trap) == generate_exercise(7, trap)
    assert len({generate_exercise(seed).candidate for seed in SEEDS}) > 30
    assert {generate_exercise(seed).trap for seed in SEEDS} == set(TRAPS)


def test_the_bank_leaves_the_global_random_generator_alone() -> None:
    random.seed(1)
    expected = random.random()
    random.seed(1)
    generate_exercise(5)
    assert random.random() == expected


def test_bad_seeds_and_traps_are_refused() -> None:
    with pytest.raises(ValueError, match="seed must be a whole number"):
        generate_exercise(-1)
    with pytest.raises(ValueError, match="unknown trap 'nope'"):
        generate_exercise(1, "nope")
    with pytest.raises(ValueError, match="unknown trap"):
        shows_trap(generate_exercise(1).explanation(), "nope")
    with pytest.raises(ValueError, match="needs a candidate and at least one reference"):
        exercise_from_text("the cat", ["  "])


def test_presets_and_own_text_become_exercises() -> None:
    for preset in PRESETS:
        exercise = exercise_from_preset(preset)
        candidate, references = preset.candidate, list(preset.references)
        if preset.paper:  # the paper's way of counting, as the Explain page shows it
            candidate, references = paper_text(candidate), [paper_text(r) for r in references]
        assert exercise.explanation().score == pytest.approx(
            explain(candidate, references, **preset.options()).score, abs=1e-12
        )
    own = exercise_from_text("the cat sat", ["the cat sat down", ""], max_order=2)
    assert own.references == ("the cat sat down",) and own.options.max_order == 2


# --- checking answers ----------------------------------------------------------------------------------------


def test_steps_ask_for_counts_then_length_bp_and_score() -> None:
    trace = generate_exercise(1).explanation()
    steps = exercise_steps(trace)
    assert [q.kind for q in steps[0]] == ["matches", "total"] and len(steps) == trace.options.max_order + 3
    assert [step[0].kind for step in steps[-3:]] == ["reference_length", "bp", "bleu"]
    with pytest.raises(ValueError, match="kind must be one of"):
        Quantity("precision")
    with pytest.raises(ValueError, match="order must be between 1 and 4"):
        expected_value(trace, Quantity("matches", 9))
    with pytest.raises(TypeError, match="answer must be a number"):
        check_answer(trace, Quantity("bp"), "1")  # type: ignore[arg-type]


@pytest.mark.parametrize("trap", TRAPS)
def test_right_answers_are_accepted_to_four_decimals(trap: str) -> None:
    trace = generate_exercise(3, trap).explanation()
    for step in exercise_steps(trace):
        for quantity in step:
            right = expected_value(trace, quantity)
            answer = round(right, 4) if quantity.decimal else right
            verdict = check_answer(trace, quantity, answer)
            assert verdict.correct and verdict.mistake is None
            if quantity.decimal:
                assert check_answer(trace, quantity, math.floor(right * 10_000) / 10_000).correct
                assert not check_answer(trace, quantity, right + 0.0003).correct


def test_every_mistakes_value_is_named_as_that_mistake_or_an_equal_one() -> None:
    """Across the bank and the presets, an answer equal to a mistake's value is wrong and named by a mistake whose
    value it equals (two mistakes can give the same number: the likelier one, listed first, is named)."""
    named: set[str] = set()
    exercises = [generate_exercise(seed) for seed in SEEDS] + [exercise_from_preset(p) for p in PRESETS]
    for exercise in exercises:
        trace = exercise.explanation()
        for step in exercise_steps(trace):
            for quantity in step:
                wrong = mistaken_values(trace, quantity)
                for code, value in wrong:
                    verdict = check_answer(trace, quantity, round(value, 4) if quantity.decimal else value)
                    assert not verdict.correct
                    assert verdict.mistake is not None
                    first = next(c for c, v in wrong if abs(v - value) <= 1e-4 * max(1, abs(v)) + 1e-12)
                    assert verdict.mistake == first
                    named.add(code)
    assert named == set(MISTAKES)


@pytest.mark.parametrize(
    ("trap", "kind", "order", "mistake"),
    [
        ("repeated_words", "matches", 1, "not_clipped"),
        ("repeated_words", "matches", 1, "summed_references"),
        ("repeated_words", "bleu", 0, "not_clipped"),
        ("length_tie", "reference_length", 0, "tie_longer"),
        ("length_tie", "bp", 0, "tie_longer"),
        ("length_tie", "bp", 0, "not_capped"),
        ("short_candidate", "bp", 0, "inverted_bp"),
        ("short_candidate", "bp", 0, "no_exp"),
        ("short_candidate", "bleu", 0, "no_bp"),
        ("short_candidate", "bleu", 0, "inverted_bp"),
        ("zero_match", "bleu", 0, "no_smoothing"),
        ("zero_match", "bleu", 0, "no_log"),
        ("zero_match", "bleu", 0, "no_exp"),
        ("zero_match", "total", 2, "all_tokens"),
        ("closest_not_shortest", "reference_length", 0, "shortest_reference"),
        ("closest_not_shortest", "bp", 0, "shortest_reference"),
        ("closest_not_shortest", "bleu", 0, "shortest_reference"),
    ],
)
def test_each_trap_catches_its_mistakes(trap: str, kind: str, order: int, mistake: str) -> None:
    for seed in range(10):
        trace = generate_exercise(seed, trap).explanation()
        quantity = Quantity(kind, order)
        values = dict(mistaken_values(trace, quantity))
        assert mistake in values, f"seed {seed}: {mistake} gives the right value"
        verdict = check_answer(trace, quantity, values[mistake])
        assert not verdict.correct and verdict.mistake is not None


def test_hand_computed_love_can_always_example() -> None:
    """The tie preset by hand: r = 4 (not 6); BP = 1 (exp(1 - 6/5) with the longer); (3/5 · 2/4 · 1/3)^(1/3)."""
    trace = exercise_from_preset(PRESETS[0]).explanation()
    r = Quantity("reference_length")
    assert check_answer(trace, r, 4).correct
    assert check_answer(trace, r, 6).mistake == "tie_longer"
    assert check_answer(trace, r, 5).mistake == "candidate_length"
    assert check_answer(trace, Quantity("bp"), math.exp(1 - 6 / 5)).mistake == "tie_longer"
    bleu = Quantity("bleu")
    assert check_answer(trace, bleu, 0.4642).correct
    assert check_answer(trace, bleu, 46.42).mistake == "percent"
    assert check_answer(trace, bleu, (3 / 5 + 2 / 4 + 1 / 3) / 3).mistake == "arithmetic_mean"
    assert check_answer(trace, bleu, 0.123).mistake is None


def test_counting_every_candidate_ngram_as_a_match_is_named() -> None:
    """The reviewer's case: 8 unigrams, 7 of them in the reference; answering 8 matches is the classic slip."""
    trace = generate_exercise(1).explanation()
    named = 0
    for order in trace.orders:
        quantity = Quantity("matches", order.order)
        others = {v for c, v in mistaken_values(trace, quantity) if c in ("not_clipped", "summed_references")}
        if order.total != order.matches and order.total not in others:
            assert check_answer(trace, quantity, order.total).mistake == "counted_unmatched"
            named += 1
    assert named >= 1


def test_generated_sentences_follow_the_word_pattern_with_each_word_once() -> None:
    """References read "adjective noun verb adjective noun adverb ..." with no word twice, so that every count
    above 1 in an exercise's tables comes from its trap."""
    kind = {word: k for k, words in WORD_CLASSES.items() for word in words}
    for seed in range(40):
        exercise = generate_exercise(seed, "short_candidate")
        (reference,) = exercise.references
        words = reference.split()
        assert len(set(words)) == len(words)
        assert [kind[w] for w in words] == [PATTERN[i % len(PATTERN)] for i in range(len(words))]


# --- the feedback's numbers, by another route ------------------------------------------------------------------


def _ngrams(tokens: tuple[str, ...], n: int) -> collections.Counter[tuple[str, ...]]:
    return collections.Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def _bleu_score(matches: list[int], totals: list[int], c: int, r: int, smooth: str, orders: int) -> Any:
    """sacreBLEU's own arithmetic from counts (its public ``BLEU.compute_bleu``); copies of the lists are given,
    as under add-k it adds k to the lists themselves."""
    return sacrebleu.BLEU.compute_bleu(list(matches), list(totals), c, r, smooth_method=smooth, max_ngram_order=orders)


def _score(matches: list[int], totals: list[int], c: int, r: int, smooth: str, orders: int) -> float:
    """The score in [0, 1]."""
    return float(_bleu_score(matches, totals, c, r, smooth, orders).score) / 100


def test_every_mistakes_value_recomputed_from_the_tokens() -> None:
    """What the feedback calls "the count without clipping", "the longer of the tied lengths", "BLEU without BP"
    and the rest is each recomputed here from the tokens with Counter and sacreBLEU's compute_bleu, and must be
    the value the checker matched the student's answer against (uniform weights: every generated exercise)."""
    checked = 0
    exercises = [generate_exercise(seed) for seed in SEEDS] + [generate_exercise(s, t) for s in range(8) for t in TRAPS]
    for exercise in exercises:
        trace = exercise.explanation()
        options = trace.options
        orders = options.max_order
        cand, refs = trace.candidate_tokens, trace.reference_tokens
        c, lengths = len(cand), [len(r) for r in refs]
        best = min(abs(x - c) for x in lengths)
        r = min(x for x in lengths if abs(x - c) == best)
        chosen = next(ref for ref in refs if len(ref) == r)
        counts = [_ngrams(cand, n) for n in range(1, orders + 1)]
        ref_counts = [[_ngrams(ref, n) for ref in refs] for n in range(1, orders + 1)]
        totals = [max(c - n + 1, 0) for n in range(1, orders + 1)]
        clipped = [sum(min(k, max(rc[g] for rc in ref_counts[i])) for g, k in counts[i].items()) for i in range(orders)]
        unclipped = [sum(k for g, k in counts[i].items() if any(rc[g] for rc in ref_counts[i])) for i in range(orders)]
        summed = [sum(min(k, sum(rc[g] for rc in ref_counts[i])) for g, k in counts[i].items()) for i in range(orders)]
        added = [sum(min(k, rc[g]) for g, k in counts[i].items() for rc in ref_counts[i]) for i in range(orders)]
        bp = 1.0 if c > r else math.exp(1 - r / c)
        score = _score(clipped, totals, c, r, options.smooth, orders)
        assert expected_value(trace, Quantity("bleu")) == pytest.approx(score, rel=1e-12, abs=1e-15)
        tied = [x for x in lengths if abs(x - c) == best]
        # the precisions as the walkthrough shows them: smoothed where the exercise smooths (sacreBLEU's own)
        precisions = [p / 100 for p in _bleu_score(clipped, totals, c, r, options.smooth, orders).precisions]
        expected: dict[Quantity, dict[str, float]] = {}
        for n in range(1, orders + 1):
            expected[Quantity("matches", n)] = {
                "not_clipped": unclipped[n - 1],
                "summed_references": summed[n - 1],
                "added_references": added[n - 1],
                "counted_unmatched": totals[n - 1],
            }
            expected[Quantity("total", n)] = {"all_tokens": c, "reference_total": max(len(chosen) - n + 1, 0)}
        expected[Quantity("reference_length")] = {
            "tie_longer": max(tied),
            "shortest_reference": min(lengths),
            "candidate_length": c,
        }
        wrong_bp = {"tie_longer": max(tied), "shortest_reference": min(lengths)}
        expected[Quantity("bp")] = {code: 1.0 if c > x else math.exp(1 - x / c) for code, x in wrong_bp.items()}
        if c < r:
            expected[Quantity("bp")].update(inverted_bp=math.exp(1 - c / r), no_exp=1 - r / c)
        elif r < c:
            expected[Quantity("bp")].update(not_capped=math.exp(1 - r / c), inverted_bp=math.exp(1 - c / r))
        bleu = {
            "no_log": bp * math.exp(sum(p / orders for p in precisions)),
            "arithmetic_mean": bp * sum(p / orders for p in precisions),
            "not_clipped": _score(unclipped, totals, c, r, options.smooth, orders),
            "no_bp": score / bp,
            "percent": 100 * score,
            **{code: _score(clipped, totals, c, x, options.smooth, orders) for code, x in wrong_bp.items()},
        }
        if score > 0:
            bleu["no_exp"] = math.log(score)
        if c < r:
            bleu["inverted_bp"] = score / bp * math.exp(1 - c / r)
        if options.smooth != "none":
            bleu["no_smoothing"] = _score(clipped, totals, c, r, "none", orders)
        expected[Quantity("bleu")] = bleu
        for quantity, values in expected.items():
            found = dict(mistaken_values(trace, quantity))
            right = expected_value(trace, quantity)
            for code, value in values.items():
                same_as_right = abs(value - right) <= 1e-4 * max(1.0, abs(right)) + 1e-12
                if code in found:
                    assert found[code] == pytest.approx(value, rel=1e-9, abs=1e-12), (exercise, quantity, code)
                    checked += 1
                else:  # a mistake is left out only when it gives the right number
                    assert same_as_right, (exercise, quantity, code)
            assert set(found) <= set(values), (quantity, set(found) - set(values))
    assert checked > 1500


@pytest.mark.parametrize("trap", TRAPS)
def test_the_right_value_with_too_few_decimals_is_named_so(trap: str) -> None:
    """A student gave 0.867 for BP = 0.86688 and was told to check the arithmetic."""
    trace = generate_exercise(3, trap).explanation()
    tried = 0
    for step in exercise_steps(trace):
        for quantity in (q for q in step if q.decimal):
            right = expected_value(trace, quantity)
            for decimals in (1, 2, 3):
                answer = round(right, decimals)
                if answer == 0 or abs(answer - right) <= 1e-4 * max(1.0, right):
                    continue  # 0 says nothing; within the tolerance it is right
                verdict = check_answer(trace, quantity, answer)
                assert not verdict.correct
                named = [c for c, v in mistaken_values(trace, quantity) if abs(v - answer) <= 1e-4 * max(1, abs(v))]
                assert verdict.mistake == (named[0] if named else FEW_DECIMALS), (quantity, answer, right)
                tried += 1
    assert tried
    assert check_answer(trace, Quantity("bp"), expected_value(trace, Quantity("bp")) + 0.3).mistake != FEW_DECIMALS


def test_matches_added_up_reference_by_reference_are_named_so() -> None:
    """ "a b c" against "a b" and "a c": 3 unigrams match, but r1 holds 2 and r2 holds 2; a student who adds the
    references' matches writes 4 (clipping after the sum gave 3, the right value, so the mistake went unnamed)."""
    trace = exercise_from_text("a b c", ["a b", "a c"]).explanation()
    matches = Quantity("matches", 1)
    assert expected_value(trace, matches) == 3
    assert check_answer(trace, matches, 4).mistake == "added_references"
