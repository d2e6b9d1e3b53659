"""Compare: several systems on the same test set, with sacreBLEU-identical significance tests."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import streamlit as st

from bleu_core.diagnosis import length_buckets
from bleu_core.examples import DEMO_REFERENCES, DEMO_SOURCE, DEMO_SYSTEMS
from bleu_core.options import BleuOptions
from bleu_core.reader import InputFileError
from pages import cached, charts, compare_views, controls, ensure_app_navigation, verdict, views

ensure_app_navigation()

DEMO, UPLOAD = "Demo systems", "Upload files"


def decode(uploaded: Any, where: Any) -> list[str] | None:
    try:
        return cached.decode_cached(uploaded.getvalue(), uploaded.name)
    except InputFileError as error:
        where.error(views.md_escape(str(error)))
        return None


def read_references(files: list[Any] | None, where: Any) -> list[list[str]]:
    """The decoded reference files, or none when they differ in length (reported in ``where``)."""
    references = [lines for f in files or [] if (lines := decode(f, where)) is not None]
    if references and any(len(r) != len(references[0]) for r in references):
        counts = ", ".join(f"{f.name}: {len(r):,}" for f, r in zip(files or [], references, strict=False))
        where.error(
            views.md_escape(f"The reference files differ in length ({counts} lines); each needs one line per segment.")
        )
        return []
    return references


def read_systems(files: list[Any], references: list[list[str]], where: Any) -> dict[str, list[str]]:
    """Decoded system outputs under editable, unique names; files with the wrong line count are left out."""
    systems: dict[str, list[str]] = {}
    defaults = compare_views.short_names([f.name for f in files])
    with where.expander("System names (editable)"):
        for i, uploaded in enumerate(files):
            name = (
                st.text_input(
                    f"name for {uploaded.name}", value=defaults[i], key=f"cmp_name_{uploaded.file_id}"
                ).strip()
                or f"system {i + 1}"
            )
            lines = decode(uploaded, where)
            if lines is None:
                continue
            if name in systems:
                where.warning(
                    views.md_escape(f"Two systems are named {name!r}; the second is shown as {name} ({i + 1}).")
                )
                name = f"{name} ({i + 1})"
            if references and len(lines) != len(references[0]):
                where.error(
                    views.md_escape(
                        f"{uploaded.name} has {len(lines):,} lines but the references have {len(references[0]):,}; "
                        "it is left out. Each system output needs one line per reference line."
                    )
                )
                continue
            systems[name] = lines
    return systems


def read_source(file: Any, references: list[list[str]], where: Any) -> list[str] | None:
    """The decoded source file, or None when absent, unreadable or of the wrong length (reported in ``where``)."""
    source = decode(file, where) if file else None
    if source is not None and references and len(source) != len(references[0]):
        where.warning(
            views.md_escape(
                f"{file.name} has {len(source):,} lines but the references have {len(references[0]):,}; "
                "the source is not shown."
            )
        )
        return None
    return source


def read_inputs() -> tuple[dict[str, list[str]], list[list[str | None]], list[str] | None]:
    """Systems (name -> lines), reference streams and the optional source; bad files are reported and left out."""
    mode = st.radio("Input", [DEMO, UPLOAD], horizontal=True, key="cmp_mode")
    if mode == DEMO:
        st.caption(
            "Three systems translating eight German sentences into English, written for this app; two references."
        )
        return (
            {name: list(lines) for name, lines in DEMO_SYSTEMS.items()},
            [list(stream) for stream in DEMO_REFERENCES],
            list(DEMO_SOURCE),
        )
    st.caption("Plain text, one segment per line; UTF-8 or UTF-16 (with BOM); up to 50 MB per file.")
    left, middle, right = st.columns(3)
    system_files = left.file_uploader("System outputs", accept_multiple_files=True, key="cmp_systems")
    reference_files = middle.file_uploader("References", accept_multiple_files=True, key="cmp_references")
    source_file = right.file_uploader("Source (optional)", key="cmp_source")
    references = read_references(reference_files, middle)
    systems = read_systems(system_files, references, left) if system_files else {}
    source = read_source(source_file, references, right)
    if not system_files:
        left.info("Upload two or more system outputs.")
    if not reference_files:
        middle.info("Upload one or more reference files.")
    return systems, [list(r) for r in references], source


def progress_bar(label: str) -> tuple[Any, Any]:
    bar = st.progress(0.0, label)
    return bar, lambda done: bar.progress(min(max(float(done), 0.0), 1.0), label)


def show_segments(
    analyses: dict[str, Any],
    systems: dict[str, list[str]],
    references: list[list[str | None]],
    source: list[str] | None,
    settings: BleuOptions,
) -> None:
    names = list(systems)
    cols = st.columns(2)
    a = cols[0].selectbox("System A", names, index=0, key="cmp_a")
    b = cols[1].selectbox("System B", names, index=1 if len(names) > 1 else 0, key="cmp_b")
    frame = compare_views.scatter_frame(analyses, a, b) if a != b else None
    if frame is None:
        st.info("Choose two different systems.")
        return
    wins, ties, losses = compare_views.win_tie_loss(frame)
    st.markdown(
        f"Sentence BLEU, segment by segment: **{views.md_escape(a)}** is better in **{wins}**, tied in **{ties}**, "
        f"worse in **{losses}** of {len(frame):,} segments."
    )
    event = st.altair_chart(
        compare_views.scatter_chart(frame, a, b), width="stretch", on_select="rerun", key="cmp_scatter"
    )
    picked = event.selection.get("picked") if event and event.selection else None
    if picked:
        st.session_state["cmp_segment"] = int(picked[0]["segment"])
    differ = frame.reindex(frame["difference"].abs().sort_values(ascending=False, kind="stable").index).head(10)
    st.markdown("**Segments where they differ most**")
    st.dataframe(
        differ,
        hide_index=True,
        column_config={c: st.column_config.NumberColumn(format="%.2f") for c in (a, b, "difference")},
    )
    if "cmp_segment" not in st.session_state or st.session_state["cmp_segment"] > len(frame):
        st.session_state["cmp_segment"] = int(differ["segment"].iloc[0])
    index = int(st.number_input("Show segment", 1, len(frame), key="cmp_segment")) - 1
    refs = tuple(line for line in (stream[index] for stream in references) if line is not None)
    sentence_settings = replace(settings, effective_order=True)
    if source is not None:
        st.text(f"source: {source[index]}")
    for k, reference in enumerate(refs):
        st.text(f"reference {k + 1}: {reference}")
    order = st.segmented_control(
        "highlight n-grams of order", list(range(1, settings.max_order + 1)), default=1, key="cmp_order"
    )
    left, right = st.columns(2)
    for column, name in ((left, a), (right, b)):
        trace = cached.explain_cached(systems[name][index], refs, sentence_settings)
        breakdown = trace.orders[min(order or 1, len(trace.orders)) - 1]
        column.markdown(f"**{views.md_escape(name)}**: sentence BLEU {trace.score_100:.2f}")
        column.html(views.tokens_html(trace.candidate_tokens, views.candidate_marks(breakdown), "output"))
        column.html(views.ngram_chips_html(breakdown))


def show_characteristic(
    key: str, systems: dict[str, list[str]], references: list[list[str | None]], settings: BleuOptions
) -> None:
    bar, report = progress_bar("Counting matched n-grams per system…") if len(references[0]) > 500 else (None, None)
    contrasts = cached.characteristic_cached(key, systems, references, settings, progress=report)
    if bar is not None:
        bar.empty()
    name = st.selectbox("System", list(systems), key="cmp_char_system")
    more, less = contrasts[name]
    left, right = st.columns(2)
    left.markdown("**Matched more often than the others**")
    left.dataframe(compare_views.contrast_frame(more), hide_index=True, width="stretch")
    right.markdown("**Matched less often than the others**")
    right.dataframe(compare_views.contrast_frame(less), hide_index=True, width="stretch")
    st.caption("Matches are clipped counts summed over segments; 'others' is the mean over the other systems.")


DETAILS = ("Segments", "Precisions and lengths", "Characteristic n-grams")


def show_details(
    analyses: dict[str, Any],
    systems: dict[str, list[str]],
    references: list[list[str | None]],
    source: list[str] | None,
    settings: BleuOptions,
    key: str,
) -> None:
    """One detail view at a time, computed only when chosen."""
    view = st.segmented_control("Details", DETAILS, default=DETAILS[0], key="cmp_details")
    if view == "Segments":
        show_segments(analyses, systems, references, source, settings)
    elif view == "Precisions and lengths":
        left, right = st.columns(2)
        charts.show(left, compare_views.precisions_chart, analyses, width="stretch")
        buckets = {name: length_buckets(a.stats, a.sentence, a.result.options) for name, a in analyses.items()}
        charts.show(right, compare_views.buckets_chart, buckets, width="stretch")
    elif view == "Characteristic n-grams":
        show_characteristic(key, systems, references, settings)


def render(
    systems: dict[str, list[str]],
    references: list[list[str | None]],
    source: list[str] | None,
    settings: BleuOptions,
) -> None:
    key = cached.systems_key(systems, references)
    with st.spinner("Tokenizing and counting n-grams…"):
        analyses = cached.systems_analyses_cached(key, systems, references, settings)
    verdict.render_verdict(key, systems, references, settings, analyses)
    show_details(analyses, systems, references, source, settings, key)


st.title("Compare systems")
st.caption(
    "Several system outputs on the same test set: each system's BLEU difference to a baseline with its "
    "interval, paired significance tests identical to sacreBLEU's --paired-bs / --paired-ar, a ranking with "
    "rank ranges from all pairwise tests, and per-segment views."
)
systems, references, source = read_inputs()
settings = controls.bleu_settings("cmp")
if not references or len(systems) < 2:
    st.info("The comparison appears once two or more system outputs and the references are loaded.")
elif settings is not None:
    render(systems, references, source, settings)
