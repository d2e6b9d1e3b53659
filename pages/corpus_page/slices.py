"""The Corpus page's scores by label: an optional tags file (or the demo's example labels), a table and a chart."""

from __future__ import annotations

from typing import Any

import streamlit as st

from bleu_core.compare.slices import TagsError
from bleu_core.limits import LimitExceeded
from bleu_core.options import BleuOptions
from bleu_core.teach.examples import DEMO_TAGS
from bleu_core.text.reader import InputFileError
from pages.corpus_page import slice_views
from pages.shared import cached, charts, controls, views
from pages.shared.i18n import error_text, language, t


def _tag_lines(demo: bool) -> list[str] | None:
    """The tags' lines: an uploaded file (through the bounded decoding of every upload), else the demo's example
    labels when asked for; None when there are none (or the file could not be read: its error is shown)."""
    st.caption(t("slices.intro"))
    uploaded = st.file_uploader(t("slices.upload"), key="co_tags_file", help=t("slices.upload_help"))
    example = False
    if demo:  # below the uploader, full width: a narrow column cut its label at 1280x720
        example = st.toggle(t("slices.try_example"), key="co_tags_example", help=t("slices.try_example_help"))
    if uploaded is not None:
        try:
            return cached.decode_cached(uploaded.getvalue(), uploaded.name)
        except InputFileError as error:
            st.error(views.md_escape(error_text(error)))
            return None
    if example:
        labels = ", ".join(dict.fromkeys(DEMO_TAGS))
        st.caption(t("slices.example_caption", labels=views.md_escape(labels)))
        return list(DEMO_TAGS)
    return None


def _table(frame: Any) -> None:
    number = st.column_config.NumberColumn
    delta_help = t("slices.col_delta_help")
    st.dataframe(
        frame,
        hide_index=True,
        column_config={
            "label": st.column_config.TextColumn(t("slices.col_label")),
            "segments": number(t("slices.col_segments"), format="%d"),
            "BLEU": number(t("slices.col_bleu"), format="%.2f"),
            "chrF2": number(t("slices.col_chrf"), format="%.2f"),
            "BLEU − corpus": number(t("slices.col_delta_bleu"), format="%+.2f", help=delta_help),
            "chrF2 − corpus": number(t("slices.col_delta_chrf"), format="%+.2f", help=delta_help),
            "TER": number(t("slices.col_ter"), format="%.2f"),
            "TER − corpus": number(t("slices.col_delta_ter"), format="%+.2f", help=t("slices.col_delta_ter_help")),
        },
    )


def show_slices(corpus: cached.Corpus, settings: BleuOptions, demo: bool, with_chrf: bool, with_ter: bool) -> None:
    """Scores by label, inside an expander; without tags only the upload (and the demo's toggle) is there."""
    with st.expander(t("slices.expander")):
        lines = _tag_lines(demo)
        if lines is None:
            return
        try:
            scores = cached.slices_cached(corpus, lines, settings, with_chrf, with_ter)
        except (TagsError, LimitExceeded) as error:
            st.error(views.md_escape(error.reason.render(language())), icon=":material/error:")
            return
        chrf = f"{scores.corpus.chrf[0]:.2f}" if scores.corpus.chrf else "—"
        st.caption(
            t(
                "slices.summary",
                labels=len(scores.labels),
                segments=scores.corpus.segments,
                bleu=f"{scores.corpus.bleu[0]:.2f}",
                chrf=chrf,
                ter=t("slices.corpus_ter", ter=f"{scores.corpus.ter[0]:.2f}") if scores.corpus.ter else "",
            )
        )
        frame = slice_views.slice_frame(scores, language())
        _table(frame)
        charts.show(st, slice_views.slice_chart, scores, language())
        controls.download_button(
            st, t("slices.download_csv"), lambda: views.frame_csv(frame), "bleu-by-label.csv", "text/csv"
        )
