"""Charts drawn from cached Vega-Lite specs.

``st.altair_chart`` turns the Altair chart into a Vega-Lite spec (validating it against the schema) on every
run.  A page rerun for a slider move redraws the same charts, so :func:`show` keeps the finished spec per
(builder, arguments, language) in ``st.cache_data`` and hands it to ``vega_lite_chart``, which is what
``altair_chart`` calls after the conversion (the spec comes from Altair's public ``to_dict``).  The builders
stay plain functions returning ``alt.Chart`` (tested without a browser); interactive charts with selections
still go through ``st.altair_chart``.
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Callable
from typing import Any

import altair as alt
import streamlit as st

from bleu_core.teach.explain import Explanation
from pages.shared.i18n import language

# The charts are drawn as Streamlit draws an Altair chart: without Altair's default theme (its 300 x 300 view
# would fight the page's widths) and with every row inline (a page bounds its rows, docs/limits.md).  The app owns
# its process, so these two Altair settings are made once, here.
alt.theme.enable("none")
alt.data_transformers.disable_max_rows()

#: The chart's width follows its column; its height stays the plot's (axes, title and legend come on top).
FIT_WIDTH = {"type": "fit-x", "contains": "padding"}
#: Specs kept per process (a few kB each), least recently drawn dropped first.
SPECS = 512


def counts_key(trace: Explanation) -> tuple[Any, ...]:
    """What a chart of a walkthrough can show: its settings and the numbers of each order, BP and the score (a few
    hundred bytes), not the trace with its tables and tokens (pickling a 200,000-token trace took seconds)."""
    orders = tuple(
        (o.order, o.matches, o.total, o.smoothed_matches, o.smoothed_total, o.precision, o.weight, o.log_term)
        for o in trace.orders
    )
    return ("explanation", trace.options, orders, trace.bp, trace.log_bp, trace.score, trace.no_unigram_match)


def _key_part(value: Any) -> Any:
    return counts_key(value) if isinstance(value, Explanation) else value


def chart_spec(build: Callable[..., Any], *args: Any, **kwargs: Any) -> dict[str, Any]:
    """The Vega-Lite spec of ``build(*args, **kwargs)``, built once per distinct arguments and language (a
    walkthrough's trace stands in the key as its counts, :func:`counts_key`)."""
    parts = (tuple(map(_key_part, args)), sorted((name, _key_part(v)) for name, v in kwargs.items()))
    digest = hashlib.blake2b(pickle.dumps(parts, protocol=5), digest_size=16).hexdigest()
    return _spec(build.__module__, build.__qualname__, language(), digest, build, args, kwargs)


@st.cache_data(max_entries=SPECS, show_spinner=False)
def _spec(
    module: str, name: str, lang: str, digest: str, _build: Callable[..., Any], _args: Any, _kwargs: Any
) -> dict[str, Any]:
    """Keyed by the builder's name, the language and the arguments' digest (the underscored arguments are not
    hashed: Streamlit skips them)."""
    spec: dict[str, Any] = _build(*_args, **_kwargs).to_dict()
    return spec


def show(where: Any, build: Callable[..., Any], *args: Any, width: Any = "stretch", **kwargs: Any) -> None:
    """Draw ``build(*args, **kwargs)`` in ``where`` (``st``, a column, a tab) from the cached spec."""
    spec = chart_spec(build, *args, **kwargs)
    if width == "stretch" and "autosize" not in spec:
        # Stretched, Streamlit fits the whole chart into its height, so a legend below and a long title squeezed
        # the plot to a few pixels (or to nothing); fitted in width only, the height is the plot's own.
        spec = {**spec, "autosize": FIT_WIDTH}
    where.vega_lite_chart(spec=spec, width=width)
