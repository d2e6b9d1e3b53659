"""The limits policy (bleu_core/limits.py): documented number by number; a significance request past it is
refused before anything is drawn, naming the numbers (at the limit the memory stays below 1 GB); a walkthrough
past it is summarized with its score and totals exact."""

from __future__ import annotations

import dataclasses
import pickle
import random
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from sacrebleu.metrics.bleu import BLEU

from bleu_core import SegmentStats, make_options
from bleu_core.compare.ranking import compare_from_stats, ranking_samples
from bleu_core.limits import (
    LIMITS,
    LimitExceeded,
    Limits,
    check_resamples,
    chrf_refused,
    resample_cells,
    resample_scores,
)
from bleu_core.teach.explain import explain

ROOT = Path(__file__).resolve().parents[2]


def systems(n_systems: int, n_segments: int) -> dict[str, SegmentStats]:
    rng = np.random.default_rng(7)
    out = {}
    for s in range(n_systems):
        lengths = rng.integers(10, 30, size=n_segments)
        matches = np.minimum(rng.integers(0, 10, size=(n_segments, 4)), (lengths[:, None] - np.arange(4)).clip(0))
        out[f"system {s}"] = SegmentStats.from_counts(matches, lengths, (lengths + 3)[:, None])
    return out


@pytest.mark.parametrize("field", [f.name for f in dataclasses.fields(Limits)])
def test_every_limit_is_documented_with_its_value(field: str) -> None:
    docs = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    value = getattr(LIMITS, field)
    row = next((line for line in docs.splitlines() if f"`{field}`" in line), None)
    assert row is not None, f"docs/limits.md does not name {field}"
    numbers = {int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", row)}
    assert value in numbers, f"docs/limits.md gives {field} without its value {value:,}"


def test_the_menu_choice_that_asked_for_gigabytes_is_refused_naming_the_numbers() -> None:
    """50 systems of 20 segments at α = 0.001: the ranking asks 2,450,000 resamples (~49 GB before the limit)."""
    samples = ranking_samples(50, 1000, 0.001, "holm")
    assert samples == 2_450_000
    with pytest.raises(LimitExceeded) as refused:
        check_resamples(samples, 50, 20)
    message = str(refused.value)
    # 2,450,000 x (20 + 50 x 10) cells of 8 bytes; the limit in MB; the most resamples that fit (3 M scores / 50)
    for number in ("2,450,000 resamples", "20 segments", "50 systems", "10,192 MB", "800 MB", "At most 60,000"):
        assert number in message


def test_a_refused_comparison_allocates_nothing() -> None:
    stats = systems(50, 20)
    tracemalloc.start()
    try:
        with pytest.raises(LimitExceeded):
            compare_from_stats(stats, make_options(), n_samples=2_450_000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000


def test_approximate_randomization_is_bounded_by_its_pairs() -> None:
    """AR scores both systems of every pair in every trial: 20 systems x 10,000 trials are 3.8 M scores."""
    assert resample_scores(10_000, 20, "ar") == 3_800_000
    with pytest.raises(LimitExceeded, match="trials of approximate randomization"):
        check_resamples(10_000, 20, 200, test="ar")
    check_resamples(10_000, 20, 200, test="bs")  # the bootstrap scores each system once per resample: fits


def test_the_cells_are_the_drawn_segments_and_the_kept_statistics() -> None:
    assert resample_cells(1000, 2, 1) == 1000 * (1 + 2 * 10)
    assert resample_cells(1000, 15, 2000, max_order=2) == 1000 * (2000 + 15 * 6)


def test_ordinary_requests_pass() -> None:
    """A WMT-sized test set: 15 systems x 2,000 segments, 1,000 resamples (and the α = 0.05 ranking's 5,000)."""
    check_resamples(1000, 15, 2000)
    check_resamples(ranking_samples(15, 1000, 0.05), 15, 2000)
    check_resamples(10_000, 5, 2000, test="ar")


def test_the_limits_are_parameters() -> None:
    tight = Limits(resample_cells=1000)
    with pytest.raises(LimitExceeded):
        compare_from_stats(systems(2, 100), make_options(), n_samples=10, limits=tight)
    assert compare_from_stats(systems(2, 100), make_options(), n_samples=5, limits=tight).n_samples == 5


PEAK = """
import resource, sys
import numpy as np
from bleu_core import make_options
from bleu_core.compare.ranking import compare_from_stats
sys.path.insert(0, {root!r})
from tests.core.test_limits import systems
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
compare_from_stats(systems({n_systems}, {n_segments}), make_options(), n_samples={samples}, test="bs")
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024)
"""


def test_the_largest_bootstrap_request_allowed_stays_under_a_gigabyte() -> None:
    """The costliest shape the limits let through: 2 systems of many segments, so that the drawn indices (8 bytes
    per resample and segment) take the whole cell budget. Measured in a fresh process (peak resident memory)."""
    n_systems, n_segments = 2, 2000
    samples = LIMITS.resample_cells // resample_cells(1, n_systems, n_segments)
    check_resamples(samples, n_systems, n_segments)
    code = PEAK.format(root=str(ROOT), n_systems=n_systems, n_segments=n_segments, samples=samples)
    grown = int(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    assert grown < 1_000_000_000


def long_pair(tokens: int) -> tuple[str, list[str]]:
    rng = random.Random(3)
    words = [f"w{i}" for i in range(300)] + ["the", "a"] * 50
    return " ".join(rng.choice(words) for _ in range(tokens)), [" ".join(rng.choice(words) for _ in range(tokens))]


@pytest.mark.parametrize("max_order", [1, 4])
def test_a_walkthrough_past_the_limit_is_summarized_with_exact_totals(max_order: int) -> None:
    """The score and every order's matches and total equal sacreBLEU's on the whole text; the tables keep their
    most frequent rows, the tokens and texts a preview; the trace stays small whatever the input's size."""
    candidate, references = long_pair(LIMITS.walkthrough_tokens * 5)
    trace = explain(candidate, references, max_order=max_order, smooth="exp")
    expected = BLEU(max_ngram_order=max_order, effective_order=True).sentence_score(candidate, references)
    assert trace.cut is not None and trace.cut.candidate_tokens == 5 * LIMITS.walkthrough_tokens
    assert trace.score_100 == pytest.approx(expected.score, abs=1e-9)
    assert [o.matches for o in trace.orders] == expected.counts
    assert [o.total for o in trace.orders] == expected.totals
    assert (trace.length.candidate_length, trace.length.chosen_length) == (expected.sys_len, expected.ref_len)
    for order in trace.orders:
        assert len(order.rows) <= LIMITS.summary_rows and order.spans == ()
        counts = [row.candidate_count for row in order.rows]
        assert counts == sorted(counts, reverse=True)
    assert len(trace.candidate_tokens) == LIMITS.walkthrough_tokens
    assert len(pickle.dumps(trace)) < 1_000_000


def test_a_walkthrough_within_the_limit_is_whole() -> None:
    candidate, references = long_pair(LIMITS.walkthrough_tokens)
    trace = explain(candidate, references)
    assert trace.cut is None and len(trace.candidate_tokens) == LIMITS.walkthrough_tokens
    assert sum(len(o.spans) for o in trace.orders) == sum(o.total for o in trace.orders)


def test_too_many_references_summarize_and_keep_the_columns_the_limit_allows() -> None:
    candidate = "the cat sat on the mat"
    references = [f"the cat sat on mat {k}" for k in range(LIMITS.walkthrough_references + 4)]
    references[-1] = "the cat sat on the mat"  # the only full match is in a reference past the columns shown
    trace = explain(candidate, references)
    assert trace.cut is not None and trace.cut.references == len(references)
    assert trace.score == 1.0  # clipping still counts every reference
    assert len(trace.references) == LIMITS.walkthrough_references
    assert all(len(row.reference_counts) == LIMITS.walkthrough_references for o in trace.orders for row in o.rows)


def test_metric_refusals_name_each_metric_past_its_limit_and_why() -> None:
    from bleu_core.compare.metrics import refusals

    systems = [["a b c", "d e"], ["a b", "d e f g"]]
    references = [["a b c", "d e f"]]
    assert refusals(systems, references) == {}
    few_segments = dataclasses.replace(LIMITS, chrf_segments=1)
    refused = refusals(systems, references, few_segments)
    assert sorted(refused) == ["chrf", "chrf++", "ter"]
    assert refused["chrf"].params == {"segments": "2", "limit": "1"}
    assert chrf_refused(2, few_segments) == refused["chrf"] and chrf_refused(1, few_segments) is None
    # TER: the words of all hypotheses (3 + 2 + 2 + 4 = 11) against its limit; chrF is still offered
    assert refusals(systems, references, dataclasses.replace(LIMITS, ter_words=11)) == {}
    ter_only = refusals(systems, references, dataclasses.replace(LIMITS, ter_words=10))
    assert list(ter_only) == ["ter"] and ter_only["ter"].key == "corpus.ter_too_many_words"
    # the longest reference of a segment counts too
    long_reference = refusals(systems, references, dataclasses.replace(LIMITS, ter_segment_words=3))
    assert long_reference["ter"].params == {"line": 2, "limit": 3}
