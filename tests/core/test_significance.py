"""Paired tests and bootstrap intervals equal sacreBLEU 2.6's on real WMT22 systems: same p-values, same intervals."""

from __future__ import annotations

import itertools
import logging
from collections.abc import Iterator

import numpy as np
import pytest
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest, Result

import bleu_core
from bleu_core.compare.significance import (
    PairedResult,
    bootstrap_ci,
    bootstrap_ci_from_stats,
    paired_test,
    paired_test_from_stats,
    pairwise_p_values,
)
from tests.conftest import Pair, read_plain

CI_TOLERANCE = 1e-9  # mean and half-width on the 0-100 scale (float32 emulation makes them agree to ~1e-14)
SCORE_TOLERANCE = 1e-9
#: Systems within about two BLEU points of each other, so that p-values are not all at their floor.
CLOSE_SYSTEMS = {
    "de-en": ["Online-Y", "JDExploreAcademy", "Online-G", "Online-B", "PROMT"],
    "en-zh": ["Online-Y", "JDExploreAcademy", "Online-A", "AISP-SJTU", "Manifold"],
}

Corpus = tuple[Pair, list[list[str]], dict[str, list[str]]]


@pytest.fixture(autouse=True)
def _sacrebleu_defaults(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """sacreBLEU seeds from SACREBLEU_SEED (default 12345); make sure the environment does not change it."""
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    yield


def load(pairs: list[Pair], name: str, systems: list[str] | None = None) -> Corpus:
    pair = next(p for p in pairs if p.name == name)
    refs = [read_plain(path) for path in pair.references]
    named = {path.name.split(".")[-2]: path for path in pair.systems}
    chosen = systems if systems is not None else sorted(named)
    return pair, refs, {system: read_plain(named[system]) for system in chosen}


@pytest.fixture(scope="module", params=sorted(CLOSE_SYSTEMS))
def corpus(request: pytest.FixtureRequest, pairs: list[Pair]) -> Corpus:
    return load(pairs, request.param, CLOSE_SYSTEMS[request.param])


def sacrebleu_paired(
    systems: dict[str, list[str]], refs: list[list[str]], baseline: str, test: str, n_samples: int, **bleu: object
) -> dict[str, Result]:
    """sacreBLEU's PairedTest (its CLI path: references cached in the metric), baseline first."""
    ordered = [(baseline, systems[baseline])] + [(name, hyps) for name, hyps in systems.items() if name != baseline]
    metric = BLEU(references=refs, **bleu)
    _, scores = PairedTest(ordered, {"BLEU": metric}, None, test_type=test, n_samples=n_samples)()
    return dict(zip(scores["System"], scores["BLEU"], strict=True))  # type: ignore[arg-type]


def assert_same(ours: dict[str, PairedResult], theirs: dict[str, Result], with_ci: bool) -> None:
    assert list(ours) == list(theirs)
    for name, mine in ours.items():
        sacre = theirs[name]
        assert abs(100 * mine.score - sacre.score) <= SCORE_TOLERANCE, name
        assert mine.p_value == sacre.p_value, name
        if with_ci:
            assert mine.mean is not None and mine.ci is not None
            assert abs(100 * mine.mean - sacre.mean) <= CI_TOLERANCE, name  # type: ignore[operator]
            assert abs(100 * mine.ci - sacre.ci) <= CI_TOLERANCE, name  # type: ignore[operator]
        else:
            assert mine.mean is None and mine.ci is None and sacre.mean is None and sacre.ci is None


def test_paired_bootstrap_equals_sacrebleu(corpus: Corpus) -> None:
    pair, refs, systems = corpus
    for baseline in list(systems)[:2]:  # the first system, and one given by name
        ours = paired_test(systems, refs, baseline=baseline, test="bs", tokenize=pair.tokenize)
        theirs = sacrebleu_paired(systems, refs, baseline, "bs", 1000, tokenize=pair.tokenize)
        assert_same(ours, theirs, with_ci=True)


def test_paired_approximate_randomization_equals_sacrebleu(corpus: Corpus) -> None:
    pair, refs, systems = corpus
    baseline = next(iter(systems))
    ours = paired_test(systems, refs, test="ar", n_samples=1000, tokenize=pair.tokenize)
    theirs = sacrebleu_paired(systems, refs, baseline, "ar", 1000, tokenize=pair.tokenize)
    assert_same(ours, theirs, with_ci=False)
    assert any(0.01 < result.p_value < 1 for result in theirs.values() if result.p_value is not None)


def test_bootstrap_ci_equals_sacrebleu_confidence(corpus: Corpus) -> None:
    pair, refs, systems = corpus
    for hyps in list(systems.values())[:2]:
        theirs = BLEU(tokenize=pair.tokenize).corpus_score(hyps, refs, n_bootstrap=1000)
        mean, ci = bootstrap_ci(hyps, refs, tokenize=pair.tokenize)
        assert abs(100 * mean - theirs._mean) <= CI_TOLERANCE
        assert abs(100 * ci - theirs._ci) <= CI_TOLERANCE


# Tiny corpora make zero-match orders, smoothing and effective order matter in many resamples.
OPTION_GRID = [
    {"smooth": smooth, "smooth_value": value, "max_order": order, "effective_order": effective, "lowercase": lower}
    for (smooth, value), order, effective, lower in itertools.product(
        [("none", None), ("floor", None), ("floor", 0.3), ("add-k", None), ("add-k", 0.5), ("exp", None)],
        [1, 2, 4, 6],
        [False, True],
        [False, True],
    )
    if not (lower and order in (1, 6))
]


@pytest.mark.parametrize("options", OPTION_GRID, ids=lambda o: "-".join(str(v) for v in o.values()))
def test_every_option_on_tiny_corpora(pairs: list[Pair], options: dict) -> None:
    _, refs, systems = load(pairs, "de-en", ["Online-Y", "JDExploreAcademy", "LT22"])
    start = 40
    refs = [ref[start : start + 8] for ref in refs]
    systems = {name: hyps[start : start + 8] for name, hyps in systems.items()}
    sacre = {
        "smooth_method": options["smooth"],
        "smooth_value": options["smooth_value"],
        "max_ngram_order": options["max_order"],
        "effective_order": options["effective_order"],
        "lowercase": options["lowercase"],
    }
    ours = paired_test(systems, refs, test="bs", n_samples=300, **options)
    assert_same(ours, sacrebleu_paired(systems, refs, "Online-Y", "bs", 300, **sacre), with_ci=True)
    # sacreBLEU truncates a fractional add-k value to an integer inside AR trials only; we do not copy that.
    if options["smooth_value"] != 0.5:
        ours = paired_test(systems, refs, test="ar", n_samples=300, **options)
        assert_same(ours, sacrebleu_paired(systems, refs, "Online-Y", "ar", 300, **sacre), with_ci=False)
    hyps = systems["LT22"]
    theirs = BLEU(**sacre).corpus_score(hyps, refs, n_bootstrap=300)  # type: ignore[arg-type]
    mean, ci = bootstrap_ci(hyps, refs, 300, **options)
    assert abs(100 * mean - theirs._mean) <= CI_TOLERANCE
    assert abs(100 * ci - theirs._ci) <= CI_TOLERANCE


@pytest.fixture(scope="module")
def cached(pairs: list[Pair]) -> tuple[dict[str, bleu_core.SegmentStats], bleu_core.BleuOptions, Corpus]:
    pair, refs, systems = load(pairs, "de-en", CLOSE_SYSTEMS["de-en"][:4])
    options = bleu_core.make_options(tokenize=pair.tokenize)
    prepared = bleu_core.prepare_references(refs, tokenize=pair.tokenize)
    stats = {name: bleu_core.segment_statistics(hyps, prepared) for name, hyps in systems.items()}
    return stats, options, (pair, refs, systems)


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_pairwise_p_values_are_the_paired_tests_of_every_baseline(cached: tuple, test: str) -> None:
    stats, options, _ = cached
    matrix = pairwise_p_values(stats, options, test, 500)
    assert set(matrix) == {(a, b) for a in stats for b in stats if a != b}
    for baseline in stats:
        results = paired_test_from_stats(stats, options, baseline=baseline, test=test, n_samples=500)
        for name, result in results.items():
            if name != baseline:
                assert matrix[baseline, name] == matrix[name, baseline] == result.p_value


def test_text_and_cached_statistics_give_the_same_results(cached: tuple) -> None:
    stats, options, (pair, refs, systems) = cached
    for test in ("bs", "ar"):
        from_text = paired_test(systems, refs, test=test, n_samples=200, seed=7, tokenize=pair.tokenize)
        assert from_text == paired_test_from_stats(stats, options, test=test, n_samples=200, seed=7)
    hyps = next(iter(systems.values()))
    assert bootstrap_ci(hyps, refs, 200, 7, tokenize=pair.tokenize) == bootstrap_ci_from_stats(
        next(iter(stats.values())), options, 200, 7
    )


def test_same_seed_same_result_other_seed_other_samples(cached: tuple) -> None:
    stats, options, _ = cached
    for test in ("bs", "ar"):
        first = paired_test_from_stats(stats, options, test=test, n_samples=300, seed=3)
        assert first == paired_test_from_stats(stats, options, test=test, n_samples=300, seed=3)
        assert first != paired_test_from_stats(stats, options, test=test, n_samples=300, seed=4)
    system = next(iter(stats.values()))
    assert bootstrap_ci_from_stats(system, options, 300, 3) == bootstrap_ci_from_stats(system, options, 300, 3)
    assert bootstrap_ci_from_stats(system, options, 300, 3) != bootstrap_ci_from_stats(system, options, 300, 4)


def test_explicit_equal_weights_agree_with_the_default(cached: tuple) -> None:
    # Non-uniform weights have no sacreBLEU counterpart; equal ones must give the default test to rounding.
    stats, options, _ = cached
    weighted = bleu_core.make_options(weights=[1, 1, 1, 1])
    for test in ("bs", "ar"):
        plain = paired_test_from_stats(stats, options, test=test, n_samples=300)
        explicit = paired_test_from_stats(stats, weighted, test=test, n_samples=300)
        for name, result in plain.items():
            other = explicit[name]
            assert other.p_value == result.p_value
            assert other.score == pytest.approx(result.score, abs=1e-14)
            if test == "bs":
                assert other.mean == pytest.approx(result.mean, abs=1e-12)
                assert other.ci == pytest.approx(result.ci, abs=1e-12)


def test_progress_is_reported_a_few_times_and_ends_at_one(cached: tuple) -> None:
    stats, options, (pair, refs, systems) = cached
    for run in (
        lambda seen: paired_test(systems, refs, n_samples=100, tokenize=pair.tokenize, progress=seen.append),
        lambda seen: paired_test_from_stats(stats, options, test="ar", n_samples=100, progress=seen.append),
        lambda seen: pairwise_p_values(stats, options, "bs", 100, progress=seen.append),
    ):
        seen: list[float] = []
        run(seen)
        assert 3 <= len(seen) <= 21
        assert seen == sorted(seen) and seen[0] >= 0 and seen[-1] == 1.0


def test_a_system_against_itself_gets_the_smallest_p_value_as_in_sacrebleu() -> None:
    # sacreBLEU (after multeval) counts strictly larger differences, so a zero difference is never "by chance".
    hyps = ["the cat sat on the mat", "a dog barked at the moon", "it rained all day"]
    refs = [["the cat sat on a mat", "the dog barked at the moon", "it rained the whole day"]]
    for test in ("bs", "ar"):
        results = paired_test({"A": hyps, "B": list(hyps)}, refs, test=test, n_samples=99)
        assert results["B"].p_value == 1 / 100
        assert results["A"].score == results["B"].score


HYPS = ["the cat sat", "a dog"]
REFS = [["the cat sat down", "a dog barked"]]


@pytest.mark.parametrize(
    ("kwargs", "error", "fragment"),
    [
        ({"baseline": "C"}, ValueError, "unknown baseline 'C'"),
        ({"test": "t-test"}, ValueError, "unknown test"),
        ({"n_samples": 0}, ValueError, "at least 1"),
        ({"n_samples": -5}, ValueError, "at least 1"),
        ({"n_samples": 2.5}, TypeError, "whole number"),
        ({"n_samples": True}, TypeError, "whole number"),
        ({"seed": -1}, ValueError, "at least 0"),
        ({"seed": "12345"}, TypeError, "whole number"),
        ({"seed": None}, TypeError, "whole number"),
        ({"progress": "yes"}, TypeError, "progress must be a callable"),
        ({"systems": {"A": HYPS}}, ValueError, "at least 2 systems"),
        ({"systems": {"A": HYPS, "B": HYPS[:1]}}, ValueError, "'B' has 1 lines but 'A' has 2"),
        ({"systems": [("A", HYPS), ("B", HYPS)]}, TypeError, "must map system names"),
        ({"systems": {"A": HYPS, "B": "the cat sat"}}, TypeError, "system 'B'"),
        ({"systems": {"A": HYPS, 2: HYPS}}, TypeError, "names must be str"),
        ({"systems": {"A": [], "B": []}, "references": [[]]}, ValueError, "no segments"),
        ({"references": [["only one"]]}, ValueError, "reference stream 1 has 1 lines"),
        ({"tokenize": "moses"}, ValueError, "unknown tokenizer"),
    ],
)
def test_paired_test_rejects_bad_input(kwargs: dict, error: type[Exception], fragment: str) -> None:
    arguments = {"systems": {"A": HYPS, "B": ["the cat", "a dog"]}, "references": REFS, **kwargs}
    systems, references = arguments.pop("systems"), arguments.pop("references")
    with pytest.raises(error, match=fragment):
        paired_test(systems, references, **arguments)


def test_statistics_entry_points_reject_bad_input() -> None:
    options = bleu_core.make_options()
    stats, _ = bleu_core.corpus_statistics(HYPS, REFS, options)
    short, _ = bleu_core.corpus_statistics(HYPS[:1], [REFS[0][:1]], options)
    two_orders, _ = bleu_core.corpus_statistics(HYPS, REFS, bleu_core.make_options(max_order=2))
    with pytest.raises(ValueError, match="'B' has 1 segments but 'A' has 2"):
        paired_test_from_stats({"A": stats, "B": short}, options)
    with pytest.raises(ValueError, match=r"2 n-gram orders but options\.max_order is 4"):
        pairwise_p_values({"A": stats, "B": two_orders}, options)
    with pytest.raises(TypeError, match="must be SegmentStats"):
        paired_test_from_stats({"A": stats, "B": [[1, 2]]}, options)  # type: ignore[dict-item]
    with pytest.raises(TypeError, match="BleuOptions"):
        paired_test_from_stats({"A": stats, "B": stats}, {"tokenize": "13a"})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown baseline"):
        paired_test_from_stats({"A": stats, "B": stats}, options, baseline="Z")
    with pytest.raises(ValueError, match="at least 1"):
        bootstrap_ci_from_stats(stats, options, n_samples=0)
    with pytest.raises(ValueError, match="at least 1"):
        bootstrap_ci(HYPS, REFS, n_samples=0)
    with pytest.raises(ValueError, match="no hypotheses"):
        bootstrap_ci([], [[]])


@pytest.mark.parametrize("scale", [1, 100, 1 << 22])
def test_resampled_sums_are_exact_in_float32_and_float64(scale: int) -> None:
    # Small statistics take the float32 product, large ones (sums that could reach 2^24) float64; both
    # must equal integer arithmetic exactly.
    from bleu_core.compare.resampling import chunked_sums

    rng = np.random.default_rng(7)
    n_segments = 300
    columns = rng.integers(0, 50, size=(n_segments, 10)) * scale + rng.integers(0, 7, size=(n_segments, 10))
    drawn = rng.choice(n_segments, size=(40, n_segments), replace=True)
    counts = np.stack([np.bincount(row, minlength=n_segments) for row in drawn])
    assert np.array_equal(chunked_sums(drawn, columns.astype(np.float64), indices=True), counts @ columns)
    mask = rng.integers(2, size=(40, n_segments), dtype=bool)
    assert np.array_equal(
        chunked_sums(mask, columns.astype(np.float64), indices=False), mask.astype(np.int64) @ columns
    )
