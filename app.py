"""BLEU Explorer: entry point. Pages are listed explicitly; each one also runs on its own."""

import streamlit as st

from pages.i18n import language_switch, t

st.set_page_config(page_title="BLEU Explorer", page_icon="🔵", layout="wide")

navigation = st.navigation(
    [
        st.Page("pages/explain.py", title=t("nav.explain"), icon=":material/search:", default=True),
        st.Page("pages/corpus.py", title=t("nav.corpus"), icon=":material/table_chart:"),
        st.Page("pages/compare.py", title=t("nav.compare"), icon=":material/leaderboard:"),
        st.Page("pages/implementations.py", title=t("nav.implementations"), icon=":material/compare_arrows:"),
        st.Page("pages/home.py", title=t("nav.home"), icon=":material/menu_book:"),
    ]
)
language_switch()
navigation.run()
