"""The one scorer: in sacreBLEU's arithmetic (scale=PERCENT) it equals sacreBLEU's compute_bleu to the last
bits, for real scores (int statistics, float64) and for bootstrap resamples (float32 statistics, float32
precisions); on the 0-1 scale it is the same score divided by 100.

"To the last bits": the precisions are computed with sacreBLEU's operations in its order and agree exactly;
NumPy's vectorized exp and log may differ from the C library's math.exp / math.log by one unit in the last
place, so scores are compared with a relative tolerance of a few such units (1e-14).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from sacrebleu.metrics import BLEU

from bleu_core import make_options
from bleu_core.options import BleuOptions
from bleu_core.stats.scoring import PERCENT, score_statistics
from bleu_core.stats.segment_stats import SegmentStats

SMOOTHING = [("none", None), ("floor", None), ("floor", 0.3), ("add-k", None), ("add-k", 2.0), ("exp", None)]
#: A few units in the last place of a float64 (see the module docstring).
ULPS = 1e-14
GRID = list(itertools.product(SMOOTHING, [1, 2, 4, 6], [False, True]))


def random_rows(max_order: int, rows: int = 400, seed: int = 3) -> np.ndarray:
    """Statistics rows ``[hyp_len, ref_len, matches..., totals...]`` with many zero matches and zero totals."""
    rng = np.random.default_rng(seed)
    hyp_len = rng.integers(0, 40, size=rows)
    hyp_len[:20] = 0
    totals = np.maximum(hyp_len[:, None] - np.arange(max_order)[None, :], 0)
    matches = np.minimum(rng.integers(0, 12, size=(rows, max_order)) * rng.integers(0, 2, size=(rows, 1)), totals)
    matches[::7, 1:] = 0  # zero matches above unigrams: smoothing decides the score
    ref_len = np.maximum(hyp_len + rng.integers(-6, 8, size=rows), 0)
    return np.concatenate([hyp_len[:, None], ref_len[:, None], matches, totals], axis=1).astype(np.int64)


def sacrebleu_scores(rows: np.ndarray, options: BleuOptions, float32: bool) -> tuple[list[float], list[list[float]]]:
    """sacreBLEU's score and precisions of each row, from statistics as its significance code passes them."""
    metric = BLEU(
        smooth_method=options.smooth,
        smooth_value=options.smooth_value,
        max_ngram_order=options.max_order,
        effective_order=options.effective_order,
    )
    matrix = rows.astype(np.float32) if float32 else rows.tolist()
    results = [metric._compute_score_from_stats(row) for row in matrix]
    return [r.score for r in results], [[float(p) for p in r.precisions] for r in results]


@pytest.mark.parametrize(("smoothing", "max_order", "effective"), GRID)
@pytest.mark.parametrize("float32", [False, True], ids=["float64", "float32"])
def test_percent_scale_is_sacrebleus_arithmetic(
    smoothing: tuple[str, float | None], max_order: int, effective: bool, float32: bool
) -> None:
    smooth, value = smoothing
    options = make_options(smooth=smooth, smooth_value=value, max_order=max_order, effective_order=effective)
    rows = random_rows(max_order)
    stats = SegmentStats.from_matrix(rows, max_order)
    precision = np.float32 if float32 else np.float64
    ours = score_statistics(stats, options, precision=precision, scale=PERCENT)
    scores, precisions = sacrebleu_scores(rows, options, float32)
    assert ours.precisions.tolist() == precisions  # the same operations in the same float type: exactly equal
    np.testing.assert_allclose(ours.score, scores, rtol=ULPS, atol=0)


@pytest.mark.parametrize(("smoothing", "max_order", "effective"), GRID)
def test_unit_scale_is_the_percent_score_over_100(
    smoothing: tuple[str, float | None], max_order: int, effective: bool
) -> None:
    smooth, value = smoothing
    options = make_options(smooth=smooth, smooth_value=value, max_order=max_order, effective_order=effective)
    stats = SegmentStats.from_matrix(random_rows(max_order), max_order)
    unit = score_statistics(stats, options)
    percent = score_statistics(stats, options, scale=PERCENT)
    np.testing.assert_allclose(100 * unit.score, percent.score, rtol=1e-13, atol=0)
    np.testing.assert_allclose(100 * unit.precisions, percent.precisions, rtol=1e-13, atol=0)
    assert np.array_equal(unit.bp, percent.bp) and np.array_equal(unit.weights, percent.weights)
    assert np.array_equal(unit.smoothed_matches, percent.smoothed_matches)
    assert ((unit.score >= 0) & (unit.score <= 1)).all()


def test_zero_precision_with_a_positive_weight_scores_zero() -> None:
    # p_3 = 0 unsmoothed: log p_3 = -inf, so BLEU is 0 however small w_3 is.
    options = make_options(weights=[0.5, 0.5 - 1e-12, 1e-12], smooth="none")
    stats = SegmentStats.from_matrix(np.array([[10, 10, 8, 4, 0, 10, 9, 8]]), 3)
    for precision, scale in ((np.float64, 1.0), (np.float32, PERCENT), (np.float64, PERCENT)):
        arrays = score_statistics(stats, options, precision=precision, scale=scale)
        assert arrays.score[0] == 0.0
        assert arrays.log_terms[0, 2] == -np.inf


def test_arithmetic_arguments_are_checked() -> None:
    stats = SegmentStats.from_matrix(random_rows(4, rows=3), 4)
    with pytest.raises(ValueError, match="precision must be"):
        score_statistics(stats, make_options(), precision=np.float16)
    with pytest.raises(ValueError, match="scale must be"):
        score_statistics(stats, make_options(), scale=0.0)
