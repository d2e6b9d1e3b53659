"""Home: what BLEU is, and where each page helps."""

from __future__ import annotations

import streamlit as st

from bleu_core import sentence_bleu
from bleu_core.sacrebleu_api import sentence_bleu as sacrebleu_sentence_bleu
from bleu_core.sacrebleu_api import sentence_chrf
from bleu_core.teach.examples import DEFAULT_PRESET
from pages.shared.i18n import t
from pages.shared.streamlit_private import ensure_app_navigation


def main() -> None:
    """The page: the formula, the example's score and a link into every page and mode."""
    ensure_app_navigation()

    st.title(t("app.title"))
    st.markdown(t("home.intro"))
    st.latex(r"\mathrm{BLEU} = \mathrm{BP}\cdot\exp\Big(\sum_{n=1}^{N} w_n \log p_n\Big)")
    result = sentence_bleu(DEFAULT_PRESET.candidate, list(DEFAULT_PRESET.references), **DEFAULT_PRESET.options())
    st.markdown(t("home.example", candidate=DEFAULT_PRESET.candidate, score=f"{result.score:.3f}"))
    st.page_link("pages/explain.py", label=t("home.link_explain"), icon=":material/search:")
    st.page_link(
        "pages/explain.py", label=t("home.link_present"), icon=":material/slideshow:", query_params={"present": "1"}
    )
    st.page_link(
        "pages/explain.py", label=t("home.link_exercise"), icon=":material/edit_note:", query_params={"exercise": "1"}
    )
    st.page_link("pages/corpus.py", label=t("home.link_corpus"), icon=":material/table_chart:")
    st.page_link("pages/compare.py", label=t("home.link_compare"), icon=":material/leaderboard:")
    st.page_link("pages/implementations.py", label=t("home.link_implementations"), icon=":material/compare_arrows:")
    st.subheader(t("home.metrics_title"))
    references = list(DEFAULT_PRESET.references)
    default_bleu = sacrebleu_sentence_bleu(DEFAULT_PRESET.candidate, references)  # what sacreBLEU prints
    chrf = sentence_chrf(DEFAULT_PRESET.candidate, references)
    scores = {"bleu": f"{default_bleu.score:.2f}", "bleu3": f"{100 * result.score:.2f}", "chrf": f"{chrf.score:.2f}"}
    st.markdown(t("home.metrics_text", **scores))
    rows = ("unit", "credit", "blind", "report")
    st.table(
        {
            t("home.metrics_column_metric"): [t(f"home.metrics_row_{row}") for row in rows],
            "BLEU": [t(f"home.metrics_bleu_{row}") for row in rows],
            "chrF2": [t(f"home.metrics_chrf_{row}") for row in rows],
        }
    )


main()
