"""Each rule written once: the brevity penalty and the closest-reference rule have one home in bleu_core.

The search reads the code (not comments or docstrings); a tool that deviates passes a parameter to the one
function, and the deliberately wrong formulas of the mistake checks are listed here with their reason.
"""

from __future__ import annotations

import ast
import math
from pathlib import Path

import numpy as np
import pytest

from bleu_core.stats.scoring import BREVITY_FORMS, brevity_penalty, scalar_brevity_penalty
from bleu_core.stats.segment_stats import closest_ref_length, segment_reference_lengths

CORE = Path(__file__).resolve().parents[2] / "bleu_core"
#: Where a formula exp(1 - x / y) may be written: the rule's home, and the wrong formulas students write
#: (an inverted c/r, an uncapped exp(1 - r/c) when c > r), which the mistake checks reproduce on purpose.
BP_FORMULAS = {
    "stats/scoring.py": 3,  # the vectorized rule, the scalar rule, HF's ratio form
    "gaps/mistakes.py": 1,  # "brevity penalty written as exp(1 - c/r)"
    "teach/exercise_checks.py": 4,  # inverted and uncapped answers a student may give
}


def _is_exp_one_minus_ratio(node: ast.AST) -> bool:
    if not (isinstance(node, ast.Call) and node.args):
        return False
    name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
    arg = node.args[0]
    return (
        name == "exp"
        and isinstance(arg, ast.BinOp)
        and isinstance(arg.op, ast.Sub)
        and isinstance(arg.left, ast.Constant)
        and arg.left.value == 1
        and isinstance(arg.right, ast.BinOp)
        and isinstance(arg.right.op, ast.Div)
    )


def _is_scalar_closest_rule(node: ast.AST) -> bool:
    """``min(lengths, key=lambda l: (abs(c - l), ...))`` or ``lengths[diffs.index(min(diffs))]``."""
    if not isinstance(node, ast.Call):
        return False
    if getattr(node.func, "id", "") == "min":
        keys = [k.value for k in node.keywords if k.arg == "key"]
        return any(isinstance(n, ast.Call) and getattr(n.func, "id", "") == "abs" for k in keys for n in ast.walk(k))
    return (
        isinstance(node.func, ast.Attribute)
        and node.func.attr == "index"
        and any(isinstance(a, ast.Call) and getattr(a.func, "id", "") == "min" for a in node.args)
    )


def _found(predicate: object) -> dict[str, int]:
    found: dict[str, int] = {}
    for path in sorted(CORE.rglob("*.py")):
        hits = sum(1 for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if predicate(node))  # type: ignore[operator]
        if hits:
            found[path.relative_to(CORE).as_posix()] = hits
    return found


def test_the_brevity_penalty_is_written_once() -> None:
    assert _found(_is_exp_one_minus_ratio) == BP_FORMULAS


def test_the_closest_reference_rule_is_written_once() -> None:
    # NLTK's closest_ref_length keeps NLTK's own expression for a hyp_len that is not a whole number (a float
    # or a Fraction can tie differently); whole numbers go through the shared rule.
    assert _found(_is_scalar_closest_rule) == {"nltk_api.py": 1}


@pytest.mark.parametrize("c", range(0, 7))
@pytest.mark.parametrize("r", range(0, 7))
def test_the_scalar_brevity_penalty_is_the_vectorized_one(c: int, r: int) -> None:
    vector = float(brevity_penalty(np.array([c]), np.array([r]))[0])
    assert scalar_brevity_penalty(c, r) == pytest.approx(vector, rel=1e-15, abs=0)
    # each form written out here, as its tool writes it
    expected = {
        "standard": vector,
        "ratio": 0.0 if c == 0 or r == 0 else (1.0 if c > r else math.exp(1 - 1 / (c / r))),
        "zero-when-r-is-0": 0.0 if r == 0 else vector,
        "nltk": 1.0 if c > r else (0.0 if c == 0 else math.exp(1 - r / c)),
    }
    for form in BREVITY_FORMS:
        assert scalar_brevity_penalty(c, r, form) == pytest.approx(expected[form], rel=1e-15, abs=0), form


def test_reference_length_rules() -> None:
    candidate = [5, 5, 3, 4]
    lengths = [[4, 6], [6, 4], [], [9, 2, 6]]
    assert segment_reference_lengths(candidate, lengths).tolist() == [4, 4, 0, 2]
    assert segment_reference_lengths(candidate, lengths, "closest-first").tolist() == [4, 6, 0, 2]
    assert segment_reference_lengths(candidate, lengths, "shortest").tolist() == [4, 4, 0, 2]
    # the closest rule is the one of SegmentStats
    padded = np.array([[4, 6], [6, 4], [9, 2]])
    assert closest_ref_length(np.array([5, 5, 4]), padded).tolist() == [4, 4, 2]
