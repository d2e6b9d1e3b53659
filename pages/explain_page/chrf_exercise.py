"""chrF and chrF++ in exercise mode (``?exercise=1&metric=chrf``, ``metric=chrf%2B%2B``): the student computes
sentence chrF (or chrF++, with its word 1-gram step) of the exercise's sentences by hand, in the steps of
:mod:`bleu_core.teach.chrf_exercises`, each checked by its shared rule.

The forms, feedback and reveal work as BLEU's steps in :mod:`pages.explain_page.exercise`; the verdicts and the
revealed steps live in the dictionaries that module keeps in the session (passed in, so neither imports the
other's state).  Sentences are shown in code blocks, which escape everything.
"""

from __future__ import annotations

import streamlit as st

from bleu_core.teach.chrf_exercises import (
    check_chrf_answer,
    chrf_exercise_steps,
    chrf_expected_value,
    given_averages,
    word_unigrams,
)
from bleu_core.teach.chrf_explain import ChrfExplanation, ChrfRow
from bleu_core.teach.exercise_checks import CHRF_WORD_KINDS, Quantity, Verdict
from bleu_core.teach.exercises import Exercise
from pages.shared import cached
from pages.shared.i18n import t

METRICS = ("bleu", "chrf", "chrf++")
#: The session's verdicts per step and the steps whose answer was shown (kept by the exercise page).
Checked = dict[str, tuple[Verdict, ...]]
Revealed = set[str]


def words(quantity: Quantity) -> bool:
    """A quantity of chrF++'s word step (its messages are in ``chrf.exercise.words``)."""
    return quantity.kind in CHRF_WORD_KINDS


def label(quantity: Quantity, plus: bool = False) -> str:
    """The name of ``quantity``'s box (``plus``: in the chrF++ exercise, whose score is chrF++)."""
    if words(quantity):
        return t(f"chrf.exercise.words.{quantity.kind.removeprefix('chrf_word_')}")
    if quantity.kind == "chrf":
        return t("chrf.exercise.words.score" if plus else "chrf.exercise.score")
    return t(f"chrf.exercise.{quantity.kind.removeprefix('chrf_')}")


def shown(quantity: Quantity, value: float) -> str:
    return f"{value:.4f}" if quantity.decimal else f"{value:g}"


def heading(trace: ChrfExplanation, step: tuple[Quantity, ...], index: int, steps: int) -> tuple[str, str]:
    where = {"step": index, "steps": steps}
    if step[0].kind == "chrf_matches":
        return t("chrf.exercise.step_counts", **where), t("chrf.exercise.step_counts_help")
    if step[0].kind == "chrf_precision":
        return t("chrf.exercise.step_pr", **where), t("chrf.exercise.step_pr_help")
    if words(step[0]):
        return t("chrf.exercise.words.step_words", **where), t("chrf.exercise.words.step_words_help")
    p, r = (f"{value:.4f}" for value in given_averages(trace))
    if trace.options.word_order:
        return t("chrf.exercise.step_f", **where), t(
            "chrf.exercise.words.step_f_help", k=len(trace.used_orders), p=p, r=r
        )
    return t("chrf.exercise.step_f", **where), t("chrf.exercise.step_f_help", p=p, r=r)


def feedback(verdict: Verdict, plus: bool) -> None:
    name = label(verdict.quantity, plus)
    if verdict.correct:
        st.success(t("exercise.correct", label=name, value=shown(verdict.quantity, verdict.answer)))
        return
    if verdict.mistake is None:
        why = t("chrf.exercise.mistake_unknown")
    elif words(verdict.quantity):
        why = t(f"chrf.exercise.words.mistake_{verdict.mistake}")
    else:
        why = t(f"chrf.exercise.mistake_{verdict.mistake}")
    st.error(t("exercise.wrong", label=name, answer=shown(verdict.quantity, verdict.answer), why=why))


def ngram_table(rows: tuple[ChrfRow, ...], unit: str) -> None:
    """A revealed 1-gram table: each unit (``unit`` names its column), its counts in the candidate and the
    reference, matched."""
    st.dataframe(
        {
            unit: [row.text for row in rows],
            t("chrf.column_candidate"): [row.candidate_count for row in rows],
            t("chrf.column_reference"): [row.reference_count for row in rows],
            t("chrf.column_matched"): [row.matched for row in rows],
        },
        hide_index=True,
    )


def run_step(
    trace: ChrfExplanation,
    step: tuple[Quantity, ...],
    step_id: str,
    where: tuple[int, int],
    state: tuple[Checked, Revealed],
) -> bool:
    """One step's form, feedback and reveal; True once solved (right, or its answer shown)."""
    checked, revealed = state
    plus = bool(trace.options.word_order)
    title, help_text = heading(trace, step, *where)
    st.subheader(title)
    st.caption(help_text)
    with st.form(f"{step_id}_form"):
        answers = []
        for col, quantity in zip(st.columns(len(step)), step, strict=True):
            key = f"{step_id}_{quantity.kind}"
            if quantity.decimal:
                answers.append(col.number_input(label(quantity, plus), value=None, step=0.0001, format="%.4f", key=key))
            else:
                answers.append(col.number_input(label(quantity, plus), value=None, min_value=0, step=1, key=key))
        submitted = st.form_submit_button(t("exercise.check"), key=f"{step_id}_check")
    if submitted:
        for quantity, answer in zip(step, answers, strict=True):
            if answer is None:
                st.warning(t("exercise.missing", label=label(quantity, plus)))
        filled = [(q, float(a)) for q, a in zip(step, answers, strict=True) if a is not None]
        if len(filled) == len(step):
            checked[step_id] = tuple(check_chrf_answer(trace, q, a) for q, a in filled)
    verdicts = checked.get(step_id, ())
    for verdict in verdicts:
        feedback(verdict, plus)
    solved = len(verdicts) == len(step) and all(v.correct for v in verdicts)
    if not solved and step_id not in revealed:
        st.button(t("exercise.reveal"), key=f"{step_id}_reveal", on_click=revealed.add, args=(step_id,))
    if step_id in revealed and not solved:
        for quantity in step:
            value = shown(quantity, chrf_expected_value(trace, quantity))
            st.info(t("exercise.answer", label=label(quantity, plus), value=value))
        if step[0].kind == "chrf_matches":
            ngram_table(trace.orders[0].rows, t("chrf.exercise.table_character"))
        elif words(step[0]):
            ngram_table(word_unigrams(trace).rows, t("chrf.exercise.words.table_word"))
    return solved or step_id in revealed


def render(
    exercise: Exercise, exercise_id: str, state: tuple[Checked, Revealed], walkthrough: str, metric: str = "chrf"
) -> None:
    """The chrF (or chrF++) exercise of ``exercise``'s sentences, step by step; at the end, ``walkthrough`` (a link
    to the same sentences in the walkthrough of ``metric``)."""
    trace = cached.chrf_explain_cached(exercise.candidate, exercise.references, metric)
    plus = metric == "chrf++"
    prefix = "chrf.exercise.words." if plus else "chrf.exercise."  # the messages chrF++ says its own way
    st.caption(t(prefix + "intro"))
    st.markdown(t("exercise.candidate"))
    st.code(exercise.candidate, language=None, wrap_lines=True)
    for index, reference in enumerate(trace.references, 1):
        st.markdown(t("exercise.reference", index=index))
        st.code(reference, language=None, wrap_lines=True)
    st.caption(t(prefix + "reference_used", k=trace.chosen + 1))
    steps = chrf_exercise_steps(trace)
    for index, step in enumerate(steps, 1):
        step_id = f"{exercise_id}_{'chrfpp' if plus else 'chrf'}_{index}"
        if not run_step(trace, step, step_id, (index, len(steps)), state):
            return
    score = shown(Quantity("chrf"), chrf_expected_value(trace, Quantity("chrf")))
    st.success(t(prefix + "done", score=score, exact=f"{trace.score:.4f}"))
    st.markdown(f"[{t('exercise.walkthrough')}]({walkthrough})")
