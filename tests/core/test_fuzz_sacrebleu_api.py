"""Differential fuzzing of ``bleu_core.sacrebleu_api`` (and the paired tests) against sacreBLEU 2.6.0.

Each case is a random call on random text (words of many scripts, punctuation, symbols, emoji, combining marks,
digits, every kind of whitespace inside a line, leading and trailing spaces, empty lines, missing and duplicated
references): ``corpus_bleu``, ``sentence_bleu``, ``raw_corpus_bleu``, ``BLEU(...)`` with every option (tokenizer
or target language, case, smoothing method and value, max n-gram order, effective order, cached references,
``n_bootstrap``) and its ``corpus_score``/``sentence_score``/``get_signature``/``compute_bleu``, or a paired test
(bootstrap or approximate randomization: the scores, means, intervals and p-values the command line prints).  The
fields must be equal bit for bit (and of the same types), the printed forms byte for byte (the version in a
signature aside), or both must raise (ours a class deriving from sacreBLEU's).  Ours runs with NumPy's exp and log
one unit in the last place off, as they can be on other machines: the bits must not depend on them.

``make test`` runs :data:`DEFAULT_CASES` cases; ``make test-slow`` runs ``BLEU_FUZZ_CASES`` (default 100,000) with
another seed; ``BLEU_FUZZ_SEED`` changes the seeds; ``case(seed, number)`` replays a case.
"""

from __future__ import annotations

import logging
import os
import random
import re
import warnings
from collections.abc import Callable
from typing import Any

import pytest
import sacrebleu
from sacrebleu.significance import PairedTest

import bleu_core.sacrebleu_api as ours
from bleu_core.compare.resampling import draw, estimate_ci, paired_p_value
from bleu_core.stats.progress import ProgressReporter
from tests.core.test_dropin_fixes import exact, numpy_exp_and_log_off_by_one_ulp

DEFAULT_CASES = 500
SLOW_CASES = int(os.environ.get("BLEU_FUZZ_CASES", "100000"))
SEED = int(os.environ.get("BLEU_FUZZ_SEED", "33"))

#: Pieces of text: words of several scripts, numbers, punctuation, symbols, marks and odd characters.
PIECES = [
    "the", "cat", "sat", "on", "mat", "a", "dog", "The", "THE", "Hello", "don't", "U.S.", "e-mail", "3.14",
    "1,000", "$5", "50%", "a/b", "(x)", "[y]", '"q"', "&amp;", "&lt;", "<br>", "--", "...", "cat.", "mat,",
    ".", ",", "!", "?", ";", ":", "'", '"', "-", "—", "–", "…", "«", "»", "„", "“", "”", "‘", "’", "¿", "¡",
    "猫", "我爱", "自然语言处理", "、", "。", "，", "（", "）", "ー", "カタカナ", "ひらがな", "한국어", "ｆｕｌｌ",
    "مرحبا", "שלום", "नमस्ते", "ภาษาไทย", "Привет", "Ελλάδα", "€", "£", "©", "™", "°", "±", "😀", "👍🏽",
    "🇩🇪", "👨\u200d👩\u200d👧", "e\u0301", "a\u0308", "İ", "ß", "ǅ", "٣", "①", "\u200b", "\x01", "\x7f",
    "\ufeff", "ﬁ", "x²", "1e-5", "can't", "l'homme", "über", "ÉCOLE", "\u0301",
]  # fmt: skip
SPACES = [" "] * 12 + ["", "  ", "\t", "\u00a0", "\u3000", "\u2009", "\x0c", "\x0b", "\x1c", "\x85", "\u2028", "\n"]
TOKENIZERS = ["13a", "13a", "intl", "zh", "char", "none"]
SMOOTHING: list[tuple[str, Any]] = [
    ("exp", None), ("exp", None), ("none", None), ("floor", None), ("floor", 0.1), ("floor", 0.5), ("floor", 2),
    ("floor", 0), ("add-k", None), ("add-k", 1), ("add-k", 2), ("add-k", 0.5), ("add-k", 0.0), ("add-k", 0),
    ("exp", 0.3), ("none", 3),
]  # fmt: skip


def line(rng: random.Random, base: str | None = None) -> str:
    """A random line, or (``base``) an edit of one."""
    if base is not None and rng.random() < 0.6:
        words = base.split(" ")
        for _ in range(rng.randint(0, 3)):
            where = rng.randrange(len(words) + 1)
            if rng.random() < 0.4 and words:
                del words[min(where, len(words) - 1)]
            elif rng.random() < 0.3 and words:
                words[min(where, len(words) - 1)] = words[min(where, len(words) - 1)].upper()
            else:
                words.insert(where, rng.choice(PIECES))
        return " ".join(words)
    length = rng.choice((0, 1, 2, 3, 5, 8, rng.randint(0, 20)))
    pool = PIECES[: rng.choice((8, 20, len(PIECES)))]
    text = ""
    for i in range(length):
        text += (rng.choice(SPACES) if i else "") + rng.choice(pool)
    if rng.random() < 0.1:
        text = rng.choice(SPACES) + text + rng.choice(SPACES)
    return text


def corpus(rng: random.Random, systems: int = 1) -> tuple[list[list[str]], list[list[str | None]]]:
    """``systems`` hypothesis lists and reference streams (some entries None: a missing reference)."""
    size = rng.choice((1, 1, 2, 3, 4, 6, 10))
    n_refs = rng.choice((1, 1, 1, 2, 3))
    refs: list[list[str | None]] = [[line(rng) for _ in range(size)] for _ in range(n_refs)]
    if n_refs > 1 and rng.random() < 0.2:
        for i in range(size):
            if rng.random() < 0.4:
                refs[rng.randrange(1, n_refs)][i] = None
    if rng.random() < 0.05:
        refs.append(list(refs[0]))  # a duplicated stream
    hyps = [[line(rng, refs[0][i] if rng.random() < 0.8 else None) for i in range(size)] for _ in range(systems)]
    return hyps, refs


def score_fields(score: Any, width: int) -> Any:
    """Every field of a score, exactly, and its printed forms."""
    fields = [exact(getattr(score, name)) for name in ("score", "counts", "totals", "precisions", "bp")]
    fields += [exact(score.sys_len), exact(score.ref_len), str(score), score.format(width=width)]
    fields += [score.format(width=width, score_only=True), score.format(width, signature="sig", is_json=True)]
    mean = getattr(score, "_mean", getattr(score, "mean", None))
    ci = getattr(score, "_ci", getattr(score, "ci", None))
    return [*fields, exact(mean), exact(ci)]


def signature(metric: Any) -> list[str]:
    """The signature, long and short, the version masked."""
    sig = metric.get_signature()
    return [re.sub(r"(version|v):\S+", r"\1:X", text) for text in (sig.format(), sig.format(short=True))]


Case = tuple[str, Callable[[Any], Any]]


def options(rng: random.Random) -> dict[str, Any]:
    smooth_method, smooth_value = rng.choice(SMOOTHING)
    chosen: dict[str, Any] = {"smooth_method": smooth_method, "smooth_value": smooth_value}
    chosen["lowercase"] = rng.random() < 0.3
    if rng.random() < 0.85:
        chosen["tokenize"] = rng.choice(TOKENIZERS)
    return chosen


def function_case(rng: random.Random) -> Case:
    """sacrebleu.corpus_bleu, sentence_bleu or raw_corpus_bleu."""
    (hyps,), refs = corpus(rng)
    chosen = options(rng)
    which = rng.randrange(3)
    width = rng.randint(0, 5)
    effective = rng.random() < 0.3

    def run(module: Any) -> Any:
        if which == 0:
            return score_fields(module.corpus_bleu(hyps, refs, use_effective_order=effective, **chosen), width)
        if which == 1:
            sentence_refs = [stream[0] for stream in refs if stream[0] is not None]
            kwargs = {**chosen, "use_effective_order": not effective}
            return score_fields(module.sentence_bleu(hyps[0], sentence_refs, **kwargs), width)
        return score_fields(module.raw_corpus_bleu(hyps, refs, chosen["smooth_value"]), width)

    return f"function {which}: hyps={hyps!r}, refs={refs!r}, options={chosen}, effective={effective}", run


def metric_case(rng: random.Random) -> Case:
    """BLEU(...) with any options: corpus_score (cached references, bootstrap), sentence_score, signatures."""
    (hyps,), refs = corpus(rng)
    chosen = options(rng)
    if "tokenize" not in chosen and rng.random() < 0.5:
        chosen["trg_lang"] = rng.choice(("zh", "en", "de", ""))
    chosen["max_ngram_order"] = rng.choice((4, 4, 4, 1, 2, 3, 5, 6))
    chosen["effective_order"] = rng.random() < 0.3
    cached = rng.random() < 0.3
    bootstrap = rng.choice((1, 1, 1, 2, 5, 40))
    width = rng.randint(0, 4)
    which = rng.randrange(3)

    def run(module: Any) -> Any:
        metric = module.BLEU(references=refs if cached else None, **chosen)
        out: list[Any] = []
        if which == 0:
            out.append(score_fields(metric.corpus_score(hyps, None if cached else refs, n_bootstrap=bootstrap), width))
        elif which == 1:
            sentence_refs = [stream[-1] for stream in refs if stream[-1] is not None]
            out.append(score_fields(metric.sentence_score(hyps[-1], sentence_refs), width))
        else:
            score = metric.corpus_score(hyps, None if cached else refs)
            stats = [score.counts, score.totals, score.sys_len, score.ref_len]
            counts = [int(c) for c in stats[0]]
            totals = [int(t) for t in stats[1]]
            computed = module.BLEU.compute_bleu(counts, totals, stats[2], stats[3], chosen["smooth_method"],
                                                chosen["smooth_value"], chosen["effective_order"],
                                                chosen["max_ngram_order"])  # fmt: skip
            out.append(score_fields(computed, width))
        out.append(signature(metric))
        return out

    return f"metric {which}: hyps={hyps!r}, refs={refs!r}, options={chosen}, cached={cached}, n={bootstrap}", run


def paired_case(rng: random.Random) -> Case:
    """A paired test: sacreBLEU's PairedTest against the draws and p-values the command line prints."""
    systems, refs = corpus(rng, systems=rng.choice((2, 2, 3)))
    refs = [[ref if ref is not None else "" for ref in stream] for stream in refs]
    chosen = options(rng)
    chosen["tokenize"] = chosen.get("tokenize", "13a")
    test = rng.choice(("bs", "ar"))
    n = rng.choice((1, 2, 10, 50)) if test == "bs" else rng.choice((1, 10, 100, 300))
    seed = rng.choice((12345, 12345, 1, 7, 2**31))

    def run(module: Any) -> Any:
        if module is sacrebleu:
            os.environ["SACREBLEU_SEED"] = str(seed)
            try:
                theirs = sacrebleu.BLEU(references=refs, **chosen)
                named = [(f"s{i}", hyps) for i, hyps in enumerate(systems)]
                results = PairedTest(named, {"BLEU": theirs}, None, test_type=test, n_samples=n)()[1]["BLEU"]
            finally:
                del os.environ["SACREBLEU_SEED"]
            floats = [[r.score, r.p_value, r.mean, r.ci] for r in results]  # the mean and ci as the CLI prints them
            return [[exact(None if x is None else float(x)) for x in row] for row in floats]
        metric = ours.BLEU(**chosen)
        stats = [metric._statistics(hyps, refs) for hyps in systems]
        opts = metric.options
        draws = draw(stats, opts, test, n, seed, ProgressReporter(None))
        out = []
        for i in range(len(systems)):
            mean, ci = estimate_ci(draws.resampled[i]) if test == "bs" else (None, None)
            p_value = paired_p_value(draws, 0, i, opts) if i else None
            out.append([exact(float(draws.observed[i])), exact(p_value), exact(mean), exact(ci)])
        return out

    return f"paired {test} n={n} seed={seed}: systems={systems!r}, refs={refs!r}, options={chosen}", run


def case(seed: int, number: int) -> Case:
    rng = random.Random(f"{seed}:{number}")
    kind = rng.random()
    if kind < 0.4:
        return function_case(rng)
    if kind < 0.8:
        return metric_case(rng)
    return paired_case(rng)


def outcome(run: Callable[[Any], Any], module: Any) -> Any:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return run(module)
    except Exception as error:
        return error


def same(theirs: Any, mine: Any) -> bool:
    """Equal, or both raise and ours derives from sacreBLEU's exception (see sacrebleu_api's docstring)."""
    if isinstance(theirs, Exception):
        return isinstance(mine, type(theirs))
    return not isinstance(mine, Exception) and bool(theirs == mine)


def mismatches(
    seed: int,
    count: int,
    cases: Callable[[int, int], Case] = case,
    documented: Callable[[Any, Any], bool] = lambda theirs, mine: False,
) -> list[str]:
    """The cases (``cases(seed, number)`` for each number below ``count``) where ours differs from sacreBLEU,
    outcomes ``documented`` as deliberate differences aside."""
    logging.getLogger("sacrebleu").setLevel(logging.CRITICAL)
    found = []
    for number in range(count):
        description, run = cases(seed, number)
        theirs = outcome(run, sacrebleu)
        with numpy_exp_and_log_off_by_one_ulp():  # ours must not depend on NumPy's exp and log (machine-dependent)
            mine = outcome(run, ours)
        if not same(theirs, mine) and not documented(theirs, mine):
            found.append(f"case({seed}, {number}): {description}\n    sacreBLEU: {theirs!r}\n    ours: {mine!r}")
    return found


@pytest.fixture(autouse=True)
def _no_seed_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)


def test_sacrebleu_api_equals_sacrebleu_on_random_calls() -> None:
    found = mismatches(SEED, DEFAULT_CASES)
    assert not found, f"{len(found)} of {DEFAULT_CASES} cases differ:\n" + "\n".join(found[:10])


@pytest.mark.slow
@pytest.mark.timeout(3 * 3600)
def test_sacrebleu_api_equals_sacrebleu_on_many_random_calls() -> None:
    found = mismatches(SEED + 1, SLOW_CASES)
    assert not found, f"{len(found)} of {SLOW_CASES} cases differ:\n" + "\n".join(found[:10])
