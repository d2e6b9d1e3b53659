"""Paired tests for any metric (``bleu_core.compare.paired``) against sacreBLEU 2.6's own ``PairedTest`` and ``CHRF``.

Every number the Compare page derives for chrF (delta, interval of the delta, p-value, corrected p-value, rank
cluster, the metrics' disagreements) is recomputed here by another route: sacreBLEU's paired tests with each
system as the baseline, its ``CHRF`` scoring the resampled segment indices, Holm's correction written out.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.metrics.ter import TER
from sacrebleu.significance import PairedTest

from bleu_core import make_options
from bleu_core.compare.metrics import (
    RESAMPLE,
    BleuMetric,
    ChrfMetric,
    bleu_table,
    chrf_tables_of,
    eps_smoothed_resamples,
    metric,
    metric_tables,
    segment_scores,
)
from bleu_core.compare.paired import (
    compare_metric,
    compare_metric_and_prefixes,
    disagreements,
    draw_metric,
    paired_results,
)
from bleu_core.compare.ranking import compare_from_stats, compare_from_stats_and_prefixes, rank_systems
from bleu_core.compare.significance import _system_statistics
from bleu_core.limits import LimitExceeded, Limits
from bleu_core.stats import chrf
from bleu_core.stats.progress import ProgressReporter
from bleu_core.teach.examples import DEMO_REFERENCES, DEMO_SYSTEMS

REFS = [list(stream) for stream in DEMO_REFERENCES]
SYSTEMS = {name: list(lines) for name, lines in DEMO_SYSTEMS.items()}
SETTINGS = [
    pytest.param(chrf.ChrfOptions(), id="chrF"),
    pytest.param(chrf.ChrfOptions(word_order=2), id="chrF++"),
    pytest.param(chrf.ChrfOptions(word_order=2, eps_smoothing=True, lowercase=True), id="chrF++-eps-lc"),
]


def _tables(options: chrf.ChrfOptions, systems: dict[str, list[str]], refs: list[list[str]]) -> dict:
    return {name: chrf.chrf_statistics(hyps, refs, options) for name, hyps in systems.items()}


def _sacrebleu_chrf(options: chrf.ChrfOptions, refs: list[list[str]]) -> CHRF:
    return CHRF(
        char_order=options.char_order,
        word_order=options.word_order,
        beta=int(options.beta),
        lowercase=options.lowercase,
        eps_smoothing=options.eps_smoothing,
        references=refs,
    )


def _theirs(systems: list[tuple[str, list[str]]], sacrebleu_metric: object, test: str, n: int) -> list[tuple]:
    _, scores = PairedTest(systems, {"m": sacrebleu_metric}, None, test, n)()
    column = next(key for key in scores if key != "System")
    return [
        (r.score, r.p_value, None if r.mean is None else float(r.mean), None if r.ci is None else float(r.ci))
        for r in scores[column]
    ]


def _random_corpus(seed: int) -> tuple[dict[str, list[str]], list[list[str]]]:
    rng = random.Random(seed)
    words = ["a", "b", "c", "dd", "eee", "ü", "猫", ",", "."]
    refs = [" ".join(rng.choices(words, k=rng.randint(0, 6))) for _ in range(12)]
    systems = {
        name: [" ".join(w if rng.random() > noise else rng.choice(words) for w in ref.split()) for ref in refs]
        for name, noise in (("x", 0.2), ("y", 0.5), ("z", 0.9))
    }
    return systems, [refs]


@pytest.mark.parametrize("options", SETTINGS)
@pytest.mark.parametrize("test, n", [("bs", 300), ("ar", 400)])
def test_paired_results_are_sacrebleus(options: chrf.ChrfOptions, test: str, n: int) -> None:
    ours = paired_results(_tables(options, SYSTEMS, REFS), ChrfMetric(options), test, n)
    assert ours == _theirs(list(SYSTEMS.items()), _sacrebleu_chrf(options, REFS), test, n)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("eps", [False, True])
@pytest.mark.parametrize("beta", [2, 0])
def test_small_random_corpora_with_empty_segments(seed: int, eps: bool, beta: int) -> None:
    """Resamples of mostly empty segments take sacreBLEU's Python-float branches (a float64 score array); with
    β = 0 and eps smoothing an order with reference n-grams and none in the hypothesis takes one too."""
    systems, refs = _random_corpus(seed)
    options = chrf.ChrfOptions(word_order=2 * (seed % 2), beta=beta, eps_smoothing=eps)
    for test in ("bs", "ar"):
        ours = paired_results(_tables(options, systems, refs), ChrfMetric(options), test, 200)
        assert ours == _theirs(list(systems.items()), _sacrebleu_chrf(options, refs), test, 200)


def _interval_by_sacrebleu(options: chrf.ChrfOptions, base: str, system: str, n: int, seed: int) -> tuple:
    """The delta's 95% interval from sacreBLEU's CHRF scoring each resample of segment indices."""
    scorer = _sacrebleu_chrf(options, REFS)
    stats = {name: np.array(scorer._extract_corpus_statistics(SYSTEMS[name], None), dtype="float32")
             for name in (base, system)}  # fmt: skip
    idxs = np.random.default_rng(seed).choice(len(REFS[0]), size=(n, len(REFS[0])), replace=True)
    scores = {
        name: np.array([scorer._compute_score_from_stats(s.sum(0)).score for s in table[idxs]])
        for name, table in stats.items()
    }
    differences = np.sort(scores[system] - scores[base])
    return float(differences[n // 40]), float(differences[n - n // 40 - 1])


def _holm(p_values: dict[tuple[str, str], float], names: list[str]) -> dict[tuple[str, str], float]:
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    ordered = sorted(pairs, key=lambda pair: p_values[pair])
    out, running = {}, 0.0
    for rank, pair in enumerate(ordered):
        running = max(running, min(1.0, (len(pairs) - rank) * p_values[pair]))
        out[pair] = out[pair[::-1]] = running
    return out


@pytest.mark.parametrize("options", SETTINGS[:2])
def test_comparison_numbers_by_another_route(options: chrf.ChrfOptions) -> None:
    names = list(SYSTEMS)
    comparison = compare_metric(_tables(options, SYSTEMS, REFS), ChrfMetric(options), n_samples=400, seed=7)
    theirs: dict[tuple[str, str], float] = {}
    scores: dict[str, float] = {}
    for base in names:
        order = [(base, SYSTEMS[base])] + [(k, v) for k, v in SYSTEMS.items() if k != base]
        rows = _theirs(order, _sacrebleu_chrf(options, REFS), "bs", 400)
        scores[base] = rows[0][0]
        for (name, _), row in zip(order[1:], rows[1:], strict=True):
            theirs[base, name] = row[1]
    # p-values: sacreBLEU with every system as the baseline (the seed is sacreBLEU's default; ours is another)
    ours_default = compare_metric(_tables(options, SYSTEMS, REFS), ChrfMetric(options), n_samples=400)
    assert ours_default.p_values == theirs
    assert dict(zip(comparison.names, comparison.scores, strict=True)) == scores
    best = max(scores, key=scores.__getitem__)
    assert comparison.baseline == best
    for d in comparison.differences:
        assert d.delta == scores[d.system] - scores[best]
        if d.system != best:
            assert (d.low, d.high) == _interval_by_sacrebleu(options, best, d.system, 400, 7)
    ranks, corrected = rank_systems(ours_default, 0.05, "holm")
    assert corrected == _holm(theirs, names)
    # clusters by the definition: a cluster ends where every system above beats every one below
    ordered = sorted(names, key=lambda name: -scores[name])
    better = {(a, b) for (a, b), p in corrected.items() if p < 0.05 and scores[a] > scores[b]}
    cluster, expected = 1, {}
    for k, name in enumerate(ordered):
        expected[name] = cluster
        if all((a, b) in better for a in ordered[: k + 1] for b in ordered[k + 1 :]):
            cluster += 1
    assert {r.system: r.cluster for r in ranks} == expected


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_bleu_through_the_protocol_is_compare_from_stats(test: str) -> None:
    options = make_options()
    stats = _system_statistics(SYSTEMS, REFS, options, ProgressReporter(None))
    direct = compare_from_stats(stats, options, test=test, n_samples=300)
    tables = {name: bleu_table(s, options.max_order) for name, s in stats.items()}
    generic = compare_metric(tables, BleuMetric(options), test=test, n_samples=300)
    assert generic == direct
    order = list(SYSTEMS.items())
    assert paired_results(tables, BleuMetric(options), test, 300) == _theirs(order, BLEU(references=REFS), test, 300)


def test_disagreements_by_another_route() -> None:
    refs = REFS
    systems = {**SYSTEMS, "typos": [" ".join(w + w[-1] for w in line.split()) for line in REFS[0]]}
    options = make_options()
    stats = _system_statistics(systems, refs, options, ProgressReporter(None))
    verdicts = {}
    for name in ("bleu", "chrf", "chrf++"):
        scorer = metric(name, options)
        if name == "bleu":
            tables = {k: bleu_table(s, options.max_order) for k, s in stats.items()}
        else:
            tables = _tables(scorer.options, systems, refs)  # type: ignore[attr-defined]
        comparison = compare_metric(tables, scorer, n_samples=200)
        verdicts[name] = (comparison, rank_systems(comparison)[1])
    found = {(d.first, d.second, frozenset((d.first_prefers, d.second_prefers))) for d in disagreements(verdicts, 0.05)}
    scorers = {"bleu": BLEU(), "chrf": CHRF(), "chrf++": CHRF(word_order=2)}
    real = {m: {k: s.corpus_score(v, refs).score for k, v in systems.items()} for m, s in scorers.items()}
    expected = set()
    names = list(systems)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            for j, m1 in enumerate(scorers):
                for m2 in list(scorers)[j + 1 :]:
                    d1, d2 = real[m1][a] - real[m1][b], real[m2][a] - real[m2][b]
                    if d1 * d2 < 0:
                        expected.add((m1, m2, frozenset((a, b))))
    assert found == expected and expected  # misspelled words split BLEU from chrF


def test_limits_count_a_metrics_columns() -> None:
    options = chrf.ChrfOptions(word_order=2)
    tables = _tables(options, SYSTEMS, REFS)
    segments = len(REFS[0])
    cells = 10 * (segments + len(SYSTEMS) * options.columns)
    compare_metric(tables, ChrfMetric(options), n_samples=10, limits=Limits(resample_cells=cells))
    with pytest.raises(LimitExceeded):
        compare_metric(tables, ChrfMetric(options), n_samples=10, limits=Limits(resample_cells=cells - 1))


def test_metric_names_and_bad_tables() -> None:
    assert [metric(name).name for name in ("bleu", "chrf", "chrf++")] == ["BLEU", "chrF2", "chrF2++"]
    with pytest.raises(ValueError, match="unknown metric"):
        metric("meteor")
    tables = _tables(chrf.ChrfOptions(), SYSTEMS, REFS)
    with pytest.raises(ValueError, match="columns"):
        compare_metric(tables, ChrfMetric(chrf.ChrfOptions(word_order=2)), n_samples=10)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("lowercase", [False, True])
def test_chrf_cut_from_chrf_pp_is_chrf(seed: int, lowercase: bool) -> None:
    """The Compare page counts the characters once when chrF and chrF++ are both shown."""
    systems, refs = _random_corpus(seed)
    options = make_options(lowercase=lowercase)
    chrf_metric, direct = metric_tables("chrf", systems, refs, options)
    _, wider = metric_tables("chrf++", systems, refs, options)
    cut = chrf_tables_of(wider, chrf_metric.options)  # type: ignore[attr-defined]
    assert direct.keys() == cut.keys()
    for name in direct:
        assert direct[name].shape == cut[name].shape and (direct[name] == cut[name]).all()


@pytest.mark.parametrize("word_order", [0, 2])
def test_beta_zero_with_eps_on_resamples_of_empty_hypotheses(word_order: int) -> None:
    """A resample holding only segments whose hypothesis is empty: with β = 0 every order's F is sacreBLEU's
    literal epsilon (its denominator β²·P + R is 0), a Python float that widens the scores to float64."""
    systems = {"x": ["", "d e", "x y"], "y": ["a b c", "", "f"], "z": ["", "", ""]}
    refs = [["a b c", "d e", "f g"]]
    options = chrf.ChrfOptions(word_order=word_order, beta=0, eps_smoothing=True)
    ours = paired_results(_tables(options, systems, refs), ChrfMetric(options), "bs", 300)
    assert ours == _theirs(list(systems.items()), _sacrebleu_chrf(options, refs), "bs", 300)


@pytest.mark.parametrize("beta", [0, 1, 2, 3])
@pytest.mark.parametrize("word_order", [0, 2])
def test_eps_smoothed_resamples_score_as_sacrebleu_scalar_by_scalar(beta: int, word_order: int) -> None:
    """Each row against sacreBLEU's own ``_compute_f_score`` on its float32 statistics: the same value to the last
    bit and the same type (float32, or a Python float where the row's first orders are its literal epsilons and
    no float32 term follows).  Rows mix orders without hypothesis or reference n-grams, without matches, and
    with them (the fuzzing found a resample whose first orders were epsilons: case 4201/35429)."""
    generator = np.random.default_rng(beta * 10 + word_order)
    options = chrf.ChrfOptions(word_order=word_order, beta=beta, eps_smoothing=True)
    rows = 3000
    hyp = generator.integers(0, 30, (rows, options.orders)) * (generator.random((rows, options.orders)) < 0.6)
    ref = generator.integers(0, 30, (rows, options.orders)) * (generator.random((rows, options.orders)) < 0.6)
    match = np.minimum(hyp, ref) * (generator.random((rows, options.orders)) < 0.5)
    # A sixth of the rows score a Python float in sacreBLEU: every order without a match and with n-grams on
    # both sides or on neither.
    plain = slice(0, rows // 6)
    ref[plain] = np.where(hyp[plain] > 0, np.maximum(ref[plain], 1), 0)
    match[plain] = 0
    sums = np.stack([hyp, ref, match], axis=-1).reshape(rows, -1).astype(np.int64)
    values, single = eps_smoothed_resamples(sums, options)
    scorer = CHRF(char_order=options.char_order, word_order=word_order, beta=beta, eps_smoothing=True)
    theirs = [scorer._compute_f_score(list(row)) for row in sums.astype(np.float32)]
    assert [float(t) for t in theirs] == values.tolist()
    assert [isinstance(t, np.float32) for t in theirs] == single.tolist()
    assert 0 < single.sum() < rows
    scores = ChrfMetric(options).scores(sums, RESAMPLE)
    assert scores.dtype == (np.float32 if single.all() else np.float64)
    assert scores.tolist() == np.array(theirs).tolist()


@pytest.mark.parametrize("name", ["chrf", "chrf++", "ter"])
@pytest.mark.parametrize("seed", range(3))
def test_segment_scores_are_sacrebleus_sentence_scores(name: str, seed: int) -> None:
    """Compare's segment view in chrF, chrF++ or TER: each segment's score equals sacreBLEU's ``sentence_score``
    of that segment (random corpora with one or two references, lowercased or not)."""
    systems, (first,) = _random_corpus(seed)
    refs = [first, [" ".join(reversed(line.split())) for line in first]][: 1 + seed % 2]
    options = make_options(lowercase=seed == 1)
    _, tables = metric_tables(name, systems, refs, options)
    ours = segment_scores(name, tables, options, len(refs))
    scorer = {
        "chrf": CHRF(lowercase=options.lowercase),
        "chrf++": CHRF(word_order=2, lowercase=options.lowercase),
        "ter": TER(),
    }[name]
    for system, lines in systems.items():
        theirs = [scorer.sentence_score(line, [stream[i] for stream in refs]).score for i, line in enumerate(lines)]
        assert ours[system].tolist() == theirs


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_a_prefix_of_the_draws_is_a_run_of_its_own(test: str) -> None:
    """The Compare page draws its ranking's samples once and takes its table's fewer samples as their first rows:
    each comparison must equal a separate run with that many samples, for BLEU and for every other metric."""
    options = make_options()
    stats = _system_statistics(SYSTEMS, REFS, options, ProgressReporter(None))
    runs = compare_from_stats_and_prefixes(stats, options, (1, 150, 299), test=test, n_samples=300, seed=7)
    assert [run.n_samples for run in runs] == [300, 1, 150, 299]
    for run in runs:
        assert run == compare_from_stats(stats, options, test=test, n_samples=run.n_samples, seed=7)
    for name in ("chrf++", "ter"):
        scorer, tables = metric_tables(name, SYSTEMS, REFS, options)
        runs = compare_metric_and_prefixes(tables, scorer, (150, 17), test=test, n_samples=300, seed=7)
        for run in runs:
            assert run == compare_metric(tables, scorer, test=test, n_samples=run.n_samples, seed=7)
    with pytest.raises(ValueError, match="at most n_samples=300"):
        compare_metric_and_prefixes(tables, scorer, (301,), test=test, n_samples=300)


def test_a_prefix_keeps_the_dtype_of_its_own_resamples() -> None:
    """sacreBLEU's chrF resamples are float32 unless one takes a Python-float branch (then the whole list is
    float64): a prefix before the first such resample is float32, as its own run's are."""
    parted = 0
    for seed in range(12):
        systems, refs = _random_corpus(seed)
        options = chrf.ChrfOptions()
        tables, scorer = _tables(options, systems, refs), ChrfMetric(options)
        for prefix in (5, 40, 120):
            full, first = draw_metric(list(tables.values()), scorer, "bs", 200, 3, ProgressReporter(None), (prefix,))
            alone = draw_metric(list(tables.values()), scorer, "bs", prefix, 3, ProgressReporter(None))[0]
            for mine, own, whole in zip(first.resampled, alone.resampled, full.resampled, strict=True):
                assert mine.dtype == own.dtype and mine.tobytes() == own.tobytes()
                parted += mine.dtype != whole.dtype
    assert parted  # some prefix is float32 where the whole draw is float64: the case this test is for
