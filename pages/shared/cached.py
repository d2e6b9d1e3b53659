"""The pages' way into bleu_core's work on text: cached wrappers whose arguments are plain values.

Every computation from text a page asks for goes through here. Pages still call cheap functions of results
already computed here (the scores a walkthrough's counts give under other smoothings, ranks from a comparison).
A corpus is named by its digest (:func:`corpus_key`), so a rerun does not hash every line again.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import numpy as np
import streamlit as st

from bleu_core import BleuOptions, SegmentStats, corpus_statistics, prepare_references, segment_statistics
from bleu_core.api import check_corpus
from bleu_core.compare.metrics import (
    ChrfMetric,
    TerMetric,
    chrf_tables_of,
    metric,
    metric_signature,
    metric_tables,
    refusals,
    segment_scores,
    ter_statistics_of,
)
from bleu_core.compare.paired import compare_metric_and_prefixes
from bleu_core.compare.ranking import Comparison, compare_from_stats_and_prefixes
from bleu_core.compare.slices import LabelTest, SliceScores, read_tags, slice_scores, slice_tests
from bleu_core.corpus.diagnosis import CorpusAnalysis, analyze_corpus
from bleu_core.corpus.lint import LintFinding, check_cjk, identical_systems, lint_corpus
from bleu_core.corpus.ngram_lists import NgramContrast, characteristic_ngrams
from bleu_core.corpus.produced_ngrams import NgramFilter, NgramStat, ProducedLists, Ranking, ngram_stats, produced_lists
from bleu_core.corpus.relative import RelativeDiagnosis, relative_diagnosis
from bleu_core.corpus.spelling_twins import Twin, bleu_if_spelled_alike, matches_at_stake, spelling_twins
from bleu_core.corpus.what_if import WhatIf, replace_segment
from bleu_core.corpus.word_accuracy import WordCounts, reference_frequencies, word_counts
from bleu_core.gaps.mistakes import MistakeCheck, common_mistakes
from bleu_core.gaps.waterfall import (
    ORDERS,
    Waterfall,
    corpus_scores_and_waterfalls,
    corpus_waterfall,
    first_differing_segment,
    waterfall,
)
from bleu_core.i18n import Message
from bleu_core.limits import Limits
from bleu_core.options import make_options
from bleu_core.stats.chrf import ChrfOptions, chrf_statistics
from bleu_core.stats.chrf import corpus_and_segment_scores as chrf_scores_of
from bleu_core.stats.corpus_ngrams import CorpusNgrams, NgramOccurrence, count_ngrams, ngram_segments, tokenize_corpus
from bleu_core.stats.ter import TerOptions, ter_statistics
from bleu_core.stats.ter import corpus_and_segment_scores as ter_scores_of
from bleu_core.teach.chrf_explain import ChrfExplanation, chrf_options, explain_chrf
from bleu_core.teach.exercises import Exercise, generate_exercise
from bleu_core.teach.explain import Explanation, explain
from bleu_core.text import reader
from bleu_core.tools import (
    ImplementationTrace,
    compare_implementations,
    trace_implementations,
)

# Caches bounded by size (bleu_core.limits: cache_megabytes): a count of entries, each of a bounded size.
#: A walkthrough is at most about 1.1 MB pickled (1,000 tokens and 8 references at max n = 8; past the limits
#: it is summarized to ~0.2 MB whatever the input's size), so 64 of them stay under ~70 MB.
EXPLAIN_ENTRIES = 64
#: Uploads larger than this are decoded again on each use instead of cached (a 50 MB upload would otherwise keep
#: ~60 MB of lines per entry); with 16 entries the decoded files cached stay under ~160 MB.
DECODE_CACHED_BYTES = 8_000_000
DECODE_ENTRIES = 16


@st.cache_data(max_entries=EXPLAIN_ENTRIES, show_spinner=False)
def explain_cached(candidate: str, references: tuple[str, ...], options: BleuOptions) -> Explanation:
    return explain(candidate, list(references), options)


@st.cache_data(max_entries=EXPLAIN_ENTRIES, show_spinner=False)
def chrf_explain_cached(candidate: str, references: tuple[str, ...], metric: str) -> ChrfExplanation:
    """The chrF or chrF++ walkthrough (``metric``: ``"chrf"``, ``"chrf++"``); its tables are bounded as BLEU's."""
    return explain_chrf(candidate, list(references), chrf_options(metric))


def decode_cached(data: bytes, name: str) -> list[str]:
    """Lines of an uploaded file; raises bleu_core.text.reader.InputFileError with a message for people."""
    if len(data) > DECODE_CACHED_BYTES:
        return reader.decode_lines(data, name)
    return _decode_small(data, name)


@st.cache_data(max_entries=DECODE_ENTRIES, show_spinner=False)
def _decode_small(data: bytes, name: str) -> list[str]:
    return reader.decode_lines(data, name)


Progress = Callable[[float], object]
T = TypeVar("T")


@st.cache_resource
def _results() -> tuple[threading.Lock, OrderedDict[Hashable, Any]]:
    """One store shared by all sessions for the results computed with a progress bar.

    ``st.cache_data`` records Streamlit calls made inside a cached function and replays them on a
    cache hit, which breaks a progress bar created outside; these functions memoize here instead.
    """
    return threading.Lock(), OrderedDict()


def _remember(key: Hashable, compute: Callable[[], T], limit: int = 48) -> T:
    lock, store = _results()
    with lock:
        if key in store:
            store.move_to_end(key)
            return cast(T, store[key])
    value = compute()
    with lock:
        store[key] = value
        while len(store) > limit:
            store.popitem(last=False)
    return value


def corpus_key(hypotheses: Sequence[str], references: Sequence[Sequence[str | None]]) -> str:
    """A digest naming a corpus, so cached functions need not hash every line on each rerun."""
    digest = hashlib.blake2b(digest_size=16)
    streams: list[Sequence[str | None]] = [hypotheses, *references]
    for stream in streams:
        digest.update(str(len(stream)).encode())
        digest.update("\x1e".join("\x1f" if line is None else line for line in stream).encode("utf-8", "replace"))
        digest.update(b"\x1d")
    return digest.hexdigest()


@dataclass(frozen=True, eq=False)
class Corpus:
    """One system's output on a test set, its references and its source (if given), named by :func:`corpus_key`:
    the cached functions hash a ``Corpus`` by that name alone."""

    hypotheses: list[str]
    references: list[list[str | None]]
    source: list[str] | None = None
    key: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", corpus_key(self.hypotheses, self.references))


def systems_key(systems: dict[str, list[str]], references: list[list[str | None]]) -> str:
    """A digest naming several systems (in order, with their names) and their references."""
    parts = [corpus_key(hyps, []) + name for name, hyps in systems.items()]
    return corpus_key(parts, references)


@dataclass(frozen=True, eq=False)
class Systems:
    """Several systems' outputs on one test set, its references and its source (if given), named by
    :func:`systems_key`: the cached functions below hash a ``Systems`` by that name alone."""

    outputs: dict[str, list[str]]
    references: list[list[str | None]]
    source: list[str] | None = None
    key: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", systems_key(self.outputs, self.references))

    @property
    def segments(self) -> int:
        return len(self.references[0]) if self.references else 0


#: Streamlit's caches hash a Corpus or Systems by its digest (the lines were hashed once, when it was made).
BY_KEY: dict[str | type[Any], Callable[[Any], Any]] = {
    Corpus: lambda corpus: corpus.key,
    Systems: lambda systems: systems.key,
}


@st.cache_data(max_entries=32, show_spinner=False, hash_funcs=BY_KEY)
def corpus_stats_cached(corpus: Corpus, counting: BleuOptions) -> tuple[SegmentStats, int]:
    """Per-segment statistics of a corpus; ``counting`` holds only what statistics depend on
    (:meth:`BleuOptions.for_counting`), so every weighting shares them."""
    hyps, streams = check_corpus(corpus.hypotheses, corpus.references)
    stats, prepared = corpus_statistics(hyps, streams, counting)
    return stats, prepared.n_refs


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=BY_KEY)
def corpus_analysis_cached(corpus: Corpus, options: BleuOptions) -> CorpusAnalysis:
    stats, n_refs = corpus_stats_cached(corpus, options.for_counting())
    return analyze_corpus(stats, options, n_refs)


@st.cache_data(max_entries=32, show_spinner=False)
def lint_cached(
    key: str, names: tuple[str, ...], _hypotheses: list[str], _references: list[list[str]], tokenize: str
) -> tuple[LintFinding, ...]:
    """Input checks for a corpus (``names``: hypothesis file name, then the reference file names)."""
    return lint_corpus((names[0], _hypotheses), list(zip(names[1:], _references, strict=True)), tokenize)


@st.cache_data(max_entries=32, show_spinner=False, hash_funcs=BY_KEY)
def systems_cjk_cached(data: Systems, tokenize: str) -> tuple[LintFinding, ...]:
    """The linter's warning when the systems are Chinese or Japanese and ``tokenize`` splits only at spaces and
    punctuation (the first system is checked: the references translate the same text)."""
    name, lines = next(iter(data.outputs.items()))
    return tuple(lint_corpus((name, lines), [], tokenize, rules=[check_cjk]))


@st.cache_data(max_entries=32, show_spinner=False, hash_funcs=BY_KEY)
def identical_systems_cached(data: Systems) -> list[tuple[str, ...]]:
    """Groups of systems with the same output line for line (:func:`bleu_core.corpus.lint.identical_systems`)."""
    return identical_systems(data.outputs)


@st.cache_data(max_entries=64, show_spinner=False)
def metric_signature_cached(name: str, options: BleuOptions, n_refs: int) -> str:
    """sacreBLEU's signature of a metric as the pages score it (:func:`bleu_core.compare.metrics.metric_signature`)."""
    return metric_signature(name, options, n_refs)


@st.cache_data(max_entries=256, show_spinner=False)
def script_warnings(candidate: str, references: tuple[str, ...], tokenize: str) -> tuple[str, ...]:
    """The corpus linter's tokenizer advice (Chinese or Japanese text under 13a, intl or none) for one sentence."""
    findings = lint_corpus(
        ("The candidate", [candidate]), [(f"Reference {k + 1}", [ref]) for k, ref in enumerate(references)], tokenize
    )
    return tuple(f.message for f in findings if f.code == "cjk")


@st.cache_data(max_entries=16, show_spinner=False, hash_funcs=BY_KEY)
def _systems_stats(data: Systems, counting: BleuOptions) -> tuple[dict[str, SegmentStats], int]:
    """Segment statistics of every system; the references are tokenized and counted once for all of them."""
    for hyps in data.outputs.values():
        check_corpus(hyps, data.references)
    prepared = prepare_references(
        data.references, tokenize=counting.tokenize, lowercase=counting.lowercase, max_order=counting.max_order
    )
    return {name: segment_statistics(hyps, prepared) for name, hyps in data.outputs.items()}, prepared.n_refs


def systems_stats(data: Systems, options: BleuOptions) -> tuple[dict[str, SegmentStats], int]:
    return _systems_stats(data, options.for_counting())


@st.cache_data(max_entries=32, show_spinner=False, hash_funcs=BY_KEY)
def systems_analyses_cached(data: Systems, options: BleuOptions) -> dict[str, CorpusAnalysis]:
    stats, n_refs = systems_stats(data, options)
    return {name: analyze_corpus(s, options, n_refs) for name, s in stats.items()}


@st.cache_data(max_entries=4, show_spinner=False, hash_funcs=BY_KEY)
def metric_tables_cached(
    data: Systems, name: str, lowercase: bool, from_chrf_pp: bool = False
) -> dict[str, np.ndarray]:
    """chrF, chrF++ or TER statistics of every system (:func:`bleu_core.compare.metrics.metric_tables`); chrF's
    cut from chrF++'s when ``from_chrf_pp`` (both metrics shown: the characters are counted once).  A few
    entries: each holds segments x 3 x orders integers per system (chrF)."""
    options = make_options(lowercase=lowercase)
    if name == "chrf" and from_chrf_pp:
        wider = metric_tables_cached(data, "chrf++", lowercase)
        return chrf_tables_of(wider, cast(ChrfMetric, metric("chrf", options)).options)
    return metric_tables(name, data.outputs, data.references, options)[1]


@st.cache_data(max_entries=16, show_spinner=False, hash_funcs=BY_KEY)
def refusals_cached(data: Systems, limits: Limits) -> dict[str, Message]:
    """The metrics beside BLEU the limits policy refuses for these systems, with why (one check per test set)."""
    return refusals(list(data.outputs.values()), data.references, limits)


@st.cache_data(max_entries=4, show_spinner=False, hash_funcs=BY_KEY)
def segment_scores_cached(data: Systems, name: str, lowercase: bool) -> dict[str, np.ndarray]:
    """Every system's chrF, chrF++ or TER of each segment (sacreBLEU's sentence scores), from the cached tables."""
    tables = metric_tables_cached(data, name, lowercase)
    return segment_scores(name, tables, make_options(lowercase=lowercase), len(data.references))


def metric_comparison_cached(
    data: Systems,
    options: BleuOptions,
    name: str,
    baseline: str | None,
    test: str,
    samples: tuple[int, ...],
    seed: int,
    progress: Progress | None = None,
    from_chrf_pp: bool = False,
) -> tuple[Comparison, ...]:
    """One metric's differences to the baseline and every pairwise p-value at each of ``samples`` (the most
    first), from one set of sacreBLEU's draws (chrF's statistics cut from chrF++'s when ``from_chrf_pp``)."""
    most, *prefixes = samples
    if name == "bleu":
        stats, _ = systems_stats(data, options)
        return _remember(
            ("comparison", data.key, options, baseline, test, samples, seed),
            lambda: compare_from_stats_and_prefixes(
                stats, options, prefixes, baseline=baseline, test=test, n_samples=most, seed=seed, progress=progress
            ),
        )
    tables = metric_tables_cached(data, name, options.lowercase, from_chrf_pp)
    return _remember(
        ("metric_comparison", data.key, name, options.lowercase, baseline, test, samples, seed),
        lambda: compare_metric_and_prefixes(
            tables,
            metric(name, options, len(data.references)),
            prefixes,
            baseline=baseline,
            test=test,
            n_samples=most,
            seed=seed,
            progress=progress,
        ),
    )


def characteristic_cached(
    data: Systems, options: BleuOptions, progress: Progress | None = None
) -> dict[str, tuple[tuple[NgramContrast, ...], tuple[NgramContrast, ...]]]:
    options = options.for_counting()
    return _remember(
        ("characteristic", data.key, options),
        lambda: characteristic_ngrams(data.outputs, data.references, options, progress=progress),
    )


# Corpus page: the analyses that name words and n-grams share one tokenization and one count per corpus and
# counting options (kept in the process-wide store: pickling them on every cache hit would cost more than reuse).


def corpus_ngrams_cached(corpus: Corpus, options: BleuOptions, progress: Progress | None = None) -> CorpusNgrams:
    """The corpus tokenized once and each segment's n-grams counted once."""
    counting = options.for_counting()

    def count() -> CorpusNgrams:
        tokenized = tokenize_corpus(corpus.hypotheses, corpus.references, counting.tokenize, counting.lowercase)
        return count_ngrams(tokenized, counting.max_order, progress)

    return _remember(("corpus_ngrams", corpus.key, counting), count, limit=8)


def ngram_stats_cached(key: str, counts: CorpusNgrams) -> tuple[NgramStat, ...]:
    corpus = counts.corpus
    return _remember(
        ("ngram_stats", key, corpus.tokenize, corpus.lowercase, counts.max_order), lambda: ngram_stats(counts)
    )


def twins_cached(key: str, counts: CorpusNgrams) -> tuple[Twin, ...]:
    """The words the system writes with other characters than the references (see spelling_twins)."""
    corpus = counts.corpus
    return _remember(
        ("twins", key, corpus.tokenize, corpus.lowercase, counts.max_order),
        lambda: spelling_twins(ngram_stats_cached(key, counts)),
    )


def produced_cached(key: str, counts: CorpusNgrams, keep: NgramFilter, rank: Ranking) -> ProducedLists:
    """The under- and over-produced lists for one filter and ranking (a rerun for another widget reuses them)."""
    corpus = counts.corpus
    return _remember(
        ("produced", key, corpus.tokenize, corpus.lowercase, counts.max_order, keep, rank),
        lambda: produced_lists(ngram_stats_cached(key, counts), keep, rank, top=25),
    )


def word_counts_cached(key: str, counts: CorpusNgrams) -> tuple[WordCounts, dict[str, int]]:
    """Unigram counts per segment and the words' frequencies in the test set's references."""
    corpus = counts.corpus
    return _remember(
        ("word_counts", key, corpus.tokenize, corpus.lowercase),
        lambda: (word_counts(counts), dict(reference_frequencies(counts))),
    )


def ngram_segments_cached(key: str, counts: CorpusNgrams, ngram: tuple[str, ...]) -> tuple[NgramOccurrence, ...]:
    corpus = counts.corpus
    return _remember(
        ("ngram_segments", key, corpus.tokenize, corpus.lowercase, ngram), lambda: ngram_segments(corpus, ngram)
    )


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=BY_KEY)
def what_if_cached(corpus: Corpus, options: BleuOptions, index: int, hypothesis: str) -> WhatIf:
    """The corpus with segment ``index``'s hypothesis replaced (one statistics row swapped, nothing re-counted)."""
    stats, n_refs = corpus_stats_cached(corpus, options.for_counting())
    references = [stream[index] for stream in corpus.references]
    return replace_segment(stats, index, hypothesis, references, options, n_refs)


@st.cache_data(max_entries=32, show_spinner=False, hash_funcs=BY_KEY)
def relative_cached(corpus: Corpus, options: BleuOptions, others: Systems | None) -> RelativeDiagnosis:
    """The diagnosis relative to the other systems (on the same references) and to p_n's decay."""
    analysis = corpus_analysis_cached(corpus, options)
    analyses = systems_analyses_cached(others, options) if others is not None else {}
    # Unigram counts are all the words written two ways need (a fifth of the time of counting every order).
    unigrams = make_options(tokenize=options.tokenize, lowercase=options.lowercase, max_order=1)
    counts = corpus_ngrams_cached(corpus, unigrams)
    twins = twins_cached(corpus.key, counts)
    respelled = bleu_if_spelled_alike(counts.corpus, analysis.stats, twins, options) if twins else None
    return relative_diagnosis(
        analysis, {name: a.result for name, a in analyses.items()}, respelled, matches_at_stake(twins)
    )


@st.cache_data(max_entries=16, show_spinner=False, hash_funcs=BY_KEY)
def chrf_stats_cached(corpus: Corpus, lowercase: bool) -> np.ndarray:
    """chrF2's statistics (sacreBLEU's default settings, the case as the BLEU settings say) of each segment."""
    return chrf_statistics(corpus.hypotheses, corpus.references, ChrfOptions(lowercase=lowercase))


def chrf_cached(corpus: Corpus, lowercase: bool) -> tuple[float, np.ndarray]:
    """chrF2 of the corpus and of each segment, from the cached statistics (shared with the scores by label)."""
    return chrf_scores_of(chrf_stats_cached(corpus, lowercase), ChrfOptions(lowercase=lowercase))


@st.cache_data(max_entries=16, show_spinner=False, hash_funcs=BY_KEY)
def ter_stats_cached(corpus: Corpus) -> np.ndarray:
    """TER's statistics (sacreBLEU's default settings) of each segment; the caller checks the limits first."""
    return ter_statistics(corpus.hypotheses, corpus.references, TerOptions())


def ter_cached(corpus: Corpus) -> tuple[float, np.ndarray]:
    """TER of the corpus and of each segment, from the cached statistics (shared with the scores by label)."""
    return ter_scores_of(ter_stats_cached(corpus))


@st.cache_data(max_entries=16, show_spinner=False, hash_funcs=BY_KEY)
def slices_cached(
    corpus: Corpus, tags: list[str], options: BleuOptions, with_chrf: bool, with_ter: bool = False
) -> SliceScores:
    """BLEU, chrF2 (as :func:`chrf_cached`) and, when asked for, TER (as :func:`ter_cached`) of each label of a tags
    file; a tags file that does not fit the corpus raises :class:`~bleu_core.compare.slices.TagsError`."""
    labels = read_tags(tags, len(corpus.hypotheses))
    stats, _ = corpus_stats_cached(corpus, options.for_counting())
    chrf_options = ChrfOptions(lowercase=options.lowercase)
    chrf = {"system": chrf_stats_cached(corpus, options.lowercase)} if with_chrf else None
    ter = {"system": ter_stats_cached(corpus)} if with_ter else None
    return slice_scores(labels, {"system": stats}, options, chrf, chrf_options, ter)


def _baseline_first(stats: dict[str, Any], baseline: str) -> dict[str, Any]:
    return {baseline: stats[baseline], **{name: s for name, s in stats.items() if name != baseline}}


def systems_slices_cached(
    data: Systems, tags: list[str], options: BleuOptions, baseline: str, with_chrf: bool, with_ter: bool = False
) -> SliceScores:
    """Compare's scores by label: every system's BLEU, chrF2 and (``with_ter``) TER per label, the baseline first
    (statistics shared with the verdict); a tags file that does not fit raises
    :class:`~bleu_core.compare.slices.TagsError`."""
    stats, _ = systems_stats(data, options)
    chrf = metric_tables_cached(data, "chrf", options.lowercase) if with_chrf else None
    chrf_options = cast(ChrfMetric, metric("chrf", options)).options
    ter_metric = cast(TerMetric, metric("ter", options, len(data.references)))
    ter = metric_tables_cached(data, "ter", options.lowercase) if with_ter else None
    return _remember(
        ("systems_slices", data.key, corpus_key(tags, []), options, baseline, with_chrf, with_ter),
        lambda: slice_scores(
            read_tags(tags, data.segments),
            _baseline_first(stats, baseline),
            options,
            _baseline_first(chrf, baseline) if chrf is not None else None,
            chrf_options,
            {s: ter_statistics_of(t, ter_metric) for s, t in _baseline_first(ter, baseline).items()} if ter else None,
        ),
    )


def slice_tests_cached(
    data: Systems,
    tags: list[str],
    options: BleuOptions,
    baseline: str,
    test: str,
    n_samples: int,
    seed: int,
    correction: str = "holm",
) -> tuple[LabelTest, ...]:
    """The baseline against every other system on each label, corrected over labels x systems (refused past the
    limits before any draw: :class:`~bleu_core.limits.LimitExceeded`)."""
    stats, _ = systems_stats(data, options)
    return _remember(
        ("slice_tests", data.key, corpus_key(tags, []), options, baseline, test, n_samples, seed, correction),
        lambda: slice_tests(
            read_tags(tags, data.segments),
            _baseline_first(stats, baseline),
            options,
            test=test,
            n_samples=n_samples,
            seed=seed,
            correction=correction,
        ),
    )


# The Implementations page: every tool's score, trace and waterfall.
Rows = list[tuple[Any, float, float]]


@st.cache_data(max_entries=256, show_spinner=False)
def tool_scores_cached(candidate: str, references: tuple[str, ...]) -> Rows:
    return compare_implementations(candidate, list(references))


@st.cache_data(max_entries=256, show_spinner=False)
def tool_traces_cached(candidate: str, references: tuple[str, ...]) -> tuple[ImplementationTrace, ...]:
    return trace_implementations(candidate, list(references))


@st.cache_data(max_entries=256, show_spinner=False)
def mistakes_cached(candidate: str, references: tuple[str, ...]) -> tuple[MistakeCheck, ...]:
    return common_mistakes(candidate, list(references))


@st.cache_data(max_entries=256, show_spinner=False)
def tool_counts_cached(candidate: str, references: tuple[str, ...], tokenize: str) -> Explanation:
    return explain(candidate, list(references), tokenize=tokenize, smooth="none", effective_order=False)


@st.cache_data(max_entries=256, show_spinner=False)
def waterfall_cached(first: str, second: str, candidate: str, references: tuple[str, ...], order: str) -> Waterfall:
    return waterfall(first, second, candidate, list(references), ORDERS[order])


@st.cache_data(max_entries=16, show_spinner=False, hash_funcs=BY_KEY)
def tool_corpus_table_cached(corpus: Corpus, order: str) -> tuple[Rows, dict[str, Waterfall]]:
    """Every tool's corpus score, and sacreBLEU to every tool for the scores table's attribution."""
    return corpus_scores_and_waterfalls("sacrebleu", corpus.hypotheses, corpus.references, ORDERS[order])


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=BY_KEY)
def corpus_waterfall_cached(
    corpus: Corpus, first: str, second: str, order: str, _own_scores: dict[str, float]
) -> Waterfall:
    """The chosen pair's waterfall; ``_own_scores`` are the tools' scores the table found (same input)."""
    return corpus_waterfall(first, second, corpus.hypotheses, corpus.references, ORDERS[order], _own_scores)


@st.cache_data(max_entries=16, show_spinner=False, hash_funcs=BY_KEY)
def first_differing_cached(corpus: Corpus, first: str, second: str) -> int:
    return first_differing_segment(first, second, corpus.hypotheses, corpus.references)


# Explain's exercise mode.
@st.cache_data(max_entries=256, show_spinner=False)
def exercise_cached(seed: int, trap: str | None) -> Exercise:
    return generate_exercise(seed, trap)
