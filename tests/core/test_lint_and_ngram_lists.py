"""The input linter's rules one by one, and the n-gram lists on the textbook clipping example."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleu_core import make_options
from bleu_core.corpus.lint import (
    RULES,
    LintInput,
    check_empty_lines,
    check_line_counts,
    identical_systems,
    lint_corpus,
)
from bleu_core.corpus.ngram_lists import characteristic_ngrams, ngram_tallies, plain_characteristic_ngrams
from tests.conftest import Pair, read_plain

CLEAN = ("hyp.txt", ["The cat sat on the mat.", "It is raining."])
CLEAN_REF = ("ref.txt", ["The cat is on the mat.", "It rains."])


def test_clean_files_give_no_findings() -> None:
    inputs = LintInput(CLEAN, [CLEAN_REF], "13a")
    assert all(rule(inputs) == [] for rule in RULES)
    assert lint_corpus(CLEAN, [CLEAN_REF], "13a") == ()


@pytest.mark.parametrize(
    ("hypothesis", "references", "tokenize", "codes"),
    [
        (CLEAN, [], "13a", ["no-references"]),
        (CLEAN, [("short.txt", ["one line"])], "13a", ["line-count"]),
        (("hyp.txt", []), [("ref.txt", [])], "13a", ["empty"]),
        (("hyp.txt", ["", "x"]), [CLEAN_REF], "13a", ["empty-lines"]),
        (CLEAN, [("ref.txt", ["", " "])], "13a", ["all-empty"]),
        (("hyp.txt", ["The cat sat .", "It 's fine ."]), [CLEAN_REF], "13a", ["tokenized"]),
        (("hyp.txt", ["The cat sat .", "It 's fine ."]), [CLEAN_REF], "none", []),
        (("hyp.txt", ["我们今天去公园", "他说你好"]), [("ref.txt", ["我们去公园", "你好"])], "13a", ["cjk"]),
        (("hyp.txt", ["我们今天去公园", "他说你好"]), [("ref.txt", ["我们去公园", "你好"])], "zh", []),
        (("hyp.txt", [" padded ", "x"]), [CLEAN_REF], "13a", ["whitespace"]),
        (CLEAN, [("copy.txt", list(CLEAN[1]))], "13a", ["identical"]),
        (("hyp.txt", ["a\u200bb", "c"]), [CLEAN_REF], "13a", ["invisible"]),
    ],
)
def test_each_rule_finds_its_problem(
    hypothesis: tuple[str, list[str]], references: list[tuple[str, list[str]]], tokenize: str, codes: list[str]
) -> None:
    assert [finding.code for finding in lint_corpus(hypothesis, references, tokenize)] == codes


def test_errors_come_first_and_rules_can_be_chosen() -> None:
    hypothesis = ("hyp.txt", [" x ", "", "y"])
    references = [("ref.txt", ["a", "b"])]
    findings = lint_corpus(hypothesis, references, "13a")
    assert [f.level for f in findings] == sorted((f.level for f in findings), key=["error", "warning", "info"].index)
    assert [f.code for f in findings] == ["line-count", "empty-lines", "whitespace"]
    assert [f.code for f in lint_corpus(hypothesis, references, "13a", rules=[check_line_counts])] == ["line-count"]


def test_empty_lines_message_follows_the_role_not_the_file_name() -> None:
    findings = check_empty_lines(LintInput(("same.txt", ["", "x"]), [("same.txt", ["", "y"])], "13a"))
    assert [finding.message for finding in findings] == [
        "same.txt has 1 empty line (line 1); it scores 0 and adds nothing to c.",
        "same.txt has 1 empty line (line 1); an empty reference has length 0 and matches nothing.",
    ]
    one = check_line_counts(LintInput(("h.txt", ["a", "b", "c"]), [("r.txt", ["a"]), ("s.txt", ["a", "b"])], "13a"))
    assert [finding.message.split(". ")[0] for finding in one] == [
        "r.txt has 1 line but the hypothesis h.txt has 3 lines",
        "s.txt has 2 lines but the hypothesis h.txt has 3 lines",
    ]
    alone = check_line_counts(LintInput(("h.txt", ["a"]), [("r.txt", ["a", "b"])], "13a"))
    assert alone[0].message.startswith("r.txt has 2 lines but the hypothesis h.txt has 1 line.")
    # the longer file's extra lines are empty lines at its end: the one error says so, no empty-line warning
    blank_end = lint_corpus(("h.txt", ["a", "b", ""]), [("r.txt", ["a", "b"])], "13a")
    assert [finding.message for finding in blank_end] == [
        "r.txt has 2 lines but the hypothesis h.txt has 3 lines: h.txt ends with an empty line. "
        "Remove it and load h.txt again."
    ]
    two = check_line_counts(LintInput(("h.txt", ["a"]), [("r.txt", ["a", " ", ""])], "13a"))
    assert two[0].message.endswith("r.txt ends with 2 empty lines. Remove them and load r.txt again.")
    inside = check_line_counts(LintInput(("h.txt", ["a", "", "b"]), [("r.txt", ["a", "b"])], "13a"))
    assert inside[0].key == "line_count"  # an empty line inside the file is not at its end
    many = check_empty_lines(LintInput(("h.txt", ["", "x", "", "y"]), [("r.txt", ["a", "b", "c", "d"])], "13a"))
    assert [finding.message for finding in many] == [
        "h.txt has 2 empty lines (lines 1, 3); each scores 0 and adds nothing to c."
    ]


def test_tallies_on_the_textbook_clipping_example() -> None:
    # "the" x7 against "the cat is on the mat": clipping keeps 2 of the 7, so 5 are over-generated.
    tallies = ngram_tallies(["the the the the the the the"], [["the cat is on the mat"]], make_options(max_order=2))
    assert [(t.ngram, t.count, t.segments) for t in tallies.overgenerated[0]] == [("the", 5, 1)]
    assert [(t.ngram, t.count) for t in tallies.overgenerated[1]] == [("the the", 6)]
    assert sorted(t.ngram for t in tallies.missed[0]) == ["cat", "is", "mat", "on"]
    assert all(t.count == 1 for t in tallies.missed[0])
    assert len(tallies.missed[1]) == 5  # no reference bigram is produced


def test_characteristic_ngrams_count_clipped_matches() -> None:
    systems = {"A": ["the cat the cat the cat"], "B": ["a dog sat on a mat"]}
    contrasts = characteristic_ngrams(systems, [["the cat sat on the mat"]], make_options(max_order=1))
    more_a = {c.ngram: (c.matches, c.others) for c in contrasts["A"][0]}
    assert more_a == {"the": (2, 0.0), "cat": (1, 0.0)}  # clipped to the reference's 2 "the" and 1 "cat"
    more_b = {c.ngram: (c.matches, c.others) for c in contrasts["B"][0]}
    assert more_b == {"sat": (1, 0.0), "on": (1, 0.0), "mat": (1, 0.0)}
    assert {c.ngram for c in contrasts["B"][1]} == {"the", "cat"}


words = st.lists(st.sampled_from(["a", "b", "c", ".", "the"]), max_size=8).map(" ".join)


@given(
    st.integers(1, 4).flatmap(lambda n: st.lists(st.lists(words, min_size=n, max_size=n), min_size=1, max_size=4)),
    st.integers(1, 4),
    st.integers(1, 6),
    st.sampled_from(["13a", "char"]),
    st.data(),
)
def test_characteristic_ngrams_equal_the_plain_version(
    outputs: list[list[str]], max_order: int, top: int, tokenize: str, data: st.DataObject
) -> None:
    """The array engine picks, orders and counts exactly what clipping segment by segment gives (ties too)."""
    n = len(outputs[0])
    references = data.draw(st.lists(st.lists(st.none() | words, min_size=n, max_size=n), min_size=1, max_size=2))
    systems = {f"system {i}": lines for i, lines in enumerate(outputs)}
    options = make_options(tokenize=tokenize, max_order=max_order)
    fast = characteristic_ngrams(systems, references, options, top)
    assert fast == plain_characteristic_ngrams(systems, references, options, top)


def test_characteristic_ngrams_equal_the_plain_version_on_wmt22(pairs: list[Pair]) -> None:
    pair = next(p for p in pairs if p.name == "en-zh")
    references = [read_plain(path)[:300] for path in pair.references]
    systems = {path.name: read_plain(path)[:300] for path in pair.systems[:4]}
    options = make_options(tokenize="zh")
    assert characteristic_ngrams(systems, references, options) == plain_characteristic_ngrams(
        systems, references, options
    )


def test_every_finding_has_a_catalog_message_in_every_language() -> None:
    from bleu_core.i18n import LANGUAGES, text

    cases = [
        (CLEAN, []),
        (CLEAN, [("short.txt", ["one line"])]),
        (("hyp.txt", []), [("ref.txt", [])]),
        (("hyp.txt", ["", "x"]), [("ref.txt", ["", "y"])]),
        (CLEAN, [("ref.txt", ["", " "])]),
        (("hyp.txt", ["The cat sat .", "It 's fine ."]), [CLEAN_REF]),
        (("hyp.txt", ["我们今天去公园", "他说你好"]), [("ref.txt", ["我们去公园", "你好"])]),
        (("hyp.txt", ["こんにちは世界", "ありがとう"]), [("ref.txt", ["こんにちは", "どうも"])]),
        (("hyp.txt", [" padded ", "x"]), [CLEAN_REF]),
        (CLEAN, [("copy.txt", list(CLEAN[1]))]),
        (("hyp.txt", ["a\u200bb", "c"]), [CLEAN_REF]),
        (("hyp.txt", ["a", "b", ""]), [CLEAN_REF]),
    ]
    keys = set()
    for hypothesis, references in cases:
        for finding in lint_corpus(hypothesis, references, "13a"):
            assert finding.key, finding.code
            keys.add(finding.key)
            for language in LANGUAGES:
                assert text(f"lint.{finding.key}", language, **dict(finding.params))
    assert len(keys) == 13


def test_identical_systems_are_grouped_in_order() -> None:
    systems = {"a": ["x", "y"], "b": ["x"], "c": ["x", "y"], "d": ["x"], "e": ["z", "y"]}
    assert identical_systems(systems) == [("a", "c"), ("b", "d")]
    assert identical_systems({"a": ["x"], "b": ["y"]}) == []
