"""AppTest: the Explain page's BLEU / chrF / chrF++ switch, the chrF walkthrough, its presentation and exercise
modes, in English and Chinese.  Every number the page prints is recomputed here from sacreBLEU's sentence chrF and
``Counter`` over characters, not read from the code under test."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from sacrebleu.metrics import CHRF
from streamlit.testing.v1 import AppTest

from bleu_core.i18n import catalog, text
from bleu_core.teach.chrf_exercises import CHRF_MISTAKES
from bleu_core.teach.chrf_explain import chrf_options, explain_chrf
from bleu_core.teach.examples import DEFAULT_PRESET
from bleu_core.teach.exercises import generate_exercise
from pages.explain_page import chrf_present, chrf_view
from pages.explain_page.link import build_link, parse_link, resolve
from tests.i18n_check import rendered_labels, untranslated

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "explain.py")
LOVE = (DEFAULT_PRESET.candidate, list(DEFAULT_PRESET.references))


def page(query: dict[str, str | list[str]] | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    return at.run()


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def markdown(at: AppTest) -> str:
    return "\n".join(str(m.value) for m in at.markdown) + "\n" + "\n".join(str(x.value) for x in at.latex)


def sacre(candidate: str, references: list[str], word_order: int) -> float:
    return CHRF(word_order=word_order).sentence_score(candidate, references).score


def counter_stats(candidate: str, reference: str) -> list[tuple[int, int, int]]:
    """(matches, candidate n-grams, reference n-grams) of character orders 1-6, from Counter over the characters."""
    hyp_chars, ref_chars = "".join(candidate.split()), "".join(reference.split())
    stats = []
    for n in range(1, 7):
        hyp = Counter(hyp_chars[i : i + n] for i in range(len(hyp_chars) - n + 1))
        ref = Counter(ref_chars[i : i + n] for i in range(len(ref_chars) - n + 1))
        stats.append((sum((hyp & ref).values()), sum(hyp.values()), sum(ref.values())))
    return stats


def counter_lines(candidate: str, reference: str) -> list[str]:
    """Each character order's line as the page should print it."""
    return [
        f"character {n}-grams: matches = {m}; P = {m}/{c} = {m / c:.4f}; R = {m}/{r} = {m / r:.4f}"
        for n, (m, c, r) in enumerate(counter_stats(candidate, reference), 1)
    ]


@pytest.mark.parametrize(("metric", "word_order", "name"), [("chrf", 0, "chrF"), ("chrf++", 2, "chrF++")])
def test_switch_to_chrf_shows_sacrebleus_score_and_counter_numbers(metric: str, word_order: int, name: str) -> None:
    at = page()
    assert "BLEU (0–1)" in metrics(at)
    at.radio(key="ex_metric").set_value(metric).run()
    assert not at.exception
    candidate, references = LOVE
    expected = sacre(candidate, references, word_order)
    assert metrics(at)[name] == f"{expected:.4f}"
    per_ref = [sacre(candidate, [r], word_order) for r in references]
    best = per_ref.index(max(per_ref))
    assert metrics(at)["Reference used"] == str(best + 1)
    shown = markdown(at)
    for line in counter_lines(candidate, references[best]):
        assert line in shown
    assert "β = 2: recall counts twice as much as precision." in shown
    assert f"= {expected:.4f}" in shown  # the formula ends in the score
    if metric == "chrf":  # the averages, from Counter's P and R of the six character orders
        stats = counter_stats(candidate, references[best])
        p = sum(m / c for m, c, _ in stats) / 6
        r = sum(m / total for m, _, total in stats) / 6
        assert metrics(at)["Average P"] == f"{p:.4f}" and metrics(at)["Average R"] == f"{r:.4f}"
        assert f"P = {p:.4f}, R = {r:.4f}" in shown
        assert f"{expected:.4f}" == f"{100 * 5 * p * r / (4 * p + r):.4f}"
    assert at.query_params["metric"] == metric
    assert [title.value for title in at.title] == [f"Explain {name}, step by step"]  # the page names its metric
    at.radio(key="ex_metric").set_value("bleu").run()
    assert "BLEU (0–1)" in metrics(at) and "metric" not in at.query_params
    assert [title.value for title in at.title] == ["Explain BLEU, step by step"]


def test_chinese_interface_in_chrf_shows_only_chinese_labels() -> None:
    at = page({"lang": "zh", "metric": "chrf++", "candidate": "猫坐在垫子上。", "reference": ["猫在垫子上坐着。"]})
    assert not at.exception
    expected = sacre("猫坐在垫子上。", ["猫在垫子上坐着。"], 2)
    assert metrics(at)["chrF++"] == f"{expected:.4f}"
    assert [title.value for title in at.title] == ["逐步讲解 chrF++"]
    labels = rendered_labels(at)
    assert text("chrf.beta_line", "zh") in "\n".join(labels)
    assert untranslated(labels) == {}
    at.radio(key="ex_metric").set_value("chrf").run()
    assert metrics(at)["chrF"] == f"{sacre('猫坐在垫子上。', ['猫在垫子上坐着。'], 0):.4f}"
    assert at.query_params["lang"] == "zh" and at.query_params["metric"] == "chrf"


def test_link_carries_the_metric_and_refuses_a_bad_one() -> None:
    values, problems = parse_link({"metric": ["chrf++"]})
    assert values == {"metric": "chrf++"} and not problems
    assert build_link(resolve(values))["metric"] == "chrf++"
    assert "metric" not in build_link(resolve({}))
    values, problems = parse_link({"metric": ["rouge"]})
    assert "metric" not in values and problems
    at = page({"metric": "rouge"})
    assert not at.exception and any("rouge" in str(w.value) for w in at.warning)
    assert "BLEU (0–1)" in metrics(at)


def test_paper_switch_leaves_chrf_on_the_raw_text() -> None:
    candidate, references = "The Cat, sat!", ["the cat sat"]
    at = page({"metric": "chrf", "paper": "1", "candidate": candidate, "reference": references})
    assert (
        metrics(at)["chrF"] == f"{sacre(candidate, references, 0):.4f}" != f"{sacre('the cat sat', references, 0):.4f}"
    )


def test_empty_candidate_and_several_references() -> None:
    refs = ["the cat sat on the mat", "a cat is on a mat"]
    at = page({"metric": "chrf", "candidate": "", "reference": refs})
    assert not at.exception
    assert metrics(at)["chrF"] == "0.0000" == f"{sacre('', refs, 0):.4f}"
    assert text("chrf.no_orders", "en", metric="chrF") in markdown(at)
    at = page({"metric": "chrf", "candidate": "a cat sat on a mat", "reference": refs})
    scores = [sacre("a cat sat on a mat", [r], 0) for r in refs]
    frame = at.dataframe[0].value
    assert list(frame.iloc[:, 1]) == [f"{s:.4f}" for s in scores]


def test_hostile_text_stays_text() -> None:
    at = page({"metric": "chrf", "candidate": "<b>*x*</b> [a](b)", "reference": ["<b>x</b>"]})
    assert not at.exception
    assert "<b>*x*</b>" not in markdown(at)  # user text only in escaped chips and data frames
    expected = sacre("<b>*x*</b> [a](b)", ["<b>x</b>"], 0)
    assert metrics(at)["chrF"] == f"{expected:.4f}"


def test_counts_of_one_are_singular_and_large_counts_grouped() -> None:
    at = page({"metric": "chrf++", "candidate": "cat", "reference": ["the cat sat " * 400]})
    assert not at.exception
    html = "\n".join(str(h.proto.body) for h in at.get("html"))
    assert "Candidate: 1 word<" in html and "Candidate: 3 characters" in html
    # the counts are the texts' own, also when the chips stop at the walkthrough's limit (1,000)
    assert "Reference 1: 1,200 words" in html and "Reference 1: 3,600 characters" in html


def test_builders_by_another_route() -> None:
    candidate, references = LOVE
    trace = explain_chrf(candidate, references, chrf_options("chrf"))
    p, r = trace.precision, trace.recall
    latex = chrf_view.formula_latex(trace)
    expected = sacre(candidate, references, 0)
    # each step from the numbers printed before it: a reader who recomputes gets what is printed
    shown_p, shown_r = float(f"{p:.4f}"), float(f"{r:.4f}")
    steps = (f"{shown_p:.4f}", f"{shown_r:.4f}", f"{5 * shown_p * shown_r:.4f}", f"{4 * shown_p + shown_r:.4f}")
    for number in steps:
        assert number in latex
    assert latex.endswith(rf"\approx {expected / 100:.4f}")
    assert chrf_view.score_latex(trace) == rf"\text{{chrF}} = 100 \times F_{{\beta}} = {expected:.4f}"
    plus = explain_chrf(candidate, references, chrf_options("chrf++"))
    assert chrf_view.score_latex(plus).startswith(r"\text{chrF++} = ")
    chart = chrf_view.pr_chart(chrf_view.pr_points(trace), "zh").to_dict()
    values = [row["value"] for row in chart["datasets"][next(iter(chart["datasets"]))]]
    assert len(values) == 12 and max(values) <= 1
    frame = chrf_view.pr_frame(trace, "en")
    assert (
        next(iter(frame["P"])) == counter_lines(candidate, references[trace.chosen])[0].split(" = ")[-3].split(";")[0]
    )


# --- presentation mode -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_presentation_walks_every_step_and_shows_the_score_last(lang: str) -> None:
    candidate, references = LOVE
    at = page({"metric": "chrf++", "present": "1", "lang": lang})
    trace = explain_chrf(candidate, references, chrf_options("chrf++"))
    total = int(at.slider(key="ex_step").max)
    assert total == len(lecture(trace, lang))
    expected = f"{sacre(candidate, references, 2):.4f}"
    for step in range(1, total + 1):
        at.slider(key="ex_step").set_value(step).run()
        assert not at.exception
        assert (expected in metrics(at).values()) == (step == total)
        if lang == "zh":
            assert untranslated(rendered_labels(at)) == {}, step
    assert at.query_params["metric"] == "chrf++" and at.query_params["step"] == str(total)


def lecture(trace, lang: str) -> list[chrf_present.Step]:
    plan = tuple(chrf_present.plan_order(trace, index, lang) for index in range(len(trace.orders)))
    return chrf_present.steps(trace, plan)


def test_presentation_shows_every_row_once_over_its_steps() -> None:
    candidate = "the quick brown fox jumps over the lazy dog and keeps running far away"
    reference = "a quick brown dog jumps over the lazy fox and runs far far away from here"
    trace = explain_chrf(candidate, [reference], chrf_options("chrf"))
    steps = lecture(trace, "en")
    at = page({"metric": "chrf", "present": "1", "candidate": candidate, "reference": reference})
    shown: Counter[int] = Counter()
    for number, step in enumerate(steps, 1):
        if step.kind != "order":
            continue
        at.slider(key="ex_step").set_value(number).run()
        html = "\n".join(str(h.proto.body) for h in at.get("html"))
        tables = [len(re.findall(r"<tr[ >]", part)) - 1 for part in html.split("<table>")[1:]]  # less the header
        assert tables and all(0 < rows <= 15 for rows in tables), number  # 720 px hold 15 rows under the heading
        shown[step.order] += sum(tables)
    assert shown == {index: len(order.rows) + 1 for index, order in enumerate(trace.orders)}  # with the totals row
    assert steps[0].kind == "units" and steps[-1].kind == "score"
    assert any(s.parts > 1 for s in steps if s.kind == "order")


# --- exercise mode -----------------------------------------------------------------------------------------------


def exercise_page(**query: str) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["exercise"] = "1"
    for key, value in query.items():
        at.query_params[key] = value
    return at.run()


def answer(at: AppTest, index: int, values: dict[str, float]) -> AppTest:
    prefix = next(str(w.key)[: -len("_check")] for w in at.button if str(w.key).endswith(f"_chrf_{index}_check"))
    for kind, value in values.items():
        at.number_input(key=f"{prefix}_{kind}").set_value(value)
    at.button(key=f"{prefix}_check").click()
    return at.run()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_chrf_exercise_answered_by_counter(lang: str) -> None:
    exercise = generate_exercise(5)
    at = exercise_page(seed="5", metric="chrf", lang=lang)
    assert not at.exception and at.radio(key="exercise_metric").value == "chrf"
    best = max(
        range(len(exercise.references)), key=lambda i: (sacre(exercise.candidate, [exercise.references[i]], 0), -i)
    )
    hyp, ref = Counter(exercise.candidate.replace(" ", "")), Counter(exercise.references[best].replace(" ", ""))
    m, c, r = sum((hyp & ref).values()), sum(hyp.values()), sum(ref.values())
    at = answer(at, 1, {"chrf_matches": m, "chrf_candidate_total": c, "chrf_reference_total": r + 1})
    assert len(at.success) == 2 and len(at.error) == 1
    at = answer(at, 1, {"chrf_matches": m, "chrf_candidate_total": c, "chrf_reference_total": r})
    at = answer(at, 2, {"chrf_precision": round(m / c, 4), "chrf_recall": round(m / r, 4)})
    help_text = next(str(x.value) for x in at.caption if "β" in str(x.value) and "P =" in str(x.value))
    p, rr = (float(v) for v in re.findall(r"[PR] = ([0-9]+\.[0-9]+)", help_text)[:2])
    f1 = 100 * 2 * p * rr / (p + rr)
    at = answer(at, 3, {"chrf": round(f1, 4)})
    assert any(text("chrf.exercise.mistake_f1", lang) in str(e.value) for e in at.error)
    at = answer(at, 3, {"chrf": round(100 * 5 * p * rr / (4 * p + rr), 4)})
    exact = f"{sacre(exercise.candidate, list(exercise.references), 0):.4f}"
    assert any(exact in str(s.value) for s in at.success)
    assert any("metric=chrf" in str(m.value) and "exercise" not in str(m.value) for m in at.markdown)
    if lang == "zh":
        assert (
            untranslated(
                rendered_labels(at), exercise.candidate.split() + [w for x in exercise.references for w in x.split()]
            )
            == {}
        )
    assert at.query_params["metric"] == "chrf"


def test_every_chrf_mistake_has_a_sentence_in_both_languages() -> None:
    for language in ("en", "zh"):
        assert {f"chrf.exercise.mistake_{code}" for code in (*CHRF_MISTAKES, "unknown")} <= set(catalog(language))


def test_presentation_marks_the_reference_the_score_uses() -> None:
    """The "which reference" step draws the chosen reference's row bold under a rule, not the last row."""
    candidate, references = "the cat sat on the mat", ["the cat sat on a mat", "a dog ran"]
    trace = explain_chrf(candidate, references, chrf_options("chrf"))
    number = next(i for i, s in enumerate(lecture(trace, "en"), 1) if s.kind == "choice")
    at = page({"metric": "chrf", "present": "1", "candidate": candidate, "reference": references, "step": str(number)})
    assert not at.exception
    html = "\n".join(str(h.proto.body) for h in at.get("html"))
    marked = re.findall(r'<tr class="total"><td class="ngram">(\d+)</td>', html)
    assert trace.chosen == 0 and marked == ["1"]
    scores = [CHRF().sentence_score(candidate, [r]).score for r in references]
    assert marked == [str(scores.index(max(scores)) + 1)]


@pytest.mark.parametrize(
    "lang, expected, button",
    [("en", "to compute chrF++.", "compute chrF++ by hand"), ("zh", "才能计算 chrF++。", "手算 chrF++")],
)
def test_no_reference_and_the_exercise_button_name_the_chosen_metric(lang: str, expected: str, button: str) -> None:
    at = page({"metric": "chrf++", "candidate": "a cat", "reference": "", "lang": lang})
    assert not at.exception
    assert any(e.value.endswith(expected) for e in at.error)
    assert any(b.label.endswith(button) for b in at.button)
