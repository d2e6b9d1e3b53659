"""The chrF walkthrough: every number it prints, recomputed with Counter over characters and words, and its score
equal to the real sacreBLEU's sentence chrF / chrF++; the chrF exercises' answers by another route."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from sacrebleu.metrics import CHRF

from bleu_core.limits import Limits
from bleu_core.teach.chrf_exercises import (
    CHRF_MISTAKES,
    check_chrf_answer,
    chrf_exercise_steps,
    chrf_expected_value,
    chrf_mistaken_values,
)
from bleu_core.teach.chrf_explain import chrf_options, explain_chrf
from bleu_core.teach.examples import PRESETS
from bleu_core.teach.exercise_checks import Quantity, check_answer
from bleu_core.teach.exercises import generate_exercise

PUNCT = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
ALPHABETS = ("abcde fgh ", "猫狗在垫子上坐着。，", "ab,.!? ()", "xyzé ü ß ", "日本語 テキスト")


def random_text(rng: random.Random) -> str:
    alphabet = rng.choice(ALPHABETS)
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))


def cases() -> list[tuple[str, list[str]]]:
    rng = random.Random(7)
    found = [(p.candidate, list(p.references)) for p in PRESETS]
    found += [("", ["a reference"]), ("x", ["y"]), ("the cat", ["the cat", "the cat"]), ("ab", ["abc", "ab"])]
    for _ in range(60):
        refs = [random_text(rng) for _ in range(rng.randint(1, 3))]
        refs = [r for r in refs if r.strip()] or ["fallback"]
        found.append((random_text(rng), refs))
    return found


CASES = cases()


def char_ngrams(text: str, n: int) -> Counter[str]:
    chars = "".join(text.split())
    return Counter(chars[i : i + n] for i in range(len(chars) - n + 1))


def word_ngrams(text: str, n: int) -> Counter[str]:
    words: list[str] = []
    for word in text.split():  # chrF++'s words, written out again: one ASCII mark off the end, else the start
        if len(word) > 1 and word[-1] in PUNCT:
            words += [word[:-1], word[-1]]
        elif len(word) > 1 and word[0] in PUNCT:
            words += [word[0], word[1:]]
        else:
            words.append(word)
    return Counter(" ".join(words[i : i + n]) for i in range(len(words) - n + 1))


def counter_of(text: str, kind: str, n: int) -> Counter[str]:
    return char_ngrams(text, n) if kind == "char" else word_ngrams(text, n)


@pytest.mark.parametrize("metric", ["chrf", "chrf++"])
@pytest.mark.parametrize(("candidate", "references"), CASES)
def test_every_number_by_counter_and_sacrebleu(metric: str, candidate: str, references: list[str]) -> None:
    trace = explain_chrf(candidate, references, chrf_options(metric))
    sacre = CHRF(word_order=2 if metric == "chrf++" else 0)
    assert trace.score == pytest.approx(sacre.sentence_score(candidate, references).score, abs=1e-9)
    per_ref = [sacre.sentence_score(candidate, [ref]).score for ref in references]
    assert [r.score for r in trace.reference_scores] == pytest.approx(per_ref, abs=1e-9)
    assert trace.chosen == per_ref.index(max(per_ref))
    ref = references[trace.chosen]
    assert trace.candidate_characters == "".join(candidate.split())
    assert trace.character_counts == tuple(len("".join(t.split())) for t in (candidate, *references))
    used_p, used_r = [], []
    for order in trace.orders:
        hyp, held = counter_of(candidate, order.kind, order.n), counter_of(ref, order.kind, order.n)
        assert {row.text: (row.candidate_count, row.reference_count) for row in order.rows} == {
            gram: (hyp[gram], held[gram]) for gram in hyp | held
        }
        assert all(row.matched == min(row.candidate_count, row.reference_count) for row in order.rows)
        assert order.matches == sum((hyp & held).values())
        assert order.reference_total == sum(held.values())
        assert order.candidate_total == (sum(hyp.values()) if held else 0)
        if order.used:
            used_p.append(order.matches / sum(hyp.values()))
            used_r.append(order.matches / sum(held.values()))
            assert order.precision == pytest.approx(used_p[-1]) and order.recall == pytest.approx(used_r[-1])
    p = sum(used_p) / len(used_p) if used_p else 0.0
    r = sum(used_r) / len(used_r) if used_r else 0.0
    assert (trace.precision, trace.recall) == pytest.approx((p, r), abs=1e-12)
    f = 0.0 if p + r == 0 else 5 * p * r / (4 * p + r)  # β = 2 written out
    assert trace.f_score * 100 == pytest.approx(f * 100, abs=1e-9)
    assert trace.score == pytest.approx(f * 100, abs=1e-9)


def test_choice_reasons() -> None:
    assert explain_chrf("a cat", ["a cat"]).choice_message.key == "chrf.choice_one"
    best = explain_chrf("the cat sat", ["a dog ran", "the cat sat"])
    assert best.chosen == 1 and best.choice_message.key == "chrf.choice_best"
    tie = explain_chrf("the cat", ["the cat", "the cat"])
    assert tie.chosen == 0 and tie.choice_message.key == "chrf.choice_tie"


def test_tables_are_cut_but_numbers_stay_exact() -> None:
    rng = random.Random(3)
    candidate = "".join(chr(0x4E00 + rng.randrange(3000)) for _ in range(400))
    reference = "".join(chr(0x4E00 + rng.randrange(3000)) for _ in range(400))
    trace = explain_chrf(candidate, [reference], limits=Limits(summary_rows=50, walkthrough_tokens=100))
    assert trace.cut and all(len(o.rows) <= 50 for o in trace.orders)
    assert len(trace.candidate_characters) == 100 and trace.character_counts[0] == 400
    assert trace.orders[0].rows_total == len(set(candidate) | set(reference))
    assert trace.score == pytest.approx(CHRF().sentence_score(candidate, [reference]).score, abs=1e-9)


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="reference"):
        explain_chrf("a", ["  "])
    with pytest.raises(ValueError, match="metric"):
        chrf_options("bleu")


# --- exercises -----------------------------------------------------------------------------------------------


def exercise_traces() -> list:
    traces = []
    for seed in range(12):
        exercise = generate_exercise(seed)
        traces.append(explain_chrf(exercise.candidate, list(exercise.references)))
    traces.append(explain_chrf("猫坐在垫子上。", ["猫在垫子上坐着。", "一只猫"]))
    return traces


@pytest.mark.parametrize("trace", exercise_traces())
def test_exercise_answers_by_counter(trace) -> None:
    ref = trace.references[trace.chosen]
    hyp, held = Counter("".join(trace.candidate.split())), Counter("".join(ref.split()))
    matches = sum(min(count, held[c]) for c, count in hyp.items())
    p, r = round(trace.precision, 4), round(trace.recall, 4)
    right = {
        "chrf_matches": matches,
        "chrf_candidate_total": sum(hyp.values()),
        "chrf_reference_total": sum(held.values()),
        "chrf_precision": matches / sum(hyp.values()),
        "chrf_recall": matches / sum(held.values()),
        "chrf": 100 * 5 * p * r / (4 * p + r),
    }
    for step in chrf_exercise_steps(trace):
        for quantity in step:
            value = right[quantity.kind]
            assert chrf_expected_value(trace, quantity) == pytest.approx(value, abs=1e-12)
            assert check_chrf_answer(trace, quantity, round(value, 4)).correct
            assert not check_chrf_answer(trace, quantity, value + 1).correct
    f1 = Quantity("chrf")
    verdict = check_chrf_answer(trace, f1, round(100 * 2 * p * r / (p + r), 4))
    assert verdict.mistake == "f1" and not verdict.correct
    swapped = check_chrf_answer(trace, Quantity("chrf_precision", 1), right["chrf_recall"])
    assert swapped.correct or swapped.mistake == "swapped"
    spaced = Counter(trace.candidate)
    wrong_total = check_chrf_answer(trace, Quantity("chrf_candidate_total", 1), sum(spaced.values()))
    if " " in trace.candidate.strip():
        assert wrong_total.mistake == "spaces"
    assert {code for code, _ in chrf_mistaken_values(trace, f1)} <= set(CHRF_MISTAKES)


def test_kinds_stay_apart() -> None:
    exercise = generate_exercise(1)
    trace = explain_chrf(exercise.candidate, list(exercise.references))
    with pytest.raises(ValueError, match="BLEU"):
        chrf_expected_value(trace, Quantity("bleu"))
    with pytest.raises(ValueError, match="chrF"):
        check_answer(exercise.explanation(), Quantity("chrf"), 1.0)
