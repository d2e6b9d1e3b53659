"""sacreBLEU 2.6's chrF and TER API on bleu_core's engine, re-exported by :mod:`bleu_core.sacrebleu_api`.

``CHRF``, ``corpus_chrf`` and ``sentence_chrf`` keep sacreBLEU's constructor arguments and signatures and compute
on :mod:`bleu_core.stats.chrf`; ``TER``, ``corpus_ter`` and ``sentence_ter`` likewise on :mod:`bleu_core.stats.ter`.
Their scores and signatures are sacreBLEU's own public ``CHRFScore``, ``CHRFSignature``, ``TERScore`` and
``TERSignature``, so the printed text is sacreBLEU's by construction.  Inputs are checked, and errors raised, as
for BLEU (:mod:`bleu_core.sacrebleu_format`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, TypeVar

import numpy as np
from sacrebleu.metrics.base import Score, Signature
from sacrebleu.metrics.chrf import CHRFScore, CHRFSignature
from sacrebleu.metrics.ter import TERScore, TERSignature

from bleu_core.compare.metrics import chrf_resampled_scores
from bleu_core.compare.significance import DEFAULT_SEED
from bleu_core.sacrebleu_format import checked_hypotheses, checked_references, sentence_reference_streams
from bleu_core.stats import chrf, ter
from bleu_core.stats.segment_stats import resampled_totals
from bleu_core.version import __version__

ScoreT = TypeVar("ScoreT", bound=Score)


class _Metric(Generic[ScoreT]):
    """What sacreBLEU's metric classes share: references checked and prepared once (or cached), statistics, the
    corpus score with its bootstrap interval, the sentence score and the signature.  A metric says how to prepare
    references, count a corpus, score statistics and resample them."""

    NAME = ""  # sacreBLEU's class name, in its error messages
    SIGNATURE: type[Signature] = Signature

    def _start(self, references: Sequence[Sequence[str | None]] | None) -> None:
        self.num_refs: int | None = None
        self.n_bootstrap: int | None = None
        self.seed: str | None = None
        self._cache: Any = None
        if references is not None:
            self._cache = self._prepare(references, None)

    def _prepare(self, references: Sequence[Sequence[str | None]], hyps: list[str] | None) -> Any:
        prepared = self._prepared(checked_references(references, hyps))
        self.num_refs = prepared.n_refs
        return prepared

    def _prepared(self, streams: list[list[str | None]]) -> Any:
        raise NotImplementedError

    def _counted(self, hyps: list[str], prepared: Any) -> Any:
        raise NotImplementedError

    def score_statistics(self, stats: Any) -> ScoreT:
        raise NotImplementedError

    def _resampled(self, stats: Any, n_samples: int) -> list[Score]:
        raise NotImplementedError

    def statistics(self, hypotheses: Sequence[str], references: Sequence[Sequence[str | None]] | None) -> Any:
        """Per-segment statistics (one row per segment; see the metric's module in :mod:`bleu_core.stats`),
        references given or cached."""
        hyps = checked_hypotheses(self.NAME, hypotheses)
        if references:
            prepared = self._prepare(references, hyps)
        elif self._cache is not None:
            prepared = self._cache
            self.num_refs = prepared.n_refs
        else:
            raise RuntimeError("No references provided and the cache is empty.")
        return self._counted(hyps, prepared)

    def corpus_score(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None,
        n_bootstrap: int = 1,
    ) -> ScoreT:
        """The corpus score (``references=None``: the cached ones); ``n_bootstrap`` > 1 adds the 95% interval."""
        stats = self.statistics(hypotheses, references)
        score = self.score_statistics(stats)
        if n_bootstrap > 1:
            self.n_bootstrap = n_bootstrap
            self.seed = str(DEFAULT_SEED)
            score.estimate_ci(self._resampled(stats, n_bootstrap))
        return score

    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> ScoreT:
        """The score of one hypothesis against its references."""
        return self.score_statistics(
            self.statistics([hypothesis], sentence_reference_streams(self.NAME, hypothesis, references))
        )

    def get_signature(self) -> Any:
        """The reproducibility signature (known once references were seen: it counts them)."""
        if self.num_refs is None:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        signature = self.SIGNATURE(dict(vars(self)))  # sacreBLEU's own reads the metric's attributes too
        signature.update("version", __version__)
        return signature


class CHRF(_Metric[CHRFScore]):
    """sacreBLEU's ``CHRF`` metric (chrF, or chrF++ with ``word_order=2``): settings once, then scores."""

    NAME = "CHRF"
    SIGNATURE = CHRFSignature
    CHAR_ORDER = 6
    WORD_ORDER = 0
    BETA = 2

    def __init__(
        self,
        char_order: int = CHAR_ORDER,
        word_order: int = WORD_ORDER,
        beta: int = BETA,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
        references: Sequence[Sequence[str | None]] | None = None,
    ) -> None:
        self.char_order = char_order
        self.word_order = word_order
        self.beta = beta
        self.order = char_order + word_order
        self.lowercase = lowercase
        self.whitespace = whitespace
        self.eps_smoothing = eps_smoothing
        self.options = chrf.ChrfOptions(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
        self._start(references)

    def _prepared(self, streams: list[list[str | None]]) -> chrf.ChrfReferences:
        return chrf.prepare_references(streams, self.options)

    def _counted(self, hyps: list[str], prepared: chrf.ChrfReferences) -> chrf.IntArray:
        return chrf.segment_statistics(hyps, prepared, self.options)

    def score_statistics(self, stats: chrf.IntArray) -> CHRFScore:
        """The score of statistics: one row, or one row per segment summed first (a corpus score)."""
        return CHRFScore(chrf.chrf_score(np.asarray(stats), self.options), self.char_order, self.word_order, self.beta)

    def _resampled(self, stats: chrf.IntArray, n_samples: int) -> list[Score]:
        resampled = chrf_resampled_scores(stats, self.options, n_samples, DEFAULT_SEED)
        return [CHRFScore(x, self.char_order, self.word_order, self.beta) for x in resampled]


def _chrf(char_order: int, word_order: int, beta: int, remove_whitespace: bool, eps_smoothing: bool) -> CHRF:
    """The metric of the module functions, whose ``remove_whitespace`` is ``CHRF``'s ``whitespace`` negated."""
    return CHRF(char_order, word_order, beta, whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)


def corpus_chrf(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: int = CHRF.BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """sacreBLEU's ``corpus_chrf`` (note: ``remove_whitespace``, the opposite of ``CHRF``'s ``whitespace``)."""
    return _chrf(char_order, word_order, beta, remove_whitespace, eps_smoothing).corpus_score(hypotheses, references)


def sentence_chrf(
    hypothesis: str,
    references: Sequence[str],
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: int = CHRF.BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """sacreBLEU's ``sentence_chrf``."""
    return _chrf(char_order, word_order, beta, remove_whitespace, eps_smoothing).sentence_score(hypothesis, references)


class TER(_Metric[TERScore]):
    """sacreBLEU's ``TER`` metric (translation edit rate, shifts included): settings once, then scores."""

    NAME = "TER"
    SIGNATURE = TERSignature

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        references: Sequence[Sequence[str | None]] | None = None,
    ) -> None:
        self.normalized = normalized
        self.no_punct = no_punct
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        self.options = ter.TerOptions(normalized, no_punct, asian_support, case_sensitive)
        self.tokenizer = self.options.tokenizer()
        self.tokenizer_signature = "tercom"
        self._start(references)

    def _prepared(self, streams: list[list[str | None]]) -> ter.TerReferences:
        return ter.prepare_references(streams, self.options)

    def _counted(self, hyps: list[str], prepared: ter.TerReferences) -> ter.FloatArray:
        return ter.segment_statistics(hyps, prepared, self.options)

    def score_statistics(self, stats: ter.FloatArray) -> TERScore:
        """The score of statistics: one row, or one row per segment summed first (a corpus score)."""
        edits, ref_length = ter.summed(stats)
        return TERScore(ter.rate(edits, ref_length), edits, ref_length)

    def _resampled(self, stats: ter.FloatArray, n_samples: int) -> list[Score]:
        return bootstrap_ter_scores(stats, n_samples, DEFAULT_SEED)


def bootstrap_ter_scores(stats: ter.FloatArray, n_samples: int, seed: int) -> list[Score]:
    """The resampled corpora's scores as sacreBLEU's ``TERScore`` objects (for ``estimate_ci``)."""
    totals = resampled_totals(stats, n_samples, seed)
    scores = ter.bootstrap_scores(totals)
    return [TERScore(score, edits, length) for score, (edits, length) in zip(scores, totals, strict=True)]


def corpus_ter(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """sacreBLEU's ``corpus_ter``."""
    return TER(normalized, no_punct, asian_support, case_sensitive).corpus_score(hypotheses, references)


def sentence_ter(
    hypothesis: str,
    references: Sequence[str],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """sacreBLEU's ``sentence_ter``."""
    return TER(normalized, no_punct, asian_support, case_sensitive).sentence_score(hypothesis, references)
