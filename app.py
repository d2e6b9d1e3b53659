"""BLEU Explorer: entry point. Pages are listed explicitly; each one also runs on its own."""

import streamlit as st

from pages.shared.i18n import language_switch, t
from pages.shared.share import query

st.set_page_config(page_title="BLEU Explorer", page_icon="🔵", layout="wide")

#: Each page: its file under pages/ (its name is also its URL) and its menu icon.
PAGES = {
    "explain": ":material/search:",
    "corpus": ":material/table_chart:",
    "compare": ":material/leaderboard:",
    "implementations": ":material/compare_arrows:",
    "about": ":material/menu_book:",
}
EXPLAIN = "pages/explain.py"


def open_explain() -> None:
    """The bare address opens Explain at its own URL (``/explain``), keeping a shared link's query.

    Streamlit serves its default page at ``/`` only, so a hand-typed ``/explain`` would find no page; a hidden
    default that hands over to Explain gives every page one address.
    """
    st.switch_page(EXPLAIN, query_params=query())


navigation = st.navigation(
    [st.Page(open_explain, url_path="start", title=t("nav.explain"), default=True, visibility="hidden")]
    + [st.Page(f"pages/{name}.py", url_path=name, title=t(f"nav.{name}"), icon=icon) for name, icon in PAGES.items()]
)
language_switch()
navigation.run()
