"""Each preset's lesson is true to its numbers, in both languages: the fractions, lengths and scores it quotes are
the ones its trace computes (so a lesson cannot drift from its example again)."""

from __future__ import annotations

import re

import pytest

from bleu_core.i18n import LANGUAGES, catalog
from bleu_core.teach.examples import PRESETS, Preset
from bleu_core.teach.explain import Explanation, explain, paper_text

PRECISION = re.compile(r"\bp(\d) = (\d+/\d+)")
LIST = re.compile(r"\bp = ((?:\d+/\d+, )+\d+/\d+)")
DECIMAL = re.compile(r"(?<![\d/])(\d\.\d{4})(?!\d)")
CANDIDATE_LENGTH = re.compile(r"\bc = (?:r = )?(\d+)")
REFERENCE_LENGTH = re.compile(r"\br = (\d+)")


def trace_of(preset: Preset) -> Explanation:
    candidate, references = preset.candidate, list(preset.references)
    if preset.paper:
        candidate, references = paper_text(candidate), [paper_text(r) for r in references]
    return explain(candidate, references, **preset.options())


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.key)
def test_lesson_quotes_its_own_numbers(preset: Preset, language: str) -> None:
    trace = trace_of(preset)
    lesson = preset.lesson.render(language)
    main = lesson.split("(")[0] if language == "en" else lesson.split("（")[0]  # asides may use other settings
    fractions = {o.order: o.fraction for o in trace.orders}
    for n, fraction in PRECISION.findall(main):
        assert fractions.get(int(n)) == fraction, (n, fraction)
    for listed in LIST.findall(main):
        assert listed.split(", ") == [o.fraction for o in trace.orders]
    assert not re.search(r"\d\.\d{5,}", lesson), "long floats do not belong in a lesson"
    allowed = {f"{trace.score:.4f}", f"{trace.bp:.4f}"}
    assert set(DECIMAL.findall(main)) <= allowed, lesson
    for c in CANDIDATE_LENGTH.findall(main):
        assert int(c) == trace.length.candidate_length
    for r in REFERENCE_LENGTH.findall(main):
        assert int(r) in trace.length.reference_lengths


def test_presets_have_names_and_lessons_in_every_catalog() -> None:
    for language in LANGUAGES:
        keys = set(catalog(language))
        for preset in PRESETS:
            assert {f"presets.{preset.key}.name", f"presets.{preset.key}.lesson"} <= keys
    assert len({p.key for p in PRESETS}) == len(PRESETS)


def test_paper_faithful_counting_gives_the_papers_figure() -> None:
    preset = next(p for p in PRESETS if p.key == "clip_paper")
    assert trace_of(preset).orders[0].fraction == "2/7"
    assert explain(preset.candidate, list(preset.references), **preset.options()).orders[0].fraction == "1/7"
    assert paper_text("The cat, is on the MAT.") == "the cat is on the mat"
