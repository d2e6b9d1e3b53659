"""The allocator setting: once per process at the first score, glibc only, off on request, and it saves page faults."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="the setting is for glibc only"
)

# Scores a synthetic corpus several times and reports the setting and the page faults of the later scores.
PROBE = """
import json, random, resource, sys
import bleu_core
from bleu_core.allocator import keep_freed_memory
before = keep_freed_memory.cache_info().currsize
rng = random.Random(0)
words = [f"w{i}" for i in range(3000)]
def line():
    return " ".join(rng.choice(words) for _ in range(rng.randint(5, 40)))
hyps = [line() for _ in range(4000)]
refs = [[line() for _ in range(4000)] for _ in range(2)]
bleu_core.corpus_bleu(hyps, refs)
start = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(4):
    bleu_core.corpus_bleu(hyps, refs)
faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - start
print(json.dumps({"before": before, "set": keep_freed_memory(), "faults": faults}))
"""


def probe(**env: str) -> dict[str, int]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("MALLOC_", "BLEU_CORE_", "GLIBC_TUNABLES"))}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env={**clean, **env}, capture_output=True, text=True, check=True, timeout=300
    )
    result: dict[str, int] = json.loads(done.stdout)
    return result


def test_set_at_the_first_score_and_it_saves_page_faults() -> None:
    tuned = probe()
    untouched = probe(BLEU_CORE_MALLOC="system")
    assert tuned["before"] == 0  # importing bleu_core changed nothing
    assert tuned["set"] and not untouched["set"]
    # Freed buffers stay in the heap, so later scores touch few new pages.
    assert tuned["faults"] < untouched["faults"] / 3, (tuned, untouched)


def test_the_environments_own_malloc_settings_win() -> None:
    assert not probe(MALLOC_TRIM_THRESHOLD_="1000000")["set"]
    assert not probe(MALLOC_MMAP_THRESHOLD_="1000000")["set"]
    assert not probe(GLIBC_TUNABLES="glibc.malloc.trim_threshold=1000000")["set"]
    assert probe(GLIBC_TUNABLES="glibc.rtld.optional_static_tls=1000")["set"]  # other tunables: still set


def test_other_systems_are_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from bleu_core import allocator

    monkeypatch.setattr(allocator.sys, "platform", "win32")
    allocator.keep_freed_memory.cache_clear()
    try:
        assert allocator.keep_freed_memory() is False
    finally:
        allocator.keep_freed_memory.cache_clear()
