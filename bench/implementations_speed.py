"""Implementations in corpus mode against sacreBLEU's bare corpus score: ``python -m bench.implementations_speed``.

One WMT22 system with one reference (de-en by default).  In one process, timed with ``perf_counter``:

* sacreBLEU: ``BLEU(tokenize="13a").corpus_score(hyps, [ref])``;
* ours: what the page computes on a corpus-mode view: every tool's corpus score and the waterfalls from
  sacreBLEU to every tool (the scores table's attribution), then a chosen pair not starting at sacreBLEU
  (NLTK to MATLAB: the default pair from sacreBLEU reuses the table's waterfall) and its first differing
  segment.  Streamlit's own overhead is not included.

The target (issue 30) is ours <= 3 x sacreBLEU.  Each side runs ``--runs`` times; the report gives the medians.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

from sacrebleu.metrics.bleu import BLEU

from bleu_core.gaps.waterfall import PIPELINE, corpus_scores_and_waterfalls, corpus_waterfall, first_differing_segment

ROOT = Path(__file__).resolve().parent.parent


def data_folder() -> Path:
    return Path(os.environ.get("BLEU_WMT22", ROOT.parent / "shared" / "data" / "wmt22"))


def read(path: Path) -> list[str]:
    with open(path, encoding="utf-8") as handle:
        return [line.rstrip("\n") for line in handle]


def sacrebleu_time(hyps: list[str], ref: list[str]) -> float:
    start = time.perf_counter()
    BLEU(tokenize="13a").corpus_score(hyps, [ref])
    return time.perf_counter() - start


def page_time(hyps: list[str], ref: list[str]) -> float:
    start = time.perf_counter()
    _, waterfalls = corpus_scores_and_waterfalls("sacrebleu", hyps, [ref], PIPELINE)
    own = {key: result.second_score for key, result in waterfalls.items()}
    corpus_waterfall("nltk", "matlab", hyps, [ref], PIPELINE, own)  # a pair not from sacreBLEU (that one is reused)
    first_differing_segment("nltk", "matlab", hyps, [ref])
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pair", default="de-en")
    parser.add_argument("--system", type=int, default=0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    folder = data_folder() / args.pair
    hyps = read(sorted(folder.glob("*.hyp.*"))[args.system])
    ref = read(sorted(folder.glob("*.ref.*"))[0])
    sacre = [sacrebleu_time(hyps, ref) for _ in range(args.runs)]
    ours = [page_time(hyps, ref) for _ in range(args.runs)]
    row = {
        "pair": args.pair,
        "segments": len(hyps),
        "sacrebleu_s": round(statistics.median(sacre), 3),
        "ours_s": round(statistics.median(ours), 3),
        "ratio": round(statistics.median(ours) / statistics.median(sacre), 2),
    }
    print(json.dumps(row))


if __name__ == "__main__":
    main()
