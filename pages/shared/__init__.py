"""What several pages use: cached core calls, charts, the settings panel, language, session state and links,
the copy-link control, table and text builders, the one-segment walkthrough, and the one adapter to
Streamlit's internals."""
