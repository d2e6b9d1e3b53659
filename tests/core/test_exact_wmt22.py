"""Every field equals sacreBLEU 2.6's on the real WMT22 data: all systems, each reference alone and all together.

Both ways of counting are checked: against prepared references (reused by many systems) and with the
references counted once, together with the hypothesis (what a single score does).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from sacrebleu.metrics import BLEU

import bleu_core
from bleu_core.stats.counting import stream_statistics
from tests.conftest import Pair, read_plain, wmt_pairs

TOLERANCE = 1e-9  # on sacreBLEU's 0-100 scale


def assert_same(ours: bleu_core.BleuResult, theirs: object) -> None:
    assert list(ours.counts) == list(theirs.counts)  # type: ignore[attr-defined]
    assert list(ours.totals) == list(theirs.totals)  # type: ignore[attr-defined]
    assert ours.sys_len == theirs.sys_len  # type: ignore[attr-defined]
    assert ours.ref_len == theirs.ref_len  # type: ignore[attr-defined]
    assert ours.bp == pytest.approx(theirs.bp, abs=1e-12)  # type: ignore[attr-defined]
    for mine, sacre in zip(ours.precisions, theirs.precisions, strict=True):  # type: ignore[attr-defined]
        assert 100 * mine == pytest.approx(sacre, abs=TOLERANCE)
    assert abs(ours.score_100 - theirs.score) <= TOLERANCE  # type: ignore[attr-defined]


def reference_sets(pair: Pair) -> list[tuple[str, list[list[str]]]]:
    refs = [read_plain(p) for p in pair.references]
    sets = [(p.name.split(".")[-2], [r]) for p, r in zip(pair.references, refs, strict=True)]
    if len(refs) > 1:
        sets.append(("all", refs))
    return sets


@pytest.mark.parametrize("pair", wmt_pairs() or [None], ids=lambda p: p.name if p else "absent")
def test_every_system_every_reference_set(pair: Pair | None, pairs: list[Pair]) -> None:
    assert pair is not None
    compared = 0
    for _, refs in reference_sets(pair):
        sacre = BLEU(tokenize=pair.tokenize, references=refs)
        prepared = bleu_core.prepare_references(refs, tokenize=pair.tokenize)
        options = bleu_core.make_options(tokenize=pair.tokenize)
        for system in pair.systems:
            hyps = read_plain(system)
            theirs = sacre.corpus_score(hyps, None)
            stats = bleu_core.segment_statistics(hyps, prepared)
            assert_same(bleu_core.result_from_statistics(stats, options, len(refs)), theirs)
            # References used once are counted together with the hypothesis: the same statistics, segment by segment.
            once, _ = stream_statistics(hyps, refs, tokenize=pair.tokenize)
            assert np.array_equal(once.as_matrix(), stats.as_matrix())
            compared += 1
    assert compared == len(pair.systems) * len(reference_sets(pair))


OPTION_GRID = list(
    itertools.product(
        ["13a", "intl", "zh", "char", "none"],
        ["none", "floor", "add-k", "exp"],
        [1, 2, 4, 6],
        [False, True],
    )
)


@pytest.mark.parametrize(("tokenize", "smooth", "max_order", "effective"), OPTION_GRID)
def test_options_grid_on_a_slice(
    pairs: list[Pair], tokenize: str, smooth: str, max_order: int, effective: bool
) -> None:
    pair = next(p for p in pairs if p.name == "de-en")
    hyps = read_plain(pair.systems[0])[:150]
    refs = [read_plain(p)[:150] for p in pair.references]
    for lowercase, smooth_value in [(False, None), (True, 0.5 if smooth in ("floor", "add-k") else None)]:
        theirs = BLEU(
            tokenize=tokenize,
            smooth_method=smooth,
            smooth_value=smooth_value,
            max_ngram_order=max_order,
            effective_order=effective,
            lowercase=lowercase,
        ).corpus_score(hyps, refs)
        ours = bleu_core.corpus_bleu(
            hyps,
            refs,
            tokenize=tokenize,
            smooth=smooth,
            smooth_value=smooth_value,
            max_order=max_order,
            effective_order=effective,
            lowercase=lowercase,
        )
        assert abs(ours.score_100 - theirs.score) <= TOLERANCE
        if smooth != "add-k":  # sacreBLEU reports add-k-smoothed counts; ours are the true counts
            assert list(ours.counts) == list(theirs.counts)
            assert list(ours.totals) == list(theirs.totals)


@pytest.mark.parametrize("smooth", ["none", "floor", "add-k", "exp"])
def test_sentence_scores_equal_sacrebleu_sentence_score(pairs: list[Pair], smooth: str) -> None:
    pair = next(p for p in pairs if p.name == "cs-en")
    hyps = read_plain(pair.systems[1])
    refs = [read_plain(p) for p in pair.references]
    metric = BLEU(effective_order=True, smooth_method=smooth)
    expected = [metric.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)]
    ours = bleu_core.sentence_scores(hyps, refs, smooth=smooth)
    assert len(ours) == len(expected)
    assert max(abs(100 * o - e) for o, e in zip(ours, expected, strict=True)) <= TOLERANCE
    for i in range(0, len(hyps), 97):
        single = bleu_core.sentence_bleu(hyps[i], [r[i] for r in refs], smooth=smooth)
        assert single.score == ours[i]
