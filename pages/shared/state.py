"""Session-state keys, defaults, and the query parameters that make a page shareable by link."""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

from bleu_core.i18n import Message
from bleu_core.limits import LIMITS
from pages.shared.views import echo

MAX_ORDER_LIMIT = 8
#: The tokenizers and smoothing methods the pages offer, in their order (labels: the [settings] catalog).
TOKENIZER_LABELS = ("13a", "intl", "zh", "char", "none")
SMOOTH_LABELS = ("none", "floor", "add-k", "exp")
#: The walkthroughs the Explain page offers (labels: ``chrf.metric_*``).
METRICS = ("bleu", "chrf", "chrf++")

# Explain page keys.
CANDIDATE = "ex_candidate"
REFERENCES = "ex_references"
MAX_N = "ex_max_n"
TOKENIZE = "ex_tokenize"
SMOOTH = "ex_smooth"
SMOOTH_VALUE = "ex_smooth_value"
LOWERCASE = "ex_lowercase"
EFFECTIVE = "ex_effective"
PRESET = "ex_preset"
HIGHLIGHT = "ex_highlight"
UPLOAD_ERROR = "ex_upload_error"
LOADED = "ex_loaded"
PAPER = "ex_paper"
PRESENT = "ex_present"
STEP = "ex_step"
NOTICE = "ex_notice"
UPLOADED = "ex_uploaded"
METRIC = "ex_metric"


def weight_key(n: int) -> str:
    return f"ex_w{n}"


# Implementations page: the link carries the text, the pair, the mode and the waterfall's order.
IMPLEMENTATION_MODES = ("sentence", "corpus")


def link_length(params: Mapping[str, Sequence[str]]) -> int:
    """Characters of the query string that carries ``params``, percent-encoded as a browser sends it."""
    pairs = [(key, value) for key, values in params.items() for value in values]
    unencoded = sum(len(key) + 1 + len(value) for key, value in pairs) + max(len(pairs) - 1, 0)  # key=value&…
    if unencoded > LIMITS.link_chars:  # too long already (encoding only lengthens it): not worth encoding
        return unencoded
    return len(urllib.parse.urlencode(pairs, errors="surrogatepass"))


def link_too_long(params: Mapping[str, Sequence[str]]) -> Message | None:
    """Why a link is refused whole (longer than ``LIMITS.link_chars``), or None when its length is fine."""
    length = link_length(params)
    if length <= LIMITS.link_chars:
        return None
    return Message("common.link_too_long", {"length": length, "limit": LIMITS.link_chars})


def parse_implementations_query(
    params: Mapping[str, list[str]], tools: Sequence[str], orders: Sequence[str]
) -> tuple[dict[str, Any], list[str]]:
    """Implementations-page values from a link (candidate, references, first, second, mode, order) and the
    problems with it (Markdown-safe: a rejected value is quoted by :func:`pages.shared.views.echo`); never raises.
    A link longer than ``LIMITS.link_chars`` is refused whole."""
    if (too_long := link_too_long(params)) is not None:
        return {}, [str(too_long)]
    values: dict[str, Any] = {}
    problems: list[str] = []
    if params.get("candidate"):
        values["candidate"] = params["candidate"][-1]
    if params.get("reference"):
        values["references"] = [ref for ref in params["reference"] if ref.strip()]
    for key, allowed in (("first", tools), ("second", tools), ("mode", IMPLEMENTATION_MODES), ("order", orders)):
        if params.get(key):
            raw = params[key][-1]
            if raw in allowed:
                values[key] = raw
            else:
                problems.append(f"{key} must be one of {', '.join(allowed)}; got {echo(raw)}")
    return values, problems


def build_implementations_query(
    mode: str, first: str, second: str, order: str, candidate: str, references: list[str]
) -> dict[str, str | list[str]]:
    """The link of the Implementations page; a corpus lives in files, so its link carries the tools only."""
    query: dict[str, str | list[str]] = {"mode": mode, "first": first, "second": second, "order": order}
    if mode == "sentence":
        query.update({"candidate": candidate, "reference": references})
    return query


# ---------------------------------------------------------------------------------------------
# The session-level store shared by the corpus-level pages (Corpus, Compare, Explain, Implementations).
#
# Streamlit deletes a widget's value when a run does not draw that widget, so leaving a page loses what its
# widgets held.  Files and settings therefore live under keys no widget owns: a page copies a kept value into
# its widget's key before drawing it (:func:`restore`) and copies the widget's value back after (:func:`keep`).
# Within one page, a run that leaves some widgets out (a presentation shows no inputs) holds their values
# (:func:`hold`).  Through a language switch every widget keeps its value: :func:`.i18n.carry_widget_values`.

#: Prefix of the kept copies of widget values.
KEPT = "kept:"
#: The files loaded on a corpus-level page (:class:`LoadedFiles`), kept for every page of the session.
FILES = "shared_files"
#: Other systems' outputs loaded for comparison: {name: lines}.
SYSTEMS = "shared_systems"
#: The settings panel's widget keys (one panel, the same on every page).
SETTINGS_PREFIX = "bleu"

Named = tuple[str, list[str]]


@dataclass(frozen=True, slots=True)
class LoadedFiles:
    """Uploaded corpus files: (name, lines) of the hypothesis, each reference, and the source (any may be absent)."""

    hypothesis: Named | None = None
    references: tuple[Named, ...] = ()
    source: Named | None = None


def restore(session: MutableMapping[Any, Any], key: str, default: Any, force: bool = False) -> None:
    """Before drawing widget ``key``: give it its kept value (or ``default``) if a page change dropped it.

    ``force``: also when the key holds a value, for a widget another page drew last (Streamlit gives each page's
    widget its own identity, so the other page's value would not reach it).
    """
    if force or key not in session:
        session[key] = session.get(KEPT + key, default)


def keep(session: MutableMapping[Any, Any], key: str) -> None:
    """After drawing widget ``key``: keep its value where no widget owns it."""
    if key in session:
        session[KEPT + key] = session[key]


def hold(session: MutableMapping[Any, Any], keys: Iterable[str]) -> None:
    """Before a run that may not draw the widgets ``keys``: keep their values for a later run that does (a value
    written by the script is not a widget's, so Streamlit does not delete it)."""
    for key in keys:
        if key in session:
            session[key] = session[key]


def uploader_emptied(session: MutableMapping[Any, Any], key: str, alive: bool, holds: bool) -> bool:
    """Whether the user removed the files of uploader ``key`` in this run, so the kept files must go too.

    ``alive``: the key was in the session before the uploader was drawn (absent after a page change, a clear or a
    language switch); ``holds``: it has files now.  Only an uploader that held files in the last run, and lived
    on, was emptied by the user; one drawn empty over kept files was not.
    """
    flag = KEPT + "holds:" + key
    emptied = alive and not holds and bool(session.get(flag))
    session[flag] = holds
    return emptied


def settings_key(name: str) -> str:
    """The widget key of one setting of the shared panel (``tokenize``, ``lowercase``, ``w3``, ...)."""
    return f"{SETTINGS_PREFIX}_{name}"


def loaded_files(session: Mapping[Any, Any]) -> LoadedFiles | None:
    value = session.get(FILES)
    return value if isinstance(value, LoadedFiles) else None


def other_systems(session: Mapping[Any, Any]) -> dict[str, list[str]]:
    value = session.get(SYSTEMS)
    return dict(value) if isinstance(value, dict) else {}


#: The Explain page's "own text" entry of its example list: the preset box's value when it shows the user's text.
EXPLAIN_CUSTOM = "custom"


def send_to_explain(
    session: MutableMapping[Any, Any],
    candidate: str,
    references: Sequence[str],
    options: Any,
) -> None:
    """Put one segment and the settings it was scored with (a BleuOptions) into the Explain page's keys."""
    session[CANDIDATE] = candidate
    session[REFERENCES] = "\n".join(references)
    session[MAX_N] = options.max_order
    top = max(options.weights)
    for n in range(1, MAX_ORDER_LIMIT + 1):
        session[weight_key(n)] = round(options.weights[n - 1] / top, 4) if n <= options.max_order else 1.0
    session[TOKENIZE] = options.tokenize
    session[LOWERCASE] = options.lowercase
    session[SMOOTH] = options.smooth
    if options.smooth in ("floor", "add-k"):
        session[f"{SMOOTH_VALUE}_{options.smooth}"] = options.smooth_value
    session[EFFECTIVE] = True  # sentence BLEU as the Corpus page's segment table shows it
    session[PRESET] = EXPLAIN_CUSTOM
    session[HIGHLIGHT] = 1
    session[LOADED] = True


# ---------------------------------------------------------------------------------------------
# Round trips: what a page keeps while the user is on another page, and the way back.

#: Corpus page: the segment walked through (its number input) and the segment table's filters and order.
CORPUS_SEGMENT = "co_segment"
CORPUS_TABLE = ("co_sort", "co_ascending", "co_score_range", "co_length_range")
#: The corpus (a digest) whose segment table the kept values describe.
CORPUS_TABLE_FOR = KEPT + "co_table_for"
#: The Corpus page's what-if edits that differ from the file: {(corpus digest, segment index): edited text}.
CORPUS_EDITS = KEPT + "co_edits"
#: The corpus whose edits the editors on screen hold (a digest): another corpus gets its own edits.
CORPUS_EDITS_FOR = KEPT + "co_edits_for"
#: Explain's text came from the Corpus page (a :class:`CorpusOrigin`); the way back leads there.
FROM_CORPUS = "ex_from_corpus"
#: Explain's button back to the Corpus segment.
BACK_TO_CORPUS = "ex_back_to_corpus"
#: Set by that button: the run opens the Corpus page.
GO_CORPUS = "ex_go_corpus"
#: Compare's pairwise view: the segment shown, the pair it was chosen for, the scatter point last applied.
COMPARE_SEGMENT = "cmp_segment"
COMPARE_PAIR = KEPT + "cmp_pair"
COMPARE_PICKED = KEPT + "cmp_picked"


def edit_key(index: int) -> str:
    """The widget key of the what-if editor of segment ``index`` (0-based) on the Corpus page."""
    return f"co_edit_{index}"


@dataclass(frozen=True, slots=True)
class CorpusOrigin:
    """Where Explain's text came from: segment ``segment`` (1-based) of the Corpus page, edited or as in the file."""

    segment: int
    edited: bool


def kept_edit(session: Mapping[Any, Any], corpus: str, index: int) -> str | None:
    """The kept what-if edit of segment ``index`` of corpus ``corpus`` (a digest), if the user made one."""
    edits = session.get(CORPUS_EDITS)
    return edits.get((corpus, index)) if isinstance(edits, dict) else None


def keep_edit(session: MutableMapping[Any, Any], corpus: str, index: int, edited: str, original: str) -> None:
    """Keep the what-if edit of one segment for the session (an edit back to the file's line is dropped)."""
    edits = dict(session.get(CORPUS_EDITS) or {})
    if edited == original:
        edits.pop((corpus, index), None)
    else:
        edits[(corpus, index)] = edited
    session[CORPUS_EDITS] = edits


def tool_key(which: str, mode: str) -> str:
    """The selector of tool ``which`` ("first" or "second") on the Implementations page in ``mode``.

    One widget per mode: Streamlit gives a keyed selectbox its identity from the key alone, and the browser
    keeps showing the label it drew first, so one widget would still say ``sentence_bleu`` in corpus mode.
    """
    return f"im_{which}" if mode == IMPLEMENTATION_MODES[0] else f"im_{which}_{mode}"


def chosen_tool_key(which: str) -> str:
    """Where the chosen tool ``which`` is kept, whichever mode's selector chose it."""
    return f"{KEPT}im_{which}"
