"""Properties of BLEU that must hold for every input (hypothesis).

The default profile runs a small number of examples per property; ``--hypothesis-profile=slow`` runs
10,000.  Every test here carries the ``properties`` marker so that the slow job can select them
(``pytest -m "slow or properties" --hypothesis-profile=slow``).  No test sets ``max_examples`` itself:
the profile decides.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU

import bleu_core
from bleu_core.teach.explain import explain
from bleu_core.text.reader import InputFileError, decode_lines

pytestmark = [pytest.mark.properties]

# Small vocabularies make matches, repeats, clipping and length ties likely; odd characters exercise tokenizers.
WORDS = ["the", "cat", "a", "mat", "on", "The", "CAT", "3.5", "1,000", "x-y", "&amp;", "猫", "の", "é", "Σ", "."]
ODD = [*".,;:!?-'\"()<>/&%$#@", "é", "ß", "Σ", "ς", "猫", "の", "\u0301", "\u200b", "\ufeff", "\t", "👍", "א"]
TOKENIZERS = ["13a", "intl", "zh", "char", "none"]

word_line = st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join)
odd_line = st.text(alphabet=st.sampled_from([*ODD, *"abc019 "]), max_size=24)
line = st.one_of(word_line, odd_line)

settings = st.fixed_dictionaries(
    {
        "tokenize": st.sampled_from(TOKENIZERS),
        "smooth": st.sampled_from(["none", "floor", "add-k", "exp"]),
        "max_order": st.integers(1, 6),
        "effective_order": st.booleans(),
        "lowercase": st.booleans(),
    }
)


@st.composite
def settings_with_weights(draw: st.DrawFn) -> dict[str, Any]:
    """Any valid settings, including explicit weights and smoothing values."""
    options = draw(settings)
    if draw(st.booleans()):
        weights = draw(st.lists(st.floats(0, 10), min_size=options["max_order"], max_size=options["max_order"]))
        assume(sum(weights) > 0)
        if options["effective_order"]:
            # Effective order may keep only the first order: with a zero weight there BLEU is undefined (an error).
            # The weight counts after normalizing: 5e-324 / 2.0 underflows to 0.
            assume(weights[0] / sum(weights) > 0)
        options["weights"] = weights
    if options["smooth"] in ("floor", "add-k") and draw(st.booleans()):
        options["smooth_value"] = draw(st.floats(0, 1 if options["smooth"] == "floor" else 5))
    return options


@st.composite
def corpora(draw: st.DrawFn, min_segments: int = 1) -> tuple[list[str], list[list[str]]]:
    n = draw(st.integers(min_segments, 6))
    k = draw(st.integers(1, 3))
    hyps = draw(st.lists(line, min_size=n, max_size=n))
    refs = [draw(st.lists(line, min_size=n, max_size=n)) for _ in range(k)]
    return hyps, refs


def sacrebleu_metric(options: dict[str, Any]) -> BLEU:
    return BLEU(
        tokenize=options["tokenize"],
        smooth_method=options["smooth"],
        smooth_value=options.get("smooth_value"),
        max_ngram_order=options["max_order"],
        effective_order=options["effective_order"],
        lowercase=options["lowercase"],
    )


@given(corpora(min_segments=0), settings_with_weights())
def test_score_and_precisions_are_in_unit_interval(corpus: tuple[list[str], list[list[str]]], options: dict) -> None:
    hyps, refs = corpus
    result = bleu_core.corpus_bleu(hyps, refs, **options)
    assert 0.0 <= result.score <= 1.0
    assert all(0.0 <= p <= 1.0 for p in result.precisions)
    scores = bleu_core.sentence_scores(hyps, refs, **options)
    assert np.all((scores >= 0.0) & (scores <= 1.0))


@given(line, settings_with_weights())
def test_identical_candidate_and_reference_score_one(text: str, options: dict) -> None:
    tokens = bleu_core.tokenize_line(text, options["tokenize"], options["lowercase"])
    assume(len(tokens) >= options["max_order"])
    assert bleu_core.sentence_bleu(text, [text], **options).score == 1.0
    assert bleu_core.corpus_bleu([text, text], [[text, text]], **options).score == 1.0
    assert explain(text, [text], **options).score == 1.0


@given(line, st.lists(line, min_size=1, max_size=4), settings)
def test_clipped_counts_are_bounded(candidate: str, references: list[str], options: dict) -> None:
    trace = explain(candidate, references, **options)
    for order in trace.orders:
        for row in order.rows:
            assert row.max_reference_count == max(row.reference_counts)
            assert 0 <= row.clipped <= row.candidate_count
            assert row.clipped <= row.max_reference_count
            assert row.clipped == min(row.candidate_count, row.max_reference_count)
        assert order.matches == sum(row.clipped for row in order.rows) <= order.total
        assert order.total == sum(row.candidate_count for row in order.rows)


@given(st.integers(1, 10**6), st.data())
def test_brevity_penalty_range(candidate_length: int, data: st.DataObject) -> None:
    # exp(1 - r/c) underflows to 0 once r/c > ~745; stay inside the range a float can show.
    reference_length = data.draw(st.integers(0, min(10**6, 700 * candidate_length)))
    bp = float(bleu_core.brevity_penalty(np.array([candidate_length]), np.array([reference_length]))[0])
    assert 0.0 < bp <= 1.0
    assert (bp == 1.0) == (candidate_length >= reference_length)


@given(line, st.lists(line, min_size=1, max_size=3), settings)
def test_brevity_penalty_of_real_text(candidate: str, references: list[str], options: dict) -> None:
    trace = explain(candidate, references, **options)
    c, r = trace.length.candidate_length, trace.length.chosen_length
    if c == 0:
        assert trace.bp == (1.0 if r == 0 else 0.0)
    else:
        assert 0.0 < trace.bp <= 1.0
        assert (trace.bp == 1.0) == (c >= r)


def same_result(a: bleu_core.BleuResult, b: bleu_core.BleuResult) -> None:
    assert (a.score, a.counts, a.totals, a.sys_len, a.ref_len, a.bp) == (
        b.score,
        b.counts,
        b.totals,
        b.sys_len,
        b.ref_len,
        b.bp,
    )


@given(corpora(), settings_with_weights(), st.randoms(use_true_random=False))
def test_reordering_or_duplicating_references_changes_nothing(
    corpus: tuple[list[str], list[list[str]]], options: dict, rng: Any
) -> None:
    hyps, refs = corpus
    base = bleu_core.corpus_bleu(hyps, refs, **options)
    shuffled = list(refs)
    rng.shuffle(shuffled)
    same_result(bleu_core.corpus_bleu(hyps, shuffled, **options), base)
    duplicated = [*refs, rng.choice(refs)]
    same_result(bleu_core.corpus_bleu(hyps, duplicated, **options), base)
    first = [stream[0] for stream in refs]
    trace = explain(hyps[0], first, **options)
    again = explain(hyps[0], [*reversed(first), first[0]], **options)
    assert (again.score, again.bp) == (trace.score, trace.bp)
    assert [o.matches for o in again.orders] == [o.matches for o in trace.orders]


@given(corpora(), settings)
def test_corpus_statistics_are_the_sum_of_segment_statistics(
    corpus: tuple[list[str], list[list[str]]], options: dict
) -> None:
    hyps, refs = corpus
    result = bleu_core.corpus_bleu(hyps, refs, **options)
    config = bleu_core.make_options(**options)
    rows = [bleu_core.corpus_statistics([h], [[s[i]] for s in refs], config)[0] for i, h in enumerate(hyps)]
    assert result.counts == tuple(int(x) for x in sum(row.matches[0] for row in rows))
    assert result.totals == tuple(int(x) for x in sum(row.totals[0] for row in rows))
    assert result.sys_len == sum(int(row.hyp_len[0]) for row in rows)
    assert result.ref_len == sum(int(row.ref_len[0]) for row in rows)
    stats, _ = bleu_core.corpus_statistics(hyps, refs, config)
    summed = stats.summed()
    assert result.counts == tuple(int(x) for x in summed.matches[0])


@given(corpora(), settings_with_weights())
def test_equal_to_sacrebleu_on_random_input(corpus: tuple[list[str], list[list[str]]], options: dict) -> None:
    hyps, refs = corpus
    ours = bleu_core.corpus_bleu(hyps, refs, **options)
    theirs = sacrebleu_metric(options).corpus_score(hyps, refs)
    if "weights" not in options:  # sacreBLEU has uniform weights only; with weights, compare counts and lengths
        assert abs(ours.score_100 - theirs.score) <= 1e-9
        candidate, references = hyps[0], [stream[0] for stream in refs]
        sentence = sacrebleu_metric(options).sentence_score(candidate, references)
        assert abs(bleu_core.sentence_bleu(candidate, references, **options).score_100 - sentence.score) <= 1e-9
        assert abs(explain(candidate, references, **options).score_100 - sentence.score) <= 1e-9
    assert (ours.sys_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    if options["smooth"] != "add-k":
        assert (list(ours.counts), list(ours.totals)) == (list(theirs.counts), list(theirs.totals))


# Junk: anything a caller might pass by mistake.
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**400), 10**400),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=10),
    st.binary(max_size=10),
    st.complex_numbers(max_magnitude=10),
)
junk = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.tuples(children, children),
        st.dictionaries(st.text(max_size=3), children, max_size=3),
        st.frozensets(st.one_of(st.text(max_size=3), st.integers()), max_size=3),
    ),
    max_leaves=12,
)
name_or_junk = st.one_of(st.sampled_from([*TOKENIZERS, "none", "floor", "add-k", "exp", "ja-mecab"]), scalars)
junk_options = st.fixed_dictionaries(
    {},
    optional={
        "max_order": st.one_of(st.integers(-5, 120), scalars),
        "weights": st.one_of(st.lists(st.one_of(st.floats(), st.integers(-3, 10**400)), max_size=8), junk),
        "tokenize": name_or_junk,
        "smooth": name_or_junk,
        "smooth_value": st.one_of(st.floats(), scalars),
        "lowercase": scalars,
        "effective_order": scalars,
    },
)
corpus_or_junk = st.one_of(corpora(min_segments=0), st.tuples(junk, junk), st.tuples(st.lists(line), junk))


@given(corpus_or_junk, junk_options)
def test_junk_raises_only_documented_errors(corpus: tuple[Any, Any], options: dict) -> None:
    hyps, refs = corpus
    calls = [
        lambda: bleu_core.corpus_bleu(hyps, refs, **options),
        lambda: bleu_core.sentence_scores(hyps, refs, **options),
        lambda: bleu_core.sentence_bleu(hyps[0] if isinstance(hyps, list) and hyps else hyps, refs, **options),
        lambda: explain(hyps[0] if isinstance(hyps, list) and hyps else hyps, refs, **options),
    ]
    for call in calls:
        try:
            result = call()
        except (ValueError, TypeError) as error:
            message = str(error)
            assert message and "\n" not in message.strip()
        else:
            score = result if isinstance(result, np.ndarray) else np.array([result.score])
            assert np.all((score >= 0) & (score <= 1))


@given(st.binary(max_size=200))
def test_any_bytes_decode_or_raise_input_file_error(data: bytes) -> None:
    try:
        lines = decode_lines(data, "upload.txt")
    except InputFileError as error:
        assert str(error).startswith("upload.txt")
    else:
        assert all("\n" not in x and "\r" not in x and "\x00" not in x for x in lines)


@given(
    st.lists(
        st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\r\n\x00"), max_size=20),
        min_size=1,
        max_size=6,
    )
)
def test_encodings_and_line_endings_read_back_the_same(lines: list[str]) -> None:
    assume(not lines[0].startswith("\ufeff"))  # a leading U+FEFF is read as the byte-order mark
    text = "\n".join(lines)
    with_final_newline = [
        (text + "\n").encode("utf-8"),
        (text + "\n").encode("utf-8-sig"),
        (text.replace("\n", "\r\n") + "\r\n").encode("utf-16"),
        b"\xfe\xff" + (text.replace("\n", "\r") + "\r").encode("utf-16-be"),
        (text + "\n").encode("utf-32"),
    ]
    for encoded in with_final_newline:
        assert decode_lines(encoded, "f.txt") == lines
    if lines[-1]:  # without a final newline, a last empty line cannot be told from no line
        assert decode_lines(text.encode("utf-8"), "f.txt") == lines
        assert decode_lines(text.replace("\n", "\r\n").encode("utf-16"), "f.txt") == lines


def test_weights_near_the_float_limit_are_normalized() -> None:
    assert bleu_core.make_options(weights=[1e308, 1e308]).weights == (0.5, 0.5)
    assert math.isclose(sum(bleu_core.make_options(weights=[5e-324, 1e-300, 1]).weights), 1.0)
