"""The README's Python snippets run as written, and its printed comments say what they print."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.DOTALL)


def test_readme_snippets_run_as_written() -> None:
    blocks = python_blocks()
    assert blocks, "the README shows no Python snippet"
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, str(README), "exec"), {"__name__": "readme"})
        printed = out.getvalue()
        assert "BLEU = 65.34 83.3/70.0/62.5/50.0 (BP = 1.000" in printed  # every block scores the same example
        if "explain" in block:
            assert "['5/6', '3/5']" in printed
        if "get_signature" in block:
            assert "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:" in printed
