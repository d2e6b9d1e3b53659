"""The Streamlit pages: one folder per page (``page.py`` with its ``main()``, and the page's own views), and
``shared/`` for what several pages use (core calls cached, charts, controls, language, state, links, views)."""
