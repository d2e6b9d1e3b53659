"""The chrF++ exercise: its word 1-gram step's numbers recomputed with Counter over the words as the real
sacreBLEU splits them, its F-score step's averages those of sacreBLEU's ``CHRF(word_order=2)``, and each word
mistake named from the value it gives."""

from __future__ import annotations

from collections import Counter

import pytest
from sacrebleu.metrics import CHRF

from bleu_core.teach.chrf_exercises import (
    CHRF_WORD_MISTAKES,
    check_chrf_answer,
    chrf_exercise_steps,
    chrf_expected_value,
    given_averages,
)
from bleu_core.teach.chrf_explain import chrf_options, explain_chrf
from bleu_core.teach.exercise_checks import Quantity
from bleu_core.teach.exercises import generate_exercise

PLUS = CHRF(word_order=2)
WORD_KINDS = ("chrf_word_matches", "chrf_word_candidate_total", "chrf_word_reference_total")
#: Sentences where the word mistakes give values of their own: punctuation on and off words, repeated words,
#: more than one reference, a word only in the reference.
SENTENCES = [
    ("The cat, the cat sat (on) the mat.", ["the cat sat on the mat.", "A cat is sitting on a mat!"]),
    ("the the the cat.", ["the cat sat on the mat."]),
    ("a dog, a dog, a dog.", ["a dog barks at a cat, a dog."]),
    ('"hi" said the man, "hi".', ['the man said "hi" twice: "hi, hi".']),
    ("go go go home now", ["go home now , go"]),
    ("x x y y z", ["x y z z z w w"]),
    ("猫坐在垫子上。", ["猫在垫子上坐着。", "一只猫"]),
]


def sacre_words(text: str) -> list[str]:
    """chrF++'s words, by sacreBLEU's own splitting (its CHRF's method; this test pins sacreBLEU 2.6.0)."""
    return PLUS._remove_punctuation(text)


def best_reference(candidate: str, references: list[str]) -> str:
    """The first reference with the highest sentence chrF++ (sacreBLEU scores each one alone)."""
    scores = [PLUS.sentence_score(candidate, [ref]).score for ref in references]
    return references[scores.index(max(scores))]


def char_grams(text: str, n: int) -> Counter[str]:
    chars = "".join(text.split())
    return Counter(chars[i : i + n] for i in range(len(chars) - n + 1))


def word_grams(text: str, n: int) -> Counter[tuple[str, ...]]:
    words = sacre_words(text)
    return Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))


def averages(candidate: str, reference: str) -> tuple[float, float]:
    """Average P and R over the orders both sides have: characters 1-6, words 1-2, all by Counter."""
    pairs = [(char_grams(candidate, n), char_grams(reference, n)) for n in range(1, 7)]
    pairs += [(word_grams(candidate, n), word_grams(reference, n)) for n in (1, 2)]
    used = [(hyp, ref) for hyp, ref in pairs if hyp and ref]
    precision = sum(sum((h & r).values()) / sum(h.values()) for h, r in used) / len(used)
    recall = sum(sum((h & r).values()) / sum(r.values()) for h, r in used) / len(used)
    return precision, recall


def f2(p: float, r: float) -> float:
    return 100 * 5 * p * r / (4 * p + r) if p + r else 0.0


def cases() -> list[tuple[str, list[str]]]:
    generated = [generate_exercise(seed) for seed in range(8)]
    return SENTENCES + [(e.candidate, list(e.references)) for e in generated]


@pytest.mark.parametrize(("candidate", "references"), cases())
def test_word_step_and_score_by_counter_and_sacrebleu(candidate: str, references: list[str]) -> None:
    trace = explain_chrf(candidate, references, chrf_options("chrf++"))
    reference = best_reference(candidate, references)
    hyp, ref = Counter(sacre_words(candidate)), Counter(sacre_words(reference))
    right = {
        "chrf_word_matches": sum((hyp & ref).values()),
        "chrf_word_candidate_total": sum(hyp.values()),
        "chrf_word_reference_total": sum(ref.values()),
    }
    kinds = [[q.kind for q in step] for step in chrf_exercise_steps(trace)]
    assert kinds[2] == list(WORD_KINDS) and kinds[-1] == ["chrf"] and len(kinds) == 4
    for kind, value in right.items():
        assert chrf_expected_value(trace, Quantity(kind, 1)) == value
        assert check_chrf_answer(trace, Quantity(kind, 1), value).correct
        assert not check_chrf_answer(trace, Quantity(kind, 1), value + 1).correct
    p, r = averages(candidate, reference)
    exact = PLUS.sentence_score(candidate, references).score
    assert f2(p, r) == pytest.approx(exact, abs=1e-9)  # the averages are chrF++'s: over characters and words
    assert given_averages(trace) == (round(p, 4), round(r, 4))
    expected = chrf_expected_value(trace, Quantity("chrf"))
    assert expected == pytest.approx(f2(round(p, 4), round(r, 4)), abs=1e-9)
    assert f"{trace.score:.4f}" == f"{exact:.4f}"  # the exact score the last step prints
    assert check_chrf_answer(trace, Quantity("chrf"), round(expected, 4)).correct


def mistake_values(candidate: str, reference: str, kind: str) -> list[tuple[str, int]]:
    """Each word mistake's value, most likely first, by Counter: the same order the checker tries them in."""
    hyp, ref = Counter(sacre_words(candidate)), Counter(sacre_words(reference))
    hyp_spaced, ref_spaced = Counter(candidate.split()), Counter(reference.split())
    if kind == "chrf_word_matches":
        return [
            ("split", sum((hyp_spaced & ref_spaced).values())),
            ("not_min", sum(count for word, count in hyp.items() if word in ref)),
            ("distinct", len(set(hyp) & set(ref))),
        ]
    if kind == "chrf_word_candidate_total":
        return [("split", len(candidate.split())), ("distinct", len(hyp)), ("reference_side", sum(ref.values()))]
    return [("split", len(reference.split())), ("distinct", len(ref)), ("candidate_side", sum(hyp.values()))]


def test_each_word_mistake_is_named_from_its_value() -> None:
    named: set[str] = set()
    for candidate, references in SENTENCES:
        trace = explain_chrf(candidate, references, chrf_options("chrf++"))
        reference = best_reference(candidate, references)
        for kind in WORD_KINDS:
            quantity = Quantity(kind, 1)
            right = chrf_expected_value(trace, quantity)
            taken = {right}
            for code, value in mistake_values(candidate, reference, kind):
                verdict = check_chrf_answer(trace, quantity, value)
                if value in taken:  # equal to the right value or to a likelier mistake's: named as that one
                    continue
                taken.add(value)
                assert (verdict.correct, verdict.mistake) == (False, code), (candidate, kind, value)
                named.add(f"{kind}:{code}")
    assert named == {
        "chrf_word_matches:split",
        "chrf_word_matches:not_min",
        "chrf_word_matches:distinct",
        "chrf_word_candidate_total:split",
        "chrf_word_candidate_total:distinct",
        "chrf_word_candidate_total:reference_side",
        "chrf_word_reference_total:split",
        "chrf_word_reference_total:distinct",
        "chrf_word_reference_total:candidate_side",
    }
    assert {name.split(":")[1] for name in named} == set(CHRF_WORD_MISTAKES)


def test_splitting_at_spaces_only_is_named_on_a_hand_counted_sentence() -> None:
    """``"mat."`` is two words for chrF++, ``"(on)"`` is ``"(on"`` and ``")"``: counted by hand."""
    trace = explain_chrf("the cat sat (on) the mat.", ["the cat sat on the mat ."], chrf_options("chrf++"))
    # candidate words: the cat sat (on ) the mat . -> 8; reference: the cat sat on the mat . -> 7
    # matched: the x2, cat, sat, mat, . -> 6; split at spaces only: the x2, cat, sat -> 4
    assert [chrf_expected_value(trace, Quantity(kind, 1)) for kind in WORD_KINDS] == [6, 8, 7]
    assert check_chrf_answer(trace, Quantity("chrf_word_matches", 1), 4).mistake == "split"
    assert check_chrf_answer(trace, Quantity("chrf_word_candidate_total", 1), 6).mistake == "split"


def test_chrf_keeps_its_three_steps_and_word_kinds_need_a_chrfpp_trace() -> None:
    exercise = generate_exercise(3)
    trace = explain_chrf(exercise.candidate, list(exercise.references), chrf_options("chrf"))
    assert [[q.kind for q in step] for step in chrf_exercise_steps(trace)][-1] == ["chrf"]
    assert len(chrf_exercise_steps(trace)) == 3
    with pytest.raises(ValueError, match="word_order"):
        chrf_expected_value(trace, Quantity("chrf_word_matches", 1))
