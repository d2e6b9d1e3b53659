"""sacreBLEU 2.6's API on bleu_core's engine: ``import bleu_core.sacrebleu_api as sacrebleu``.

``BLEU`` takes sacreBLEU's constructor arguments (``references=`` caches the references for many systems),
and ``corpus_score``, ``sentence_score`` and ``get_signature`` return objects with sacreBLEU's fields and
the same ``str()`` and ``format()`` text.  ``corpus_bleu``, ``sentence_bleu`` and ``raw_corpus_bleu`` keep
sacreBLEU's signatures.  ``CHRF``, ``corpus_chrf`` and ``sentence_chrf`` (chrF and chrF++), and ``TER``,
``corpus_ter`` and ``sentence_ter`` (translation edit rate with shifts) live in :mod:`bleu_core.sacrebleu_metrics`
and are re-exported here.  Difference: hypotheses and references of different lengths are an error here
(sacreBLEU silently scores the shorter).

Errors (defined in :mod:`bleu_core.sacrebleu_format`) are raised where sacreBLEU raises, as classes that derive
from both this library's ``ValueError`` and the exception sacreBLEU raises there (``KeyError`` for an unknown
tokenizer, ``AssertionError`` for an unknown smoothing method, ``RuntimeError`` without MeCab, ``ImportError``
for the SentencePiece tokenizers, ``TypeError`` for hypotheses that are not a sequence or a segment without any
reference, ``IndexError`` for an empty corpus), so that code catching either keeps working.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from sacrebleu.metrics.chrf import CHRFScore
from sacrebleu.metrics.ter import TERScore

from bleu_core.compare.significance import DEFAULT_SEED
from bleu_core.options import DEFAULT_MAX_ORDER, SMOOTH_DEFAULTS, TOKENIZERS, BleuOptions, make_options
from bleu_core.sacrebleu_format import (
    LANGUAGE_TOKENIZERS,
    MECAB_TOKENIZERS,
    SENTENCEPIECE_TOKENIZERS,
    EmptyCorpusError,
    MissingMeCabError,
    NotTextError,
    Score,
    SentencePieceError,
    Signature,
    UnknownSmoothingError,
    UnknownTokenizerError,
    bleu_signature,
    bootstrap,
    checked_hypotheses,
    checked_references,
    corpus_score,
    estimate_ci,
    score_rows,
    sentence_reference_streams,
    tokenizer_signature,
)
from bleu_core.sacrebleu_metrics import CHRF, TER, corpus_chrf, corpus_ter, sentence_chrf, sentence_ter
from bleu_core.stats.counting import PreparedReferences, prepare_references, segment_statistics, stream_statistics

__all__ = [
    "BLEU",
    "CHRF",
    "TER",
    "BLEUScore",
    "CHRFScore",
    "EmptyCorpusError",
    "MissingMeCabError",
    "NotTextError",
    "SentencePieceError",
    "TERScore",
    "UnknownSmoothingError",
    "UnknownTokenizerError",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
]


def _options(name: str, settings: dict[str, Any]) -> BleuOptions:
    """:func:`make_options`, its errors raised as sacreBLEU's (see the module docstring)."""
    try:
        return make_options(tokenize=name, floor_above_one=True, **settings)
    except ValueError as error:
        if settings["smooth"] not in SMOOTH_DEFAULTS:
            raise UnknownSmoothingError(str(error)) from error
        if name in MECAB_TOKENIZERS:
            raise MissingMeCabError(str(error)) from error
        if name in SENTENCEPIECE_TOKENIZERS:
            message = f"tokenizer {name!r} is sacreBLEU's SentencePiece tokenizer, which bleu_core does not provide"
            raise SentencePieceError(message) from error
        if name not in TOKENIZERS:
            raise UnknownTokenizerError(str(error)) from error
        raise


#: sacreBLEU's default add-k value, an int: the counts it reports stay ints.
SACREBLEU_ADD_K = 1
#: sacreBLEU's name for a BLEU result (fields ``score``, ``counts``, ``totals``, ``precisions``, ``bp``, ...).
BLEUScore = Score


class BLEU:
    """sacreBLEU's ``BLEU`` metric: settings once, then ``corpus_score`` / ``sentence_score`` many times."""

    SMOOTH_DEFAULTS: ClassVar[dict[str, float | None]] = dict(SMOOTH_DEFAULTS)
    TOKENIZERS = TOKENIZERS
    TOKENIZER_DEFAULT = "13a"

    def __init__(
        self,
        lowercase: bool = False,
        force: bool = False,
        tokenize: str | None = None,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int = DEFAULT_MAX_ORDER,
        effective_order: bool = False,
        trg_lang: str = "",
        references: Sequence[Sequence[str | None]] | None = None,
    ) -> None:
        self.lowercase = lowercase
        self.force = force
        self.trg_lang = trg_lang
        self.smooth_method = smooth_method
        self.smooth_value = smooth_value
        self.max_ngram_order = max_ngram_order
        self.effective_order = effective_order
        name = tokenize if tokenize is not None else LANGUAGE_TOKENIZERS.get(trg_lang, self.TOKENIZER_DEFAULT)
        settings = {
            "max_order": max_ngram_order,
            "lowercase": lowercase,
            "smooth": smooth_method,
            "smooth_value": smooth_value,
            "effective_order": effective_order,
        }
        self.options: BleuOptions = _options(name, settings)
        self.tokenizer_signature = tokenizer_signature(name)
        # the add-k value as sacreBLEU keeps it (its default is the int 1): added to the counts it reports
        self._add_k = smooth_value if smooth_value is not None else SACREBLEU_ADD_K
        self.num_refs: int | None = None
        self.n_bootstrap: int | None = None
        self.seed: str | None = None
        self._cache: PreparedReferences | None = None
        self._tokenizer: Any = None
        if references is not None:
            self._cache = self._prepare(references)

    @property
    def tokenizer(self) -> Any:
        """sacreBLEU's own tokenizer object for this metric's tokenizer (``BLEU().tokenizer(line)``, as in sacreBLEU);
        scoring does not use it (bleu_core's tokenizers give the same tokens, tested)."""
        if self._tokenizer is None:
            import sacrebleu

            self._tokenizer = sacrebleu.BLEU(tokenize=self.options.tokenize).tokenizer
        return self._tokenizer

    def _prepare(self, references: Sequence[Sequence[str | None]]) -> PreparedReferences:
        prepared = prepare_references(
            checked_references(references, None),
            tokenize=self.options.tokenize,
            lowercase=self.options.lowercase,
            max_order=self.options.max_order,
        )
        self.num_refs = prepared.n_refs
        return prepared

    def _statistics(self, hypotheses: Sequence[str], references: Sequence[Sequence[str | None]] | None) -> Any:
        hyps = checked_hypotheses("BLEU", hypotheses)
        if references:
            return self._once(hyps, references)
        if self._cache is not None:
            prepared = self._cache
            self.num_refs = prepared.n_refs
        else:
            raise RuntimeError("No references provided and the cache is empty.")
        if prepared.n_segments != len(hyps):
            raise ValueError(
                f"there are {len(hyps)} hypotheses but the references have {prepared.n_segments} segments; "
                "give one reference line per hypothesis"
            )
        return segment_statistics(hyps, prepared)

    def _once(self, hyps: list[str], references: Sequence[Sequence[str | None]]) -> Any:
        """Statistics against references used once: counted together with the hypotheses, which prunes both
        sides at every order (the same statistics as preparing them, tested in test_random_vs_sacrebleu.py).
        Measured (``python -m bench.run --tasks dropin``, en-de): 48.6 -> 27.8 ms, 0.110 -> 0.053 of sacreBLEU's time.
        """
        checked = checked_references(references, hyps)
        options = self.options
        stats, self.num_refs = stream_statistics(
            hyps, checked, tokenize=options.tokenize, lowercase=options.lowercase, max_order=options.max_order
        )
        return stats

    def corpus_score(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None,
        n_bootstrap: int = 1,
    ) -> Score:
        """Corpus BLEU (``references=None``: the cached ones); ``n_bootstrap`` > 1 adds the 95% interval."""
        stats = self._statistics(hypotheses, references)
        score = corpus_score(stats, self.options, self._add_k)
        if n_bootstrap > 1:
            self.n_bootstrap = n_bootstrap
            self.seed = str(DEFAULT_SEED)
            estimate_ci(score, bootstrap(stats, self.options, n_bootstrap, DEFAULT_SEED))
        return score

    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> Score:
        """BLEU of one hypothesis against its references (turn ``effective_order`` on for sentences)."""
        stats = self._statistics([hypothesis], sentence_reference_streams("BLEU", hypothesis, references))
        return score_rows(stats, self.options, self._add_k)[0]

    def get_signature(self) -> Signature:
        """The reproducibility signature (known once references were seen: it counts them)."""
        if self.num_refs is None:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        extra: dict[str, object] = {"bs": self.n_bootstrap, "seed": self.seed}
        return bleu_signature(self.options, self.num_refs, self.tokenizer_signature, extra)

    @staticmethod
    def compute_bleu(
        correct: Sequence[int],
        total: Sequence[int],
        sys_len: int,
        ref_len: int,
        smooth_method: str = "none",
        smooth_value: float | None = None,
        effective_order: bool = False,
        max_ngram_order: int = DEFAULT_MAX_ORDER,
    ) -> Score:
        """BLEU from summed statistics, as sacreBLEU's ``BLEU.compute_bleu``."""
        from bleu_core.stats.segment_stats import SegmentStats

        options = make_options(
            max_order=max_ngram_order,
            smooth=smooth_method,
            smooth_value=smooth_value,
            effective_order=effective_order,
            floor_above_one=True,
        )
        stats = SegmentStats(
            np.asarray([list(correct)[:max_ngram_order]], dtype=np.int64),
            np.asarray([list(total)[:max_ngram_order]], dtype=np.int64),
            np.asarray([sys_len], dtype=np.int64),
            np.asarray([ref_len], dtype=np.int64),
        )
        return score_rows(stats, options, smooth_value if smooth_value is not None else SACREBLEU_ADD_K)[0]


def _bleu(
    smooth_method: str, smooth_value: float | None, force: bool, lowercase: bool, tokenize: str, effective: bool
) -> BLEU:
    """The metric of the module functions, whose ``use_effective_order`` is ``BLEU``'s ``effective_order``."""
    return BLEU(lowercase, force, tokenize, smooth_method, smooth_value, effective_order=effective)


def corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str = BLEU.TOKENIZER_DEFAULT,
    use_effective_order: bool = False,
) -> Score:
    """sacreBLEU's ``corpus_bleu``: one corpus against one or more reference streams."""
    metric = _bleu(smooth_method, smooth_value, force, lowercase, tokenize, use_effective_order)
    return metric.corpus_score(hypotheses, references)


def raw_corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    smooth_value: float | None = BLEU.SMOOTH_DEFAULTS["floor"],
) -> Score:
    """sacreBLEU's ``raw_corpus_bleu``: no tokenization, floor smoothing, effective order."""
    return _bleu("floor", smooth_value, True, False, "none", True).corpus_score(hypotheses, references)


def sentence_bleu(
    hypothesis: str,
    references: Sequence[str],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    lowercase: bool = False,
    tokenize: str = BLEU.TOKENIZER_DEFAULT,
    use_effective_order: bool = True,
) -> Score:
    """sacreBLEU's ``sentence_bleu``: one hypothesis against its references (effective order on)."""
    metric = _bleu(smooth_method, smooth_value, False, lowercase, tokenize, use_effective_order)
    return metric.sentence_score(hypothesis, references)
