"""Fixes that came with the drop-in work: valid JSON, sacreBLEU's rounding, no score where BLEU is undefined."""

from __future__ import annotations

import json
import math

import pytest

import bleu_core
from bleu_core import cli
from bleu_core.api import BleuResult
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
