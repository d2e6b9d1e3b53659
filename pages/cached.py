"""The pages' only way into bleu_core: cached wrappers whose arguments are plain values."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import streamlit as st

from bleu_core import SegmentStats, corpus_statistics, make_options, reader
from bleu_core.analysis import CorpusAnalysis, LintFinding, NgramTallies, analyze_corpus, lint_corpus, ngram_tallies
from bleu_core.api import check_corpus
from bleu_core.explain import Explanation, explain

Settings = tuple[tuple[str, Any], ...]


def settings_key(options: dict[str, Any]) -> Settings:
    """Options as a hashable, order-independent tuple (tuples for sequences)."""
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in options.items()))


@st.cache_data(max_entries=512, show_spinner=False)
def explain_cached(candidate: str, references: tuple[str, ...], settings: Settings) -> Explanation:
    return explain(candidate, list(references), **dict(settings))


@st.cache_data(max_entries=64, show_spinner=False)
def decode_cached(data: bytes, name: str) -> list[str]:
    """Lines of an uploaded file; raises bleu_core.reader.InputFileError with a message for people."""
    return reader.decode_lines(data, name)


def corpus_key(hypotheses: list[str], references: list[list[str | None]]) -> str:
    """A digest naming a corpus, so cached functions need not hash every line on each rerun."""
    digest = hashlib.blake2b(digest_size=16)
    for stream in (hypotheses, *references):
        digest.update(str(len(stream)).encode())
        digest.update("\x1e".join("\x1f" if line is None else line for line in stream).encode("utf-8", "replace"))
        digest.update(b"\x1d")
    return digest.hexdigest()


@st.cache_data(max_entries=32, show_spinner=False)
def corpus_stats_cached(
    key: str,
    _hypotheses: list[str],
    _references: list[list[str | None]],
    tokenize: str,
    lowercase: bool,
    max_order: int,
) -> tuple[SegmentStats, int]:
    """Per-segment statistics of a corpus (``key`` from :func:`corpus_key` stands for the text)."""
    options = make_options(tokenize=tokenize, lowercase=lowercase, max_order=max_order)
    hyps, streams = check_corpus(_hypotheses, _references)
    stats, prepared = corpus_statistics(hyps, streams, options)
    return stats, prepared.n_refs


@st.cache_data(max_entries=64, show_spinner=False)
def corpus_analysis_cached(
    key: str, _hypotheses: list[str], _references: list[list[str | None]], settings: Settings
) -> CorpusAnalysis:
    options = make_options(**dict(settings))
    stats, n_refs = corpus_stats_cached(
        key, _hypotheses, _references, options.tokenize, options.lowercase, options.max_order
    )
    return analyze_corpus(stats, options, n_refs)


@st.cache_data(max_entries=16, show_spinner=False)
def ngram_tallies_cached(
    key: str,
    _hypotheses: list[str],
    _references: list[list[str | None]],
    tokenize: str,
    lowercase: bool,
    max_order: int,
    _progress: Callable[[float], None] | None = None,
) -> NgramTallies:
    options = make_options(tokenize=tokenize, lowercase=lowercase, max_order=max_order)
    return ngram_tallies(_hypotheses, _references, options, progress=_progress)


@st.cache_data(max_entries=32, show_spinner=False)
def lint_cached(
    key: str, names: tuple[str, ...], _hypotheses: list[str], _references: list[list[str]], tokenize: str
) -> tuple[LintFinding, ...]:
    """Input checks for a corpus (``names``: hypothesis file name, then the reference file names)."""
    return lint_corpus((names[0], _hypotheses), list(zip(names[1:], _references, strict=True)), tokenize)
