"""AppTest: the Explain page's exercise mode (?exercise=1) checks answers step by step, names the likely mistake,
reveals answers, keeps the exercise in the link, and speaks Chinese with lang=zh."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bleu_core.i18n import catalog, text
from bleu_core.teach.examples import PRESETS, Preset
from bleu_core.teach.exercise_checks import MISTAKES, Quantity, exercise_steps, expected_value, mistaken_values
from bleu_core.teach.exercises import exercise_from_preset, generate_exercise
from bleu_core.teach.explain import Explanation
from pages.explain_page.exercise import SEED_CEILING
from tests.i18n_check import rendered_labels, untranslated

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "explain.py")


def page(**query: str | list[str]) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["exercise"] = "1"
    for key, value in query.items():
        at.query_params[key] = value
    return at.run()


def answer(at: AppTest, index: int, values: dict[str, float]) -> AppTest:
    """Type ``values`` ({kind: value}) into step ``index`` and press its check button."""
    prefix = next(str(w.key)[: -len("_check")] for w in at.button if str(w.key).endswith(f"_{index}_check"))
    for kind, value in values.items():
        at.number_input(key=f"{prefix}_{kind}").set_value(value)
    at.button(key=f"{prefix}_check").click()
    return at.run()


def right(trace: Explanation, step: tuple[Quantity, ...]) -> dict[str, float]:
    return {q.kind: round(expected_value(trace, q), 4) for q in step}


def solve_until(at: AppTest, trace: Explanation, last: int) -> AppTest:
    """Answer steps 1..last right."""
    for index, step in enumerate(exercise_steps(trace)[:last], 1):
        at = answer(at, index, right(trace, step))
    return at


def errors(at: AppTest) -> list[str]:
    return [str(e.value) for e in at.error]


def successes(at: AppTest) -> list[str]:
    return [str(s.value) for s in at.success]


def test_every_mistake_has_a_sentence_in_both_languages() -> None:
    for language in ("en", "zh"):
        assert {f"exercise.mistake_{code}" for code in (*MISTAKES, "unknown")} <= set(catalog(language))


def test_opens_on_a_generated_exercise_with_the_seed_in_the_link() -> None:
    at = page()
    assert not at.exception
    assert at.title[0].value == text("exercise.title")
    assert at.query_params["seed"] == "1"
    exercise = generate_exercise(1)
    assert at.code[0].value == exercise.candidate
    assert [c.value for c in at.code[1:]] == list(exercise.references)


def test_unclipped_count_is_named_then_right_answers_open_the_next_step() -> None:
    exercise = generate_exercise(3, "repeated_words")
    trace = exercise.explanation()
    at = page(seed="3", trap="repeated_words")
    first = exercise_steps(trace)[0]
    unclipped = dict(mistaken_values(trace, first[0]))["not_clipped"]
    at = answer(at, 1, {"matches": unclipped, "total": expected_value(trace, first[1])})
    assert not at.exception
    assert any(text("exercise.mistake_not_clipped") in e for e in errors(at))
    assert any(text("exercise.correct", label=text("exercise.total", n=1), value="6") == s for s in successes(at))
    assert not any(str(b.key).endswith("_2_check") for b in at.button), "step 2 opens only once step 1 is solved"
    at = answer(at, 1, right(trace, first))
    assert errors(at) == []
    assert any(str(b.key).endswith("_2_check") for b in at.button)


def test_a_whole_exercise_answered_right_ends_in_success() -> None:
    trace = generate_exercise(5, "short_candidate").explanation()
    at = solve_until(page(seed="5", trap="short_candidate"), trace, len(exercise_steps(trace)))
    assert not at.exception and errors(at) == []
    assert successes(at)[-1] == text("exercise.done", score=f"{trace.score:.4f}")
    assert "?candidate=" in at.markdown[-1].value


@pytest.mark.parametrize(
    ("trap", "step_kind", "mistake"),
    [
        ("length_tie", "reference_length", "tie_longer"),
        ("closest_not_shortest", "reference_length", "shortest_reference"),
        ("short_candidate", "bp", "inverted_bp"),
        ("short_candidate", "bleu", "no_bp"),
        ("zero_match", "bleu", "no_smoothing"),
        ("repeated_words", "bleu", "no_log"),
        ("length_tie", "bleu", "percent"),
    ],
)
def test_wrong_answers_get_the_matching_feedback(trap: str, step_kind: str, mistake: str) -> None:
    trace = generate_exercise(2, trap).explanation()
    steps = exercise_steps(trace)
    index = next(i for i, step in enumerate(steps, 1) if step[0].kind == step_kind)
    at = solve_until(page(seed="2", trap=trap), trace, index - 1)
    quantity = steps[index - 1][0]
    wrong = dict(mistaken_values(trace, quantity))[mistake]
    at = answer(at, index, {step_kind: round(wrong, 4)})
    params = {"n": 0, "c": trace.length.candidate_length, "r": trace.length.chosen_length}
    assert any(text(f"exercise.mistake_{mistake}", **params) in e for e in errors(at)), errors(at)


def test_bp_to_three_decimals_is_called_right_but_too_short() -> None:
    """A student wrote 0.867 for BP = 0.86688 and read "check the arithmetic"."""
    trace = generate_exercise(2, "short_candidate").explanation()
    steps = exercise_steps(trace)
    index = next(i for i, step in enumerate(steps, 1) if step[0].kind == "bp")
    right = expected_value(trace, steps[index - 1][0])
    assert abs(round(right, 3) - right) > 1e-4  # three decimals are not enough for this one
    at = answer(solve_until(page(seed="2", trap="short_candidate"), trace, index - 1), index, {"bp": round(right, 3)})
    assert any(text("exercise.mistake_few_decimals") in e for e in errors(at)), errors(at)


def test_reveal_shows_the_answer_and_opens_the_next_step() -> None:
    trace = generate_exercise(2, "length_tie").explanation()
    steps = exercise_steps(trace)
    index = next(i for i, step in enumerate(steps, 1) if step[0].kind == "reference_length")
    at = solve_until(page(seed="2", trap="length_tie"), trace, index - 1)
    at.button(key=next(str(b.key) for b in at.button if str(b.key).endswith(f"_{index}_reveal"))).click()
    at = at.run()
    shown = [str(i.value) for i in at.info]
    r = trace.length.chosen_length
    assert text("exercise.answer", label=text("exercise.reference_length"), value=str(r)) in shown
    assert any("the tie goes to the shorter" in s for s in shown)
    assert not any(str(b.key).endswith(f"_{index}_reveal") for b in at.button), "a shown answer needs no button"
    assert any(str(b.key).endswith(f"_{index + 1}_check") for b in at.button)


def test_chinese_interface_labels_and_feedback() -> None:
    trace = generate_exercise(3, "repeated_words").explanation()
    at = page(seed="3", trap="repeated_words", lang="zh")
    first = exercise_steps(trace)[0]
    at = answer(at, 1, {"matches": dict(mistaken_values(trace, first[0]))["not_clipped"], "total": 0})
    assert not at.exception
    assert at.title[0].value == "练习：手算 BLEU"
    assert any(text("exercise.mistake_not_clipped", "zh") in e for e in errors(at))
    labels = rendered_labels(at) + [str(w.label) for w in at.number_input] + [str(e.value) for e in at.error]
    assert untranslated(labels) == {}
    assert at.query_params["lang"] == "zh"


def test_preset_and_own_text_from_the_link_and_bad_parameters() -> None:
    preset = PRESETS[0]
    at = page(preset=preset.key)
    assert at.radio[0].value == "preset" and at.code[0].value == preset.candidate
    assert at.query_params["preset"] == preset.key
    at = page(candidate="the cat sat", reference=["the cat sat down", "a cat sat"], max_n="2")
    assert at.radio[0].value == "own" and [c.value for c in at.code] == ["the cat sat", "the cat sat down", "a cat sat"]
    assert at.query_params["max_n"] == "2" and len([b for b in at.button if str(b.key).endswith("_check")]) == 1
    at = page(seed="x", trap="nope")
    assert [str(w.value) for w in at.warning] == [
        text("exercise.bad_seed", limit=SEED_CEILING - 1, value="'x'"),
        text("exercise.bad_trap", value="'nope'"),
    ]
    assert at.query_params["seed"] == "1"


def test_next_exercise_changes_the_seed_and_clears_the_answers() -> None:
    at = page(seed="4")
    at = answer(at, 1, {"matches": 0, "total": 0})
    assert errors(at)
    at.button[0].click()
    at = at.run()
    assert at.query_params["seed"] == "5" and errors(at) == []
    assert at.code[0].value == generate_exercise(5).candidate


def test_revealed_counts_come_with_the_clipping_table() -> None:
    trace = generate_exercise(3, "repeated_words").explanation()
    at = page(seed="3", trap="repeated_words")
    at.button(key=next(str(b.key) for b in at.button if str(b.key).endswith("_1_reveal"))).click()
    at = at.run()
    table = at.dataframe[0].value
    rows = trace.orders[0].rows
    assert list(table[text("exercise.column_clipped")]) == [row.clipped for row in rows]
    assert list(table[text("exercise.column_count")]) == [row.candidate_count for row in rows]
    assert any(str(b.key).endswith("_2_check") for b in at.button)


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.key)
def test_every_example_opens_as_an_exercise(preset: Preset) -> None:
    at = page(preset=preset.key)
    assert not at.exception and len(at.warning) == 0
    assert at.code[0].value == " ".join(exercise_from_preset(preset).explanation().candidate_tokens)
    assert any(str(b.key).endswith("_1_check") for b in at.button)
