"""Paired tests on TER (``bleu_core.compare.metrics.TerMetric``) against sacreBLEU 2.6's own ``PairedTest`` and ``TER``.

TER is an error rate: the best system has the lowest score, so the default baseline, the rank order, the clusters
and the metrics' disagreements point the other way.  Each is recomputed here by another route: sacreBLEU's paired
tests with each system as the baseline, its ``TER`` corpus scores, the cluster definition written out.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.ter import TER
from sacrebleu.significance import PairedTest

from bleu_core import make_options
from bleu_core.compare.metrics import TerMetric, bleu_table, metric, ter_table
from bleu_core.compare.paired import compare_metric, disagreements, paired_results
from bleu_core.compare.ranking import rank_systems
from bleu_core.compare.significance import _system_statistics
from bleu_core.stats import ter
from bleu_core.stats.progress import ProgressReporter
from bleu_core.teach.examples import DEMO_REFERENCES, DEMO_SYSTEMS

REFS = [list(stream) for stream in DEMO_REFERENCES]
SYSTEMS = {name: list(lines) for name, lines in DEMO_SYSTEMS.items()}


def _tables(systems: dict[str, list[str]], refs: list[list[str]]) -> tuple[TerMetric, dict[str, np.ndarray]]:
    tables = {}
    scorer = TerMetric()
    for name, hyps in systems.items():
        scorer, tables[name] = ter_table(ter.ter_statistics(hyps, refs, ter.TerOptions()), len(refs))
    return scorer, tables


def _theirs(systems: list[tuple[str, list[str]]], refs: list[list[str]], test: str, n: int) -> list[tuple]:
    _, scores = PairedTest(systems, {"TER": TER(references=refs)}, None, test, n)()
    return [
        (r.score, r.p_value, None if r.mean is None else float(r.mean), None if r.ci is None else float(r.ci))
        for r in scores["TER"]
    ]


def _random_corpus(seed: int, n_refs: int) -> tuple[dict[str, list[str]], list[list[str]]]:
    """Short segments, some references and hypotheses empty (resamples without reference words take sacreBLEU's
    Python-float branch)."""
    rng = random.Random(seed)
    words = ["a", "b", "c", "dd", "eee", "Ü", "猫", ",", "."]
    refs = [[" ".join(rng.choices(words, k=rng.choice([0, 0, 1, 3, 6]))) for _ in range(10)] for _ in range(n_refs)]
    systems = {
        name: [" ".join(w if rng.random() > noise else rng.choice(words) for w in ref.split()) for ref in refs[0]]
        for name, noise in (("x", 0.2), ("y", 0.5), ("z", 0.9))
    }
    return systems, refs


@pytest.mark.parametrize("test, n", [("bs", 300), ("ar", 400)])
@pytest.mark.parametrize("n_refs", [1, 2])
def test_paired_results_are_sacrebleus(test: str, n: int, n_refs: int) -> None:
    refs = REFS[:n_refs]
    scorer, tables = _tables(SYSTEMS, refs)
    assert paired_results(tables, scorer, test, n) == _theirs(list(SYSTEMS.items()), refs, test, n)


@pytest.mark.parametrize("seed", range(8))
def test_small_random_corpora_with_empty_segments(seed: int) -> None:
    n_refs = (1, 2, 4)[seed % 3]
    systems, refs = _random_corpus(seed, n_refs)
    scorer, tables = _tables(systems, refs)
    for test in ("bs", "ar"):
        assert paired_results(tables, scorer, test, 200) == _theirs(list(systems.items()), refs, test, 200)


def test_a_corpus_without_reference_words() -> None:
    """Every resample then scores 100 or 0 as Python floats in sacreBLEU (a float64 array)."""
    systems = {"x": ["a b", "", "c"], "y": ["", "", ""], "z": ["a", "b", ""]}
    refs = [["", "", ""]]
    scorer, tables = _tables(systems, refs)
    for test in ("bs", "ar"):
        assert paired_results(tables, scorer, test, 100) == _theirs(list(systems.items()), refs, test, 100)


def test_three_references_are_summed_exactly() -> None:
    """With three references the average lengths are thirds: the table is whole numbers of sixths, so a resample's
    sum is exact, where sacreBLEU's float32 sums round (the scores agree to float32's precision)."""
    systems, refs = _random_corpus(3, 3)
    scorer, tables = _tables(systems, refs)
    assert scorer.scale == 6
    stats = {name: ter.ter_statistics(hyps, refs, ter.TerOptions()) for name, hyps in systems.items()}
    for name, table in tables.items():
        assert np.array_equal(table / 6, np.rint(stats[name] * 6) / 6)
        assert np.allclose(table / 6, stats[name], rtol=0, atol=1e-12)
    ours = paired_results(tables, scorer, "bs", 200)
    theirs = _theirs(list(systems.items()), refs, "bs", 200)
    assert [row[0] for row in ours] == pytest.approx([row[0] for row in theirs], abs=1e-9)
    assert [row[2] for row in ours] == pytest.approx([row[2] for row in theirs], rel=1e-5)


def test_lower_is_better_in_the_verdict() -> None:
    """The default baseline is the lowest TER; ranks run from the lowest; a cluster ends where every system above
    is significantly better (lower) than every system below."""
    names = list(SYSTEMS)
    scorer, tables = _tables(SYSTEMS, REFS)
    comparison = compare_metric(tables, scorer, n_samples=400, seed=7)
    scores = {name: TER().corpus_score(SYSTEMS[name], REFS).score for name in names}
    assert dict(zip(comparison.names, comparison.scores, strict=True)) == pytest.approx(scores, abs=1e-9)
    best = min(scores, key=scores.__getitem__)
    assert comparison.baseline == best and not comparison.higher_is_better
    for d in comparison.differences:
        assert d.delta == pytest.approx(scores[d.system] - scores[best], abs=1e-9)
    # p-values: sacreBLEU with every system as the baseline
    theirs: dict[tuple[str, str], float] = {}
    for base in names:
        order = [(base, SYSTEMS[base])] + [(k, v) for k, v in SYSTEMS.items() if k != base]
        for (name, _), row in zip(order[1:], _theirs(order, REFS, "bs", 400)[1:], strict=True):
            theirs[base, name] = row[1]
    default_seed = compare_metric(tables, scorer, n_samples=400)
    assert default_seed.p_values == theirs
    ranks, _ = rank_systems(default_seed, 0.05, "none")
    assert [r.system for r in ranks] == sorted(names, key=lambda name: scores[name])
    better = {(a, b) for (a, b), p in theirs.items() if p < 0.05 and scores[a] < scores[b]}
    assert better, "the demo systems' TER differ significantly somewhere"
    ordered = sorted(names, key=lambda name: scores[name])
    cluster, expected, best_rank = 1, {}, {}
    for k, name in enumerate(ordered):
        expected[name] = cluster
        best_rank[name] = 1 + sum((other, name) in better for other in names)
        if all((a, b) in better for a in ordered[: k + 1] for b in ordered[k + 1 :]):
            cluster += 1
    assert {r.system: r.cluster for r in ranks} == expected
    assert {r.system: r.best for r in ranks} == best_rank


def test_disagreements_read_ter_the_right_way_round() -> None:
    """BLEU and TER disagree on a pair exactly when the higher BLEU has the higher TER."""
    rng = random.Random(5)
    systems = dict(SYSTEMS)
    systems["shuffled"] = [" ".join(rng.sample(line.split(), len(line.split()))) for line in REFS[0]]
    options = make_options()
    stats = _system_statistics(systems, REFS, options, ProgressReporter(None))
    bleu_tables = {k: bleu_table(s, options.max_order) for k, s in stats.items()}
    bleu = compare_metric(bleu_tables, metric("bleu", options), n_samples=200)
    scorer, tables = _tables(systems, REFS)
    ter_comparison = compare_metric(tables, scorer, n_samples=200)
    verdicts = {"BLEU": (bleu, rank_systems(bleu)[1]), "TER": (ter_comparison, rank_systems(ter_comparison)[1])}
    found = {frozenset((d.first_prefers, d.second_prefers)) for d in disagreements(verdicts, 0.05)}
    real_bleu = {k: BLEU().corpus_score(v, REFS).score for k, v in systems.items()}
    real_ter = {k: TER().corpus_score(v, REFS).score for k, v in systems.items()}
    names = list(systems)
    expected = {
        frozenset((a, b))
        for i, a in enumerate(names)
        for b in names[i + 1 :]
        if (real_bleu[a] - real_bleu[b]) * (real_ter[a] - real_ter[b]) > 0
    }
    assert found == expected and expected  # word order: BLEU falls far, TER's shifts forgive it


def test_metric_by_name() -> None:
    assert metric("ter").name == "TER" and not metric("ter").higher_is_better
    assert metric("ter", references=3) == TerMetric(6)
    assert metric("bleu").higher_is_better and metric("chrf").higher_is_better
