"""The only place that reads Streamlit's internals: three things its public API does not offer (Streamlit 1.67).

Each function says what it needs and why; ``tests/pages/test_streamlit_private.py`` pins the installed Streamlit
to the version in ``requirements.txt`` and checks that every name used here still exists, so an upgrade fails a
test rather than a class.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

#: The Streamlit version these internals were read from (``requirements.txt`` pins the same).
STREAMLIT_VERSION = "1.67.0"


def ensure_app_navigation() -> None:
    """Make sure app.py's navigation is in charge before a page renders.

    Because the folder is named ``pages``, a fresh Streamlit server whose first visitor opens a page's own URL
    (say ``/corpus``) starts in its old multipage mode and runs ``pages/corpus.py`` directly.  Streamlit leaves
    that mode once ``st.navigation`` has run, so switch it off and rerun: the rerun goes through app.py and
    lands on the same page.
    """
    from streamlit.runtime.pages_manager import PagesManager

    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


def this_page() -> str:
    """The running page's script hash ("" outside a script run, as in AppTest's direct page runs)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return ctx.page_script_hash if ctx is not None else ""


def widget_kinds() -> dict[str, str]:
    """The value kind of every keyed widget of the last run (user key -> kind).

    Streamlit has no public way to ask what kind of widget owns a key; this reads its bookkeeping.
    """
    from streamlit.runtime.state.session_state_proxy import get_session_state

    state: Any = get_session_state()._state
    metadata = state._new_widget_state.widget_metadata
    return {
        key: meta.value_type
        for widget_id, key in state._key_id_mapper.id_key_mapping.items()
        if (meta := metadata.get(widget_id)) is not None
    }
