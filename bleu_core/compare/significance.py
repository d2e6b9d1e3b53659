"""Paired significance tests and bootstrap confidence intervals, computed from segment statistics.

Reproduces sacreBLEU 2.6 (``--paired-bs``, ``--paired-ar``, ``--confidence``) draw for draw: the
same ``numpy.random.default_rng(seed)`` calls in the same order, the same test statistics, the
p-value ``(count + 1) / (trials + 1)`` and even sacreBLEU's arithmetic precision, so p-values are
identical.  This module validates the input and assembles the results; the draws and the scoring of
every resample at once are in :mod:`bleu_core.compare.resampling`.

sacreBLEU's own quirks are kept: in approximate randomization it adds add-k's value to int64 arrays, so a
fractional value counts as its whole part in the shuffled trials (0.5 as 0) but not in the real scores (see
:func:`bleu_core.compare.resampling.ar_trial_rows`).  Known difference: sacreBLEU treats seed 0 as "no seed" for the
systems of a paired test (random p-values); we seed with 0.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping, Sequence, Sized
from dataclasses import dataclass
from itertools import combinations
from typing import TypedDict, TypeVar, Unpack, cast

from bleu_core.api import check_corpus
from bleu_core.compare.resampling import bootstrap_scores, draw, estimate_ci, paired_p_value
from bleu_core.options import BleuOptions, OptionSettings, options_from
from bleu_core.stats.counting import prepare_references, segment_statistics
from bleu_core.stats.progress import Progress, ProgressReporter
from bleu_core.stats.scoring import score_statistics
from bleu_core.stats.segment_stats import SegmentStats

#: The two paired tests: paired bootstrap resampling and paired approximate randomization.
TESTS: tuple[str, ...] = ("bs", "ar")
#: Resamples (bs) or trials (ar) when ``n_samples`` is None, as sacreBLEU's CLI.
DEFAULT_SAMPLES: dict[str, int] = {"bs": 1000, "ar": 10000}
#: sacreBLEU's default seed (its ``SACREBLEU_SEED`` environment variable; we take an argument).
DEFAULT_SEED = 12345

SystemT = TypeVar("SystemT", bound=Sized)


@dataclass(frozen=True, slots=True)
class PairedResult:
    """One system in a paired test; every number is on the 0-1 scale (×100 for sacreBLEU's).

    ``score`` is the corpus BLEU, ``p_value`` the probability of a difference to the baseline at
    least this large by chance (None for the baseline itself); ``mean`` and ``ci`` are the
    bootstrap mean and the half-width of the 95% interval around it (None for ``test="ar"``).
    """

    score: float
    p_value: float | None
    mean: float | None
    ci: float | None


# ---------------------------------------------------------------------------------------------
# Validation


def check_whole(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a whole number; got {value!r}")
    if int(value) < minimum:
        raise ValueError(f"{name} must be at least {minimum}; got {int(value)}")
    return int(value)


def check_prefixes(prefixes: Sequence[int], samples: int) -> None:
    """Sample counts to be taken as the first draws of a set of ``samples``: whole, from 1 to ``samples``.

    Such a prefix equals a run of its own from the same seed: NumPy's generator fills the (samples, segments)
    array of segment indices (bootstrap) or trial coins (approximate randomization) row after row, so its first
    k rows are the k rows a smaller run draws (held by the tests against separate runs)."""
    for n in prefixes:
        if check_whole("a prefix of the samples", n, 1) > samples:
            raise ValueError(f"a prefix of the samples must be at most n_samples={samples}; got {n}")


def check_test(test: object, n_samples: object) -> tuple[str, int]:
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}; use 'bs' (paired bootstrap) or 'ar' (approximate randomization)")
    name = str(test)
    samples = DEFAULT_SAMPLES[name] if n_samples is None else check_whole("n_samples", n_samples, 1)
    return name, samples


def check_options(options: object) -> BleuOptions:
    if not isinstance(options, BleuOptions):
        raise TypeError(f"options must be BleuOptions (see bleu_core.make_options); got {type(options).__name__}")
    return options


def check_systems(
    by_system: object, noun: str, checked: Callable[[str, object], SystemT]
) -> tuple[list[str], list[SystemT]]:
    """System names and each system's ``checked`` value (statistics of the same segments, at least one), at least two
    systems; ``noun`` names the values in the message when ``by_system`` is not a mapping."""
    if not isinstance(by_system, Mapping):
        raise TypeError(f"{noun} must map system names to {noun}; got {type(by_system).__name__}")
    if len(by_system) < 2:
        raise ValueError(f"a paired test needs at least 2 systems; got {len(by_system)}")
    names: list[str] = []
    values: list[SystemT] = []
    for name, value in by_system.items():
        if not isinstance(name, str):
            raise TypeError(f"system names must be str; got {name!r}")
        values.append(checked(name, value))
        if len(values[-1]) != len(values[0]):
            raise ValueError(
                f"system {name!r} has {len(values[-1])} segments but {names[0]!r} has {len(values[0])}; "
                "every system must translate the same segments"
            )
        names.append(name)
    if len(values[0]) == 0:
        raise ValueError("the systems have no segments; significance needs at least one")
    return names, values


def check_stats(stats_by_system: object, options: BleuOptions) -> tuple[list[str], list[SegmentStats]]:
    def checked(name: str, value: object) -> SegmentStats:
        if not isinstance(value, SegmentStats):
            raise TypeError(f"statistics of system {name!r} must be SegmentStats; got {type(value).__name__}")
        if value.max_order < options.max_order:
            raise ValueError(
                f"statistics of system {name!r} have {value.max_order} n-gram orders but options.max_order is "
                f"{options.max_order}; recompute them with that max_order"
            )
        return value

    return check_systems(stats_by_system, "SegmentStats", checked)


def all_pairs(
    names: Sequence[str], p_value: Callable[[int, int], float], report: ProgressReporter
) -> dict[tuple[str, str], float]:
    """The p-value of every pair of systems, keyed both ways, reporting progress from 0.8 to 1."""
    p_values: dict[tuple[str, str], float] = {}
    pairs = list(combinations(range(len(names)), 2))
    for done, (a, b) in enumerate(pairs, start=1):
        p_values[names[a], names[b]] = p_values[names[b], names[a]] = p_value(a, b)
        report(0.8 + 0.2 * done / len(pairs))
    return p_values


def check_baseline(baseline: object, names: Sequence[str]) -> int | None:
    """The baseline's position among the systems (None for no baseline)."""
    if baseline is None:
        return None
    if baseline not in names:
        raise ValueError(f"unknown baseline {baseline!r}; choose one of the systems: {', '.join(map(repr, names))}")
    return list(names).index(str(baseline))


class PairedSettings(TypedDict, total=False):
    """The keyword arguments every paired test on statistics takes: the ``baseline`` system (None: the function's
    default), the ``test`` ("bs" or "ar"), ``n_samples`` (None: 1000 resamples or 10000 trials), the ``seed`` and a
    ``progress`` callback."""

    baseline: str | None
    test: str
    n_samples: int | None
    seed: int
    progress: Progress | None


@dataclass(frozen=True, slots=True)
class PairedRequest:
    """:class:`PairedSettings` checked once, with their defaults filled in."""

    baseline: object  # checked against the systems' names by the function that knows them
    test: str
    samples: int
    seed: int
    report: ProgressReporter


def paired_request(caller: str, settings: Mapping[str, object]) -> PairedRequest:
    """Check a paired test's keyword arguments (unknown ones raise ``TypeError`` as Python does for a signature)."""
    for name in settings:
        if name not in PairedSettings.__annotations__:
            raise TypeError(f"{caller}() got an unexpected keyword argument {name!r}")
    test, samples = check_test(settings.get("test", "bs"), settings.get("n_samples"))
    seed = check_whole("seed", settings.get("seed", DEFAULT_SEED), 0)
    progress = cast("Progress | None", settings.get("progress"))
    return PairedRequest(settings.get("baseline"), test, samples, seed, ProgressReporter(progress))


# ---------------------------------------------------------------------------------------------
# Public functions


def paired_test_from_stats(
    stats_by_system: Mapping[str, SegmentStats], options: BleuOptions, **settings: Unpack[PairedSettings]
) -> dict[str, PairedResult]:
    """Compare every system with the baseline (default: the first) on precomputed segment statistics.

    ``test="bs"``: paired bootstrap resampling (1000 resamples by default), as ``sacrebleu --paired-bs``;
    ``test="ar"``: paired approximate randomization (10000 trials by default), as ``--paired-ar``.
    Results are keyed by system name, baseline first.
    """
    options = check_options(options)
    request = paired_request("paired_test_from_stats", settings)
    test, report = request.test, request.report
    names, stats = check_stats(stats_by_system, options)
    base = check_baseline(request.baseline, names) or 0
    report(0.0)
    draws = draw(stats, options, test, request.samples, request.seed, report)
    scores = [float(score_statistics(s.summed(), options).score[0]) for s in stats]

    def interval(system: int) -> tuple[float | None, float | None]:
        if test != "bs":
            return None, None
        mean, ci = estimate_ci(draws.resampled[system])
        return mean / 100.0, ci / 100.0

    results = {names[base]: PairedResult(scores[base], None, *interval(base))}
    others = [i for i in range(len(names)) if i != base]
    for done, system in enumerate(others, start=1):
        p_value = paired_p_value(draws, base, system, options)
        results[names[system]] = PairedResult(scores[system], p_value, *interval(system))
        report(0.8 + 0.2 * done / len(others))
    return results


def pairwise_p_values(
    stats_by_system: Mapping[str, SegmentStats],
    options: BleuOptions,
    test: str = "bs",
    n_samples: int | None = None,
    seed: int = DEFAULT_SEED,
    *,
    progress: Progress | None = None,
) -> dict[tuple[str, str], float]:
    """p-value of every ordered pair of distinct systems (a heatmap); ``(a, b)`` and ``(b, a)`` are equal.

    ``[(a, b)]`` is the p-value of system b in :func:`paired_test_from_stats` with baseline a; the
    resamples (or trials) are drawn once and shared by all pairs.
    """
    options = check_options(options)
    test, samples = check_test(test, n_samples)
    seed = check_whole("seed", seed, 0)
    names, stats = check_stats(stats_by_system, options)
    report = ProgressReporter(progress)
    report(0.0)
    draws = draw(stats, options, test, samples, seed, report)
    return all_pairs(names, lambda a, b: paired_p_value(draws, a, b, options), report)


def bootstrap_ci_from_stats(
    stats: SegmentStats, options: BleuOptions, n_samples: int = 1000, seed: int = DEFAULT_SEED
) -> tuple[float, float]:
    """Bootstrap mean and 95% half-width (0-1 scale) of one system, as ``sacrebleu --confidence``."""
    options = check_options(options)
    if not isinstance(stats, SegmentStats):
        raise TypeError(f"stats must be SegmentStats; got {type(stats).__name__}")
    if len(stats) == 0:
        raise ValueError("the system has no segments; a confidence interval needs at least one")
    if stats.max_order < options.max_order:
        raise ValueError(f"stats have {stats.max_order} n-gram orders but options.max_order is {options.max_order}")
    samples = check_whole("n_samples", n_samples, 1)
    scores = bootstrap_scores(stats, options, samples, check_whole("seed", seed, 0))
    mean, ci = estimate_ci(scores, exact_mean=True)
    return mean / 100.0, ci / 100.0


def _system_statistics(
    systems: object, references: object, options: BleuOptions, report: ProgressReporter
) -> dict[str, SegmentStats]:
    """Validate the systems and compute their statistics against references prepared once."""
    if not isinstance(systems, Mapping):
        raise TypeError(
            f"systems must map system names to lists of hypotheses, e.g. {{'A': hyps_a, 'B': hyps_b}}; "
            f"got {type(systems).__name__}"
        )
    if len(systems) < 2:
        raise ValueError(f"a paired test needs at least 2 systems; got {len(systems)}")
    checked: dict[str, list[str]] = {}
    streams: list[list[str | None]] = []
    for name, hypotheses in systems.items():
        if not isinstance(name, str):
            raise TypeError(f"system names must be str; got {name!r}")
        if checked and isinstance(hypotheses, Sized) and not isinstance(hypotheses, (str, bytes)):
            first, first_hyps = next(iter(checked.items()))
            if len(hypotheses) != len(first_hyps):
                raise ValueError(
                    f"system {name!r} has {len(hypotheses)} lines but {first!r} has {len(first_hyps)}; "
                    "every system must translate the same segments"
                )
        try:
            checked[name], streams = check_corpus(hypotheses, references)
        except (TypeError, ValueError) as error:
            raise type(error)(f"system {name!r}: {error}") from error
    if not streams[0]:
        raise ValueError("the systems have no segments; significance needs at least one")
    prepared = prepare_references(
        streams, tokenize=options.tokenize, lowercase=options.lowercase, max_order=options.max_order
    )
    report(1 / (len(checked) + 1))
    stats: dict[str, SegmentStats] = {}
    for done, (name, hypotheses) in enumerate(checked.items(), start=2):
        stats[name] = segment_statistics(hypotheses, prepared, max_order=options.max_order)
        report(done / (len(checked) + 1))
    return stats


def paired_test(
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str | None]],
    *,
    baseline: str | None = None,
    test: str = "bs",
    n_samples: int | None = None,
    seed: int = DEFAULT_SEED,
    progress: Progress | None = None,
    options: BleuOptions | None = None,
    **settings: Unpack[OptionSettings],
) -> dict[str, PairedResult]:
    """Paired significance test of several systems against a baseline (default: the first), from text.

    ``systems`` maps names to hypothesis lists; ``references[k][i]`` is reference k of segment i.
    References are tokenized once; see :func:`paired_test_from_stats` for the tests.
    """
    options = options_from(options, settings, effective_order=False, caller="paired_test")
    check_test(test, n_samples)
    check_whole("seed", seed, 0)
    report = ProgressReporter(progress)
    if isinstance(systems, Mapping) and baseline is not None:
        check_baseline(baseline, [str(name) for name in systems])
    stats = _system_statistics(systems, references, options, report.part(0.0, 0.7))
    return paired_test_from_stats(
        stats,
        options,
        baseline=baseline,
        test=test,
        n_samples=n_samples,
        seed=seed,
        progress=report.part(0.7, 1.0),
    )


def bootstrap_ci(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
    *,
    options: BleuOptions | None = None,
    **settings: Unpack[OptionSettings],
) -> tuple[float, float]:
    """Bootstrap mean and 95% half-width (0-1 scale) of one system's corpus BLEU, as ``sacrebleu --confidence``."""
    options = options_from(options, settings, effective_order=False, caller="bootstrap_ci")
    check_whole("n_samples", n_samples, 1)
    check_whole("seed", seed, 0)
    hyps, streams = check_corpus(hypotheses, references)
    if not hyps:
        raise ValueError("no hypotheses given; a confidence interval needs at least one segment")
    prepared = prepare_references(
        streams, tokenize=options.tokenize, lowercase=options.lowercase, max_order=options.max_order
    )
    stats = segment_statistics(hyps, prepared, max_order=options.max_order)
    return bootstrap_ci_from_stats(stats, options, n_samples, seed)
