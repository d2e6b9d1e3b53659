"""Implementations: the score each well-known BLEU tool gives the same text, and why they differ."""

from __future__ import annotations

from typing import Any

import streamlit as st

from bleu_core import reader
from bleu_core.divergence import Divergence, compare_traces
from bleu_core.explain import Explanation, explain
from bleu_core.mistakes import MistakeCheck, common_mistakes
from bleu_core.tools import (
    IMPLEMENTATIONS,
    ImplementationTrace,
    compare_corpus_implementations,
    compare_implementations,
    trace_implementations,
)
from pages import ensure_app_navigation, views
from pages import implementations_views as iv

ensure_app_navigation()

SENTENCE, CORPUS = "One sentence", "A corpus (files)"
MODE = "im_mode"
CANDIDATE = "im_candidate"
REFERENCES = "im_references"
FIRST = "im_first"
SECOND = "im_second"
SEGMENT = "im_segment"
HYPOTHESIS_FILE = "im_hypothesis_file"
REFERENCE_FILES = "im_reference_files"
TOKENIZE_FOR = {"13a": "13a", "whitespace": "none"}
Rows = list[tuple[Any, float, float]]


# Cached calls into bleu_core: plain-value arguments, picklable results.
@st.cache_data(max_entries=256, show_spinner=False)
def compare_cached(candidate: str, references: tuple[str, ...]) -> Rows:
    return compare_implementations(candidate, list(references))


@st.cache_data(max_entries=256, show_spinner=False)
def traces_cached(candidate: str, references: tuple[str, ...]) -> tuple[ImplementationTrace, ...]:
    return trace_implementations(candidate, list(references))


@st.cache_data(max_entries=256, show_spinner=False)
def mistakes_cached(candidate: str, references: tuple[str, ...]) -> tuple[MistakeCheck, ...]:
    return common_mistakes(candidate, list(references))


@st.cache_data(max_entries=256, show_spinner=False)
def counts_cached(candidate: str, references: tuple[str, ...], tokenize: str) -> Explanation:
    return explain(candidate, list(references), tokenize=tokenize, smooth="none", effective_order=False)


@st.cache_data(max_entries=16, show_spinner=False)
def corpus_cached(hypotheses: tuple[str, ...], streams: tuple[tuple[str, ...], ...]) -> Rows:
    return compare_corpus_implementations(list(hypotheses), [list(s) for s in streams])


@st.cache_data(max_entries=64, show_spinner=False)
def decode_cached(data: bytes, name: str) -> list[str]:
    return reader.decode_lines(data, name)


def defaults() -> None:
    ss = st.session_state
    ss.setdefault(MODE, SENTENCE)
    ss.setdefault(CANDIDATE, iv.EXAMPLE_CANDIDATE)
    ss.setdefault(REFERENCES, "\n".join(iv.EXAMPLE_REFERENCES))
    ss.setdefault(FIRST, "sacrebleu")
    ss.setdefault(SECOND, "nltk")


def restore_example() -> None:
    st.session_state[CANDIDATE] = iv.EXAMPLE_CANDIDATE
    st.session_state[REFERENCES] = "\n".join(iv.EXAMPLE_REFERENCES)


def sentence_input() -> tuple[str, list[str]] | None:
    st.text_input("Candidate (the system output)", key=CANDIDATE)
    st.text_area("References (one per line, any number)", key=REFERENCES, height=90)
    st.button("Restore the example", icon=":material/restart_alt:", on_click=restore_example)
    references = [line for line in st.session_state[REFERENCES].split("\n") if line.strip()]
    if not references:
        st.error("Add at least one reference (one per line) to compare the tools.", icon=":material/error:")
        return None
    return st.session_state[CANDIDATE], references


def corpus_input() -> tuple[list[str], list[list[str]]] | None:
    """Hypothesis and reference files, decoded and checked; errors shown next to the uploaders."""
    left, right = st.columns(2)
    hypothesis = left.file_uploader("Hypothesis", key=HYPOTHESIS_FILE, help="one segment per line")
    references = right.file_uploader(
        "References", key=REFERENCE_FILES, accept_multiple_files=True, help="one file per reference"
    )
    st.caption("Plain text, UTF-8 or UTF-16, one segment per line; up to 50 MB per file.")
    if hypothesis is None or not references:
        st.info("Upload a hypothesis file and at least one reference file.", icon=":material/upload_file:")
        return None
    try:
        hyp_lines = decode_cached(hypothesis.getvalue(), hypothesis.name)
    except reader.InputFileError as error:
        left.error(str(error), icon=":material/error:")
        return None
    streams = []
    for file in references:
        try:
            streams.append((file.name, decode_cached(file.getvalue(), file.name)))
        except reader.InputFileError as error:
            right.error(str(error), icon=":material/error:")
            return None
    if not hyp_lines:
        left.error(f"{hypothesis.name}: no lines (the file is empty)", icon=":material/error:")
        return None
    try:
        reader.check_line_counts((hypothesis.name, hyp_lines), streams)
    except reader.InputFileError as error:
        right.error(str(error), icon=":material/error:")
        return None
    return hyp_lines, [lines for _, lines in streams]


def show_table(rows: Rows, traces: tuple[ImplementationTrace, ...] | None) -> None:
    frame = iv.scores_frame(rows, traces)
    st.table(iv.styled(frame).hide(axis="index"))
    st.caption(
        "Highlighted: a different number from sacreBLEU in [0, 1]. sacreBLEU and HF evaluate tokenize with 13a; "
        "the tools that take token lists (NLTK, MATLAB, torchmetrics) and multi-bleu.perl get whitespace tokens. "
        "Every tool runs with its default settings."
    )
    st.altair_chart(iv.score_chart(rows), width="stretch")


def show_tokens(divergence: Divergence, candidate: str, references: list[str]) -> None:
    traces = {t.tokenizer: t for t in (divergence.first, divergence.second)}
    columns = st.columns(len(traces))
    for column, (tokenizer, trace) in zip(columns, traces.items(), strict=True):
        with column:
            users = [t.implementation.label for t in (divergence.first, divergence.second) if t.tokenizer == tokenizer]
            st.markdown(f"**{tokenizer} tokens** ({iv.md_text(' and '.join(dict.fromkeys(users)))})")
            st.html(views.tokens_html(trace.candidate_tokens, None, "candidate"))
            for k, tokens in enumerate(trace.reference_tokens):
                st.html(views.tokens_html(tokens, None, views.ref_label(k)))
            counts = counts_cached(candidate, tuple(references), TOKENIZE_FOR[tokenizer])
            tabs = st.tabs([f"{o.order}-grams" for o in counts.orders])
            for tab, order in zip(tabs, counts.orders, strict=True):
                with tab:
                    st.dataframe(views.order_table(order, len(counts.references)), hide_index=True, width="stretch")
                    st.markdown(f"clipped matches / candidate {order.order}-grams: **{order.fraction}**")


def show_pair(candidate: str, references: list[str]) -> None:
    st.subheader(":material/call_split: Where two tools part ways")
    keys = list(IMPLEMENTATIONS)
    left, right = st.columns(2)
    label = {key: impl.name for key, impl in IMPLEMENTATIONS.items()}
    left.selectbox("First tool", keys, key=FIRST, format_func=label.__getitem__)
    right.selectbox("Second tool", keys, key=SECOND, format_func=label.__getitem__)
    traces = {t.implementation.key: t for t in traces_cached(candidate, tuple(references))}
    divergence = compare_traces(traces[st.session_state[FIRST]], traces[st.session_state[SECOND]])
    st.info(iv.md_text(divergence.summary), icon=":material/lightbulb:")
    steps = iv.steps_frame(divergence)
    st.table(iv.styled(steps).hide(axis="index"))
    if divergence.differing:
        st.markdown(iv.differences_markdown(divergence))
    st.altair_chart(iv.precision_chart([divergence.first, divergence.second]), width="stretch")
    with st.expander("Tokens and clipped counts", icon=":material/table_view:"):
        show_tokens(divergence, candidate, references)


def show_mistakes(candidate: str, references: list[str]) -> None:
    st.subheader(":material/rule: Common mistakes in BLEU write-ups")
    st.caption("sacreBLEU's sentence BLEU of this input, then the same computation with one step done wrong.")
    checks = mistakes_cached(candidate, tuple(references))
    st.table(iv.styled(iv.mistakes_frame(checks)).hide(axis="index"))
    st.markdown(iv.mistakes_markdown(checks))


def sentence_sections(candidate: str, references: list[str]) -> None:
    show_pair(candidate, references)
    show_mistakes(candidate, references)


st.title("Why BLEU differs between tools")
st.caption(
    "The same text scored as sacreBLEU, NLTK (today's and 3.2's), MATLAB, Hugging Face evaluate, torchmetrics and "
    "multi-bleu.perl would score it, re-implemented exactly; then the step where two of them part ways."
)
defaults()
st.segmented_control("Input", [SENTENCE, CORPUS], key=MODE)
if st.session_state.get(MODE) == CORPUS:
    corpus = corpus_input()
    if corpus is not None:
        hypotheses, streams = corpus
        st.subheader(":material/table_chart: Corpus scores")
        show_table(corpus_cached(tuple(hypotheses), tuple(tuple(s) for s in streams)), None)
        segment = st.number_input("Segment to explain (line number)", 1, len(hypotheses), key=SEGMENT)
        index = int(segment) - 1
        refs = [stream[index] for stream in streams if stream[index].strip()]
        if refs:
            sentence_sections(hypotheses[index], refs)
        else:
            st.warning(f"Line {index + 1} has no non-empty reference; pick another line.", icon=":material/warning:")
else:
    sentence = sentence_input()
    if sentence is not None:
        candidate, references = sentence
        st.subheader(":material/table_chart: Scores")
        show_table(compare_cached(candidate, tuple(references)), traces_cached(candidate, tuple(references)))
        sentence_sections(candidate, references)
