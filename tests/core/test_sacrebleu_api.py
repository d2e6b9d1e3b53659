"""``bleu_core.sacrebleu_api`` against sacreBLEU 2.6: same fields bit for bit, same text, same signatures."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
import sacrebleu

import bleu_core.sacrebleu_api as ours
from bleu_core.options import mecab_available
from bleu_core.version import __version__
from tests.conftest import Pair, read_plain

FIELDS = ("score", "counts", "totals", "precisions", "bp", "sys_len", "ref_len", "ratio", "prec_str")
SETTINGS: list[dict[str, Any]] = [
    {},
    {"lowercase": True, "tokenize": "intl"},
    {"smooth_method": "add-k"},
    {"smooth_method": "add-k", "smooth_value": 0.5, "effective_order": True},
    {"smooth_method": "add-k", "smooth_value": 2},
    {"smooth_method": "floor", "smooth_value": 0.2, "effective_order": True},
    {"smooth_method": "none", "tokenize": "char"},
    {"max_ngram_order": 2},
    {"max_ngram_order": 6, "tokenize": "none"},
    {"trg_lang": "zh"},
]


def unversioned(text: str) -> str:
    return text.replace(sacrebleu.__version__, "X").replace(__version__, "X")


def same_score(theirs: Any, mine: Any, signature: tuple[str, str] = ("", "")) -> None:
    for field in FIELDS:
        assert getattr(mine, field) == getattr(theirs, field), field
    for field in ("counts", "totals"):  # the same types too: add-k's int default keeps sacreBLEU's counts ints
        assert repr(getattr(mine, field)) == repr(getattr(theirs, field)), field
    assert str(mine) == str(theirs) and repr(mine) == repr(theirs)
    for width in (0, 1, 2, 4):
        for score_only in (False, True):
            for is_json in (False, True):
                mine_text = outcome(mine.format, width, score_only, signature[1], is_json)
                their_text = outcome(theirs.format, width, score_only, signature[0], is_json)
                assert unversioned(mine_text) == unversioned(their_text)


def outcome(function: Any, *args: Any) -> str:
    """The text a call returns, or the name of the exception it raises (JSON without a signature fails in both)."""
    try:
        return str(function(*args))
    except Exception as error:
        return type(error).__name__


@pytest.fixture(scope="module")
def en_de(pairs: list[Pair]) -> tuple[list[list[str]], list[list[str]]]:
    pair = next(p for p in pairs if p.name == "en-de")
    return [read_plain(p) for p in pair.systems[:3]], [read_plain(r) for r in pair.references]


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()) or "default")
def test_corpus_and_sentence_scores(en_de: tuple[list[list[str]], list[list[str]]], settings: dict[str, Any]) -> None:
    systems, refs = en_de
    theirs, mine = sacrebleu.BLEU(**settings), ours.BLEU(**settings)
    hyps = systems[0]
    their_score, my_score = theirs.corpus_score(hyps, refs), mine.corpus_score(hyps, refs)
    for short in (False, True):
        assert unversioned(mine.get_signature().format(short)) == unversioned(theirs.get_signature().format(short))
    same_score(their_score, my_score, (str(theirs.get_signature()), str(mine.get_signature())))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i in range(0, len(hyps), 41):
            segment_refs = [r[i] for r in refs]
            same_score(theirs.sentence_score(hyps[i], segment_refs), mine.sentence_score(hyps[i], segment_refs))


def test_cached_references_and_bootstrap(en_de: tuple[list[list[str]], list[list[str]]]) -> None:
    systems, refs = en_de
    theirs, mine = sacrebleu.BLEU(references=refs), ours.BLEU(references=refs)
    for hyps in systems:
        their_score = theirs.corpus_score(hyps, None, n_bootstrap=300)
        my_score = mine.corpus_score(hyps, None, n_bootstrap=300)
        assert (my_score._mean, my_score._ci) == (their_score._mean, their_score._ci)
        signatures = (str(theirs.get_signature()), str(mine.get_signature()))
        assert unversioned(signatures[1]) == unversioned(signatures[0])
        assert "bs:300|seed:12345" in signatures[1]
        same_score(their_score, my_score, signatures)


def test_module_functions(en_de: tuple[list[list[str]], list[list[str]]]) -> None:
    systems, refs = en_de
    hyps = systems[1]
    same_score(sacrebleu.corpus_bleu(hyps, refs), ours.corpus_bleu(hyps, refs))
    same_score(sacrebleu.corpus_bleu(hyps, refs, lowercase=True), ours.corpus_bleu(hyps, refs, lowercase=True))
    same_score(sacrebleu.raw_corpus_bleu(hyps, refs), ours.raw_corpus_bleu(hyps, refs))
    same_score(sacrebleu.sentence_bleu(hyps[5], [refs[0][5]]), ours.sentence_bleu(hyps[5], [refs[0][5]]))


ODD = [
    ("", [""]),
    ("a b", ["a b c"]),
    ("the cat", ["   "]),
    ("x", ["y", "x"]),
    ("Hello , world !", ["Hello, world!", None]),
]


@pytest.mark.parametrize(("hypothesis", "references"), ODD)
def test_odd_sentences(hypothesis: str, references: list[str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same_score(sacrebleu.sentence_bleu(hypothesis, references), ours.sentence_bleu(hypothesis, references))
        same_score(
            sacrebleu.BLEU().corpus_score([hypothesis], [[r] for r in references]),
            ours.BLEU().corpus_score([hypothesis], [[r] for r in references]),
        )


def test_variable_references_and_signature_before_scoring() -> None:
    refs = [["a b c", "d e f"], [None, "d e"]]
    theirs, mine = sacrebleu.BLEU(), ours.BLEU()
    with pytest.raises(ValueError):
        mine.get_signature()
    same_score(theirs.corpus_score(["a b", "d e"], refs), mine.corpus_score(["a b", "d e"], refs))
    assert "nrefs:var" in str(mine.get_signature())
    assert unversioned(str(mine.get_signature())) == unversioned(str(theirs.get_signature()))


def test_compute_bleu_from_statistics() -> None:
    args = ([5, 3, 1, 0], [8, 7, 6, 5], 8, 10)
    same_score(sacrebleu.BLEU.compute_bleu(*args, smooth_method="exp"), ours.BLEU.compute_bleu(*args, "exp"))


def test_errors() -> None:
    with pytest.raises(TypeError):
        ours.BLEU().sentence_score(["not a string"], ["x"])  # type: ignore[arg-type]
    with pytest.raises(RuntimeError):
        ours.BLEU().corpus_score(["a"], None)
    with pytest.raises(ValueError, match="hypotheses"):  # sacreBLEU silently scores the shorter one
        ours.BLEU().corpus_score(["a", "b"], [["a"]])


#: Calls that fail in sacreBLEU 2.6: ours must raise an exception of the same class (and a ValueError of its own).
FAILING_CALLS: dict[str, Any] = {
    "unknown tokenizer": lambda m: m.BLEU(tokenize="foo"),
    "unknown smoothing": lambda m: m.BLEU(smooth_method="foo"),
    "SentencePiece tokenizer": lambda m: m.BLEU(tokenize="spm").corpus_score(["a"], [["a"]]),
    "segment without a reference": lambda m: m.corpus_bleu(["a b"], [[None]]),
    "hypotheses from a generator": lambda m: m.corpus_bleu((x for x in ["a b"]), [["a b"]]),
    "empty corpus": lambda m: m.corpus_bleu([], [[]]),
    "empty corpus, BLEU object": lambda m: m.BLEU().corpus_score([], [[]]),
    "sentence with None as reference": lambda m: m.sentence_bleu("a", [None]),
    "sentence without references": lambda m: m.sentence_bleu("a", []),
}
if not mecab_available():
    FAILING_CALLS["ja without MeCab"] = lambda m: m.BLEU(trg_lang="ja")


@pytest.mark.parametrize("call", list(FAILING_CALLS), ids=str)
def test_errors_are_sacrebleus_classes(call: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            FAILING_CALLS[call](sacrebleu)
        except Exception as error:  # the class is what is compared
            theirs: BaseException = error
        else:
            pytest.fail("sacreBLEU no longer fails here")
    with pytest.raises(type(theirs)) as mine:
        FAILING_CALLS[call](ours)
    assert isinstance(mine.value, ValueError)


@pytest.mark.parametrize("tokenize", ["13a", "intl", "zh", "char", "none"])
def test_tokenizer_attribute_is_sacrebleus(tokenize: str) -> None:
    lines = ["Hello, world!", "  two  spaces ", "猫が好き。1,000.5 x-y", ""]
    theirs = sacrebleu.BLEU(tokenize=tokenize).tokenizer
    assert [ours.BLEU(tokenize=tokenize).tokenizer(line) for line in lines] == [theirs(line) for line in lines]


def test_code_written_for_sacrebleu_runs_unchanged() -> None:
    module: Any = ours
    bleu = module.BLEU(tokenize="13a", lowercase=False)
    result = bleu.corpus_score(["The cat sat on the mat."], [["The cat sat on the mat."]])
    assert (
        result.score == sacrebleu.BLEU().corpus_score(["The cat sat on the mat."], [["The cat sat on the mat."]]).score
    )
    assert bleu.get_signature().format(short=True).startswith("#:1|c:mixed|e:no|tok:13a")
