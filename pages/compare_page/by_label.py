"""Compare's "By label" detail view: a tags file (or the demo's example labels), every system's scores per label
and the baseline's paired test against each other system on each label, corrected over labels x systems."""

from __future__ import annotations

from typing import Any

import streamlit as st

from bleu_core.compare.ranking import CORRECTIONS
from bleu_core.compare.significance import DEFAULT_SEED
from bleu_core.compare.slices import LabelTest, SliceScores, TagsError
from bleu_core.limits import LIMITS, LimitExceeded, chrf_refused
from bleu_core.options import BleuOptions
from bleu_core.teach.examples import DEMO_TAGS
from bleu_core.text.reader import InputFileError
from pages.compare_page import label_views
from pages.compare_page.verdict import BASELINE, DEFAULT_SAMPLES, TESTS, TestSettings, correction_name, test_name
from pages.shared import cached, charts, controls, views
from pages.shared import state as S
from pages.shared.i18n import error_text, language, t

UPLOADER = "cmp_tags_file"
EXAMPLE = "cmp_tags_example"
#: The decoded tags file (lines, file name), kept for the session like Compare's other uploads.
KEPT_TAGS = S.KEPT + "cmp_tags"


def chosen_test(names: list[str]) -> TestSettings:
    """The verdict's baseline, test, samples, seed, α and correction as its controls (drawn above) hold them."""
    ss = st.session_state
    baseline = ss.get(BASELINE)
    test = ss.get("cmp_test")
    test = test if test in TESTS else TESTS[0]
    return TestSettings(
        str(baseline) if baseline in names else names[0],
        str(test),
        int(ss.get(f"cmp_samples_{test}", DEFAULT_SAMPLES[test])),
        int(ss.get("cmp_seed", DEFAULT_SEED)),
        float(ss.get("cmp_alpha", 0.05)),
        str(correction) if (correction := ss.get("cmp_correction")) in CORRECTIONS else "holm",
    )


def _forget_tags() -> None:
    st.session_state.pop(KEPT_TAGS, None)


def tag_lines(demo: bool) -> list[str] | None:
    """An uploaded tags file (bounded decoding, kept for the session), else the demo's example labels when asked
    for; None when there are none (or the file could not be read: its error is shown)."""
    ss = st.session_state
    st.caption(t("slices.compare.intro"))
    alive = UPLOADER in ss
    uploaded = st.file_uploader(t("slices.upload"), key=UPLOADER, help=t("slices.upload_help"))
    if S.uploader_emptied(ss, UPLOADER, alive, uploaded is not None):
        _forget_tags()
    # under the uploader, at full width: in a quarter column beside it the label was cut off at 1280 pixels
    example = bool(demo and st.toggle(t("slices.try_example"), key=EXAMPLE, help=t("slices.try_example_help")))
    if uploaded is not None:
        try:
            lines = cached.decode_cached(uploaded.getvalue(), uploaded.name)
        except InputFileError as error:
            st.error(views.md_escape(error_text(error)))
            return None
        ss[KEPT_TAGS] = (lines, uploaded.name)
        return lines
    if KEPT_TAGS in ss:
        lines, name = ss[KEPT_TAGS]
        st.caption(t("corpus.kept_files", names=views.md_escape(name)))
        st.button(t("slices.compare.forget"), key="cmp_tags_forget", on_click=_forget_tags)
        return list(lines)
    if example:
        st.caption(t("slices.example_caption", labels=views.md_escape(", ".join(dict.fromkeys(DEMO_TAGS)))))
        return list(DEMO_TAGS)
    return None


def _table(frame: Any) -> None:
    number = st.column_config.NumberColumn
    st.dataframe(
        frame,
        hide_index=True,
        placeholder="—",  # the baseline's Δ and p-values, and p-values the limits refused
        column_config={
            "label": st.column_config.TextColumn(t("slices.col_label")),
            "system": st.column_config.TextColumn(t("slices.compare.col_system")),
            "segments": number(t("slices.col_segments"), format="%d"),
            "BLEU": number(t("slices.col_bleu"), format="%.2f"),
            "chrF2": number(t("slices.col_chrf"), format="%.2f"),
            "TER": number(t("slices.col_ter"), format="%.2f", help=t("slices.compare.col_ter_help")),
            "Δ BLEU": number(t("slices.compare.col_delta"), format="%+.2f", help=t("slices.compare.col_delta_help")),
            "p-value": number(t("slices.compare.col_p"), format="%.4f", help=t("slices.compare.col_p_help")),
            "corrected": number(
                t("slices.compare.col_corrected"), format="%.4f", help=t("slices.compare.col_corrected_help")
            ),
            "mark": st.column_config.TextColumn(t("slices.compare.col_mark"), help=t("slices.compare.col_mark_help")),
        },
    )


def _tests(
    data: cached.Systems, tags: list[str], settings: BleuOptions, chosen: TestSettings
) -> tuple[LabelTest, ...] | None:
    """The paired tests per label, or None when the limits refuse them (the refusal is shown)."""
    try:
        with st.spinner(t("verdict.progress", test=test_name(chosen.test), samples=chosen.n_samples)):
            return cached.slice_tests_cached(
                data,
                tags,
                settings,
                chosen.baseline,
                chosen.test,
                chosen.n_samples,
                chosen.seed,
                chosen.correction,
            )
    except LimitExceeded as refusal:  # refused before any draw; the scores are still shown
        st.error(refusal.reason.render(language()), icon=":material/error:")  # numbers only, no user text
        return None


def _summary(scores: SliceScores, tests: tuple[LabelTest, ...] | None, chosen: TestSettings) -> None:
    """What the table holds, and a note when the correction over that many tests cannot reach α with these
    samples."""
    st.caption(
        t(
            "slices.compare.summary",
            labels=len(scores.labels),
            segments=scores.corpus.segments,
            baseline=views.md_escape(chosen.baseline),
            test=test_name(chosen.test),
            samples=chosen.n_samples,
            seed=chosen.seed,
            pairs=len(tests or ()),
            alpha=chosen.alpha,
            correction=correction_name(chosen.correction),
        )
    )
    if tests and chosen.correction != "none" and (chosen.n_samples + 1) * chosen.alpha <= len(tests):
        needed = int(len(tests) / chosen.alpha) + 1  # then N + 1 > m / α: Holm's (Bonferroni's) first step can pass
        st.info(
            t(
                "slices.compare.too_few_samples",
                samples=chosen.n_samples,
                tests=len(tests),
                needed=needed,
                correction=correction_name(chosen.correction),
            )
        )


def show_by_label(data: cached.Systems, settings: BleuOptions, demo: bool, with_ter: bool = False) -> None:
    """The view: without tags only the upload (and the demo's toggle); with them the table and the heatmap; TER's
    column when the metric choice shows TER (``with_ter``: its statistics are cached then)."""
    lines = tag_lines(demo)
    if lines is None:
        return
    chosen = chosen_test(list(data.outputs))
    with_chrf = chrf_refused(data.segments, LIMITS) is None
    try:
        ter = with_ter and "ter" not in cached.refusals_cached(data, LIMITS)
        scores = cached.systems_slices_cached(data, lines, settings, chosen.baseline, with_chrf, ter)
    except (TagsError, LimitExceeded) as error:
        st.error(views.md_escape(error.reason.render(language())), icon=":material/error:")
        return
    tests = _tests(data, lines, settings, chosen)
    _summary(scores, tests, chosen)
    frame = label_views.label_frame(scores, tests, chosen.alpha, language())
    _table(frame)
    if len(data.outputs) > 1:
        charts.show(st, label_views.label_chart, scores, frame, chosen.alpha, language(), width="content")
        drawn = min(len(scores.labels), label_views.CHART_LABELS)
        st.caption(t("slices.compare.chart_caption", drawn=drawn, labels=len(scores.labels), alpha=chosen.alpha))
    controls.download_button(
        st, t("slices.download_csv"), lambda: views.frame_csv(frame), "bleu-compare-by-label.csv", "text/csv"
    )
