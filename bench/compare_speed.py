"""The compare page's first run against sacreBLEU's bare scoring: ``python -m bench.compare_speed``.

10 WMT22 systems x 2,000 segments (one reference).  In one process, timed with ``perf_counter``:

* sacreBLEU: ``BLEU(tokenize=...).corpus_score(hyps, [ref])`` for each system (scores only, no test);
* ours: what the compare page computes on its first run with 1,000 paired-bootstrap samples: tokenizing and
  counting every system, the corpus analyses, the comparison against the baseline, the ranking's own draw
  (more samples when the correction needs them), the rank ranges, the tables, the chart specs and the HTML
  report.  Streamlit's own overhead (script run, sending elements) is not included.

The target is ours <= 0.5 x sacreBLEU.  Each side runs twice; the report keeps both runs.

The metric choice "all side by side" (BLEU, chrF, chrF++, and TER when the limits allow it: en-zh and en-ja)
is timed from scratch as well (``metrics_s``: every metric's statistics, its comparison and ranking draws, the
table and the disagreements) against the BLEU-only run, five times alternating (``metrics_ratio`` of each, and
``metrics_ratio_of_medians``); its target is <= 2 x.

The characteristic n-grams view (its first run: every system's clipped matches per n-gram, with all the
references) is timed on its own against sacreBLEU scoring the same systems with the same references
(``characteristic_s``, ``characteristic_ratio``); its target is also <= 0.5 x.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from statistics import median

from sacrebleu.metrics.bleu import BLEU

from bleu_core import make_options, prepare_references, segment_statistics
from bleu_core.compare.metrics import chrf_tables_of, metric, metric_tables, refusals
from bleu_core.compare.paired import compare_metric_and_prefixes
from bleu_core.compare.ranking import compare_from_stats_and_prefixes, rank_systems, ranking_samples
from bleu_core.corpus.diagnosis import analyze_corpus
from bleu_core.corpus.ngram_lists import characteristic_ngrams
from pages.compare_page import metric_views, verdict_views
from pages.compare_page import report as compare_report

ROOT = Path(__file__).resolve().parent.parent
PAIRS = {"en-zh": "zh", "en-ja": "char", "cs-en": "13a"}


def data_folder() -> Path:
    return Path(os.environ.get("BLEU_WMT22", ROOT.parent / "shared" / "data" / "wmt22"))


def load(pair: str, systems: int, segments: int) -> tuple[dict[str, list[str]], list[list[str]]]:
    folder = data_folder() / pair

    def read(path: Path) -> list[str]:
        with open(path, encoding="utf-8") as handle:
            return [line.rstrip("\n") for line in handle][:segments]

    hyps = {p.name.split(".hyp.")[1]: read(p) for p in sorted(folder.glob("*.hyp.*"))[:systems]}
    return hyps, [read(path) for path in sorted(folder.glob("*.ref.*"))]


def sacrebleu_time(systems: dict[str, list[str]], references: list[list[str]], tokenize: str) -> float:
    start = time.perf_counter()
    for hyps in systems.values():
        BLEU(tokenize=tokenize).corpus_score(hyps, references)
    return time.perf_counter() - start


def characteristic_time(systems: dict[str, list[str]], references: list[list[str]], tokenize: str) -> float:
    start = time.perf_counter()
    characteristic_ngrams(systems, references, make_options(tokenize=tokenize))
    return time.perf_counter() - start


def _table_prefix(n_rank: int) -> tuple[int, ...]:
    """As the page: the table's 1,000 samples are the first of the ranking's draws when it needs more."""
    return (1000,) if n_rank != 1000 else ()


def ours_time(systems: dict[str, list[str]], reference: list[str], tokenize: str) -> float:
    start = time.perf_counter()
    options = make_options(tokenize=tokenize)
    prepared = prepare_references([reference], tokenize=tokenize, lowercase=False, max_order=4)
    stats = {name: segment_statistics(hyps, prepared) for name, hyps in systems.items()}
    analyses = {name: analyze_corpus(s, options, 1) for name, s in stats.items()}
    n_rank = ranking_samples(len(systems), 1000, 0.05, "holm")
    ranked, *table = compare_from_stats_and_prefixes(stats, options, _table_prefix(n_rank), n_samples=n_rank)
    comparison = table[0] if table else ranked
    ranks, corrected = rank_systems(ranked, 0.05, "holm")
    frame = verdict_views.results_frame(analyses, comparison, ranks, 0.05)
    verdict_views.display_frame(frame)
    for chart in (
        verdict_views.delta_chart(frame, comparison.baseline),
        verdict_views.ci_chart(frame, comparison),
        verdict_views.rank_chart(ranks),
        verdict_views.heatmap(ranked.p_values, corrected, ranks, 0.05),
    ):
        chart.to_dict()
    compare_report.build_report(
        frame, ranks, comparison, signature="", settings={}, created=datetime.now(UTC), explanation=""
    )
    return time.perf_counter() - start


def metrics_time(systems: dict[str, list[str]], reference: list[str], tokenize: str) -> float:
    """The page's "all side by side" run, nothing cached: each metric's statistics, comparison, ranking draws."""
    start = time.perf_counter()
    options = make_options(tokenize=tokenize)
    n_rank = ranking_samples(len(systems), 1000, 0.05, "holm")
    prepared = prepare_references([reference], tokenize=tokenize, lowercase=False, max_order=4)
    stats = {name: segment_statistics(hyps, prepared) for name, hyps in systems.items()}
    ranked, *table = compare_from_stats_and_prefixes(stats, options, _table_prefix(n_rank), n_samples=n_rank)
    bleu = table[0] if table else ranked
    verdicts = [metric_views.MetricVerdict("BLEU", bleu, *rank_systems(ranked, 0.05, "holm"))]
    _, wider = metric_tables("chrf++", systems, [reference], options)
    refused = refusals(list(systems.values()), [reference])
    for name in ("chrf", "chrf++", "ter"):
        if name in refused:
            continue  # refused by the limits policy, as the page says
        scorer, tables = (metric(name, options), wider) if name != "ter" else metric_tables(name, systems, [reference])
        if name == "chrf":  # as the page: chrF's statistics cut from chrF++'s
            tables = chrf_tables_of(wider, scorer.options)  # type: ignore[attr-defined]
        ranked, *table = compare_metric_and_prefixes(tables, scorer, _table_prefix(n_rank), n_samples=n_rank)
        comparison = table[0] if table else ranked
        verdicts.append(metric_views.MetricVerdict(scorer.name, comparison, *rank_systems(ranked, 0.05, "holm")))
    metric_views.display_frame(metric_views.metric_frame(verdicts))
    metric_views.found_disagreements(verdicts, 0.05)
    return time.perf_counter() - start


def metrics_runs(pair: str, systems: int, segments: int) -> dict[str, object]:
    """The all-metrics run against the BLEU-only run, five times alternating, in this process."""
    loaded, references = load(pair, systems, segments)
    reference, tokenize = references[0], PAIRS[pair]
    metrics = [(ours_time(loaded, reference, tokenize), metrics_time(loaded, reference, tokenize)) for _ in "12345"]
    return {
        "bleu_only_s": [round(b, 3) for b, _ in metrics],
        "metrics_s": [round(m, 3) for _, m in metrics],
        "metrics_ratio": [round(m / b, 3) for b, m in metrics],
        "metrics_ratio_of_medians": round(median(m for _, m in metrics) / median(b for b, _ in metrics), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", nargs="*", default=list(PAIRS))
    parser.add_argument("--systems", type=int, default=10)
    parser.add_argument("--segments", type=int, default=2000)
    parser.add_argument("--metrics-only", action="store_true", help="only the all-metrics runs, in this process")
    args = parser.parse_args()
    if args.metrics_only:
        for pair in args.pairs:
            print(json.dumps(metrics_runs(pair, args.systems, args.segments)))
        return
    results = []
    for pair in args.pairs:
        # A process of its own, as the page's: sacreBLEU's tokenizer caches from the runs below (74,000 objects on
        # en-zh) would make the garbage collector's full passes in later runs slower (1.7x -> 2.2x measured).
        command = [sys.executable, "-m", "bench.compare_speed", "--metrics-only", "--pairs", pair]
        command += ["--systems", str(args.systems), "--segments", str(args.segments)]
        metrics = json.loads(subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT).stdout)
        systems, references = load(pair, args.systems, args.segments)
        reference, tokenize = references[0], PAIRS[pair]
        runs = [(sacrebleu_time(systems, [reference], tokenize), ours_time(systems, reference, tokenize)) for _ in "12"]
        every_ref = [
            (sacrebleu_time(systems, references, tokenize), characteristic_time(systems, references, tokenize))
        ]
        row = {
            "pair": pair,
            "tokenize": tokenize,
            "systems": len(systems),
            "segments": len(reference),
            "sacrebleu_s": [round(s, 3) for s, _ in runs],
            "ours_s": [round(o, 3) for _, o in runs],
            "ratio": [round(o / s, 3) for s, o in runs],
            "references": len(references),
            "sacrebleu_all_refs_s": [round(s, 3) for s, _ in every_ref],
            "characteristic_s": [round(c, 3) for _, c in every_ref],
            "characteristic_ratio": [round(c / s, 3) for s, c in every_ref],
            **metrics,
        }
        results.append(row)
        print(json.dumps(row))


if __name__ == "__main__":
    main()
