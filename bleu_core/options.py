"""Validated BLEU settings shared by every entry point (API, CLI, pages)."""

from __future__ import annotations

import importlib.util
import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

import numpy as np

#: Tokenizers understood by :func:`bleu_core.corpus_bleu`; names follow sacreBLEU.
TOKENIZERS: tuple[str, ...] = ("13a", "intl", "zh", "char", "none", "ja-mecab")
#: Smoothing methods of sacreBLEU and their default values.
SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1.0, "exp": None}
DEFAULT_MAX_ORDER = 4
#: The largest n-gram order accepted: far beyond any use of BLEU, small enough to keep the count arrays small.
LARGEST_MAX_ORDER = 100


@dataclass(frozen=True, slots=True)
class BleuOptions:
    """Every knob of BLEU, validated once.

    ``weights`` always holds ``max_order`` non-negative numbers summing to one;
    ``uniform_weights`` records that the caller gave none, in which case the
    score is the plain mean of the log precisions, exactly as sacreBLEU.
    """

    max_order: int = DEFAULT_MAX_ORDER
    weights: tuple[float, ...] = (0.25, 0.25, 0.25, 0.25)
    uniform_weights: bool = True
    tokenize: str = "13a"
    lowercase: bool = False
    smooth: str = "exp"
    smooth_value: float | None = None
    effective_order: bool = False

    def __post_init__(self) -> None:
        if len(self.weights) != self.max_order or self.tokenize not in TOKENIZERS or self.smooth not in SMOOTH_DEFAULTS:
            raise ValueError(
                "inconsistent BleuOptions (one weight per order, a known tokenizer and smoothing method); "
                "build them with make_options(...), which validates every setting"
            )

    def for_counting(self) -> BleuOptions:
        """Only what the statistics depend on (tokenizer, case, max order); scoring settings at their defaults.

        Statistics cached under these options serve every weighting and smoothing of the same text.
        """
        return make_options(tokenize=self.tokenize, lowercase=self.lowercase, max_order=self.max_order)

    @property
    def smooth_amount(self) -> float:
        """The value the smoothing method uses (its default when none was given)."""
        if self.smooth_value is not None:
            return self.smooth_value
        default = SMOOTH_DEFAULTS[self.smooth]
        return 0.0 if default is None else default

    def signature_fields(self, n_refs: int) -> dict[str, str]:
        """The signature's fields, sacreBLEU's names and values (``n_refs`` -1: ``var``); ``ngram`` and ``w``
        only when not the defaults (sacreBLEU has neither)."""
        smooth = self.smooth
        if SMOOTH_DEFAULTS[self.smooth] is not None:
            smooth += f"[{self.smooth_amount:.2f}]"
        fields = {
            "nrefs": str(n_refs) if n_refs >= 0 else "var",
            "case": "lc" if self.lowercase else "mixed",
            "eff": "yes" if self.effective_order else "no",
            "tok": self.tokenize,
            "smooth": smooth,
        }
        if self.max_order != DEFAULT_MAX_ORDER:
            fields["ngram"] = str(self.max_order)
        if not self.uniform_weights:
            fields["w"] = ",".join(f"{w:.4g}" for w in self.weights)
        return fields

    def signature(self, n_refs: int, version: str) -> str:
        """A sacreBLEU-style signature of :meth:`signature_fields`, with bleu_core's version."""
        fields = {**self.signature_fields(n_refs), "version": f"bleu_core-{version}"}
        return "|".join(f"{key}:{value}" for key, value in fields.items())


def _check_bool(name: str, value: object) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral) and int(value) in (0, 1):
        return bool(value)
    raise TypeError(f"{name} must be True or False; got {value!r}")


def _check_max_order(max_order: object) -> int:
    if isinstance(max_order, bool) or not isinstance(max_order, numbers.Integral):
        if isinstance(max_order, float) and max_order.is_integer():
            max_order = int(max_order)
        else:
            raise TypeError(f"max_order must be a whole number >= 1; got {max_order!r}")
    order = int(max_order)
    if order < 1:
        raise ValueError(f"max_order must be at least 1; got {order}")
    if order > LARGEST_MAX_ORDER:
        raise ValueError(f"max_order must be at most {LARGEST_MAX_ORDER} (BLEU normally uses 4); got {order}")
    return order


def _as_float(name: str, value: numbers.Real) -> float:
    """``float(value)``, with numbers too large for a float reported as not finite."""
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name} must be finite; got a number too large for a float ({value!r:.40})") from None


def _check_weights(weights: object) -> tuple[float, ...]:
    if (
        isinstance(weights, (str, bytes))
        or not isinstance(weights, (Sequence, np.ndarray))
        or (isinstance(weights, np.ndarray) and weights.ndim != 1)
    ):
        raise TypeError(f"weights must be a sequence of numbers, one per n-gram order; got {weights!r:.60}")
    if len(weights) > LARGEST_MAX_ORDER:
        raise ValueError(f"weights has {len(weights)} values; give one per n-gram order, at most {LARGEST_MAX_ORDER}")
    values: list[float] = []
    for n, weight in enumerate(list(weights), start=1):
        if isinstance(weight, bool) or not isinstance(weight, numbers.Real):
            raise TypeError(f"weights must be numbers; got {weight!r:.40} for {n}-grams")
        value = _as_float("weights", weight)
        if not math.isfinite(value):
            raise ValueError(f"weights must be finite; got {value} for {n}-grams")
        if value < 0:
            raise ValueError(f"weights must be non-negative; got {value:g} for {n}-grams")
        values.append(value)
    if not values:
        raise ValueError("weights must name at least one n-gram order; got an empty sequence")
    largest = max(values)
    if largest <= 0:
        raise ValueError("weights must have a positive sum; all weights are zero (give at least one order weight > 0)")
    try:
        total = math.fsum(values)
    except OverflowError:  # weights near the float maximum: scale by the largest first
        values = [value / largest for value in values]
        total = math.fsum(values)
    return tuple(value / total for value in values)


def mecab_available() -> bool:
    """Whether sacreBLEU's ja-mecab tokenizer can run (it needs the optional MeCab and ipadic packages)."""
    return all(importlib.util.find_spec(module) is not None for module in ("MeCab", "ipadic"))


def _check_order_and_weights(max_order: object, weights: Sequence[float] | None) -> tuple[int, tuple[float, ...], bool]:
    """max_order, the normalized weights, and whether they were left uniform (the caller gave none)."""
    order = None if max_order is None else _check_max_order(max_order)
    if weights is None:
        order = DEFAULT_MAX_ORDER if order is None else order
        return order, tuple(1.0 / order for _ in range(order)), True
    normalized = _check_weights(weights)
    if order is not None and len(normalized) != order:
        raise ValueError(f"weights has {len(normalized)} values but max_order is {order}; give one weight per order")
    return len(normalized), normalized, False


def _check_tokenizer(tokenize: object) -> None:
    if not isinstance(tokenize, str):
        raise TypeError(f"tokenize must be a tokenizer name; got {tokenize!r}")
    if tokenize not in TOKENIZERS:
        raise ValueError(f"unknown tokenizer {tokenize!r}; choose one of {', '.join(TOKENIZERS)}")
    if tokenize == "ja-mecab" and not mecab_available():
        raise ValueError(
            "tokenizer 'ja-mecab' needs MeCab and its IPA dictionary, which are not installed; "
            "install them with pip install 'sacrebleu[ja]', or use tokenize='char' for Japanese"
        )


def _check_smoothing(smooth: object, smooth_value: object, floor_above_one: bool = False) -> float | None:
    """The smoothing value (None: the method's default), after checking the method name."""
    if not isinstance(smooth, str):
        raise TypeError(f"smooth must be a smoothing method name; got {smooth!r}")
    if smooth not in SMOOTH_DEFAULTS:
        raise ValueError(f"unknown smoothing method {smooth!r}; choose one of {', '.join(SMOOTH_DEFAULTS)}")
    if smooth_value is None:
        return None
    if isinstance(smooth_value, bool) or not isinstance(smooth_value, numbers.Real):
        raise TypeError(f"smooth_value must be a number; got {smooth_value!r:.40}")
    value = _as_float("smooth_value", smooth_value)
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"smooth_value must be a finite number >= 0; got {smooth_value!r}")
    if smooth == "floor" and value > 1 and not floor_above_one:
        # floor replaces a zero match count; above 1 a precision (and BLEU) could exceed 1.
        raise ValueError(f"smooth_value for floor must be between 0 and 1 (default 0.1); got {value:g}")
    return value


def make_options(
    *,
    max_order: int | None = None,
    weights: Sequence[float] | None = None,
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth: str = "exp",
    smooth_value: object = None,
    effective_order: bool = False,
    floor_above_one: bool = False,
) -> BleuOptions:
    """Validate user settings and build :class:`BleuOptions`.

    Weights are normalized to sum to one (as MATLAB's bleuEvaluationScore does);
    their length sets ``max_order`` when ``max_order`` is not given.  ``floor_above_one``: accept a floor value
    above 1, as sacreBLEU does (a precision, and BLEU, can then exceed 1); the drop-ins ask for it.
    """
    order, normalized, uniform = _check_order_and_weights(max_order, weights)
    _check_tokenizer(tokenize)
    value = _check_smoothing(smooth, smooth_value, floor_above_one)
    return BleuOptions(
        max_order=order,
        weights=normalized,
        uniform_weights=uniform,
        tokenize=tokenize,
        lowercase=_check_bool("lowercase", lowercase),
        smooth=smooth,
        smooth_value=value,
        effective_order=_check_bool("effective_order", effective_order),
    )


class OptionSettings(TypedDict, total=False):
    """The keyword settings public functions accept in place of a :class:`BleuOptions` (see :func:`make_options`)."""

    max_order: int | None
    weights: Sequence[float] | None
    tokenize: str
    lowercase: bool
    smooth: str
    smooth_value: float | None
    effective_order: bool


def options_from(
    options: BleuOptions | None, settings: OptionSettings, *, effective_order: bool, caller: str
) -> BleuOptions:
    """The one conversion at the public boundary: ``options`` as given, or keyword ``settings`` validated once.

    ``effective_order`` is the caller's default (on for sentence scores, off for corpus scores, as sacreBLEU).
    """
    unknown = sorted(set(settings) - set(OptionSettings.__annotations__))
    if unknown:
        raise TypeError(
            f"{caller}() got an unexpected keyword argument {unknown[0]!r}; "
            f"settings are {', '.join(OptionSettings.__annotations__)}"
        )
    if options is None:
        given: OptionSettings = {"effective_order": effective_order, **settings}
        return make_options(**given)
    if not isinstance(options, BleuOptions):
        raise TypeError(f"options must be a BleuOptions (from make_options(...)); got {type(options).__name__}")
    if settings:
        raise TypeError(f"{caller}() takes options= or keyword settings, not both; got options and {sorted(settings)}")
    return options


#: sacreBLEU's ``sentence_bleu`` defaults: the settings a sentence's BLEU is usually quoted with.
SENTENCE_DEFAULTS = BleuOptions(effective_order=True)


def settings_changed(options: BleuOptions, reference: BleuOptions = SENTENCE_DEFAULTS) -> tuple[tuple[str, str], ...]:
    """Where ``options`` differ from ``reference``: (setting, its value in ``options``) pairs, in the sidebar's
    order (weights only when they are not all equal; a smoothing value only with its method)."""
    changed: list[tuple[str, str]] = []
    if options.max_order != reference.max_order:
        changed.append(("max_order", str(options.max_order)))
    if len(set(options.weights)) > 1:
        changed.append(("weights", ", ".join(f"{w:.3g}" for w in options.weights)))
    if options.tokenize != reference.tokenize:
        changed.append(("tokenize", options.tokenize))
    if options.lowercase != reference.lowercase:
        changed.append(("lowercase", str(options.lowercase).lower()))
    if (options.smooth, options.smooth_value) != (reference.smooth, reference.smooth_value):
        value = "" if options.smooth_value is None else f" {options.smooth_value:g}"
        changed.append(("smooth", options.smooth + value))
    if options.effective_order != reference.effective_order:
        changed.append(("effective_order", str(options.effective_order).lower()))
    return tuple(changed)
