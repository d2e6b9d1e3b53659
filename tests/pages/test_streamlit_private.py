"""Streamlit's internals are read in one module only (pages/shared/streamlit_private.py), pinned to one version."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import streamlit

from pages.shared import streamlit_private

ROOT = Path(__file__).resolve().parents[2]
ADAPTER = ROOT / "pages" / "shared" / "streamlit_private.py"
#: The Streamlit modules and names the adapter reads (kept in step with it by the test below).
USED = {
    "streamlit.runtime.pages_manager": ("PagesManager",),
    "streamlit.runtime.scriptrunner": ("get_script_run_ctx",),
    "streamlit.runtime.state.session_state_proxy": ("get_session_state",),
}


def test_the_pinned_version_is_the_installed_one() -> None:
    pinned = re.search(r"^streamlit==(\S+)$", (ROOT / "requirements.txt").read_text(), re.M)
    assert pinned is not None
    assert streamlit.__version__ == pinned[1] == streamlit_private.STREAMLIT_VERSION


def test_every_internal_name_the_adapter_reads_exists() -> None:
    for module, names in USED.items():
        loaded = importlib.import_module(module)
        for name in names:
            assert hasattr(loaded, name), f"{module}.{name}"
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.runtime.state.session_state import SessionState

    assert hasattr(PagesManager, "uses_pages_directory")
    state = SessionState()
    assert hasattr(state, "_new_widget_state") and hasattr(state, "_key_id_mapper")
    assert hasattr(state._new_widget_state, "widget_metadata") and hasattr(state._key_id_mapper, "id_key_mapping")


def test_the_adapter_imports_exactly_what_the_test_checks() -> None:
    tree = ast.parse(ADAPTER.read_text(encoding="utf-8"))
    imported = {
        node.module: tuple(alias.name for alias in node.names)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("streamlit.")
    }
    assert imported == USED


def test_no_other_module_reads_streamlit_internals() -> None:
    """Outside the adapter: only ``import streamlit as st`` and the public exceptions of ``streamlit.errors``."""
    offenders = []
    for path in [ROOT / "app.py", *sorted((ROOT / "pages").rglob("*.py"))]:
        if path == ADAPTER:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("streamlit."):
                if node.module == "streamlit.errors":
                    continue
                offenders.append(f"{path.relative_to(ROOT)}: from {node.module} import ...")
            elif isinstance(node, ast.Import):
                offenders += [
                    f"{path.relative_to(ROOT)}: import {a.name}"
                    for a in node.names
                    if a.name != "streamlit" and a.name.startswith("streamlit")
                ]
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.attr.startswith("_"):
                offenders += [f"{path.relative_to(ROOT)}: st.{node.attr}"] if node.value.id == "st" else []
    assert offenders == []


def test_no_private_name_is_imported_across_modules() -> None:
    found = []
    for path in [*sorted((ROOT / "bleu_core").rglob("*.py")), *sorted((ROOT / "pages").rglob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                found += [
                    f"{path.relative_to(ROOT)}: {node.module}.{a.name}"
                    for a in node.names
                    if a.name.startswith("_") and not a.name.startswith("__")
                ]
    assert found == []
