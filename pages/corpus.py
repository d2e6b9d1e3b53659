"""Corpus: one system's output against its references — why is the score what it is?"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import streamlit as st

from bleu_core.diagnosis import CorpusAnalysis, length_buckets
from bleu_core.examples import DEMO_REFERENCES, DEMO_SYSTEMS
from bleu_core.options import BleuOptions
from bleu_core.reader import InputFileError
from pages import cached, charts, controls, corpus_views, ensure_app_navigation, views, walkthrough

ensure_app_navigation()

DEMO, UPLOAD, PASTE = "Demo corpus", "Upload files", "Paste text"
LEVELS = {"error": st.error, "warning": st.warning, "info": st.info}
Named = tuple[str, list[str]]
#: Rows listed in the segment table (the downloads hold every segment).
TABLE_ROWS = 5_000
#: Above this many segments the n-gram lists are counted only on request.
LAZY_SEGMENTS = 20_000


def read_file(uploaded: Any, where: Any) -> Named | None:
    try:
        return uploaded.name, cached.decode_cached(uploaded.getvalue(), uploaded.name)
    except InputFileError as error:
        where.error(views.md_escape(str(error)))
        return None


def read_inputs() -> tuple[Named | None, list[Named]]:
    """The hypothesis and reference files from the chosen input mode; problems are shown where they arise."""
    mode = st.radio("Input", [DEMO, UPLOAD, PASTE], horizontal=True, key="co_mode")
    if mode == DEMO:
        name = st.selectbox(
            "Demo system (German→English, eight sentences written for this app, two references)",
            list(DEMO_SYSTEMS),
            index=1,
            key="co_demo",
        )
        return (f"{name}.txt", list(DEMO_SYSTEMS[name])), [
            (f"reference-{k + 1}.txt", list(stream)) for k, stream in enumerate(DEMO_REFERENCES)
        ]
    if mode == UPLOAD:
        st.caption("Plain text, one segment per line; UTF-8 or UTF-16 (with BOM); up to 50 MB per file.")
        left, right = st.columns(2)
        hyp_file = left.file_uploader("Hypothesis", key="co_hyp_file", help="the system output")
        ref_files = right.file_uploader(
            "References", accept_multiple_files=True, key="co_ref_files", help="one file per reference translation"
        )
        hypothesis = read_file(hyp_file, left) if hyp_file else None
        references = [named for f in ref_files or [] if (named := read_file(f, right)) is not None]
        if hyp_file is None:
            left.info("Upload the hypothesis (system output) file.")
        if not ref_files:
            right.info("Upload one or more reference files.")
        return hypothesis, references
    hyp_text = st.text_area(
        "Hypothesis (one segment per line)", value="\n".join(DEMO_SYSTEMS["literal"]), key="co_paste_hyp", height=150
    )
    count = int(st.number_input("Number of references", 1, 4, value=1, key="co_paste_n"))
    columns = st.columns(count)
    references = []
    for k, column in enumerate(columns):
        text = column.text_area(
            f"Reference {k + 1} (line i translates hypothesis line i)",
            value="\n".join(DEMO_REFERENCES[k]) if k < len(DEMO_REFERENCES) else "",
            key=f"co_paste_ref{k}",
            height=150,
        )
        named = paste_lines(text, f"reference {k + 1}", column)
        if named is not None:
            references.append(named)
    return paste_lines(hyp_text, "hypothesis", st), references


def paste_lines(text: str, name: str, where: Any) -> Named | None:
    try:
        return name, cached.decode_cached(text.encode("utf-8", "surrogatepass"), name)
    except InputFileError as error:
        where.error(views.md_escape(str(error)))
        return None


def show_findings(names: tuple[str, ...], hyps: list[str], refs: list[list[str]], tokenize: str) -> bool:
    """The input linter's findings; True when the corpus can be scored."""
    findings = cached.lint_cached(cached.corpus_key(hyps, refs), names, hyps, refs, tokenize)
    notes = [f for f in findings if f.level == "info"]
    for finding in findings:
        if finding.level != "info":
            LEVELS[finding.level](views.md_escape(finding.message))
    if notes:
        with st.expander(f"{len(notes)} note{'s' if len(notes) > 1 else ''} on the input"):
            for finding in notes:
                st.info(views.md_escape(finding.message))
    return not any(f.level == "error" for f in findings)


def on_table_select() -> None:
    ss = st.session_state
    rows = ss["co_table"]["selection"]["rows"]
    ids = ss.get("co_table_ids", [])
    if rows and rows[0] < len(ids):
        ss["co_segment"] = int(ids[rows[0]])


def show_score(analysis: CorpusAnalysis) -> None:
    result = analysis.result
    cols = st.columns([1, 1, 1, 1.5])
    cols[0].metric("BLEU ×100", f"{result.score_100:.2f}")
    cols[1].metric("BLEU (0–1)", f"{result.score:.4f}")
    cols[2].metric("brevity penalty", f"{result.bp:.4f}")
    cols[3].metric("c / r", f"{result.sys_len:,} / {result.ref_len:,}", f"ratio {result.ratio:.3f}", delta_color="off")
    st.code(f"{result.signature}\n{result.format()}", language=None)

    left, right = st.columns(2)
    charts.show(left, corpus_views.corpus_precision_chart, result, width="stretch")
    charts.show(right, corpus_views.terms_chart, analysis, width="stretch")
    st.latex(corpus_views.bp_latex(result.sys_len, result.ref_len, result.bp))

    st.subheader("Why this score")
    st.markdown("\n".join(f"- {line}" for line in analysis.diagnosis()))
    st.dataframe(
        corpus_views.terms_frame(analysis),
        hide_index=True,
        column_config={
            "value": st.column_config.NumberColumn("value", format="%.4f"),
            "BLEU if perfect": st.column_config.NumberColumn(format="%.2f", help="BLEU with this term at 0"),
            "points lost": st.column_config.NumberColumn(format="%.2f"),
        },
    )
    if analysis.short_segments:
        with st.expander(f"The {min(10, analysis.n_short)} segments that cost the most length"):
            st.dataframe(
                {
                    "segment": [s.index + 1 for s in analysis.short_segments[:10]],
                    "hyp len": [s.hyp_len for s in analysis.short_segments[:10]],
                    "ref len": [s.ref_len for s in analysis.short_segments[:10]],
                    "missing tokens": [s.shortfall for s in analysis.short_segments[:10]],
                    "corpus BP if this one were long enough": [
                        f"{s.bp_if_fixed:.4f}" for s in analysis.short_segments[:10]
                    ],
                },
                hide_index=True,
            )


def show_segments(
    analysis: CorpusAnalysis,
    frame: Any,
    hyps: list[str],
    refs: list[list[str | None]],
    settings: BleuOptions,
) -> None:
    top_len = max(int(frame["ref len"].max()), 1)
    cols = st.columns([2, 2, 2, 1])
    score_range = cols[0].slider("sentence BLEU between", 0.0, 100.0, (0.0, 100.0), step=1.0, key="co_score_range")
    length_range = cols[1].slider("reference length between", 0, top_len, (0, top_len), key="co_length_range")
    sort = cols[2].selectbox("sort by", list(corpus_views.SORTS), key="co_sort")
    ascending = cols[3].toggle("ascending", value=True, key="co_ascending")
    shown = corpus_views.filter_segments(frame, score_range, length_range, sort, ascending)
    st.session_state["co_table_ids"] = shown["segment"].tolist()[:TABLE_ROWS]
    more = f" (the first {TABLE_ROWS:,} are listed; the downloads hold all)" if len(shown) > TABLE_ROWS else ""
    st.caption(
        f"{len(shown):,} of {len(frame):,} segments{more}. Sentence BLEU uses the settings on the left with effective "
        "order (as sacreBLEU's sentence_score). Leave-one-out Δ: corpus BLEU minus corpus BLEU without the segment "
        "(positive: the segment helps). Select a row to walk through it."
    )
    st.dataframe(
        shown.head(TABLE_ROWS),
        hide_index=True,
        key="co_table",
        on_select=on_table_select,
        selection_mode="single-row",
        height=min(420, 38 + 35 * min(len(shown), TABLE_ROWS)),
        column_config={
            "sentence BLEU": st.column_config.NumberColumn(format="%.2f"),
            "c/r": st.column_config.NumberColumn(format="%.3f"),
            **{
                f"p{n}": st.column_config.NumberColumn(
                    format="%.3f",
                    help=f"{n}-gram precision of the segment; None when the hypothesis is shorter than {n} tokens",
                )
                for n in range(1, 5)
            },
            "leave-one-out Δ": st.column_config.NumberColumn(format="%+.3f"),
        },
    )
    if "co_segment" not in st.session_state or st.session_state["co_segment"] > len(frame):
        st.session_state["co_segment"] = int(shown["segment"].iloc[0]) if len(shown) else 1
    index = int(st.number_input("Walk through segment", 1, len(frame), key="co_segment")) - 1
    candidate = hyps[index]
    references = tuple(line for line in (stream[index] for stream in refs) if line is not None)
    trace = cached.explain_cached(candidate, references, replace(settings, effective_order=True))
    st.markdown(
        f"**Segment {index + 1}:** sentence BLEU **{trace.score_100:.2f}** "
        f"(leave-one-out Δ {100 * analysis.leave_one_out[index]:+.3f})"
    )
    st.text(f"hypothesis: {candidate}")
    for k, reference in enumerate(references):
        st.text(f"reference {k + 1}: {reference}")
    with st.container(border=True):
        walkthrough.render(trace, "co_highlight")


def show_ngrams(key: str, hyps: list[str], refs: list[list[str | None]], options: BleuOptions) -> None:
    if len(hyps) > LAZY_SEGMENTS and not st.toggle(
        f"Count the n-grams of all {len(hyps):,} segments (takes a while on a corpus this large)", key="co_count_ngrams"
    ):
        return
    bar = st.progress(0.0, "Counting n-grams…") if len(hyps) > 2000 else None
    tallies = cached.ngram_tallies_cached(
        key,
        hyps,
        refs,
        options,
        progress=(lambda done: bar.progress(done, "Counting n-grams…")) if bar is not None else None,
    )
    if bar is not None:
        bar.empty()
    order = st.segmented_control("order", list(range(1, options.max_order + 1)), default=1, key="co_tally_order")
    n = (order or 1) - 1
    left, right = st.columns(2)
    left.markdown("**Most missed** — in a reference, not produced")
    left.dataframe(corpus_views.tally_frame(tallies.missed[n], "missed"), hide_index=True, width="stretch")
    right.markdown("**Most over-generated** — produced, clipped away")
    right.dataframe(
        corpus_views.tally_frame(tallies.overgenerated[n], "clipped away"), hide_index=True, width="stretch"
    )
    st.caption(
        "Missed: per segment, the largest count in any one reference minus the hypothesis count, summed. "
        "Clipped away: hypothesis count minus clipped count (includes n-grams in no reference)."
    )


def show_lengths(analysis: CorpusAnalysis, frame: Any) -> None:
    buckets = length_buckets(analysis.stats, analysis.sentence, analysis.result.options)
    left, right = st.columns(2)
    charts.show(left, corpus_views.ratio_histogram, frame, width="stretch")
    charts.show(right, corpus_views.bucket_chart, buckets, width="stretch")
    st.dataframe(corpus_views.bucket_frame(buckets), hide_index=True)


st.title("Corpus BLEU: why is the score what it is?")
st.caption(
    "One system's output against its references: the score, the term that costs the most, every segment, "
    "the n-grams it misses, and where length hurts."
)
hypothesis, references = read_inputs()
settings = controls.bleu_settings("co")
if hypothesis is None or not references:
    st.info("Scores appear once a hypothesis and at least one reference are loaded.")
elif settings is not None:
    names = (hypothesis[0], *(name for name, _ in references))
    hyps = hypothesis[1]
    refs = [lines for _, lines in references]
    if show_findings(names, hyps, refs, settings.tokenize):
        streams: list[list[str | None]] = [list(lines) for lines in refs]
        key = cached.corpus_key(hyps, streams)
        with st.spinner("Tokenizing and counting n-grams…"):
            analysis = cached.corpus_analysis_cached(key, hyps, streams, settings)
        show_score(analysis)
        frame = corpus_views.segment_frame(analysis, hyps, streams)
        segments_tab, ngrams_tab, lengths_tab = st.tabs(["Segments", "N-grams", "Lengths"])
        with segments_tab:
            show_segments(analysis, frame, hyps, streams, settings)
        with ngrams_tab:
            show_ngrams(key, hyps, streams, settings)
        with lengths_tab:
            show_lengths(analysis, frame)
        cols = st.columns(2)
        controls.download_button(
            cols[0],
            "Download segments (CSV)",
            lambda: corpus_views.segments_csv(frame),
            "bleu-segments.csv",
            "text/csv",
        )
        controls.download_button(
            cols[1],
            "Download segments (JSON)",
            lambda: corpus_views.segments_json(analysis, hyps),
            "bleu-segments.json",
            "application/json",
        )
