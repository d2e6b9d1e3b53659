"""Compare: several systems on the same test set, with sacreBLEU-identical significance tests."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import streamlit as st

from bleu_core.compare.metrics import Metric, metric
from bleu_core.corpus.diagnosis import length_buckets
from bleu_core.i18n import text
from bleu_core.limits import LIMITS
from bleu_core.options import BleuOptions
from bleu_core.teach.examples import DEMO_REFERENCES, DEMO_SOURCE, DEMO_SYSTEMS
from bleu_core.text.reader import InputFileError
from pages.compare_page import by_label, metric_verdict, metric_views, verdict
from pages.compare_page import views as compare_views
from pages.shared import cached, charts, controls, share, views
from pages.shared import state as S
from pages.shared.i18n import error_text, finding_message, language, t
from pages.shared.streamlit_private import ensure_app_navigation

DEMO, UPLOAD = "demo", "upload"


def decode(uploaded: Any, where: Any) -> list[str] | None:
    try:
        return cached.decode_cached(uploaded.getvalue(), uploaded.name)
    except InputFileError as error:
        where.error(views.md_escape(error_text(error)))
        return None


def read_references(files: list[Any] | None, where: Any) -> list[list[str]]:
    """The decoded reference files, or none when they differ in length (reported in ``where``)."""
    references = [lines for f in files or [] if (lines := decode(f, where)) is not None]
    if references and any(len(r) != len(references[0]) for r in references):
        counts = ", ".join(f"{f.name}: {len(r):,}" for f, r in zip(files or [], references, strict=False))
        where.error(views.md_escape(t("compare.references_differ", counts=counts)))
        return []
    return references


def read_systems(files: list[Any], references: list[list[str]], where: Any) -> dict[str, list[str]]:
    """Decoded system outputs under editable, unique names; files with the wrong line count are left out."""
    systems: dict[str, list[str]] = {}
    defaults = compare_views.short_names([f.name for f in files])
    with where.expander(t("compare.system_names")):
        for i, uploaded in enumerate(files):
            name = st.text_input(
                t("compare.name_for", file=views.md_escape(uploaded.name)),
                value=defaults[i],
                key=f"cmp_name_{uploaded.file_id}",
            ).strip() or t("compare.system_default", number=i + 1)
            lines = decode(uploaded, where)
            if lines is None:
                continue
            if name in systems:
                where.warning(views.md_escape(t("compare.duplicate_name", name=name, number=i + 1)))
                name = f"{name} ({i + 1})"
            if references and len(lines) != len(references[0]):
                where.error(
                    views.md_escape(
                        t("compare.system_length", file=uploaded.name, lines=len(lines), expected=len(references[0]))
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
            views.md_escape(t("compare.source_length", file=file.name, lines=len(source), expected=len(references[0])))
        )
        return None
    return source


#: Compare's uploads, kept for the session: (systems, references, source, file names).  Uploaders are emptied
#: by a page change, so the page reads this store when it comes back.
KEPT_UPLOADS = S.KEPT + "cmp_uploads"
_GENERATION = S.KEPT + "cmp_upload_generation"


def _clear_uploads() -> None:
    ss = st.session_state
    ss.pop(KEPT_UPLOADS, None)
    ss[_GENERATION] = ss.get(_GENERATION, 0) + 1


def read_inputs() -> tuple[dict[str, list[str]], list[list[str | None]], list[str] | None]:
    """Systems (name -> lines), reference streams and the optional source; bad files are reported and left out."""
    ss = st.session_state
    S.restore(ss, "cmp_mode", DEMO)
    mode = st.radio(
        t("compare.input"),
        [DEMO, UPLOAD],
        format_func=verdict.option_labels("compare.mode_"),
        horizontal=True,
        key="cmp_mode",
    )
    S.keep(ss, "cmp_mode")
    if mode == DEMO:
        st.caption(t("compare.demo_caption"))
        return (
            {name: list(lines) for name, lines in DEMO_SYSTEMS.items()},
            [list(stream) for stream in DEMO_REFERENCES],
            list(DEMO_SOURCE),
        )
    st.caption(t("compare.upload_caption"))
    generation = ss.get(_GENERATION, 0)
    keys = [
        base if not generation else f"{base}_{generation}" for base in ("cmp_systems", "cmp_references", "cmp_source")
    ]
    # Empty uploaders over kept uploads (after a page change or a language switch) use the kept ones; an
    # uploader the user emptied drops them.
    alive = [key in ss for key in keys]
    left, middle, right = st.columns(3)
    system_files = left.file_uploader(t("compare.system_files"), accept_multiple_files=True, key=keys[0])
    reference_files = middle.file_uploader(t("compare.reference_files"), accept_multiple_files=True, key=keys[1])
    source_file = right.file_uploader(t("compare.source_file"), key=keys[2])
    widgets = (system_files, reference_files, source_file)
    if any([S.uploader_emptied(ss, key, live, bool(w)) for key, live, w in zip(keys, alive, widgets, strict=True)]):
        ss.pop(KEPT_UPLOADS, None)
    kept = ss.get(KEPT_UPLOADS)
    if kept and not any(widgets):
        systems, references, source, names = kept
        st.caption(t("corpus.kept_files", names=", ".join(views.md_escape(name) for name in names)))
        st.button(t("corpus.clear_files"), key="cmp_clear_files", on_click=_clear_uploads)
        return systems, references, source
    references = read_references(reference_files, middle)
    systems = read_systems(system_files, references, left) if system_files else {}
    source = read_source(source_file, references, right)
    if not system_files:
        left.info(t("compare.upload_systems"))
    if not reference_files:
        middle.info(t("compare.upload_references"))
    streams: list[list[str | None]] = [list(r) for r in references]
    if systems and references:
        names = [
            f.name for f in [*(system_files or []), *(reference_files or []), *([source_file] if source_file else [])]
        ]
        ss[KEPT_UPLOADS] = (systems, streams, source, names)
        ss[S.SYSTEMS] = dict(systems)  # the Corpus page's diagnosis judges its system against these
    return systems, streams, source


def progress_bar(label: str) -> tuple[Any, Any]:
    bar = st.progress(0.0, label)
    return bar, lambda done: bar.progress(min(max(float(done), 0.0), 1.0), label)


def _pairwise_segment(key: str, a: str, b: str, differ: Any, picked: list[Any] | None) -> None:
    """Choose the segment shown before its input is drawn: a new pair (or new systems, ``key``) opens on the
    segment where the two differ most, the first row of the new list; a point clicked in the scatter opens its
    segment once (the chart keeps its selection over reruns, so an old click must not undo a typed number)."""
    ss = st.session_state
    clicked = int(picked[0]["segment"]) if picked else None
    if ss.get(S.COMPARE_PAIR) != (key, a, b):
        ss[S.COMPARE_PAIR] = (key, a, b)
        ss[S.COMPARE_PICKED] = clicked  # a click on the last pair's chart is not a choice in this one
        ss[S.COMPARE_SEGMENT] = int(differ["segment"].iloc[0])
    elif clicked is not None and clicked != ss.get(S.COMPARE_PICKED):
        ss[S.COMPARE_PICKED] = clicked
        ss[S.COMPARE_SEGMENT] = clicked
    S.restore(ss, S.COMPARE_SEGMENT, int(differ["segment"].iloc[0]))  # after a visit to another page


def segment_scores(
    data: cached.Systems, analyses: dict[str, Any], settings: BleuOptions, choice: str
) -> tuple[Metric, dict[str, Any]]:
    """The metric the segment view scores in and every system's score (0-100) of each segment: the metric chosen
    above (``choice``) when it is chrF, chrF++ or TER and the test set is within its limits, else BLEU."""
    bleu = metric("bleu", settings)
    if choice not in ("chrf", "chrf++", "ter"):
        return bleu, {name: 100 * analysis.sentence for name, analysis in analyses.items()}
    chosen = metric(choice, settings, len(data.references))
    if choice in cached.refusals_cached(data, LIMITS):
        st.caption(t("compare.segment_metric_fallback", metric=chosen.name))
        return bleu, {name: 100 * analysis.sentence for name, analysis in analyses.items()}
    return chosen, cached.segment_scores_cached(data, choice, settings.lowercase)


def show_segments(analyses: dict[str, Any], data: cached.Systems, settings: BleuOptions, choice: str) -> None:
    names = list(data.outputs)
    cols = st.columns(2)
    a = cols[0].selectbox(t("compare.system_a"), names, index=0, key="cmp_a")
    b = cols[1].selectbox(t("compare.system_b"), names, index=1 if len(names) > 1 else 0, key="cmp_b")
    if a == b:
        st.info(t("compare.choose_two"))
        return
    scored_in, scores = segment_scores(data, analyses, settings, choice)
    lower = not scored_in.higher_is_better
    frame = compare_views.scatter_frame(scores, a, b)
    wins, ties, losses = compare_views.win_tie_loss(frame, lower)
    st.markdown(
        t(
            "compare.win_tie_loss",
            metric=scored_in.name,
            lower=t("compare.lower_better") if lower else "",
            name=views.md_escape(a),
            wins=wins,
            ties=ties,
            losses=losses,
            segments=len(frame),
        )
    )
    chart = compare_views.scatter_chart(frame, a, b, language(), scored_in.name, lower)
    event = st.altair_chart(chart, width="stretch", on_select="rerun", key="cmp_scatter")
    picked = event.selection.get("picked") if event and event.selection else None
    differ = frame.reindex(frame["difference"].abs().sort_values(ascending=False, kind="stable").index).head(10)
    st.markdown(t("compare.differ_most"))
    st.dataframe(
        differ,
        hide_index=True,
        column_config={
            "segment": st.column_config.NumberColumn(t("compare.col_segment")),
            "first": st.column_config.NumberColumn(a, format="%.2f"),
            "second": st.column_config.NumberColumn(b, format="%.2f"),
            "difference": st.column_config.NumberColumn(t("compare.col_difference"), format="%.2f"),
        },
    )
    # another metric or other settings (a tokenizer): another list, whose first segment opens
    _pairwise_segment(f"{data.key}:{scored_in.name}:{hash(settings)}", a, b, differ, picked)
    index = int(st.number_input(t("compare.show_segment"), 1, len(frame), key=S.COMPARE_SEGMENT)) - 1
    S.keep(st.session_state, S.COMPARE_SEGMENT)
    refs = tuple(line for line in (stream[index] for stream in data.references) if line is not None)
    sentence_settings = replace(settings, effective_order=True)
    if data.source is not None:
        st.text(t("compare.source_line", text=views.shown_text(data.source[index], language())))
    for k, reference in enumerate(refs):
        st.text(t("compare.reference_line", number=k + 1, text=views.shown_text(reference, language())))
    order = st.segmented_control(
        t("compare.highlight_order"), list(range(1, settings.max_order + 1)), default=1, key="cmp_order"
    )
    left, right = st.columns(2)
    for column, name in ((left, a), (right, b)):
        trace = cached.explain_cached(data.outputs[name][index], refs, sentence_settings)
        breakdown = trace.orders[min(order or 1, len(trace.orders)) - 1]
        bleu = f"{trace.score_100:.2f}"
        if scored_in.name == "BLEU":
            column.markdown(t("compare.sentence_bleu", name=views.md_escape(name), score=bleu))
        else:  # the score the list above shows, then the BLEU the highlighting explains
            chosen = f"{float(scores[name][index]):.2f}"
            column.markdown(
                t("compare.segment_scores", name=views.md_escape(name), metric=scored_in.name, score=chosen, bleu=bleu)
            )
        column.html(
            views.tokens_html(trace.candidate_tokens, views.candidate_marks(breakdown), t("compare.output_tokens"))
        )
        column.html(views.ngram_chips_html(breakdown))


def show_characteristic(data: cached.Systems, settings: BleuOptions) -> None:
    bar, report = progress_bar(t("compare.counting_matches")) if data.segments > 500 else (None, None)
    contrasts = cached.characteristic_cached(data, settings, progress=report)
    if bar is not None:
        bar.empty()
    name = st.selectbox(t("compare.system"), list(data.outputs), key="cmp_char_system")
    more, less = contrasts[name]
    left, right = st.columns(2)
    left.markdown(t("compare.matched_more"))
    left.dataframe(compare_views.contrast_frame(more, language()), hide_index=True, width="stretch")
    right.markdown(t("compare.matched_less"))
    right.dataframe(compare_views.contrast_frame(less, language()), hide_index=True, width="stretch")
    st.caption(t("compare.contrast_caption"))


def _detail_label() -> Any:
    """The detail views' names; "By label" is the scores-by-label section's message."""
    named, labels = verdict.option_labels("compare.details_"), text("slices.compare.details", language())
    return lambda option: labels if option == "labels" else named(option)


DETAILS = ("segments", "precisions", "characteristic", "labels")


def show_details(analyses: dict[str, Any], data: cached.Systems, settings: BleuOptions, choice: str) -> None:
    """One detail view at a time, computed only when chosen (the segments in the metric ``choice`` above)."""
    view = st.segmented_control(
        t("compare.details"),
        DETAILS,
        format_func=_detail_label(),
        default=DETAILS[0],
        key="cmp_details",
    )
    if view == "segments":
        show_segments(analyses, data, settings, choice)
    elif view == "precisions":
        left, right = st.columns(2)
        charts.show(left, compare_views.precisions_chart, analyses, language(), width="stretch")
        buckets = {name: length_buckets(a.stats, a.sentence, a.result.options) for name, a in analyses.items()}
        charts.show(right, compare_views.buckets_chart, buckets, language(), width="stretch")
    elif view == "characteristic":
        show_characteristic(data, settings)
    elif view == "labels":
        with_ter = "ter" in metric_views.chosen_metrics(choice)
        by_label.show_by_label(data, settings, st.session_state.get("cmp_mode") == DEMO, with_ter)


def render(data: cached.Systems, settings: BleuOptions) -> None:
    for finding in cached.systems_cjk_cached(data, settings.tokenize):
        st.warning(views.md_escape(finding_message(finding)))
    for group in cached.identical_systems_cached(data):
        names = t("verdict.list_separator").join(views.md_escape(name) for name in group)
        st.warning(t("compare.identical_systems", names=names))
    with st.spinner(t("compare.counting")):
        analyses = cached.systems_analyses_cached(data, settings)
    choice = metric_verdict.metric_choice()
    if choice == "bleu":
        verdict.render_verdict(data, settings, analyses)
    else:
        metric_verdict.render_metrics(data, settings, analyses, choice)
    show_details(analyses, data, settings, choice)


def main() -> None:
    """The page: systems and references, the verdict and the detail views, then the link."""
    ensure_app_navigation()
    link_slot = share.place("compare")
    st.title(t("compare.title"))
    st.caption(t("compare.caption"))
    systems, references, source = read_inputs()
    settings = controls.bleu_settings()
    if not references or len(systems) < 2:
        st.info(t("compare.waiting"))
    elif settings is not None:
        render(cached.Systems(systems, references, source), settings)
    else:  # every weight is 0 (the sidebar says so too)
        st.error(t("settings.all_zero"), icon=":material/error:")
    link_slot.fill()


main()
