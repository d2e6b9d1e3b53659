"""Input checks shared by the re-implemented tools: errors that say what is wrong and how to fix it."""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence

import numpy as np

#: sacreBLEU's reference streams: ``streams[k][i]`` is reference k of segment i (None: missing).
Streams = Sequence[Sequence[str | None]]


def check_tokens(value: object, name: str) -> list[str]:
    """A list of str tokens (a str is refused: it would be read as characters)."""
    if isinstance(value, str):
        raise TypeError(f"{name} must be a list of tokens, not a str; split it first, e.g. {name}.split()")
    if not isinstance(value, Sequence):
        raise TypeError(f"{name} must be a list of tokens (strings); got {type(value).__name__}")
    tokens = list(value)
    if not all(isinstance(token, str) for token in tokens):
        i, token = next((i, t) for i, t in enumerate(tokens) if not isinstance(t, str))
        raise TypeError(f"{name}[{i}] must be a str token; got {type(token).__name__} {token!r:.40}")
    return tokens


def check_references(value: object, name: str) -> list[list[str]]:
    """At least one reference, each a list of tokens."""
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise TypeError(f"{name} must be a list of references, each a list of tokens; got {type(value).__name__}")
    if not value:
        raise ValueError(f"{name} is empty; every hypothesis needs at least one reference")
    return [check_tokens(ref, f"{name}[{k}]") for k, ref in enumerate(value)]


def check_corpus_tokens(
    hypotheses: object, references: object, hyp_name: str, ref_name: str
) -> tuple[list[list[str]], list[list[list[str]]]]:
    """Per-segment token lists: ``hypotheses[i]`` and its references ``references[i]``."""
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
        raise TypeError(f"{hyp_name} must be a list of token lists; got {type(hypotheses).__name__}")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError(f"{ref_name} must be a list (one entry per hypothesis) of lists of token lists")
    if len(hypotheses) != len(references):
        raise ValueError(
            f"{ref_name} has {len(references)} entries but there are {len(hypotheses)} hypotheses; "
            "give one list of references per hypothesis"
        )
    hyps = [check_tokens(h, f"{hyp_name}[{i}]") for i, h in enumerate(hypotheses)]
    refs = [check_references(r, f"{ref_name}[{i}]") for i, r in enumerate(references)]
    return hyps, refs


def weight_sequence(value: object, name: str) -> Sequence[object]:
    """A weight vector's items (a NumPy array as a list): a sequence, not text, with at least one item."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise TypeError(f"{name} must be a sequence of numbers, one per n-gram order; got {value!r:.60}")
    if not value:
        raise ValueError(f"{name} must name at least one n-gram order; got an empty sequence")
    return value


def check_weight_vector(value: object, name: str) -> tuple[float, ...]:
    """Finite non-negative numbers, at least one; not normalized."""
    value = weight_sequence(value, name)
    out = []
    for n, weight in enumerate(value, start=1):
        if isinstance(weight, bool) or not isinstance(weight, numbers.Real):
            raise TypeError(f"{name} must hold numbers; got {weight!r:.40} for {n}-grams")
        number = float(weight)
        if not math.isfinite(number):
            raise ValueError(f"{name} must be finite; got {number} for {n}-grams")
        if number < 0:
            raise ValueError(f"{name} must be non-negative; got {number:g} for {n}-grams")
        out.append(number)
    return tuple(out)


def check_order(value: object, name: str) -> int:
    """A whole number >= 1 (the highest n-gram order)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a whole number >= 1; got {value!r}")
    if int(value) < 1:
        raise ValueError(f"{name} must be at least 1; got {value}")
    return int(value)


def check_flag(value: object, name: str) -> bool:
    """True or False (numpy's bool included)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False; got {value!r}")
    return bool(value)


def check_sentence_input(candidate: object, references: object) -> list[str]:
    """The references of one candidate as a list, or a TypeError/ValueError that says what is wrong."""
    if not isinstance(candidate, str):
        raise TypeError(f"candidate must be a str; got {type(candidate).__name__}")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError("references must be a list of strings; for one reference pass [reference]")
    if not references:
        raise ValueError("no references given; pass at least one reference string")
    for i, ref in enumerate(references):
        if not isinstance(ref, str):
            raise TypeError(f"references[{i}] must be a str; got {type(ref).__name__}")
    return list(references)


def segment_references(hypotheses: Sequence[str], references: Streams) -> list[list[str]]:
    """Per-segment reference lists from sacreBLEU's streams (``references[k][i]``), missing ones skipped."""
    return [[ref for stream in references if (ref := stream[i]) is not None] for i in range(len(hypotheses))]
