"""AppTest: the compare page's scores and p-values equal sacreBLEU's PairedTest; broken files are reported."""

from __future__ import annotations

import html
import json
import math
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
import sacrebleu
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.significance import PairedTest, Result
from streamlit.testing.v1 import AppTest

from bleu_core import SegmentStats, make_options, pairwise_p_values
from bleu_core.compare.ranking import compare_from_stats, rank_systems
from bleu_core.compare.significance import _system_statistics
from bleu_core.corpus.diagnosis import analyze_corpus
from bleu_core.stats.progress import ProgressReporter
from bleu_core.teach.examples import DEMO_REFERENCES, DEMO_SYSTEMS
from pages.compare_page import report as compare_report
from pages.compare_page import verdict_views
from pages.compare_page.views import short_names
from tests.conftest import Pair
from tests.pages.test_corpus_page import plain

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "compare.py")
DEMO_REFS = [list(stream) for stream in DEMO_REFERENCES]


def page() -> AppTest:
    return AppTest.from_file(PAGE, default_timeout=120).run()


def results(at: AppTest) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if "p-value" in d.value.columns).set_index("system")


def shown_p(value: float) -> str:
    return f"{round(value, 4):.4f}"


def signed(value: float) -> str:
    text = f"{abs(value):.2f}"
    return text if text == "0.00" else ("+" if value > 0 else "\u2212") + text


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
    base = expected["careful"].score
    for name, result in expected.items():
        assert table.loc[name, "BLEU"] == pytest.approx(round(result.score, 2), abs=1e-9)
        if result.p_value is not None:
            assert table.loc[name, "p-value"] == shown_p(result.p_value)
            assert table.loc[name, "95% CI"] == f"{result.mean:.2f} ± {result.ci:.2f}"
            assert table.loc[name, "Δ BLEU"] == signed(result.score - base)
            assert table.loc[name, "verdict"] == ("▼ worse *" if result.p_value < 0.05 else "≈ not significant")
    # The best-scoring system is the default baseline; its p-value is a dash, not "None".
    assert table.loc["careful", "verdict"] == "baseline"
    assert table.loc["careful", "p-value"] == "—"
    assert list(table.index) == sorted(expected, key=lambda n: -expected[n].score)
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
    assert table.loc["literal", "verdict"] == "baseline"
    for name in ("careful", "terse"):
        assert table.loc[name, "p-value"] == shown_p(expected[name].p_value)
        assert table.loc[name, "95% CI"] == ""
        assert table.loc[name, "95% CI of Δ"] == "—"
    assert table.loc["careful", "verdict"].startswith("▲ better")
    # The chosen baseline survives a rerun with other settings.
    at.selectbox(key="cmp_alpha").set_value(0.01).run()
    assert at.selectbox(key="cmp_baseline").value == "literal"


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


def holm_significant(p_values: dict[tuple[str, str], float], names: list[str], alpha: float) -> set[frozenset[str]]:
    """Holm's step-down procedure in its textbook form: reject the i-th smallest of m p-values while
    p_(i) < alpha / (m - i + 1) (i from 1), stop at the first that is not rejected."""
    pairs = sorted(
        (frozenset((a, b)) for i, a in enumerate(names) for b in names[i + 1 :]),
        key=lambda pair: p_values[tuple(sorted(pair))],  # type: ignore[index]
    )
    rejected: set[frozenset[str]] = set()
    for i, pair in enumerate(pairs, start=1):
        if p_values[tuple(sorted(pair))] * (len(pairs) - i + 1) >= alpha:  # type: ignore[index]
            break
        rejected.add(pair)
    return rejected


def expected_ranks(scores: dict[str, float], significant: set[frozenset[str]]) -> dict[str, str]:
    out = {}
    for s in scores:
        better = [t for t in scores if frozenset((s, t)) in significant and scores[t] > scores[s]]
        worse = [t for t in scores if frozenset((s, t)) in significant and scores[t] < scores[s]]
        best, worst = 1 + len(better), len(scores) - len(worse)
        out[s] = str(best) if best == worst else f"{best}\u2013{worst}"
    return out


def fixed_domains(node: object) -> list[object]:
    """Every scale domain of [0, 100] anywhere in a Vega-Lite spec."""
    if isinstance(node, dict):
        found = [node] if node.get("domain") in ([0, 100], [0.0, 100.0]) else []
        return found + [x for value in node.values() for x in fixed_domains(value)]
    if isinstance(node, list):
        return [x for value in node for x in fixed_domains(value)]
    return []


def test_wmt22_verdict_matches_sacrebleu_and_an_independent_ranking(
    pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    reports: list[str] = []
    original = compare_report.build_report

    def capture(*args: Any, **kwargs: Any) -> str:
        reports.append(original(*args, **kwargs))
        return reports[-1]

    monkeypatch.setattr(compare_report, "build_report", capture)
    at = page()
    at.radio(key="cmp_mode").set_value("upload").run()
    chosen = pair.systems
    broken = b"\n".join(chosen[2].read_bytes().splitlines()[:100]) + b"\n"
    files = [(p.name, p.read_bytes(), "text/plain") for p in chosen] + [("truncated.txt", broken, "text/plain")]
    at.file_uploader(key="cmp_systems").set_value(files)
    at.file_uploader(key="cmp_references").set_value([(pair.references[0].name, pair.references[0].read_bytes(), "")])
    at.run()
    assert not at.exception
    errors = " ".join(plain(e.value) for e in at.error)
    assert "truncated.txt has 100 lines" in errors
    table = results(at)
    names = short_names([p.name for p in chosen] + ["truncated.txt"])[: len(chosen)]
    refs = [pair.references[0].read_text(encoding="utf-8").splitlines()]
    systems = {n: p.read_text(encoding="utf-8").splitlines() for n, p in zip(names, chosen, strict=True)}
    scores = {n: BLEU().corpus_score(h, refs).score for n, h in systems.items()}
    best = max(scores, key=scores.__getitem__)
    assert at.selectbox(key="cmp_baseline").value == best
    assert list(table.index) == sorted(scores, key=lambda n: -scores[n])
    ordered = {best: systems[best], **{n: h for n, h in systems.items() if n != best}}
    expected = sacrebleu_paired(ordered, refs, "bs", 1000)
    for name, result in expected.items():
        assert table.loc[name, "BLEU"] == pytest.approx(round(scores[name], 2), abs=1e-9)
        if name != best:
            assert table.loc[name, "Δ BLEU"] == signed(scores[name] - scores[best])
            assert table.loc[name, "p-value"] == shown_p(result.p_value)
            assert table.loc[name, "95% CI"] == f"{result.mean:.2f} ± {result.ci:.2f}"
    # Rank ranges: sacreBLEU-exact pairwise p-values, Holm at 0.05, computed here independently.  With N samples
    # no p-value is below 1/(N+1); the page draws the smallest multiple of 1000 above 2 m / alpha for m pairs.
    m = len(names) * (len(names) - 1) // 2
    rank_samples = math.ceil(2 * m / 0.05 / 1000) * 1000
    assert any(f"The ranking draws {rank_samples:,} samples" in c.value for c in at.caption)
    stats = {n: BLEU(references=refs)._extract_corpus_statistics(h, None) for n, h in systems.items()}
    assert len(stats) == len(names)
    p_values = pairwise_p_values(
        {n: SegmentStats.from_matrix(np.asarray(s, dtype=np.int64), 4) for n, s in stats.items()},
        make_options(),
        n_samples=rank_samples,
    )
    significant = holm_significant(p_values, names, 0.05)
    ranks = expected_ranks(scores, significant)
    ranking = next(d.value for d in at.dataframe if list(d.value.columns) == ["rank", "system", "BLEU"])
    ranking = ranking.set_index("system")
    assert ranking["rank"].to_dict() == ranks
    assert table["rank"].to_dict() == ranks
    # The verdict against the baseline is the ranking's (Holm over every pair); sacreBLEU's uncorrected mark is
    # kept apart, so that the headline and the ranks never disagree.
    verdicts = {}
    for name in names:
        if name == best:
            continue
        if frozenset((name, best)) in significant:
            verdicts[name] = "▼ worse *"
        elif expected[name].p_value < 0.05:
            verdicts[name] = "≈ only uncorrected"
        else:
            verdicts[name] = "≈ not significant"
        assert table.loc[name, "verdict"] == verdicts[name], name
    worse = sum(v.startswith("▼") for v in verdicts.values())
    raw_worse = sum(expected[n].p_value < 0.05 for n in verdicts)
    headline = next(m.value for m in at.markdown if "Against the baseline" in m.value)
    assert f"**{worse}** significantly worse" in headline
    assert f"uncorrected, as sacreBLEU marks them: 0 better, {raw_worse} worse" in headline
    for chart in at.get("vega_lite_chart"):
        assert fixed_domains(json.loads(chart.proto.spec)) == []
    parser = HTMLParser()
    parser.feed(reports[-1])
    for name in names:
        assert html.escape(name) in reports[-1]
        assert f"{round(scores[name], 2):.2f}" in reports[-1]
    assert reports[-1].count("<svg") == 3


def test_report_escapes_hostile_names() -> None:
    """System names come from file names: the report prints them as text, never as markup."""
    hostile = '<script>alert("x")</script> & <b>'
    systems = {hostile if k == "careful" else k: list(v) for k, v in DEMO_SYSTEMS.items()}
    options = make_options()
    stats = _system_statistics(systems, DEMO_REFS, options, ProgressReporter(None))
    comparison = compare_from_stats(stats, options, n_samples=200)
    ranks, _ = rank_systems(comparison)
    analyses = {n: analyze_corpus(s, options, 2) for n, s in stats.items()}
    frame = verdict_views.results_frame(analyses, comparison, ranks, 0.05)
    report = compare_report.build_report(
        frame,
        ranks,
        comparison,
        signature="sig<>",
        settings={"baseline": hostile},
        created=datetime.now(UTC),
        explanation="**p** <i>x</i>",
    )
    assert "<script>" not in report and "<b>" not in report and "<i>" not in report
    assert html.escape(hostile) in report
    HTMLParser().feed(report)


def test_a_difference_significant_only_uncorrected_is_not_called_worse(pairs: list[Pair]) -> None:
    """WMT22 en-de, four systems: JDExploreAcademy trails Online-B with p = 0.031 taken alone, but not after the
    Holm correction over the six pairs, and the ranks tie them; the verdict says so instead of "worse"."""
    found = next((p for p in pairs if p.name == "en-de"), None)
    wanted = ("JDExploreAcademy", "Online-B", "OpenNMT", "PROMT")
    chosen = [p for p in found.systems if p.name.split(".")[-2] in wanted] if found else []
    if found is None or len(chosen) < len(wanted):
        pytest.skip("the WMT22 en-de systems JDExploreAcademy, Online-B, OpenNMT and PROMT are not in the data folder")
    at = page()
    at.radio(key="cmp_mode").set_value("upload").run()
    at.file_uploader(key="cmp_systems").set_value([(p.name, p.read_bytes(), "text/plain") for p in chosen])
    at.file_uploader(key="cmp_references").set_value([(found.references[0].name, found.references[0].read_bytes(), "")])
    at.run()
    assert not at.exception
    table = results(at)
    jd = next(name for name in table.index if "JDExploreAcademy" in name)
    base = at.selectbox(key="cmp_baseline").value
    assert "Online-B" in base
    assert float(table.loc[jd, "p-value"]) < 0.05 <= float(table.loc[jd, "p corrected"])
    assert table.loc[jd, "verdict"] == "≈ only uncorrected"
    assert table.loc[jd, "rank"] == table.loc[base, "rank"] == "1\u20132"
    headline = next(m.value for m in at.markdown if "Against the baseline" in m.value)
    assert "**2** significantly worse" in headline and "0 better, 3 worse" in headline


def test_stretched_charts_keep_their_plot_height() -> None:
    """A chart stretched to its column fits its width only: fitted whole into its height, the legend below and
    the title squeezed the length-bucket chart's plot to nothing."""
    at = page()
    at.segmented_control(key="cmp_details").set_value("precisions").run()
    assert not at.exception
    specs = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]
    titles = {"BLEU by reference length", "n-gram precisions per system"}  # side by side, stretched to their columns
    shown = [s for s in specs if s.get("title", {}).get("text") in titles]
    assert len(shown) == 2 and all(s["height"] == 260 for s in shown)
    assert all(s["autosize"] == {"type": "fit-x", "contains": "padding"} for s in shown)


def test_chinese_systems_under_13a_are_warned_as_on_corpus() -> None:
    def upload(tokenize: str) -> AppTest:
        at = page()
        at.radio(key="cmp_mode").set_value("upload").run()
        systems = [("a.zh", "我们今天去公园\n他说你好\n天气很好\n"), ("b.zh", "我们去公园\n你好\n天气好\n")]
        at.file_uploader(key="cmp_systems").set_value([(n, text.encode(), "text/plain") for n, text in systems])
        reference = "我们今天去了公园\n他说你好\n天气很好\n".encode()
        at.file_uploader(key="cmp_references").set_value([("ref.zh", reference, "")])
        at.selectbox(key="bleu_tokenize").set_value(tokenize)
        return at.run()

    warned = upload("13a")
    assert not warned.exception
    expected = "a is 100% Chinese/Japanese characters, but the 13a tokenizer splits only at spaces"
    assert any(expected in plain(w.value) for w in warned.warning), [w.value for w in warned.warning]
    assert not any("Chinese/Japanese characters" in plain(w.value) for w in upload("zh").warning)


def test_the_baseline_follows_the_best_system_until_the_user_picks_one() -> None:
    reference = "The Big Cat sat on the Mat today"
    systems = {"a": "the big cat sat on the mat today", "b": "The Big Cat sat in a Mat today"}
    at = page()
    at.radio(key="cmp_mode").set_value("upload").run()
    at.file_uploader(key="cmp_systems").set_value([(f"{n}.txt", h.encode(), "text/plain") for n, h in systems.items()])
    at.file_uploader(key="cmp_references").set_value([("ref.txt", reference.encode(), "text/plain")])
    at.run()

    def best(lowercase: bool) -> str:
        scores = {n: BLEU(lowercase=lowercase).corpus_score([h], [[reference]]).score for n, h in systems.items()}
        return max(scores, key=scores.__getitem__)

    assert (best(False), best(True)) == ("b", "a")  # the lowercase setting changes the best system
    assert at.selectbox(key="cmp_baseline").value == "b"
    at.checkbox(key="bleu_lowercase").check().run()
    assert at.selectbox(key="cmp_baseline").value == "a"  # not chosen by the user: it follows the best
    at.selectbox(key="cmp_baseline").set_value("b").run()
    at.checkbox(key="bleu_lowercase").uncheck().run()
    at.checkbox(key="bleu_lowercase").check().run()
    assert not at.exception
    assert at.selectbox(key="cmp_baseline").value == "b"  # chosen: it stays


def test_systems_with_the_same_output_are_named() -> None:
    at = page()
    at.radio(key="cmp_mode").set_value("upload").run()
    same = b"the cat sat on the mat\nit rained\n"
    files = [("x.txt", same, "text/plain"), ("y.txt", same, "text/plain"), ("z.txt", b"a cat sat\nit rains\n", "")]
    at.file_uploader(key="cmp_systems").set_value(files)
    at.file_uploader(key="cmp_references").set_value([("ref.txt", b"the cat is on the mat\nit rained\n", "")])
    at.run()
    assert not at.exception
    warned = [plain(w.value) for w in at.warning if "same output line for line" in w.value]
    assert warned == [
        "x, y have the same output line for line (one file loaded twice?): their scores are equal and no test can "
        "tell them apart."
    ]


def test_short_names_shorten_each_family_of_file_names() -> None:
    wmt = ["generaltest2022.en-de.hyp.Online-A.de", "generaltest2022.en-de.hyp.PROMT.de"]
    assert short_names(wmt) == ["Online-A", "PROMT"]
    # beside files of another family the WMT names still lose what they share (they were cut to one label)
    assert short_names(["mine.de", *wmt]) == ["mine", "Online-A", "PROMT"]
    assert short_names(["hyp_utf16.de", "hyp_crlf.de", *wmt]) == ["utf16", "crlf", "Online-A", "PROMT"]
    assert short_names(["only.txt"]) == ["only.txt"]
