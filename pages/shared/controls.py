"""Widgets the pages share: the BLEU settings sidebar of the corpus-level pages (one panel, the same settings on
every page) and the download buttons."""

from __future__ import annotations

from typing import Any

import streamlit as st

from bleu_core.i18n import text
from bleu_core.options import BleuOptions, make_options
from pages.shared import state as S
from pages.shared.i18n import language, t
from pages.shared.streamlit_private import this_page


def download_button(where: Any, label: str, data: Any, file_name: str, mime: str | None = None) -> None:
    """A download button that does not rerun the page.

    A rerun first drops the session's references to its downloadable files, and another session's finished run
    deletes files nobody references: with several users at once, the browser could fetch a file already gone.
    """
    where.download_button(label, data, file_name, mime, on_click="ignore")


def tokenizer_label(name: str) -> str:
    """The tokenizer's name in the interface language."""
    return t(f"settings.tok_{name}")


def smooth_label(name: str) -> str:
    """The smoothing method's name in the interface language."""
    return t(f"settings.smooth_{name.replace('-', '_')}")


#: Defaults of the shared settings panel: sacreBLEU's corpus defaults.
SETTING_DEFAULTS: dict[str, Any] = {
    "tokenize": "13a",
    "lowercase": False,
    "smooth": "exp",
    "smooth_value_floor": 0.1,
    "smooth_value_add-k": 1.0,
    "max_n": 4,
    **{f"w{n}": 1.0 for n in range(1, S.MAX_ORDER_LIMIT + 1)},
}


def _bound(prefix: str) -> Any:
    """A ``format_func`` for catalog names in this run's language (Streamlit's test runner calls it outside a run)."""
    lang = language()
    return lambda option: text(f"{prefix}{str(option).replace('-', '_')}", lang)


def _set_uniform() -> None:
    for n in range(1, S.MAX_ORDER_LIMIT + 1):
        st.session_state[S.settings_key(f"w{n}")] = 1.0


#: Where the kept settings say which page drew the panel last.
_PANEL_PAGE = S.KEPT + "settings_page"


def _widget(name: str) -> str:
    """The widget key of a setting, with its kept value restored if a page change dropped it or another page drew
    the panel last."""
    key = S.settings_key(name)
    S.restore(st.session_state, key, SETTING_DEFAULTS[name], force=st.session_state.get(_PANEL_PAGE) != this_page())
    return key


def _keep_all() -> None:
    for name in SETTING_DEFAULTS:
        S.keep(st.session_state, S.settings_key(name))
    st.session_state[_PANEL_PAGE] = this_page()


def bleu_settings() -> BleuOptions | None:
    """Tokenizer, case, smoothing, max n and weights in the sidebar, as one BleuOptions; None while every weight is 0.

    One panel for the whole session: every page that draws it shows and changes the same settings (kept across
    page changes, :func:`pages.shared.state.restore`).
    Defaults are sacreBLEU's corpus defaults (13a, mixed case, exp smoothing, 4-grams, equal weights).
    """
    ss = st.session_state
    with st.sidebar:
        st.header(t("settings.header"))
        st.selectbox(
            t("settings.tokenizer"),
            list(S.TOKENIZER_LABELS),
            format_func=_bound("settings.tok_"),
            key=_widget("tokenize"),
            help=t("settings.tokenizer_help"),
        )
        st.checkbox(t("settings.lowercase"), key=_widget("lowercase"))
        smooth = st.selectbox(
            t("settings.smoothing"),
            list(S.SMOOTH_LABELS),
            format_func=_bound("settings.smooth_"),
            key=_widget("smooth"),
        )
        smooth_value = None
        if smooth in ("floor", "add-k"):
            smooth_value = st.number_input(
                t("settings.smoothing_value"),
                0.0,
                1.0 if smooth == "floor" else 100.0,
                step=0.05,
                key=_widget(f"smooth_value_{smooth}"),
            )
        max_n = st.slider(t("settings.max_n"), 1, S.MAX_ORDER_LIMIT, key=_widget("max_n"))
        st.markdown(t("settings.weights"))
        raw = [
            st.slider(t("settings.weight", n=n), 0.0, 1.0, step=0.05, key=_widget(f"w{n}")) for n in range(1, max_n + 1)
        ]
        st.button(t("settings.equal_weights"), on_click=_set_uniform, key=S.settings_key("uniform"))
        _keep_all()
        total = sum(raw)
        if total <= 0:
            st.error(t("settings.all_zero"))
            return None
        uniform = len(set(raw)) == 1
        if not uniform:
            st.caption(
                t("settings.normalized", weights=", ".join(f"w{n} = {w / total:.3f}" for n, w in enumerate(raw, 1)))
            )
    # Equal weights are left implicit so that the score is bit-identical to sacreBLEU's mean of logs.
    return make_options(
        max_order=max_n,
        weights=None if uniform else [w / total for w in raw],
        tokenize=ss[S.settings_key("tokenize")],
        lowercase=ss[S.settings_key("lowercase")],
        smooth=smooth,
        smooth_value=smooth_value,
    )
