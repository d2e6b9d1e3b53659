"""AppTest: a page's work is bounded by what the limits allow (bleu_core/limits.py) and by what is on screen.

Compare: a menu choice that asked for gigabytes is refused with the numbers, before anything is drawn.
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from bleu_core.ranking import ranking_samples

PAGES = Path(__file__).resolve().parents[2] / "pages"


def fifty_systems() -> tuple[list[tuple[str, bytes, str]], list[tuple[str, bytes, str]]]:
    """50 systems of 20 segments each (every one a little different) and one reference file."""
    words = ["the", "cat", "sat", "on", "the", "mat", "while", "a", "dog", "ran", "in", "the", "park"]
    reference = [" ".join(words[(i + k) % len(words)] for k in range(10)) for i in range(20)]
    systems = []
    for s in range(50):
        lines = [" ".join(line.split()[: 10 - (s + i) % 4]) + f" w{s}" for i, line in enumerate(reference)]
        systems.append((f"system{s:02d}.txt", ("\n".join(lines) + "\n").encode(), "text/plain"))
    return systems, [("reference.txt", ("\n".join(reference) + "\n").encode(), "text/plain")]


def test_fifty_systems_at_alpha_0001_refuse_the_ranking_and_keep_the_table() -> None:
    """The ranking asked for 2,450,000 resamples (about 49 GB) whatever the widget's 100,000 limit."""
    assert ranking_samples(50, 1000, 0.001) == 2_450_000
    at = AppTest.from_file(str(PAGES / "compare.py"), default_timeout=120)
    at.session_state["cmp_alpha"] = 0.001
    at.run()
    at.radio(key="cmp_mode").set_value("upload").run()
    systems, reference = fifty_systems()
    at.file_uploader(key="cmp_systems").set_value(systems)
    at.file_uploader(key="cmp_references").set_value(reference)
    at.run()
    assert not at.exception
    refusal = " ".join(w.value for w in at.warning)
    assert "Not computed: 2,450,000 resamples of 20 segments and 50 systems" in refusal
    assert "rests on the table's 1,000 samples instead of the 2,450,000" in refusal
    table = next(d.value for d in at.dataframe if "p-value" in d.value.columns)
    assert len(table) == 50  # the table with the chosen 1,000 samples is still there


def test_a_table_past_the_limit_is_an_error_not_a_stall() -> None:
    at = AppTest.from_file(str(PAGES / "compare.py"), default_timeout=120).run()
    at.radio(key="cmp_mode").set_value("upload").run()
    systems, reference = fifty_systems()
    at.file_uploader(key="cmp_systems").set_value(systems)
    at.file_uploader(key="cmp_references").set_value(reference)
    at.session_state["cmp_samples_bs"] = 100_000  # the widget's own maximum: 5,000,000 scores
    at.run()
    assert not at.exception
    errors = " ".join(e.value for e in at.error)
    assert "Not computed: 100,000 resamples of 50 systems are 5,000,000 scores" in errors
    assert not [d for d in at.dataframe if "p-value" in d.value.columns]
