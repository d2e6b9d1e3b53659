"""sacreBLEU 2.6's printed forms of a BLEU score (signatures, score lines, JSON, multi-system tables), and the
input checks and errors every drop-in metric shares.

The command line and :mod:`bleu_core.sacrebleu_api` print through this module so that the same numbers
give the same bytes as ``sacrebleu -m bleu`` (the version in the signature aside: it is ours).
Colours are never printed: sacreBLEU's are stripped too whenever its output is not a terminal.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from sacrebleu.metrics.base import Score as BaseScore
from sacrebleu.metrics.bleu import BLEUScore

from bleu_core.api import MissingReferenceError, check_corpus, sentence_references
from bleu_core.compare.resampling import (
    chunked_sums,
    sacrebleu_scores,
    scalar_score,
    statistic_columns,
)
from bleu_core.options import BleuOptions
from bleu_core.stats.scoring import PERCENT, scalar_brevity_penalty, score_statistics
from bleu_core.stats.segment_stats import SegmentStats
from bleu_core.version import __version__

#: Signature keys in sacreBLEU's order (version always last) and their short forms (``-sh``).
SIGNATURE_KEYS: dict[str, str] = {
    "nrefs": "#",
    "bs": "bs",
    "ar": "ar",
    "seed": "rs",
    "test": "t",
    "lang": "l",
    "origlang": "o",
    "subset": "S",
    "case": "c",
    "eff": "e",
    "tok": "tok",
    "smooth": "s",
    "ngram": "n",  # bleu_core's CLI only, with --max-ngram-order or --weights (sacreBLEU has neither flag)
    "w": "w",
    "version": "v",
}


#: The tokenizer sacreBLEU picks for a target language (``-l``, ``trg_lang``) when none is given.
LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


class _SacreBLEUError(ValueError):
    """A ValueError that is also the exception sacreBLEU raises in the same place (see the module docstring)."""

    __str__ = ValueError.__str__  # KeyError would quote the message


class UnknownTokenizerError(_SacreBLEUError, KeyError):
    """A tokenizer name sacreBLEU does not know."""


class UnknownSmoothingError(_SacreBLEUError, AssertionError):
    """A smoothing method sacreBLEU does not know."""


class MissingMeCabError(_SacreBLEUError, RuntimeError):
    """ja-mecab (or ko-mecab) without the MeCab packages."""


class SentencePieceError(_SacreBLEUError, ImportError):
    """spm, flores101, flores200: sacreBLEU's SentencePiece tokenizers, not re-implemented here."""


class NotTextError(_SacreBLEUError, TypeError):
    """Hypotheses that are not a sequence, or a segment with no reference at all."""


class EmptyCorpusError(_SacreBLEUError, IndexError):
    """No hypothesis to score."""


SENTENCEPIECE_TOKENIZERS = ("spm", "flores101", "flores200")
MECAB_TOKENIZERS = ("ja-mecab", "ko-mecab")


def checked_references(
    references: Sequence[Sequence[str | None]], hypotheses: list[str] | None
) -> list[list[str | None]]:
    """Reference streams checked against ``hypotheses`` (None: only against each other), errors as sacreBLEU's."""
    streams = [list(stream) for stream in references] if not isinstance(references, str) else references
    hyps = hypotheses if hypotheses is not None else [""] * (len(streams[0]) if streams else 0)
    try:
        return check_corpus(hyps, streams)[1]
    except MissingReferenceError as error:
        raise NotTextError(str(error)) from error


def checked_hypotheses(metric: str, hypotheses: Sequence[str]) -> list[str]:
    """A corpus of hypotheses checked, errors as sacreBLEU's."""
    if not isinstance(hypotheses, Sequence):
        raise NotTextError(f"{metric}: `hyps` should be a sequence of strings.")
    if len(hypotheses) == 0:
        raise EmptyCorpusError(f"{metric}: there are no hypotheses to score (sacreBLEU fails on an empty corpus)")
    return check_corpus(hypotheses, [[""] * len(hypotheses)])[0]


def sentence_reference_streams(
    metric: str, hypothesis: str, references: Sequence[str | None]
) -> list[list[str | None]]:
    """One sentence's references (``None`` dropped) as streams of one segment, errors as sacreBLEU's."""
    if not isinstance(hypothesis, str):
        raise TypeError(f"{metric}: The argument `hyp` should be a string.")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError(f"{metric}: The argument `refs` should be a sequence of strings.")
    if not references:
        raise EmptyCorpusError(f"{metric}: no references given (sacreBLEU fails on an empty list)")
    if all(ref is None for ref in references):
        raise NotTextError(f"{metric}: every reference is None; give at least one reference string")
    return sentence_references([ref for ref in references if ref is not None])


def tokenizer_signature(name: str) -> str:
    """What sacreBLEU writes after ``tok:`` (ja-mecab adds MeCab's version and dictionary)."""
    if name != "ja-mecab":
        return name
    from sacrebleu.tokenizers import tokenizer_ja_mecab

    mecab: Any = tokenizer_ja_mecab.TokenizerJaMecab
    return str(mecab().signature())


@dataclass
class Signature:
    """A reproducibility signature: key-value pairs printed as ``key:value|...`` (abbreviated with short)."""

    info: dict[str, object]

    def format(self, short: bool = False) -> str:
        pairs = []
        for key in SIGNATURE_KEYS:
            value = self.info.get(key)
            if value is None:
                continue
            if isinstance(value, bool):
                value = "yes" if value else "no"
            pairs.append(f"{SIGNATURE_KEYS[key] if short else key}:{value}")
        return "|".join(pairs)

    def update(self, key: str, value: object) -> None:
        self.info[key] = value

    def __str__(self) -> str:
        return self.format()

    __repr__ = __str__


def bleu_signature(
    options: BleuOptions,
    n_refs: int,
    tokenizer_signature: str,
    extra: dict[str, object] | None = None,
    extensions: bool = False,
) -> Signature:
    """sacreBLEU's BLEU signature (``n_refs`` -1 prints ``var``); ``extra``: bs, ar, seed entries.

    ``extensions``: also ``ngram`` and ``w`` when they are not the defaults (the command line's own flags, so that
    a BLEU-2 cannot pass for BLEU); sacreBLEU's API prints neither, even for its ``max_ngram_order``."""
    fields = options.signature_fields(n_refs)
    if not extensions:
        fields = {key: value for key, value in fields.items() if key not in ("ngram", "w")}
    info: dict[str, object] = {**fields, "tok": tokenizer_signature, "version": __version__, **(extra or {})}
    return Signature(info)


#: A BLEU score is sacreBLEU's own ``BLEUScore`` (a hard dependency): its ``str()``, ``format()`` and JSON are
#: sacreBLEU's by construction; this module only computes the numbers it holds.
Score = BLEUScore


def estimate_ci(score: Score, resampled: Sequence[float]) -> None:
    """Keep the mean and the 95% half-width of bootstrap scores in ``score``, by sacreBLEU's ``estimate_ci``."""
    score.estimate_ci([BaseScore(score.name, float(x)) for x in resampled])


def score_rows(stats: SegmentStats, options: BleuOptions, add_k: float | None = None) -> list[Score]:
    """One :class:`Score` per row of ``stats`` (rows are corpora or segments), in sacreBLEU's arithmetic.

    ``add_k``: the smoothing value as the caller gave it, which sacreBLEU adds to the counts it reports under
    add-k (so an int keeps them ints, as sacreBLEU's default 1 does); None: the options' value."""
    arrays = score_statistics(stats, options, scale=PERCENT)
    order = options.max_order
    matches = stats.matches[:, :order].tolist()
    totals = stats.totals[:, :order].tolist()
    rows = []
    for i in range(len(stats)):
        counts: list[int | float] = list(matches[i])
        sizes: list[int | float] = list(totals[i])
        if options.smooth == "add-k" and any(counts):
            # sacreBLEU adds k to the counts it reports, order by order from the second, and stops after the first
            # order whose total is then 0 (k = 0 with no n-grams of that order).
            k = options.smooth_amount if add_k is None else add_k
            for n in range(1, order):
                counts[n] += k
                sizes[n] += k
                if sizes[n] == 0:
                    break
        precisions = [float(p) for p in arrays.precisions[i]]
        sys_len, ref_len = int(stats.hyp_len[i]), int(stats.ref_len[i])
        bp = scalar_brevity_penalty(sys_len, ref_len)
        score = float(arrays.score[i])
        if options.uniform_weights:
            used = int(arrays.used_orders[i]) if options.effective_order else order
            score = scalar_score(precisions, bp, used) if any(matches[i]) else 0.0
        # (sacreBLEU's hint says int counts; under add-k its own counts are floats, as here)
        rows.append(Score(score, cast(list[int], counts), cast(list[int], sizes), precisions, bp, sys_len, ref_len))
    return rows


def bootstrap(stats: SegmentStats, options: BleuOptions, n_samples: int, seed: int) -> list[float]:
    """Scores of sacreBLEU's bootstrap resamples (``--confidence``, ``n_bootstrap``), to the last bit.

    The same draws as :func:`bleu_core.compare.resampling.bootstrap_scores`; each resample's precisions in float32
    (sacreBLEU's arithmetic for resamples), its score from them with sacreBLEU's own log and exp.
    """
    rng = np.random.default_rng(seed)
    drawn = rng.choice(len(stats), size=(n_samples, len(stats)), replace=True)
    sums = chunked_sums(drawn, statistic_columns(stats, options.max_order), True)
    return [float(x) for x in sacrebleu_scores(sums, options, np.float32)]


def corpus_score(stats: SegmentStats, options: BleuOptions, add_k: float | None = None) -> Score:
    """The corpus score of per-segment statistics (``add_k``: see :func:`score_rows`)."""
    return score_rows(stats.summed() if len(stats) != 1 else stats, options, add_k)[0]


def table_text(columns: dict[str, list[str]], format_name: str, width: int) -> str:
    """The multi-system table: ``fancy_grid`` for text, ``latex_booktabs`` for LaTeX (via tabulate)."""
    from tabulate import tabulate  # only for several systems; sacreBLEU depends on it anyway

    fmt = "fancy_grid" if format_name == "text" else "latex_booktabs"
    return str(
        tabulate(
            columns, headers="keys", tablefmt=fmt, colalign=("right",), stralign="center", numalign="center",
            floatfmt=f".{width}f",
        )
    )  # fmt: skip


def signature_block(signatures: dict[str, str]) -> str:
    """The closing block of a multi-system report."""
    lines = ["-----------------", "Metric signatures", "-----------------"]
    lines += [f" - {name:<10} {sig}" for name, sig in signatures.items()]
    return "\n".join(lines)


def paired_cell(score: float, p_value: float | None, mean: float | None, ci: float | None, width: int, sep: str) -> str:
    """One cell of a paired-test table: score, (mean ± ci) for bootstrap, then the p-value (``*`` if < 0.05)."""
    text = f"{score:.{width}f}"
    if mean is not None:
        text += f" ({mean:.{width}f} ± {ci:.{width}f})"
    if p_value is not None:
        mark = "" if p_value > 0.05 else "*"
        text += f"{sep}(p = {p_value:.4f}){mark}"
    return text


def paired_json(names: list[str], results: dict[str, list[dict[str, float | None]]]) -> str:
    """sacreBLEU's JSON list for a paired test: every system with each metric's score, p-value, mean and ci."""
    rows = [
        {"system": name, **{metric: values[i] for metric, values in results.items()}} for i, name in enumerate(names)
    ]
    return json.dumps(rows, indent=4)


def plain_json(names: list[str], columns: dict[str, list[str]]) -> str:
    """sacreBLEU's JSON list for several systems without a test: each metric's score as a printed string."""
    rows = [
        {"system": name, **{metric: scores[i] for metric, scores in columns.items()}} for i, name in enumerate(names)
    ]
    return json.dumps(rows, indent=4)


def paired_explanation(test: str, n_samples: int, baseline: str) -> str:
    """The notes sacreBLEU prints after a paired-test table (same words, so the same bytes)."""
    kind = "bootstrap resampling" if test == "bs" else "approximate randomization"
    unit = "resampling trials" if test == "bs" else "trials"
    title = f"Paired {kind} test with {n_samples} {unit}"
    rule = "-" * len(title)
    provided = (
        "   Actual system score / bootstrap estimated true mean / 95% CI are provided for each metric."
        if test == "bs"
        else "   Actual system score is provided for each metric."
    )
    lines = [
        rule,
        title,
        rule,
        f" - Each system is pairwise compared to {baseline}.",
        provided,
        "",
        " - Null hypothesis: the system and the baseline translations are essentially",
        "   generated by the same underlying process. For a given system and the baseline,",
        "   the p-value is roughly the probability of the absolute score difference (delta)",
        "   or higher occurring due to chance, under the assumption that the null hypothesis is correct.",
        "",
        " - Assuming a significance threshold of 0.05, the null hypothesis can be rejected",
        '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be attributed',
        '   to chance, hence the system is significantly "different" than the baseline.',
        "   Otherwise, the p-values are highlighted in red.",
        "",
        ' - NOTE: Significance does not tell whether a system is "better" than the baseline but rather',
        '   emphasizes the "difference" of the systems in terms of the replicability of the delta.',
        "",
    ]
    return "\n".join(lines)
