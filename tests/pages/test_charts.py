"""Cached chart specs: the same Vega-Lite spec Streamlit's altair_chart would send, built once per input."""

from __future__ import annotations

import altair as alt
import pandas as pd
import pytest
from streamlit.elements.vega_charts import _convert_altair_to_vega_lite_spec

from bleu_core.teach.examples import DEFAULT_PRESET
from bleu_core.teach.explain import explain
from pages.shared import charts, views

calls: list[int] = []


def counted_bars(values: tuple[int, ...]) -> alt.Chart:
    calls.append(1)
    frame = pd.DataFrame({"x": list(range(len(values))), "y": list(values)})
    return alt.Chart(frame).mark_bar().encode(x="x:O", y="y:Q")


def test_spec_equals_streamlits_conversion() -> None:
    trace = explain(DEFAULT_PRESET.candidate, list(DEFAULT_PRESET.references), **DEFAULT_PRESET.options())
    for build in (views.precision_chart, views.contribution_chart):
        assert charts.chart_spec(build, trace) == _convert_altair_to_vega_lite_spec(build(trace))


def test_built_once_per_distinct_arguments() -> None:
    calls.clear()
    first = charts.chart_spec(counted_bars, (1, 2, 3))
    again = charts.chart_spec(counted_bars, (1, 2, 3))
    other = charts.chart_spec(counted_bars, (1, 2, 4))
    assert len(calls) == 2
    assert first is again
    assert first != other


def test_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(charts, "SPECS", 8)
    for k in range(20):
        charts.chart_spec(counted_bars, (k,))
    assert len(charts._SPECS) == 8
    assert charts.chart_spec(counted_bars, (19,)) is charts.chart_spec(counted_bars, (19,))
