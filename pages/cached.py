"""The pages' only way into bleu_core: cached wrappers whose arguments are plain values."""

from __future__ import annotations

from typing import Any

import streamlit as st

from bleu_core import reader
from bleu_core.explain import Explanation, explain

Settings = tuple[tuple[str, Any], ...]


def settings_key(options: dict[str, Any]) -> Settings:
    """Options as a hashable, order-independent tuple (tuples for sequences)."""
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in options.items()))


@st.cache_data(max_entries=512, show_spinner=False)
def explain_cached(candidate: str, references: tuple[str, ...], settings: Settings) -> Explanation:
    return explain(candidate, list(references), **dict(settings))


@st.cache_data(max_entries=64, show_spinner=False)
def decode_cached(data: bytes, name: str) -> list[str]:
    """Lines of an uploaded file; raises bleu_core.reader.InputFileError with a message for people."""
    return reader.decode_lines(data, name)
