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
from bleu_core.waterfall import (
    ORDERS,
    Waterfall,
    corpus_waterfall,
    corpus_waterfalls,
    first_differing_segment,
    waterfall,
)
from pages import cached, charts, ensure_app_navigation, views
from pages import implementations_views as iv
from pages import state as S

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
ORDER = "im_order"
LOADED = "im_loaded"
SEGMENT_FOR = "im_segment_for"
MODE_NAMES = {SENTENCE: "sentence", CORPUS: "corpus"}
ORDER_LABELS = {"pipeline": "data flow: tokens first", "rules-first": "scoring rules first, tokens last"}
TOKENIZE_FOR = {"13a": "13a", "whitespace": "none", "space": "none"}
Streams = tuple[tuple[str, ...], ...]
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


@st.cache_data(max_entries=256, show_spinner=False)
def waterfall_cached(first: str, second: str, candidate: str, references: tuple[str, ...], order: str) -> Waterfall:
    return waterfall(first, second, candidate, list(references), ORDERS[order])


@st.cache_data(max_entries=64, show_spinner=False)
def corpus_waterfall_cached(
    first: str, second: str, hypotheses: tuple[str, ...], streams: Streams, order: str
) -> Waterfall:
    return corpus_waterfall(first, second, list(hypotheses), [list(s) for s in streams], ORDERS[order])


@st.cache_data(max_entries=16, show_spinner=False)
def table_waterfalls_cached(hypotheses: tuple[str, ...], streams: Streams, order: str) -> dict[str, Waterfall]:
    """sacreBLEU to every tool on a corpus, for the scores table's attribution."""
    return corpus_waterfalls(
        "sacrebleu", list(IMPLEMENTATIONS), list(hypotheses), [list(s) for s in streams], ORDERS[order]
    )


@st.cache_data(max_entries=16, show_spinner=False)
def first_differing_cached(first: str, second: str, hypotheses: tuple[str, ...], streams: Streams) -> int:
    return first_differing_segment(first, second, list(hypotheses), [list(s) for s in streams])


@st.cache_data(max_entries=64, show_spinner=False)
def decode_cached(data: bytes, name: str) -> list[str]:
    return reader.decode_lines(data, name)


def defaults() -> list[str]:
    """Session defaults; on a session's first run the link's values win.  Returns the link's problems."""
    ss = st.session_state
    problems: list[str] = []
    if not ss.get(LOADED):
        params = {key: st.query_params.get_all(key) for key in st.query_params}
        values, problems = S.parse_implementations_query(params, list(IMPLEMENTATIONS), list(ORDERS))
        modes = {name: label for label, name in MODE_NAMES.items()}
        if "mode" in values:
            ss[MODE] = modes[values["mode"]]
        for key, name in ((CANDIDATE, "candidate"), (FIRST, "first"), (SECOND, "second"), (ORDER, "order")):
            if name in values:
                ss[key] = values[name]
        if values.get("references"):
            ss[REFERENCES] = "\n".join(values["references"])
        ss[LOADED] = True
    ss.setdefault(MODE, SENTENCE)
    ss.setdefault(CANDIDATE, iv.EXAMPLE_CANDIDATE)
    ss.setdefault(REFERENCES, "\n".join(iv.EXAMPLE_REFERENCES))
    ss.setdefault(FIRST, "sacrebleu")
    ss.setdefault(SECOND, "nltk")
    ss.setdefault(ORDER, "pipeline")
    return problems


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


def show_table(rows: Rows, waterfalls: dict[str, Waterfall], corpus: bool) -> None:
    frame = iv.scores_frame(rows, waterfalls, corpus)
    st.table(iv.styled(frame).hide(axis="index"))
    st.caption(
        "Highlighted: a different number from sacreBLEU in [0, 1]. 'Differs at' names the settings that move the "
        "number on this input (the waterfall from sacreBLEU to the tool). sacreBLEU and HF evaluate tokenize with "
        "13a; NLTK, MATLAB, torchmetrics and multi-bleu.perl get whitespace tokens, d2l split(' ') tokens. "
        "Every tool runs with its default settings."
    )
    charts.show(st, iv.score_chart, rows, width="stretch")


def pair_selectors(corpus: bool) -> tuple[str, str]:
    """The two tools compared below; rendered on every run so the choice survives switching modes."""
    keys = list(IMPLEMENTATIONS)
    label = {key: impl.name_for(corpus) for key, impl in IMPLEMENTATIONS.items()}
    left, right = st.columns(2)
    first = left.selectbox("First tool (A)", keys, key=FIRST, format_func=label.__getitem__)
    second = right.selectbox("Second tool (B)", keys, key=SECOND, format_func=label.__getitem__)
    return str(first), str(second)


def show_waterfall(result: Waterfall, what: str) -> None:
    a, b = IMPLEMENTATIONS[result.first].label, IMPLEMENTATIONS[result.second].label
    st.subheader(f":material/waterfall_chart: {a} → {b}: the gap one setting at a time ({what})")
    if result.reason:
        st.warning(iv.md_text(result.reason), icon=":material/warning:")
        return
    st.info(iv.md_text(result.summary), icon=":material/lightbulb:")
    st.table(iv.styled(iv.waterfall_frame(result)).hide(axis="index"))
    charts.show(st, iv.waterfall_chart, result, width="stretch")
    st.caption(
        f"Each row switches one of {a}'s settings to {b}'s and rescores with the same scorer; the changes add up "
        f"to {b} minus {a} ({result.gap:+.4g} in [0, 1]). A row with change 0 is a setting that differs but does "
        "not matter for this input. Scores are in [0, 1]; the scale row changes only how the tool prints its number. "
        "The steps depend on the order chosen; the total does not."
    )


def show_pair(first: str, second: str, candidate: str, references: list[str], order: str) -> None:
    traces = {t.implementation.key: t for t in traces_cached(candidate, tuple(references))}
    show_waterfall(waterfall_cached(first, second, candidate, tuple(references), order), "this sentence")
    st.markdown("**Every field each tool reports**")
    st.dataframe(iv.fields_frame([traces[first], traces[second]]), hide_index=True, width="stretch")
    st.subheader(":material/call_split: Where the two tools part ways")
    divergence = compare_traces(traces[first], traces[second])
    st.info(iv.md_text(divergence.summary), icon=":material/lightbulb:")
    st.table(iv.styled(iv.steps_frame(divergence)).hide(axis="index"))
    if divergence.differing:
        st.markdown(iv.differences_markdown(divergence))
    charts.show(st, iv.precision_chart, [divergence.first, divergence.second], width="stretch")
    with st.expander("Tokens and clipped counts", icon=":material/table_view:"):
        show_tokens(divergence, candidate, references)


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


def show_mistakes(candidate: str, references: list[str]) -> None:
    st.subheader(":material/rule: Common mistakes in BLEU write-ups")
    st.caption("sacreBLEU's sentence BLEU of this input, then the same computation with one step done wrong.")
    checks = mistakes_cached(candidate, tuple(references))
    st.table(iv.styled(iv.mistakes_frame(checks)).hide(axis="index"))
    st.markdown(iv.mistakes_markdown(checks))


def sentence_mode(first: str, second: str, order: str) -> tuple[str, list[str]]:
    sentence = sentence_input()
    if sentence is None:
        return st.session_state[CANDIDATE], []
    candidate, references = sentence
    st.subheader(":material/table_chart: Scores")
    waterfalls = {
        key: waterfall_cached("sacrebleu", key, candidate, tuple(references), order) for key in IMPLEMENTATIONS
    }
    show_table(compare_cached(candidate, tuple(references)), waterfalls, corpus=False)
    show_pair(first, second, candidate, references, order)
    show_mistakes(candidate, references)
    return candidate, references


def corpus_mode(first: str, second: str, order: str) -> None:
    corpus = corpus_input()
    if corpus is None:
        return
    hyps, streams = tuple(corpus[0]), tuple(tuple(s) for s in corpus[1])
    st.subheader(":material/table_chart: Corpus scores")
    waterfalls = table_waterfalls_cached(hyps, streams, order)
    show_table(corpus_cached(hyps, streams), waterfalls, corpus=True)
    st.caption("MATLAB, NLTK 3.2 and d2l score single sentences: their waterfall rows use the mean of sentence scores.")
    show_waterfall(corpus_waterfall_cached(first, second, hyps, streams, order), "the whole corpus")
    # Open on the first segment where the two tools give different numbers (again when the files or pair change).
    marker = (cached.corpus_key(hyps, streams), first, second)
    if st.session_state.get(SEGMENT_FOR) != marker:
        st.session_state[SEGMENT_FOR] = marker
        st.session_state[SEGMENT] = first_differing_cached(first, second, hyps, streams) + 1
    segment = st.number_input("Segment to explain (line number)", 1, len(hyps), key=SEGMENT)
    index = int(segment) - 1
    refs = [stream[index] for stream in streams if stream[index].strip()]
    if refs:
        show_pair(first, second, hyps[index], refs, order)
        show_mistakes(hyps[index], refs)
    else:
        st.warning(f"Line {index + 1} has no non-empty reference; pick another line.", icon=":material/warning:")


def sync_query(mode: str, first: str, second: str, order: str, candidate: str, references: list[str]) -> None:
    wanted = S.build_implementations_query(mode, first, second, order, candidate, references)
    current = {key: st.query_params.get_all(key) for key in st.query_params}
    if {k: v if isinstance(v, list) else [v] for k, v in wanted.items()} != current:
        st.query_params.from_dict(wanted)


st.title("Why BLEU differs between tools")
st.caption(
    "The same text scored as sacreBLEU, NLTK (today's and 3.2's), MATLAB, Hugging Face evaluate, torchmetrics, "
    "multi-bleu.perl and the d2l textbook would score it, re-implemented exactly; then the gap between two of them "
    "as a waterfall of single settings, and the step where they part ways."
)
for problem in defaults():
    st.warning(f"Link parameter ignored: {problem}", icon=":material/warning:")
st.segmented_control("Input", [SENTENCE, CORPUS], key=MODE)
mode = st.session_state.get(MODE) or SENTENCE
pair = pair_selectors(mode == CORPUS)
chosen_order = st.selectbox(
    "Order of the steps",
    list(ORDERS),
    key=ORDER,
    format_func=ORDER_LABELS.__getitem__,
    help="Data flow (default): tokenizer, case, references used, reference length rule, brevity penalty form, "
    "denominators, smoothing, orders without n-grams, zero precisions, weights, corpus or sentences, scale; each "
    "row is A with B's first stages. Rules first: the reverse. The steps depend on the order, the total does not.",
)
if mode == CORPUS:
    corpus_mode(*pair, str(chosen_order))
    sync_query("corpus", *pair, str(chosen_order), "", [])
else:
    text, refs = sentence_mode(*pair, str(chosen_order))
    sync_query("sentence", *pair, str(chosen_order), text, refs)
