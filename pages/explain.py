"""Explain: the classroom walkthrough of one candidate against its references."""

from __future__ import annotations

from typing import Any

import streamlit as st

from bleu_core.examples import DEFAULT_PRESET, PRESETS, Preset
from bleu_core.explain import smoothing_alternatives
from bleu_core.options import BleuOptions, make_options
from bleu_core.reader import InputFileError
from bleu_core.tools.nltk import nltk_smoothing_scores
from pages import cached, controls, ensure_app_navigation, exercise, views, walkthrough
from pages import state as S

ensure_app_navigation()

CUSTOM = "(your own text)"
PRESET_BY_NAME = {p.name: p for p in PRESETS}


def preset_values(preset: Preset) -> dict[str, Any]:
    options = preset.options()
    weights = list(options["weights"]) if "weights" in options else None
    return {
        "candidate": preset.candidate,
        "references": list(preset.references),
        "max_order": options.get("max_order", len(weights) if weights else 4),
        "weights": weights,
        "tokenize": options["tokenize"],
        "smooth": options["smooth"],
        "lowercase": options.get("lowercase", False),
        "effective_order": options["effective_order"],
    }


def load_values(values: dict[str, Any]) -> None:
    """Put a complete example into the widgets' session state."""
    ss = st.session_state
    ss[S.CANDIDATE] = values.get("candidate", "")
    ss[S.REFERENCES] = "\n".join(values.get("references", []))
    max_order = int(values.get("max_order", 4))
    ss[S.MAX_N] = max_order
    weights = values.get("weights") or [1.0] * max_order
    top = max(weights) or 1.0
    for n in range(1, S.MAX_ORDER_LIMIT + 1):
        ss[S.weight_key(n)] = round(weights[n - 1] / top, 4) if n <= len(weights) else 1.0
    ss[S.TOKENIZE] = values.get("tokenize", "13a")
    ss[S.SMOOTH] = values.get("smooth", "none")
    ss[S.LOWERCASE] = bool(values.get("lowercase", False))
    ss[S.EFFECTIVE] = bool(values.get("effective_order", False))
    ss[S.HIGHLIGHT] = 1


def on_preset() -> None:
    preset = PRESET_BY_NAME.get(st.session_state[S.PRESET])
    if preset is not None:
        load_values(preset_values(preset))


def on_weights(mode: str) -> None:
    ss = st.session_state
    k = min(ss.get("ex_k", 1), S.MAX_ORDER_LIMIT)
    for n in range(1, S.MAX_ORDER_LIMIT + 1):
        if mode == "uniform":
            ss[S.weight_key(n)] = 1.0
        elif mode == "cumulative":
            ss[S.weight_key(n)] = 1.0 if n <= k else 0.0
        else:
            ss[S.weight_key(n)] = 1.0 if n == k else 0.0
    if mode == "cumulative":
        ss[S.MAX_N] = max(k, 1)
    elif mode == "individual":
        ss[S.MAX_N] = max(ss[S.MAX_N], k)


def on_upload(kind: str) -> None:
    ss = st.session_state
    ss[S.UPLOAD_ERROR] = None
    files = ss.get(f"ex_upload_{kind}")
    if not files:
        return
    files = files if isinstance(files, list) else [files]
    try:
        lines = [line for f in files for line in cached.decode_cached(f.getvalue(), f.name) if line.strip()]
    except InputFileError as error:
        ss[S.UPLOAD_ERROR] = (kind, str(error))
        return
    if not lines:
        ss[S.UPLOAD_ERROR] = (kind, f"{', '.join(f.name for f in files)}: no text found (the file is empty)")
        return
    if kind == "candidate":
        ss[S.CANDIDATE] = lines[0]
        if len(lines) > 1:
            ss[S.UPLOAD_ERROR] = (
                kind,
                f"{files[0].name} has {len(lines)} lines; using the first (the Corpus page scores whole files)",
            )
    else:
        ss[S.REFERENCES] = "\n".join(lines)
    ss[S.PRESET] = CUSTOM


def initialize() -> list[str]:
    """First run of a session: take the example from the link, else the default preset."""
    if st.session_state.get(S.LOADED):
        return []
    values, problems = S.parse_query({key: st.query_params.get_all(key) for key in st.query_params})
    if "candidate" in values or "references" in values:
        base = preset_values(DEFAULT_PRESET)
        base.update(values)
        base.setdefault("weights", None)
        load_values(base)
        st.session_state[S.PRESET] = CUSTOM
    else:
        load_values(preset_values(DEFAULT_PRESET))
        st.session_state[S.PRESET] = DEFAULT_PRESET.name
    st.session_state[S.LOADED] = True
    return problems


def sidebar() -> tuple[BleuOptions | None, list[float]]:
    ss = st.session_state
    with st.sidebar:
        st.header("Settings")
        st.slider("max n (largest n-gram order)", 1, S.MAX_ORDER_LIMIT, key=S.MAX_N)
        max_n = ss[S.MAX_N]
        st.markdown("**n-gram weights** (normalized to sum to 1)")
        cols = st.columns(3)
        cols[0].button("equal", on_click=on_weights, args=("uniform",), help="equal weight for every order")
        cols[1].button("BLEU-k", on_click=on_weights, args=("cumulative",), help="cumulative: orders 1..k")
        cols[2].button("k-gram", on_click=on_weights, args=("individual",), help="individual: order k only")
        st.number_input("k for the shortcuts", 1, S.MAX_ORDER_LIMIT, value=min(2, max_n), key="ex_k")
        raw = [st.slider(f"w{n}", 0.0, 1.0, step=0.05, key=S.weight_key(n)) for n in range(1, max_n + 1)]
        total = sum(raw)
        if total <= 0:
            st.error("All weights are 0: give at least one order a positive weight.")
        else:
            st.caption("normalized: " + ", ".join(f"w{n} = {w / total:.3f}" for n, w in enumerate(raw, 1)))
        st.selectbox("tokenizer", list(S.TOKENIZER_LABELS), format_func=S.TOKENIZER_LABELS.__getitem__, key=S.TOKENIZE)
        st.checkbox("lowercase", key=S.LOWERCASE)
        st.selectbox("smoothing", list(S.SMOOTH_LABELS), format_func=S.SMOOTH_LABELS.__getitem__, key=S.SMOOTH)
        smooth_value = None
        if ss[S.SMOOTH] in ("floor", "add-k"):
            default = 0.1 if ss[S.SMOOTH] == "floor" else 1.0
            top = 1.0 if ss[S.SMOOTH] == "floor" else 100.0
            smooth_value = st.number_input(
                "smoothing value", 0.0, top, value=default, step=0.05, key=f"{S.SMOOTH_VALUE}_{ss[S.SMOOTH]}"
            )
        st.checkbox("effective order", key=S.EFFECTIVE, help="ignore orders the candidate is too short to have")
    if total <= 0:
        return None, raw
    options = make_options(
        max_order=max_n,
        weights=[w / total for w in raw],
        tokenize=ss[S.TOKENIZE],
        lowercase=ss[S.LOWERCASE],
        smooth=ss[S.SMOOTH],
        smooth_value=smooth_value,
        effective_order=ss[S.EFFECTIVE],
    )
    return options, raw


def inputs() -> tuple[str, list[str]]:
    st.selectbox("Example", [CUSTOM, *PRESET_BY_NAME], key=S.PRESET, on_change=on_preset)
    st.text_input("Candidate (the system output)", key=S.CANDIDATE)
    st.text_area("References (one per line, any number)", key=S.REFERENCES, height=110)
    with st.expander("…or upload text files (UTF-8 or UTF-16; up to 50 MB each)"):
        cols = st.columns(2)
        cols[0].file_uploader("Candidate file", key="ex_upload_candidate", on_change=on_upload, args=("candidate",))
        cols[1].file_uploader(
            "Reference files (each line is a reference)",
            accept_multiple_files=True,
            key="ex_upload_references",
            on_change=on_upload,
            args=("references",),
        )
        problem = st.session_state.get(S.UPLOAD_ERROR)
        if problem:
            st.error(problem[1])
    references = [line for line in st.session_state[S.REFERENCES].split("\n") if line.strip()]
    return st.session_state[S.CANDIDATE], references


def preset_is_shown(preset: Preset, candidate: str, references: list[str], options: BleuOptions) -> bool:
    """The example's lesson applies only while its text and settings are unchanged."""
    values = preset_values(preset)
    weights = values["weights"] or [1.0] * values["max_order"]
    total = sum(weights)
    same_weights = len(weights) == len(options.weights) and all(
        abs(w / total - v) < 1e-9 for w, v in zip(weights, options.weights, strict=True)
    )
    return (
        candidate == values["candidate"]
        and references == values["references"]
        and options.max_order == values["max_order"]
        and same_weights
        and options.tokenize == values["tokenize"]
        and options.smooth == values["smooth"]
        and options.lowercase == values["lowercase"]
        and options.effective_order == values["effective_order"]
    )


def render(candidate: str, references: list[str], options: BleuOptions) -> None:
    try:
        trace = cached.explain_cached(candidate, tuple(references), options)
    except (ValueError, TypeError) as error:
        st.error(f"Cannot score this input: {error}")
        return
    preset = PRESET_BY_NAME.get(st.session_state.get(S.PRESET, ""))
    if preset and preset.lesson and preset_is_shown(preset, candidate, references, options):
        st.info(preset.lesson)

    cols = st.columns(4)
    cols[0].metric("BLEU (0–1)", f"{trace.score:.4f}")
    cols[1].metric("BLEU ×100", f"{trace.score_100:.2f}")
    cols[2].metric("brevity penalty", f"{trace.bp:.4f}")
    cols[3].metric("c / r", f"{trace.length.candidate_length} / {trace.length.chosen_length}")

    for message in cached.script_warnings(candidate, tuple(references), options.tokenize):
        st.warning(message)

    if trace.zero_orders:
        zero = ", ".join(f"p{n}" for n in trace.zero_orders)
        alternatives = smoothing_alternatives(trace)
        st.warning(
            f"{zero} = 0: no {'/'.join(str(n) for n in trace.zero_orders)}-gram of the candidate is in any reference. "
            "log 0 is −∞, so unsmoothed BLEU is 0 however good the other orders are. Smoothing replaces the zero: "
            + "; ".join(f"{name} → {score:.4f}" for name, score in alternatives.items())
        )

    walkthrough.render(trace, S.HIGHLIGHT)

    with st.expander("The same tokens under NLTK's smoothing methods 0-7 (Chen & Cherry 2014)"):
        nltk = nltk_smoothing_scores(trace)
        st.dataframe(
            {"NLTK smoothing": list(nltk), "sentence_bleu": [views.fmt(v) for v in nltk.values()]}, hide_index=True
        )
        st.caption("NLTK substitutes a tiny number for zero precisions (method0) instead of returning 0.")

    downloads = st.columns(2)
    controls.download_button(
        downloads[0], "Download walkthrough (Markdown)", views.markdown_report(trace), "bleu-walkthrough.md"
    )
    controls.download_button(downloads[1], "Download tables (CSV)", views.tables_csv(trace), "bleu-tables.csv")


def sync_query(candidate: str, references: list[str], options: BleuOptions | None, raw: list[float]) -> None:
    ss = st.session_state
    wanted = S.build_query(
        candidate,
        references,
        ss[S.MAX_N],
        raw if options is None else list(options.weights),
        ss[S.TOKENIZE],
        ss[S.SMOOTH],
        ss[S.LOWERCASE],
    )
    current = {key: st.query_params.get_all(key) for key in st.query_params}
    if {k: v if isinstance(v, list) else [v] for k, v in wanted.items()} != current:
        st.query_params.from_dict(wanted)


if st.query_params.get("exercise") == "1":
    exercise.render_exercise()
    st.stop()
st.title("Explain BLEU, step by step")
st.caption("One candidate against its references: tokens, clipped counts, precisions, brevity penalty, score.")
for problem in initialize():
    st.warning(f"Link parameter ignored: {problem}")
candidate, references = inputs()
options, raw_weights = sidebar()
if not references:
    st.error("Add at least one reference (one per line) to compute BLEU.")
elif options is not None:
    render(candidate, references, options)
sync_query(candidate, references, options, raw_weights)
