"""Explain: the classroom walkthrough of one candidate against its references (and its presentation mode)."""

from __future__ import annotations

from functools import partial
from typing import Any

import streamlit as st

from bleu_core.corpus.lint import invisible_characters
from bleu_core.i18n import text
from bleu_core.options import SENTENCE_DEFAULTS, BleuOptions, make_options, settings_changed
from bleu_core.teach.examples import PRESET_BY_KEY, PRESETS, Preset
from bleu_core.teach.explain import paper_text, smoothing_alternatives
from bleu_core.text.reader import InputFileError
from bleu_core.tools.nltk_bleu import nltk_smoothing_scores
from pages.corpus_page.segments import way_back
from pages.explain_page import chrf_present, chrf_view, exercise, present
from pages.explain_page import link as explain_link
from pages.shared import cached, controls, share, views, walkthrough
from pages.shared import state as S
from pages.shared.i18n import error_text, language, t, with_language
from pages.shared.streamlit_private import ensure_app_navigation


def smooth_value_key(method: str) -> str:
    return f"{S.SMOOTH_VALUE}_{method}"


#: Widget values kept while their widgets are not drawn (presentation mode shows no inputs).
KEEP = (
    S.CANDIDATE,
    S.REFERENCES,
    S.MAX_N,
    S.TOKENIZE,
    S.SMOOTH,
    S.LOWERCASE,
    S.EFFECTIVE,
    S.PRESET,
    S.HIGHLIGHT,
    S.PAPER,
    S.METRIC,
    S.PRESENT,
    S.STEP,
    "ex_k",
    *(S.weight_key(n) for n in range(1, S.MAX_ORDER_LIMIT + 1)),
    *(smooth_value_key(m) for m in explain_link.SMOOTH_VALUE_DEFAULTS),
)


def load_values(values: dict[str, Any]) -> None:
    """Put a complete page state (:func:`explain_link.resolve`) into the widgets' session state."""
    ss = st.session_state
    ss[S.CANDIDATE] = values["candidate"]
    ss[S.REFERENCES] = "\n".join(values["references"])
    load_settings(values)
    ss[S.PRESET] = values.get("preset") or S.EXPLAIN_CUSTOM
    ss[S.METRIC] = values.get("metric", "bleu")
    ss[S.PRESENT] = bool(values.get("present"))
    ss[S.STEP] = int(values.get("step", 1))
    ss[S.HIGHLIGHT] = 1


def load_settings(values: dict[str, Any]) -> None:
    """Put the sidebar's settings of a page state into the widgets' session state."""
    ss = st.session_state
    max_order = int(values["max_order"])
    ss[S.MAX_N] = max_order
    weights = values.get("weights") or [1.0] * max_order
    top = max(weights) or 1.0
    for n in range(1, S.MAX_ORDER_LIMIT + 1):
        ss[S.weight_key(n)] = round(weights[n - 1] / top, 4) if n <= len(weights) else 1.0
    ss[S.TOKENIZE] = values["tokenize"]
    ss[S.SMOOTH] = values["smooth"]
    for method, default in explain_link.SMOOTH_VALUE_DEFAULTS.items():
        given = values.get("smooth_value") if values["smooth"] == method else None
        ss[smooth_value_key(method)] = default if given is None else float(given)
    ss[S.LOWERCASE] = bool(values["lowercase"])
    ss[S.EFFECTIVE] = bool(values["effective_order"])
    ss[S.PAPER] = bool(values["paper"])


def use_sacrebleu_defaults() -> None:
    """The sidebar set to sacreBLEU's sentence defaults (4-grams of equal weight, exp smoothing, effective order),
    the text kept: one click from an example's textbook settings to what sacreBLEU prints."""
    defaults = SENTENCE_DEFAULTS
    load_settings(
        {
            "max_order": defaults.max_order,
            "weights": None,
            "tokenize": defaults.tokenize,
            "smooth": defaults.smooth,
            "smooth_value": defaults.smooth_value,
            "lowercase": defaults.lowercase,
            "effective_order": defaults.effective_order,
            "paper": False,
        }
    )


#: The texts as the last finished run drew them (set by :func:`main`).
SHOWN_TEXTS = "ex_shown_texts"


def on_preset() -> None:
    """Load the chosen example, unless the menu's value is a stale echo that came with edited text.

    An edit sets the menu to "your own text" (:func:`on_text_edit`). If the browser sends its next change before
    that run reached it (a slow server, a quick typist), the message carries the edited text *and* the menu's old
    example; loading that example would throw the edit away. A user who picks an example changes nothing else
    in the same message, so a menu change that comes with changed text is the echo: the edit stays.
    """
    ss = st.session_state
    preset = PRESET_BY_KEY.get(ss[S.PRESET])
    if preset is None:
        return
    if ss.get(SHOWN_TEXTS) not in (None, (ss.get(S.CANDIDATE), ss.get(S.REFERENCES))):
        ss[S.PRESET] = S.EXPLAIN_CUSTOM
        return
    load_values({**explain_link.preset_values(preset), "preset": preset.key, "present": ss.get(S.PRESENT)})


def on_text_edit() -> None:
    """Edited text is no longer the example: the menu says so and the lesson goes."""
    st.session_state[S.PRESET] = S.EXPLAIN_CUSTOM


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
    ss[S.NOTICE] = None
    if mode == "cumulative":
        ss[S.MAX_N] = k
        ss[S.NOTICE] = ("explain.bleu_k_done", {"k": k})
    elif mode == "individual":
        ss[S.MAX_N] = max(ss[S.MAX_N], k)
        ss[S.NOTICE] = ("explain.k_gram_done", {"k": k, "max_n": ss[S.MAX_N]})


def on_upload(kind: str) -> None:
    """A candidate file gives its first line; each reference file is one reference (its lines joined).

    The problems of each uploader are kept apart ({kind: messages}), so that one upload does not hide another's;
    every file that cannot be read is named, and none of a kind's files is used while one of them fails."""
    ss = st.session_state
    problems: dict[str, list[str]] = dict(ss.get(S.UPLOAD_ERROR) or {})
    problems.pop(kind, None)
    ss[S.UPLOAD_ERROR] = problems
    if kind == "references":
        ss[S.UPLOADED] = None
    files = ss.get(f"ex_upload_{kind}")
    if not files:
        return
    files = files if isinstance(files, list) else [files]
    texts, failed = [], []
    for f in files:
        try:
            texts.append((f.name, [line for line in cached.decode_cached(f.getvalue(), f.name) if line.strip()]))
        except InputFileError as error:
            failed.append(views.md_escape(error_text(error)))
    if not failed and not any(lines for _, lines in texts):
        failed.append(t("explain.upload_empty", names=", ".join(views.md_escape(f.name) for f in files)))
    if failed:
        problems[kind] = failed
        return
    if kind == "candidate":
        name, lines = texts[0]
        ss[S.CANDIDATE] = lines[0]
        if len(lines) > 1:
            problems[kind] = [t("explain.upload_first_line", name=views.md_escape(name), count=len(lines))]
    else:
        ss[S.REFERENCES] = "\n".join(" ".join(lines) for _, lines in texts if lines)
        ss[S.UPLOADED] = [(name, len(lines)) for name, lines in texts if lines]
    ss[S.PRESET] = S.EXPLAIN_CUSTOM


def initialize() -> list[str]:
    """First run of a session: the state from the link (:mod:`pages.explain_page.link`); the problems with it."""
    # (widget values are gone after a visit to another page: then the link, or the defaults, load again)
    if st.session_state.get(S.LOADED) and S.CANDIDATE in st.session_state:
        return []
    given, problems = explain_link.parse_link({key: st.query_params.get_all(key) for key in st.query_params})
    load_values(explain_link.resolve(given))
    st.session_state[S.LOADED] = True
    return [problem.render(language()) for problem in problems]


def weight_buttons() -> None:
    ss = st.session_state
    row = st.container(horizontal=True, wrap=True)  # each button as wide as its label; a long one wraps, not cut
    row.button(t("explain.equal"), on_click=on_weights, args=("uniform",), help=t("explain.equal_help"))
    row.button(t("explain.bleu_k"), on_click=on_weights, args=("cumulative",), help=t("explain.bleu_k_help"))
    row.button(t("explain.k_gram"), on_click=on_weights, args=("individual",), help=t("explain.k_gram_help"))
    ss.setdefault("ex_k", min(2, ss[S.MAX_N]))
    st.number_input(t("explain.shortcuts"), 1, S.MAX_ORDER_LIMIT, key="ex_k")
    notice = ss.get(S.NOTICE)
    if notice:
        st.caption(t(notice[0], **notice[1]))


def smoothing_value() -> float | None:
    method = st.session_state[S.SMOOTH]
    if method not in explain_link.SMOOTH_VALUE_DEFAULTS:
        return None
    key = smooth_value_key(method)
    st.session_state.setdefault(key, explain_link.SMOOTH_VALUE_DEFAULTS[method])
    top = explain_link.SMOOTH_VALUE_LIMITS[method]
    return float(st.number_input(t("settings.smoothing_value"), 0.0, top, step=0.05, key=key))


def sidebar() -> tuple[BleuOptions | None, list[float]]:
    ss = st.session_state
    with st.sidebar:
        st.toggle(
            t("explain.present"), key=S.PRESENT, help=t("explain.present_help"), on_change=present.enter, args=(S.STEP,)
        )
        exercise.entry_button(chrf_view.metric_name(ss.get(S.METRIC, "bleu"), language()))
        st.header(t("settings.header"))
        st.slider(t("settings.max_n"), 1, S.MAX_ORDER_LIMIT, key=S.MAX_N)
        max_n = ss[S.MAX_N]
        st.markdown(t("settings.weights"))
        weight_buttons()
        raw = [
            st.slider(t("settings.weight", n=n), 0.0, 1.0, step=0.05, key=S.weight_key(n)) for n in range(1, max_n + 1)
        ]
        total = sum(raw)
        if total <= 0:
            st.error(t("settings.all_zero"))
        else:
            st.caption(
                t("settings.normalized", weights=", ".join(f"w{n} = {w / total:.3f}" for n, w in enumerate(raw, 1)))
            )
        lang = language()  # bound now: AppTest calls format functions outside the session
        st.selectbox(
            t("settings.tokenizer"),
            list(S.TOKENIZER_LABELS),
            format_func=lambda name: text(f"settings.tok_{name}", lang),
            key=S.TOKENIZE,
            help=t("settings.tokenizer_help"),
        )
        st.checkbox(t("settings.lowercase"), key=S.LOWERCASE)
        st.checkbox(t("explain.paper"), key=S.PAPER, help=t("explain.paper_help"))
        st.selectbox(
            t("settings.smoothing"),
            list(S.SMOOTH_LABELS),
            format_func=lambda name: text(f"settings.smooth_{name.replace('-', '_')}", lang),
            key=S.SMOOTH,
        )
        smooth_value = smoothing_value()
        st.checkbox(t("explain.effective"), key=S.EFFECTIVE, help=t("explain.effective_help"))
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


def preset_label(key: str, lang: str) -> str:
    preset = PRESET_BY_KEY.get(key)
    return text("explain.custom", lang) if preset is None else preset.name.render(lang)


def inputs() -> tuple[str, list[str]]:
    ss = st.session_state
    st.selectbox(
        t("explain.example"),
        [S.EXPLAIN_CUSTOM, *(p.key for p in PRESETS)],
        format_func=partial(preset_label, lang=language()),
        key=S.PRESET,
        on_change=on_preset,
    )
    st.text_input(t("explain.candidate"), key=S.CANDIDATE, on_change=on_text_edit)
    st.text_area(t("explain.references"), key=S.REFERENCES, height=110, on_change=on_text_edit)
    with st.expander(t("explain.upload")):
        cols = st.columns(2)
        cols[0].file_uploader(
            t("explain.candidate_file"), key="ex_upload_candidate", on_change=on_upload, args=("candidate",)
        )
        cols[1].file_uploader(
            t("explain.reference_files"),
            accept_multiple_files=True,
            key="ex_upload_references",
            on_change=on_upload,
            args=("references",),
        )
        for where, kind in zip(cols, ("candidate", "references"), strict=True):
            for problem in (ss.get(S.UPLOAD_ERROR) or {}).get(kind, ()):
                where.error(problem)
    if ss.get(S.UPLOADED):
        files = ", ".join(
            t("explain.upload_file_lines", name=views.md_escape(name), lines=lines) for name, lines in ss[S.UPLOADED]
        )
        st.info(t("explain.upload_as_references", files=files))
    references = [line for line in ss[S.REFERENCES].split("\n") if line.strip()]
    return ss[S.CANDIDATE], references


def preset_is_shown(preset: Preset, candidate: str, references: list[str], options: BleuOptions) -> bool:
    """The example's lesson applies only while its text and settings are unchanged."""
    values = explain_link.preset_values(preset)
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
        and st.session_state[S.PAPER] == values["paper"]
    )


def counted(candidate: str, references: list[str]) -> tuple[str, list[str]]:
    """The text as it is counted: unchanged, or paper-faithful (lower-cased, no punctuation; BLEU only: chrF
    keeps sacreBLEU's defaults)."""
    if not st.session_state[S.PAPER] or st.session_state.get(S.METRIC, "bleu") != "bleu":
        return candidate, references
    return paper_text(candidate), [paper_text(r) for r in references]


def orders_text(orders: tuple[int, ...]) -> tuple[str, str]:
    return ", ".join(f"p{n}" for n in orders), "/".join(str(n) for n in orders)


def warnings(candidate: str, references: list[str], options: BleuOptions, trace: Any) -> None:
    if cached.script_warnings(candidate, tuple(references), options.tokenize):
        st.warning(t("explain.cjk_advice", tokenizer=options.tokenize))
    if codes := invisible_characters(candidate):  # a NUL looked like nothing, and "ist" did not match "ist"
        st.warning(t("explain.invisible_candidate", codes=", ".join(codes)))
    for n, reference in enumerate(references, start=1):
        if codes := invisible_characters(reference):
            st.warning(t("explain.invisible_reference", n=n, codes=", ".join(codes)))
    if trace.empty_orders:
        names, ns = orders_text(trace.empty_orders)
        key = "explain.empty_orders_effective" if options.effective_order else "explain.empty_orders"
        st.warning(t(key, orders=names, ns=ns, c=trace.length.candidate_length))
    if trace.zero_orders:
        names, ns = orders_text(trace.zero_orders)
        if trace.no_unigram_match:
            st.warning(t("explain.no_match_alternatives", orders=names))
        else:
            alternatives = "; ".join(
                f"{name} → {score:.4f}" for name, score in smoothing_alternatives(trace).items() if name != "none"
            )
            note = ""
            if trace.empty_orders and options.max_order > 1:  # add-k turns a 0/0 order into k/k = 1
                note = " " + t("explain.addk_empty", empty=orders_text(trace.empty_orders)[0])
            st.warning(t("explain.zero_orders", orders=names, ns=ns, alternatives=alternatives) + note)


def sacrebleu_defaults(options: BleuOptions) -> None:
    """Under settings other than sacreBLEU's sentence defaults: the score those give, and what differs."""
    changed = [
        t(f"explain.changed_{name}_{value}")
        if value in ("true", "false")
        else t(f"explain.changed_{name}", value=value)
        for name, value in settings_changed(options)
    ]
    if st.session_state[S.PAPER]:
        changed.append(t("explain.changed_paper"))
    if changed:
        default = cached.explain_cached(st.session_state[S.CANDIDATE], tuple(raw_references()), SENTENCE_DEFAULTS)
        listed = t("verdict.list_separator").join(changed)
        st.caption(t("explain.sacrebleu_defaults", score=f"{default.score_100:.2f}", changed=listed))
        st.button(t("explain.use_defaults"), key="ex_use_defaults", on_click=use_sacrebleu_defaults)


def render(candidate: str, references: list[str], options: BleuOptions) -> None:
    lang = language()
    try:
        trace = cached.explain_cached(candidate, tuple(references), options)
    except (ValueError, TypeError) as error:
        st.error(t("explain.cannot_score", error=error))
        return
    preset = PRESET_BY_KEY.get(st.session_state.get(S.PRESET, ""))
    if preset and preset_is_shown(preset, st.session_state[S.CANDIDATE], raw_references(), options):
        st.info(preset.lesson.render(lang))
    if st.session_state[S.PAPER]:
        st.caption(t("explain.paper_shown"))

    cols = st.columns(4)
    cols[0].metric(t("explain.metric_bleu"), f"{trace.score:.4f}")
    cols[1].metric(t("explain.metric_bleu100"), f"{trace.score_100:.2f}")
    cols[2].metric(t("explain.metric_bp"), f"{trace.bp:.4f}")
    cols[3].metric(t("explain.metric_lengths"), f"{trace.length.candidate_length} / {trace.length.chosen_length}")
    sacrebleu_defaults(options)
    warnings(candidate, references, options, trace)

    walkthrough.render(trace, S.HIGHLIGHT)

    with st.expander(t("explain.nltk_expander")):
        if trace.cut is not None:  # NLTK re-counts every n-gram of the whole text in Python
            st.caption(t("limits.nltk_off", limit=trace.cut.tokens_kept))
        else:
            nltk = nltk_smoothing_scores(trace)
            st.dataframe(
                {t("explain.nltk_method"): list(nltk), t("explain.nltk_score"): [views.fmt(v) for v in nltk.values()]},
                hide_index=True,
            )
            st.caption(t("explain.nltk_caption"))

    # built when clicked (Streamlit calls the function then, on its own thread), not on every rerun
    downloads = st.columns(2)
    controls.download_button(
        downloads[0],
        t("explain.download_markdown"),
        partial(views.markdown_report, trace, lang),
        "bleu-walkthrough.md",
        "text/markdown",
    )
    controls.download_button(
        downloads[1],
        t("explain.download_tables"),
        partial(views.tables_csv, trace, lang),
        "bleu-tables.csv",
        "text/csv",
    )


def raw_references() -> list[str]:
    return [line for line in st.session_state[S.REFERENCES].split("\n") if line.strip()]


def page_values(options: BleuOptions | None, raw: list[float]) -> dict[str, Any]:
    """Everything the page shows, as :func:`explain_link.build_link` writes it."""
    ss = st.session_state
    preset = PRESET_BY_KEY.get(ss[S.PRESET])
    shown = (
        preset is not None
        and options is not None
        and preset_is_shown(preset, ss[S.CANDIDATE], raw_references(), options)
    )
    smooth = ss[S.SMOOTH]
    return {
        "preset": preset.key if preset is not None and shown else None,
        "candidate": ss[S.CANDIDATE],
        "references": raw_references(),
        "max_order": ss[S.MAX_N],
        "weights": None if len(set(raw)) <= 1 else raw,
        "tokenize": ss[S.TOKENIZE],
        "lowercase": ss[S.LOWERCASE],
        "smooth": smooth,
        "smooth_value": ss.get(smooth_value_key(smooth)),
        "effective_order": ss[S.EFFECTIVE],
        "paper": ss[S.PAPER],
        "metric": ss.get(S.METRIC, "bleu"),
        "present": ss.get(S.PRESENT, False),
        "step": ss.get(S.STEP, 1),
    }


def sync_query(values: dict[str, Any]) -> None:
    """Keep the link equal to what the page shows (other pages' and modes' parameters stay as they are)."""
    others = {key: st.query_params.get_all(key) for key in st.query_params if key not in explain_link.OWN}
    others.pop("lang", None)
    wanted = {**others, **with_language(explain_link.build_link(values))}
    lists = {key: value if isinstance(value, list) else [value] for key, value in wanted.items()}
    if S.link_too_long(lists) is not None:  # a text past the link limit stays out of the link, as uploads do
        wanted = {key: value for key, value in wanted.items() if key not in ("candidate", "reference", "preset")}
    current = {key: st.query_params.get_all(key) for key in st.query_params}
    if {k: v if isinstance(v, list) else [v] for k, v in wanted.items()} != current:
        st.query_params.from_dict(wanted)


def main() -> None:
    """The page: exercise mode, presentation mode or the walkthrough, then the link."""
    ensure_app_navigation()
    if st.query_params.get("exercise") == "1":
        S.hold(st.session_state, KEEP)  # the walkthrough's text and settings wait for the way back
        exercise.render_exercise()
        st.stop()
    link_slot = share.place("explain")
    problems = initialize()
    S.hold(st.session_state, KEEP)
    options, raw_weights = sidebar()
    metric = st.session_state.get(S.METRIC, "bleu")
    if st.session_state[S.PRESENT]:
        candidate, references = counted(st.session_state[S.CANDIDATE], raw_references())
        if references and metric != "bleu":
            chrf_present.render(candidate, references, metric, S.STEP, S.PRESENT)
        elif references and options is not None:
            present.render(candidate, references, options, S.STEP, S.PRESENT)
        else:  # nothing to present: say why, and offer the way back (the sidebar is hidden)
            shown = chrf_view.metric_name(metric, language())
            st.error(t("explain.no_reference", metric=shown) if not references else t("settings.all_zero"))
            present.leave_button(S.PRESENT)
    else:
        if metric == "bleu":
            st.title(t("explain.title"))
            st.caption(t("explain.caption"))
        else:
            st.title(t("explain.title_chrf", metric=chrf_view.metric_name(metric, language())))
            st.caption(t("explain.caption_chrf"))
        metric = chrf_view.metric_switch()
        way_back()  # opened from a Corpus segment: the button back to it
        for problem in problems:
            st.warning(t("explain.link_ignored", problem=problem))
        candidate, references = counted(*inputs())
        if references and not candidate.strip():  # 0 is the true score; say plainly why the page shows it
            st.info(t("explain.no_candidate", metric=chrf_view.metric_name(metric, language())), icon=":material/info:")
        if not references:
            st.error(t("explain.no_reference", metric=chrf_view.metric_name(metric, language())))
        elif metric != "bleu":  # chrF's walkthrough (sacreBLEU's defaults: the BLEU settings do not apply)
            chrf_view.render(candidate, references, metric)
        elif options is not None:
            render(candidate, references, options)
        else:  # every weight is 0: say so where the results would be, not only in the sidebar
            st.error(t("settings.all_zero"), icon=":material/error:")
    sync_query(page_values(options, raw_weights))
    link_slot.fill()
    st.session_state[SHOWN_TEXTS] = (st.session_state[S.CANDIDATE], st.session_state[S.REFERENCES])


main()
