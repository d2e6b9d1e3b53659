"""The limits policy: how much work and memory one request may ask for, written once.

Every entry point (pages, command line, API helpers that render or resample) reads its bounds from here and,
when an input goes past one, says what was cut and why instead of doing unbounded work. ``docs/limits.md``
and the README's "Limits" section list these numbers with their reasons; a test keeps them in step.
"""

from __future__ import annotations

from dataclasses import dataclass

from bleu_core.i18n import Message


@dataclass(frozen=True, slots=True)
class Limits:
    """The bounds of one request. Values are counts of tokens, references, characters or bytes."""

    #: Tokens per sentence the Explain walkthrough renders in full (tables, highlights, presentation steps).
    #: Beyond it the score and per-order totals are still exact (vectorized engine); the detail is summarized.
    walkthrough_tokens: int = 1_000
    #: References per segment the walkthrough shows column by column.
    walkthrough_references: int = 8
    #: Rows of one clipped-count table a summarized walkthrough shows (the most frequent n-grams first).
    summary_rows: int = 200
    #: Cells one significance request may fill: resamples x (segments + systems x statistics), 8 bytes each.
    resample_cells: int = 100_000_000
    #: Scores one significance request may compute: a resample's per system (bootstrap) or a trial's two per
    #: pair of systems (approximate randomization); about 6 microseconds each, so at most ~20 s of one core.
    resample_scores: int = 3_000_000
    #: Characters of one link (query string) the pages accept.
    link_chars: int = 8_000
    #: Characters of a rejected value echoed back to the user.
    echo_chars: int = 40
    #: Characters of one segment's text (source, hypothesis, reference) a page prints, and of a hypothesis the
    #: what-if editor takes; the scores use the whole text.
    shown_chars: int = 20_000
    #: Megabytes of one uploaded file (Streamlit's server.maxUploadSize says the same).
    upload_megabytes: int = 50
    #: Megabytes the page layer's caches of results may hold in total (each cache its share).
    cache_megabytes: int = 256
    #: Segments the Corpus page scores with chrF beside BLEU (character n-grams cost several times BLEU's count).
    chrf_segments: int = 100_000
    #: Distinct labels of one tags file (scores by slice): each is a table row, a bar and, with a paired test,
    #: its own resamples (their scores count against ``resample_scores`` together).
    slice_labels: int = 500
    #: Words of all hypotheses the Corpus page scores with TER when asked (its edit distance with shifts is a
    #: search per segment, far slower than counting n-grams).
    ter_words: int = 200_000
    #: Words of the longest hypothesis or reference the Corpus page scores with TER.
    ter_segment_words: int = 250


#: The policy in force. Tests may build their own ``Limits(...)``; nothing mutates this one.
LIMITS = Limits()


class LimitExceeded(ValueError):
    """A request past one of the limits, refused before any work: ``reason`` says it in any language."""

    def __init__(self, reason: Message) -> None:
        super().__init__(str(reason))
        self.reason = reason


def chrf_refused(segments: int, limits: Limits = LIMITS) -> Message | None:
    """Why chrF and chrF++ are not computed for a test set of ``segments`` segments, or None when they are."""
    if segments <= limits.chrf_segments:
        return None
    return Message(
        "metrics_verdict.too_many_segments", {"segments": f"{segments:,}", "limit": f"{limits.chrf_segments:,}"}
    )


def statistic_columns(max_order: int) -> int:
    """Statistics kept per segment and per resample: hypothesis and reference length, matches and totals per order."""
    return 2 + 2 * max_order


def resample_cells(
    n_samples: int, n_systems: int, n_segments: int, max_order: int = 4, columns: int | None = None
) -> int:
    """The memory of a significance request, in 8-byte cells: resamples x (segments + systems x statistics).

    Each resample draws one segment index per segment (bootstrap; a flag per segment for approximate
    randomization) and keeps the statistics of every system (BLEU's 2 + 2N, or another metric's ``columns``:
    chrF's 3 per order); the resamples x systems x segments products in between are computed a chunk at a time
    and never held whole.
    """
    width = statistic_columns(max_order) if columns is None else columns
    return n_samples * (n_segments + n_systems * width)


def resample_scores(n_samples: int, n_systems: int, test: str = "bs") -> int:
    """The time of a significance request, in scores computed: every resample of every system for the paired
    bootstrap (``"bs"``); for approximate randomization (``"ar"``) two per trial and pair of systems."""
    if test == "ar":
        return n_samples * n_systems * (n_systems - 1)
    return n_samples * n_systems


def check_resamples(
    n_samples: int,
    n_systems: int,
    n_segments: int,
    max_order: int = 4,
    test: str = "bs",
    limits: Limits = LIMITS,
    columns: int | None = None,
) -> None:
    """Raise :class:`LimitExceeded` naming the numbers when the request needs more than ``limits.resample_cells``
    cells or ``limits.resample_scores`` scores, with the most resamples that would fit.

    Called before anything is drawn: a refused request allocates nothing.  ``columns``: statistics per segment
    of a metric other than BLEU (BLEU's follow from ``max_order``).
    """
    cells = resample_cells(n_samples, n_systems, n_segments, max_order, columns)
    scores = resample_scores(n_samples, n_systems, test)
    if cells <= limits.resample_cells and scores <= limits.resample_scores:
        return
    most = min(
        limits.resample_cells // resample_cells(1, n_systems, n_segments, max_order, columns),
        limits.resample_scores // max(1, resample_scores(1, n_systems, test)),
    )
    numbers = {"samples": n_samples, "systems": n_systems, "segments": n_segments, "most": most}
    if cells > limits.resample_cells:
        statistics = statistic_columns(max_order) if columns is None else columns
        megabytes = -(-cells * 8 // 1_000_000)
        raise LimitExceeded(
            Message(
                "limits.resample_cells",
                {
                    **numbers,
                    "statistics": statistics,
                    "megabytes": megabytes,
                    "limit": limits.resample_cells * 8 // 1_000_000,
                },
            )
        )
    key = "limits.resample_scores_ar" if test == "ar" else "limits.resample_scores"
    raise LimitExceeded(Message(key, {**numbers, "scores": scores, "limit": limits.resample_scores}))
