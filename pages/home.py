"""Home: what BLEU is, and where each page helps."""

from __future__ import annotations

import streamlit as st

from bleu_core import sentence_bleu
from bleu_core.examples import DEFAULT_PRESET
from pages import ensure_app_navigation

ensure_app_navigation()

st.title("BLEU Explorer")
st.markdown(
    "BLEU scores a machine translation by the n-grams it shares with human references. For each order n, "
    "every candidate n-gram count is **clipped** to its largest count in any single reference; "
    "p_n = clipped / total. The **brevity penalty** BP = 1 if c > r, else exp(1 − r/c), where r is the "
    "reference length closest to the candidate length c (ties go to the shorter). "
    "BLEU = BP · exp(Σ w_n log p_n). Scores here equal sacreBLEU's."
)
st.latex(r"\mathrm{BLEU} = \mathrm{BP}\cdot\exp\Big(\sum_{n=1}^{N} w_n \log p_n\Big)")
result = sentence_bleu(DEFAULT_PRESET.candidate, list(DEFAULT_PRESET.references), **DEFAULT_PRESET.options())
st.markdown(
    f"Example: the candidate *{DEFAULT_PRESET.candidate}* against two references scores "
    f"**{result.score:.3f}** with 3-grams and no smoothing; the Explain page shows why."
)
st.page_link("pages/explain.py", label="Explain: one sentence, every step", icon=":material/search:")
st.page_link("pages/corpus.py", label="Corpus: why is my score low?", icon=":material/table_chart:")
st.page_link(
    "pages/compare.py", label="Compare: systems side by side, with significance tests", icon=":material/leaderboard:"
)
st.page_link("pages/implementations.py", label="Implementations: why tools disagree", icon=":material/compare_arrows:")
