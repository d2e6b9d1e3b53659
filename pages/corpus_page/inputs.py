"""The Corpus page's inputs: demo, uploaded files (kept in the session's shared store) or pasted text."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import streamlit as st

from bleu_core.i18n import text
from bleu_core.teach.examples import DEMO_REFERENCES, DEMO_SYSTEMS
from bleu_core.text.reader import InputFileError
from pages.shared import cached, views
from pages.shared import state as S
from pages.shared.i18n import error_text, language, t

DEMO, UPLOAD, PASTE = "demo", "upload", "paste"
MODES = (DEMO, UPLOAD, PASTE)
Named = tuple[str, list[str]]


@dataclass(frozen=True, slots=True)
class Inputs:
    """What the page scores: the hypothesis, its references and, when given, the source."""

    hypothesis: Named
    references: tuple[Named, ...]
    source: Named | None

    @property
    def names(self) -> tuple[str, ...]:
        return (self.hypothesis[0], *(name for name, _ in self.references))


def choices(prefix: str) -> Callable[[object], str]:
    """A ``format_func`` naming options from the catalog (``prefix`` + option id) in this run's language.

    The language is read now, not when the function is called: Streamlit's test runner calls it outside a run.
    """
    lang = language()
    return lambda option: text(f"{prefix}{option}", lang)


def _decode(uploaded: Any, where: Any) -> Named | None:
    try:
        return uploaded.name, cached.decode_cached(uploaded.getvalue(), uploaded.name)
    except InputFileError as error:
        where.error(views.md_escape(error_text(error)))
        return None


def kept_widget(key: str, default: Any) -> str:
    """The widget key ``key``, its value restored from the session store if a page change dropped it (call
    :func:`pages.shared.state.keep` after drawing the widget)."""
    S.restore(st.session_state, key, default)
    return key


def _uploads() -> Inputs | str:
    """Uploaders whose files go into the shared store; after a page change the store still holds them."""
    ss = st.session_state
    files = S.loaded_files(ss) or S.LoadedFiles()
    st.caption(t("corpus.upload_caption"))
    left, middle, right = st.columns(3)
    # A widget key present before drawing means the uploader was on screen in the last run; if it held files
    # then and holds none now, the user emptied it.  Otherwise the store's files are the ones to use.
    hyp_key, ref_key, src_key = (_uploader_key(base) for base in ("co_hyp_file", "co_ref_files", "co_src_file"))
    alive = {key: key in ss for key in (hyp_key, ref_key, src_key)}
    hyp_file = left.file_uploader(t("corpus.hypothesis"), key=hyp_key, help=t("corpus.hypothesis_help"))
    ref_files = middle.file_uploader(
        t("corpus.references"), accept_multiple_files=True, key=ref_key, help=t("corpus.references_help")
    )
    src_file = right.file_uploader(t("corpus.source"), key=src_key, help=t("corpus.source_help"))
    if hyp_file is not None:
        files = replace(files, hypothesis=_decode(hyp_file, left))
    elif S.uploader_emptied(ss, hyp_key, alive[hyp_key], False):
        files = replace(files, hypothesis=None)
    if ref_files:
        files = replace(files, references=tuple(n for f in ref_files if (n := _decode(f, middle)) is not None))
    elif S.uploader_emptied(ss, ref_key, alive[ref_key], False):
        files = replace(files, references=())
    if src_file is not None:
        files = replace(files, source=_decode(src_file, right))
    elif S.uploader_emptied(ss, src_key, alive[src_key], False):
        files = replace(files, source=None)
    for key, widget in ((hyp_key, hyp_file), (ref_key, ref_files), (src_key, src_file)):
        if widget:
            S.uploader_emptied(ss, key, alive[key], True)
    ss[S.FILES] = files
    kept = [named for named, widget in ((files.hypothesis, hyp_file), (files.source, src_file)) if named and not widget]
    if files.references and not ref_files:
        kept.extend(files.references)
    if kept:
        st.caption(t("corpus.kept_files", names=", ".join(views.md_escape(name) for name, _ in kept)))
        st.button(t("corpus.clear_files"), key="co_clear_files", on_click=_clear_files)
    # (a file that could not be read has its error above; asking for an upload again would contradict it)
    if files.hypothesis is None and hyp_file is None:
        left.info(t("corpus.need_hypothesis"))
    if not files.references and not ref_files:
        middle.info(t("corpus.need_references"))
    if files.hypothesis is None or not files.references:
        unreadable = (hyp_file is not None and files.hypothesis is None) or (bool(ref_files) and not files.references)
        return "corpus.need_readable" if unreadable else "corpus.need_inputs"
    return Inputs(files.hypothesis, files.references, files.source)


#: Bumped by "clear": the uploaders get new keys, since Streamlit cannot empty an uploader from the script.
_GENERATION = S.KEPT + "co_upload_generation"


def _uploader_key(base: str) -> str:
    generation = st.session_state.get(_GENERATION, 0)
    return base if not generation else f"{base}_{generation}"


def _clear_files() -> None:
    ss = st.session_state
    ss[S.FILES] = S.LoadedFiles()
    ss[_GENERATION] = ss.get(_GENERATION, 0) + 1


def _paste_lines(text: str, name: str, where: Any) -> Named | None:
    try:
        return name, cached.decode_cached(text.encode("utf-8", "surrogatepass"), name)
    except InputFileError as error:
        where.error(views.md_escape(error_text(error)))
        return None


def _pasted() -> Inputs | str:
    ss = st.session_state
    hyp_text = st.text_area(
        t("corpus.paste_hypothesis"),
        key=kept_widget("co_paste_hyp", "\n".join(DEMO_SYSTEMS["literal"])),
        height=150,
    )
    count = int(st.number_input(t("corpus.paste_count"), 1, 4, key=kept_widget("co_paste_n", 1)))
    references = []
    for k, column in enumerate(st.columns(count)):
        default = "\n".join(DEMO_REFERENCES[k]) if k < len(DEMO_REFERENCES) else ""
        text = column.text_area(
            t("corpus.paste_reference", k=k + 1), key=kept_widget(f"co_paste_ref{k}", default), height=150
        )
        named = _paste_lines(text, t("corpus.reference_name", k=k + 1), column)
        if named is not None:
            references.append(named)
    for key in ("co_paste_hyp", "co_paste_n", *(f"co_paste_ref{k}" for k in range(count))):
        S.keep(ss, key)
    hypothesis = _paste_lines(hyp_text, t("corpus.hypothesis_name"), st)
    if hypothesis is None or not references:
        return "corpus.need_inputs"
    return Inputs(hypothesis, tuple(references), None)


def read_inputs() -> Inputs | str:
    """The corpus from the chosen input mode; problems are shown where they arise.  Nothing to score: the message
    key that says what is missing."""
    ss = st.session_state
    mode = st.radio(
        t("corpus.input"),
        MODES,
        horizontal=True,
        format_func=choices("corpus.mode_"),
        key=kept_widget("co_mode", DEMO),
    )
    S.keep(ss, "co_mode")
    if mode == DEMO:
        name = st.selectbox(t("corpus.demo_system"), list(DEMO_SYSTEMS), key=kept_widget("co_demo", "literal"))
        S.keep(ss, "co_demo")
        return Inputs(
            (f"{name}.txt", list(DEMO_SYSTEMS[name])),
            tuple((f"reference-{k + 1}.txt", list(stream)) for k, stream in enumerate(DEMO_REFERENCES)),
            None,
        )
    if mode == UPLOAD:
        return _uploads()
    return _pasted()
