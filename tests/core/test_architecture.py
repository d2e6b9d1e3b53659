"""The tree is the first diagram: every module is in docs/architecture.md, folders stay small, floors import down."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
#: The floors of bleu_core, lowest first: a module may import its own floor and the ones before it.
#: (top-level modules are the ground everyone reads; sacrebleu_api and nltk_api sit on top of it all.)
FLOORS = ["text", "tokenizers", "stats", "teach", "corpus", "compare", "tools", "gaps", "cli", "scale"]
#: Imports up a floor that are deliberate, each with its reason.
ALLOWED_UP = {
    ("cli", "scale"): "the command line's --dask runs on scale/cluster.py, imported only when asked for",
}
#: Top-level modules and the floors each may import: the ground (options, limits, i18n, version,
#: sorting) imports none; api is the public surface of stats/; the drop-ins and entry points sit on top of it all.
TOP_LEVEL = {
    "api": {"stats"},
    "sacrebleu_format": {"stats", "compare"},
    **{name: set(FLOORS) for name in ("sacrebleu_api", "sacrebleu_metrics", "nltk_api", "__init__", "__main__")},
}


def modules(package: str) -> list[Path]:
    return sorted(path for path in (ROOT / package).rglob("*.py") if ".venv" not in path.parts)


@pytest.mark.parametrize("package", ["bleu_core", "pages"])
def test_every_module_is_in_the_architecture_page(package: str) -> None:
    listed = set(re.findall(r"`([\w/]+\.py)`", DOC))
    missing = []
    for path in modules(package):
        inner = path.relative_to(ROOT / package).as_posix()
        if path.name == "__init__.py" and inner != "__init__.py" and package == "bleu_core":
            continue  # a subpackage's __init__ docstring is its own entry (checked below)
        if inner not in listed and path.relative_to(ROOT).as_posix() not in listed:
            missing.append(path.relative_to(ROOT).as_posix())
    missing = [m for m in missing if not (package == "pages" and m.endswith("__init__.py"))]
    assert missing == []


@pytest.mark.parametrize("package", ["bleu_core", "pages"])
def test_no_folder_holds_more_than_twelve_modules(package: str) -> None:
    folders = {path.parent for path in modules(package)}
    crowded = {f.relative_to(ROOT).as_posix(): n for f in folders if (n := len(list(f.glob("*.py")))) > 12}
    assert crowded == {}


def test_every_subpackage_says_what_it_owns_and_may_import() -> None:
    for init in sorted((ROOT / "bleu_core").glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        if init.parent.name in {"tokenizers", "tools"}:
            assert len(doc) > 200, init  # their docstrings list their modules
        else:
            assert "Owns" in doc and "May import" in doc, init


def _floor(path: Path) -> str | None:
    parts = path.relative_to(ROOT / "bleu_core").parts
    return parts[0] if len(parts) > 1 else None


def test_floors_import_only_downwards() -> None:
    up = []
    for path in modules("bleu_core"):
        here = _floor(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not (node.module or "").startswith("bleu_core"):
                continue
            parts = (node.module or "").split(".")
            target = parts[1] if len(parts) > 1 else None
            if target is None and node.names:  # from bleu_core import stats
                target = node.names[0].name
            if target not in FLOORS:
                if here is not None and target in {"sacrebleu_api", "nltk_api"}:
                    up.append(f"{path.relative_to(ROOT)} imports the drop-in {target}")
                continue
            if here is None:
                if target not in TOP_LEVEL.get(path.stem, set()):
                    up.append(f"{path.relative_to(ROOT)} (top level) imports {target}/")
                continue
            if FLOORS.index(target) > FLOORS.index(here) and (here, target) not in ALLOWED_UP:
                up.append(f"{path.relative_to(ROOT)} ({here}/) imports {target}/")
    assert sorted(set(up)) == []


def test_every_page_file_has_one_main() -> None:
    """Each page file defines ``main()`` and its last statement calls it (nothing else runs at import)."""
    for path in sorted((ROOT / "pages").glob("*.py")):
        if path.name == "__init__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        mains = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "main"]
        last = tree.body[-1]
        assert len(mains) == 1, path.name
        assert isinstance(last, ast.Expr) and isinstance(last.value, ast.Call), path.name
        assert getattr(last.value.func, "id", "") == "main", path.name
        calls = [n for n in tree.body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)]
        assert calls == [last], f"{path.name} runs more than main() at the top level"
