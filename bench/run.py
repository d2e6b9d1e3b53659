"""Benchmark bleu_core against sacreBLEU 2.6 (and NLTK) on the real WMT22 data: ``python -m bench.run``.

Everything runs in one process except the 100k-segment task (one fresh subprocess per library and
repetition, so peak memory can be read) and the CLI task (whole processes by definition).  Ours and
theirs alternate within each repetition (ours first on even repetitions, theirs first on odd ones);
the table shows medians over repetitions and the ratio ours / theirs, next to the target from the spec.

Cold caches.  sacreBLEU's tokenizers memoise ``__call__`` with ``functools.lru_cache`` (keyed by the
tokenizer instance and the line; ``TokenizerZh._is_chinese_char`` by character, shared by all
instances), so a second pass over the same lines would be faster for sacreBLEU (bleu_core keeps no
tokenizer cache between calls; only its ``intl`` and ``ja-mecab`` use sacreBLEU's tokenizers, and the
benchmark uses neither).  Before *every* timed call, of
either library, :func:`clear_sacrebleu_caches` empties every ``lru_cache`` of every imported
``sacrebleu.tokenizers`` module (``Tokenizer13a.__call__``, ``TokenizerRegexp.__call__``,
``TokenizerZh.__call__``, ``TokenizerZh._is_chinese_char``, ``TokenizerChar.__call__``, ...) and runs
``gc.collect()``; sacreBLEU calls also build a new ``BLEU`` object (``sacrebleu.corpus_bleu`` does so
itself).  Repeated lines *within* one corpus still hit the cache, as they would in a cold process.
Module imports are paid once in an untimed warm-up call per tokenizer.

The helpers that run each code path (``ours_*``, ``sacre_*``, ``nltk_sentences``, ``cli_commands``,
``run_child``) are shared with ``tests/core/test_bench_paths.py``, which proves on a small slice that
each of them gives sacreBLEU's result, so the benchmark never times a wrong path.
"""

from __future__ import annotations

import argparse
import compileall
import functools
import gc
import json
import logging
import os
import platform
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, TypeVar, cast

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "latest.json"
#: Tokenizer the WMT22 organisers used per target language (13a otherwise).
WMT_TOKENIZER = {"zh": "zh", "ja": "char"}
#: Language pairs of the corpus and sentence tasks (--quick: one per tokenizer).
PAIRS = ("de-en", "en-de", "cs-en", "zh-en", "en-zh", "en-ja")
QUICK_PAIRS = ("de-en", "en-zh", "en-ja")
#: The paired tests: five systems of de-en within about two BLEU of each other (p-values not all at the floor).
PAIRED_PAIR = "de-en"
PAIRED_SYSTEMS = ("Online-Y", "JDExploreAcademy", "Online-G", "Online-B", "PROMT")
#: The CLI task: one ~2000-line test set.
CLI_PAIR, CLI_SYSTEM = "en-de", "Online-A"
#: Targets from the spec: ours / sacreBLEU at most this.
TARGETS = {
    "corpus": 0.125,
    "sentences": 0.10,
    "bootstrap": 0.10,
    "ar": 0.05,
    "100k time": 0.2,
    "100k memory": 0.15,
    "cli": 0.4,
}
#: Task names for --tasks, in the order they run.
TASKS = ("corpus", "sentences", "nltk", "paired", "100k", "cli", "dropin")
SCORE_TOLERANCE = 1e-9  # on the 0-100 scale
CI_TOLERANCE = 1e-6  # bootstrap mean and half-width, 0-100 scale (sacreBLEU averages in float32 order)
DEFAULT_SEED = 12345  # sacreBLEU's SACREBLEU_SEED default

T = TypeVar("T")
U = TypeVar("U")
Streams = list[list[str]]


def data_root() -> Path:
    """The WMT22 folder: ``$BLEU_WMT22``, else ``../shared/data/wmt22`` next to the repository."""
    return Path(os.environ.get("BLEU_WMT22", ROOT.parent / "shared" / "data" / "wmt22"))


# ---------------------------------------------------------------------------------------------
# Data


@dataclass(frozen=True)
class Corpus:
    """One test set: reference streams (``refs[k][i]``: reference k of segment i) and system outputs."""

    name: str
    tokenize: str
    refs: Streams
    systems: dict[str, list[str]]

    def head(self, segments: int | None = None, systems: int | None = None) -> Corpus:
        """The first ``segments`` segments of the first ``systems`` systems."""
        names = list(self.systems)[:systems]
        return Corpus(
            self.name,
            self.tokenize,
            [stream[:segments] for stream in self.refs],
            {name: self.systems[name][:segments] for name in names},
        )

    def pick(self, names: Iterable[str]) -> Corpus:
        """Only the named systems (in that order) where present; all systems if none is."""
        chosen = {name: self.systems[name] for name in names if name in self.systems}
        return Corpus(self.name, self.tokenize, self.refs, chosen or dict(self.systems))


def read_lines(path: Path) -> list[str]:
    """Lines of a UTF-8 file without their line feeds."""
    with open(path, encoding="utf-8") as handle:
        return [line.rstrip("\n") for line in handle]


def load_corpus(root: Path, pair: str) -> Corpus | None:
    """A WMT22 pair as a :class:`Corpus` (systems sorted by name), or None when its folder is absent."""
    folder = root / pair
    if not folder.is_dir():
        return None
    target = pair.split("-")[1]
    refs = [read_lines(path) for path in sorted(folder.glob(f"generaltest2022.{pair}.ref.*"))]
    systems = {
        path.name.split(".")[-2]: read_lines(path) for path in sorted(folder.glob(f"generaltest2022.{pair}.hyp.*"))
    }
    if not refs or not systems:
        return None
    return Corpus(pair, WMT_TOKENIZER.get(target, "13a"), refs, systems)


_WORDS = [
    *("the", "a", "of", "to", "and", "in", "is", "was", "for", "on", "that", "with", "as", "by", "at", "from"),
    *("it", "an", "be", "this", "are", "have", "has", "not", "but", "or", "which", "their", "they", "one"),
    *("new", "said", "year", "would", "been", "more", "people", "will", "we", "there", "after", "first"),
    *("der", "die", "und", "das", "ist", "nicht", "mit", "den", "von", "zu", "eine", "im", "für", "auf"),
]
_SYMBOLS = [",", ".", "(", ")", '"', "'", "?", "!", ":", ";", "-", "3.5", "1,000", "U.S.", "co-op", "&amp;", "e.g."]


def synthetic_corpus(tokenize: str, segments: int = 200, systems: int = 3, seed: int = 0) -> Corpus:
    """Generated text shaped like a WMT test set, for when the data folder is absent.

    References are random word sequences (CJK characters for ``zh`` and ``char``); each system
    drops, replaces and keeps tokens of reference A with its own rates, and some lines are empty.
    """
    rng = random.Random(seed)
    if tokenize == "13a":
        vocab, joiner = _WORDS + _SYMBOLS, " "
    else:
        han = [chr(c) for c in range(0x4E00, 0x4E00 + 250)]
        kana = [chr(c) for c in range(0x3041, 0x3041 + 80)] if tokenize == "char" else []
        vocab, joiner = han + kana + ["，", "。", "AI", "2022", "COVID-19", "("], ""

    def sentence() -> list[str]:
        return [rng.choice(vocab) for _ in range(rng.randint(1, 30))]

    ref_a = [sentence() for _ in range(segments)]
    refs = [[joiner.join(tokens) for tokens in ref_a]]
    if tokenize != "char":  # a second reference, as most WMT22 pairs have
        refs.append([joiner.join(t[: len(t) // 2] + sentence()[:5]) for t in ref_a])
    outputs: dict[str, list[str]] = {}
    for s in range(systems):
        keep = 0.5 + 0.4 * rng.random()
        lines = []
        for tokens in ref_a:
            if rng.random() < 0.02:
                lines.append("")
                continue
            out = []
            for token in tokens:
                roll = rng.random()
                if roll < keep:
                    out.append(token)
                elif roll < keep + (1 - keep) / 2:
                    out.append(rng.choice(vocab))
            lines.append(joiner.join(out))
        outputs[f"system-{s + 1}"] = lines
    return Corpus(f"synthetic-{tokenize}", tokenize, refs, outputs)


def hundred_k_corpus(root: Path, segments: int) -> tuple[list[str], list[str]]:
    """``segments`` hypotheses and one reference each, from WMT22 outputs whose target uses 13a.

    Pairs ``en-*`` come first, then the others (the en-* 13a pairs alone hold only ~20k lines);
    every system of a pair with that pair's first reference (A; B for cs-en, which has no A).
    When all of them are fewer than ``segments``, the list starts over.
    """
    folders = sorted((p for p in root.iterdir() if p.is_dir()), key=lambda p: (not p.name.startswith("en-"), p.name))
    folders = [f for f in folders if WMT_TOKENIZER.get(f.name.split("-")[-1], "13a") == "13a"]

    def blocks() -> Iterable[tuple[list[str], list[str]]]:
        # One pair at a time, so loading never holds more than one pair beyond what is kept.
        for folder in folders:
            corpus = load_corpus(root, folder.name)
            if corpus is not None:
                yield from ((hyps, corpus.refs[0]) for hyps in corpus.systems.values())

    hyps: list[str] = []
    refs: list[str] = []
    while len(hyps) < segments:
        before = len(hyps)
        for block_hyps, block_refs in blocks():
            hyps.extend(block_hyps)
            refs.extend(block_refs)
            if len(hyps) >= segments:
                break
        if len(hyps) == before:
            raise FileNotFoundError(f"no 13a pairs under {root}")
    return hyps[:segments], refs[:segments]


def synthetic_hundred_k(segments: int) -> tuple[list[str], list[str]]:
    """Generated stand-in for :func:`hundred_k_corpus` (tests without the data)."""
    corpus = synthetic_corpus("13a", segments=segments, systems=1, seed=7)
    return next(iter(corpus.systems.values())), corpus.refs[0]


# ---------------------------------------------------------------------------------------------
# The code paths that are timed (also run by tests/core/test_bench_paths.py)


def clear_sacrebleu_caches() -> int:
    """Empty every ``functools.lru_cache`` of the imported ``sacrebleu.tokenizers`` modules; how many.

    Modules not imported yet have nothing cached and are not imported here (some need optional
    packages).  This covers ``Tokenizer13a.__call__``, ``TokenizerRegexp.__call__``,
    ``TokenizerZh.__call__``, ``TokenizerZh._is_chinese_char`` and ``TokenizerChar.__call__``.
    """
    cleared = 0
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith("sacrebleu.tokenizers."):
            continue
        for cls in vars(module).values():
            if not isinstance(cls, type) or cls.__module__ != name:
                continue
            for attr in vars(cls).values():
                func = attr.__func__ if isinstance(attr, (staticmethod, classmethod)) else attr
                cache_clear = getattr(func, "cache_clear", None)
                if callable(cache_clear):
                    cache_clear()
                    cleared += 1
    return cleared


def ours_corpus(hyps: Sequence[str], refs: Streams, tokenize: str) -> float:
    """Our corpus BLEU on the 0-100 scale."""
    import bleu_core

    return bleu_core.corpus_bleu(hyps, refs, tokenize=tokenize).score_100


def sacre_corpus(hyps: Sequence[str], refs: Streams, tokenize: str) -> float:
    """sacreBLEU's corpus BLEU (``sacrebleu.corpus_bleu`` builds a new ``BLEU`` object per call)."""
    import sacrebleu

    return float(sacrebleu.corpus_bleu(hyps, refs, tokenize=tokenize).score)


def ours_sentences(hyps: Sequence[str], refs: Streams, tokenize: str) -> list[float]:
    """Our sentence BLEU of every segment (one vectorized call), 0-100."""
    import bleu_core

    return [100.0 * s for s in bleu_core.sentence_scores(hyps, refs, tokenize=tokenize).tolist()]


def sacre_sentences(hyps: Sequence[str], refs: Streams, tokenize: str) -> list[float]:
    """sacreBLEU's sentence BLEU of every segment: a loop over ``BLEU.sentence_score``."""
    from sacrebleu.metrics.bleu import BLEU

    metric = BLEU(effective_order=True, tokenize=tokenize)
    return [float(metric.sentence_score(hyp, [stream[i] for stream in refs]).score) for i, hyp in enumerate(hyps)]


def ours_nltk(hyps: Sequence[str], refs: Streams) -> list[float]:
    """``bleu_core.nltk_api.sentence_bleu`` (method1) on whitespace tokens, per segment, ×100."""
    from bleu_core.nltk_api import SmoothingFunction, sentence_bleu

    smooth = SmoothingFunction().method1
    return [
        100.0 * sentence_bleu([stream[i].split() for stream in refs], hyp.split(), smoothing_function=smooth)
        for i, hyp in enumerate(hyps)
    ]


def nltk_sentences(hyps: Sequence[str], refs: Streams) -> list[float]:
    """NLTK's ``sentence_bleu`` with ``SmoothingFunction().method1`` on whitespace tokens, per segment, ×100."""
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu  # type: ignore[import-untyped]

    smooth = SmoothingFunction().method1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [
            100.0 * float(sentence_bleu([stream[i].split() for stream in refs], hyp.split(), smoothing_function=smooth))
            for i, hyp in enumerate(hyps)
        ]


class Paired(NamedTuple):
    """One system of a paired test on the 0-100 scale (p_value None for the baseline; mean/ci None for AR)."""

    score: float
    p_value: float | None
    mean: float | None
    ci: float | None


def _seed() -> int:
    """The seed sacreBLEU's PairedTest uses (``$SACREBLEU_SEED``, default 12345), for ours to match."""
    return int(os.environ.get("SACREBLEU_SEED", DEFAULT_SEED))


def ours_paired(systems: dict[str, list[str]], refs: Streams, tokenize: str, test: str, n: int) -> dict[str, Paired]:
    """``bleu_core.compare.significance.paired_test`` from text, baseline = first system."""
    from bleu_core.compare.significance import paired_test

    results = paired_test(systems, refs, test=test, n_samples=n, tokenize=tokenize, seed=_seed())

    def scaled(value: float | None) -> float | None:
        return None if value is None else 100.0 * value

    return {name: Paired(100.0 * r.score, r.p_value, scaled(r.mean), scaled(r.ci)) for name, r in results.items()}


def sacre_paired(systems: dict[str, list[str]], refs: Streams, tokenize: str, test: str, n: int) -> dict[str, Paired]:
    """sacreBLEU's ``PairedTest`` as its CLI runs it (references cached in a new ``BLEU``), baseline first."""
    from sacrebleu.metrics.bleu import BLEU
    from sacrebleu.significance import PairedTest, Result

    metric = BLEU(references=refs, tokenize=tokenize)
    _, scores = PairedTest(list(systems.items()), {"BLEU": metric}, None, test_type=test, n_samples=n)()
    names = cast(list[str], scores["System"])
    results = cast(list[Result], scores["BLEU"])
    return {name: Paired(float(r.score), r.p_value, r.mean, r.ci) for name, r in zip(names, results, strict=True)}


def same_scores(ours: Sequence[float], theirs: Sequence[float]) -> bool:
    """Equal length and every score within SCORE_TOLERANCE (0-100 scale)."""
    return len(ours) == len(theirs) and all(abs(a - b) <= SCORE_TOLERANCE for a, b in zip(ours, theirs, strict=True))


def same_paired(ours: dict[str, Paired], theirs: dict[str, Paired]) -> bool:
    """Same systems in the same order, scores within SCORE_TOLERANCE, equal p-values, close means and CIs."""
    if list(ours) != list(theirs):
        return False
    for name, mine in ours.items():
        other = theirs[name]
        if abs(mine.score - other.score) > SCORE_TOLERANCE or mine.p_value != other.p_value:
            return False
        for a, b in ((mine.mean, other.mean), (mine.ci, other.ci)):
            if (a is None) != (b is None) or (a is not None and b is not None and abs(a - b) > CI_TOLERANCE):
                return False
    return True


def sacrebleu_executable() -> str:
    """The ``sacrebleu`` script of this interpreter's environment (else the one on PATH)."""
    beside = Path(sys.executable).parent / "sacrebleu"
    found = str(beside) if beside.exists() else shutil.which("sacrebleu")
    if found is None:
        raise FileNotFoundError("the sacrebleu executable was not found (pip install sacrebleu==2.6.0)")
    return found


def cli_commands(ref: Path, hyp: Path, *extra: str) -> tuple[list[str], list[str]]:
    """``python -m bleu_core REF -i HYP`` and ``sacrebleu REF -i HYP`` (plus ``extra`` options)."""
    ours = [sys.executable, "-m", "bleu_core", str(ref), "-i", str(hyp), *extra]
    theirs = [sacrebleu_executable(), str(ref), "-i", str(hyp), *extra]
    return ours, theirs


def run_command(command: Sequence[str]) -> str:
    """Run a command from the repository root; its standard output (raises on failure)."""
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


def mask_version(output: str) -> str:
    """sacreBLEU's report with the version in the signature masked (ours prints our version there)."""
    return re.sub(r"(version|v):[^|\"\s]+", r"\1:X", re.sub(r'"version": "[^"]*"', '"version": "X"', output))


def cli_scores_agree(ours_json: str, theirs_json: str, ref: Path, hyp: Path) -> bool:
    """The default JSON outputs are the same bytes (version masked), and ``-b -w 10`` prints the same digits."""
    ours_cmd, theirs_cmd = cli_commands(ref, hyp, "-b", "-w", "10")
    precise = run_command(ours_cmd).strip() == run_command(theirs_cmd).strip()
    return mask_version(ours_json) == mask_version(theirs_json) and precise


def _maxrss_kb() -> int:
    """Peak resident set size of this process so far (kilobytes on Linux)."""
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def _status_kb(key: str) -> int | None:
    """A ``kB`` field of ``/proc/self/status`` (``VmRSS``: now, ``VmHWM``: peak), None where unavailable."""
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith(f"{key}:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _reset_peak_rss() -> bool:
    """Reset this process's peak RSS to its current RSS (Linux >= 4.0: ``5 > /proc/self/clear_refs``)."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as handle:
            handle.write("5")
    except OSError:
        return False
    return True


def child_main(library: str, segments: int, synthetic: bool) -> int:
    """``--one LIBRARY``: score a large corpus once in this fresh process and print one JSON line.

    Memory is read here, not in the parent (whose ``RUSAGE_CHILDREN`` keeps the maximum over all
    children, so it cannot tell successive children apart): ``peak_kb`` is the process's peak RSS
    (``getrusage(RUSAGE_SELF).ru_maxrss``: interpreter, imports, input text and scoring);
    ``base_kb`` the RSS just before scoring, with the input loaded; ``scoring_peak_kb`` the peak
    while scoring (``VmHWM`` after resetting the peak counter; the process peak, an upper bound, if
    the kernel does not allow the reset).
    """
    hyps, refs = synthetic_hundred_k(segments) if synthetic else hundred_k_corpus(data_root(), segments)
    score: Callable[[], float]
    if library == "ours":
        import bleu_core

        def score() -> float:
            return bleu_core.corpus_bleu(hyps, [refs]).score_100

    else:
        import sacrebleu

        def score() -> float:
            return float(sacrebleu.corpus_bleu(hyps, [refs]).score)

    gc.collect()
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent through fork and exec, so it would
    # report the benchmark's own process (all corpora loaded) rather than this one.
    loading_peak = _status_kb("VmHWM") or _maxrss_kb()
    reset = _reset_peak_rss()
    base = _status_kb("VmRSS") or loading_peak
    start = time.perf_counter()
    value = score()
    seconds = time.perf_counter() - start
    # After a reset VmHWM is the peak since the reset; ru_maxrss never resets (it would report the loading peak).
    high_water = _status_kb("VmHWM") if reset else None
    scoring_peak = high_water if high_water is not None else _maxrss_kb()
    record = {"library": library, "segments": len(hyps), "score": value, "seconds": seconds}
    record |= {"peak_kb": max(loading_peak, scoring_peak), "base_kb": base, "scoring_peak_kb": scoring_peak}
    record |= {"peak_reset": reset}
    print(json.dumps(record))
    return 0


def run_child(library: str, segments: int, synthetic: bool = False) -> dict[str, Any]:
    """Run :func:`child_main` in a fresh interpreter; its record plus the whole process's wall time."""
    command = [sys.executable, "-m", "bench.run", "--one", library, "--segments", str(segments)]
    if synthetic:
        command.append("--synthetic")
    start = time.perf_counter()
    out = run_command(command)
    record: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    record["process_seconds"] = time.perf_counter() - start
    return record


# ---------------------------------------------------------------------------------------------
# Timing


def _timed(fn: Callable[[], T]) -> tuple[float, T]:
    clear_sacrebleu_caches()
    gc.collect()
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def alternate(ours: Callable[[], T], theirs: Callable[[], U], repeat: int) -> tuple[list[float], list[float], T, U]:
    """Time both ``repeat`` times, alternating which goes first; seconds and the first results."""
    ours_times: list[float] = []
    theirs_times: list[float] = []
    ours_out: list[T] = []
    theirs_out: list[U] = []
    for rep in range(repeat):
        for side in ("ours", "theirs") if rep % 2 == 0 else ("theirs", "ours"):
            if side == "ours":
                seconds, mine = _timed(ours)
                ours_times.append(seconds)
                ours_out.append(mine)
            else:
                seconds, other = _timed(theirs)
                theirs_times.append(seconds)
                theirs_out.append(other)
    return ours_times, theirs_times, ours_out[0], theirs_out[0]


@dataclass
class Row:
    """One line of the table; ``ours`` and ``theirs`` in ``unit`` (ms or MB)."""

    task: str
    ours: float
    theirs: float
    ratio: float
    target: float | None = None
    identical: bool | None = None
    unit: str = "ms"
    versus: str = "sacreBLEU"
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def met(self) -> bool | None:
        return None if self.target is None else self.ratio <= self.target


def _ms(seconds: Sequence[float]) -> float:
    return 1000.0 * statistics.median(seconds)


def _row(task: str, ours_ms: float, theirs_ms: float, **kwargs: Any) -> Row:
    return Row(task, ours_ms, theirs_ms, ours_ms / theirs_ms if theirs_ms else float("inf"), **kwargs)


def _summary(task: str, parts: list[Row], target: float | None, versus: str = "sacreBLEU") -> Row:
    """Median over per-pair rows: of ours, of theirs, and of the per-pair ratios."""
    return Row(
        task,
        statistics.median(r.ours for r in parts),
        statistics.median(r.theirs for r in parts),
        statistics.median(r.ratio for r in parts),
        target,
        all(bool(r.identical) for r in parts),
        versus=versus,
        detail={"pairs": [r.task.strip() for r in parts]},
    )


def _progress(message: str) -> None:
    print(f"  … {message}", file=sys.stderr, flush=True)


def _warm_up(corpus: Corpus) -> None:
    """Untimed calls on a few lines so that lazy imports are not timed."""
    small = corpus.head(segments=5, systems=1)
    hyps = next(iter(small.systems.values()))
    ours_corpus(hyps, small.refs, small.tokenize)
    sacre_corpus(hyps, small.refs, small.tokenize)
    ours_sentences(hyps, small.refs, small.tokenize)
    sacre_sentences(hyps, small.refs, small.tokenize)


def bench_corpus(corpora: list[Corpus], repeat: int) -> list[Row]:
    """Task 1: corpus BLEU of every system, cold; per pair the median over systems."""
    rows = []
    for corpus in corpora:
        _progress(f"corpus BLEU {corpus.name} ({len(corpus.systems)} systems × {repeat})")
        _warm_up(corpus)
        ours_ms, theirs_ms, identical = [], [], True
        for hyps in corpus.systems.values():
            mine, other, score, expected = alternate(
                functools.partial(ours_corpus, hyps, corpus.refs, corpus.tokenize),
                functools.partial(sacre_corpus, hyps, corpus.refs, corpus.tokenize),
                repeat,
            )
            identical = identical and abs(score - expected) <= SCORE_TOLERANCE
            ours_ms.append(_ms(mine))
            theirs_ms.append(_ms(other))
        rows.append(
            _row(
                f"  {corpus.name} ({len(corpus.systems)} sys, {corpus.tokenize})",
                statistics.median(ours_ms),
                statistics.median(theirs_ms),
                identical=identical,
                detail={"ours_ms_per_system": ours_ms, "sacrebleu_ms_per_system": theirs_ms},
            )
        )
    return [_summary("corpus BLEU, cold (median of pairs)", rows, TARGETS["corpus"]), *rows]


def bench_sentences(corpora: list[Corpus], repeat: int) -> list[Row]:
    """Task 2: sentence BLEU of every segment of one system per pair."""
    rows = []
    for corpus in corpora:
        system, hyps = next(iter(corpus.systems.items()))
        _progress(f"sentence BLEU {corpus.name} ({system}, {len(hyps)} segments × {repeat})")
        mine, other, scores, expected = alternate(
            functools.partial(ours_sentences, hyps, corpus.refs, corpus.tokenize),
            functools.partial(sacre_sentences, hyps, corpus.refs, corpus.tokenize),
            repeat,
        )
        rows.append(
            _row(
                f"  {corpus.name} ({len(hyps)} segments)",
                _ms(mine),
                _ms(other),
                identical=same_scores(scores, expected),
                detail={"system": system},
            )
        )
    return [_summary("sentence BLEU, every segment", rows, TARGETS["sentences"]), *rows]


def bench_nltk(corpora: list[Corpus], repeat: int) -> list[Row]:
    """Task 2b: NLTK sentence_bleu (method1, whitespace tokens) vs bleu_core.tools.nltk_bleu, 13a pairs only."""
    rows = []
    for corpus in corpora:
        if corpus.tokenize != "13a":
            continue  # whitespace tokens of Chinese or Japanese are whole sentences: not a useful comparison
        system, hyps = next(iter(corpus.systems.items()))
        _progress(f"NLTK sentence_bleu {corpus.name} ({system} × {repeat})")
        mine, other, scores, expected = alternate(
            functools.partial(ours_nltk, hyps, corpus.refs),
            functools.partial(nltk_sentences, hyps, corpus.refs),
            repeat,
        )
        rows.append(
            _row(
                f"  {corpus.name} ({len(hyps)} segments)",
                _ms(mine),
                _ms(other),
                identical=same_scores(scores, expected),
                versus="NLTK",
                detail={"system": system},
            )
        )
    if not rows:
        return []
    return [_summary("NLTK sentence_bleu m1 (vs NLTK)", rows, None, versus="NLTK"), *rows]


def bench_paired(corpus: Corpus, repeat: int, bs_samples: int, ar_trials: int) -> list[Row]:
    """Task 3: paired bootstrap and approximate randomization over five systems of one pair."""
    rows = []
    for test, n, target in (("bs", bs_samples, TARGETS["bootstrap"]), ("ar", ar_trials, TARGETS["ar"])):
        label = "paired bootstrap" if test == "bs" else "approx. randomization"
        _progress(f"{label} {corpus.name}, {len(corpus.systems)} systems, n={n} × {repeat}")
        mine, other, result, expected = alternate(
            functools.partial(ours_paired, corpus.systems, corpus.refs, corpus.tokenize, test, n),
            functools.partial(sacre_paired, corpus.systems, corpus.refs, corpus.tokenize, test, n),
            repeat,
        )
        rows.append(
            _row(
                f"{label} n={n}, {len(corpus.systems)} sys {corpus.name}",
                _ms(mine),
                _ms(other),
                target=target,
                identical=same_paired(result, expected),
                detail={"systems": list(corpus.systems), "p_values": {k: v.p_value for k, v in result.items()}},
            )
        )
    return rows


def bench_hundred_k(segments: int, repeat: int) -> list[Row]:
    """Task 4: a ``segments``-line corpus in fresh subprocesses; wall time of the call and peak RSS."""
    records: dict[str, list[dict[str, Any]]] = {"ours": [], "sacrebleu": []}
    for rep in range(repeat):
        for library in ("ours", "sacrebleu") if rep % 2 == 0 else ("sacrebleu", "ours"):
            _progress(f"{segments} segments, {library}, run {rep + 1}/{repeat}")
            records[library].append(run_child(library, segments))
    ours, theirs = records["ours"], records["sacrebleu"]
    identical = abs(ours[0]["score"] - theirs[0]["score"]) <= SCORE_TOLERANCE
    label = f"{segments // 1000}k segments"

    def median(key: str, side: list[dict[str, Any]], scale: float = 1.0) -> float:
        return float(statistics.median(r[key] for r in side)) * scale

    peak = [median("peak_kb", side, 1 / 1024) for side in (ours, theirs)]
    extra = [statistics.median((r["scoring_peak_kb"] - r["base_kb"]) / 1024 for r in side) for side in (ours, theirs)]
    detail = {"ours": ours, "sacrebleu": theirs}
    return [
        _row(
            f"{label}: scoring time",
            median("seconds", ours, 1000),
            median("seconds", theirs, 1000),
            target=TARGETS["100k time"],
            identical=identical,
            detail=detail,
        ),
        _row(f"{label}: peak RSS (process)", *peak, target=TARGETS["100k memory"], identical=identical, unit="MB"),
        _row(
            f"  {label}: RSS growth while scoring",
            *extra,
            target=TARGETS["100k memory"],
            identical=identical,
            unit="MB",
        ),
        _row(
            f"  {label}: whole process wall",
            median("process_seconds", ours, 1000),
            median("process_seconds", theirs, 1000),
            identical=identical,
        ),
    ]


def bench_cli(corpus_dir: Path, repeat: int) -> list[Row]:
    """Task 5: the whole CLI process on one test set, ``python -m bleu_core`` vs ``sacrebleu``."""
    ref = corpus_dir / f"generaltest2022.{CLI_PAIR}.ref.A.{CLI_PAIR.split('-')[1]}"
    hyp = corpus_dir / f"generaltest2022.{CLI_PAIR}.hyp.{CLI_SYSTEM}.{CLI_PAIR.split('-')[1]}"
    if not ref.exists() or not hyp.exists():
        print(f"CLI task skipped: {ref.name} or {hyp.name} not found")
        return []
    ours_cmd, theirs_cmd = cli_commands(ref, hyp)
    # pip byte-compiles an installed sacreBLEU; bleu_core runs from its source folder, where a first run
    # writes the bytecode, unless PYTHONDONTWRITEBYTECODE is set.  Compile it so both sides start alike.
    compileall.compile_dir(ROOT / "bleu_core", quiet=1)
    run_command(ours_cmd)  # warm the page cache
    run_command(theirs_cmd)
    _progress(f"CLI on {hyp.name} × {repeat}")
    mine, other, ours_out, theirs_out = alternate(
        functools.partial(run_command, ours_cmd), functools.partial(run_command, theirs_cmd), repeat
    )
    lines = len(read_lines(hyp))
    return [
        _row(
            f"CLI whole process ({lines} lines)",
            _ms(mine),
            _ms(other),
            target=TARGETS["cli"],
            identical=cli_scores_agree(ours_out, theirs_out, ref, hyp),
            detail={"ref": str(ref), "hyp": str(hyp)},
        )
    ]


def profile_corpus(corpus: Corpus, top: int = 12) -> list[dict[str, Any]]:
    """cProfile of one cold call of our corpus_bleu on the first system: the ``top`` functions by tottime."""
    import cProfile
    import pstats

    _warm_up(corpus)
    hyps = next(iter(corpus.systems.values()))
    clear_sacrebleu_caches()
    gc.collect()
    profiler = cProfile.Profile()
    profiler.enable()
    ours_corpus(hyps, corpus.refs, corpus.tokenize)
    profiler.disable()
    stats = pstats.Stats(profiler)
    table: dict[tuple[str, int, str], tuple[int, int, float, float, Any]] = stats.stats  # type: ignore[attr-defined]
    total = sum(entry[2] for entry in table.values())
    ranked = sorted(table.items(), key=lambda item: item[1][2], reverse=True)[:top]
    out: list[dict[str, Any]] = []
    for (filename, line, name), (_, calls, tottime, cumtime, _) in ranked:
        where = f"{Path(filename).name}:{line}" if line else filename
        out.append(
            {
                "function": f"{where}({name})",
                "calls": calls,
                "tottime_ms": 1000 * tottime,
                "share": tottime / total if total else 0.0,
                "cumtime_ms": 1000 * cumtime,
            }
        )
    print(f"\ncProfile: bleu_core.corpus_bleu on {corpus.name}, {len(hyps)} lines, total {1000 * total:.1f} ms")
    print(f"{'tottime ms':>10} {'share':>6} {'cumtime ms':>10} {'calls':>7}  function")
    for entry in out:
        print(
            f"{entry['tottime_ms']:10.2f} {100 * entry['share']:5.1f}% {entry['cumtime_ms']:10.2f} "
            f"{entry['calls']:7d}  {entry['function']}"
        )
    return out


# ---------------------------------------------------------------------------------------------
# Report


def _value(row: Row, value: float) -> str:
    return f"{value:,.1f} MB" if row.unit == "MB" else f"{value:,.1f}"


def format_table(rows: list[Row]) -> str:
    header = ["task", "ours (ms)", "sacreBLEU (ms)", "ratio", "target", "identical?"]
    body = []
    for row in rows:
        theirs = _value(row, row.theirs) + (" (NLTK)" if row.versus != "sacreBLEU" else "")
        target = "" if row.target is None else f"≤ {row.target:g} {'ok' if row.met else 'MISSED'}"
        identical = "" if row.identical is None else ("yes" if row.identical else "NO")
        body.append([row.task, _value(row, row.ours), theirs, f"{row.ratio:.3f}", target, identical])
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]

    def render(cells: list[str]) -> str:
        parts = [cells[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(cells[1:5], widths[1:5], strict=True)]
        return " | ".join([*parts, cells[5].ljust(widths[5])]).rstrip()

    rule = "-+-".join("-" * w for w in widths)
    return "\n".join([render(header), rule, *(render(line) for line in body)])


def environment() -> dict[str, Any]:
    import nltk  # type: ignore[import-untyped]
    import numpy
    import sacrebleu

    import bleu_core

    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg(),
        "numpy": numpy.__version__,
        "sacrebleu": sacrebleu.__version__,
        "nltk": nltk.__version__,
        "bleu_core": bleu_core.__version__,
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


# ---------------------------------------------------------------------------------------------
# Main


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=None, help="repetitions per measurement (default 5; quick 2)")
    parser.add_argument("--quick", action="store_true", help="smoke run: 3 pairs × 3 systems, fewer samples")
    parser.add_argument("--pairs", default=None, help="comma-separated language pairs for tasks 1-2")
    parser.add_argument("--segments", type=int, default=None, help="size of task 4 (default 100000; quick 20000)")
    parser.add_argument("--profile", metavar="PAIR", default=None, help="only profile our corpus_bleu on PAIR")
    parser.add_argument(
        "--tasks",
        default=",".join(TASKS),
        help=f"comma-separated tasks to run (default all: {','.join(TASKS)})",
    )
    parser.add_argument("--output", type=Path, default=RESULTS, help=f"JSON results (default {RESULTS})")
    parser.add_argument("--one", choices=("ours", "sacrebleu"), help=argparse.SUPPRESS)  # task 4 child
    parser.add_argument("--synthetic", action="store_true", help=argparse.SUPPRESS)  # child without the data
    args = parser.parse_args(argv)
    if args.repeat is not None and args.repeat < 1:
        parser.error("--repeat must be at least 1")
    unknown = set(args.tasks.split(",")) - set(TASKS)
    if unknown:
        parser.error(f"unknown task(s) {', '.join(sorted(unknown))}; choose from {', '.join(TASKS)}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.one:
        return child_main(args.one, args.segments or 100_000, args.synthetic)
    root = data_root()
    if not root.is_dir():
        print(f"WMT22 data not found at {root}: nothing to benchmark (set BLEU_WMT22 to its folder).")
        return 0
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    if "SACREBLEU_SEED" in os.environ:
        print(f"note: SACREBLEU_SEED={os.environ['SACREBLEU_SEED']} is set; our paired tests use the same seed")
    quick = args.quick
    repeat = args.repeat or (2 if quick else 5)
    if args.profile:
        corpus = load_corpus(root, args.profile)
        if corpus is None:
            print(f"pair {args.profile} not found under {root}")
            return 2
        profile_corpus(corpus)
        return 0
    names = args.pairs.split(",") if args.pairs else list(QUICK_PAIRS if quick else PAIRS)
    corpora = []
    for name in names:
        corpus = load_corpus(root, name)
        if corpus is None:
            print(f"pair {name} not found under {root}; skipped")
        else:
            corpora.append(corpus.head(systems=3) if quick else corpus)
    if not corpora:
        print(f"none of the pairs {', '.join(names)} found under {root}: nothing to benchmark.")
        return 0
    env = environment()
    print(
        f"bleu_core {env['bleu_core']} vs sacreBLEU {env['sacrebleu']} / NLTK {env['nltk']}; python {env['python']}, "
        f"{env['cpus']} CPUs, load {env['load_average'][0]:.2f}; repeat {repeat}{' (quick)' if quick else ''}",
        flush=True,
    )
    started = time.perf_counter()
    tasks = set(args.tasks.split(","))
    rows = bench_corpus(corpora, repeat) if "corpus" in tasks else []
    rows += bench_sentences(corpora, repeat) if "sentences" in tasks else []
    if "nltk" in tasks:
        rows += bench_nltk(corpora, repeat)
    if "paired" in tasks:
        paired = load_corpus(root, PAIRED_PAIR)
        if paired is not None:
            rows += bench_paired(paired.pick(PAIRED_SYSTEMS), repeat, 200 if quick else 1000, 1000 if quick else 10000)
        else:
            print(f"{PAIRED_PAIR} not found: paired-test rows skipped")
    if "100k" in tasks:
        rows += bench_hundred_k(args.segments or (20_000 if quick else 100_000), repeat)
    if "cli" in tasks:
        rows += bench_cli(root / CLI_PAIR, repeat)
    if "dropin" in tasks:
        from bench.dropin import bench_dropin

        rows += bench_dropin(root, repeat)
    elapsed = time.perf_counter() - started
    print()
    print(format_table(rows))
    print(
        "\nratio = ours / theirs (median over repetitions; pair summaries: median over pairs of per-pair ratios). "
        "Cold: sacreBLEU's tokenizer lru_caches cleared and gc.collect() before every timed call. "
        f"Load average after the run: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; timings are noisy. "
        f"Total {elapsed:.0f} s."
    )
    env["load_average_after"] = os.getloadavg()
    report = {
        "environment": env,
        "settings": {"repeat": repeat, "quick": quick, "pairs": [c.name for c in corpora], "seconds": elapsed},
        "rows": [asdict(row) | {"met": row.met} for row in rows],
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=2, default=str) + "\n", encoding="utf-8")
    print(f"results written to {args.output}")
    if not all(row.identical is not False for row in rows):
        print("ERROR: some benchmarked paths do not give sacreBLEU's (or NLTK's) results; see 'identical?'")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
