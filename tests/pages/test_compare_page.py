"""AppTest: the compare page's scores and p-values equal sacreBLEU's PairedTest; broken files are reported."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import sacrebleu
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.significance import PairedTest, Result
from streamlit.testing.v1 import AppTest

from bleu_core.examples import DEMO_REFERENCES, DEMO_SYSTEMS
from tests.conftest import Pair
from tests.pages.test_corpus_page import plain

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "compare.py")
DEMO_REFS = [list(stream) for stream in DEMO_REFERENCES]


def page() -> AppTest:
    return AppTest.from_file(PAGE, default_timeout=120).run()


def results(at: AppTest) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if "p-value" in d.value.columns).set_index("system")


def sacrebleu_paired(
    systems: dict[str, list[str]], references: list[list[str]], test: str, n_samples: int
) -> dict[str, Result]:
    """sacreBLEU's own PairedTest (seed 12345, its default); the first system is the baseline."""
    paired = PairedTest(list(systems.items()), {"BLEU": BLEU(references=references)}, None, test, n_samples)
    _, scores = paired()
    return dict(zip(scores["System"], scores["BLEU"], strict=True))  # type: ignore[arg-type]


def test_demo_table_equals_sacrebleu_bootstrap() -> None:
    at = page()
    assert not at.exception
    table = results(at)
    expected = sacrebleu_paired({k: list(v) for k, v in DEMO_SYSTEMS.items()}, DEMO_REFS, "bs", 1000)
    for name, result in expected.items():
        assert table.loc[name, "BLEU"] == pytest.approx(round(result.score, 2), abs=1e-9)
        if result.p_value is not None:
            assert table.loc[name, "p-value"] == pytest.approx(round(result.p_value, 4), abs=1e-9)
            assert table.loc[name, "95% CI"] == f"{result.mean:.2f} ± {result.ci:.2f}"
    assert table.loc["careful", "significant"] == "baseline"
    assert any("nrefs:2" in c.value for c in at.code)


def test_changing_baseline_and_test_type() -> None:
    at = page()
    at.selectbox(key="cmp_baseline").set_value("literal").run()
    at.radio(key="cmp_test").set_value("ar").run()
    at.number_input(key="cmp_samples_ar").set_value(2000).run()
    assert not at.exception
    table = results(at)
    order = {"literal": list(DEMO_SYSTEMS["literal"])}
    order.update({k: list(v) for k, v in DEMO_SYSTEMS.items() if k != "literal"})
    expected = sacrebleu_paired(order, DEMO_REFS, "ar", 2000)
    assert table.loc["literal", "significant"] == "baseline"
    for name in ("careful", "terse"):
        assert table.loc[name, "p-value"] == pytest.approx(round(expected[name].p_value, 4), abs=1e-9)
        assert table.loc[name, "95% CI"] == ""


def test_segment_view_shows_both_outputs_and_win_tie_loss() -> None:
    at = page()
    at.selectbox(key="cmp_b").set_value("terse").run()
    at.number_input(key="cmp_segment").set_value(2).run()
    text = "\n".join(m.value for m in at.markdown)
    a = [sacrebleu.sentence_bleu(h, [r[i] for r in DEMO_REFS]).score for i, h in enumerate(DEMO_SYSTEMS["careful"])]
    b = [sacrebleu.sentence_bleu(h, [r[i] for r in DEMO_REFS]).score for i, h in enumerate(DEMO_SYSTEMS["terse"])]
    wins = sum(x > y for x, y in zip(a, b, strict=True))
    assert f"better in **{wins}**" in text
    assert f"**terse**: sentence BLEU {b[1]:.2f}" in text
    assert any(t.value == f"source: {'Morgen regnet es in Berlin.'}" for t in at.text)


@pytest.fixture
def pair(pairs: list[Pair]) -> Pair:
    chosen = next((p for p in pairs if p.name == "cs-en" and len(p.systems) >= 3), None)
    if chosen is None:
        pytest.skip("the WMT22 cs-en pair is not in the data folder")
    return chosen


def test_wmt22_systems_match_sacrebleu_and_a_broken_file_is_reported(pair: Pair) -> None:
    at = page()
    at.radio(key="cmp_mode").set_value("Upload files").run()
    chosen = pair.systems[:3]
    broken = b"\n".join(chosen[2].read_bytes().splitlines()[:100]) + b"\n"
    files = [(p.name, p.read_bytes(), "text/plain") for p in chosen] + [("truncated.txt", broken, "text/plain")]
    at.file_uploader(key="cmp_systems").set_value(files)
    at.file_uploader(key="cmp_references").set_value([(pair.references[0].name, pair.references[0].read_bytes(), "")])
    at.run()
    assert not at.exception
    errors = " ".join(plain(e.value) for e in at.error)
    assert "truncated.txt has 100 lines" in errors
    table = results(at)
    assert list(table.index) == [p.name for p in chosen]
    refs = [pair.references[0].read_text(encoding="utf-8").splitlines()]
    systems = {p.name: p.read_text(encoding="utf-8").splitlines() for p in chosen}
    expected = sacrebleu_paired(systems, refs, "bs", 1000)
    for name, result in expected.items():
        assert table.loc[name, "BLEU"] == pytest.approx(round(result.score, 2), abs=1e-9)
        if result.p_value is not None:
            assert table.loc[name, "p-value"] == pytest.approx(round(result.p_value, 4), abs=1e-9)
            assert table.loc[name, "95% CI"] == f"{result.mean:.2f} ± {result.ci:.2f}"
