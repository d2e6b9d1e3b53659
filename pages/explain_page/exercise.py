"""Exercise mode of the Explain page (``?exercise=1``): the student computes sentence BLEU by hand, step by step.

The exercise is a generated one (``seed=``, optional ``trap=``), an example (``preset=``) or the student's own
sentences (``candidate=``, ``reference=``, ``max_n=``, ``smooth=``, as in an Explain link); the link carries it.
Each step is a form: on submit bleu_core.teach.exercise_checks says right or wrong and names the likely mistake, which
is rendered here from the ``[exercise]`` catalog; the next step opens once a step is right or its answer shown.
"""

from __future__ import annotations

import hashlib
import urllib.parse
from typing import Any

import streamlit as st

from bleu_core.options import SMOOTH_DEFAULTS
from bleu_core.teach.examples import DEFAULT_PRESET, PRESET_BY_KEY, PRESETS
from bleu_core.teach.exercise_checks import Quantity, Verdict, check_answer, exercise_steps, expected_value
from bleu_core.teach.exercises import TRAPS, Exercise, exercise_from_preset, exercise_from_text
from bleu_core.teach.explain import Explanation
from pages.explain_page import chrf_exercise
from pages.explain_page.link import build_link, whole_number
from pages.shared import cached
from pages.shared import state as S
from pages.shared.i18n import language, t, with_language
from pages.shared.state import METRIC as EXPLAIN_METRIC
from pages.shared.state import link_too_long
from pages.shared.views import echo

SOURCES = ("generated", "preset", "own")
SOURCE = "exercise_source"
SEED = "exercise_seed"
TRAP = "exercise_trap"
PRESET = "exercise_preset"
CANDIDATE = "exercise_candidate"
REFERENCES = "exercise_references"
MAX_N = "exercise_max_n"
SMOOTH = "exercise_smooth"
LOADED = "exercise_loaded"
CHECKED = "exercise_checked"  # {step id: verdicts of the last submit}
REVEALED = "exercise_revealed"  # {step id}
METRIC = "exercise_metric"  # "bleu", "chrf" or "chrf++": what the student computes
LAST_LINK = "exercise_last_link"  # the query of the exercise last shown, to come back to it from Explain
LAST_TEXT = "exercise_last_text"  # the walkthrough's own sentence an exercise was last opened on
ANY = "any"
#: The largest seed a link may give, plus one (the seed box holds whole numbers a browser can count exactly).
SEED_CEILING = 10**9
PRESET_KEYS = tuple(p.key for p in PRESETS)


def source_label(source: str) -> str:
    return {
        "generated": t("exercise.source_generated"),
        "preset": t("exercise.source_preset"),
        "own": t("exercise.source_own"),
    }[source]


def trap_label(trap: str) -> str:
    return {
        ANY: t("exercise.trap_any"),
        "repeated_words": t("exercise.trap_repeated_words"),
        "length_tie": t("exercise.trap_length_tie"),
        "short_candidate": t("exercise.trap_short_candidate"),
        "zero_match": t("exercise.trap_zero_match"),
        "closest_not_shortest": t("exercise.trap_closest_not_shortest"),
    }[trap]


def initialize() -> list[str]:
    """First run of a session: the exercise named by the link (seed, preset or own text), else exercise 1."""
    ss = st.session_state
    if ss.get(LOADED):
        return []
    query = st.query_params
    problems = []
    ss[SOURCE], ss[SEED], ss[TRAP], ss[PRESET] = "generated", 1, ANY, DEFAULT_PRESET.key
    ss[CANDIDATE], ss[REFERENCES] = DEFAULT_PRESET.candidate, "\n".join(DEFAULT_PRESET.references)
    ss[MAX_N], ss[SMOOTH] = 4, "none"
    ss[METRIC] = query.get("metric") if query.get("metric") in chrf_exercise.METRICS else "bleu"
    too_long = link_too_long({key: query.get_all(key) for key in query})
    if too_long is not None:  # refused whole: exercise 1
        ss[LOADED] = True
        return [t("explain.link_ignored", problem=too_long.render(language()))]
    if "seed" in query:
        seed = query.get("seed", "")
        number = whole_number(seed)
        if number is not None and number < SEED_CEILING:
            ss[SEED] = number
        else:
            problems.append(t("exercise.bad_seed", limit=SEED_CEILING - 1, value=echo(seed).render(language())))
    trap = query.get("trap")
    if trap in TRAPS:
        ss[TRAP] = trap
    elif trap is not None:
        problems.append(t("exercise.bad_trap", value=echo(trap).render(language())))
    if "seed" not in query and "preset" in query:
        name = query.get("preset", "")
        if name in PRESET_KEYS:
            ss[SOURCE], ss[PRESET] = "preset", name
        else:
            problems.append(t("exercise.bad_preset", value=echo(name).render(language())))
    elif "seed" not in query and ("candidate" in query or "reference" in query):
        ss[SOURCE] = "own"
        ss[CANDIDATE] = query.get("candidate", "")
        ss[REFERENCES] = "\n".join(query.get_all("reference"))
        max_n = query.get("max_n", "4")
        ss[MAX_N] = int(max_n) if max_n in ("1", "2", "3", "4") else 4
        ss[SMOOTH] = query.get("smooth", "none") if query.get("smooth") in SMOOTH_DEFAULTS else "none"
    ss[LOADED] = True
    return problems


def next_exercise() -> None:
    st.session_state[SEED] = int(st.session_state[SEED]) + 1


def choose() -> Exercise | None:
    """The source widgets; the exercise they name (None while the student's own text is incomplete)."""
    ss = st.session_state
    # format_func from a dict built now: AppTest calls it outside the run, where the session's language is unknown
    sources = {source: source_label(source) for source in SOURCES}
    st.radio(t("exercise.source"), SOURCES, format_func=sources.__getitem__, key=SOURCE, horizontal=True)
    if ss[SOURCE] == "generated":
        cols = st.columns([1, 2, 1], vertical_alignment="bottom")
        cols[0].number_input(t("exercise.seed"), min_value=0, step=1, key=SEED, help=t("exercise.seed_help"))
        cols[1].selectbox(
            t("exercise.trap"),
            (ANY, *TRAPS),
            format_func={trap: trap_label(trap) for trap in (ANY, *TRAPS)}.__getitem__,
            key=TRAP,
        )
        cols[2].button(t("exercise.next"), on_click=next_exercise)
        return cached.exercise_cached(int(ss[SEED]), None if ss[TRAP] == ANY else ss[TRAP])
    if ss[SOURCE] == "preset":
        names = {p.key: p.name.render(language()) for p in PRESETS}
        st.selectbox(t("exercise.preset"), PRESET_KEYS, format_func=names.__getitem__, key=PRESET)
        return exercise_from_preset(PRESET_BY_KEY[ss[PRESET]])
    st.text_input(t("exercise.candidate_input"), key=CANDIDATE)
    st.text_area(t("exercise.references_input"), key=REFERENCES, height=90)
    st.number_input(t("exercise.max_n"), min_value=1, max_value=4, step=1, key=MAX_N)
    try:
        return exercise_from_text(ss[CANDIDATE], ss[REFERENCES].split("\n"), int(ss[MAX_N]), ss[SMOOTH])
    except ValueError:
        st.info(t("exercise.own_missing"))
        return None


def link_query() -> dict[str, Any]:
    """The link of the exercise on screen (and the interface language)."""
    ss = st.session_state
    query: dict[str, Any] = {"exercise": "1"}
    if ss.get(METRIC, "bleu") != "bleu":
        query["metric"] = ss[METRIC]
    if ss[SOURCE] == "generated":
        query["seed"] = str(ss[SEED])
        if ss[TRAP] != ANY:
            query["trap"] = ss[TRAP]
    elif ss[SOURCE] == "preset":
        query["preset"] = ss[PRESET]
    else:
        references = [line for line in ss[REFERENCES].split("\n") if line.strip()]
        query.update({"candidate": ss[CANDIDATE], "reference": references, "max_n": str(ss[MAX_N])})
        if ss[SMOOTH] != "none":
            query["smooth"] = ss[SMOOTH]
    return with_language(query)


def sync_link() -> None:
    wanted = {key: value if isinstance(value, list) else [value] for key, value in link_query().items()}
    if {key: st.query_params.get_all(key) for key in st.query_params} != wanted:
        st.query_params.from_dict(link_query())


def smoothing_text(exercise: Exercise) -> str:
    options = exercise.options
    value = f"{options.smooth_amount:g}"
    return {
        "none": t("exercise.smooth_none"),
        "exp": t("exercise.smooth_exp"),
        "floor": t("exercise.smooth_floor", value=value),
        "add-k": t("exercise.smooth_add_k", value=value),
    }[options.smooth]


def show_sentences(exercise: Exercise, trace: Explanation) -> None:
    """The candidate and references as tokens (code blocks escape everything), and the settings."""
    st.markdown(t("exercise.candidate"))
    st.code(" ".join(trace.candidate_tokens), language=None, wrap_lines=True)
    for index, tokens in enumerate(trace.reference_tokens, 1):
        st.markdown(t("exercise.reference", index=index))
        st.code(" ".join(tokens), language=None, wrap_lines=True)
    st.caption(t("exercise.tokens", c=trace.length.candidate_length))
    options = exercise.options
    if len(set(options.weights)) == 1:
        weights = t("exercise.weights_uniform", max_n=options.max_order)
    else:
        weights = ", ".join(f"w{n} = {w:.3f}" for n, w in enumerate(options.weights, 1))
    st.caption(t("exercise.settings", max_n=options.max_order, weights=weights, smoothing=smoothing_text(exercise)))


def label(quantity: Quantity) -> str:
    return {
        "matches": lambda: t("exercise.matches", n=quantity.order),
        "total": lambda: t("exercise.total", n=quantity.order),
        "reference_length": lambda: t("exercise.reference_length"),
        "bp": lambda: t("exercise.bp"),
        "bleu": lambda: t("exercise.bleu"),
    }[quantity.kind]()


def shown(quantity: Quantity, value: float) -> str:
    return f"{value:.4f}" if quantity.decimal else f"{value:g}"


def step_heading(trace: Explanation, step: tuple[Quantity, ...], index: int, steps: int) -> tuple[str, str]:
    kind, c, r = step[0].kind, trace.length.candidate_length, trace.length.chosen_length
    where = {"step": index, "steps": steps}
    if kind == "matches":
        n = step[0].order
        return t("exercise.step_order", n=n, **where), t("exercise.step_order_help", n=n)
    if kind == "reference_length":
        lengths = ", ".join(str(length) for length in trace.length.reference_lengths)
        return t("exercise.step_length", **where), t("exercise.step_length_help", lengths=lengths)
    if kind == "bp":
        return t("exercise.step_bp", **where), t("exercise.step_bp_help", c=c, r=r)
    fractions = ", ".join(f"p{o.order} = {o.fraction}" for o in trace.orders)
    return t("exercise.step_bleu", **where), t("exercise.step_bleu_help", fractions=fractions, bp=f"{trace.bp:.4f}")


def feedback(trace: Explanation, verdict: Verdict) -> None:
    name = label(verdict.quantity)
    if verdict.correct:
        st.success(t("exercise.correct", label=name, value=shown(verdict.quantity, verdict.answer)))
        return
    params = {"n": verdict.quantity.order, "c": trace.length.candidate_length, "r": trace.length.chosen_length}
    why = t(f"exercise.mistake_{verdict.mistake or 'unknown'}", **params)
    st.error(t("exercise.wrong", label=name, answer=shown(verdict.quantity, verdict.answer), why=why))


def worked_answer(trace: Explanation, quantity: Quantity) -> str:
    """How the right value comes about, for the revealed answer of the length, BP and BLEU steps."""
    length, c, r = trace.length, trace.length.candidate_length, trace.length.chosen_length
    if quantity.kind == "reference_length":
        tied = sorted({length.reference_lengths[i] for i in length.tied_indices})
        if len(tied) > 1:
            lengths = ", ".join(str(x) for x in tied)
            return t("exercise.answer_length_tie", c=c, tied=lengths, distance=abs(r - c), r=r)
        return t("exercise.answer_length", c=c, differences=", ".join(map(str, length.differences)), r=r)
    if quantity.kind == "bp":
        return (
            t("exercise.answer_bp_one", c=c, r=r) if c >= r else t("exercise.answer_bp", c=c, r=r, bp=f"{trace.bp:.4f}")
        )
    if quantity.kind == "bleu":
        if trace.no_unigram_match:
            return t("exercise.answer_bleu_no_match")
        if trace.score == 0:
            return t("exercise.answer_bleu_zero")
        log_sum = trace.log_score - trace.log_bp
        return t("exercise.answer_bleu", bp=f"{trace.bp:.4f}", log_sum=f"{log_sum:.4f}", score=f"{trace.score:.4f}")
    return ""


def clipping_table(trace: Explanation, n: int) -> None:
    """The revealed counts of one order: every candidate n-gram, its count, its largest count in one reference."""
    rows = trace.orders[n - 1].rows
    st.dataframe(
        {
            t("exercise.column_ngram"): [row.text for row in rows],
            t("exercise.column_count"): [row.candidate_count for row in rows],
            t("exercise.column_max"): [row.max_reference_count for row in rows],
            t("exercise.column_clipped"): [row.clipped for row in rows],
        },
        hide_index=True,
    )


def run_step(trace: Explanation, step: tuple[Quantity, ...], step_id: str, index: int, steps: int) -> bool:
    """One step's form, its feedback and its reveal button; True once it is solved (right, or answer shown)."""
    ss = st.session_state
    heading, help_text = step_heading(trace, step, index, steps)
    st.subheader(heading)
    st.caption(help_text)
    with st.form(f"{step_id}_form"):
        cols = st.columns(len(step))
        answers = []
        for col, quantity in zip(cols, step, strict=True):
            if quantity.decimal:
                answers.append(
                    col.number_input(
                        label(quantity), value=None, step=0.0001, format="%.4f", key=f"{step_id}_{quantity.kind}"
                    )
                )
            else:
                answers.append(
                    col.number_input(label(quantity), value=None, min_value=0, step=1, key=f"{step_id}_{quantity.kind}")
                )
        submitted = st.form_submit_button(t("exercise.check"), key=f"{step_id}_check")
    if submitted:
        filled = [(q, float(a)) for q, a in zip(step, answers, strict=True) if a is not None]
        for quantity, answer in zip(step, answers, strict=True):
            if answer is None:
                st.warning(t("exercise.missing", label=label(quantity)))
        if len(filled) == len(step):
            ss[CHECKED][step_id] = tuple(check_answer(trace, q, a) for q, a in filled)
    verdicts = ss[CHECKED].get(step_id, ())
    for verdict in verdicts:
        feedback(trace, verdict)
    solved = len(verdicts) == len(step) and all(v.correct for v in verdicts)
    if not solved and step_id not in ss[REVEALED]:  # a callback, so the button is gone in the run it causes
        st.button(t("exercise.reveal"), key=f"{step_id}_reveal", on_click=ss[REVEALED].add, args=(step_id,))
    if step_id in ss[REVEALED] and not solved:
        for quantity in step:
            st.info(t("exercise.answer", label=label(quantity), value=shown(quantity, expected_value(trace, quantity))))
        if worked := worked_answer(trace, step[0]):
            st.info(worked)
        if step[0].kind == "matches":
            clipping_table(trace, step[0].order)
    return solved or step_id in ss[REVEALED]


def exercise_id(exercise: Exercise) -> str:
    """Names the exercise in widget keys, so another exercise starts with empty answers."""
    text = "\x1f".join([exercise.candidate, *exercise.references, repr(exercise.options)])
    return "ex" + hashlib.blake2b(text.encode("utf-8"), digest_size=6).hexdigest()


def walkthrough_link(exercise: Exercise, metric: str = "bleu") -> str:
    options = exercise.options
    query = build_link(
        {
            "candidate": exercise.candidate,
            "references": list(exercise.references),
            "max_order": options.max_order,
            "weights": None if options.uniform_weights else list(options.weights),
            "tokenize": options.tokenize,
            "lowercase": options.lowercase,
            "smooth": options.smooth,
            "smooth_value": options.smooth_value,
            "effective_order": options.effective_order,
            "paper": False,
            "metric": metric,
        }
    )
    return "?" + urllib.parse.urlencode(with_language(query), doseq=True)


def enter() -> None:
    """From the Explain page into exercise mode, unsolved, in the walkthrough's metric (BLEU, chrF or chrF++): on the
    walkthrough's own sentence when it is new since the last exercise, else the exercise last shown (its link),
    else exercise 1."""
    ss = st.session_state
    ss[LOADED] = False
    ss[CHECKED], ss[REVEALED] = {}, set()
    metric = ss.get(EXPLAIN_METRIC, "bleu")
    first = {"exercise": "1", **({"metric": metric} if metric in chrf_exercise.METRICS[1:] else {})}
    own = walkthrough_text()
    if own is not None and own != ss.get(LAST_TEXT):  # a sentence of the user's own, new since the last exercise
        ss[LAST_TEXT] = own
        st.query_params.from_dict(with_language({**first, **own}))
        return
    st.query_params.from_dict(ss.get(LAST_LINK) or with_language(first))


def walkthrough_text() -> dict[str, Any] | None:
    """The link parameters of the walkthrough's own text (a candidate and its references, max n up to 4), or None
    when it shows a preset or lacks a candidate or a reference."""
    ss = st.session_state
    candidate = str(ss.get(S.CANDIDATE, ""))
    references = [line for line in str(ss.get(S.REFERENCES, "")).split("\n") if line.strip()]
    if ss.get(S.PRESET) != S.EXPLAIN_CUSTOM or not candidate.strip() or not references:
        return None
    return {"candidate": candidate, "reference": references, "max_n": str(min(int(ss.get(S.MAX_N, 4)), 4))}


def leave() -> None:
    """Back to the Explain page's walkthrough (its text and settings are kept while the exercise is shown)."""
    st.session_state[LAST_LINK] = link_query()
    st.query_params.from_dict(with_language({}))


def entry_button(metric: str = "BLEU") -> None:
    """The way into exercise mode, on the Explain page (``metric``: the name of the metric it exercises)."""
    st.button(
        t("exercise.entry.open", metric=metric),
        icon=":material/edit_note:",
        on_click=enter,
        help=t("exercise.entry.open_help"),
    )


def render_exercise() -> None:
    """The whole exercise mode: choose an exercise, show it, and walk through its steps."""
    st.sidebar.button(t("exercise.entry.back"), icon=":material/arrow_back:", on_click=leave)
    heading = st.container()  # filled once the metric is known (a link may choose it)
    for problem in initialize():
        st.warning(problem)
    ss = st.session_state
    ss.setdefault(CHECKED, {})
    ss.setdefault(REVEALED, set())
    exercise = choose()
    names = {
        "bleu": t("chrf.exercise.metric_bleu"),
        "chrf": t("chrf.exercise.metric_chrf"),
        "chrf++": t("chrf.exercise.words.metric_chrfpp"),
    }
    ss.setdefault(METRIC, "bleu")
    st.radio(
        t("chrf.exercise.metric"), chrf_exercise.METRICS, format_func=names.__getitem__, key=METRIC, horizontal=True
    )
    metric = str(ss[METRIC])
    with heading:
        if metric == "bleu":
            st.title(t("exercise.title"))
            st.caption(t("exercise.intro"))
        else:
            st.title(t("exercise.title_chrf", metric=names[metric]))
            st.caption(t("exercise.intro_chrf", metric=names[metric]))
    sync_link()
    if exercise is None:
        return
    if ss[METRIC] != "bleu":
        link = walkthrough_link(exercise, ss[METRIC])
        chrf_exercise.render(exercise, exercise_id(exercise), (ss[CHECKED], ss[REVEALED]), link, ss[METRIC])
        return
    trace = cached.explain_cached(exercise.candidate, exercise.references, exercise.options)
    show_sentences(exercise, trace)
    eid = exercise_id(exercise)
    steps = exercise_steps(trace)
    for index, step in enumerate(steps, 1):
        if not run_step(trace, step, f"{eid}_{index}", index, len(steps)):
            return
    st.success(t("exercise.done", score=f"{trace.score:.4f}"))
    st.markdown(f"[{t('exercise.walkthrough')}]({walkthrough_link(exercise)})")
