"""Fixes that came with the drop-in work: valid JSON, sacreBLEU's rounding, no score where BLEU is undefined."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys

import pytest

import bleu_core
from bleu_core.api import BleuResult
from bleu_core.cli import main as cli
from bleu_core.options import make_options


def test_a_reference_without_tokens_gives_ratio_zero_and_valid_json() -> None:
    result = bleu_core.corpus_bleu(["a b"], [["   "]])
    assert result.ratio == 0.0 and "ratio = 0.000" in result.format()
    json.loads(json.dumps(result.to_dict(), allow_nan=False))


def test_text_rounds_precisions_as_sacrebleu() -> None:
    # 100 * 51 / 80 = 63.75 prints 63.8; 100 * (51 / 80) = 63.74999... would print 63.7.
    assert f"{100 * (51 / 80):.1f}" == "63.7"
    options = make_options()
    result = BleuResult(0.3, (51 / 80, 0.5, 0.25, 0.125), 1.0, 80, 80, (51, 40, 20, 10), (80, 80, 80, 80), options, 1)
    assert result.format().split()[3].startswith("63.8/")


@pytest.mark.parametrize("weights", [(0, 0, 0, 1), (0, 0, 1, 1)])
def test_zero_kept_weights_under_effective_order_are_an_error(weights: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="undefined"):
        bleu_core.sentence_bleu("a b", ["a b"], weights=weights)
    assert bleu_core.sentence_bleu("a b c d", ["a b c d"], weights=weights).score == 1.0
    assert not math.isnan(bleu_core.corpus_bleu(["a b"], [["a b"]], weights=weights).score)  # no effective order


def test_zero_kept_weights_under_effective_order_fail_on_the_command_line(
    tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.txt"  # type: ignore[operator]
    path.write_text("a b\n", encoding="utf-8")
    code = cli.run([str(path), "-i", str(path), "--weights", "0,0,0,1", "--effective-order"])
    out, err = capsys.readouterr()
    assert code == 1 and out == "" and "undefined" in err and err.count("\n") == 1


# ---------------------------------------------------------------------------------------------------------
# Issue 33: twelve differences to sacreBLEU 2.6 and NLTK 3.10 that a differential fuzz found, each checked
# against the real package (value, type, exception type).  The fuzz suites are test_fuzz_*.py.

import contextlib  # noqa: E402
import logging  # noqa: E402
import warnings  # noqa: E402
from collections.abc import Callable, Iterator  # noqa: E402
from fractions import Fraction  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
import sacrebleu  # noqa: E402
from nltk.translate import bleu_score as nltk  # noqa: E402
from sacrebleu.significance import PairedTest  # noqa: E402

import bleu_core.nltk_api as nltk_api  # noqa: E402
import bleu_core.sacrebleu_api as sacrebleu_api  # noqa: E402
from bleu_core.compare.significance import paired_test  # noqa: E402


def outcome(call: Callable[[], Any]) -> Any:
    """What a call gives: its value, or the type of the exception it raises."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return call()
    except Exception as error:
        return type(error)


def exact(value: Any) -> Any:
    """A value in a form that compares bit for bit: floats by their bits and type, fractions as counted (and
    whether they are NLTK's kind, which keeps the counted pair, or Python's own), exceptions by class."""
    if isinstance(value, type) and issubclass(value, BaseException):
        return ("raises", value.__name__)
    if isinstance(value, (list, tuple)):
        return [type(value).__name__, *map(exact, value)]
    if isinstance(value, Fraction):
        kind = "Fraction" if type(value) is Fraction else "CountedFraction"
        return (kind, value.numerator, value.denominator)
    if isinstance(value, (float, np.floating)):
        return (type(value).__name__, float(value).hex())
    return (type(value).__name__, value)


def assert_same(theirs: Any, mine: Any) -> None:
    assert exact(mine) == exact(theirs), (theirs, mine)


@contextlib.contextmanager
def numpy_exp_and_log_off_by_one_ulp() -> Iterator[None]:
    """NumPy's vectorized exp and log one unit in the last place above the C library's, as NumPy's AVX-512
    versions can be: results that must be sacreBLEU's to the last bit may not come from them."""
    exp, log = np.exp, np.log

    def up(function: Any) -> Any:
        def shifted(x: Any, *args: Any, **kwargs: Any) -> Any:
            value = function(x, *args, **kwargs)
            return np.where(np.isfinite(value), np.nextafter(value, np.inf), value)

        return shifted

    np.exp, np.log = up(exp), up(log)  # type: ignore[assignment]
    try:
        yield
    finally:
        np.exp, np.log = exp, log  # type: ignore[assignment]


def sacrebleu_paired(systems: list[list[str]], refs: list[list[str]], test: str, n: int, **bleu: Any) -> list[Any]:
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    named = [(f"s{i}", hyps) for i, hyps in enumerate(systems)]
    metric = sacrebleu.BLEU(references=refs, **bleu)
    return PairedTest(named, {"BLEU": metric}, None, test_type=test, n_samples=n)()[1]["BLEU"]  # type: ignore[no-any-return]


PAIRED_1 = (["the cat sat on the mat"], [["the cat sat on a mat"], ["a cat sat on the mat today"]])
PAIRED_2 = (
    ["postman on cat small on"],
    [["barked mat at mat at a small barked cat"], ["big small small mat red a the"]],
)


@pytest.mark.parametrize("value", [0.5, 0.1, 1.5, 1, 2, 3])
def test_1_paired_ar_with_fractional_add_k_gives_sacrebleus_p_value(value: float) -> None:
    refs, systems = [PAIRED_1[0]], PAIRED_1[1]
    theirs = sacrebleu_paired(systems, refs, "ar", 100, smooth_method="add-k", smooth_value=value)
    ours = paired_test({"a": systems[0], "b": systems[1]}, refs, test="ar", n_samples=100, smooth="add-k",
                       smooth_value=value)  # fmt: skip
    assert ours["b"].p_value == theirs[1].p_value


@pytest.mark.parametrize("test", ["bs", "ar"])
@pytest.mark.parametrize("smooth", [("exp", None), ("floor", 0.3), ("add-k", 0.5), ("none", None)])
def test_2_paired_scores_and_p_values_do_not_depend_on_numpys_exp_and_log(test: str, smooth: tuple[str, Any]) -> None:
    from bleu_core.compare.resampling import draw, paired_p_value
    from bleu_core.options import make_options
    from bleu_core.sacrebleu_api import BLEU
    from bleu_core.stats.progress import ProgressReporter

    refs, systems = [PAIRED_2[0]], PAIRED_2[1]
    n = 10 if test == "bs" else 100
    theirs = sacrebleu_paired(systems, refs, test, n, smooth_method=smooth[0], smooth_value=smooth[1])
    options = make_options(smooth=smooth[0], smooth_value=smooth[1])
    stats = [BLEU(smooth_method=smooth[0], smooth_value=smooth[1])._statistics(hyps, refs) for hyps in systems]
    with numpy_exp_and_log_off_by_one_ulp():
        draws = draw(stats, options, test, n, 12345, ProgressReporter(None))
        p_value = paired_p_value(draws, 0, 1, options)
    assert [float(x) for x in draws.observed] == [theirs[0].score, theirs[1].score]
    assert p_value == theirs[1].p_value


#: Code the children of the command-line driver run first: NumPy's exp and log one ulp off (as in
#: :func:`numpy_exp_and_log_off_by_one_ulp`, written out: importing this module would import NLTK in every child).
PERTURBED = """
import numpy as np
def _up(function):
    def shifted(x, *args, **kwargs):
        value = function(x, *args, **kwargs)
        return np.where(np.isfinite(value), np.nextafter(value, np.inf), value)
    return shifted
np.exp, np.log = _up(np.exp), _up(np.log)
"""
PAIRED_FLAGS = [
    ["--paired-bs", "-pbsn", "10"],
    ["--paired-bs", "-pbsn", "10", "-f", "text"],
    ["--paired-bs", "-pbsn", "7", "-s", "add-k", "-sv", "0.5", "-f", "text", "-w", "4"],
    ["--paired-ar", "-parn", "100", "-s", "add-k", "-sv", "0.5", "-f", "text"],
    ["--paired-ar", "-parn", "100", "-s", "add-k", "-sv", "0.1"],
    ["--paired-ar", "-parn", "100", "-s", "add-k", "-sv", "1.5", "-f", "text"],
    ["--paired-ar", "-parn", "100", "-s", "floor"],
    ["--confidence", "-cin", "20"],
    ["-sl", "-w", "5"],
    ["-s", "floor", "-sv", "2", "-f", "text"],  # reproducer 4 on the command line
    ["--paired-bs", "-pbsn", "10", "-s", "floor", "-sv", "2"],
]


def test_1_2_4_command_line_prints_sacrebleus_bytes(tmp_path: Path) -> None:
    """Reproducers 1, 2 and 4 through the command line, NumPy's exp and log one ulp off in our command."""
    from tests.core.test_fuzz_cli import run_batch

    cases = []
    for name, (refs, systems) in {"cat": PAIRED_1, "postman": PAIRED_2}.items():
        for number, flags in enumerate(PAIRED_FLAGS):
            folder = tmp_path / f"{name}{number}"
            folder.mkdir()
            (folder / "R.txt").write_text(refs[0] + "\n")
            for k, hyps in enumerate(systems):
                (folder / f"S{k}.txt").write_text(hyps[0] + "\n")
            files = ["S0.txt", "S1.txt"] if flags[0].startswith("--paired") else ["S0.txt"]
            (folder / "stdin").write_bytes(b"")
            cases.append({"cwd": str(folder), "args": ["R.txt", "-i", *files, *flags], "env": {},
                          "stdin": str(folder / "stdin")})  # fmt: skip
    theirs = run_batch("sacrebleu", cases, tmp_path)
    ours = run_batch("bleu_core", cases, tmp_path, prelude=PERTURBED)
    for case, their, our in zip(cases, theirs, ours, strict=True):
        assert their[0] == 0 and our == their, case["args"]


@pytest.mark.parametrize(
    "args",
    [([["\x001"]], [5, 6], 1), ([[1, "\x001"]], ["\x001", 2], 1), ([["\x000", 0]], [0, "\x000"], 1),
     ([["\x002", 2, "2"]], ["\x002", "2", 2, 2], 1)],
    ids=repr,
)  # fmt: skip
def test_3_non_string_tokens_never_equal_string_tokens(args: tuple[Any, ...]) -> None:
    assert_same(outcome(lambda: nltk.modified_precision(*args)), outcome(lambda: nltk_api.modified_precision(*args)))
    refs, hyp, _ = args
    for method in (0, 1, 5):
        theirs = outcome(lambda m=method: nltk.sentence_bleu(refs, hyp, smoothing_function=getattr(
            nltk.SmoothingFunction(), f"method{m}")))  # fmt: skip
        mine = outcome(lambda m=method: nltk_api.sentence_bleu(refs, hyp, smoothing_function=getattr(
            nltk_api.SmoothingFunction(), f"method{m}")))  # fmt: skip
        assert_same(theirs, mine)


def score_fields(score: Any) -> Any:
    return [exact(score.score), exact(score.counts), exact(score.totals), exact(score.precisions), exact(score.bp),
            score.sys_len, score.ref_len, str(score)]  # fmt: skip


@pytest.mark.parametrize("value", [2, 1.5, 10])
def test_4_floor_above_one_scores_as_sacrebleu(value: float) -> None:
    for module in (sacrebleu, sacrebleu_api):
        assert module.corpus_bleu(["the cat sat"], [["the dog sat"]], smooth_method="floor", smooth_value=value)
    theirs = sacrebleu.corpus_bleu(["the cat sat"], [["the dog sat"]], smooth_method="floor", smooth_value=value)
    mine = sacrebleu_api.corpus_bleu(["the cat sat"], [["the dog sat"]], smooth_method="floor", smooth_value=value)
    assert score_fields(mine) == score_fields(theirs)
    theirs = sacrebleu.sentence_bleu("the cat", ["a dog"], smooth_method="floor", smooth_value=value)
    assert score_fields(sacrebleu_api.sentence_bleu("the cat", ["a dog"], smooth_method="floor",
                                                    smooth_value=value)) == score_fields(theirs)  # fmt: skip


def test_4_bleu_cores_own_api_still_keeps_floor_within_one() -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        make_options(smooth="floor", smooth_value=2)


@pytest.mark.parametrize(
    "case",
    [("of", ["of"], 0.0), ("of", ["of"], 0), ("a b", ["a b"], 0.0), ("a b c", ["a b x"], 0.0), ("of", ["of"], 0.5),
     ("a", ["b"], 0.0), ("", ["a"], 0.0)],
    ids=repr,
)  # fmt: skip
def test_5_add_k_counts_stop_at_the_first_order_without_n_grams(case: tuple[str, list[str], float]) -> None:
    hyp, refs, value = case
    theirs = sacrebleu.sentence_bleu(hyp, refs, smooth_method="add-k", smooth_value=value)
    mine = sacrebleu_api.sentence_bleu(hyp, refs, smooth_method="add-k", smooth_value=value)
    assert score_fields(mine) == score_fields(theirs)
    theirs = sacrebleu.corpus_bleu([hyp], [refs], smooth_method="add-k", smooth_value=value)
    mine = sacrebleu_api.corpus_bleu([hyp], [refs], smooth_method="add-k", smooth_value=value)
    assert score_fields(mine) == score_fields(theirs)


@pytest.mark.parametrize("args", [([], ["a"], 1), ([], ["a"], 2), ([], [], 1), ([[]], ["a"], 1), ([], ["a", "b"], 2)],
                         ids=repr)  # fmt: skip
def test_6_modified_precision_without_references(args: tuple[Any, ...]) -> None:
    assert_same(outcome(lambda: nltk.modified_precision(*args)), outcome(lambda: nltk_api.modified_precision(*args)))


def direct(module: Any, method: int, refs: Any, hyp: Any, orders: int = 4, **kwargs: Any) -> Any:
    """A smoothing method called directly on fresh precisions, with the precisions after the call."""
    p_n = [module.modified_precision(refs, hyp, n) for n in range(1, orders + 1)]
    smoothing = module.SmoothingFunction(**kwargs.pop("params", {}))
    result = outcome(lambda: getattr(smoothing, f"method{method}")(p_n, refs, hyp, **kwargs))
    return [result, p_n]


@pytest.mark.parametrize("method", [4, 7])
@pytest.mark.parametrize("hyp_len", [0, None])
def test_7_methods_4_and_7_fall_back_to_the_hypothesis_length(method: int, hyp_len: Any) -> None:
    refs, hyp = [["a", "b", "x", "y"]], ["a", "b", "c", "d"]
    assert_same(direct(nltk, method, refs, hyp, hyp_len=hyp_len), direct(nltk_api, method, refs, hyp, hyp_len=hyp_len))


@pytest.mark.parametrize("method", [5, 7])
@pytest.mark.parametrize("case", [([[2, 3, 4, 5, 1]], [1, 2, 3, 4, 5]), ([[(1,), 2.0, "2"]], [2, "2", (1,), 2])],
                         ids=repr)  # fmt: skip
def test_8_methods_5_and_7_compare_non_string_tokens_across_hypothesis_and_references(method: int, case: Any) -> None:
    refs, hyp = case
    assert_same(direct(nltk, method, refs, hyp), direct(nltk_api, method, refs, hyp))


@pytest.mark.parametrize("epsilon", [Fraction(1, 10), 1, Fraction(1, 3), np.float64(0.2)], ids=repr)
def test_9_epsilon_of_any_number_type(epsilon: Any) -> None:
    refs, hyp = [["a", "b", "c", "d"]], ["a", "b", "x", "d"]
    calls = [lambda m=m: m.sentence_bleu(refs, hyp, smoothing_function=m.SmoothingFunction(epsilon=epsilon).method1)
             for m in (nltk, nltk_api)]  # fmt: skip
    assert_same(outcome(calls[0]), outcome(calls[1]))
    assert_same(direct(nltk, 1, refs, hyp, params={"epsilon": epsilon}),
                direct(nltk_api, 1, refs, hyp, params={"epsilon": epsilon}))  # fmt: skip


@pytest.mark.parametrize(
    "weights",
    [np.array([0.25] * 4), np.array([0.5, 0.5]), np.array([[0.5, 0.5], [0.25] * 2]), np.array([[0.25] * 4]),
     [np.array([0.25] * 4)], np.array([1.0])],
    ids=repr,
)  # fmt: skip
@pytest.mark.parametrize("hyp", [["a", "b"], ["a", "b", "c", "d", "e"]], ids=len)
@pytest.mark.parametrize("auto_reweigh", [True, False])
def test_10_numpy_weights(weights: Any, hyp: list[str], auto_reweigh: bool) -> None:
    refs = [["a", "b", "c"]]
    calls = [lambda m=m: m.sentence_bleu(refs, hyp, weights, auto_reweigh=auto_reweigh) for m in (nltk, nltk_api)]
    assert_same(outcome(calls[0]), outcome(calls[1]))


@pytest.mark.parametrize(
    "p_n",
    [[(0, 3), (1, 2), (1, 2), (1, 2)], [(1, 2), (0, 3), (1, 2), (1, 2)], [(0, 1), (1, 2), (1, 2), (1, 2)],
     [(1, 2), (0, 1), (1, 2), (1, 2)], [(2, 4), (2, 6), (1, 3), (0, 5)]],
    ids=repr,
)  # fmt: skip
def test_11_method6_called_directly_with_zero_early_precisions(p_n: list[tuple[int, int]]) -> None:
    refs, hyp = [["a", "b", "c"]], ["a", "b", "c", "d"]
    results = []
    for module in (nltk, nltk_api):
        given = [module.Fraction(m, d) if module is nltk_api else nltk.Fraction(m, d, _normalize=False) for m, d in p_n]
        results.append([outcome(lambda g=given, m=module: m.SmoothingFunction().method6(g, refs, hyp)), given])
    assert_same(*results)


@pytest.mark.parametrize(
    "params",
    [{"k": 0}, {"epsilon": 0}, {"alpha": 0}, {"alpha": -1}, {"epsilon": -0.5}, {"k": -2}, {"alpha": -4},
     {"epsilon": float("nan")}, {"k": float("inf")}],
    ids=repr,
)  # fmt: skip
@pytest.mark.parametrize("method", range(8))
def test_12_smoothing_parameters_are_used_as_nltk_uses_them(params: dict[str, float], method: int) -> None:
    refs, hyp = [["a", "b", "c", "d", "e"]], ["a", "b", "c", "x", "e"]
    calls = [lambda m=m: m.sentence_bleu(refs, hyp, smoothing_function=getattr(m.SmoothingFunction(**params),
             f"method{method}")) for m in (nltk, nltk_api)]  # fmt: skip
    assert_same(outcome(calls[0]), outcome(calls[1]))
    assert_same(direct(nltk, method, refs, hyp, params=params), direct(nltk_api, method, refs, hyp, params=params))


# ---------------------------------------------------------------------------------------------------------
# What the differential fuzz suites (test_fuzz_*.py) found after the twelve, fixed.


@pytest.mark.parametrize(
    "call",
    [
        # NLTK zips weights and precisions: an order past the weights is not weighted 0 (0 * log(inf) is NaN)
        ("sentence_bleu", [["a", "b", "c"]], ["a", "x"], [(0.25, 0.25, 0.5), (0.5, 0.5)], {"epsilon": math.inf}),
        ("sentence_bleu", [["mat"], ["the"]], ["mat"], (0.25, 0.25, 0.25, 0.25), {"epsilon": math.inf}, True),
        # an unhashable token fails (TypeError) before a missing reference is noticed, as NLTK counts in order
        ("corpus_bleu", [[], [["cat"]]], [[[1], "cat"], ["cat"]]),
        ("corpus_bleu", [[["a", [1]]], []], [["a"], ["b"]]),
        ("corpus_bleu", [[["a"]], []], [["a", [1]], []]),
        ("sentence_bleu", [[[1], "a"]], []),
        ("modified_precision", [], [[1], "a"], 1),
        ("modified_precision", [[[1], "a"]], ["b"], 2),
    ],
    ids=repr,
)
def test_fuzz_findings_nltk(call: tuple[Any, ...]) -> None:
    name, *args = call
    params = args.pop(3) if name == "sentence_bleu" and len(args) > 3 else None
    reweigh = bool(args.pop(3)) if len(args) > 3 else False

    def run(module: Any) -> Any:
        if params is not None:
            smoothing = module.SmoothingFunction(**params).method1
            return getattr(module, name)(*args, smoothing_function=smoothing, auto_reweigh=reweigh)
        return getattr(module, name)(*args)

    assert_same(outcome(lambda: run(nltk)), outcome(lambda: run(nltk_api)))


def test_4_command_line_floor_above_one_prints_sacrebleus_bytes(tmp_path: Path) -> None:
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("the dog sat\n", encoding="utf-8")
    hyp.write_text("the cat sat\n", encoding="utf-8")
    for fmt in ("text", "json"):
        args = [str(ref), "-i", str(hyp), "-s", "floor", "-sv", "2", "-f", fmt]
        theirs = subprocess.run([sys.executable, "-m", "sacrebleu", *args], capture_output=True, text=True)
        mine = subprocess.run([sys.executable, "-m", "bleu_core", *args], capture_output=True, text=True)
        assert mine.returncode == theirs.returncode == 0
        version = r'version(:|": ")[\d.]+'  # the signature's version is ours
        assert re.sub(version, "", mine.stdout) == re.sub(version, "", theirs.stdout)
