"""Differential fuzzing of ``bleu_core.sacrebleu_api``'s chrF and TER (and their paired tests) against sacreBLEU 2.6.0.

Each case is a random call on the random text of :mod:`tests.core.test_fuzz_sacrebleu_api` (every script and kind
of whitespace, empty lines, missing and duplicated references): ``corpus_chrf``, ``sentence_chrf``,
``corpus_ter``, ``sentence_ter``, ``CHRF(...)`` or ``TER(...)`` with every option (orders, β, case, whitespace,
eps smoothing; TER's normalization, punctuation, Asian support, case) and their ``corpus_score`` (cached
references, ``n_bootstrap``), ``sentence_score`` and ``get_signature``, or a paired test (bootstrap or approximate
randomization: score, p-value, mean and half-width of each system, as the command line prints them).  Fields must
be equal bit for bit and of the same types, printed forms byte for byte (the version masked), or both must raise
(ours a class deriving from sacreBLEU's).  The README's documented differences are not cases: sacreBLEU's
TypeError in ``statistics.mean`` when a resample scores a Python float among float32 scores (ours gives the
interval), chrF without any order, and TER's paired tests with 3, 5, 6 or 7 references.

``make test`` runs :data:`DEFAULT_CASES` cases; ``make test-slow`` runs ``BLEU_FUZZ_CASES`` (default 100,000) with
another seed; ``BLEU_FUZZ_SEED`` changes the seeds; ``case(seed, number)`` replays a case.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
import sacrebleu
from sacrebleu.significance import PairedTest

from bleu_core.compare.metrics import ChrfMetric, ter_table
from bleu_core.compare.paired import paired_results
from bleu_core.stats import chrf, ter
from tests.core import test_fuzz_sacrebleu_api as fuzz_api
from tests.core.test_dropin_fixes import exact
from tests.core.test_fuzz_sacrebleu_api import Case, corpus, signature

DEFAULT_CASES = 300
SLOW_CASES = int(os.environ.get("BLEU_FUZZ_CASES", "100000"))
SEED = int(os.environ.get("BLEU_FUZZ_SEED", "34"))


def score_fields(score: Any, width: int) -> list[Any]:
    """Every field of a chrF or TER score, exactly, and its printed forms."""
    names = ("score", "char_order", "word_order", "beta", "num_edits", "ref_length", "_mean", "_ci")
    fields = [exact(getattr(score, name, None)) for name in names]
    fields += [str(score), score.format(width=width), score.format(width=width, score_only=True)]
    return [*fields, score.format(width, signature="nrefs:1|case:mixed", is_json=True)]


def chrf_options(rng: random.Random) -> dict[str, Any]:
    """CHRF's constructor arguments (at least one n-gram order: none is a documented difference)."""
    chosen = {
        "char_order": rng.choice((6, 6, 6, 0, 1, 2, 3, 4)),
        "word_order": rng.choice((0, 0, 2, 2, 1, 3)),
        "beta": rng.choice((2, 2, 2, 0, 1, 3)),
        "lowercase": rng.random() < 0.3,
        "whitespace": rng.random() < 0.3,
        "eps_smoothing": rng.random() < 0.4,
    }
    if chosen["char_order"] + chosen["word_order"] == 0:
        chosen["char_order"] = 6
    return chosen


def ter_options(rng: random.Random) -> dict[str, Any]:
    return {name: rng.random() < 0.35 for name in ("normalized", "no_punct", "asian_support", "case_sensitive")}


def function_case(rng: random.Random) -> Case:
    """corpus_chrf, sentence_chrf, corpus_ter or sentence_ter (the chrF functions' ``remove_whitespace``)."""
    (hyps,), refs = corpus(rng)
    metric = rng.choice(("chrf", "ter"))
    sentence = rng.random() < 0.4
    width = rng.randint(0, 5)
    if metric == "chrf":
        settings = chrf_options(rng)
        del settings["lowercase"]
        settings["remove_whitespace"] = not settings.pop("whitespace")
    else:
        settings = ter_options(rng)

    def run(module: Any) -> Any:
        if sentence:
            sentence_refs = [stream[0] for stream in refs if stream[0] is not None]
            return score_fields(getattr(module, f"sentence_{metric}")(hyps[0], sentence_refs, **settings), width)
        return score_fields(getattr(module, f"corpus_{metric}")(hyps, refs, **settings), width)

    kind = "sentence" if sentence else "corpus"
    return f"{kind}_{metric}: hyps={hyps!r}, refs={refs!r}, options={settings}", run


def metric_case(rng: random.Random) -> Case:
    """CHRF(...) or TER(...): corpus_score (cached references, bootstrap), sentence_score, signatures."""
    (hyps,), refs = corpus(rng)
    name = rng.choice(("CHRF", "TER"))
    settings = chrf_options(rng) if name == "CHRF" else ter_options(rng)
    cached = rng.random() < 0.3
    bootstrap = rng.choice((1, 1, 2, 5, 40))
    width = rng.randint(0, 4)
    sentence = rng.random() < 0.3

    def run(module: Any) -> Any:
        metric = getattr(module, name)(references=refs if cached else None, **settings)
        if sentence:
            sentence_refs = [stream[-1] for stream in refs if stream[-1] is not None]
            score = metric.sentence_score(hyps[-1], sentence_refs)
        else:
            score = metric.corpus_score(hyps, None if cached else refs, n_bootstrap=bootstrap)
        return [score_fields(score, width), signature(metric)]

    description = f"{name} sentence={sentence}: hyps={hyps!r}, refs={refs!r}, options={settings}"
    return f"{description}, cached={cached}, n={bootstrap}", run


def paired_case(rng: random.Random) -> Case:
    """A paired test in chrF or TER: sacreBLEU's PairedTest against :func:`paired_results`."""
    systems, refs = corpus(rng, systems=rng.choice((2, 2, 3)))
    refs = [[ref if ref is not None else "" for ref in stream] for stream in refs]
    if len(refs) == 3:
        refs = refs[:2]  # TER's sums of thirds: a documented difference
    name = rng.choice(("CHRF", "TER"))
    test = rng.choice(("bs", "ar"))
    n = rng.choice((1, 2, 10, 50)) if test == "bs" else rng.choice((1, 10, 100, 300))
    settings = chrf_options(rng) if name == "CHRF" else {}  # the command line's TER flags are tested there

    def run(module: Any) -> Any:
        if module is sacrebleu:
            metric = getattr(sacrebleu, name)(references=refs, **settings)
            named = [(f"s{i}", hyps) for i, hyps in enumerate(systems)]
            table = PairedTest(named, {name: metric}, None, test_type=test, n_samples=n)()[1]
            results = table[next(key for key in table if key != "System")]
            rows = [(r.score, r.p_value, r.mean, r.ci) for r in results]
            return [[exact(None if x is None else float(x)) for x in row] for row in rows]
        if name == "CHRF":
            options = chrf.ChrfOptions(**settings)
            tables = {f"s{i}": chrf.chrf_statistics(hyps, refs, options) for i, hyps in enumerate(systems)}
            scorer: Any = ChrfMetric(options)
        else:
            stats = {f"s{i}": ter.ter_statistics(hyps, refs, ter.TerOptions()) for i, hyps in enumerate(systems)}
            scored = {key: ter_table(value, len(refs)) for key, value in stats.items()}
            scorer, tables = next(iter(scored.values()))[0], {key: table for key, (_, table) in scored.items()}
        rows = paired_results(tables, scorer, test, n)
        return [[exact(None if x is None else float(x)) for x in row] for row in rows]

    return f"paired {name} {test} n={n}: systems={systems!r}, refs={refs!r}, options={settings}", run


def case(seed: int, number: int) -> Case:
    rng = random.Random(f"{seed}:{number}")
    kind = rng.random()
    if kind < 0.35:
        return function_case(rng)
    if kind < 0.8:
        return metric_case(rng)
    return paired_case(rng)


def documented(theirs: Any, mine: Any) -> bool:
    """sacreBLEU's TypeError in ``statistics.mean`` over mixed float types (ours gives the interval: see the
    README's differences)."""
    return isinstance(theirs, TypeError) and "coerce" in str(theirs) and not isinstance(mine, Exception)


def mismatches(seed: int, count: int) -> list[str]:
    return fuzz_api.mismatches(seed, count, case, documented)


def test_chrf_and_ter_equal_sacrebleu_on_random_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    found = mismatches(SEED, DEFAULT_CASES)
    assert not found, f"{len(found)} of {DEFAULT_CASES} cases differ:\n" + "\n".join(found[:10])


@pytest.mark.slow
@pytest.mark.timeout(6 * 3600)
def test_chrf_and_ter_equal_sacrebleu_on_many_random_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    found = mismatches(SEED + 1, SLOW_CASES)
    assert not found, f"{len(found)} of {SLOW_CASES} cases differ:\n" + "\n".join(found[:10])
