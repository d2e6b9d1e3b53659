"""Tables and charts of the Corpus page's analyses: word accuracy, produced n-grams and their segments,
the relative diagnosis, what-if (no Streamlit calls; frames hold no nulls: a missing number is "—")."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import altair as alt
import pandas as pd

from bleu_core.corpus.produced_ngrams import NgramStat
from bleu_core.corpus.relative import TermComparison
from bleu_core.corpus.spelling_twins import Twin
from bleu_core.corpus.what_if import WhatIf
from bleu_core.corpus.word_accuracy import WordBucket
from bleu_core.stats.corpus_ngrams import NgramOccurrence, TokenizedCorpus
from pages.corpus_page.views import MISSING, fixed
from pages.shared.views import chart_title

Label = Callable[[WordBucket], str]
#: Brackets around the chosen n-gram in the segments that hold it.
OPEN, CLOSE = "⟦", "⟧"


def frequency_label(bucket: WordBucket) -> str:
    """0, 1, ..., 5-9, 10-99, 1000+."""
    low = int(bucket.low)
    if bucket.high is None:
        return f"{low}+"
    high = int(bucket.high) - 1
    return str(low) if high == low else f"{low}–{high}"


def range_label(bucket: WordBucket) -> str:
    """[low, high) on a continuous scale (sentence BLEU), the last bucket closed."""
    if bucket.high is None:
        return f"≥ {bucket.low:g}"
    return f"{bucket.low:g}–{bucket.high:g}"


def word_frame(buckets: Sequence[WordBucket], label: Label) -> pd.DataFrame:
    """One row per bucket: counts, then precision, recall and F with four decimals ("—" where undefined)."""
    return pd.DataFrame(
        {
            "bucket": [label(b) for b in buckets],
            "count": [b.segments for b in buckets],
            "hypothesis words": [b.hypothesis for b in buckets],
            "reference words": [b.reference for b in buckets],
            "matched": [b.matched for b in buckets],
            "precision": [fixed(b.precision, 4) for b in buckets],
            "recall": [fixed(b.recall, 4) for b in buckets],
            "F-measure": [fixed(b.f_measure, 4) for b in buckets],
        }
    )


def word_chart(buckets: Sequence[WordBucket], label: Label, axis: str, title: str) -> alt.Chart:
    """F-measure per bucket (buckets without one are left out of the chart, kept in the table)."""
    data = pd.DataFrame(
        {
            "bucket": [label(b) for b in buckets],
            "F": [b.f_measure for b in buckets],
            "order": range(len(buckets)),
        }
    ).dropna()
    return (
        alt.Chart(data)
        .mark_bar(color="#3b6ea8")
        .encode(
            x=alt.X(
                "bucket:N", sort=alt.SortField("order"), title=axis, axis=alt.Axis(labelAngle=0, labelOverlap=False)
            ),
            y=alt.Y("F:Q", title="F", scale=alt.Scale(domain=[0, 1])),
            tooltip=["bucket", alt.Tooltip("F:Q", format=".4f")],
        )
        .properties(height=240, title=chart_title(title))
    )


def produced_frame(stats: Sequence[NgramStat], under: bool) -> pd.DataFrame:
    """The shown n-grams: missed (or over-produced) occurrences, the totals, the segments and the salience."""
    return pd.DataFrame(
        {
            "n-gram": [" ".join(s.ngram) for s in stats],
            "n": [s.order for s in stats],
            "count": [s.missed if under else s.over for s in stats],
            "reference": [s.reference for s in stats],
            "hypothesis": [s.hypothesis for s in stats],
            "matched": [s.clipped for s in stats],
            "segments": [s.segments_missed if under else s.segments_over for s in stats],
            "salience": [round(s.salience(under), 4) for s in stats],
        }
    )


def twins_frame(twins: Sequence[Twin], kind_label: Callable[[str], str]) -> pd.DataFrame:
    """One row per word written two ways: both forms, the characters that differ (with their code points),
    the kind of difference and at most how many unigram matches it costs."""

    def characters(twin: Twin) -> str:
        pairs = twin.characters
        if not pairs:
            return MISSING
        return ", ".join(f"{r} U+{ord(r):04X} → {h} U+{ord(h):04X}" for r, h in pairs)

    return pd.DataFrame(
        {
            "reference": [twin.reference for twin in twins],
            "hypothesis": [twin.hypothesis for twin in twins],
            "characters": [characters(twin) for twin in twins],
            "kind": [kind_label(twin.kind) for twin in twins],
            "lost": [twin.lost for twin in twins],
        }
    )


def mark(tokens: Sequence[str], starts: Sequence[int], n: int) -> str:
    """Tokens joined by spaces with each occurrence of the n-gram in brackets (overlaps merged)."""
    inside = [False] * len(tokens)
    for start in starts:
        for i in range(start, min(start + n, len(tokens))):
            inside[i] = True
    words = []
    for i, token in enumerate(tokens):
        opening = OPEN if inside[i] and (i == 0 or not inside[i - 1]) else ""
        closing = CLOSE if inside[i] and (i + 1 == len(tokens) or not inside[i + 1]) else ""
        words.append(f"{opening}{token}{closing}")
    return " ".join(words)


def occurrence_frame(corpus: TokenizedCorpus, occurrences: Sequence[NgramOccurrence], n: int) -> pd.DataFrame:
    """The segments holding an n-gram: counts on each side, and the tokens with the n-gram in ⟦brackets⟧."""
    frame = pd.DataFrame(
        {
            "segment": [o.segment + 1 for o in occurrences],
            "hypothesis count": [o.hypothesis_count for o in occurrences],
            "reference count": [o.reference_count for o in occurrences],
            "matched": [o.clipped for o in occurrences],
            "hypothesis": [mark(corpus.hypotheses[o.segment], o.hypothesis_starts, n) for o in occurrences],
        }
    )
    n_refs = max((len(o.reference_starts) for o in occurrences), default=0)
    for k in range(n_refs):
        column = []
        for o in occurrences:
            tokens = corpus.references[o.segment][k]
            starts = o.reference_starts[k]
            column.append(MISSING if tokens is None or starts is None else mark(tokens, starts, n))
        frame[f"reference {k + 1}"] = column
    return frame


def comparison_frame(comparisons: Sequence[TermComparison]) -> pd.DataFrame:
    """This system's p_n, BP and c/r beside the other systems' median and range, and BLEU at their median."""

    def number(term: str, value: float | None) -> str:
        return fixed(value, 3 if term == "c/r" else 4)

    return pd.DataFrame(
        {
            "term": [c.term for c in comparisons],
            "this system": [number(c.term, c.value) for c in comparisons],
            "others' median": [number(c.term, c.median) for c in comparisons],
            "others' range": [
                f"{number(c.term, c.low)} – {number(c.term, c.high)}" if c.low is not None else MISSING
                for c in comparisons
            ],
            "rank": [f"{c.rank} / {c.systems}" if c.rank is not None else MISSING for c in comparisons],
            "BLEU at their median": [
                fixed(100 * c.bleu_if_median, 2) if c.bleu_if_median is not None else MISSING for c in comparisons
            ],
            "BLEU if perfect": [
                fixed(100 * c.bleu_if_perfect, 2) if c.bleu_if_perfect is not None else MISSING for c in comparisons
            ],
        }
    )


def what_if_frame(change: WhatIf) -> pd.DataFrame:
    """Corpus BLEU, p_n, BP and lengths before and after the edit."""
    before, after = change.before, change.after
    terms = [f"p{n + 1}" for n in range(len(before.precisions))]
    return pd.DataFrame(
        {
            "quantity": ["BLEU", *terms, "BP", "c", "r"],
            "file": [
                fixed(before.score_100, 2),
                *(fixed(p, 4) for p in before.precisions),
                fixed(before.bp, 4),
                str(before.sys_len),
                str(before.ref_len),
            ],
            "edited": [
                fixed(after.score_100, 2),
                *(fixed(p, 4) for p in after.precisions),
                fixed(after.bp, 4),
                str(after.sys_len),
                str(after.ref_len),
            ],
        }
    )
