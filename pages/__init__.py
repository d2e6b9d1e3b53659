"""The Streamlit pages: one file per page at this level (``explain.py``, ``corpus.py``, ``compare.py``,
``implementations.py``, ``about.py``: each an ``st.Page`` of app.py, and its URL), a ``<page>_page/`` folder with
each page's own parts, and ``shared/`` for what several pages use.

The page files stay at this level on purpose: Streamlit starts a fresh server in its older multipage mode,
which looks for ``pages/<url>.py`` when the first visitor opens a page's own URL; the page then hands over to
app.py's navigation (``shared/streamlit_private.ensure_app_navigation``)."""
