"""The interface language: read from ``?lang=`` or the language switch, kept in the session and in every link."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from bleu_core.corpus.lint import LintFinding
from bleu_core.i18n import LANGUAGE_NAMES, LANGUAGES, Language, Message, language_or_default, text
from pages.shared.streamlit_private import widget_kinds

LANGUAGE = "ui_language"
SWITCH = "ui_language_switch"


def language() -> Language:
    """The session's language: the switch once used, else the link's ``lang``, else English."""
    ss = st.session_state
    if LANGUAGE not in ss:
        ss[LANGUAGE] = language_or_default(st.query_params.get("lang"))
    return language_or_default(ss[LANGUAGE])


def t(key: str, /, **params: Any) -> str:
    """The message ``key`` in the session's language."""
    return text(key, language(), **params)


def noun(stem: str, count: int) -> str:
    """The noun for ``count`` things: the catalog's ``{stem}_one`` for one, ``{stem}_many`` otherwise."""
    return t(f"{stem}_one" if count == 1 else f"{stem}_many")


def finding_message(finding: LintFinding) -> str:
    """A linter finding in the interface language."""
    return t(f"lint.{finding.key}", **dict(finding.params))


def number_columns(labels: Mapping[str, str], number_format: str = "%d") -> dict[str, Any]:
    """Column settings of number columns printed in ``number_format``: each column's name to its label's message key."""
    return {name: st.column_config.NumberColumn(t(key), format=number_format) for name, key in labels.items()}


def _on_switch() -> None:
    chosen = st.session_state[SWITCH]
    if chosen is not None and language_or_default(chosen) != st.session_state.get(LANGUAGE):
        # (clicking the chosen language again deselects it: the language stays)
        st.session_state[LANGUAGE] = language_or_default(chosen)
        carry_widget_values(st.session_state)


#: Widget value kinds that a script may set through session state (not buttons, not uploaders).
SETTABLE = frozenset(
    {
        "bool_value",
        "double_value",
        "int_value",
        "string_value",
        "double_array_value",
        "int_array_value",
        "string_array_value",
        "json_value",
    }
)


def carry_widget_values(session: Any) -> None:
    """Keep every widget's value through a change of language.

    A widget's identity includes its label and option labels, so in the new language each widget is a new
    one and would start from its default (a page showing uploaded files would fall back to its demo).  Values
    written to their keys before the widgets are drawn are taken by the new widgets.  Uploaders cannot be
    given files, so their keys are dropped: the pages then read the files from their session stores, as
    after a page change.  Buttons and selections in charts and tables are left alone.
    """
    for key, kind in widget_kinds().items():
        if key in (SWITCH, LANGUAGE) or key not in session:
            continue
        if kind == "file_uploader_state_value":
            del session[key]
        elif kind in SETTABLE and not isinstance(session[key], Mapping):
            # (a Mapping is a chart's or table's selection state, which a script may not set)
            session[key] = session[key]


def language_switch() -> None:
    """The language switch at the top of the sidebar; the choice also goes into the link (``lang=zh``)."""
    current = language()
    st.session_state[SWITCH] = current
    st.sidebar.segmented_control(
        "Language / 语言",
        list(LANGUAGES),
        format_func=LANGUAGE_NAMES.__getitem__,
        key=SWITCH,
        on_change=_on_switch,
        label_visibility="collapsed",
    )
    keep_in_link(current)


def keep_in_link(current: Language) -> None:
    """Every link carries a non-default language, so a page opened from it speaks the sender's language."""
    wanted = None if current == "en" else current
    if st.query_params.get("lang") != wanted:
        if wanted is None:
            del st.query_params["lang"]
        else:
            st.query_params["lang"] = wanted


def with_language(query: dict[str, Any]) -> dict[str, Any]:
    """A page's own query parameters plus the language, for pages that rewrite the whole query string."""
    current = language()
    return query if current == "en" else {**query, "lang": current}


def error_text(error: Exception) -> str:
    """An error's message in the session's language: a file problem with a catalog reason is translated, any
    other error keeps its own (English) text."""
    reason = getattr(error, "reason", None)
    name = getattr(error, "name", None)
    if not isinstance(reason, Message) or not isinstance(name, str):
        return str(error)
    line = getattr(error, "line", None)
    problem = reason.render(language())
    if line is None:
        return t("errors.file", name=name, problem=problem)
    return t("errors.file_line", name=name, line=line, problem=problem)
