"""The verdict's tables and charts without a browser: signed numbers, fitted axes, a heatmap for 20 systems."""

from __future__ import annotations

import json
from itertools import combinations

from bleu_core.compare.ranking import SystemRank, corrected_p_values, rank_ranges, significantly_better
from pages.compare_page import verdict_views
from pages.compare_page.report import nice_ticks


def domains(node: object) -> list[object]:
    if isinstance(node, dict):
        return ([node["domain"]] if "domain" in node else []) + [d for v in node.values() for d in domains(v)]
    if isinstance(node, list):
        return [d for v in node for d in domains(v)]
    return []


def test_signed_uses_a_real_minus_sign() -> None:
    assert verdict_views.signed(0.8249) == "+0.82"
    assert verdict_views.signed(-9.031) == "\u22129.03"
    assert verdict_views.signed(-0.001) == "0.00"


def test_verdict_states_the_direction() -> None:
    assert verdict_views.verdict(None, 0.0, 0.05) == verdict_views.BASE
    assert verdict_views.verdict(0.001, 0.8, 0.05) == verdict_views.BETTER
    assert verdict_views.verdict(0.001, -9.0, 0.05) == verdict_views.WORSE
    assert verdict_views.verdict(0.2, -9.0, 0.05) == verdict_views.SAME
    # After the correction over every pair: significant there, only uncorrected, or neither.
    assert verdict_views.corrected_verdict(None, None, 0.0, 0.05) == verdict_views.BASE
    assert verdict_views.corrected_verdict(0.001, 0.006, -2.0, 0.05) == verdict_views.WORSE
    assert verdict_views.corrected_verdict(0.031, 0.093, -0.6, 0.05) == verdict_views.UNCORRECTED
    assert verdict_views.corrected_verdict(0.2, 0.6, 0.4, 0.05) == verdict_views.SAME


def test_padded_domain_spans_the_data() -> None:
    low, high = verdict_views.padded_domain(92.1, 93.5)
    assert low < 92.1 < 93.5 < high and high - low < 5
    assert verdict_views.padded_domain(99.2, 100.0)[1] > 100  # unbounded, the margin runs past the scale
    assert verdict_views.padded_domain(99.2, 100.0, within=(0.0, 100.0)) == [98.7, 100.0]
    assert verdict_views.padded_domain(0.0, 0.4, within=(0.0, 100.0))[0] == 0.0


def twenty() -> tuple[dict[tuple[str, str], float], list[SystemRank]]:
    names = [f"system-with-a-long-name-{k:02d}" for k in range(20)]
    scores = {n: 40.0 - 0.7 * k for k, n in enumerate(names)}
    p_values: dict[tuple[str, str], float] = {}
    for i, j in combinations(range(20), 2):
        p_values[names[i], names[j]] = p_values[names[j], names[i]] = 0.0001 if j - i > 3 else 0.3
    corrected = corrected_p_values(p_values, names, "holm")
    return p_values, list(rank_ranges(scores, significantly_better(corrected, scores, 0.05)))


def test_heatmap_of_twenty_systems_is_sorted_marked_and_has_no_cell_text() -> None:
    p_values, ranks = twenty()
    corrected = corrected_p_values(p_values, [r.system for r in ranks], "holm")
    spec = verdict_views.heatmap(p_values, corrected, ranks, 0.05).to_dict()
    layers = spec["layer"]
    assert layers[0]["encoding"]["x"]["sort"] == [r.system for r in ranks]
    assert layers[0]["encoding"]["tooltip"]
    assert layers[1]["encoding"]["text"] == {"value": "*"}  # stars only, on significant cells
    data = next(iter(spec["datasets"].values()))
    assert any(row["significant"] for row in data) and not all(row["significant"] for row in data)
    assert [0, 100] not in domains(spec)


def test_rank_chart_axis_counts_systems_not_bleu() -> None:
    _, ranks = twenty()
    spec = verdict_views.rank_chart(ranks).to_dict()
    assert [0.5, 20.5] in domains(spec)
    assert json.dumps(spec).count("system-with-a-long-name-19") >= 1


def test_nice_ticks() -> None:
    assert nice_ticks(-35.5, 0.5) == [-30.0, -20.0, -10.0, 0.0]
    assert nice_ticks(0.5, 11.5)[0] == 2.0
