"""The Explain page's link: every setting in the query string and back, with documented defaults.

A link reproduces what its sender saw.  Parameters (all optional):

| parameter | meaning | default when missing |
|---|---|---|
| ``preset`` | a built-in example (its text and settings; the other parameters override them) | none |
| ``candidate``, ``reference`` (repeated) | the text | the default example's text |
| ``max_n`` | largest n-gram order, 1-8 | 4 (or the weights' length) |
| ``weights`` | comma-separated, normalized to sum 1 | equal |
| ``tokenize`` | 13a, intl, zh, char, none | 13a |
| ``lowercase``, ``effective``, ``paper`` | 1 or 0 | 0 |
| ``smooth``, ``smooth_value`` | none, floor, add-k, exp; the floor / add-k value | none; 0.1 (floor), 1 (add-k) |
| ``metric`` | bleu, chrf, chrf++: the walkthrough shown (chrF's use sacreBLEU's defaults) | bleu |
| ``present``, ``step`` | presentation mode and its step (1-based) | 0; 1 |
| ``lang`` | en, zh (kept by :mod:`pages.shared.i18n`) | en |

A link with no parameter at all opens the default example with its own settings.  A link longer than
``LIMITS.link_chars`` (percent-encoded) is refused whole, and opens the default example.  Any string in any
parameter gives a value or a problem, never an exception; a problem quotes the value it rejects as a short,
Markdown-inert preview (:func:`pages.shared.views.echo`), since the page shows problems as Markdown.
Pure functions: no Streamlit.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from bleu_core.i18n import Message
from bleu_core.teach.examples import DEFAULT_PRESET, PRESET_BY_KEY, Preset
from pages.shared.state import MAX_ORDER_LIMIT, METRICS, SMOOTH_LABELS, TOKENIZER_LABELS, link_too_long
from pages.shared.views import echo

#: Settings a link leaves out take these values (not the default example's).
DEFAULTS: dict[str, Any] = {
    "max_order": 4,
    "weights": None,
    "tokenize": "13a",
    "lowercase": False,
    "smooth": "none",
    "smooth_value": None,
    "effective_order": False,
    "paper": False,
}
SMOOTH_VALUE_DEFAULTS = {"floor": 0.1, "add-k": 1.0}
SMOOTH_VALUE_LIMITS = {"floor": 1.0, "add-k": 100.0}
#: The parameters this page writes; any other parameter in the link (``lang``, another mode's) is kept as it is.
OWN = frozenset(
    [
        "preset",
        "candidate",
        "reference",
        "max_n",
        "weights",
        "tokenize",
        "lowercase",
        "smooth",
        "smooth_value",
        "effective",
        "paper",
        "metric",
        "present",
        "step",
    ]
)
TRUE = ("1", "true", "yes", "on")
#: A whole number in a link: ASCII digits only (``str.isdigit`` also takes "²", which ``int`` refuses).
_WHOLE = re.compile(r"[0-9]+")
#: Significant digits read from a whole number; a longer one (``int`` refuses more than 4,300 digits) counts
#: as larger than any setting it could give.
_WHOLE_DIGITS = 9


def preset_values(preset: Preset) -> dict[str, Any]:
    """A preset's text and complete settings."""
    options = preset.options()
    weights = list(options["weights"]) if "weights" in options else None
    return {
        "candidate": preset.candidate,
        "references": list(preset.references),
        "max_order": options.get("max_order", len(weights) if weights else 4),
        "weights": weights,
        "tokenize": options["tokenize"],
        "lowercase": options.get("lowercase", False),
        "smooth": options["smooth"],
        "smooth_value": options.get("smooth_value"),
        "effective_order": options["effective_order"],
        "paper": preset.paper,
    }


def whole_number(raw: str) -> int | None:
    """``raw`` as a whole number (ASCII digits), None if it is not one; above 10**9 it reads as 10**9."""
    if not _WHOLE.fullmatch(raw):
        return None
    digits = raw.lstrip("0") or "0"
    return int(digits) if len(digits) <= _WHOLE_DIGITS else 10**_WHOLE_DIGITS


def _last(params: Mapping[str, list[str]], key: str) -> str | None:
    values = params.get(key) or []
    return values[-1] if values else None


def _weights(raw: str, problems: list[Message]) -> list[float] | None:
    try:
        weights = [float(w) for w in raw.split(",") if w.strip()]
    except ValueError:
        problems.append(Message("explain.bad_weights_numbers", {"value": echo(raw)}))
        return None
    if not weights or len(weights) > MAX_ORDER_LIMIT:
        problems.append(Message("explain.bad_weights_count", {"limit": MAX_ORDER_LIMIT, "value": echo(raw)}))
        return None
    if any(not math.isfinite(w) or w < 0 for w in weights) or sum(weights) <= 0:
        problems.append(Message("explain.bad_weights", {"value": echo(raw)}))
        return None
    return weights


def _choices(params: Mapping[str, list[str]], values: dict[str, Any], problems: list[Message]) -> None:
    for key, allowed in (("tokenize", TOKENIZER_LABELS), ("smooth", SMOOTH_LABELS), ("metric", METRICS)):
        raw = _last(params, key)
        if raw is None:
            continue
        if raw in allowed:
            values[key] = raw
        else:
            problems.append(
                Message("explain.bad_choice", {"name": key, "allowed": ", ".join(allowed), "value": echo(raw)})
            )
    for key, name in (("lowercase", "lowercase"), ("effective", "effective_order"), ("paper", "paper")):
        raw = _last(params, key)
        if raw is not None:
            values[name] = raw.strip().lower() in TRUE


def _smooth_value(raw: str, smooth: str, problems: list[Message]) -> float | None:
    high = SMOOTH_VALUE_LIMITS.get(smooth, 100.0)
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not (math.isfinite(value) and 0 <= value <= high):
        problems.append(
            Message("explain.bad_number", {"name": "smooth_value", "low": 0, "high": f"{high:g}", "value": echo(raw)})
        )
        return None
    return value


def parse_link(params: Mapping[str, list[str]]) -> tuple[dict[str, Any], list[Message]]:
    """The values a link gives (only those it gives) and what is wrong with it; never raises."""
    if (too_long := link_too_long(params)) is not None:
        return {}, [too_long]
    values: dict[str, Any] = {}
    problems: list[Message] = []
    preset = _last(params, "preset")
    if preset is not None:
        if preset in PRESET_BY_KEY:
            values["preset"] = preset
        else:
            problems.append(Message("explain.bad_preset", {"value": echo(preset)}))
    if _last(params, "candidate") is not None:
        values["candidate"] = _last(params, "candidate")
    if params.get("reference"):
        values["references"] = [ref for ref in params["reference"] if ref.strip()]
    raw = _last(params, "max_n")
    if raw is not None:
        if (max_n := whole_number(raw)) is not None and 1 <= max_n <= MAX_ORDER_LIMIT:
            values["max_order"] = max_n
        else:
            problems.append(
                Message("explain.bad_max_n", {"name": "max_n", "limit": MAX_ORDER_LIMIT, "value": echo(raw)})
            )
    raw = _last(params, "weights")
    if raw is not None and (weights := _weights(raw, problems)) is not None:
        values["weights"] = weights
        if values.setdefault("max_order", len(weights)) != len(weights):
            problems.append(Message("explain.weights_disagree", {"n": len(weights)}))
            values["max_order"] = len(weights)
    _choices(params, values, problems)
    raw = _last(params, "smooth_value")
    if raw is not None:
        smooth = values.get("smooth", DEFAULTS["smooth"])
        if (value := _smooth_value(raw, smooth, problems)) is not None:
            values["smooth_value"] = value
    if _last(params, "present") is not None:
        values["present"] = (_last(params, "present") or "").strip().lower() in TRUE
    raw = _last(params, "step")
    if raw is not None:
        if (step := whole_number(raw)) is not None and step >= 1:
            values["step"] = step  # past the last step: the presentation shows the last
        else:
            problems.append(Message("explain.bad_step", {"value": echo(raw)}))
    return values, problems


def resolve(given: Mapping[str, Any]) -> dict[str, Any]:
    """Complete settings from what a link gives.

    No parameter: the default example as it is.  A preset: its text and settings, overridden by the link's.
    Otherwise :data:`DEFAULTS`, with the default example's text where the link has none.
    """
    if not given or set(given) <= {"present", "step", "metric"}:
        base = {**preset_values(DEFAULT_PRESET), "preset": DEFAULT_PRESET.key}
    elif "preset" in given:
        base = {**preset_values(PRESET_BY_KEY[given["preset"]]), "preset": given["preset"]}
    else:
        base = {
            **DEFAULTS,
            "candidate": DEFAULT_PRESET.candidate,
            "references": list(DEFAULT_PRESET.references),
            "preset": None,
        }
    values = {**base, "metric": "bleu", "present": False, "step": 1, **given}
    if "max_order" in given and "weights" not in given:
        values["weights"] = None  # the preset's weights were for its own max n
    return values


def build_link(values: Mapping[str, Any]) -> dict[str, str | list[str]]:
    """The query parameters of a page state (``values`` as :func:`resolve` returns them; weights as set)."""
    query: dict[str, str | list[str]] = {}
    if values.get("preset"):
        query["preset"] = values["preset"]
    query["candidate"] = values["candidate"]
    query["reference"] = list(values["references"])
    query["max_n"] = str(values["max_order"])
    weights = values.get("weights")
    if weights:
        query["weights"] = ",".join(f"{w:g}" for w in weights)
    query["tokenize"] = values["tokenize"]
    query["lowercase"] = "1" if values["lowercase"] else "0"
    query["smooth"] = values["smooth"]
    if values["smooth"] in SMOOTH_VALUE_DEFAULTS and values.get("smooth_value") is not None:
        query["smooth_value"] = f"{values['smooth_value']:g}"
    query["effective"] = "1" if values["effective_order"] else "0"
    query["paper"] = "1" if values["paper"] else "0"
    if values.get("metric", "bleu") != "bleu":  # BLEU, the page's first walkthrough, needs no parameter
        query["metric"] = values["metric"]
    if values.get("present"):
        query["present"] = "1"
        query["step"] = str(int(values.get("step", 1)))
    return query
