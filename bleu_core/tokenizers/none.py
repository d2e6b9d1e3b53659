"""sacreBLEU's ``none`` as a joined stream, for :func:`.corpus.encode_together` (ids from byte spans).

``none`` leaves the line as it is, so its tokens are what str.split() gives; for tokens as strings or
vocabulary ids, splitting each line (sacreBLEU's own way) is faster than joining them.
"""

from __future__ import annotations

from collections.abc import Sequence

from bleu_core.tokenizers.joined import Joined, join


def join_none(lines: Sequence[str], as_bytes: bool = True) -> Joined:
    return join(lines, as_bytes)
