"""The limits policy: how much work and memory one request may ask for, written once.

Every entry point (pages, command line, API helpers that render or resample) reads its bounds from here and,
when an input goes past one, says what was cut and why instead of doing unbounded work. The README's
"Limits" section lists these numbers with their reasons; a test keeps the two in step.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    """The bounds of one request. Values are counts of tokens, references, characters or bytes."""

    #: Tokens per sentence the Explain walkthrough renders in full (tables, highlights, presentation steps).
    #: Beyond it the score and per-order totals are still exact (vectorized engine); the detail is summarized.
    walkthrough_tokens: int = 1_000
    #: References per segment the walkthrough shows column by column.
    walkthrough_references: int = 8
    #: resamples x systems x segments one significance request may ask for (about 20 bytes per cell).
    resample_cells: int = 50_000_000
    #: Characters of one link (query string) the pages accept.
    link_chars: int = 8_000
    #: Characters of a rejected value echoed back to the user.
    echo_chars: int = 40
    #: Megabytes of one uploaded file (Streamlit's server.maxUploadSize says the same).
    upload_megabytes: int = 50
    #: Megabytes the page layer's caches may hold in total.
    cache_megabytes: int = 256


#: The policy in force. Tests may build their own ``Limits(...)``; nothing mutates this one.
LIMITS = Limits()
