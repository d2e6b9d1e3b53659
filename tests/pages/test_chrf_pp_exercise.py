"""AppTest: the chrF++ exercise of the Explain page (``?exercise=1&metric=chrf%2B%2B``), in English and Chinese.
Every number it asks for or prints is recomputed here with Counter over characters and over the words as the real
sacreBLEU splits them, and its score with sacreBLEU's ``CHRF(word_order=2)``."""

from __future__ import annotations

import re
import urllib.parse
from collections import Counter
from pathlib import Path

import pytest
from sacrebleu.metrics import CHRF
from streamlit.testing.v1 import AppTest

from bleu_core.i18n import catalog, text
from bleu_core.teach.chrf_exercises import CHRF_WORD_MISTAKES
from tests.i18n_check import rendered_labels, untranslated
from tests.pages.test_exercise_page import page as exercise_page

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "explain.py")
PLUS = CHRF(word_order=2)
CANDIDATE = "The cat, the cat sat (on) the mat."
REFERENCES = ["the cat sat on the mat.", "A cat is sitting on a mat!"]


def own(lang: str) -> AppTest:
    return exercise_page(metric="chrf++", candidate=CANDIDATE, reference=REFERENCES, lang=lang)


def prefix(at: AppTest, index: int) -> str:
    return next(str(w.key)[: -len("_check")] for w in at.button if str(w.key).endswith(f"_chrfpp_{index}_check"))


def answer(at: AppTest, index: int, values: dict[str, float]) -> AppTest:
    start = prefix(at, index)
    for kind, value in values.items():
        at.number_input(key=f"{start}_{kind}").set_value(value)
    at.button(key=f"{start}_check").click()
    return at.run()


def words(sentence: str) -> list[str]:
    """chrF++'s words by sacreBLEU's own splitting (its CHRF's method; sacreBLEU 2.6.0 is pinned)."""
    return PLUS._remove_punctuation(sentence)


def best_reference() -> str:
    scores = [PLUS.sentence_score(CANDIDATE, [ref]).score for ref in REFERENCES]
    return REFERENCES[scores.index(max(scores))]


def solve_characters(at: AppTest) -> AppTest:
    hyp, ref = Counter(CANDIDATE.replace(" ", "")), Counter(best_reference().replace(" ", ""))
    m, c, r = sum((hyp & ref).values()), sum(hyp.values()), sum(ref.values())
    at = answer(at, 1, {"chrf_matches": m, "chrf_candidate_total": c, "chrf_reference_total": r})
    return answer(at, 2, {"chrf_precision": round(m / c, 4), "chrf_recall": round(m / r, 4)})


def errors(at: AppTest) -> str:
    return "\n".join(str(e.value) for e in at.error)


def latin_words() -> list[str]:
    return re.findall(r"[A-Za-z]+", " ".join([CANDIDATE, *REFERENCES]))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_chrf_pp_exercise_answered_by_counter_and_sacrebleu(lang: str) -> None:
    at = own(lang)
    assert not at.exception and at.radio(key="exercise_metric").value == "chrf++"
    assert list(at.radio(key="exercise_metric").options) == ["BLEU", "chrF", "chrF++"]
    at = solve_characters(at)
    assert any(text("chrf.exercise.words.step_words", lang, step=3, steps=4) == str(s.value) for s in at.subheader)
    hyp, ref = Counter(words(CANDIDATE)), Counter(words(best_reference()))
    right = {
        "chrf_word_matches": sum((hyp & ref).values()),
        "chrf_word_candidate_total": sum(hyp.values()),
        "chrf_word_reference_total": sum(ref.values()),
    }
    spaced = sum((Counter(CANDIDATE.split()) & Counter(best_reference().split())).values())
    assert spaced != right["chrf_word_matches"]  # else the sentence could not show the mistake
    at = answer(at, 3, {**right, "chrf_word_matches": spaced})
    assert text("chrf.exercise.words.mistake_split", lang) in errors(at)
    at = answer(at, 3, {**right, "chrf_word_candidate_total": len(hyp)})  # distinct words
    assert text("chrf.exercise.words.mistake_distinct", lang) in errors(at)
    at = answer(at, 3, {**right, "chrf_word_reference_total": sum(hyp.values())})  # the candidate's count
    assert text("chrf.exercise.words.mistake_candidate_side", lang) in errors(at)
    at = answer(at, 3, right)
    assert not at.error
    help_text = next(str(x.value) for x in at.caption if "β" in str(x.value) and "P =" in str(x.value))
    p, r = (float(v) for v in re.findall(r"[PR] = ([0-9]+\.[0-9]+)", help_text)[:2])
    at = answer(at, 4, {"chrf": round(100 * 5 * p * r / (4 * p + r), 4)})
    exact = f"{PLUS.sentence_score(CANDIDATE, REFERENCES).score:.4f}"
    assert any(exact in str(s.value) and "chrF++" in str(s.value) for s in at.success)
    link = next(str(m.value) for m in at.markdown if "metric=" in str(m.value))
    assert "metric=chrf%2B%2B" in link and "exercise" not in link
    assert at.query_params["metric"] == "chrf++"
    if lang == "zh":
        assert untranslated(rendered_labels(at), latin_words()) == {}


def averages() -> tuple[float, float]:
    """chrF++'s average P and R against the chosen reference: character 1-6 and word 1-2 grams by Counter."""
    pairs = []
    for n in range(1, 7):
        hyp_chars, ref_chars = "".join(CANDIDATE.split()), "".join(best_reference().split())
        pairs.append(
            (
                Counter(hyp_chars[i : i + n] for i in range(len(hyp_chars) - n + 1)),
                Counter(ref_chars[i : i + n] for i in range(len(ref_chars) - n + 1)),
            )
        )
    for n in (1, 2):
        hyp_words, ref_words = words(CANDIDATE), words(best_reference())
        pairs.append(
            (
                Counter(tuple(hyp_words[i : i + n]) for i in range(len(hyp_words) - n + 1)),
                Counter(tuple(ref_words[i : i + n]) for i in range(len(ref_words) - n + 1)),
            )
        )
    used = [(h, r) for h, r in pairs if h and r]
    p = sum(sum((h & r).values()) / sum(h.values()) for h, r in used) / len(used)
    r = sum(sum((h & r).values()) / sum(r.values()) for h, r in used) / len(used)
    return p, r


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_revealed_word_step_shows_the_word_table_and_the_f_step_chrf_pp_averages(lang: str) -> None:
    at = solve_characters(own(lang))
    at.button(key=f"{prefix(at, 3)}_reveal").click()
    at = at.run()
    table = at.dataframe[-1].value
    hyp, ref = Counter(words(CANDIDATE)), Counter(words(best_reference()))
    expected = [*hyp, *(w for w in ref if w not in hyp)]
    assert list(table.iloc[:, 0]) == expected
    assert list(table.iloc[:, 1]) == [hyp[w] for w in expected]
    assert list(table.iloc[:, 2]) == [ref[w] for w in expected]
    assert list(table.iloc[:, 3]) == [min(hyp[w], ref[w]) for w in expected]
    assert table.columns[0] == text("chrf.exercise.words.table_word", lang)
    infos = "\n".join(str(i.value) for i in at.info)
    assert f"{sum((hyp & ref).values()):g}" in infos and text("chrf.exercise.words.matches", lang) in infos
    help_text = next(str(x.value) for x in at.caption if "β" in str(x.value) and "P =" in str(x.value))
    p, r = averages()
    assert f"P = {p:.4f}" in help_text and f"R = {r:.4f}" in help_text
    assert "8" in help_text  # every order used: characters 1-6 and words 1-2
    assert at.number_input(key=f"{prefix(at, 4)}_chrf").label == text("chrf.exercise.words.score", lang)
    if lang == "zh":
        assert untranslated(rendered_labels(at), latin_words()) == {}


def test_generated_exercise_opens_in_chrf_pp_and_the_link_carries_it() -> None:
    at = exercise_page(metric="chrf++", seed="5")
    assert not at.exception and at.radio(key="exercise_metric").value == "chrf++"
    assert [title.value for title in at.title] == ["Exercise: compute chrF++ by hand"]
    assert at.query_params["metric"] == "chrf++" and at.query_params["seed"] == "5"
    assert urllib.parse.urlencode({"metric": at.query_params["metric"]}) == "metric=chrf%2B%2B"
    at.radio(key="exercise_metric").set_value("chrf").run()
    assert at.query_params["metric"] == "chrf" and any(str(s.key).endswith("_chrf_1_check") for s in at.button)
    assert [title.value for title in at.title] == ["Exercise: compute chrF by hand"]
    at.radio(key="exercise_metric").set_value("bleu").run()
    assert "metric" not in at.query_params
    assert [title.value for title in at.title] == ["Exercise: compute BLEU by hand"]


def test_the_walkthrough_in_chrf_pp_enters_the_chrf_pp_exercise() -> None:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["metric"] = "chrf++"
    at = at.run()
    # the button names the metric it exercises
    next(b for b in at.button if b.label == "exercise mode: compute chrF++ by hand").click().run()
    assert not at.exception
    assert at.query_params["exercise"] == "1" and at.query_params["metric"] == "chrf++"
    assert at.radio(key="exercise_metric").value == "chrf++"


def test_every_word_mistake_has_a_sentence_in_both_languages() -> None:
    for language in ("en", "zh"):
        assert {f"chrf.exercise.words.mistake_{code}" for code in CHRF_WORD_MISTAKES} <= set(catalog(language))


def test_revealed_character_step_keeps_chrfs_character_table() -> None:
    at = own("en")
    at.button(key=f"{prefix(at, 1)}_reveal").click()
    at = at.run()
    assert not at.exception
    table = at.dataframe[-1].value
    hyp, ref = Counter(CANDIDATE.replace(" ", "")), Counter(best_reference().replace(" ", ""))
    expected = [*hyp, *(c for c in ref if c not in hyp)]
    assert table.columns[0] == text("chrf.exercise.table_character")
    assert list(table.iloc[:, 0]) == expected and list(table.iloc[:, 3]) == [min(hyp[c], ref[c]) for c in expected]
