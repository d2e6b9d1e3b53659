"""Cached chart specs: Altair's own spec without its default theme, built once per input."""

from __future__ import annotations

import altair as alt
import pandas as pd

from bleu_core.teach.examples import DEFAULT_PRESET
from bleu_core.teach.explain import explain
from pages.shared import charts, views

calls: list[int] = []


def counted_bars(values: tuple[int, ...]) -> alt.Chart:
    calls.append(1)
    frame = pd.DataFrame({"x": list(range(len(values))), "y": list(values)})
    return alt.Chart(frame).mark_bar().encode(x="x:O", y="y:Q")


def test_spec_is_altairs_validated_spec_without_the_default_theme() -> None:
    trace = explain(DEFAULT_PRESET.candidate, list(DEFAULT_PRESET.references), **DEFAULT_PRESET.options())
    for build in (views.precision_chart, views.contribution_chart):
        spec = charts.chart_spec(build, trace)
        assert spec == build(trace).to_dict(validate=True)  # valid Vega-Lite, as altair_chart would check
        assert "view" not in spec.get("config", {})  # no 300 x 300 default view: the page sets the width
        assert all(rows for rows in spec["datasets"].values())  # the rows travel inline


def test_built_once_per_distinct_arguments() -> None:
    calls.clear()
    first = charts.chart_spec(counted_bars, (1, 2, 3))
    again = charts.chart_spec(counted_bars, (1, 2, 3))
    other = charts.chart_spec(counted_bars, (1, 2, 4))
    assert len(calls) == 2
    assert first == again
    assert first != other


class TinyChart:
    """A stand-in with a chart's ``to_dict``: the bound is about entries, and 513 real charts take seconds."""

    def __init__(self, k: int) -> None:
        calls.append(1)
        self.k = k

    def to_dict(self) -> dict[str, int]:
        return {"k": self.k}


def test_cache_is_bounded() -> None:
    """Past :data:`charts.SPECS` distinct charts the least recently drawn is built again."""
    charts._spec.clear()
    calls.clear()
    for k in range(charts.SPECS + 1):
        assert charts.chart_spec(TinyChart, k) == {"k": k}
    assert len(calls) == charts.SPECS + 1
    charts.chart_spec(TinyChart, charts.SPECS)  # the latest is kept
    assert len(calls) == charts.SPECS + 1
    charts.chart_spec(TinyChart, 0)  # the first was dropped
    assert len(calls) == charts.SPECS + 2
