"""AppTest: the Compare page's metric choice (chrF, chrF++, TER, all side by side) and the metrics' disagreements.

Every number shown is recomputed by another route: sacreBLEU's ``PairedTest`` with each system as the baseline
(p-values), Holm's correction written out, sacreBLEU's ``CHRF`` scoring the resampled segment indices (the
interval of Δ), and the disagreement from sacreBLEU's corpus scores.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.metrics.ter import TER
from sacrebleu.significance import PairedTest
from streamlit.testing.v1 import AppTest

from bleu_core.i18n import catalog
from bleu_core.version import __version__
from pages.compare_page import report as compare_report
from pages.compare_page.verdict_views import signed
from tests.core.test_paired_metrics import _holm
from tests.i18n_check import rendered_labels, untranslated
from tests.pages.test_compare_i18n import page as page_in
from tests.pages.test_corpus_page import plain

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "compare.py")
REFS = [
    ["The cat sat on the mat .", "A dog barked at the postman", "It is raining in Berlin today", "We met at noon"],
    ["A cat sat on the mat .", "The dog barked at a postman", "Today it rains in Berlin", "We met at midday"],
]
SYSTEMS = {
    "careful": ["The cat sat on the mat .", "A dog barked at the postman", "It is raining in Berlin today", "We met"],
    "literal": ["The cat sat on mat .", "Dog barked at postman", "It rains in Berlin today", "We have met at noon"],
    "terse": ["cat sat on the mat", "dog barked", "It is raining", "We met"],
}
# Every word misspelled: BLEU finds almost nothing, chrF most characters (so the two metrics disagree).
SYSTEMS["typos"] = [" ".join(word + word[-1] for word in line.split()) for line in REFS[0]]
METRICS = {"BLEU": BLEU(), "chrF2": CHRF(), "chrF2++": CHRF(word_order=2), "TER": TER()}
SAMPLES = 1000
SEED = 12345


def upload(at: AppTest) -> AppTest:
    at.radio(key="cmp_mode").set_value("upload").run()
    files = [(f"{name}.txt", ("\n".join(lines) + "\n").encode(), "text/plain") for name, lines in SYSTEMS.items()]
    at.file_uploader(key="cmp_systems").set_value(files)
    refs = [(f"ref{i}.txt", ("\n".join(lines) + "\n").encode(), "text/plain") for i, lines in enumerate(REFS)]
    at.file_uploader(key="cmp_references").set_value(refs)
    return at.run()


def metric_table(at: AppTest, language: str = "en") -> pd.DataFrame:
    """The metrics' table: one row per system and metric."""
    header = catalog(language)["metrics_verdict.col_metric"]
    return next(d.value for d in at.dataframe if header in d.value.columns)


def pairwise(scorer: Any) -> tuple[dict[str, float], dict[tuple[str, str], float]]:
    """Corpus scores and the p-value of every pair, sacreBLEU's PairedTest with each system as the baseline."""
    scores, p_values = {}, {}
    for base in SYSTEMS:
        order = [(base, SYSTEMS[base])] + [(k, v) for k, v in SYSTEMS.items() if k != base]
        metric = type(scorer)(
            **({"word_order": scorer.word_order} if isinstance(scorer, CHRF) else {}), references=REFS
        )
        _, results = PairedTest(order, {"m": metric}, None, "bs", SAMPLES)()
        column = next(key for key in results if key != "System")
        scores[base] = results[column][0].score
        for (name, _), result in zip(order[1:], results[column][1:], strict=True):
            p_values[base, name] = result.p_value
    return scores, p_values


def interval(scorer: CHRF, base: str, system: str) -> tuple[float, float]:
    """The 95% interval of Δ from sacreBLEU's CHRF scoring each resample of segment indices."""
    segments = len(REFS[0])
    idxs = np.random.default_rng(SEED).choice(segments, size=(SAMPLES, segments), replace=True)
    metric = CHRF(word_order=scorer.word_order, references=REFS)
    resampled = {}
    for name in (base, system):
        stats = np.array(metric._extract_corpus_statistics(SYSTEMS[name], None), dtype="float32")
        resampled[name] = np.array([metric._compute_score_from_stats(s.sum(0)).score for s in stats[idxs]])
    differences = np.sort(resampled[system] - resampled[base])
    return float(differences[SAMPLES // 40]), float(differences[SAMPLES - SAMPLES // 40 - 1])


def kept_reports(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every all-metrics HTML report the page builds, in order (the download button's content)."""
    reports: list[str] = []
    original = compare_report.metrics_report
    monkeypatch.setattr(
        compare_report, "metrics_report", lambda *a, **k: reports.append(original(*a, **k)) or reports[-1]
    )
    return reports


def test_all_metrics_side_by_side_by_another_route(monkeypatch: pytest.MonkeyPatch) -> None:
    reports = kept_reports(monkeypatch)
    at = upload(AppTest.from_file(PAGE, default_timeout=180).run())
    at.radio(key="cmp_metric").set_value("all").run()
    assert not at.exception
    frame = metric_table(at)
    assert list(frame["metric"]) == list(METRICS) * len(SYSTEMS)  # each system's metrics next to each other
    base = at.selectbox(key="cmp_baseline").value
    for label, scorer in METRICS.items():
        table = frame[frame["metric"] == label].set_index("system")
        scores, p_values = pairwise(scorer)
        corrected = _holm(p_values | {(b, a): p for (a, b), p in p_values.items()}, list(SYSTEMS))
        assert dict(table["score"]) == pytest.approx(scores, abs=1e-9)
        sign = -1 if label == "TER" else 1  # an error rate: the lower score is the better one
        ordered = sorted(SYSTEMS, key=lambda name: -sign * scores[name])
        better = {
            (a, b)
            for a in SYSTEMS
            for b in SYSTEMS
            if corrected.get((a, b), 1) < 0.05 and sign * (scores[a] - scores[b]) > 0
        }
        cluster, clusters = 1, {}
        for k, name in enumerate(ordered):
            clusters[name] = cluster
            cluster += all((a, b) in better for a in ordered[: k + 1] for b in ordered[k + 1 :])
        assert dict(table["cluster"]) == clusters
        # its rank-range chart: best rank 1 + the systems significantly better, worst n - those significantly worse
        chart = next(
            c for c in at.get("vega_lite_chart") if json.loads(c.proto.spec)["title"]["text"].startswith(f"{label} — ")
        )
        rows = pa.ipc.open_stream(chart.proto.datasets[0].data.data).read_pandas().to_dict("records")
        best = {name: 1 + sum((other, name) in better for other in SYSTEMS) for name in SYSTEMS}
        worst = {name: len(SYSTEMS) - sum((name, other) in better for other in SYSTEMS) for name in SYSTEMS}
        assert {row["system"]: (row["best rank"], row["worst rank"]) for row in rows} == {
            name: (best[name], worst[name]) for name in SYSTEMS
        }
        assert {row["system"]: row[label] for row in rows} == {name: round(scores[name], 2) for name in SYSTEMS}
        # the HTML report draws the same ranges, one chart per metric: each system's row ends with its range
        figure = reports[-1].split(f'aria-label="{label} — Rank ranges (colour: cluster)"')[1].split("</svg>")[0]
        for name in SYSTEMS:
            shown_range = str(best[name]) if best[name] == worst[name] else f"{best[name]}–{worst[name]}"
            assert re.search(f"<title>{name}</title>.*?>{shown_range}</text></g>", figure), (label, name)
        # its Δ chart: each system's difference, its interval (chrF's by sacreBLEU's resamples) and the colour of
        # the corrected verdict, the better direction being the metric's own (TER's lower score)
        chart = next(
            c
            for c in at.get("vega_lite_chart")
            if isinstance(title := json.loads(c.proto.spec).get("title"), dict)
            and " ".join([title["text"], *title["subtitle"]]) == f"Δ {label} to the baseline, 95% paired interval"
        )
        points = {}
        for dataset in chart.proto.datasets:
            for row in pa.ipc.open_stream(dataset.data.data).read_pandas().to_dict("records"):
                if "delta" in row:
                    points[row["system"]] = row
        assert set(points) == set(SYSTEMS) - {base}
        for name, row in points.items():
            assert row["delta"] == pytest.approx(scores[name] - scores[base], abs=1e-9)
            if isinstance(scorer, CHRF):
                assert (row["low"], row["high"]) == pytest.approx(interval(scorer, base, name), abs=1e-6)
            significant = corrected[base, name] < 0.05 and scores[name] != scores[base]
            better = sign * (scores[name] - scores[base]) > 0
            if significant:
                assert row["verdict"] == ("better" if better else "worse"), (label, name, row)
            else:
                assert row["verdict"] in ("not significant", "only uncorrected"), (label, name, row)
        for name in SYSTEMS:
            shown = table.loc[name, "Δ (95% CI)"]
            delta = scores[name] - scores[base]
            if name == base:
                assert shown == table.loc[name, "p corrected"] == "—"
                continue
            assert table.loc[name, "p corrected"] == f"{round(corrected[base, name], 4):.4f}"
            if isinstance(scorer, CHRF):
                low, high = interval(scorer, base, name)
                assert shown == f"{signed(delta)} [{signed(low)}, {signed(high)}]"
            else:
                assert shown.startswith(signed(delta) + " [")
    # the disagreement, from sacreBLEU's corpus scores: BLEU puts terse above typos, chrF the other way round
    real = {label: {k: s.corpus_score(v, REFS).score for k, v in SYSTEMS.items()} for label, s in METRICS.items()}
    assert real["BLEU"]["terse"] > real["BLEU"]["typos"] and real["chrF2"]["typos"] > real["chrF2"]["terse"]
    sentences = " ".join(plain(m.value) for m in at.markdown).replace("**", "")
    assert "BLEU ranks terse above typos" in sentences and "chrF2 ranks typos above terse" in sentences
    # a sentence for each pair that one metric at least calls significant; the others counted; all in the table
    listed = [line for m in at.markdown for line in plain(m.value).splitlines() if " ranks " in line]
    assert listed and all("(significant)" in line for line in listed)
    every = next(d.value for d in at.dataframe if "order by the first" in d.value.columns)
    minor = len(every) - len(listed)
    assert minor == 0 or any(plain(m.value).startswith(f"{minor} more pair") for m in at.markdown)
    assert reports and "chrF2++" in reports[-1] and "typos" in reports[-1]
    # the report names every metric in its title and records each one's signature (the tokenizer among them)
    assert "<h1>System comparison in BLEU, chrF2, chrF2++, TER</h1>" in reports[-1]
    for signature in ("tok:13a|smooth:exp", "nc:6|nw:0", "nc:6|nw:2", "tok:tercom"):
        assert signature in reports[-1]
    assert reports[-1].count(f"version:bleu_core-{__version__}") == 4  # one version, this tool's, in all four


def test_chrf_alone_in_chinese(monkeypatch: pytest.MonkeyPatch) -> None:
    at = upload(page_in("zh", monkeypatch))
    at.radio(key="cmp_metric").set_value("chrf").run()
    assert not at.exception
    zh = catalog("zh")
    assert any(zh["metrics_verdict.disagreements"] == s.value for s in at.subheader)
    sentences = " ".join(plain(m.value) for m in at.markdown).replace("**", "")
    assert "BLEU 认为 terse 优于 typos" in sentences and "chrF2 认为 typos 优于 terse" in sentences
    assert untranslated(rendered_labels(at), allowed=(*SYSTEMS, "chrF2", "chrF2++")) == {}
    assert set(metric_table(at, "zh")[zh["metrics_verdict.col_metric"]]) == {"chrF2"}


def test_demo_metrics_agree_and_bleu_keeps_its_verdict() -> None:
    at = AppTest.from_file(PAGE, default_timeout=180).run()
    assert at.radio(key="cmp_metric").value == "bleu"
    assert any("p-value" in d.value.columns for d in at.dataframe)  # the BLEU verdict, unchanged by default
    at.radio(key="cmp_metric").set_value("chrf++").run()
    assert not at.exception
    assert "BLEU, chrF2++ order every pair of systems the same way" in " ".join(plain(m.value) for m in at.markdown)


def test_hostile_names_are_escaped_in_sentences_and_report() -> None:
    from datetime import UTC, datetime

    from bleu_core.compare.metrics import metric
    from bleu_core.compare.paired import compare_metric
    from bleu_core.compare.ranking import rank_systems
    from bleu_core.stats import chrf
    from pages.compare_page import metric_views

    hostile = {"<img src=x onerror=alert(1)>": SYSTEMS["terse"], "**bold** [link](http://x)": SYSTEMS["typos"]}
    verdicts = []
    for name in ("chrf", "chrf++"):
        scorer = metric(name)
        tables = {k: chrf.chrf_statistics(v, REFS, scorer.options) for k, v in hostile.items()}  # type: ignore[attr-defined]
        comparison = compare_metric(tables, scorer, n_samples=100)
        ranks, corrected = rank_systems(comparison)
        verdicts.append(metric_views.MetricVerdict(scorer.name, comparison, ranks, corrected))
    found = metric_views.found_disagreements(verdicts, 0.05)
    assert found  # chrF2 puts typos above terse, chrF2++ the other way round
    sentence = metric_views.disagreement_sentence(found[0])
    assert "<img" not in sentence and "&lt;img" in sentence and "\\*\\*bold\\*\\*" in sentence
    report = compare_report.metrics_report(
        metric_views.metric_frame(verdicts),
        [],
        [metric_views.disagreement_sentence(d, escape=str) for d in found],
        {v.name: v.ranks for v in verdicts},
        signatures={"<b>": "<i>"},
        settings={"baseline": "<script>"},
        created=datetime.now(UTC),
    )
    assert "<img" not in report and "<script>" not in report and "&lt;img src=x onerror=alert(1)&gt;" in report
    assert "<b>" not in report and "<i>" not in report


def test_too_many_segments_for_chrf_is_said_not_computed(monkeypatch: pytest.MonkeyPatch) -> None:
    from bleu_core import limits
    from bleu_core.limits import Limits
    from pages.compare_page import metric_verdict

    monkeypatch.setattr(metric_verdict, "LIMITS", Limits(chrf_segments=3))
    monkeypatch.setattr(limits, "LIMITS", Limits(chrf_segments=3))  # the page script imports it on each run
    at = upload(AppTest.from_file(PAGE, default_timeout=180).run())
    at.radio(key="cmp_metric").set_value("chrf").run()
    assert not at.exception
    assert any("chrF's paired tests are offered up to 3" in plain(i.value) for i in at.info)
    assert not any(catalog("en")["metrics_verdict.col_metric"] in d.value.columns for d in at.dataframe)
    # the segment view says so too, and scores the segments in BLEU
    assert any("too large for chrF2 segment by segment" in plain(c.value) for c in at.caption)
    assert any("Sentence BLEU, segment by segment" in plain(m.value).replace("**", "") for m in at.markdown)


def test_ter_alone_in_chinese_lowest_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """TER's table runs from the lowest score, which is the default baseline's when the user picks it; the note
    says lower is better; every label is translated."""
    at = upload(page_in("zh", monkeypatch))
    at.radio(key="cmp_metric").set_value("ter").run()
    assert not at.exception
    zh = catalog("zh")
    frame = metric_table(at, "zh")
    real = {k: TER().corpus_score(v, REFS).score for k, v in SYSTEMS.items()}
    assert list(frame[zh["verdict.col_system"]]) == sorted(SYSTEMS, key=real.__getitem__)
    assert dict(zip(frame[zh["verdict.col_system"]], frame[zh["metrics_verdict.col_score"]], strict=True)) == (
        pytest.approx(real, abs=1e-9)
    )
    assert any(plain(zh["metrics_verdict.ter_note"]) == plain(c.value) for c in at.caption)
    assert untranslated(rendered_labels(at), allowed=(*SYSTEMS, "TER")) == {}


def test_too_many_words_for_ter_is_said_and_the_others_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    from bleu_core.limits import Limits
    from pages.compare_page import metric_verdict

    reports = kept_reports(monkeypatch)
    monkeypatch.setattr(metric_verdict, "LIMITS", Limits(ter_words=20))
    at = upload(AppTest.from_file(PAGE, default_timeout=180).run())
    at.radio(key="cmp_metric").set_value("all").run()
    assert not at.exception
    words = sum(len(line.split()) for lines in SYSTEMS.values() for line in lines)
    assert any(f"the hypotheses have {words} words, more than the 20" in plain(i.value) for i in at.info)
    assert set(metric_table(at)["metric"]) == {"BLEU", "chrF2", "chrF2++"}
    # the report says so too: a reader of the file alone learns why TER is missing
    assert f"the hypotheses have {words} words, more than the 20" in reports[-1]


def test_the_link_carries_the_metric() -> None:
    at = AppTest.from_file(PAGE, default_timeout=180)
    at.query_params["metric"] = "ter"
    at.run()
    assert not at.exception and at.radio(key="cmp_metric").value == "ter"
    assert set(metric_table(at)["metric"]) == {"TER"}
    at.radio(key="cmp_metric").set_value("chrf++").run()
    assert at.query_params["metric"] == "chrf++"
    at.radio(key="cmp_metric").set_value("bleu").run()
    assert "metric" not in at.query_params
    bad = AppTest.from_file(PAGE, default_timeout=180)
    bad.query_params["metric"] = "<b>meteor</b>"
    bad.run()
    assert not bad.exception and bad.radio(key="cmp_metric").value == "bleu"
    assert any("metric “<b>meteor</b>”" in plain(w.value) for w in bad.warning)


@pytest.mark.parametrize("choice, label", [("chrf", "chrF2"), ("chrf++", "chrF2++"), ("ter", "TER")])
def test_segments_are_scored_in_the_chosen_metric(choice: str, label: str) -> None:
    """The segment view follows the metric chosen above: its table of the segments that differ most and its
    wins, ties and losses are sacreBLEU's sentence scores in that metric (TER: the lower score wins)."""
    at = upload(AppTest.from_file(PAGE, default_timeout=180).run())
    at.radio(key="cmp_metric").set_value(choice).run()
    assert not at.exception
    a, b = at.selectbox(key="cmp_a").value, at.selectbox(key="cmp_b").value
    scorer = METRICS[label]

    def sentence(name: str, index: int) -> float:
        return float(scorer.sentence_score(SYSTEMS[name][index], [stream[index] for stream in REFS]).score)

    differ = next(d.value for d in at.dataframe if "difference" in d.value.columns)
    for row in differ.itertuples():
        assert (row.first, row.second) == (sentence(a, row.segment - 1), sentence(b, row.segment - 1))
        assert row.difference == pytest.approx(row.first - row.second, abs=1e-12)
    assert len(differ) == len(REFS[0])
    sign = -1 if label == "TER" else 1
    outcomes = [sign * (sentence(a, i) - sentence(b, i)) for i in range(len(REFS[0]))]
    wins, ties = sum(o > 1e-9 for o in outcomes), sum(abs(o) <= 1e-9 for o in outcomes)
    lower = " (lower is better)" if label == "TER" else ""
    expected = f"Sentence {label}, segment by segment{lower}: {a} is better in {wins}, tied in {ties}"
    assert expected in " ".join(plain(m.value) for m in at.markdown).replace("**", "")
    # the segment shown: the first row of this metric's list, with its score in this metric and its sentence BLEU
    shown = int(at.number_input(key="cmp_segment").value) - 1
    assert shown == differ["segment"].iloc[0] - 1
    for name in (a, b):
        bleu = BLEU(effective_order=True).sentence_score(SYSTEMS[name][shown], [s[shown] for s in REFS]).score
        line = f"{name}: {label} {sentence(name, shown):.2f} (sentence BLEU {bleu:.2f})"
        assert line in [plain(m.value).replace("**", "") for m in at.markdown]


def test_a_ranking_refused_its_samples_rests_on_the_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """At α = 0.01 four systems' ranks need 2,000 samples (the table draws 1,000, their first).  When the limits
    refuse 2,000 but not 1,000, every metric is still shown, its ranks resting on the table's samples, and the
    page says so for each metric; the p-values are sacreBLEU's at 1,000 samples."""
    from bleu_core import limits
    from bleu_core.compare import paired, ranking

    tight = limits.Limits(resample_scores=len(SYSTEMS) * SAMPLES)
    real_check = limits.check_resamples

    def check(samples: int, systems: int, segments: int, order: int = 4, test: str = "bs", *_: Any, **kw: Any) -> None:
        real_check(samples, systems, segments, order, test, tight, kw.get("columns"))

    monkeypatch.setattr(ranking, "check_resamples", check)
    monkeypatch.setattr(paired, "check_resamples", check)
    at = upload(AppTest.from_file(PAGE, default_timeout=180).run())
    at.selectbox(key="cmp_alpha").set_value(0.01).run()
    at.radio(key="cmp_metric").set_value("all").run()
    assert not at.exception and not at.error
    note = catalog("en")["limits.ranking_on_fewer"].format(samples=SAMPLES, needed=2000, alpha=0.01)
    assert sum(note in plain(w.value) for w in at.warning) == 4
    frame = metric_table(at)
    assert set(frame["metric"]) == {"BLEU", "chrF2", "chrF2++", "TER"}
    base = at.selectbox(key="cmp_baseline").value
    scores, p_values = pairwise(CHRF())  # sacreBLEU's, at 1,000 samples
    corrected = _holm(p_values | {(b, a): p for (a, b), p in p_values.items()}, list(SYSTEMS))
    table = frame[frame["metric"] == "chrF2"].set_index("system")
    assert dict(table["score"]) == pytest.approx(scores, abs=1e-9)
    for name in set(SYSTEMS) - {base}:
        assert table.loc[name, "p corrected"] == f"{round(corrected[base, name], 4):.4f}"


def test_captions_name_the_rankings_samples_and_the_raw_marks_use_exact_p_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At α = 0.001 four systems' ranks rest on 12,000 samples: every table's caption and the report say so, and
    explain why a corrected p-value can be below the table's uncorrected one.  sacreBLEU's uncorrected marks count
    a p-value of 1/1001 (shown as 0.0010) as below α = 0.001."""
    reports = kept_reports(monkeypatch)
    at = upload(AppTest.from_file(PAGE, default_timeout=180).run())
    at.selectbox(key="cmp_alpha").set_value(0.001).run()
    assert not at.exception
    base = at.selectbox(key="cmp_baseline").value
    scores, p_values = pairwise(BLEU())
    raw = [(p_values[base, n], scores[n] - scores[base]) for n in SYSTEMS if n != base]
    better, worse = sum(p < 0.001 and d > 0 for p, d in raw), sum(p < 0.001 and d < 0 for p, d in raw)
    assert any(p == 1 / 1001 for p, _ in raw)  # the case: shown rounded as 0.0010
    summary = " ".join(plain(m.value) for m in at.markdown).replace("**", "")
    assert f"as sacreBLEU marks them: {better} better, {worse} worse" in summary
    captions = " ".join(plain(c.value) for c in at.caption)
    assert "from the ranking's 12,000 samples" in captions
    assert plain(catalog("en")["verdict.ranking_more"]).strip() in captions
    at.radio(key="cmp_metric").set_value("chrf").run()
    assert not at.exception
    captions = " ".join(plain(c.value) for c in at.caption)
    assert "1,000 samples" in captions and "from the ranking's 12,000 samples" in captions
    assert "1,000 (ranking: 12,000)" in reports[-1]
    lines = [plain(m.value) for m in at.markdown if m.value.startswith("- **chrF2**")]
    assert lines and "(s)" not in lines[0] and re.search(r"; 1 rank cluster,|; \d+ rank clusters,", lines[0])


def test_the_metrics_csv_holds_numbers() -> None:
    """The table's CSV gives Δ and its interval bounds as numbers of their own (TER's "+0.61 [...]" came out as a
    text cell with a guard apostrophe), and each Δ is the difference of sacreBLEU's corpus scores."""
    import io

    from bleu_core.compare.metrics import metric_tables
    from bleu_core.compare.paired import compare_metric
    from bleu_core.compare.ranking import rank_systems
    from pages.compare_page import metric_views
    from pages.shared.views import frame_csv

    verdicts = []
    for name in ("ter", "chrf"):
        scorer, tables = metric_tables(name, SYSTEMS, REFS)
        comparison = compare_metric(tables, scorer, n_samples=200)
        verdicts.append(metric_views.MetricVerdict(scorer.name, comparison, *rank_systems(comparison)))
    written = frame_csv(metric_views.csv_frame(metric_views.metric_frame(verdicts)))
    assert "'" not in written and "[" not in written
    table = pd.read_csv(io.StringIO(written))
    assert list(table.columns) == ["system", "metric", "score", "p corrected", "cluster", "Δ", "Δ low", "Δ high"]
    for verdict, label in zip(verdicts, ("TER", "chrF2"), strict=True):
        rows = table[table["metric"] == label].set_index("system")
        real = {k: METRICS[label].corpus_score(v, REFS).score for k, v in SYSTEMS.items()}
        base = verdict.comparison.baseline
        for system in SYSTEMS:
            assert rows.loc[system, "Δ"] == pytest.approx(real[system] - real[base], abs=1e-9)
            assert (system == base) == pd.isna(rows.loc[system, "Δ low"])
