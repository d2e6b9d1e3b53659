"""Streamlit pages and their shared helpers (views: DataFrames and charts; cached: core calls; state: keys)."""
