"""chrF and chrF++ (Popović 2015, 2017) as sacreBLEU 2.6 computes them: text -> per-segment statistics -> score.

Statistics are an int64 array with one row per segment and three columns per order, character orders
1..``char_order`` first, then word orders 1..``word_order``::

    column 3*i + HYP     n-grams of the (i+1)-th order in the hypothesis (0 when the chosen reference has none)
    column 3*i + REF     n-grams of that order in the chosen reference
    column 3*i + MATCH   sum over those n-grams of min(hypothesis count, reference count)

Like BLEU's, a corpus score is the score of the column sums: ``chrf_score(stats, options)``.  With several
references a segment keeps the statistics of its best reference: the first one with the highest F-score, the
score computed by the same rule as the corpus score (so the choice depends on ``eps_smoothing``).

Counting is vectorized over a chunk of segments, for several systems at once: one sort of packed integer keys
gives every order's counts in both texts of every (hypothesis, reference) pair (:func:`packed_matches`; n-grams
numbered order by order when a key would not fit).  Below ``VECTOR_MIN_SEGMENTS`` (a sentence score) one
``Counter`` per text and order is quicker, and is used instead.  Timings are in docs/benchmarks.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, count

import numpy as np
from numpy.typing import NDArray

from bleu_core.stats.segment_stats import check_segments

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

#: Offsets of the three statistics within an order's columns.
HYP, REF, MATCH = 0, 1, 2
#: The stand-in for an undefined precision, recall or F-score under ``eps_smoothing`` (chrF++.py's value).
EPSILON = 1e-16
#: Hypotheses counted together (a chunk's segments times its systems); bounds the working memory on large corpora.
CHUNK_SEGMENTS = 4_000
#: Fewer segments than this are counted with one ``Counter`` per text and order (a sentence score), more at once;
#: measured on WMT22 de-en chrF++, the two ways cross between 5 and 10 segments.
VECTOR_MIN_SEGMENTS = 8
#: Bits of the packed n-gram keys (``packed_matches``): a larger pair or alphabet falls back to ``numbered_matches``.
KEY_BITS = 63
#: What sacreBLEU's chrF++ splits off the start or end of a word: ASCII punctuation only.
PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


@dataclass(frozen=True, slots=True)
class ChrfOptions:
    """Every chrF setting, checked once (sacreBLEU's defaults: chrF2 over character 1- to 6-grams)."""

    char_order: int = 6
    word_order: int = 0
    beta: float = 2
    lowercase: bool = False
    whitespace: bool = False
    eps_smoothing: bool = False

    def __post_init__(self) -> None:
        if self.char_order < 0 or self.word_order < 0:
            raise ValueError(
                f"n-gram orders must be non-negative; got char_order={self.char_order}, word_order={self.word_order}"
            )
        if self.orders == 0:
            raise ValueError("chrF needs at least one n-gram order; set char_order or word_order to 1 or more")

    @property
    def orders(self) -> int:
        """Character orders and word orders together."""
        return self.char_order + self.word_order

    @property
    def columns(self) -> int:
        """Columns of a statistics row: three per order."""
        return 3 * self.orders


# ---------------------------------------------------------------------------------------------
# Text -> n-gram counts


def word_pieces(word: str) -> tuple[str, ...]:
    """chrF++'s words from one whitespace-separated word: one ASCII punctuation mark split off its end, else off its
    start (so ``"(hi)"`` gives ``"(hi"`` and ``")"``, as in sacreBLEU); a one-character word stays whole."""
    if len(word) > 1 and word[-1] in PUNCTUATION:
        return word[:-1], word[-1]
    if len(word) > 1 and word[0] in PUNCTUATION:
        return word[0], word[1:]
    return (word,)


def split_words(text: str) -> list[str]:
    """chrF++'s words of a text: :func:`word_pieces` of each whitespace-separated word."""
    return list(chain.from_iterable(map(word_pieces, text.split())))


# ---------------------------------------------------------------------------------------------
# Statistics -> score


def chrf_scores(stats: IntArray | FloatArray, options: ChrfOptions) -> FloatArray:
    """chrF on a 0-100 scale for each row of ``stats`` (a single row gives a 0-d array).

    With P_n = matches / hyp and R_n = matches / ref, and F(P, R) = (1 + β²) P R / (β² P + R):
    by default, F of the precisions and recalls averaged over the orders in which both sides have n-grams
    (0 if none); with ``eps_smoothing``, the mean over all orders of F(P_n, R_n), an undefined P_n, R_n or
    F_n counting as 1e-16.  Orders are summed one after another, as sacreBLEU does, to the last bit.  float32
    statistics (resamples) are scored in float32; sacreBLEU's exact mix of float32 and Python floats in resamples
    is :meth:`bleu_core.compare.metrics.ChrfMetric.scores`'s (with eps smoothing it differs from float32 alone).
    """
    table = np.asarray(stats)
    real = np.float32 if table.dtype == np.float32 else np.float64
    factor = options.beta**2
    shape = table.shape[:-1]
    orders = table.reshape(*shape, options.orders, 3)  # [..., order, HYP / REF / MATCH]
    hyp, ref, match = orders[..., HYP], orders[..., REF], orders[..., MATCH]
    prec = np.divide(match, hyp, out=np.full(hyp.shape, EPSILON, dtype=real), where=hyp > 0)
    rec = np.divide(match, ref, out=np.full(hyp.shape, EPSILON, dtype=real), where=ref > 0)
    denom = factor * prec + rec
    f = np.divide((1 + factor) * prec * rec, denom, out=np.full(hyp.shape, EPSILON, dtype=real), where=denom > 0)
    both = (hyp > 0) & (ref > 0)
    if options.eps_smoothing:
        return np.asarray(100 * _sum_in_order(f, real) / options.orders)
    used = both.sum(axis=-1).astype(real)
    some = used > 0
    prec_total = _sum_in_order(np.where(both, prec, real(0)), real)
    rec_total = _sum_in_order(np.where(both, rec, real(0)), real)
    avg_prec = np.divide(prec_total, used, out=np.zeros(shape, dtype=real), where=some)
    avg_rec = np.divide(rec_total, used, out=np.zeros(shape, dtype=real), where=some)
    numerator = (1 + factor) * avg_prec * avg_rec
    denominator = factor * avg_prec + avg_rec
    safe = avg_prec + avg_rec != 0
    return np.asarray(100 * np.divide(numerator, denominator, out=np.zeros(shape, dtype=real), where=safe))


def _sum_in_order(values: FloatArray, real: type[np.floating]) -> FloatArray:
    """Sums over the last axis, first order first (``numpy.sum`` adds in another order, which changes the last bit)."""
    total = np.zeros(values.shape[:-1], dtype=real)
    for i in range(values.shape[-1]):
        total = total + values[..., i]
    return total


def chrf_score(stats: IntArray, options: ChrfOptions) -> float:
    """The chrF of summed statistics (one row, or every segment's row summed first): a corpus score."""
    summed = stats.sum(axis=0) if stats.ndim == 2 else stats
    return float(chrf_scores(summed, options))


def corpus_and_segment_scores(stats: IntArray, options: ChrfOptions) -> tuple[float, FloatArray]:
    """From one count: the corpus chrF and each segment's sentence chrF (0-100, its best reference's)."""
    return chrf_score(stats, options), np.atleast_1d(chrf_scores(stats, options))


# ---------------------------------------------------------------------------------------------
# Text -> statistics


@dataclass(frozen=True, slots=True)
class ChrfReferences:
    """Reference lines checked once for many hypotheses: per segment, its present references (lowercased if the
    options say so), and each as chrF counts it: its characters (without whitespace unless the options keep it)
    and its words joined by single spaces.  Their n-grams are counted again with each corpus of hypotheses."""

    lines: tuple[tuple[str, ...], ...]
    n_refs: int  # references per segment, -1 when segments have different numbers (sacreBLEU's ``var``)
    chars: tuple[tuple[str, ...], ...]
    words: tuple[tuple[str, ...], ...]  # empty strings when the options count no word n-grams


def prepare_references(streams: Sequence[Sequence[str | None]], options: ChrfOptions) -> ChrfReferences:
    """Reference streams (one per reference, each with one line per segment; ``None`` = missing) per segment."""
    lines = tuple(
        tuple(line.lower() if options.lowercase else line for line in segment if line is not None)
        for segment in zip(*streams, strict=True)
    )
    sizes = {len(segment) for segment in lines}
    chars = lines if options.whitespace else tuple(tuple("".join(ref.split()) for ref in refs) for refs in lines)
    words = tuple(tuple(" ".join(split_words(ref)) if options.word_order else "" for ref in refs) for refs in lines)
    return ChrfReferences(lines, sizes.pop() if len(sizes) == 1 else -1, chars, words)


def best_rows(rows: IntArray, segments: IntArray, options: ChrfOptions) -> IntArray:
    """Of the rows of each segment (``segments``: each row's segment, ascending), the first with the highest chrF."""
    scores = chrf_scores(rows, options)
    order = np.lexsort((np.arange(len(rows)), -scores, segments))
    first = np.ones(len(order), dtype=bool)
    first[1:] = segments[order][1:] != segments[order][:-1]
    return rows[order[first]]


def segment_statistics(hypotheses: Sequence[str], references: ChrfReferences, options: ChrfOptions) -> IntArray:
    """The statistics array (segments x ``options.columns``) of ``hypotheses`` against prepared references."""
    return systems_statistics([hypotheses], references, options)[0]


def systems_statistics(systems: Sequence[Sequence[str]], refs: ChrfReferences, options: ChrfOptions) -> list[IntArray]:
    """Each system's :func:`segment_statistics`; the references, and words the systems share, are split once."""
    for hypotheses in systems:
        check_segments(len(hypotheses), refs.lines)
    hyps = [[hyp.lower() for hyp in h] if options.lowercase else list(h) for h in systems]
    chunks: list[list[IntArray]] = [[np.zeros((0, options.columns), dtype=np.int64)] for _ in systems]
    step = max(CHUNK_SEGMENTS // max(len(systems), 1), VECTOR_MIN_SEGMENTS)
    for start in range(0, len(refs.lines), step):
        part = slice(start, start + step)
        size = len(refs.lines[part])
        if size >= VECTOR_MIN_SEGMENTS:
            counted = pair_rows([h[part] for h in hyps], refs.chars[part], refs.words[part], options)
        else:
            counted = [plain_rows(h[part], refs.lines[part], options) for h in hyps]
        for out, (rows, segments) in zip(chunks, counted, strict=True):
            out.append(rows if len(rows) == len(segments) == size else best_rows(rows, segments, options))
    return [np.concatenate(out) for out in chunks]


def chrf_statistics(
    hypotheses: Sequence[str], streams: Sequence[Sequence[str | None]], options: ChrfOptions
) -> IntArray:
    """The statistics array of ``hypotheses`` against reference streams used once."""
    return segment_statistics(hypotheses, prepare_references(streams, options), options)


# ---------------------------------------------------------------------------------------------
# Counting a few segments: one Counter per text and order (the rule at its plainest)


def ngram_counts(text: str, options: ChrfOptions) -> list[Counter[Hashable]]:
    """One counter per order: character n-grams (whitespace removed unless ``options.whitespace``), then word
    n-grams (as tuples of :func:`split_words`).  ``text`` is already lowercased if the options say so."""
    chars = text if options.whitespace else "".join(text.split())
    counts: list[Counter[Hashable]] = [
        Counter([chars[i : i + n] for i in range(len(chars) - n + 1)]) for n in range(1, options.char_order + 1)
    ]
    if options.word_order:
        words = split_words(text)
        counts += [
            Counter([tuple(words[i : i + n]) for i in range(len(words) - n + 1)])
            for n in range(1, options.word_order + 1)
        ]
    return counts


def match_row(hypothesis: Sequence[Counter[Hashable]], reference: Sequence[Counter[Hashable]]) -> list[int]:
    """The statistics of a hypothesis against one reference: per order [hyp count, ref count, matches]; the
    hypothesis count is 0 for an order in which the reference has no n-gram."""
    row: list[int] = []
    for hyp, ref in zip(hypothesis, reference, strict=True):
        matches = 0
        if ref:
            for gram, count in hyp.items():
                held = ref.get(gram)
                if held is not None:
                    matches += count if count < held else held
        row += (sum(hyp.values()) if ref else 0, sum(ref.values()), matches)
    return row


def plain_rows(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]], options: ChrfOptions
) -> tuple[IntArray, IntArray]:
    """:func:`pair_rows` with ``Counter`` objects: quicker for a handful of segments."""
    rows: list[list[int]] = []
    segments: list[int] = []
    for segment, (hypothesis, refs) in enumerate(zip(hypotheses, references, strict=True)):
        hyp = ngram_counts(hypothesis, options)
        rows += (match_row(hyp, ngram_counts(ref, options)) for ref in refs)
        segments += [segment] * len(refs)
    return np.asarray(rows, dtype=np.int64).reshape(len(rows), options.columns), np.asarray(segments, dtype=np.int64)


# ---------------------------------------------------------------------------------------------
# Counting, every segment of a chunk at once


def char_ids(texts: Sequence[str]) -> tuple[IntArray, IntArray, int]:
    """Every character of ``texts`` as a dense id (equal characters, equal ids), each text's length, and the
    number of distinct characters (ids are ranks in a table of the code points up to the highest one: no sort)."""
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    codes = np.frombuffer("".join(texts).encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    present = np.zeros(int(codes.max(initial=0)) + 1, dtype=np.int64)
    present[codes] = 1
    rank = np.cumsum(present)
    return rank[codes] - 1, lengths, max(int(rank[-1]), 1)


def word_ids(to_split: Sequence[str], split: Sequence[str]) -> tuple[IntArray, IntArray, int]:
    """Every word of the texts ``to_split`` (as :func:`split_words` gives them), then of the texts ``split``
    (already split: their whitespace-separated words), as an id (equal words, equal ids), each text's number of
    words, and a bound above every id.  Each distinct word of ``to_split`` is split once, not each occurrence."""
    ids: dict[str, int] = {}
    units = count()
    tokens = [text.split() for text in to_split]
    flat = list(chain.from_iterable(tokens))
    seen: dict[str, int] = {}  # each distinct word, in order: the place of its first occurrence
    dense = np.unique(np.fromiter(map(seen.setdefault, flat, count()), dtype=np.int64), return_inverse=True)[1]
    pieces = list(map(word_pieces, seen))
    halves = np.full((len(pieces), 2), -1, dtype=np.int64)  # each distinct word's one or two pieces
    halves[:, 0] = _lookup(ids, [p[0] for p in pieces], units)
    two = [i for i, p in enumerate(pieces) if len(p) == 2]
    halves[two, 1] = _lookup(ids, [pieces[i][1] for i in two], units)
    pieces_of = halves[dense]
    held = pieces_of >= 0
    before = np.concatenate(([0], np.cumsum(held.sum(axis=1))))
    ends = np.cumsum(np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens)))  # each text's last word
    ready_tokens = [text.split() for text in split]
    ready_lengths = np.fromiter(map(len, ready_tokens), dtype=np.int64, count=len(split))
    return (
        np.concatenate((pieces_of[held], _lookup(ids, list(chain.from_iterable(ready_tokens)), units))),
        np.concatenate((np.diff(before[ends], prepend=0), ready_lengths)),
        max(next(units), 1),
    )


def _lookup(ids: dict[str, int], words: list[str], units: Iterator[int]) -> IntArray:
    """The ids of ``words``, a new word taking the next of ``units`` (one map in C; known words skip a number)."""
    return np.fromiter(map(ids.setdefault, words, units), dtype=np.int64, count=len(words))


def _positions(texts: IntArray, lengths: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """For each pair ``i`` and each unit of its text ``texts[i]``: the pair, the unit's position, its text's end."""
    ends = np.cumsum(lengths)
    sizes = lengths[texts]
    owner = np.repeat(np.arange(len(texts)), sizes)
    offset = np.arange(len(owner)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    return owner, (ends - lengths)[texts][owner] + offset, ends[texts][owner]


def numbered_matches(
    ids: IntArray, lengths: IntArray, bound: int, max_order: int, hyp_text: IntArray, ref_text: IntArray
) -> list[IntArray]:
    """Per order 1..``max_order``: for each (hypothesis text, reference text) pair, the sum over n-grams of
    min(count in the hypothesis, count in the reference).

    The n-grams of both texts of a pair are numbered together, densely, order n from order n-1 and the next unit
    (so keys never overflow).  An n-gram that one text of its pair lacks matches nothing, and neither does any
    longer n-gram that starts with it: its positions are dropped before the next order."""
    hyp, ref = _positions(hyp_text, lengths), _positions(ref_text, lengths)
    gram, at, end = (np.concatenate(parts) for parts in zip(hyp, ref, strict=True))
    is_ref = np.arange(len(at)) >= len(hyp[0])
    pair_of = np.arange(len(hyp_text))
    matches = []
    for n in range(1, max_order + 1):
        keys, gram = np.unique(gram * bound + ids[at + n - 1], return_inverse=True)
        pair_of = pair_of[keys // bound]
        in_hyp = np.bincount(gram[~is_ref], minlength=len(keys))
        in_ref = np.bincount(gram[is_ref], minlength=len(keys))
        matches.append(np.bincount(pair_of, weights=np.minimum(in_hyp, in_ref), minlength=len(hyp_text)))
        keep = ((in_hyp > 0) & (in_ref > 0))[gram] & (at + n < end)
        gram, at, end, is_ref = gram[keep], at[keep], end[keep], is_ref[keep]
    return [match.astype(np.int64) for match in matches]


def packed_matches(
    ids: IntArray, lengths: IntArray, bound: int, max_order: int, hyp_text: IntArray, ref_text: IntArray
) -> list[IntArray] | None:
    """What :func:`numbered_matches` returns, or ``None`` when a position's key would not fit in an int64.

    A position's key packs its pair, the ``max_order`` units from it (numbered from 1 within the chunk, or within
    the pair when there are too many; 0 past its text's end) and, lowest, its side.  Sorted once, keys give every
    order: an n-gram is a key's leading bits, so a run of equal leading bits is an n-gram, and the run's reference
    keys and other keys are its counts in the two texts.  Gain over :func:`numbered_matches`: docs/benchmarks.md."""
    packed = _packed_keys(ids, lengths, bound, max_order, hyp_text, ref_text)
    if packed is None:
        return None
    key, bits = packed
    from_ref = key & 1
    refs_before = np.cumsum(from_ref) - from_ref
    refs_total = int(from_ref.sum())
    change = key[1:] ^ key[:-1]  # its highest bit: where two neighbours first differ
    pairs = np.searchsorted(key, np.arange(len(hyp_text) + 1) << (bits * max_order + 1))
    matches = []
    for n in range(1, max_order + 1):
        shift = 1 + bits * (max_order - n)
        starts = np.concatenate(([0], np.flatnonzero(change >= 1 << shift) + 1)) if len(key) else pairs[:0]
        in_ref = np.diff(refs_before[starts], append=refs_total)
        held = np.minimum(np.diff(starts, append=len(key)) - in_ref, in_ref)
        held[(key[starts] >> shift) & ((1 << bits) - 1) == 0] = 0  # the n-gram runs past its text's end
        total = np.concatenate(([0], np.cumsum(held)))
        edges = np.searchsorted(starts, pairs)
        matches.append(total[edges[1:]] - total[edges[:-1]])
    return matches


def _packed_keys(
    ids: IntArray, lengths: IntArray, bound: int, max_order: int, hyp_text: IntArray, ref_text: IntArray
) -> tuple[IntArray, int] | None:
    """:func:`packed_matches`'s keys, sorted, and the bits of one unit (``None`` when a key would not fit)."""
    hyp, ref = _positions(hyp_text, lengths), _positions(ref_text, lengths)
    pair, at, end = (np.concatenate(parts) for parts in zip(hyp, ref, strict=True))
    local, bits = ids[at] + 1, max(bound, 1).bit_length()
    room = KEY_BITS - 1 - len(hyp_text).bit_length()
    if bits * max_order > room:  # many distinct units: renumber them within each pair
        code = pair * bound + ids[at]
        alphabet, rank = np.unique(code, return_inverse=True)
        first = np.searchsorted(alphabet, np.arange(len(hyp_text) + 1) * bound)
        bits = int(np.diff(first).max(initial=1)).bit_length()
        if bits * max_order > room:
            return None
        local = rank - first[pair] + 1
    units_after, key = end - at - 1, pair.copy()
    for j in range(max_order):
        key <<= bits
        reach = max(len(key) - j, 0)
        key[:reach] |= local[j:] * (units_after[:reach] >= j)
    key <<= 1
    key[len(hyp[0]) :] |= 1
    key.sort()
    return key, bits


def pair_rows(
    systems: Sequence[Sequence[str]],
    chars: Sequence[Sequence[str]],
    words: Sequence[Sequence[str]],
    options: ChrfOptions,
) -> list[tuple[IntArray, IntArray]]:
    """For each system, the statistics of every (segment, reference) pair and each row's segment, from its
    hypotheses (already lowercased) and the references' prepared characters and words (:class:`ChrfReferences`).
    Units are numbered once for all systems and the references; then each system's pairs are matched."""
    n_refs = np.fromiter(map(len, chars), dtype=np.int64, count=len(chars))
    segments = np.repeat(np.arange(len(chars)), n_refs)
    ref_text = len(chars) * len(systems) + np.arange(len(segments))
    tables = [np.zeros((len(segments), options.columns), dtype=np.int64) for _ in systems]
    hyps = list(chain.from_iterable(systems))
    column = 0
    for of_words, (orders, prepared) in enumerate(((options.char_order, chars), (options.word_order, words))):
        if not orders:
            continue  # chrF's words are not even split
        refs = list(chain.from_iterable(prepared))  # ids of every system's hypotheses, then of the references
        texts = hyps if of_words or options.whitespace else list(map("".join, map(str.split, hyps)))
        ids, lengths, bound = word_ids(hyps, refs) if of_words else char_ids([*texts, *refs])
        for system, table in enumerate(tables):
            hyp_text = system * len(chars) + segments
            counted = packed_matches(ids, lengths, bound, orders, hyp_text, ref_text)
            if counted is None:
                counted = numbered_matches(ids, lengths, bound, orders, hyp_text, ref_text)
            for n, match in enumerate(counted):
                ref_total = np.maximum(lengths[ref_text] - n, 0)
                table[:, column + 3 * n + HYP] = np.where(ref_total > 0, np.maximum(lengths[hyp_text] - n, 0), 0)
                table[:, column + 3 * n + REF] = ref_total
                table[:, column + 3 * n + MATCH] = match
        column += 3 * orders
    return [(table, segments) for table in tables]
