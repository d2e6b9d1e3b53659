"""The Corpus page's segment view: the table, one segment's walkthrough, what-if editing, "send to Explain"
and Explain's way back.  The segment, the table's order and the what-if edits are kept while the user is on
another page (:mod:`pages.shared.state`)."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

import pandas as pd
import streamlit as st
from streamlit.errors import StreamlitAPIException

from bleu_core.corpus.diagnosis import CorpusAnalysis
from bleu_core.limits import LIMITS
from bleu_core.options import BleuOptions
from pages.corpus_page import analysis_views as corpus_analysis_views
from pages.corpus_page import views as corpus_views
from pages.corpus_page.inputs import choices
from pages.shared import cached, views, walkthrough
from pages.shared import state as S
from pages.shared.i18n import language, number_columns, t

#: Rows listed in the segment table (the downloads hold every segment).
TABLE_ROWS = 5_000
EXPLAIN_PAGE = "pages/explain.py"
CORPUS_PAGE = "pages/corpus.py"


def _on_table_select() -> None:
    ss = st.session_state
    rows = ss["co_table"]["selection"]["rows"]
    ids = ss.get("co_table_ids", [])
    if rows and rows[0] < len(ids):
        ss["co_segment"] = int(ids[rows[0]])


def _column_config(frame: pd.DataFrame) -> dict[str, object]:
    config: dict[str, object] = {
        "segment": st.column_config.NumberColumn(t("corpus.col_segment"), format="%d"),
        "sentence BLEU": st.column_config.NumberColumn(t("corpus.col_sentence_bleu"), format="%.2f"),
        "sentence chrF": st.column_config.NumberColumn(
            t("corpus.col_sentence_chrf"), format="%.2f", help=t("corpus.col_sentence_chrf_help")
        ),
        "sentence TER": st.column_config.NumberColumn(
            t("corpus.col_sentence_ter"), format="%.2f", help=t("corpus.col_sentence_ter_help")
        ),
        "source": st.column_config.TextColumn(t("corpus.col_source"), width="medium"),
        "hypothesis": st.column_config.TextColumn(t("corpus.col_hypothesis"), width="medium"),
        **number_columns({"hyp len": "corpus.col_hyp_len", "ref len": "corpus.col_ref_len"}),
        "c/r": st.column_config.TextColumn("c/r", help=t("corpus.col_ratio_help")),
        "leave-one-out Δ": st.column_config.NumberColumn(
            t("corpus.col_loo"), format="%+.3f", help=t("corpus.col_loo_help")
        ),
        "_ratio": None,
    }
    for column in frame.columns:
        if column.startswith("reference "):
            config[column] = st.column_config.TextColumn(
                t("corpus.col_reference", k=column.split()[-1]), width="medium"
            )
        if column[:1] == "p" and column[1:].isdigit():
            config[column] = st.column_config.TextColumn(column, help=t("corpus.col_p_help", n=column[1:]))
    return config


def _table(key: str, frame: pd.DataFrame) -> None:
    top_len = max(int(frame["ref len"].max()), 1)
    cols = st.columns([2, 2, 2, 1])
    # defaults through the session only: a value given both ways makes Streamlit warn (the language switch and
    # the page store write these keys)
    ss = st.session_state
    if ss.get(S.CORPUS_TABLE_FOR) != key:  # another corpus: the kept lengths and segment number were not its
        for name in ("co_length_range", S.CORPUS_SEGMENT):
            ss.pop(S.KEPT + name, None)
    ss[S.CORPUS_TABLE_FOR] = key
    for name, default in zip(
        S.CORPUS_TABLE, (next(iter(corpus_views.SORTS)), True, (0.0, 100.0), (0, top_len)), strict=True
    ):
        S.restore(ss, name, default)
    low, high = ss["co_length_range"]
    ss["co_length_range"] = (min(max(int(low), 0), top_len), min(max(int(high), 0), top_len))
    # (a tuple in the session makes these range sliders, as Streamlit documents)
    score_range = cast(
        tuple[float, float], cols[0].slider(t("corpus.filter_score"), 0.0, 100.0, step=1.0, key="co_score_range")
    )
    length_range = cast(tuple[int, int], cols[1].slider(t("corpus.filter_length"), 0, top_len, key="co_length_range"))
    sorts = [name for name, column in corpus_views.SORTS.items() if column in frame.columns]
    if ss.get("co_sort") not in sorts:  # sentence chrF is left out of very large corpora (LIMITS.chrf_segments)
        ss["co_sort"] = sorts[0]
    sort = cols[2].selectbox(t("corpus.sort"), sorts, format_func=choices("corpus.sort_"), key="co_sort")
    ascending = cols[3].toggle(t("corpus.ascending"), key="co_ascending")
    for name in S.CORPUS_TABLE:
        S.keep(ss, name)
    shown = corpus_views.filter_segments(frame, score_range, length_range, sort, ascending)
    st.session_state["co_table_ids"] = shown["segment"].tolist()[:TABLE_ROWS]
    more = t("corpus.table_more", rows=f"{TABLE_ROWS:,}") if len(shown) > TABLE_ROWS else ""
    st.caption(t("corpus.table_caption", shown=f"{len(shown):,}", total=f"{len(frame):,}", more=more))
    st.dataframe(
        shown.head(TABLE_ROWS),
        hide_index=True,
        key="co_table",
        on_select=_on_table_select,
        selection_mode="single-row",
        height=min(420, 38 + 35 * min(len(shown), TABLE_ROWS)),
        column_config=_column_config(frame),  # type: ignore[arg-type]
    )
    first = int(shown["segment"].iloc[0]) if len(shown) else 1
    S.restore(ss, S.CORPUS_SEGMENT, first)  # after a visit to another page: the segment the user was on
    if not 1 <= ss[S.CORPUS_SEGMENT] <= len(frame):
        ss[S.CORPUS_SEGMENT] = first


def _send_to_explain(
    candidate: str, references: tuple[str, ...], settings: BleuOptions, origin: S.CorpusOrigin
) -> None:
    """Button callback: the segment goes into Explain's keys before the run (a run cut short by a page switch
    would not keep them), with where it came from for Explain's way back."""
    S.send_to_explain(st.session_state, candidate, references, settings)
    st.session_state[S.FROM_CORPUS] = origin
    st.session_state["co_go_explain"] = True


def _open_explain() -> None:
    if not st.session_state.pop("co_go_explain", False):
        return
    try:
        st.switch_page(EXPLAIN_PAGE)
    except StreamlitAPIException:  # the page runs on its own (no navigation): the segment waits on Explain
        st.info(t("corpus.sent_to_explain"))


def _reset_edit(key: str, original: str) -> None:
    st.session_state[key] = original


def _what_if(corpus: cached.Corpus, settings: BleuOptions, index: int) -> str:
    """The editor of one segment's hypothesis; returns the text to walk through (the edit, or the file's line).

    The edit is kept per corpus and segment: it is there again after a visit to Explain, and another corpus
    (another digest) opens on its own edits, not on the text typed for this one.
    """
    ss, key = st.session_state, corpus.key
    original = corpus.hypotheses[index]
    if len(original) > LIMITS.shown_chars:  # a text area of megabytes would stall the browser, not help the user
        st.caption(t("limits.edit_off", length=len(original), limit=LIMITS.shown_chars))
        return original
    edit_key = S.edit_key(index)
    if edit_key not in ss or ss.get(S.CORPUS_EDITS_FOR) != key:
        kept = S.kept_edit(ss, key, index)
        ss[edit_key] = original if kept is None else kept
    ss[S.CORPUS_EDITS_FOR] = key
    edited = st.text_area(t("corpus.edit_label", segment=index + 1), key=edit_key, height=80)
    S.keep_edit(ss, key, index, edited, original)
    st.button(t("corpus.edit_reset"), key=f"co_edit_reset_{index}", on_click=_reset_edit, args=(edit_key, original))
    if edited == original:
        st.caption(t("corpus.edit_hint"))
        return original
    change = cached.what_if_cached(corpus, settings, index, edited)
    cols = st.columns(3)
    cols[0].metric(
        t("corpus.edit_corpus_bleu"), f"{change.after.score_100:.2f}", f"{100 * change.delta:+.3f}", delta_arrow="auto"
    )
    cols[1].metric(
        t("corpus.edit_sentence_bleu"),
        f"{100 * change.sentence_after:.2f}",
        f"{100 * (change.sentence_after - change.sentence_before):+.2f}",
    )
    cols[2].metric(t("corpus.edit_before"), f"{change.before.score_100:.2f}")
    st.dataframe(
        corpus_analysis_views.what_if_frame(change),
        hide_index=True,
        column_config={
            "quantity": st.column_config.TextColumn(t("corpus.col_quantity")),
            "file": st.column_config.TextColumn(t("corpus.col_file")),
            "edited": st.column_config.TextColumn(t("corpus.col_edited")),
        },
    )
    return edited


def show_segments(corpus: cached.Corpus, analysis: CorpusAnalysis, frame: pd.DataFrame, settings: BleuOptions) -> None:
    hyps, source = corpus.hypotheses, corpus.source
    _table(corpus.key, frame)
    index = int(st.number_input(t("corpus.walk_segment"), 1, len(frame), key=S.CORPUS_SEGMENT)) - 1
    S.keep(st.session_state, S.CORPUS_SEGMENT)
    references = tuple(line for line in (stream[index] for stream in corpus.references) if line is not None)
    st.markdown(
        t(
            "corpus.segment_line",
            segment=index + 1,
            bleu=f"{100 * analysis.sentence[index]:.2f}",
            delta=views.signed(100 * analysis.leave_one_out[index]),
        )
    )
    lang = language()
    if source is not None:
        st.text(t("corpus.text_source", text=views.shown_text(source[index], lang)))
    st.text(t("corpus.text_hypothesis", text=views.shown_text(hyps[index], lang)))
    for k, reference in enumerate(references):
        st.text(t("corpus.text_reference", k=k + 1, text=views.shown_text(reference, lang)))
    candidate = _what_if(corpus, settings, index)
    st.button(
        t("corpus.send_to_explain"),
        key="co_send_explain",
        help=t("corpus.send_to_explain_help"),
        on_click=_send_to_explain,
        args=(candidate, references, settings, S.CorpusOrigin(index + 1, candidate != hyps[index])),
    )
    _open_explain()
    trace = cached.explain_cached(candidate, references, replace(settings, effective_order=True))
    with st.container(border=True):
        walkthrough.render(trace, "co_highlight")


def _back_to_corpus(origin: S.CorpusOrigin) -> None:
    """Button callback: the Corpus page opens on the segment (its what-if edit is kept under the segment)."""
    ss = st.session_state
    ss[S.KEPT + S.CORPUS_SEGMENT] = origin.segment
    ss[S.KEPT + "co_view"] = "segments"
    ss[S.GO_CORPUS] = True


def way_back() -> None:
    """On Explain: a button back to the Corpus segment its text came from, while the text is still that one's
    (choosing an example on Explain ends it)."""
    ss = st.session_state
    origin = ss.get(S.FROM_CORPUS)
    if not isinstance(origin, S.CorpusOrigin) or ss.get(S.PRESET) != S.EXPLAIN_CUSTOM:
        return
    label = t("explain.back.edited" if origin.edited else "explain.back.segment", segment=origin.segment)
    st.button(label, key=S.BACK_TO_CORPUS, icon=":material/arrow_back:", on_click=_back_to_corpus, args=(origin,))
    if not ss.pop(S.GO_CORPUS, False):
        return
    try:
        st.switch_page(CORPUS_PAGE)
    except StreamlitAPIException:  # Explain runs on its own (no navigation): there is no Corpus page to open
        st.info(t("explain.back.no_corpus"))
