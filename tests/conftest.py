"""Shared fixtures: the WMT22 data beside the repository (skipped with a reason when absent)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("slow", max_examples=10_000, deadline=None, suppress_health_check=list(HealthCheck))
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

ROOT = Path(__file__).resolve().parent.parent
WMT22 = Path(os.environ.get("BLEU_WMT22", ROOT.parent / "shared" / "data" / "wmt22"))
SKIP_REASON = f"WMT22 data not found at {WMT22} (set BLEU_WMT22 to its folder to run these tests)"
#: Tokenizer the WMT22 organisers used per target language.
WMT_TOKENIZER = {"zh": "zh", "ja": "char"}


@dataclass(frozen=True)
class Pair:
    """One WMT22 language pair: its references and system outputs (file paths)."""

    name: str
    target: str
    references: tuple[Path, ...]
    systems: tuple[Path, ...]
    source: Path | None

    @property
    def tokenize(self) -> str:
        return WMT_TOKENIZER.get(self.target, "13a")


def wmt_pairs() -> list[Pair]:
    if not WMT22.is_dir():
        return []
    pairs = []
    for folder in sorted(p for p in WMT22.iterdir() if p.is_dir()):
        target = folder.name.split("-")[1]
        sources = sorted(folder.glob("*.src.*"))
        pairs.append(
            Pair(
                folder.name,
                target,
                tuple(sorted(folder.glob("*.ref.*"))),
                tuple(sorted(folder.glob("*.hyp.*"))),
                sources[0] if sources else None,
            )
        )
    return pairs


def read_plain(path: Path) -> list[str]:
    """Lines of a clean UTF-8 file, read the way sacreBLEU's CLI does."""
    with open(path, encoding="utf-8") as handle:
        return [line.rstrip("\n") for line in handle]


@pytest.fixture(scope="session")
def pairs() -> list[Pair]:
    found = wmt_pairs()
    if not found:
        pytest.skip(SKIP_REASON)
    return found
