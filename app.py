"""BLEU Explorer: entry point. Pages are listed explicitly; each one also runs on its own."""

import streamlit as st

from pages.shared.i18n import language_switch, t

st.set_page_config(page_title="BLEU Explorer", page_icon="🔵", layout="wide")

#: Each page: its folder under pages/ (also its URL) and its menu icon; Explain opens first.
PAGES = {
    "explain": ":material/search:",
    "corpus": ":material/table_chart:",
    "compare": ":material/leaderboard:",
    "implementations": ":material/compare_arrows:",
    "home": ":material/menu_book:",
}
navigation = st.navigation(
    [
        st.Page(f"pages/{name}.py", url_path=name, title=t(f"nav.{name}"), icon=icon, default=name == "explain")
        for name, icon in PAGES.items()
    ]
)
language_switch()
navigation.run()
