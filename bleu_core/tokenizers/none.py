"""sacreBLEU's ``none``: the line as it is, so the tokens are what str.split() gives (after BLEU's rstrip)."""

from __future__ import annotations

from collections.abc import Sequence

from .joined import Joined, join


def join_none(lines: Sequence[str]) -> Joined:
    return join(lines, as_bytes=True)
