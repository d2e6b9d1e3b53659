"""The counting engine under glibc's malloc as a user's process has it: no environment variable set by us.

``bleu_core.stats.counting`` frees one block of just under 32 MiB when imported, which brings glibc's thresholds
to where a long-running program brings them; without it every corpus score faulted its temporaries in afresh.
Each side runs in a fresh process with the MALLOC_* variables removed, scoring a generated corpus five times; the
plain version is the same process with that one allocation skipped.  Where a threshold is fixed by the environment
(Dask's workers), the engine counts in small chunks instead.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from bleu_core.stats import counting

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import json, random, resource, sys
import numpy as np
if sys.argv[1] == "plain":  # the engine's import without its one large allocation
    real = np.empty
    np.empty = lambda shape, *a, **k: real(0, np.uint8) if shape == (32 << 20) - 8192 else real(shape, *a, **k)
import bleu_core
from bleu_core.stats import counting
if sys.argv[1] == "plain":
    np.empty = real
rng = random.Random(7)
words = [f"w{i}" for i in range(3000)]
refs = [[" ".join(rng.choices(words, k=rng.randint(5, 45))) for _ in range(3000)] for _ in range(2)]
hyps = [" ".join(w if rng.random() < 0.6 else rng.choice(words) for w in ref.split()) for ref in refs[0]]
bleu_core.corpus_bleu(hyps, refs)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
scores = [bleu_core.corpus_bleu(hyps, refs).score for _ in range(5)]
faults = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 5
print(json.dumps({"faults": faults, "scores": scores, "chunk": counting.chunk_segments_default()}))
"""


def _child(version: str, **env: str) -> dict:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    clean.update(env, PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", CHILD, version], capture_output=True, text=True, env=clean, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's malloc only")
def test_freed_block_spares_the_page_faults_and_changes_no_score() -> None:
    warm, plain = _child("warm"), _child("plain")
    assert warm["scores"] == plain["scores"]
    assert warm["faults"] * 10 < plain["faults"], (warm, plain)  # measured: about 20 against about 3,000


def test_fixed_thresholds_count_in_small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_", "MALLOC_MMAP_MAX_"):
        monkeypatch.delenv(name, raising=False)
    assert counting.chunk_segments_default() == counting.CHUNK_SEGMENTS
    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "65536")  # as Dask's nanny sets it in every worker
    assert counting.chunk_segments_default() == counting.SMALL_CHUNK_SEGMENTS
    hyps = ["the cat sat on the mat", "a dog", "", "x y z"] * 100
    refs = [["the cat is on the mat", "the dog", "nothing", "x y"] * 100]
    small, _ = counting.stream_statistics(hyps, refs)
    monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_")
    whole, _ = counting.stream_statistics(hyps, refs)
    for name in ("matches", "totals", "hyp_len", "ref_len"):
        assert (getattr(small, name) == getattr(whole, name)).all()


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's malloc only")
def test_a_dask_like_worker_counts_in_small_chunks() -> None:
    worker = _child("warm", MALLOC_TRIM_THRESHOLD_="65536")
    assert worker["chunk"] == counting.SMALL_CHUNK_SEGMENTS and worker["scores"] == _child("warm")["scores"]
