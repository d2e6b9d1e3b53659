"""Streamlit pages and their shared helpers (views: DataFrames and charts; cached: core calls; state: keys)."""

from __future__ import annotations


def ensure_app_navigation() -> None:
    """Make sure app.py's navigation is in charge before a page renders.

    Because this folder is named ``pages``, a fresh Streamlit server whose first visitor opens a
    page's own URL (say ``/corpus``) runs that file directly with an automatic list of every
    module here.  Streamlit leaves that mode once ``st.navigation`` has run, so switch it off and
    rerun: the rerun goes through app.py and lands on the same page.
    """
    import streamlit as st
    from streamlit.runtime.pages_manager import PagesManager

    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()
