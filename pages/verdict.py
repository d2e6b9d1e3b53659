"""The compare page's verdict section: controls, summary, results table, rank ranges, charts, downloads."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import streamlit as st

from bleu_core.diagnosis import CorpusAnalysis
from bleu_core.options import BleuOptions
from bleu_core.ranking import CORRECTIONS, Comparison, SystemRank, rank_systems, ranking_samples
from bleu_core.significance import DEFAULT_SEED
from pages import cached, charts, compare_report, compare_views, controls, verdict_views, views

TESTS = {"bs": "paired bootstrap resampling", "ar": "approximate randomization"}
DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}
CORRECTION_LABELS = {"holm": "Holm", "bonferroni": "Bonferroni", "none": "none (raw p-values)"}
BASELINE = "cmp_baseline"

EXPLANATION = """
**p-value.** Suppose the two systems were equally good at producing BLEU on sentences like these. The
p-value is how often resampling the test set then shows a BLEU gap at least as large as the real one. A
small value (below α) says the gap is unlikely to come from which sentences happen to be in the test set.
It is *not* the probability that one system is better, and it says nothing about how large the gap is.

**95% bootstrap interval.** The test set is redrawn with replacement many times, the same sentences for
every system, and BLEU is recomputed each time. The interval holds the middle 95% of those values (of a
system's BLEU, or of its difference to the baseline). It covers the luck of the sentence sample only: not
another domain, other references, another tokenizer or another year's test set.

**Approximate randomization.** In each trial every sentence's two outputs trade places with probability ½;
the p-value is the share of trials whose BLEU gap is at least the real one. It tests; it gives no interval.

**Many systems, many tests.** With k systems there are k(k−1)/2 pairs, and at α = 0.05 one pair in twenty
with no real difference comes out "significant" by chance. The ranking therefore corrects the pairwise
p-values (Holm by default), so that the chance of *any* false "significantly better" stays below α.

**BLEU is not a human preference.** A significant difference says that *BLEU* reliably differs on this
test set. Differences of a BLEU point or two often disagree with human judgements, and BLEU misses errors
people care about; check outputs by eye, with human evaluation or with other metrics before deciding.
"""

RANK_HELP = """
**Rank range.** The pairwise p-values (the chosen test, every pair) are corrected for multiple comparisons;
system *s* is *significantly better* than *t* when the corrected p-value is below α and *s* has the higher
BLEU. Then *s*'s **best rank** is 1 + the number of systems significantly better than *s*, and its **worst
rank** is the number of systems not significantly worse than *s* (itself included). "1" means no system
can be placed above it; "2–4" means it could be anywhere from 2nd to 4th. **Clusters**: in BLEU order, a
new cluster starts where every system above is significantly better than every system below. This is the
form of the rank ranges and clusters in the WMT findings' human-evaluation tables (e.g. Barrault et al.,
2020, *Findings of the 2020 Conference on Machine Translation*; Kocmi et al., 2022, for WMT22). WMT tests
human scores without a correction; here the test is sacreBLEU's paired test on BLEU and the p-values are
corrected (Holm, 1979, *A simple sequentially rejective multiple test procedure*, or Bonferroni).
"""


@dataclass(frozen=True)
class TestSettings:
    baseline: str
    test: str
    n_samples: int
    seed: int
    alpha: float
    correction: str


def best_system(analyses: Mapping[str, CorpusAnalysis]) -> str:
    return max(analyses, key=lambda name: analyses[name].result.score)


def test_controls(analyses: Mapping[str, CorpusAnalysis]) -> TestSettings:
    """The baseline (default: the best BLEU; kept across reruns while it is one of the systems) and the tests."""
    names = list(analyses)
    if st.session_state.get(BASELINE) not in names:
        st.session_state[BASELINE] = best_system(analyses)
    cols = st.columns([2, 2, 1, 1, 1, 1])
    baseline = cols[0].selectbox("Baseline", names, key=BASELINE, help="Default: the system with the best BLEU.")
    test = cols[1].radio("Test", list(TESTS), format_func=TESTS.__getitem__, key="cmp_test", horizontal=True)
    n_samples = int(
        cols[2].number_input(
            "samples" if test == "bs" else "trials",
            1,
            100_000,
            value=DEFAULT_SAMPLES[test],
            step=100,
            key=f"cmp_samples_{test}",
        )
    )
    seed = int(cols[3].number_input("seed", 0, 2**31 - 1, value=DEFAULT_SEED, key="cmp_seed"))
    alpha = float(cols[4].selectbox("α", [0.05, 0.01, 0.001], key="cmp_alpha"))
    correction = str(
        cols[5].selectbox(
            "correction", list(CORRECTIONS), format_func=CORRECTION_LABELS.__getitem__, key="cmp_correction"
        )
    )
    return TestSettings(str(baseline), str(test), n_samples, seed, alpha, correction)


def summary(frame: Any, ranks: tuple[SystemRank, ...], chosen: TestSettings) -> str:
    """One paragraph in plain words: the baseline, how many systems beat it or trail it, the top cluster."""
    counts = frame["verdict"].value_counts()
    better, worse = int(counts.get(verdict_views.BETTER, 0)), int(counts.get(verdict_views.WORSE, 0))
    same = int(counts.get(verdict_views.SAME, 0))
    top = [views.md_escape(r.system) for r in ranks if r.cluster == 1]
    clusters = max(r.cluster for r in ranks)
    pairs = len(ranks) * (len(ranks) - 1) // 2
    base_score = float(frame.loc[frame["system"] == chosen.baseline, "BLEU"].iloc[0])
    return (
        f"Against the baseline **{views.md_escape(chosen.baseline)}** (BLEU {base_score:.2f}): "
        f"**{better}** significantly better ▲, **{worse}** significantly worse ▼, **{same}** not significantly "
        f"different (p < {chosen.alpha}, {TESTS[chosen.test]}). "
        f"Over all {pairs} pairs with the {CORRECTION_LABELS[chosen.correction]} correction the systems fall "
        f"into **{clusters}** cluster{'s' if clusters != 1 else ''}; the top one: {', '.join(top)}."
    )


def show_table(frame: Any, signature: str, chosen: TestSettings) -> None:
    st.dataframe(
        verdict_views.display_frame(frame),
        hide_index=True,
        column_config={"BLEU": st.column_config.NumberColumn(format="%.2f")},
    )
    ci_note = (
        "95% CI: sacreBLEU's bootstrap mean ± half-width; 95% CI of Δ: the middle 95% of the paired resampled "
        "differences."
        if chosen.test == "bs"
        else "Approximate randomization gives no interval."
    )
    st.caption(
        f"Δ BLEU = system − {views.md_escape(chosen.baseline)}. p-values: {TESTS[chosen.test]} against "
        f"{views.md_escape(chosen.baseline)}, {chosen.n_samples:,} samples, seed {chosen.seed}, as sacreBLEU's "
        f"--paired-{chosen.test}; ▲/▼ * when p < {chosen.alpha} (this one comparison, uncorrected). The rank "
        f"uses every pair with the {CORRECTION_LABELS[chosen.correction]} correction. {ci_note}"
    )
    st.code(signature, language=None)


def show_downloads(frame: Any, report: str, signature: str, chosen: TestSettings) -> None:
    cols = st.columns(4)
    controls.download_button(cols[0], "Download report (HTML)", report, "bleu-compare.html", "text/html")
    controls.download_button(cols[1], "Download table (CSV)", views.frame_csv(frame), "bleu-compare.csv", "text/csv")
    controls.download_button(
        cols[2],
        "Download table (JSON)",
        compare_views.results_json(frame, signature, chosen.test, chosen.n_samples, chosen.seed),
        "bleu-compare.json",
        "application/json",
    )
    controls.download_button(
        cols[3],
        "Download table (LaTeX)",
        compare_views.results_latex(frame, signature),
        "bleu-compare.tex",
        "text/x-tex",
    )


def show_ranks(comparison: Comparison, ranks: tuple[SystemRank, ...], corrected: Any, chosen: TestSettings) -> None:
    st.subheader("Significance ranking", help=RANK_HELP)
    left, right = st.columns(2)
    left.dataframe(verdict_views.ranks_frame(ranks), hide_index=True)
    left.caption(RANK_HELP)
    charts.show(right, verdict_views.rank_chart, ranks, width="stretch")
    if len(ranks) > 2:
        charts.show(st, verdict_views.heatmap, comparison.p_values, corrected, ranks, chosen.alpha, width="content")
        pairs = len(ranks) * (len(ranks) - 1) // 2
        significant = sum(1 for (a, b), p in corrected.items() if a < b and p < chosen.alpha)
        more = (
            ""
            if comparison.n_samples == chosen.n_samples
            else f" The ranking draws {comparison.n_samples:,} samples instead of {chosen.n_samples:,}: with N "
            f"samples no p-value is below 1/(N+1), and the correction over {pairs} pairs needs p < α/{pairs} "
            f"= {chosen.alpha / pairs:.2g} for its first step."
        )
        st.caption(
            f"{significant} of {pairs} pairs are significantly different after the "
            f"{CORRECTION_LABELS[chosen.correction]} correction at α = {chosen.alpha}; without it about "
            f"{pairs * chosen.alpha:.1f} 'significant' pairs would be expected by chance alone if no system "
            f"differed.{more}"
        )


def compare(
    key: str,
    systems: dict[str, list[str]],
    references: list[list[str | None]],
    settings: BleuOptions,
    chosen: TestSettings,
    n_samples: int,
) -> Comparison:
    bar = st.progress(0.0, f"{TESTS[chosen.test]}: {n_samples:,} samples…")
    comparison = cached.comparison_cached(
        key,
        systems,
        references,
        settings,
        chosen.baseline,
        chosen.test,
        n_samples,
        chosen.seed,
        lambda done: bar.progress(min(max(float(done), 0.0), 1.0)),
    )
    bar.empty()
    return comparison


def render_verdict(
    key: str,
    systems: dict[str, list[str]],
    references: list[list[str | None]],
    settings: BleuOptions,
    analyses: Mapping[str, CorpusAnalysis],
) -> None:
    """Everything above the detail views: controls, summary, table, explanation, charts, ranking, report."""
    chosen = test_controls(analyses)
    comparison = compare(key, systems, references, settings, chosen, chosen.n_samples)
    rank_samples = ranking_samples(len(systems), chosen.n_samples, chosen.alpha, chosen.correction)
    ranked = (
        comparison
        if rank_samples == chosen.n_samples
        else compare(key, systems, references, settings, chosen, rank_samples)
    )
    ranks, corrected = rank_systems(ranked, chosen.alpha, chosen.correction)
    frame = verdict_views.results_frame(analyses, comparison, ranks, chosen.alpha)
    signature = analyses[chosen.baseline].result.signature
    st.markdown(summary(frame, ranks, chosen))
    main, side = st.columns([3, 1])
    with main:
        show_table(frame, signature, chosen)
    with side.expander("What these numbers mean", expanded=True):
        st.markdown(EXPLANATION)
    left, right = st.columns(2)
    charts.show(left, verdict_views.delta_chart, frame, chosen.baseline, width="stretch")
    charts.show(right, verdict_views.ci_chart, frame, comparison, width="stretch")
    show_ranks(ranked, ranks, corrected, chosen)
    report = compare_report.build_report(
        frame,
        ranks,
        comparison,
        signature=signature,
        settings={
            "test": TESTS[chosen.test],
            "samples": f"{chosen.n_samples:,} (ranking: {ranked.n_samples:,})",
            "seed": str(chosen.seed),
            "alpha": str(chosen.alpha),
            "correction": CORRECTION_LABELS[chosen.correction],
            "baseline": chosen.baseline,
        },
        created=datetime.now(UTC),
        explanation=EXPLANATION + "\n" + RANK_HELP,
    )
    show_downloads(frame, report, signature, chosen)
