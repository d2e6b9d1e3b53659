"""The verdict core: differences to a baseline, corrected pairwise significance and rank ranges."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.significance import PairedTest

from bleu_core import make_options
from bleu_core.compare.ranking import (
    Difference,
    compare_from_stats,
    corrected_p_values,
    rank_ranges,
    rank_systems,
    ranking_samples,
    significantly_better,
)
from bleu_core.compare.significance import _system_statistics
from bleu_core.stats.progress import ProgressReporter
from bleu_core.teach.examples import DEMO_REFERENCES, DEMO_SYSTEMS

OPTIONS = make_options()
REFS = [list(stream) for stream in DEMO_REFERENCES]


def demo_stats() -> dict:
    systems = {k: list(v) for k, v in DEMO_SYSTEMS.items()}
    return _system_statistics(systems, REFS, OPTIONS, ProgressReporter(None))


def test_differences_and_p_values_are_sacrebleus() -> None:
    comparison = compare_from_stats(demo_stats(), OPTIONS, baseline="terse", n_samples=1000)
    order = [("terse", list(DEMO_SYSTEMS["terse"]))] + [(k, list(v)) for k, v in DEMO_SYSTEMS.items() if k != "terse"]
    _, scores = PairedTest(order, {"BLEU": BLEU(references=REFS)}, None, "bs", 1000)()
    expected = dict(zip(scores["System"], scores["BLEU"], strict=True))
    base = expected["terse"].score
    for d in comparison.differences:
        assert d.delta == pytest.approx(expected[d.system].score - base, abs=1e-9)
        if d.system != "terse":
            assert d.p_value == expected[d.system].p_value
            assert d.low is not None and d.high is not None and d.low <= d.high
    assert comparison.baseline == "terse"


def test_default_baseline_is_the_best_scoring_system() -> None:
    comparison = compare_from_stats(demo_stats(), OPTIONS, n_samples=100)
    assert comparison.baseline == comparison.names[int(np.argmax(comparison.scores))]


def test_holm_and_bonferroni_by_hand() -> None:
    names = ["a", "b", "c"]
    raw = {("a", "b"): 0.01, ("a", "c"): 0.04, ("b", "c"): 0.03}
    p = {**raw, **{(y, x): v for (x, y), v in raw.items()}}
    holm = corrected_p_values(p, names, "holm")
    assert holm["a", "b"] == pytest.approx(0.03)
    assert holm["b", "c"] == pytest.approx(0.06)
    assert holm["a", "c"] == pytest.approx(0.06)  # max(0.06, 1 * 0.04): monotone
    bonferroni = corrected_p_values(p, names, "bonferroni")
    assert bonferroni["a", "c"] == pytest.approx(0.12)
    with pytest.raises(ValueError, match="unknown correction"):
        corrected_p_values(p, names, "sidak")


def test_rank_ranges_and_clusters() -> None:
    scores = {"a": 30.0, "b": 29.0, "c": 25.0, "d": 10.0}
    better = {("a", "c"), ("a", "d"), ("b", "d"), ("c", "d"), ("b", "c")}
    ranks = {r.system: r for r in rank_ranges(scores, better)}
    assert [ranks[s].label for s in "abcd"] == ["1–2", "1–2", "3", "4"]
    assert [ranks[s].cluster for s in "abcd"] == [1, 1, 2, 3]
    ranks = {r.system: r for r in rank_ranges(scores, {("a", "d")})}
    assert [ranks[s].label for s in "abcd"] == ["1–3", "1–4", "1–4", "2–4"]
    assert [ranks[s].cluster for s in "abcd"] == [1, 1, 1, 1]


def test_ties_in_score_are_never_significant() -> None:
    assert significantly_better({("a", "b"): 0.0, ("b", "a"): 0.0}, {"a": 1.0, "b": 1.0}, 0.05) == set()


def test_rank_systems_on_the_demo() -> None:
    comparison = compare_from_stats(demo_stats(), OPTIONS, test="ar", n_samples=500)
    ranks, corrected = rank_systems(comparison, 0.05, "bonferroni")
    assert len(ranks) == 3 and all(1 <= r.best <= r.worst <= 3 for r in ranks)
    assert all(d.low is None for d in comparison.differences)
    assert set(corrected) == set(comparison.p_values)


def test_ranking_samples_let_a_corrected_p_value_fall_below_alpha() -> None:
    # 11 systems: 55 pairs; 1,000 samples give p >= 1/1001 and 55/1001 > 0.05, so nothing could be significant.
    needed = ranking_samples(11, 1000, 0.05, "holm")
    assert needed == 3000 and 55 / (needed + 1) < 0.05 / 2
    assert ranking_samples(3, 1000, 0.05, "holm") == 1000
    assert ranking_samples(11, 1000, 0.05, "none") == 1000
    assert ranking_samples(11, 50_000, 0.05, "bonferroni") == 50_000


def test_win_tie_loss_counts_each_segment_once() -> None:
    from bleu_core.compare.ranking import TIE_TOLERANCE, segment_outcomes, win_tie_loss

    differences = [3.0, -0.5, 0.0, TIE_TOLERANCE / 2, -TIE_TOLERANCE / 2, 2 * TIE_TOLERANCE, -7.25]
    assert segment_outcomes(differences).tolist() == [1, -1, 0, 0, 0, 1, -1]
    assert win_tie_loss(differences) == (2, 3, 2)
    assert win_tie_loss([]) == (0, 0, 0)


def test_split_verdicts_name_where_the_interval_and_the_test_part() -> None:
    """The demo systems' real comparison: a system is named exactly when its interval of Δ leaves 0 out and its
    corrected p-value is not below α, or the other way round (each read off the comparison directly)."""
    comparison = compare_from_stats(demo_stats(), OPTIONS, n_samples=300)
    for alpha in (0.01, 0.05, 0.2, 0.5):
        _, corrected = rank_systems(comparison, alpha, "holm")
        expected = set()
        for d in comparison.differences:
            if d.low is None or d.high is None:
                continue
            excludes_zero = d.low > 0 or d.high < 0
            if excludes_zero is not (corrected[comparison.baseline, d.system] < alpha):
                expected.add(d.system)
        assert set(comparison.split_verdicts(corrected, alpha)) == expected
    # a made-up comparison in which the two plainly part: the interval leaves 0 out, p is large
    parted = dataclasses.replace(comparison, differences=(Difference("x", 1.0, 0.5, 1.5, 0.9),))
    assert parted.split_verdicts({(comparison.baseline, "x"): 0.9}, 0.05) == ("x",)
    assert parted.split_verdicts({(comparison.baseline, "x"): 0.01}, 0.05) == ()
