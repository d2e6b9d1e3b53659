"""Differential fuzzing of ``bleu_core.nltk_api`` against NLTK 3.10.4: seeded random calls, every one compared.

Each case is a random call of ``sentence_bleu``, ``corpus_bleu`` (short corpora, and corpora long enough for the
vectorized counter), a ``SmoothingFunction`` method called directly (on ``modified_precision``'s fractions or on
hand-made ones, zero numerators over any denominator included), or a helper (``modified_precision``,
``closest_ref_length``, ``brevity_penalty``), on tokens of several types (str of every Unicode category, int,
float, bool, None, tuples, bytes, NumPy scalars, NaN), with random weights (tuples, lists, NumPy arrays, several
vectors, negative and non-finite values), smoothing parameters (any number types, zero and negative values) and
custom smoothing callables.  Both libraries get the same call; the value (bits and type, fractions as counted),
the precisions a smoothing method leaves in the caller's list, or the exception class must be the same.

``make test`` runs :data:`DEFAULT_CASES` cases; ``make test-slow`` runs ``BLEU_FUZZ_CASES`` (default 100,000) with
another seed.  ``BLEU_FUZZ_SEED`` changes the seeds.  A mismatch names the case number and seed, which replay it
(``case(seed, number)``); every mismatch found so far is a fixed case in ``test_dropin_fixes.py``.
"""

from __future__ import annotations

import math
import os
import random
import warnings
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from nltk.translate import bleu_score as nltk

import bleu_core.nltk_api as ours
from tests.core.test_dropin_fixes import exact

#: Cases per ``make test`` run (a few seconds) and per slow run (settable).
DEFAULT_CASES = 1000
SLOW_CASES = int(os.environ.get("BLEU_FUZZ_CASES", "100000"))
SEED = int(os.environ.get("BLEU_FUZZ_SEED", "33"))

NAN = float("nan")
#: Tokens: a small pool so that n-grams match, of every kind NLTK's Counters compare.
WORDS = ["the", "cat", "sat", "a", "on", "mat", "The", "é", "e\u0301", "猫", "\u200b", "", " ", "1", "\x001", "\x00",
         "١", "ß", "ﬁ", "😀", "a b", "\t", "-", "."]  # fmt: skip
OTHERS: list[Any] = [1, 2, 0, 1.0, 2.5, True, False, None, ("a",), (1, 2), b"a", np.int64(1), np.float64(2.0),
                     np.str_("cat"), NAN, frozenset({1}), -0.0]  # fmt: skip


def token(rng: random.Random, mixed: bool) -> Any:
    if mixed and rng.random() < 0.35:
        if rng.random() < 0.03:
            return float("nan") if rng.random() < 0.7 else [1]  # a NaN of its own (equal to nothing); unhashable
        return rng.choice(OTHERS)
    return rng.choice(WORDS[: rng.choice((4, 8, len(WORDS)))])


def sentence(rng: random.Random, mixed: bool, longest: int = 9) -> list[Any]:
    length = rng.choice((0, 1, 2, 3, 4, 5, rng.randint(0, longest)))
    words = [token(rng, mixed) for _ in range(length)]
    return words


def references(rng: random.Random, hyp: list[Any], mixed: bool) -> list[list[Any]]:
    refs = []
    for _ in range(rng.choice((1, 1, 1, 2, 3, 4))):
        if hyp and rng.random() < 0.5:  # an edited copy of the hypothesis: partial matches at every order
            ref = list(hyp)
            for _ in range(rng.randint(0, 3)):
                where = rng.randrange(len(ref) + 1)
                if rng.random() < 0.5 and ref:
                    del ref[min(where, len(ref) - 1)]
                else:
                    ref.insert(where, token(rng, mixed))
        else:
            ref = sentence(rng, mixed)
        refs.append(ref)
    if rng.random() < 0.1:
        refs.append(list(refs[0]))  # a duplicated reference
    return refs


def weights(rng: random.Random) -> Any:
    def vector() -> Any:
        size = rng.choice((1, 2, 3, 4, 4, 4, 5, 6))
        kind = rng.random()
        if kind < 0.35:
            return tuple([1 / size] * size) if size != 4 else (0.25, 0.25, 0.25, 0.25)
        values: list[Any] = [rng.choice((0.25, 0.5, 1, 0, 0.1, 1 / 3, 2)) for _ in range(size)]
        if kind < 0.45:
            values[rng.randrange(size)] = rng.choice((-0.5, math.inf, -math.inf, NAN, Fraction(1, 3), np.float64(0.3)))
        return tuple(values) if kind < 0.7 else values

    kind = rng.random()
    if kind < 0.5:
        return (0.25, 0.25, 0.25, 0.25)
    if kind < 0.75:
        return vector()
    if kind < 0.85:
        return [vector() for _ in range(rng.randint(1, 3))]
    if kind < 0.92:
        return np.array(vector(), dtype=float) if rng.random() < 0.7 else np.array([[0.5, 0.5], [0.25] * 2])
    return [np.array([0.25] * 4)] if rng.random() < 0.5 else [(0.5, 0.5), (0.25, 0.25, 0.25, 0.25)]


def parameters(rng: random.Random) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for name, usual in (("epsilon", 0.1), ("alpha", 5), ("k", 5)):
        if rng.random() < 0.25:
            params[name] = rng.choice((0, -1, 0.5, 2, Fraction(1, 10), np.float64(0.2), 1e-300, math.inf, usual, 10))
    return params


def custom_smoothing(rng: random.Random) -> Callable[..., Any]:
    """A caller's own smoothing function, as NLTK users write them."""
    choice = rng.randrange(4)
    if choice == 0:
        return lambda p_n, **kwargs: p_n
    if choice == 1:
        return lambda p_n, **kwargs: [p if p.numerator else 0.01 for p in p_n]
    if choice == 2:
        return lambda p_n, references, hypothesis, hyp_len: [(p.numerator + 1) / (p.denominator + len(hypothesis))
                                                              for p in p_n]  # fmt: skip
    return lambda p_n, *args, **kwargs: [float(p) + hash(len(args)) * 0 for p in p_n]


def smoothing(rng: random.Random, module: Any, method: Any, params: dict[str, Any], custom: Any) -> Any:
    if method is None:
        return None
    if method == "custom":
        return custom
    owner = (nltk if method == "nltk" else module).SmoothingFunction(**params)
    return getattr(owner, f"method{rng.randrange(8) if method == 'nltk' else method}")


Case = tuple[str, Callable[[Any], Any]]


def bleu_case(rng: random.Random, corpus: bool) -> Case:
    """A sentence_bleu or corpus_bleu call (a long corpus goes through the vectorized counter)."""
    mixed = rng.random() < 0.3
    size = 1 if not corpus else rng.choice((1, 2, 3, 4, 5, 8))
    if corpus and rng.random() < 0.08:  # long enough for the vectorized counter (64 segments), rarely several chunks
        size = rng.choice((64, 65, 100, 130, 600 if rng.random() < 0.1 else 70))
    hyps = [sentence(rng, mixed) for _ in range(size)]
    refs = [references(rng, hyp, mixed) for hyp in hyps]
    if corpus and rng.random() < 0.03:
        refs[rng.randrange(size)] = []  # a segment without references: NLTK fails
    w = weights(rng)
    method = rng.choice((None, 0, 1, 2, 3, 4, 5, 6, 7, 1, 4, 7, "nltk", "custom"))
    params = parameters(rng)
    custom = custom_smoothing(rng)
    reweigh = rng.random() < 0.3
    pick = rng.random()

    def run(module: Any) -> Any:
        chooser = random.Random(pick)
        function = smoothing(chooser, module, method, params, custom)
        if corpus:
            return module.corpus_bleu(refs, hyps, w, function, reweigh)
        return module.sentence_bleu(refs[0], hyps[0], weights=w, smoothing_function=function, auto_reweigh=reweigh)

    name = "corpus_bleu" if corpus else "sentence_bleu"
    return f"{name}(refs={refs!r}, hyps={hyps!r}, weights={w!r}, method={method!r}, params={params}, " \
           f"auto_reweigh={reweigh})", run  # fmt: skip


def made_precisions(rng: random.Random, module: Any) -> list[Any]:
    """Hand-made precisions of the module's own kind: zero numerators over any denominator, unreduced pairs."""
    pairs = [(rng.randint(0, 4), rng.randint(1, 6)) for _ in range(rng.choice((3, 4, 4, 5)))]
    pairs = [(min(m, d), d) for m, d in pairs]
    if module is nltk:
        return [nltk.Fraction(m, d, _normalize=False) for m, d in pairs]
    return [ours.Fraction(m, d) for m, d in pairs]


def smoothing_case(rng: random.Random) -> Case:
    """A SmoothingFunction method called directly, as NLTK users call them."""
    mixed = rng.random() < 0.3
    hyp = sentence(rng, mixed, longest=12)
    refs = references(rng, hyp, mixed) if rng.random() > 0.03 else []
    method = rng.randrange(8)
    params = parameters(rng)
    orders = rng.choice((1, 2, 3, 4, 4, 4, 5))
    hand_made = rng.random() < 0.3
    hyp_len = rng.choice((None, None, 0, len(hyp), rng.randint(1, 30), 1, 2.5))
    keyword = rng.random() < 0.5
    seed = rng.random()

    def run(module: Any) -> Any:
        if hand_made:
            p_n = made_precisions(random.Random(seed), module)
        else:
            p_n = [module.modified_precision(refs, hyp, n) for n in range(1, orders + 1)]
        function = getattr(module.SmoothingFunction(**params), f"method{method}")
        try:
            if keyword:
                result = function(p_n, references=refs, hypothesis=hyp, hyp_len=hyp_len)
            else:
                result = function(p_n, refs, hyp, hyp_len)
        except Exception as error:
            result = type(error)
        return [result, p_n]

    return f"method{method}(refs={refs!r}, hyp={hyp!r}, hyp_len={hyp_len!r}, params={params}, orders={orders}, " \
           f"hand_made={hand_made})", run  # fmt: skip


def helper_case(rng: random.Random) -> Case:
    """modified_precision, closest_ref_length or brevity_penalty."""
    mixed = rng.random() < 0.4
    hyp = sentence(rng, mixed, longest=12)
    refs = references(rng, hyp, mixed) if rng.random() > 0.05 else []
    n = rng.choice((1, 2, 3, 4, 5, 6, True))
    which = rng.randrange(3)
    length = rng.choice((0, 1, len(hyp), rng.randint(0, 20)))
    closest = rng.randint(0, 20)

    def run(module: Any) -> Any:
        if which == 0:
            return module.modified_precision(refs, hyp, n)
        if which == 1:
            return module.closest_ref_length(refs, length)
        return module.brevity_penalty(closest, length)

    return f"helper {which}: refs={refs!r}, hyp={hyp!r}, n={n}, length={length}, closest={closest}", run


def case(seed: int, number: int) -> Case:
    """Case ``number`` of the run seeded ``seed`` (the same call for both libraries)."""
    rng = random.Random(f"{seed}:{number}")
    kind = rng.random()
    if kind < 0.35:
        return bleu_case(rng, corpus=False)
    if kind < 0.65:
        return bleu_case(rng, corpus=True)
    if kind < 0.9:
        return smoothing_case(rng)
    return helper_case(rng)


def outcome(run: Callable[[Any], Any], module: Any) -> Any:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return exact(run(module))
    except Exception as error:
        return exact(type(error))


def mismatches(seed: int, count: int) -> list[str]:
    found = []
    for number in range(count):
        description, run = case(seed, number)
        theirs, mine = outcome(run, nltk), outcome(run, ours)
        if theirs != mine:
            found.append(f"case({seed}, {number}): {description}\n    NLTK: {theirs}\n    ours: {mine}")
    return found


def test_nltk_api_equals_nltk_on_random_calls() -> None:
    found = mismatches(SEED, DEFAULT_CASES)
    assert not found, f"{len(found)} of {DEFAULT_CASES} cases differ:\n" + "\n".join(found[:10])


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_nltk_api_equals_nltk_on_many_random_calls() -> None:
    found = mismatches(SEED + 1, SLOW_CASES)
    assert not found, f"{len(found)} of {SLOW_CASES} cases differ:\n" + "\n".join(found[:10])
