"""The compare page's promise: once statistics are cached, a 1,000-sample paired bootstrap of five systems
over about 2,000 segments takes well under a second."""

from __future__ import annotations

import time

import pytest

from bleu_core import make_options, paired_test_from_stats, prepare_references, segment_statistics
from tests.conftest import Pair, read_plain


def test_bootstrap_of_five_cached_systems_is_well_under_a_second(pairs: list[Pair]) -> None:
    pair = next((p for p in pairs if len(p.systems) >= 5 and p.tokenize == "13a"), None)
    if pair is None:
        pytest.skip("no WMT22 pair with five systems in the data folder")
    options = make_options()
    prepared = prepare_references([read_plain(r) for r in pair.references[:1]], tokenize="13a", max_order=4)
    stats = {p.name: segment_statistics(read_plain(p), prepared) for p in pair.systems[:5]}
    assert min(len(s) for s in stats.values()) >= 1400
    timings = []
    for _ in range(3):
        started = time.perf_counter()
        results = paired_test_from_stats(stats, options, test="bs", n_samples=1000)
        timings.append(time.perf_counter() - started)
    assert len(results) == 5 and all(r.p_value is not None for r in list(results.values())[1:])
    assert sorted(timings)[1] < 0.5, f"median {sorted(timings)[1]:.3f} s"
