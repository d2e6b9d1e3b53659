"""Compare's scores-by-label builders: the table's rows and marks, and a heatmap bounded to the largest labels."""

from __future__ import annotations

import pandas as pd

from bleu_core.compare.slices import LabelScores, LabelTest, SliceScores
from pages.compare_page import label_views

SYSTEMS = tuple(f"system-{k}" for k in range(10))


def scores(n_labels: int) -> SliceScores:
    """Labels whose sizes are not in file order (label i has (7 * i) % n_labels + 1 segments)."""
    labels = tuple(
        LabelScores(
            f"label {i}" if i else "",
            (7 * i) % n_labels + 1,
            tuple(50.0 + k - (i % 3) * k for k in range(len(SYSTEMS))),
            (),
        )
        for i in range(n_labels)
    )
    whole = LabelScores("", sum(label.segments for label in labels), (50.0,) * len(SYSTEMS), ())
    return SliceScores(SYSTEMS, whole, labels)


def label_tests(sliced: SliceScores) -> tuple[LabelTest, ...]:
    return tuple(
        LabelTest(label.label, system, 0.001 * k, 0.01 * k)
        for label in sliced.labels
        for k, system in enumerate(SYSTEMS[1:], start=1)
    )


def test_rows_marks_and_no_label() -> None:
    sliced = scores(4)
    frame = label_views.label_frame(sliced, label_tests(sliced), 0.05)
    assert len(frame) == 4 * 10
    assert frame["label"].iloc[0] == "(no label)"
    base = frame[frame["system"] == SYSTEMS[0]]
    assert base["Δ BLEU"].isna().all() and (base["mark"] == "baseline").all()
    row = frame[(frame["label"] == "label 1") & (frame["system"] == "system-2")].iloc[0]
    assert row["Δ BLEU"] == sliced.labels[1].bleu[2] - sliced.labels[1].bleu[0] == 0.0
    assert row["mark"] == "≈"  # 0.02 < 0.05 but no difference: neither better nor worse
    row = frame[(frame["label"] == "label 2") & (frame["system"] == "system-3")].iloc[0]
    assert row["Δ BLEU"] < 0 and row["corrected"] == 0.03 and row["mark"] == "▼"
    row = frame[(frame["label"] == "(no label)") & (frame["system"] == "system-4")].iloc[0]
    assert row["Δ BLEU"] > 0 and row["mark"] == "▲"
    row = frame[(frame["label"] == "label 1") & (frame["system"] == "system-9")].iloc[0]
    assert row["corrected"] == 0.09 and row["mark"] == "≈"
    refused = label_views.label_frame(sliced, None, 0.05)
    assert refused["p-value"].isna().all() and set(refused["mark"]) == {"baseline", ""}


def test_the_heatmap_draws_the_30_largest_labels_of_40_and_stars_significant_cells() -> None:
    sliced = scores(40)
    frame = label_views.label_frame(sliced, label_tests(sliced), 0.05)
    spec = label_views.label_chart(sliced, frame, 0.05).to_dict()
    data = pd.DataFrame(next(iter(spec["datasets"].values())))
    largest = sorted(sliced.labels, key=lambda label: -label.segments)[:30]
    expected = [label.label or "(no label)" for label in largest]
    assert set(data["label"]) == set(expected) and len(set(data["label"])) == 30
    assert spec["layer"][0]["encoding"]["y"]["sort"] == expected
    assert set(data["system"]) == set(SYSTEMS[1:])  # the baseline is no column
    assert ((data["star"] == "*") == (data["corrected"] < 0.05)).all()
    # each cell writes its difference, starred when significant, in white on the darkest cells
    stars = ["*" if c < 0.05 else "" for c in data["corrected"]]
    assert data["cell"].tolist() == [f"{d:+.2f}{star}" for d, star in zip(data["Δ BLEU"], stars, strict=True)]
    extent = max(1.0, data["Δ BLEU"].abs().max())
    assert data["ink"].tolist() == ["white" if abs(d) > 0.6 * extent else "black" for d in data["Δ BLEU"]]
    assert spec["height"] == {"step": label_views.ROW_PIXELS} and spec["width"] == {"step": label_views.COLUMN_PIXELS}
