"""The public scoring functions: corpus BLEU, sentence BLEU, sentence scores of a whole corpus."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Any, Unpack, cast

import numpy as np
from numpy.typing import NDArray

from bleu_core.options import BleuOptions, OptionSettings, options_from
from bleu_core.stats.counting import PreparedReferences, prepare_references, segment_statistics, stream_statistics
from bleu_core.stats.scoring import PERCENT, score_statistics
from bleu_core.stats.segment_stats import SegmentStats
from bleu_core.version import __version__


@dataclass(frozen=True, slots=True)
class BleuResult:
    """One BLEU score with everything it was computed from.

    ``score`` and ``precisions`` are in [0, 1] as in the paper (×100 for sacreBLEU's scale);
    ``counts`` are the true clipped matches per order and ``totals`` the candidate n-grams.
    """

    score: float
    precisions: tuple[float, ...]
    bp: float
    sys_len: int
    ref_len: int
    counts: tuple[int, ...]
    totals: tuple[int, ...]
    options: BleuOptions
    n_refs: int

    @property
    def score_100(self) -> float:
        """The score on sacreBLEU's 0-100 scale."""
        return 100.0 * self.score

    @property
    def ratio(self) -> float:
        """Hypothesis length over reference length (c / r); 0 when r is 0, as sacreBLEU (JSON has no infinity)."""
        return self.sys_len / self.ref_len if self.ref_len else 0.0

    @property
    def signature(self) -> str:
        return self.options.signature(self.n_refs, __version__)

    def format(self, width: int = 2) -> str:
        """sacreBLEU's one-line summary, e.g. ``BLEU = 30.12 60.0/36.1/24.0/16.3 (BP = 1.000 ...)``."""
        # sacreBLEU rounds 100*m/t, not 100*(m/t): 51/80 prints 63.8, not 63.7.
        row = SegmentStats(
            np.asarray([self.counts], dtype=np.int64),
            np.asarray([self.totals], dtype=np.int64),
            np.asarray([self.sys_len], dtype=np.int64),
            np.asarray([self.ref_len], dtype=np.int64),
        )
        percent = score_statistics(row, self.options, scale=PERCENT).precisions[0]
        precisions = "/".join(f"{p:.1f}" for p in percent)
        return (
            f"BLEU = {self.score_100:.{width}f} {precisions} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} "
            f"hyp_len = {self.sys_len:d} ref_len = {self.ref_len:d})"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields on sacreBLEU's 0-100 scale (``score``, ``precisions``)."""
        return {
            "name": "BLEU",
            "score": self.score_100,
            "signature": self.signature,
            "counts": list(self.counts),
            "totals": list(self.totals),
            "precisions": [100.0 * p for p in self.precisions],
            "bp": self.bp,
            "sys_len": self.sys_len,
            "ref_len": self.ref_len,
            "ratio": self.ratio,
        }


def result_from_statistics(stats: SegmentStats, options: BleuOptions, n_refs: int) -> BleuResult:
    """Score summed statistics (one corpus row) into a :class:`BleuResult`."""
    row = stats.summed() if len(stats) != 1 else stats
    arrays = score_statistics(row, options)
    return BleuResult(
        score=float(arrays.score[0]),
        precisions=tuple(float(p) for p in arrays.precisions[0]),
        bp=float(arrays.bp[0]),
        sys_len=int(row.hyp_len[0]),
        ref_len=int(row.ref_len[0]),
        counts=tuple(int(c) for c in row.matches[0]),
        totals=tuple(int(t) for t in row.totals[0]),
        options=options,
        n_refs=n_refs,
    )


def _as_list(value: object, name: str, ordered: bool = False) -> list[Any]:
    """``value`` as a list; ``ordered``: one item per segment, so collections without an order are refused."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be a list of strings, not a single {type(value).__name__}; wrap it in a list")
    if ordered and isinstance(value, (Set, Mapping)):
        raise TypeError(
            f"{name} must be a list of strings in segment order; a {type(value).__name__} has no such order"
        )
    if isinstance(value, np.ndarray):
        return list(value.tolist())
    if not isinstance(value, Sequence):
        try:
            return list(cast(Iterable[Any], value))
        except TypeError:
            raise TypeError(f"{name} must be a list of strings; got {type(value).__name__}") from None
    return list(value)


_STR_OR_NONE = {str, type(None)}


def _check_strings(items: list[Any], name: str, allow_none: bool = False) -> bool:
    """Raise TypeError at the first item that is not a str (or None, when allowed); whether any is None."""
    kinds = set(map(type, items))
    if kinds <= _STR_OR_NONE and (allow_none or type(None) not in kinds):
        return type(None) in kinds
    for i, item in enumerate(items):
        if isinstance(item, str) or (allow_none and item is None):
            continue
        hint = " (decode bytes first, e.g. with .decode('utf-8'))" if isinstance(item, bytes) else ""
        raise TypeError(f"{name}[{i}] must be a str; got {type(item).__name__} {item!r:.40}{hint}")
    return any(item is None for item in items)


class MissingReferenceError(ValueError):
    """A segment for which every reference stream holds None."""


def check_corpus(hypotheses: object, references: object) -> tuple[list[str], list[list[str | None]]]:
    """Validate corpus input: a list of hypothesis strings and a list of reference streams of equal length."""
    hyps = _as_list(hypotheses, "hypotheses", ordered=True)
    _check_strings(hyps, "hypotheses")
    if isinstance(references, (str, bytes)):
        raise TypeError("references must be a list of reference streams (lists of strings), not a single string")
    streams = _as_list(references, "references")
    if not streams:
        raise ValueError("no references given; pass at least one reference stream")
    checked: list[list[str | None]] = []
    missing = False
    for k, stream in enumerate(streams):
        if isinstance(stream, str):
            raise TypeError(
                f"references[{k}] is a str, but references must be a list of streams "
                "(references[k][i] is reference k of segment i); for one reference per segment pass [refs]"
            )
        items = _as_list(stream, f"references[{k}]", ordered=True)
        missing = _check_strings(items, f"references[{k}]", allow_none=True) or missing
        if len(items) != len(hyps):
            raise ValueError(
                f"reference stream {k + 1} has {len(items)} lines but there are {len(hyps)} hypotheses; "
                "every stream needs one line per hypothesis"
            )
        checked.append(items)
    for i in range(len(hyps) if missing else 0):
        if all(stream[i] is None for stream in checked):
            raise MissingReferenceError(f"segment {i + 1} has no reference (all streams hold None there)")
    return hyps, checked


def corpus_statistics(
    hypotheses: Sequence[str], references: Sequence[Sequence[str | None]], options: BleuOptions
) -> tuple[SegmentStats, PreparedReferences]:
    """Validated input -> per-segment statistics (and the prepared references, for reuse)."""
    prepared = prepare_references(
        references, tokenize=options.tokenize, lowercase=options.lowercase, max_order=options.max_order
    )
    return segment_statistics(hypotheses, prepared), prepared


def _statistics(
    hypotheses: Sequence[str], references: Sequence[Sequence[str | None]], options: BleuOptions
) -> tuple[SegmentStats, int]:
    """Per-segment statistics and references per segment, chunk by chunk (nothing kept for reuse)."""
    return stream_statistics(
        hypotheses, references, tokenize=options.tokenize, lowercase=options.lowercase, max_order=options.max_order
    )


def corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    options: BleuOptions | None = None,
    **settings: Unpack[OptionSettings],
) -> BleuResult:
    """Corpus BLEU: clipped counts, totals and lengths are summed over segments before dividing.

    ``references[k][i]`` is reference k of segment i (sacreBLEU's streams); None marks a missing one.
    Settings come as one :class:`BleuOptions` or as keywords (see :func:`make_options`).
    """
    options = options_from(options, settings, effective_order=False, caller="corpus_bleu")
    hyps, streams = check_corpus(hypotheses, references)
    stats, n_refs = _statistics(hyps, streams, options)
    return result_from_statistics(stats, options, n_refs)


def sentence_references(references: object) -> list[list[str | None]]:
    """One sentence's references (a list of strings), validated, as streams of one segment each."""
    refs = _as_list(references, "references")
    if not refs:
        raise ValueError("no references given; pass at least one reference string")
    _check_strings(refs, "references")
    return [[ref] for ref in refs]


def sentence_bleu(
    hypothesis: str,
    references: Sequence[str],
    options: BleuOptions | None = None,
    **settings: Unpack[OptionSettings],
) -> BleuResult:
    """BLEU of one hypothesis against its references (effective order on by default, as sacreBLEU)."""
    if not isinstance(hypothesis, str):
        raise TypeError(f"hypothesis must be a str; got {type(hypothesis).__name__}")
    resolved = options_from(options, settings, effective_order=True, caller="sentence_bleu")
    return corpus_bleu([hypothesis], sentence_references(references), resolved)


def sentence_scores(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    options: BleuOptions | None = None,
    **settings: Unpack[OptionSettings],
) -> NDArray[np.float64]:
    """Sentence BLEU of every segment (in [0, 1]) in one vectorized pass; equals :func:`sentence_bleu` on each."""
    options = options_from(options, settings, effective_order=True, caller="sentence_scores")
    hyps, streams = check_corpus(hypotheses, references)
    stats, _ = _statistics(hyps, streams, options)
    return score_statistics(stats, options).score
