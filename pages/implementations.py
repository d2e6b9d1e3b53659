"""Implementations: the score each well-known BLEU tool gives the same text, and why they differ."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import streamlit as st

from bleu_core.gaps.divergence import Divergence, compare_traces
from bleu_core.gaps.waterfall import ORDERS, Waterfall
from bleu_core.text import reader
from bleu_core.tools import IMPLEMENTATIONS
from pages.compare_page.verdict import option_labels
from pages.implementations_page import views as iv
from pages.shared import cached, charts, share, views
from pages.shared import state as S
from pages.shared.i18n import error_text, language, t, with_language
from pages.shared.streamlit_private import ensure_app_navigation

SENTENCE, CORPUS = "sentence", "corpus"
MODE = "im_mode"
CANDIDATE = "im_candidate"
REFERENCES = "im_references"
SEGMENT = "im_segment"
HYPOTHESIS_FILE = "im_hypothesis_file"
REFERENCE_FILES = "im_reference_files"
ORDER = "im_order"
LOADED = "im_loaded"
SEGMENT_FOR = "im_segment_for"
TOKENIZE_FOR = {"13a": "13a", "whitespace": "none", "space": "none"}
Rows = list[tuple[Any, float, float]]


def defaults() -> list[str]:
    """Session defaults; on a session's first run the link's values win.  Returns the link's problems."""
    ss = st.session_state
    problems: list[str] = []
    if not ss.get(LOADED):
        params = {key: st.query_params.get_all(key) for key in st.query_params}
        values, problems = S.parse_implementations_query(params, list(IMPLEMENTATIONS), list(ORDERS))
        if values.get("mode") in (SENTENCE, CORPUS):
            ss[MODE] = values["mode"]
        for key, name in (
            (CANDIDATE, "candidate"),
            (S.chosen_tool_key("first"), "first"),
            (S.chosen_tool_key("second"), "second"),
            (ORDER, "order"),
        ):
            if name in values:
                ss[key] = values[name]
        if values.get("references"):
            ss[REFERENCES] = "\n".join(values["references"])
        ss[LOADED] = True
    # Widgets not drawn in a run lose their values (the sentence in corpus mode, everything on another page):
    # they come back from the session store (pages.shared.state.restore; kept after drawing).
    for key, default in (
        (MODE, SENTENCE),
        (CANDIDATE, iv.EXAMPLE_CANDIDATE),
        (REFERENCES, "\n".join(iv.EXAMPLE_REFERENCES)),
        (ORDER, "pipeline"),
    ):
        S.restore(ss, key, default)
    ss.setdefault(S.chosen_tool_key("first"), "sacrebleu")
    ss.setdefault(S.chosen_tool_key("second"), "nltk")
    return problems


def restore_example() -> None:
    st.session_state[CANDIDATE] = iv.EXAMPLE_CANDIDATE
    st.session_state[REFERENCES] = "\n".join(iv.EXAMPLE_REFERENCES)


def sentence_input() -> tuple[str, list[str]] | None:
    st.text_input(t("implementations.candidate"), key=CANDIDATE)
    st.text_area(t("implementations.references"), key=REFERENCES, height=90)
    st.button(t("implementations.restore"), icon=":material/restart_alt:", on_click=restore_example)
    S.keep(st.session_state, CANDIDATE)
    S.keep(st.session_state, REFERENCES)
    references = [line for line in st.session_state[REFERENCES].split("\n") if line.strip()]
    if not references:
        st.error(t("implementations.no_reference"), icon=":material/error:")
        return None
    return st.session_state[CANDIDATE], references


def corpus_input() -> tuple[list[str], list[list[str]]] | None:
    """Hypothesis and reference files, decoded and checked; errors shown next to the uploaders."""
    left, right = st.columns(2)
    hypothesis = left.file_uploader(
        t("implementations.hypothesis_file"), key=HYPOTHESIS_FILE, help=t("implementations.hypothesis_help")
    )
    references = right.file_uploader(
        t("implementations.reference_files"),
        key=REFERENCE_FILES,
        accept_multiple_files=True,
        help=t("implementations.reference_help"),
    )
    st.caption(t("implementations.upload_caption"))
    ss = st.session_state
    kept = S.loaded_files(ss)
    if hypothesis is None and not references and kept and kept.hypothesis and kept.references:
        # nothing uploaded here: the files loaded on another page of this session (Corpus, or here before)
        hyp_name, hyp_lines = kept.hypothesis
        streams = list(kept.references)
        names = ", ".join(views.md_escape(name) for name, _ in streams)
        st.caption(t("implementations.kept_files", hypothesis=views.md_escape(hyp_name), references=names))
    elif hypothesis is None or not references:
        st.info(t("implementations.upload_info"), icon=":material/upload_file:")
        return None
    else:
        hyp_name = hypothesis.name
        try:
            hyp_lines = cached.decode_cached(hypothesis.getvalue(), hypothesis.name)
        except reader.InputFileError as error:
            left.error(views.md_escape(error_text(error)), icon=":material/error:")
            return None
        streams = []
        for file in references:
            try:
                streams.append((file.name, cached.decode_cached(file.getvalue(), file.name)))
            except reader.InputFileError as error:
                right.error(views.md_escape(error_text(error)), icon=":material/error:")
                return None
    if not hyp_lines:
        left.error(t("implementations.empty_file", file=views.md_escape(hyp_name)), icon=":material/error:")
        return None
    try:
        reader.check_line_counts((hyp_name, hyp_lines), streams)
    except reader.InputFileError as error:
        right.error(views.md_escape(error_text(error)), icon=":material/error:")
        return None
    if hypothesis is not None:  # checked files uploaded here: the other corpus pages open on them too
        ss[S.FILES] = replace(kept or S.LoadedFiles(), hypothesis=(hyp_name, hyp_lines), references=tuple(streams))
    return hyp_lines, [lines for _, lines in streams]


def show_table(rows: Rows, waterfalls: dict[str, Waterfall], corpus: bool) -> None:
    frame = iv.scores_frame(rows, waterfalls, corpus, language())
    st.table(iv.styled(frame).hide(axis="index"))
    st.caption(t("implementations.table_caption"))
    charts.show(st, iv.score_chart, rows, language(), width="stretch")


def pair_selectors(mode: str) -> tuple[str, str]:
    """The two tools compared below, named by what each computes in ``mode`` (``corpus_bleu`` for a corpus).

    Each mode has its own pair of selectors (:func:`pages.shared.state.tool_key`); the choice is kept apart from them,
    so it is the same in both modes.
    """
    ss = st.session_state
    keys = list(IMPLEMENTATIONS)
    label = {key: impl.name_message(mode == CORPUS).render(language()) for key, impl in IMPLEMENTATIONS.items()}
    chosen = []
    for column, which in zip(st.columns(2), ("first", "second"), strict=True):
        widget = S.tool_key(which, mode)
        if widget not in ss:  # this mode's selector was not drawn in the last run: it shows the kept choice
            ss[widget] = ss[S.chosen_tool_key(which)]
        value = column.selectbox(t(f"implementations.{which}_tool"), keys, key=widget, format_func=label.__getitem__)
        ss[S.chosen_tool_key(which)] = value
        chosen.append(str(value))
    return chosen[0], chosen[1]


def show_waterfall(result: Waterfall, what: str) -> None:
    a, b = IMPLEMENTATIONS[result.first].label, IMPLEMENTATIONS[result.second].label
    st.subheader(":material/waterfall_chart: " + t("implementations.waterfall_title", first=a, second=b, what=what))
    if result.reason_message is not None:
        st.warning(views.md_escape(result.reason_message.render(language())), icon=":material/warning:")
        return
    st.info(views.md_escape(result.summary_message.render(language())), icon=":material/lightbulb:")
    st.table(iv.styled(iv.waterfall_frame(result, language())).hide(axis="index"))
    charts.show(st, iv.waterfall_chart, result, language(), width="stretch")
    st.caption(t("implementations.waterfall_caption", first=a, second=b, gap=f"{result.gap:+.4g}"))


def show_pair(first: str, second: str, candidate: str, references: list[str], order: str) -> None:
    traces = {t.implementation.key: t for t in cached.tool_traces_cached(candidate, tuple(references))}
    show_waterfall(
        cached.waterfall_cached(first, second, candidate, tuple(references), order), t("implementations.this_sentence")
    )
    st.markdown(t("implementations.fields_heading"))
    st.dataframe(iv.fields_frame([traces[first], traces[second]], language()), hide_index=True, width="stretch")
    st.subheader(":material/call_split: " + t("implementations.part_ways"))
    divergence = compare_traces(traces[first], traces[second])
    st.info(views.md_escape(divergence.summary_message.render(language())), icon=":material/lightbulb:")
    st.table(iv.styled(iv.steps_frame(divergence, language())).hide(axis="index"))
    if divergence.differing:
        st.markdown(iv.differences_markdown(divergence, language()))
    charts.show(st, iv.precision_chart, [divergence.first, divergence.second], language(), width="stretch")
    with st.expander(t("implementations.tokens_and_counts"), icon=":material/table_view:"):
        show_tokens(divergence, candidate, references)


def show_tokens(divergence: Divergence, candidate: str, references: list[str]) -> None:
    traces = {t.tokenizer: t for t in (divergence.first, divergence.second)}
    columns = st.columns(len(traces))
    for column, (tokenizer, trace) in zip(columns, traces.items(), strict=True):
        with column:
            users = [t.implementation.label for t in (divergence.first, divergence.second) if t.tokenizer == tokenizer]
            names = t("implementations.and").join(dict.fromkeys(users))
            tokenizer_name = iv.tokenizer_name(tokenizer, language())
            st.markdown(t("implementations.tokens_of", tokenizer=tokenizer_name, tools=views.md_escape(names)))
            st.html(views.tokens_html(trace.candidate_tokens, None, t("implementations.candidate_tokens")))
            for k, tokens in enumerate(trace.reference_tokens):
                st.html(views.tokens_html(tokens, None, views.ref_label(k)))
            counts = cached.tool_counts_cached(candidate, tuple(references), TOKENIZE_FOR[tokenizer])
            tabs = st.tabs([t("implementations.order_tab", order=o.order) for o in counts.orders])
            for tab, order in zip(tabs, counts.orders, strict=True):
                with tab:
                    table = iv.count_table(views.order_table(order, len(counts.references)), language())
                    st.dataframe(table, hide_index=True, width="stretch")
                    st.markdown(t("implementations.clipped_fraction", order=order.order, fraction=order.fraction))


def show_mistakes(candidate: str, references: list[str]) -> None:
    st.subheader(":material/rule: " + t("implementations.mistakes_title"))
    st.caption(t("implementations.mistakes_caption"))
    checks = cached.mistakes_cached(candidate, tuple(references))
    st.table(iv.styled(iv.mistakes_frame(checks, language())).hide(axis="index"))
    st.markdown(iv.mistakes_markdown(checks, language()))


def sentence_mode(first: str, second: str, order: str) -> tuple[str, list[str]]:
    sentence = sentence_input()
    if sentence is None:
        return st.session_state[CANDIDATE], []
    candidate, references = sentence
    st.subheader(":material/table_chart: " + t("implementations.scores"))
    waterfalls = {
        key: cached.waterfall_cached("sacrebleu", key, candidate, tuple(references), order) for key in IMPLEMENTATIONS
    }
    show_table(cached.tool_scores_cached(candidate, tuple(references)), waterfalls, corpus=False)
    show_pair(first, second, candidate, references, order)
    show_mistakes(candidate, references)
    return candidate, references


def corpus_mode(first: str, second: str, order: str) -> None:
    corpus = corpus_input()
    if corpus is None:
        return
    hyps, streams = corpus
    data = cached.Corpus(list(hyps), [list(stream) for stream in streams])
    st.subheader(":material/table_chart: " + t("implementations.corpus_scores"))
    rows, waterfalls = cached.tool_corpus_table_cached(data, order)
    show_table(rows, waterfalls, corpus=True)
    st.caption(t("implementations.sentence_only_caption"))
    if first == "sacrebleu":  # the table's own waterfall
        pair = waterfalls[second]
    else:
        own = {tool: result.second_score for tool, result in waterfalls.items()}
        pair = cached.corpus_waterfall_cached(data, first, second, order, own)
    show_waterfall(pair, t("implementations.whole_corpus"))
    # Open on the first segment where the two tools give different numbers (again when the files or pair change).
    marker = (data.key, first, second)
    if st.session_state.get(SEGMENT_FOR) != marker:
        st.session_state[SEGMENT_FOR] = marker
        st.session_state[SEGMENT] = cached.first_differing_cached(data, first, second) + 1
    segment = st.number_input(t("implementations.segment"), 1, len(data.hypotheses), key=SEGMENT)
    index = int(segment) - 1
    refs = [stream[index] for stream in streams if stream[index].strip()]
    if refs:
        show_pair(first, second, hyps[index], refs, order)
        show_mistakes(hyps[index], refs)
    else:
        st.warning(t("implementations.empty_line", line=index + 1), icon=":material/warning:")


def sync_query(mode: str, first: str, second: str, order: str, candidate: str, references: list[str]) -> None:
    wanted = with_language(S.build_implementations_query(mode, first, second, order, candidate, references))
    current = {key: st.query_params.get_all(key) for key in st.query_params}
    if {k: v if isinstance(v, list) else [v] for k, v in wanted.items()} != current:
        st.query_params.from_dict(wanted)


def main() -> None:
    """The page: the pair of tools, sentence or corpus mode, then the link."""
    ensure_app_navigation()
    link_slot = share.place("implementations")
    st.title(t("implementations.title"))
    st.caption(t("implementations.caption"))
    for problem in defaults():
        st.warning(t("implementations.link_ignored", problem=problem), icon=":material/warning:")
    st.segmented_control(
        t("implementations.input"), [SENTENCE, CORPUS], key=MODE, format_func=option_labels("implementations.mode_")
    )
    S.keep(st.session_state, MODE)
    mode = st.session_state.get(MODE) or SENTENCE
    pair = pair_selectors(mode)
    chosen_order = st.selectbox(
        t("implementations.order"),
        list(ORDERS),
        key=ORDER,
        format_func=option_labels("implementations.order_"),
        help=t("implementations.order_help"),
    )
    S.keep(st.session_state, ORDER)
    if mode == CORPUS:
        corpus_mode(*pair, str(chosen_order))
        sync_query("corpus", *pair, str(chosen_order), "", [])
    else:
        text, refs = sentence_mode(*pair, str(chosen_order))
        sync_query("sentence", *pair, str(chosen_order), text, refs)
    link_slot.fill()


main()
