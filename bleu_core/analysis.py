"""Corpus analysis: why a corpus gets the BLEU it gets.

Everything here is computed from per-segment statistics (one row per segment), so it
agrees with :func:`bleu_core.corpus_bleu` by construction:

- the decomposition log BLEU = Σ w_n log p_n + log BP and which term costs the most;
- sentence BLEU, p_n and the leave-one-out effect of every segment;
- segments shorter than their reference and how much length each one costs;
- BLEU by reference-length bucket;
- the reference n-grams the system misses and the n-grams it over-generates;
- an input linter for the mistakes that make a corpus score meaningless.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from .api import BleuResult, result_from_statistics
from .options import BleuOptions
from .scoring import brevity_penalty, score_statistics
from .statistics import SegmentStats
from .tokenizers import tokenize_lines

FloatArray = NDArray[np.float64]
Progress = Callable[[float], None]

#: Reference-length bucket edges: 1-10, 11-20, 21-30, 31-40, 41-60, 61+ tokens.
LENGTH_EDGES = (10, 20, 30, 40, 60)


@dataclass(frozen=True, slots=True)
class Term:
    """One summand of log BLEU and what BLEU would be if it were perfect (p_n = 1 or BP = 1)."""

    name: str  # "p1" .. "pN" or "BP"
    weight: float  # w_n (1 for BP)
    value: float  # w_n · log p_n, or log BP; -inf when p_n = 0 unsmoothed
    bleu_if_perfect: float  # BLEU with this term set to 0, other terms unchanged


@dataclass(frozen=True, slots=True)
class ShortSegment:
    """A segment shorter than its reference, and the corpus BP if it alone had its reference's length."""

    index: int  # 0-based segment index
    hyp_len: int
    ref_len: int
    bp_if_fixed: float

    @property
    def shortfall(self) -> int:
        return self.ref_len - self.hyp_len


@dataclass(frozen=True, slots=True)
class CorpusAnalysis:
    """Corpus BLEU with its decomposition, diagnosis and per-segment views."""

    result: BleuResult
    stats: SegmentStats
    sentence_options: BleuOptions
    sentence: FloatArray  # sentence BLEU per segment in [0, 1]
    precisions: FloatArray  # (segments, N) raw p_n = matches / totals (NaN without n-grams)
    leave_one_out: FloatArray  # corpus BLEU minus corpus BLEU without the segment, in [0, 1] units
    terms: tuple[Term, ...]
    bleu_without_bp: float
    short_segments: tuple[ShortSegment, ...]  # all segments with c < r, most costly first
    n_short: int

    @property
    def costliest(self) -> Term:
        """The term that lowers log BLEU the most (−∞ first)."""
        return min(self.terms, key=lambda t: t.value)

    def diagnosis(self) -> tuple[str, ...]:
        """The findings in plain language, most important first."""
        r = self.result
        if r.sys_len == 0:
            return ("The hypothesis has no tokens at all, so BLEU is 0.",)
        if r.counts and r.counts[0] == 0:
            return ("No hypothesis unigram appears in any reference, so BLEU is 0 whatever the smoothing.",)
        worst = self.costliest
        lines = []
        if not math.isfinite(worst.value):
            lines.append(
                f"{worst.name} = 0: no {worst.name[1:]}-gram of the hypothesis is in a reference, so log "
                f"{worst.name} = −∞ and BLEU is 0. With {worst.name} = 1 it would be "
                f"{100 * worst.bleu_if_perfect:.2f}; a smoothing method avoids the zero."
            )
        elif worst.name == "BP":
            lines.append(
                f"Length costs the most: BP = {r.bp:.4f} (log BP = {worst.value:.3f}). The hypothesis has "
                f"{r.sys_len} tokens against {r.ref_len} reference tokens (c/r = {r.ratio:.3f}); with BP = 1, "
                f"BLEU would be {100 * worst.bleu_if_perfect:.2f} instead of {r.score_100:.2f}."
            )
        else:
            lines.append(
                f"{worst.name} costs the most: {worst.name} = {self.result.precisions[int(worst.name[1:]) - 1]:.4f}, "
                f"weighted log {worst.value:.3f}. If every {worst.name[1:]}-gram matched, BLEU would be "
                f"{100 * worst.bleu_if_perfect:.2f} instead of {r.score_100:.2f}."
            )
        if r.bp < 1.0 and worst.name != "BP":
            lines.append(
                f"The brevity penalty is {r.bp:.4f} (c = {r.sys_len} < r = {r.ref_len}); with BP = 1, "
                f"BLEU would be {100 * self.bleu_without_bp:.2f}."
            )
        elif r.bp == 1.0:
            lines.append(f"No brevity penalty: c = {r.sys_len} ≥ r = {r.ref_len} (c/r = {r.ratio:.3f}).")
        if self.n_short:
            top = ", ".join(f"#{s.index + 1} ({s.hyp_len} vs {s.ref_len})" for s in self.short_segments[:3])
            lines.append(
                f"{self.n_short} of {len(self.stats)} segments are shorter than their reference; "
                f"the most length is missing in {top}."
            )
        return tuple(lines)


def _safe_log(value: float) -> float:
    return math.log(value) if value > 0 else -math.inf


def _terms(result: BleuResult, arrays_log_terms: FloatArray, arrays_weights: FloatArray) -> tuple[Term, ...]:
    """Summands of log BLEU; ``bleu_if_perfect`` drops one term from the sum."""
    values = [float(v) for v in arrays_log_terms]
    names = [f"p{n}" for n in range(1, len(values) + 1)]
    weights = [float(w) for w in arrays_weights]
    used = [i for i, w in enumerate(weights) if w > 0]
    values = [values[i] for i in used] + [_safe_log(result.bp)]
    names = [names[i] for i in used] + ["BP"]
    weights = [weights[i] for i in used] + [1.0]
    terms = []
    for i, (name, weight, value) in enumerate(zip(names, weights, values, strict=True)):
        rest = sum(v for j, v in enumerate(values) if j != i)
        terms.append(Term(name, weight, value, math.exp(rest) if rest > -math.inf else 0.0))
    return tuple(terms)


def sentence_options(options: BleuOptions) -> BleuOptions:
    """Sentence BLEU settings: the corpus settings with effective order on (as sacreBLEU's sentence_score)."""
    return replace(options, effective_order=True)


def analyze_corpus(stats: SegmentStats, options: BleuOptions, n_refs: int) -> CorpusAnalysis:
    """Decompose corpus BLEU and score every segment, from per-segment statistics only."""
    result = result_from_statistics(stats, options, n_refs)
    total = stats.summed()
    corpus_arrays = score_statistics(total, options)
    sent_options = sentence_options(options)
    sentence = score_statistics(stats, sent_options).score
    order = options.max_order
    with np.errstate(divide="ignore", invalid="ignore"):
        precisions = np.where(
            stats.totals[:, :order] > 0, stats.matches[:, :order] / np.maximum(stats.totals[:, :order], 1), np.nan
        )
    if len(stats):
        without = SegmentStats(
            total.matches - stats.matches,
            total.totals - stats.totals,
            total.hyp_len - stats.hyp_len,
            total.ref_len - stats.ref_len,
        )
        leave_one_out = result.score - score_statistics(without, options).score
    else:
        leave_one_out = np.zeros(0)
    terms = _terms(result, corpus_arrays.log_terms[0], corpus_arrays.weights[0])
    bleu_without_bp = next(t.bleu_if_perfect for t in terms if t.name == "BP")
    short = np.flatnonzero(stats.hyp_len < stats.ref_len)
    c, r = int(total.hyp_len[0]), int(total.ref_len[0])
    fixed_c = c + (stats.ref_len[short] - stats.hyp_len[short])
    bp_fixed = brevity_penalty(fixed_c, np.full_like(fixed_c, r))
    ranking = np.lexsort((short, -(stats.ref_len[short] - stats.hyp_len[short])))
    short_segments = tuple(
        ShortSegment(int(short[i]), int(stats.hyp_len[short[i]]), int(stats.ref_len[short[i]]), float(bp_fixed[i]))
        for i in ranking
    )
    return CorpusAnalysis(
        result=result,
        stats=stats,
        sentence_options=sent_options,
        sentence=sentence,
        precisions=precisions,
        leave_one_out=leave_one_out,
        terms=terms,
        bleu_without_bp=bleu_without_bp,
        short_segments=short_segments,
        n_short=int(short.size),
    )


@dataclass(frozen=True, slots=True)
class LengthBucket:
    """Segments whose (closest) reference length falls in [low, high]."""

    label: str
    low: int
    high: int | None
    segments: int
    mean_sentence_bleu: float
    corpus_bleu: float
    hyp_len: int
    ref_len: int


def length_buckets(
    stats: SegmentStats, sentence: FloatArray, options: BleuOptions, edges: Sequence[int] = LENGTH_EDGES
) -> tuple[LengthBucket, ...]:
    """BLEU by reference-length bucket: mean sentence BLEU and the corpus BLEU of the bucket's segments."""
    bounds = [0, *edges]
    buckets = []
    for i, low in enumerate(bounds):
        high = bounds[i + 1] if i + 1 < len(bounds) else None
        inside = (stats.ref_len > low) & (stats.ref_len <= high if high is not None else True)
        if low == 0:
            inside |= stats.ref_len == 0
        index = np.flatnonzero(inside)
        if not index.size:
            continue
        part = stats.take(index)
        label = f"{low + 1}–{high}" if high is not None else f"{low + 1}+"
        corpus = float(score_statistics(part.summed(), options).score[0])
        buckets.append(
            LengthBucket(
                label,
                low + 1,
                high,
                int(index.size),
                float(sentence[index].mean()),
                corpus,
                int(part.hyp_len.sum()),
                int(part.ref_len.sum()),
            )
        )
    return tuple(buckets)


@dataclass(frozen=True, slots=True)
class NgramTally:
    """An n-gram summed over the corpus: how often it was missed or over-generated, and in how many segments."""

    order: int
    ngram: str
    count: int
    segments: int


@dataclass(frozen=True, slots=True)
class NgramTallies:
    """Per order, the most-missed reference n-grams and the most over-generated hypothesis n-grams."""

    missed: tuple[tuple[NgramTally, ...], ...]  # [order - 1] -> most missed first
    overgenerated: tuple[tuple[NgramTally, ...], ...]


def ngram_tallies(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    options: BleuOptions,
    top: int = 25,
    progress: Progress | None = None,
) -> NgramTallies:
    """Missed: reference n-grams beyond what the hypothesis produced (max over references − hypothesis count).

    Over-generated: hypothesis occurrences clipping removed (hypothesis count − clipped count), including
    n-grams in no reference.  Counts are summed over segments.
    """
    hyp_tokens = tokenize_lines(list(hypotheses), options.tokenize, options.lowercase)
    ref_tokens = [
        tokenize_lines([line or "" for line in stream], options.tokenize, options.lowercase) for stream in references
    ]
    order = options.max_order
    missed: list[Counter[tuple[str, ...]]] = [Counter() for _ in range(order)]
    missed_segments: list[Counter[tuple[str, ...]]] = [Counter() for _ in range(order)]
    over: list[Counter[tuple[str, ...]]] = [Counter() for _ in range(order)]
    over_segments: list[Counter[tuple[str, ...]]] = [Counter() for _ in range(order)]
    step = max(1, len(hyp_tokens) // 50)
    for i, tokens in enumerate(hyp_tokens):
        refs = [stream[i] for stream, raw in zip(ref_tokens, references, strict=True) if raw[i] is not None]
        for n in range(1, order + 1):
            hyp_counts = Counter(zip(*(tokens[k:] for k in range(n)), strict=False))
            ref_max: Counter[tuple[str, ...]] = Counter()
            for ref in refs:
                ref_max |= Counter(zip(*(ref[k:] for k in range(n)), strict=False))
            for gram, count in hyp_counts.items():
                extra = count - min(count, ref_max[gram])
                if extra:
                    over[n - 1][gram] += extra
                    over_segments[n - 1][gram] += 1
            for gram, count in ref_max.items():
                lack = count - hyp_counts[gram]
                if lack > 0:
                    missed[n - 1][gram] += lack
                    missed_segments[n - 1][gram] += 1
        if progress is not None and i % step == 0:
            progress(i / max(len(hyp_tokens), 1))

    def ranked(counts: Counter[tuple[str, ...]], segments: Counter[tuple[str, ...]], n: int) -> tuple[NgramTally, ...]:
        best = sorted(counts.items(), key=lambda item: (-item[1], -segments[item[0]], item[0]))[:top]
        return tuple(NgramTally(n, " ".join(gram), count, segments[gram]) for gram, count in best)

    if progress is not None:
        progress(1.0)
    return NgramTallies(
        missed=tuple(ranked(missed[n], missed_segments[n], n + 1) for n in range(order)),
        overgenerated=tuple(ranked(over[n], over_segments[n], n + 1) for n in range(order)),
    )


@dataclass(frozen=True, slots=True)
class LintFinding:
    """Something about the input files a user should know before trusting the score."""

    level: str  # "error": cannot score; "warning": the score is probably misleading; "info"
    code: str
    message: str


#: Lines the tokenization check looks at (the start of a file is enough to tell).
LINT_SAMPLE = 5_000
_TOKENIZED = re.compile(r"\s[.,!?;:](\s|$)|\s(?:'s|n't|'re|'ll)\b|&quot;|&amp;|@-@|\s-\s?$")


def _is_cjk(char: str) -> bool:
    code = ord(char)
    return (
        0x4E00 <= code <= 0x9FFF
        or 0x3400 <= code <= 0x4DBF
        or 0x3040 <= code <= 0x30FF
        or 0xF900 <= code <= 0xFAFF
        or 0x20000 <= code <= 0x2FA1F
    )


def _has_invisible(line: str) -> bool:
    """Control or format characters other than tab (zero-width, BOM, direction marks, ...)."""
    return any(ch != "\t" and unicodedata.category(ch) in ("Cc", "Cf") for ch in line)


def _count(n: int, noun: str = "line") -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _where(numbers: Sequence[int], limit: int = 5) -> str:
    shown = ", ".join(str(n) for n in numbers[:limit])
    return f"line{'s' if len(numbers) > 1 else ''} {shown}{' …' if len(numbers) > limit else ''}"


def _cjk_share(lines: Sequence[str], sample: int = 500) -> tuple[float, bool]:
    """Share of CJK characters among the non-space characters of the first lines, and whether kana occur."""
    text = "".join(lines[:sample])[:100_000]
    letters = [ch for ch in text if not ch.isspace()]
    if not letters:
        return 0.0, False
    cjk = [ch for ch in letters if _is_cjk(ch)]
    kana = any(0x3040 <= ord(ch) <= 0x30FF for ch in cjk)
    return len(cjk) / len(letters), kana


def lint_corpus(
    hypothesis: tuple[str, Sequence[str]], references: Sequence[tuple[str, Sequence[str]]], tokenize: str
) -> tuple[LintFinding, ...]:
    """Check a hypothesis file and its reference files; errors first.  Never raises on text content."""
    findings: list[LintFinding] = []
    hyp_name, hyp_lines = hypothesis
    if not references:
        findings.append(LintFinding("error", "no-references", "Add at least one reference file."))
    for name, lines in references:
        if len(lines) != len(hyp_lines):
            findings.append(
                LintFinding(
                    "error",
                    "line-count",
                    f"{name} has {_count(len(lines))} but the hypothesis {hyp_name} has {_count(len(hyp_lines))}. "
                    "Each reference line must translate the hypothesis line with the same number: check that "
                    "both files come from the same test set and that no line was added or lost.",
                )
            )
    if not hyp_lines:
        findings.append(LintFinding("error", "empty", f"{hyp_name} has no lines."))
    for name, lines in [hypothesis, *references]:
        empty = [i + 1 for i, line in enumerate(lines) if not line.strip()]
        if empty and len(empty) < len(lines):
            role = "hypothesis" if name == hyp_name else "reference"
            effect = (
                "each scores 0 and adds nothing to c"
                if role == "hypothesis"
                else "an empty reference has length 0 and matches nothing"
            )
            findings.append(
                LintFinding(
                    "warning",
                    "empty-lines",
                    f"{name} has {len(empty)} empty line{'s' if len(empty) > 1 else ''} ({_where(empty)}); {effect}.",
                )
            )
        elif lines and len(empty) == len(lines):
            findings.append(LintFinding("error", "all-empty", f"{name} has only empty lines."))
    for name, lines in [hypothesis, *references]:
        sample = lines[:LINT_SAMPLE]
        nonempty = sum(1 for line in sample if line.strip())
        tokenized = [i + 1 for i, line in enumerate(sample) if line.strip() and _TOKENIZED.search(line.rstrip())]
        if nonempty and len(tokenized) >= max(1, 0.3 * nonempty) and tokenize != "none":
            of = f"{len(tokenized)} of {nonempty}" + (" checked" if len(lines) > LINT_SAMPLE else "")
            findings.append(
                LintFinding(
                    "warning",
                    "tokenized",
                    f"{name} looks already tokenized: {of} lines have punctuation or "
                    f"clitics split off by spaces (e.g. {_where(tokenized, 3)}). BLEU's tokenizer expects plain "
                    "(detokenized) text; scoring tokenized text usually inflates BLEU and is not comparable with "
                    "published scores. Detokenize both sides, or knowingly choose the whitespace tokenizer.",
                )
            )
    if tokenize in ("13a", "intl", "none"):
        for name, lines in [hypothesis, *references]:
            share, kana = _cjk_share(lines)
            if share >= 0.3:
                advice = "char (Japanese)" if kana else "zh (Chinese)"
                findings.append(
                    LintFinding(
                        "warning",
                        "cjk",
                        f"{name} is {100 * share:.0f}% Chinese/Japanese characters, but the {tokenize} tokenizer "
                        "splits only at spaces and punctuation, so whole phrases become single tokens and BLEU "
                        f"collapses. Use the {advice} tokenizer.",
                    )
                )
                break
    for name, lines in [hypothesis, *references]:
        padded = [i + 1 for i, line in enumerate(lines) if line.strip() and line != line.strip()]
        if padded:
            findings.append(
                LintFinding(
                    "info",
                    "whitespace",
                    f"{name} has leading or trailing whitespace on {len(padded)} line"
                    f"{'s' if len(padded) > 1 else ''} ({_where(padded)}); the tokenizers ignore it.",
                )
            )
    for name, lines in references:
        if hyp_lines and list(lines) == list(hyp_lines):
            findings.append(
                LintFinding(
                    "warning",
                    "identical",
                    f"The hypothesis {hyp_name} is identical to the reference {name}, so BLEU is 100. "
                    "Did you upload the same file twice?",
                )
            )
    controls = [i + 1 for i, line in enumerate(hyp_lines) if not line.isprintable() and _has_invisible(line)]
    if controls:
        findings.append(
            LintFinding(
                "info",
                "invisible",
                f"{hyp_name} has invisible control or format characters (zero-width, BOM, direction marks) on "
                f"{len(controls)} line{'s' if len(controls) > 1 else ''} ({_where(controls)}); they are part of "
                "the tokens and can prevent matches.",
            )
        )
    rank = {"error": 0, "warning": 1, "info": 2}
    return tuple(sorted(findings, key=lambda f: rank[f.level]))


@dataclass(frozen=True, slots=True)
class NgramContrast:
    """An n-gram whose clipped matches in one system differ from the other systems' average."""

    order: int
    ngram: str
    matches: int  # clipped matches of this system, summed over segments
    others: float  # mean clipped matches of the other systems

    @property
    def difference(self) -> float:
        return self.matches - self.others


def characteristic_ngrams(
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str | None]],
    options: BleuOptions,
    top: int = 15,
    progress: Progress | None = None,
) -> dict[str, tuple[tuple[NgramContrast, ...], tuple[NgramContrast, ...]]]:
    """Per system: the n-grams it matches in the references more often than the others (first tuple),
    and those it matches less often (second tuple).  A match is a clipped count, as in BLEU itself."""
    names = list(systems)
    ref_tokens = [
        tokenize_lines([line or "" for line in stream], options.tokenize, options.lowercase) for stream in references
    ]
    n_segments = len(references[0]) if references else 0
    ref_max: list[list[Counter[tuple[str, ...]]]] = []
    for i in range(n_segments):
        refs = [stream[i] for stream, raw in zip(ref_tokens, references, strict=True) if raw[i] is not None]
        per_order = []
        for n in range(1, options.max_order + 1):
            best: Counter[tuple[str, ...]] = Counter()
            for ref in refs:
                best |= Counter(zip(*(ref[k:] for k in range(n)), strict=False))
            per_order.append(best)
        ref_max.append(per_order)
    matched: dict[str, Counter[tuple[str, ...]]] = {}
    for done, name in enumerate(names):
        counts: Counter[tuple[str, ...]] = Counter()
        for i, tokens in enumerate(tokenize_lines(list(systems[name]), options.tokenize, options.lowercase)):
            for n in range(1, options.max_order + 1):
                best = ref_max[i][n - 1]
                for gram, count in Counter(zip(*(tokens[k:] for k in range(n)), strict=False)).items():
                    hit = min(count, best[gram])
                    if hit:
                        counts[gram] += hit
        matched[name] = counts
        if progress is not None:
            progress((done + 1) / len(names))
    result = {}
    for name in names:
        others = [matched[o] for o in names if o != name]
        grams = set(matched[name]).union(*others)
        contrasts = [
            NgramContrast(
                len(g), " ".join(g), matched[name][g], sum(o[g] for o in others) / len(others) if others else 0.0
            )
            for g in grams
        ]
        contrasts.sort(key=lambda c: (-c.difference, -c.order, c.ngram))
        more = tuple(c for c in contrasts[:top] if c.difference > 0)
        less = tuple(c for c in reversed(contrasts[-top:]) if c.difference < 0)
        result[name] = (more, less)
    return result
