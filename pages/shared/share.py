"""The copy-link control: a "Copy link" popover holding the page's address (``st.code`` has a copy button).

The address is the page's URL in the browser (``st.context.url``, without its query) plus the query parameters
the page has written, so it must be drawn after the page has brought its link up to date.  A page reserves the
place early (:func:`place`, the top of the sidebar) and fills it at the end (:meth:`LinkSlot.fill`).
"""

from __future__ import annotations

import urllib.parse
from typing import Any

import streamlit as st

from pages.shared.i18n import t


def query() -> dict[str, list[str]]:
    """The page's query parameters as they are now, every value as a list."""
    return {key: st.query_params.get_all(key) for key in st.query_params}


def page_url() -> str:
    """The page's address without its query ('' where the browser has not said it, as in AppTest)."""
    try:
        url = st.context.url or ""
    except (AttributeError, RuntimeError):  # no browser context
        return ""
    return url + "/" if url and not urllib.parse.urlsplit(url).path else url  # the root page: host and a slash


def link(params: dict[str, list[str]] | None = None) -> str:
    """The shareable address: the page's URL and its query (``?…`` alone when the URL is not known)."""
    params = query() if params is None else params
    encoded = urllib.parse.urlencode(params, doseq=True, quote_via=urllib.parse.quote)
    return page_url() + (f"?{encoded}" if encoded else "")


class LinkSlot:
    """A reserved place for the control, filled once the page's link is final."""

    def __init__(self, where: Any, note: str | None) -> None:
        self.slot = where.empty()
        self.note = note

    def fill(self) -> None:
        with self.slot.container(), st.popover(t("share.button"), icon=":material/link:", width="stretch"):
            st.caption(t("share.caption"))
            st.code(link(), language=None, wrap_lines=True)
            if self.note:
                st.caption(t(self.note))


def place(page: str, where: Any = None) -> LinkSlot:
    """Reserve the control's place (default: here in the sidebar); ``page`` names the note that says what the link
    holds (``share.{page}``: what a page writes to its query, and what it leaves out)."""
    return LinkSlot(st.sidebar if where is None else where, f"share.{page}")
