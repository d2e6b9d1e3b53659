"""BLEU Explorer: entry point. Pages are listed explicitly; each one also runs on its own."""

import streamlit as st

st.set_page_config(page_title="BLEU Explorer", page_icon="🔵", layout="wide")

navigation = st.navigation(
    [
        st.Page("pages/explain.py", title="Explain", icon=":material/search:", default=True),
        st.Page("pages/corpus.py", title="Corpus", icon=":material/table_chart:"),
        st.Page("pages/compare.py", title="Compare", icon=":material/leaderboard:"),
        st.Page("pages/implementations.py", title="Implementations", icon=":material/compare_arrows:"),
        st.Page("pages/home.py", title="About BLEU", icon=":material/menu_book:"),
    ]
)
navigation.run()
