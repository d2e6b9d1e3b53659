"""The Python snippets of the README and of docs/ run as written, and their printed comments say what they print."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


DOCS = sorted((README.parent / "docs").glob("*.md"))


def python_blocks() -> list[str]:
    return [
        block
        for page in (README, *DOCS)
        for block in re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    ]


def run_block(block: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, str(README), "exec"), {"__name__": "readme"})
    return out.getvalue()


def test_readme_snippets_run_as_written() -> None:
    """Every block runs (a block guarded by ``if __name__ == "__main__"`` only defines and imports here: the
    cluster example starts processes, and tests/core/test_dask.py covers what it does)."""
    blocks = python_blocks()
    assert len(blocks) >= 2, "the README shows the core's, the drop-in's and the Dask example's snippets"
    for block in blocks:
        printed = run_block(block)
        if "__main__" in block:  # the cluster example: nothing runs here
            continue
        assert "BLEU = 65.34 83.3/70.0/62.5/50.0 (BP = 1.000" in printed  # every block scores the same example
        if "explain" in block:
            assert "['5/6', '3/5'] only one reference: r = 6" in printed
        if "get_signature" in block:
            assert "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:" in printed
