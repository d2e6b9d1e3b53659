"""Scores by label (bleu_core/compare/slices.py): each label's BLEU, chrF and TER equal the real sacreBLEU scoring that
label's lines alone; paired p-values per label equal sacreBLEU's PairedTest on the subset; the correction over
labels x systems is recomputed here by its textbook formula; bad tags files are refused with clear reasons."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest

from bleu_core import make_options
from bleu_core.api import check_corpus, corpus_statistics
from bleu_core.compare.slices import (
    NO_LABEL,
    TagsError,
    check_slice_tests,
    read_tags,
    slice_scores,
    slice_tests,
)
from bleu_core.limits import LimitExceeded, Limits
from bleu_core.stats.chrf import ChrfOptions, chrf_statistics
from bleu_core.stats.ter import TerOptions, ter_statistics
from bleu_core.teach.examples import DEMO_REFERENCES, DEMO_SYSTEMS, DEMO_TAGS
from tests.conftest import Pair, read_plain

REFS = [list(stream) for stream in DEMO_REFERENCES]
#: Lines that make a corpus harder: an empty hypothesis, an empty reference line, Chinese text, case.
HARD_HYPS = {
    "a": ["The cat sat on the mat .", "", "Hello World again", "今天天气很好", "it is RAINING", "one two three four"],
    "b": ["A cat on a mat", "dog", "hello world", "天气很好", "It rains today", "one two three"],
    "c": ["cat", "a dog barked", "", "今天 天气", "RAINING", "four three two one"],
}
HARD_REFS = [
    [
        "The cat sat on the mat.",
        "A dog barked loudly",
        "Hello world, again",
        "今天天气很好。",
        "It is raining today!",
        "",
    ],
    ["There is a cat on the mat.", "The dog barks", "hello again world", "今天是好天气", "It rains today", "one two"],
]
HARD_TAGS = ["x", "y", "x", "", " y ", "x"]


@pytest.fixture(autouse=True)
def _quiet_sacrebleu(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    yield


def _subset(lines: list[str], index: np.ndarray) -> list[str]:
    return [lines[i] for i in index]


def _statistics(systems: dict[str, list[str]], refs: list[list[str]], options, chrf_options):  # type: ignore[no-untyped-def]
    bleu, chrf = {}, {}
    for name, hyps in systems.items():
        checked, streams = check_corpus(hyps, refs)
        bleu[name] = corpus_statistics(checked, streams, options)[0]
        chrf[name] = chrf_statistics(hyps, refs, chrf_options)
    return bleu, chrf


CASES = [
    ("demo", {n: list(h) for n, h in DEMO_SYSTEMS.items()}, REFS, list(DEMO_TAGS), {}, {}),
    ("hard 13a", HARD_HYPS, HARD_REFS, HARD_TAGS, {}, {}),
    (
        "hard zh lowercase chrF++",
        HARD_HYPS,
        HARD_REFS,
        HARD_TAGS,
        {"tokenize": "zh", "lowercase": True},
        {"word_order": 2},
    ),
    (
        "hard one ref floor eps",
        HARD_HYPS,
        HARD_REFS[:1],
        HARD_TAGS,
        {"smooth_method": "floor"},
        {"eps_smoothing": True},
    ),
]


@pytest.mark.parametrize(
    ("name", "systems", "refs", "tags", "bleu_settings", "chrf_settings"), CASES, ids=[c[0] for c in CASES]
)
def test_every_label_scores_as_sacrebleu_scoring_its_lines_alone(  # type: ignore[no-untyped-def]
    name, systems, refs, tags, bleu_settings, chrf_settings
) -> None:
    ours = {"smooth": bleu_settings.get("smooth_method", "exp")}
    ours.update({k: v for k, v in bleu_settings.items() if k != "smooth_method"})
    options = make_options(**ours)
    chrf_options = ChrfOptions(**chrf_settings)
    bleu, chrf = _statistics(systems, refs, options, chrf_options)
    ter = {name: ter_statistics(hyps, refs, TerOptions()) for name, hyps in systems.items()}
    tagged = read_tags(tags, len(refs[0]))
    result = slice_scores(tagged, bleu, options, chrf, chrf_options, ter)
    assert result.systems == tuple(systems)
    assert sum(label.segments for label in result.labels) == len(refs[0])
    chrf_args = {"char_order": chrf_options.char_order, "word_order": chrf_options.word_order}
    chrf_args["eps_smoothing"] = chrf_options.eps_smoothing
    for label in result.labels:
        index = np.array([i for i, tag in enumerate(tags) if tag.strip() == label.label])
        assert label.segments == len(index)
        sub_refs = [_subset(stream, index) for stream in refs]
        for k, hyps in enumerate(systems.values()):
            sub = _subset(hyps, index)
            assert label.bleu[k] == BLEU(**bleu_settings).corpus_score(sub, sub_refs).score, (label.label, k)
            assert label.chrf[k] == CHRF(**chrf_args).corpus_score(sub, sub_refs).score, (label.label, k)
            assert label.ter[k] == TER().corpus_score(sub, sub_refs).score, (label.label, k)
    for k, hyps in enumerate(systems.values()):
        assert result.corpus.bleu[k] == BLEU(**bleu_settings).corpus_score(hyps, refs).score
        assert result.corpus.chrf[k] == CHRF(**chrf_args).corpus_score(hyps, refs).score
        assert result.corpus.ter[k] == TER().corpus_score(hyps, refs).score
    alone = slice_scores(tagged, ter=ter)  # TER alone: the other metrics' scores are empty
    assert alone.corpus.ter == result.corpus.ter and alone.corpus.bleu == alone.corpus.chrf == ()


def test_labels_are_stripped_and_an_empty_line_is_a_label_of_its_own() -> None:
    tags = read_tags(["news ", "", "  ", "\tnews", "doc-1"], 5)
    assert tags.labels == ("news", NO_LABEL, "doc-1")
    assert tags.codes.tolist() == [0, 1, 1, 0, 2]
    assert tags.counts().tolist() == [2, 2, 1]


def test_document_ids_give_document_scores() -> None:
    """One label per document: each label's score is that document scored alone (the definition of a document score)."""
    hyps = {n: list(h) for n, h in DEMO_SYSTEMS.items()}
    options = make_options()
    bleu, _ = _statistics(hyps, REFS, options, ChrfOptions())
    documents = ["doc1"] * 3 + ["doc2"] * 2 + ["doc3"] * 3
    result = slice_scores(read_tags(documents, 8), bleu, options)
    assert [label.label for label in result.labels] == ["doc1", "doc2", "doc3"]
    assert result.labels[1].bleu[0] == BLEU().corpus_score(hyps["careful"][3:5], [r[3:5] for r in REFS]).score
    assert result.labels[0].chrf == ()  # chrF not asked for


@pytest.mark.parametrize(
    ("lines", "segments", "key"),
    [([], 8, "slices.empty"), (["a"] * 7, 8, "slices.line_count"), (["a"] * 9, 8, "slices.line_count")],
)
def test_a_tags_file_of_the_wrong_size_is_refused_naming_both_counts(lines: list[str], segments: int, key: str) -> None:
    with pytest.raises(TagsError) as refused:
        read_tags(lines, segments)
    assert refused.value.reason.key == key
    assert f"{segments:,} segments" in str(refused.value)
    if lines:
        assert f"{len(lines):,} lines" in str(refused.value)
    assert "标签文件" in refused.value.reason.render("zh")


def test_more_labels_than_the_limit_are_refused() -> None:
    with pytest.raises(LimitExceeded) as refused:
        read_tags([str(i) for i in range(6)], 6, Limits(slice_labels=5))
    assert "6 different labels" in str(refused.value) and "5 one request" in str(refused.value)
    assert len(read_tags([str(i) for i in range(5)], 5, Limits(slice_labels=5)).labels) == 5


def _holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjustment written from its definition: p~_(i) = max over j <= i of min(1, (m-j+1) p_(j))."""
    m = len(p_values)
    order = np.argsort(p_values, kind="stable")
    steps = np.minimum(1.0, (m - np.arange(m)) * np.asarray(p_values)[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(steps)
    return adjusted.tolist()


def test_paired_tests_per_label_are_sacrebleus_on_the_subset_and_holm_corrected() -> None:
    systems = {n: list(h) for n, h in HARD_HYPS.items()}
    options = make_options()
    bleu, _ = _statistics(systems, HARD_REFS, options, ChrfOptions())
    tagged = read_tags(HARD_TAGS, len(HARD_TAGS))
    tests = slice_tests(tagged, bleu, options, n_samples=200, seed=12345)
    assert [(t.label, t.system) for t in tests] == [(label, s) for label in ("x", "y", "") for s in ("b", "c")]
    for label in ("x", "y", ""):
        index = np.array([i for i, tag in enumerate(HARD_TAGS) if tag.strip() == label])
        refs = [_subset(stream, index) for stream in HARD_REFS]
        ordered = [(name, _subset(hyps, index)) for name, hyps in systems.items()]
        _, scores = PairedTest(ordered, {"BLEU": BLEU(references=refs)}, None, test_type="bs", n_samples=200)()
        theirs = dict(zip(scores["System"], scores["BLEU"], strict=True))  # type: ignore[arg-type]
        for test in tests:
            if test.label == label:
                assert test.p_value == theirs[test.system].p_value, (label, test.system)
    expected = _holm([t.p_value for t in tests])
    assert [t.corrected for t in tests] == pytest.approx(expected, abs=1e-15)
    assert any(t.corrected > t.p_value for t in tests)  # the correction did something
    bonferroni = slice_tests(tagged, bleu, options, n_samples=200, correction="bonferroni")
    assert [t.corrected for t in bonferroni] == pytest.approx([min(1.0, 6 * t.p_value) for t in tests])


def test_paired_tests_past_the_limit_are_refused_before_any_draw() -> None:
    tagged = read_tags([str(i % 10) for i in range(20)], 20)
    limits = Limits(resample_scores=10 * 1000 * 2 - 1)
    with pytest.raises(LimitExceeded) as refused:
        check_slice_tests(tagged, 2, 1000, 4, "bs", limits)
    assert "10 labels" in str(refused.value) and "At most 999 resamples" in str(refused.value)
    check_slice_tests(tagged, 2, 999, 4, "bs", limits)


def test_bad_arguments_say_what_is_wrong() -> None:
    options = make_options()
    bleu, _ = _statistics({"a": HARD_HYPS["a"]}, HARD_REFS, options, ChrfOptions())
    tagged = read_tags(HARD_TAGS, 6)
    with pytest.raises(ValueError, match="at least 2 systems"):
        slice_tests(tagged, bleu, options)
    with pytest.raises(ValueError, match="unknown correction"):
        slice_tests(tagged, {**bleu, "b": bleu["a"]}, options, correction="sidak")
    with pytest.raises(ValueError, match="has 6 segments but the tags label 5"):
        slice_scores(read_tags(HARD_TAGS[:5], 5), bleu, options)
    with pytest.raises(ValueError, match="at least one system"):
        slice_scores(tagged)


def test_document_like_labels_on_wmt22_score_as_sacrebleu_on_each_subset(pairs: list[Pair]) -> None:
    """WMT22 de-en, two systems, labels of 40 consecutive segments (as document ids would give): every label's BLEU
    and chrF2 equal sacreBLEU's on those lines alone, to the last bit."""
    pair = next(p for p in pairs if p.name == "de-en")
    refs = [read_plain(pair.references[0])]
    systems = {path.name: read_plain(path) for path in pair.systems[:2]}
    tags = [f"doc{i // 40}" for i in range(len(refs[0]))]
    options = make_options()
    bleu, chrf = _statistics(systems, refs, options, ChrfOptions())
    tagged = read_tags(tags, len(tags))
    result = slice_scores(tagged, bleu, options, chrf, ChrfOptions())
    assert len(result.labels) == -(-len(tags) // 40)
    for index, label in enumerate(result.labels):
        segments = tagged.segments(index)
        sub_refs = [_subset(stream, segments) for stream in refs]
        for k, hyps in enumerate(systems.values()):
            sub = _subset(hyps, segments)
            assert label.bleu[k] == BLEU().corpus_score(sub, sub_refs).score, (label.label, k)
            assert label.chrf[k] == CHRF().corpus_score(sub, sub_refs).score, (label.label, k)
