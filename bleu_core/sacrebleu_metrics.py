"""sacreBLEU 2.6's chrF and TER API on bleu_core's engine, re-exported by :mod:`bleu_core.sacrebleu_api`.

``CHRF``, ``corpus_chrf`` and ``sentence_chrf`` keep sacreBLEU's constructor arguments and signatures and compute
on :mod:`bleu_core.stats.chrf`; ``TER``, ``corpus_ter`` and ``sentence_ter`` likewise on :mod:`bleu_core.stats.ter`.
Their scores and signatures are sacreBLEU's own public ``CHRFScore``, ``CHRFSignature``, ``TERScore`` and
``TERSignature``, so the printed text is sacreBLEU's by construction.  Inputs are checked, and errors raised, as
for BLEU (:mod:`bleu_core.sacrebleu_format`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sacrebleu.metrics.base import Score
from sacrebleu.metrics.chrf import CHRFScore, CHRFSignature
from sacrebleu.metrics.ter import TERScore, TERSignature

from bleu_core.compare.significance import DEFAULT_SEED
from bleu_core.sacrebleu_format import checked_hypotheses, checked_references, sentence_reference_streams
from bleu_core.stats import chrf, ter
from bleu_core.version import __version__


class CHRF:
    """sacreBLEU's ``CHRF`` metric (chrF, or chrF++ with ``word_order=2``): settings once, then scores."""

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
        self.num_refs: int | None = None
        self.n_bootstrap: int | None = None
        self.seed: str | None = None
        self._cache: chrf.ChrfReferences | None = None
        if references is not None:
            self._cache = self._prepare(references, None)

    def _prepare(self, references: Sequence[Sequence[str | None]], hyps: list[str] | None) -> chrf.ChrfReferences:
        prepared = chrf.prepare_references(checked_references(references, hyps), self.options)
        self.num_refs = prepared.n_refs
        return prepared

    def statistics(self, hypotheses: Sequence[str], references: Sequence[Sequence[str | None]] | None) -> chrf.IntArray:
        """Per-segment statistics (segments x 3 per order; see :mod:`bleu_core.stats.chrf`), references given
        or cached."""
        hyps = checked_hypotheses("CHRF", hypotheses)
        if references:
            prepared = self._prepare(references, hyps)
        elif self._cache is not None:
            prepared = self._cache
            self.num_refs = prepared.n_refs
        else:
            raise RuntimeError("No references provided and the cache is empty.")
        return chrf.segment_statistics(hyps, prepared, self.options)

    def score_statistics(self, stats: chrf.IntArray) -> CHRFScore:
        """The score of statistics: one row, or one row per segment summed first (a corpus score)."""
        return CHRFScore(chrf.chrf_score(np.asarray(stats), self.options), self.char_order, self.word_order, self.beta)

    def corpus_score(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None,
        n_bootstrap: int = 1,
    ) -> CHRFScore:
        """Corpus chrF (``references=None``: the cached ones); ``n_bootstrap`` > 1 adds the 95% interval."""
        stats = self.statistics(hypotheses, references)
        score = self.score_statistics(stats)
        if n_bootstrap > 1:
            self.n_bootstrap = n_bootstrap
            self.seed = str(DEFAULT_SEED)
            resampled = chrf.bootstrap_scores(stats, self.options, n_bootstrap, DEFAULT_SEED)
            score.estimate_ci([CHRFScore(x, self.char_order, self.word_order, self.beta) for x in resampled])
        return score

    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> CHRFScore:
        """chrF of one hypothesis against its references (the best one counts)."""
        return self.score_statistics(
            self.statistics([hypothesis], sentence_reference_streams("CHRF", hypothesis, references))
        )

    def get_signature(self) -> CHRFSignature:
        """The reproducibility signature (known once references were seen: it counts them)."""
        if self.num_refs is None:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        signature = CHRFSignature(dict(vars(self)))  # sacreBLEU's own reads the metric's attributes too
        signature.update("version", __version__)
        return signature


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


class TER:
    """sacreBLEU's ``TER`` metric (translation edit rate, shifts included): settings once, then scores."""

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
        self.num_refs: int | None = None
        self.n_bootstrap: int | None = None
        self.seed: str | None = None
        self._cache: ter.TerReferences | None = None
        if references is not None:
            self._cache = self._prepare(references, None)

    def _prepare(self, references: Sequence[Sequence[str | None]], hyps: list[str] | None) -> ter.TerReferences:
        prepared = ter.prepare_references(checked_references(references, hyps), self.options)
        self.num_refs = prepared.n_refs
        return prepared

    def statistics(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str | None]] | None
    ) -> ter.FloatArray:
        """Per-segment statistics (segments x [edits, reference length]; see :mod:`bleu_core.stats.ter`),
        references given or cached."""
        hyps = checked_hypotheses("TER", hypotheses)
        if references:
            prepared = self._prepare(references, hyps)
        elif self._cache is not None:
            prepared = self._cache
            self.num_refs = prepared.n_refs
        else:
            raise RuntimeError("No references provided and the cache is empty.")
        return ter.segment_statistics(hyps, prepared, self.options)

    @staticmethod
    def score_statistics(stats: ter.FloatArray) -> TERScore:
        """The score of statistics: one row, or one row per segment summed first (a corpus score)."""
        edits, ref_length = ter.summed(stats)
        return TERScore(ter.rate(edits, ref_length), edits, ref_length)

    def corpus_score(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None,
        n_bootstrap: int = 1,
    ) -> TERScore:
        """Corpus TER (``references=None``: the cached ones); ``n_bootstrap`` > 1 adds the 95% interval."""
        stats = self.statistics(hypotheses, references)
        score = self.score_statistics(stats)
        if n_bootstrap > 1:
            self.n_bootstrap = n_bootstrap
            self.seed = str(DEFAULT_SEED)
            score.estimate_ci(bootstrap_ter_scores(stats, n_bootstrap, DEFAULT_SEED))
        return score

    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> TERScore:
        """TER of one hypothesis against its references (the fewest edits count)."""
        return self.score_statistics(
            self.statistics([hypothesis], sentence_reference_streams("TER", hypothesis, references))
        )

    def get_signature(self) -> TERSignature:
        """The reproducibility signature (known once references were seen: it counts them)."""
        if self.num_refs is None:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        signature = TERSignature(dict(vars(self)))  # sacreBLEU's own reads the metric's attributes too
        signature.update("version", __version__)
        return signature


def bootstrap_ter_scores(stats: ter.FloatArray, n_samples: int, seed: int) -> list[Score]:
    """The resampled corpora's scores as sacreBLEU's ``TERScore`` objects (for ``estimate_ci``)."""
    totals = ter.bootstrap_totals(stats, n_samples, seed)
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
