"""TER on the Corpus page: asked for with a toggle, equal to sacreBLEU's, per segment too, and bounded by the
limits policy (a corpus past it gets a message instead of a search that holds the worker)."""

from __future__ import annotations

import pytest
import sacrebleu

from bleu_core.limits import Limits
from bleu_core.stats.ter import too_long_for_ter
from bleu_core.teach.examples import DEMO_SYSTEMS
from tests.pages.test_corpus_page import DEMO_REFS, metric, page, segment_table


def test_ter_is_computed_only_when_asked_and_equals_sacrebleu() -> None:
    at = page()
    assert metric(at, "TER") == "—"
    assert "sentence TER" not in segment_table(at).columns
    at.toggle(key="co_ter").set_value(True).run()
    hyps = list(DEMO_SYSTEMS["literal"])
    assert metric(at, "TER") == f"{sacrebleu.corpus_ter(hyps, DEMO_REFS).score:.2f}"
    table = segment_table(at).sort_values("segment")
    expected = [sacrebleu.sentence_ter(h, [s[i] for s in DEMO_REFS]).score for i, h in enumerate(hyps)]
    assert table["sentence TER"].tolist() == pytest.approx(expected, rel=1e-12)
    at.selectbox(key="co_sort").set_value("sentence_ter").run()
    assert segment_table(at)["sentence TER"].tolist() == pytest.approx(sorted(expected), rel=1e-12)


def test_ter_in_chinese_names_its_toggle() -> None:
    from streamlit.testing.v1 import AppTest

    from tests.pages.test_corpus_page import PAGE

    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params["lang"] = "zh"
    at.run()
    assert any(toggle.label == "同时计算 TER" for toggle in at.toggle)


@pytest.mark.parametrize(
    ("hyps", "refs", "limits", "key"),
    [
        (["a b c"], [["a b"]], Limits(ter_words=2), "corpus.ter_too_many_words"),
        (["a b"], [["a b c d"]], Limits(ter_segment_words=3), "corpus.ter_line_too_long"),
        (["a b", "x"], [["a", None], ["a", "x y z w"]], Limits(ter_segment_words=3), "corpus.ter_line_too_long"),
    ],
)
def test_a_corpus_past_the_limits_is_left_out_with_the_reason(
    hyps: list[str], refs: list[list[str | None]], limits: Limits, key: str
) -> None:
    reason = too_long_for_ter(hyps, refs, limits)
    assert reason is not None and reason.key == key
    assert too_long_for_ter(hyps, refs, Limits()) is None
