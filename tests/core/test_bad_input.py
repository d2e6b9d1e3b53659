"""Bad and odd input, one table, run through every entry point where it applies.

Each case names its inputs and what every surface must do with them: fail with a ValueError or
TypeError whose one-line message contains a given fragment (what is wrong and how to fix it), or
give the same score as the reference computation (real sacreBLEU on the same text).  The runners
below push each case through the API (``corpus_bleu``, and ``sentence_bleu``/``explain`` for one
segment), the CLI (in-process, plus two real processes for the exit code) and the Explain page
(AppTest).  Pages added later get their own runner over the same tables: give a case a
``pages`` entry for them.
"""

from __future__ import annotations

import json
import math
import random
import re
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sacrebleu.metrics import BLEU
from streamlit.testing.v1 import AppTest

import bleu_core
from bleu_core.cli import main as cli
from bleu_core.options import mecab_available
from bleu_core.teach.explain import explain
from bleu_core.text.reader import InputFileError, check_line_counts, decode_lines

EXPLAIN_PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "explain.py")


# ----------------------------------------------------------------------------------------------------------------
# What a surface must do with a case


@dataclass(frozen=True)
class Fails:
    """A ValueError or TypeError (or an on-page error/warning) whose message contains ``fragment``."""

    error: type[Exception]
    fragment: str


@dataclass(frozen=True)
class Scores:
    """The same score, counts and lengths as sacreBLEU on the same input (or ``value`` where sacreBLEU cannot run).

    ``sacrebleu`` overrides options for the reference computation (sacreBLEU has no weights, for instance).
    """

    value: float | None = None
    sacrebleu: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Shows:
    """A page shows an ``st.error``/``st.warning`` containing ``fragment`` and keeps running."""

    fragment: str


SAME = Scores()
Expect = Fails | Scores


@dataclass(frozen=True)
class Case:
    """One input: hypotheses, reference streams and options, as the API takes them.

    ``cli``: what the CLI must do (None when the input cannot be written as files and flags).
    ``pages``: page name -> what the page must do (absent when the page has no way to take the input).
    ``sentence``: a one-segment case whose sentence-level forms (``sentence_bleu``, ``explain``) must agree.
    """

    name: str
    hypotheses: Any
    references: Any
    options: dict[str, Any]
    expect: Expect
    cli: Expect | None = None
    pages: dict[str, Shows | Scores] = field(default_factory=dict)
    sentence: bool = False


HYPS = ["The cat sat on the mat.", "A dog barked twice."]
REFS = [["The cat is on the mat.", "The dog barked twice."]]


def text_case(
    name: str,
    hypotheses: list[str],
    references: list[list[str]],
    options: dict[str, Any] | None = None,
    expect: Expect = SAME,
    cli_expect: Expect | None = None,
    explain_page: Shows | Scores | None = SAME,
) -> Case:
    """Plain text: every surface takes it; one-segment cases also go through the sentence API and the Explain page."""
    one = len(hypotheses) == 1
    pages = {"explain": explain_page} if one and explain_page is not None else {}
    return Case(name, hypotheses, references, options or {}, expect, cli_expect or expect, pages, sentence=one)


def option_case(
    name: str, options: dict[str, Any], expect: Expect, cli_expect: Expect | None = None, page: Shows | None = None
) -> Case:
    """Bad or odd options on a normal one-segment input: the API, explain, the CLI and (via a link) the page."""
    return Case(
        name,
        HYPS[:1],
        [REFS[0][:1]],
        options,
        expect,
        cli_expect or expect,
        {"explain": page} if page else {},
        sentence=True,
    )


def api_case(name: str, hypotheses: Any, references: Any, expect: Expect) -> Case:
    """Input only Python callers can give (None, numbers, bytes, wrong nesting)."""
    return Case(name, hypotheses, references, {}, expect, None)


CJK = ["猫が マットの上に 座った。", "我爱自然语言处理，也爱机器翻译。"]
CJK_REFS = [["猫は マットの上に 座っていた。", "我喜欢自然语言处理和机器翻译。"]]

CASES: list[Case] = [
    # Empty and blank text: valid input, scored like sacreBLEU.
    text_case("empty candidate", [""], [["the cat sat on the mat"]]),
    text_case("empty reference", ["the cat sat on the mat"], [[""]], explain_page=Shows("at least one reference")),
    text_case("empty candidate and reference", [""], [[""]], explain_page=Shows("at least one reference")),
    text_case("all-empty corpus", ["", "", ""], [["", "", ""]]),
    # The API scores an empty corpus 0; the command line, like sacreBLEU's, refuses a system with no lines.
    Case("corpus of zero segments", [], [[]], {}, Scores(value=0.0), Fails(ValueError, "contains no segments")),
    text_case(
        "whitespace-only lines", ["   ", "\t", " the cat "], [[" ", "the cat", "\t the  cat\t"]], {"tokenize": "none"}
    ),
    text_case("whitespace-only candidate", [" \t "], [["the cat"]]),
    text_case(
        "empty lines inside a corpus", ["the cat sat", "", "on the mat", ""], [["the cat sat", "", "on a mat", "x"]]
    ),
    # Line counts and missing references.
    text_case(
        "reference stream shorter",
        HYPS,
        [REFS[0][:1]],
        expect=Fails(ValueError, "reference stream 1 has 1 lines but there are 2 hypotheses"),
        cli_expect=Fails(ValueError, "ref1.txt: has 1 lines but the hypothesis hyp.txt has 2"),
    ),
    text_case(
        "second reference stream longer",
        HYPS,
        [REFS[0], [*REFS[0], "extra"]],
        expect=Fails(ValueError, "reference stream 2 has 3 lines but there are 2 hypotheses"),
        cli_expect=Fails(ValueError, "ref2.txt: has 3 lines but the hypothesis hyp.txt has 2"),
    ),
    text_case(
        "no references",
        HYPS[:1],
        [],
        expect=Fails(ValueError, "no references given; pass at least one reference"),
        cli_expect=Fails(ValueError, "no references: give reference files before -i/--input"),
        explain_page=Shows("Add at least one reference"),
    ),
    api_case(
        "segment without any reference", HYPS, [[REFS[0][0], None]], Fails(ValueError, "segment 2 has no reference")
    ),
    text_case("three references, one empty", HYPS, [REFS[0], ["", ""], HYPS]),
    # Weights.
    option_case(
        "weights negative",
        {"weights": [0.5, -0.5]},
        Fails(ValueError, "weights must be non-negative; got -0.5 for 2-grams"),
        page=Shows("weights must be non-negative"),
    ),
    option_case(
        "weights all zero",
        {"weights": [0, 0, 0, 0]},
        Fails(ValueError, "give at least one order weight > 0"),
        page=Shows("positive sum"),
    ),
    option_case(
        "weights NaN", {"weights": [math.nan, 1]}, Fails(ValueError, "weights must be finite"), page=Shows("weights")
    ),
    option_case(
        "weights infinite",
        {"weights": [1, math.inf]},
        Fails(ValueError, "finite; got inf for 2-grams"),
        page=Shows("weights"),
    ),
    option_case(
        "weights shorter than max n",
        {"weights": [1, 1], "max_order": 3},
        Fails(ValueError, "weights has 2 values but max_order is 3; give one weight per order"),
        page=Shows("weights and max_n disagree"),
    ),
    option_case("weights empty", {"weights": []}, Fails(ValueError, "weights must name at least one n-gram order")),
    option_case("weights longer than any max n", {"weights": [1] * 101}, Fails(ValueError, "at most 100")),
    option_case(
        "weights near the float maximum",
        {"weights": [1e308, 1e308]},
        Scores(sacrebleu={"max_order": 2}),
    ),
    Case(
        "weights beyond the float range",
        HYPS[:1],
        [REFS[0][:1]],
        {"weights": [10**400, 1]},
        Fails(ValueError, "too large for a float"),
        sentence=True,
    ),
    # Max n.
    option_case(
        "max n 0",
        {"max_order": 0},
        Fails(ValueError, "max_order must be at least 1; got 0"),
        page=Shows("max_n must be a whole number from 1 to 8"),
    ),
    option_case("max n negative", {"max_order": -3}, Fails(ValueError, "at least 1; got -3"), page=Shows("max_n")),
    option_case(
        "max n non-integer",
        {"max_order": 2.5},
        Fails(TypeError, "max_order must be a whole number >= 1; got 2.5"),
        Fails(SystemExit, "--max-ngram-order: invalid int value: '2.5'"),
        page=Shows("max_n must be a whole number"),
    ),
    Case("max n a whole float", HYPS, REFS, {"max_order": 3.0}, SAME, sentence=False),
    option_case("max n huge", {"max_order": 10**9}, Fails(ValueError, "max_order must be at most 100")),
    text_case("max n larger than any sentence", ["the cat sat", "on"], [["the cat sat", "on the"]], {"max_order": 8}),
    text_case("max n 8 on one short sentence", ["the cat sat"], [["the cat sat down"]], {"max_order": 8}),
    text_case(
        "max n larger than any sentence, effective order",
        ["the cat sat"],
        [["the cat sat"]],
        {"max_order": 8, "effective_order": True},
        explain_page=None,
    ),
    # Names and smoothing values.
    option_case(
        "unknown tokenizer",
        {"tokenize": "moses"},
        Fails(ValueError, "unknown tokenizer 'moses'; choose one of 13a, intl"),
        Fails(SystemExit, "invalid choice: 'moses'"),
        page=Shows("tokenize must be one of"),
    ),
    option_case(
        "unknown smoothing",
        {"smooth": "method1"},
        Fails(ValueError, "unknown smoothing method 'method1'; choose one of none, floor"),
        Fails(SystemExit, "invalid choice: 'method1'"),
        page=Shows("smooth must be one of"),
    ),
    option_case(
        "negative smoothing value",
        {"smooth": "floor", "smooth_value": -0.1},
        Fails(ValueError, "smooth_value must be a finite number >= 0; got -0.1"),
    ),
    option_case(
        "NaN smoothing value", {"smooth": "add-k", "smooth_value": math.nan}, Fails(ValueError, ">= 0; got nan")
    ),
    option_case(
        "smoothing value beyond the float range",
        {"smooth": "add-k", "smooth_value": 10**400},
        Fails(ValueError, "too large for a float"),
        Fails(ValueError, "smooth_value must be a finite number >= 0; got inf"),
    ),
    option_case("smoothing value zero", {"smooth": "floor", "smooth_value": 0}, SAME),
    option_case(
        "floor smoothing value above 1",
        {"smooth": "floor", "smooth_value": 3},
        Fails(ValueError, "smooth_value for floor must be between 0 and 1 (default 0.1); got 3"),
        SAME,  # the command line is sacreBLEU's drop-in: it scores it as sacreBLEU does
    ),
    option_case(
        "tokenizer not a name",
        {"tokenize": None},
        Fails(TypeError, "tokenize must be a tokenizer name"),
        Fails(SystemExit, "invalid choice: 'None'"),
    ),
    option_case(
        "ja-mecab without MeCab installed",
        {"tokenize": "ja-mecab"},
        Fails(ValueError, "install them with pip install 'sacrebleu[ja]', or use tokenize='char'"),
    ),
    # Unicode: sacreBLEU on the same strings.
    text_case("combining marks", ["cafe\u0301 nai\u0308ve re\u0301sume\u0301"], [["café naïve résumé"]]),
    text_case("right-to-left text", ["\u202bשלום עולם\u202c مرحبا بالعالم"], [["שלום עולם مرحبا بالعالم!"]]),
    text_case("emoji", ["I 👍🏽 🐈 on the mat 👨\u200d👩\u200d👧"], [["I 👍 🐈 on the mat 👨\u200d👩\u200d👧 ."]]),
    text_case("zero-width characters", ["the\u200bcat sat\u200c on\u200d the\u2060mat"], [["the cat sat on the mat"]]),
    text_case(
        "BOM characters inside lines", ["the \ufeffcat sat on\ufeff the mat"], [["the cat sat on the mat\ufeff"]]
    ),
    text_case("line separators inside a line", ["a\u2028b c\x85d e\x0bf"], [["a b c d e f"]]),
    text_case("lowercase of Σ and İ", ["ΟΔΟΣ İstanbul STRASSE"], [["οδος istanbul straße"]], {"lowercase": True}),
    *[
        text_case(f"CJK with {name}", CJK, CJK_REFS, {"tokenize": name})
        for name in ("13a", "intl", "zh", "char", "none")
    ],
    *[
        text_case(f"CJK sentence with {name}", CJK[:1], [CJK_REFS[0][:1]], {"tokenize": name})
        for name in ("13a", "intl", "zh", "char", "none")
    ],
    # Non-string items and wrong nesting: TypeError that says what to pass instead.
    api_case("None hypothesis", [None, "a"], REFS, Fails(TypeError, "hypotheses[0] must be a str; got NoneType")),
    api_case("number hypothesis", ["a", 3.5], REFS, Fails(TypeError, "hypotheses[1] must be a str; got float")),
    api_case("bytes hypothesis", [b"the cat", "a"], REFS, Fails(TypeError, "decode bytes first")),
    api_case("bytes reference", HYPS, [[b"x", "y"]], Fails(TypeError, "references[0][0] must be a str; got bytes")),
    api_case("number reference", HYPS, [["x", 7]], Fails(TypeError, "references[0][1] must be a str; got int")),
    api_case("string where reference streams were expected", HYPS, "the cat", Fails(TypeError, "not a single string")),
    api_case(
        "list of strings where reference streams were expected",
        HYPS,
        REFS[0],
        Fails(TypeError, "references[0] is a str, but references must be a list of streams"),
    ),
    api_case("string where hypotheses were expected", "the cat", REFS, Fails(TypeError, "not a single str; wrap it")),
    api_case("None as hypotheses", None, REFS, Fails(TypeError, "hypotheses must be a list of strings; got NoneType")),
    api_case("None as references", HYPS, None, Fails(TypeError, "references must be a list of strings; got NoneType")),
    api_case("references nested too deep", HYPS, [[["x"], ["y"]]], Fails(TypeError, "references[0][0] must be a str")),
    api_case("a number as a reference stream", HYPS, [REFS[0], 5], Fails(TypeError, "references[1] must be a list")),
]


@dataclass(frozen=True)
class SentenceCase:
    """Inputs only the sentence-level API takes: one candidate string, a list of reference strings."""

    name: str
    candidate: Any
    references: Any
    fragment: str


SENTENCE_CASES = [
    SentenceCase("None candidate", None, ["x"], "must be a str; got NoneType"),
    SentenceCase("bytes candidate", b"x", ["x"], "must be a str; got bytes"),
    SentenceCase("string where references were expected", "the cat", "the cat", "not a single str; wrap it in a list"),
    SentenceCase("None reference", "the cat", [None], "references[0] must be a str; got NoneType"),
    SentenceCase("streams where references were expected", "the cat", [["the cat"]], "references[0] must be a str"),
    SentenceCase("no references", "the cat", [], "no references given"),
]


def case_id(case: Case | SentenceCase) -> str:
    return case.name.replace(" ", "-")


# ----------------------------------------------------------------------------------------------------------------
# Reference computations and checks


def sacrebleu_metric(options: dict[str, Any], *, sentence: bool) -> BLEU:
    return BLEU(
        tokenize=options.get("tokenize", "13a"),
        smooth_method=options.get("smooth", "exp"),
        smooth_value=options.get("smooth_value"),
        max_ngram_order=int(options.get("max_order", len(options.get("weights", [1] * 4)))),
        effective_order=options.get("effective_order", sentence),
        lowercase=options.get("lowercase", False),
    )


def check_message(error: BaseException, fragment: str) -> None:
    message = str(error)
    assert fragment in message, message
    assert "\n" not in message and "Traceback" not in message
    assert len(message) >= 25, f"message too terse to say what to fix: {message!r}"


def check_corpus_score(result: dict[str, Any], case: Case, expect: Scores) -> None:
    """``result`` in sacreBLEU's JSON shape (0-100)."""
    if expect.value is not None:
        assert result["score"] == 100 * expect.value
        return
    theirs = sacrebleu_metric({**case.options, **expect.sacrebleu}, sentence=False).corpus_score(
        list(case.hypotheses), [list(stream) for stream in case.references]
    )
    assert abs(result["score"] - theirs.score) <= 1e-9
    assert (result["sys_len"], result["ref_len"]) == (theirs.sys_len, theirs.ref_len)
    if case.options.get("smooth") != "add-k":
        assert (result["counts"], result["totals"]) == (list(theirs.counts), list(theirs.totals))


# ----------------------------------------------------------------------------------------------------------------
# Runners: the API


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_api(case: Case) -> None:
    if case.options.get("tokenize") == "ja-mecab" and mecab_available():
        pytest.skip("MeCab is installed here")
    if isinstance(case.expect, Fails):
        with pytest.raises(case.expect.error) as raised:
            bleu_core.corpus_bleu(case.hypotheses, case.references, **case.options)
        check_message(raised.value, case.expect.fragment)
        if case.sentence and case.references:
            for function in (bleu_core.sentence_bleu, explain):
                with pytest.raises(case.expect.error) as raised:
                    function(case.hypotheses[0], [s[0] for s in case.references], **case.options)
                check_message(raised.value, case.expect.fragment)
        return
    result = bleu_core.corpus_bleu(case.hypotheses, case.references, **case.options)
    check_corpus_score(result.to_dict(), case, case.expect)
    if case.sentence:
        candidate, references = case.hypotheses[0], [s[0] for s in case.references]
        options = {**case.options, **case.expect.sacrebleu}
        theirs = sacrebleu_metric(options, sentence=True).sentence_score(candidate, references)
        ours = bleu_core.sentence_bleu(candidate, references, **case.options)
        assert abs(ours.score_100 - theirs.score) <= 1e-9
        trace = explain(candidate, references, **case.options)
        assert trace.score == pytest.approx(ours.score, abs=1e-12)
        assert (trace.length.candidate_length, trace.length.chosen_length) == (ours.sys_len, ours.ref_len)


@pytest.mark.parametrize("case", SENTENCE_CASES, ids=case_id)
def test_sentence_api(case: SentenceCase) -> None:
    for function in (bleu_core.sentence_bleu, explain):
        with pytest.raises((TypeError, ValueError)) as raised:
            function(case.candidate, case.references)
        check_message(raised.value, case.fragment)


# ----------------------------------------------------------------------------------------------------------------
# Runners: the CLI (in-process; two real processes prove the exit code and the one-line message)


def cli_flags(options: dict[str, Any]) -> list[str]:
    flags: list[str] = []
    for key, value in options.items():
        if key == "weights":
            flags.append("--weights=" + ",".join(str(float(w)) for w in value))
        elif key == "max_order":
            flags.append(f"--max-ngram-order={value}")
        elif key == "tokenize":
            flags.append(f"--tokenize={value}")
        elif key == "smooth":
            flags.append(f"--smooth-method={value}")
        elif key == "smooth_value":
            too_big = isinstance(value, int) and value > 10**300  # the CLI reads it as a float: inf
            flags.append(f"--smooth-value={'1e400' if too_big else float(value)}")
        elif key == "lowercase" and value:
            flags.append("-lc")
        elif key == "effective_order" and value:
            flags.append("--effective-order")
    return flags


def write_lines(path: Path, lines: Sequence[str]) -> str:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return str(path)


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = cli.run(argv)
    except SystemExit as stop:  # argparse's own errors
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


CLI_CASES = [case for case in CASES if case.cli is not None]


@pytest.mark.parametrize("case", CLI_CASES, ids=case_id)
def test_cli(case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    if case.options.get("tokenize") == "ja-mecab" and mecab_available():
        pytest.skip("MeCab is installed here")
    monkeypatch.chdir(tmp_path)
    hyp = write_lines(Path("hyp.txt"), case.hypotheses)
    refs = [write_lines(Path(f"ref{k + 1}.txt"), stream) for k, stream in enumerate(case.references)]
    code, out, err = run_cli([*refs, "-i", hyp, *cli_flags(case.options), "--statistics"], capsys)
    expect = case.cli
    if isinstance(expect, Fails):
        assert code == (2 if expect.error is SystemExit else 1), (out, err)  # argparse: 2; sacreBLEU's errors: 1
        assert expect.fragment in err and "Traceback" not in err
        if expect.error is not SystemExit:  # argparse adds its usage line; our own errors are one line
            assert err.count("\n") == 1 and err.startswith("bleu_core: error: ")
        return
    assert isinstance(expect, Scores)
    assert code == 0, err
    check_corpus_score(json.loads(out), case, expect)


def real_cli(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "bleu_core", *args], capture_output=True, check=False, timeout=120, text=True
    )
    return done


def test_real_process_option_error_exits_1_with_one_line(tmp_path: Path) -> None:
    ref = write_lines(tmp_path / "ref.txt", REFS[0])
    done = real_cli(ref, "-i", ref, "--weights=1,nan")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == "bleu_core: error: weights must be finite; got nan for 2-grams\n"


def test_real_process_file_error_exits_1_with_one_line(tmp_path: Path) -> None:
    ref = write_lines(tmp_path / "ref.txt", REFS[0])
    bad = tmp_path / "sys.txt"
    bad.write_bytes(b"fine\n\xe9t\xe9\n")
    done = real_cli(ref, "-i", str(bad))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert f"{bad} (line 2): not valid UTF-8 (byte 0xE9 at offset 5); save the file as UTF-8" in done.stderr


# ----------------------------------------------------------------------------------------------------------------
# Runners: the Explain page (AppTest, the case given as a shareable link)


def page_query(case: Case) -> dict[str, str | list[str]]:
    query: dict[str, str | list[str]] = {
        "candidate": case.hypotheses[0],
        "reference": [s[0] for s in case.references] or [""],
    }
    options = case.options
    if "max_order" in options:
        query["max_n"] = str(options["max_order"])
    if "weights" in options:
        query["weights"] = ",".join(str(w) for w in options["weights"])
    for key in ("tokenize", "smooth"):
        if key in options:
            query[key] = str(options[key])
    if options.get("lowercase"):
        query["lowercase"] = "1"
    return query


def page_messages(at: AppTest) -> str:
    return "\n".join(str(m.value) for m in (*at.error, *at.warning))


def unescaped(text: object) -> str:
    """Shown text as read: file names and user text are Markdown-escaped on the page (``ref\\.txt``)."""
    return re.sub(r"\\(.)", r"\1", str(text)).replace("\u2060", "")


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def page_settings(at: AppTest) -> dict[str, Any]:
    """The settings the page scored with, read back from its widgets."""
    ss = at.session_state
    max_n = ss["ex_max_n"]
    raw = [ss[f"ex_w{n}"] for n in range(1, max_n + 1)]
    smooth = ss["ex_smooth"]
    return {
        "max_order": max_n,
        "weights": [w / sum(raw) for w in raw],
        "tokenize": ss["ex_tokenize"],
        "lowercase": ss["ex_lowercase"],
        "smooth": smooth,
        "smooth_value": ss[f"ex_smooth_value_{smooth}"] if smooth in ("floor", "add-k") else None,
        "effective_order": ss["ex_effective"],
    }


PAGE_CASES = [case for case in CASES if "explain" in case.pages]


@pytest.mark.parametrize("case", PAGE_CASES, ids=case_id)
def test_explain_page(case: Case) -> None:
    at = AppTest.from_file(EXPLAIN_PAGE, default_timeout=60)
    for key, value in page_query(case).items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    expect = case.pages["explain"]
    if isinstance(expect, Shows):
        assert expect.fragment in page_messages(at)
        return
    assert not at.error, page_messages(at)
    settings = page_settings(at)
    for key in ("tokenize", "max_order", "lowercase"):
        if key in case.options:
            assert settings[key] == case.options[key]
    candidate, references = case.hypotheses[0], [s[0] for s in case.references]
    assert at.session_state["ex_candidate"] == candidate  # nothing the user gave is lost or altered
    trace = explain(candidate, [r for r in references if r.strip()], **settings)
    assert metric(at, "BLEU (0–1)") == f"{trace.score:.4f}"
    assert metric(at, "c / r") == f"{trace.length.candidate_length} / {trace.length.chosen_length}"


# ----------------------------------------------------------------------------------------------------------------
# Files: encodings, line endings, undecodable and binary content


CLEAN_HYP = ["The café sat on the mat.", "", "A dog — barked twice 🐕."]
CLEAN_REF = ["The café is on the mat.", "Nothing.", "The dog barked twice 🐕."]


def utf8(lines: Sequence[str], end: str = "\n", final: bool = True) -> bytes:
    return (end.join(lines) + (end if final else "")).encode("utf-8")


@dataclass(frozen=True)
class FileCase:
    """A hypothesis or reference file's bytes (the other file is clean UTF-8).

    Expected: the clean lines (``Same``), or an error naming the file and ``fragment``.
    """

    name: str
    data: bytes
    which: str = "ref"  # the file that carries ``data``: "ref" or "hyp"
    fragment: str | None = None  # None: reads as the clean lines, same score


FILE_CASES = [
    FileCase("UTF-8 without BOM", utf8(CLEAN_REF)),
    FileCase("UTF-8 with BOM", b"\xef\xbb\xbf" + utf8(CLEAN_REF)),
    FileCase("UTF-16 LE with BOM", b"\xff\xfe" + "\n".join(CLEAN_REF).encode("utf-16-le")),
    FileCase("UTF-16 BE with BOM", ("\ufeff" + "\n".join(CLEAN_REF) + "\n").encode("utf-16-be")),
    FileCase("UTF-32 with BOM", ("\n".join(CLEAN_REF) + "\n").encode("utf-32")),
    FileCase("CRLF line endings", utf8(CLEAN_REF, "\r\n")),
    FileCase("lone CR line endings", utf8(CLEAN_REF, "\r")),
    FileCase("mixed line endings", f"{CLEAN_REF[0]}\r\n{CLEAN_REF[1]}\n{CLEAN_REF[2]}\r".encode()),
    FileCase("missing final newline", utf8(CLEAN_REF, final=False)),
    FileCase("BOM, CRLF and no final newline", b"\xef\xbb\xbf" + utf8(CLEAN_REF, "\r\n", final=False)),
    FileCase("hypothesis in UTF-16 with CRLF", ("\r\n".join(CLEAN_HYP) + "\r\n").encode("utf-16"), which="hyp"),
    FileCase(
        "Latin-1 bytes",
        "\n".join(CLEAN_REF).encode("latin-1", errors="replace"),
        fragment="(line 1): not valid UTF-8 (byte 0xE9 at offset 7); save the file as UTF-8",
    ),
    FileCase("Windows-1252 quotes", b"ok\n\x93quoted\x94\nx\n", fragment="(line 2): not valid UTF-8 (byte 0x93"),
    FileCase("undecodable byte on line 3 after CRs", b"a\rb\r\xff\r", fragment="(line 3): not valid UTF-8"),
    FileCase("NUL byte", b"a\nb\x00c\nd\n", fragment="(line 2): contains a NUL byte: this looks like a binary file"),
    FileCase(
        "binary file", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00", fragment="looks like a binary file, not text"
    ),
    FileCase(
        "UTF-16 without BOM",
        ("\n".join(CLEAN_REF) + "\n").encode("utf-16-le"),
        fragment="UTF-16 without a byte-order mark",
    ),
    FileCase(
        "truncated UTF-16", ("\n".join(CLEAN_REF) + "\n").encode("utf-16")[:-1], fragment="(line 3): not valid UTF-16"
    ),
    FileCase("empty hypothesis file", b"", which="hyp", fragment="hyp.txt: is empty but reference"),
    FileCase(
        "reference file one line short",
        utf8(CLEAN_REF[:2]),
        fragment="ref.txt: has 2 lines but the hypothesis hyp.txt has 3",
    ),
    FileCase(
        "extra blank line at the end",
        utf8([*CLEAN_REF, ""]),
        fragment="ref.txt: has 4 lines but the hypothesis hyp.txt has 3",
    ),
]


def file_pair(case: FileCase, folder: Path) -> tuple[Path, Path]:
    hyp, ref = folder / "hyp.txt", folder / "ref.txt"
    hyp.write_bytes(case.data if case.which == "hyp" else utf8(CLEAN_HYP))
    ref.write_bytes(case.data if case.which == "ref" else utf8(CLEAN_REF))
    return hyp, ref


def read_pair(case: FileCase) -> tuple[list[str], list[str]]:
    """What the CLI and the pages do with two files: decode both, then check that the line counts agree."""
    hyp = decode_lines(case.data if case.which == "hyp" else utf8(CLEAN_HYP), "hyp.txt")
    ref = decode_lines(case.data if case.which == "ref" else utf8(CLEAN_REF), "ref.txt")
    check_line_counts(("hyp.txt", hyp), [("ref.txt", ref)])
    return hyp, ref


@pytest.mark.parametrize("case", FILE_CASES, ids=case_id)
def test_file_reader_and_api(case: FileCase) -> None:
    if case.fragment is not None:
        with pytest.raises(InputFileError) as raised:
            read_pair(case)
        check_message(raised.value, case.fragment)
        assert str(raised.value).startswith(f"{case.which}.txt")
        return
    hyp, ref = read_pair(case)
    assert (hyp, ref) == (CLEAN_HYP, CLEAN_REF)
    assert bleu_core.corpus_bleu(hyp, [ref]) == bleu_core.corpus_bleu(CLEAN_HYP, [CLEAN_REF])


@pytest.mark.parametrize("case", FILE_CASES, ids=case_id)
def test_file_cli(
    case: FileCase, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    hyp, ref = file_pair(case, Path())
    code, out, err = run_cli([str(ref), "-i", str(hyp), "--statistics"], capsys)
    fragment = case.fragment
    if fragment is None:
        # The CLI reads as sacreBLEU does (so the same bytes give the same number): a line ends at LF only,
        # trailing whitespace (a CRLF's CR) is stripped, a UTF-8 BOM is kept; UTF-16/32 with a BOM are decoded.
        hyps, refs = sacrebleu_lines(hyp.read_bytes()), sacrebleu_lines(ref.read_bytes())
        if len(hyps) == len(refs):
            assert code == 0, err
            assert json.loads(out) == bleu_core.corpus_bleu(hyps, [refs]).to_dict()
            if hyps == CLEAN_HYP and refs == CLEAN_REF:
                assert "warning" not in err
            return
        fragment = "lines but the hypothesis"  # lone CRs do not end lines for sacreBLEU
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and fragment in err
    assert str(hyp if case.which == "hyp" else ref) in err


def sacrebleu_lines(data: bytes) -> list[str]:
    """Lines as ``sacrebleu`` reads a file (newline="\\n", each line right-stripped); UTF-16/32 by their BOM."""
    codec = next((c for bom, c in WIDE_BOMS if data.startswith(bom)), "utf-8")
    lines = data.decode(codec).split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


WIDE_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32"),
    (b"\x00\x00\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)


EXPLAIN_FILE_CASES = [case for case in FILE_CASES if case.which == "ref" and "hypothesis" not in (case.fragment or "")]


@pytest.mark.parametrize("case", EXPLAIN_FILE_CASES, ids=case_id)
def test_file_explain_page_upload(case: FileCase) -> None:
    at = AppTest.from_file(EXPLAIN_PAGE, default_timeout=60).run()
    before = at.session_state["ex_references"]
    at.file_uploader(key="ex_upload_references").set_value((f"{case.which}.txt", case.data, "text/plain")).run()
    assert not at.exception
    if case.fragment is None:
        # the file is one reference: its lines joined with spaces (the page says so)
        assert at.session_state["ex_references"] == " ".join(line for line in CLEAN_REF if line.strip())
        count = sum(1 for line in CLEAN_REF if line.strip())
        assert any(f"ref.txt ({count} lines joined with spaces)" in unescaped(i.value) for i in at.info)
        assert not at.error
        return
    shown = [unescaped(e.value) for e in at.error]
    assert any(f"{case.which}.txt" in e and case.fragment in e for e in shown), page_messages(at)
    assert at.session_state["ex_references"] == before  # what the user had is kept


# ----------------------------------------------------------------------------------------------------------------
# Size: a 1,000,000-token line and a 200,000-segment corpus


def random_line(rng: random.Random, words: Sequence[str], length: int) -> str:
    return " ".join(rng.choices(words, k=length))


def test_million_token_line_against_itself() -> None:
    rng = random.Random(1)
    line = random_line(rng, [f"w{i}" for i in range(5000)], 1_000_000)
    result = bleu_core.corpus_bleu([line], [[line]])
    assert result.score == 1.0 and result.sys_len == result.ref_len == 1_000_000
    assert result.counts == result.totals == (1_000_000, 999_999, 999_998, 999_997)


def test_200k_segment_corpus_equals_sacrebleu_on_its_repeated_block() -> None:
    """100 copies of a 2,000-segment block: every count scales by 100, so the score is the block's score.

    (True only when no order has zero matches, since smoothing adds a constant: the small vocabulary ensures that.)
    """
    rng = random.Random(2)
    words = [f"w{i}" for i in range(12)]
    block_h = [random_line(rng, words, rng.randint(0, 14)) for _ in range(2000)]
    block_r = [random_line(rng, words, rng.randint(0, 14)) for _ in range(2000)]
    result = bleu_core.corpus_bleu(block_h * 100, [block_r * 100])
    theirs = BLEU().corpus_score(block_h, [block_r])
    assert all(theirs.counts)
    assert abs(result.score_100 - theirs.score) <= 1e-9
    assert list(result.counts) == [100 * c for c in theirs.counts]
    assert (result.sys_len, result.ref_len) == (100 * theirs.sys_len, 100 * theirs.ref_len)


@pytest.mark.slow
def test_million_token_line_equals_sacrebleu_via_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(3)
    words = [f"w{i}" for i in range(3000)]
    hyp, ref = random_line(rng, words, 1_000_000), random_line(rng, words, 1_000_000)
    theirs = BLEU().corpus_score([hyp], [[ref]])
    code, out, err = run_cli(
        [write_lines(tmp_path / "r.txt", [ref]), "-i", write_lines(tmp_path / "h.txt", [hyp])], capsys
    )
    assert code == 0, err
    record = json.loads(out)
    assert abs(record["score"] - theirs.score) <= 1e-9 and record["counts"] == list(theirs.counts)


@pytest.mark.slow
def test_200k_segment_corpus_equals_sacrebleu_via_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(4)
    words = [f"w{i}" for i in range(80)] + [".", ",", "3.5", "a-b"]
    hyps = [random_line(rng, words, rng.randint(0, 20)) for _ in range(200_000)]
    refs = [random_line(rng, words, rng.randint(0, 20)) for _ in range(200_000)]
    theirs = BLEU().corpus_score(hyps, [refs])
    code, out, err = run_cli(
        [write_lines(tmp_path / "r.txt", refs), "-i", write_lines(tmp_path / "h.txt", hyps)], capsys
    )
    assert code == 0, err
    record = json.loads(out)
    assert abs(record["score"] - theirs.score) <= 1e-9 and record["counts"] == list(theirs.counts)


def test_case_table_is_big_enough() -> None:
    assert len(CASES) + len(SENTENCE_CASES) + len(FILE_CASES) >= 40
    assert len({case.name for case in CASES}) == len(CASES)
    assert len({case.name for case in FILE_CASES}) == len(FILE_CASES)


def test_explain_page_shows_every_upload_problem_at_once() -> None:
    """A Latin-1 candidate file, then an empty and a bad reference file: all three are named, none hides another,
    and the text the user had stays."""
    at = AppTest.from_file(EXPLAIN_PAGE, default_timeout=60).run()
    before = (at.session_state["ex_candidate"], at.session_state["ex_references"])
    at.file_uploader(key="ex_upload_candidate").set_value(("cand.txt", "caf\xe9\n".encode("latin-1"), "")).run()
    references = [("empty.txt", b"", "text/plain"), ("bad.txt", b"ok\n\xff\xfe\xfa\n", "text/plain")]
    at.file_uploader(key="ex_upload_references").set_value(references).run()
    assert not at.exception
    shown = " ".join(unescaped(e.value) for e in at.error)
    assert "cand.txt" in shown and "bad.txt" in shown, shown
    assert (at.session_state["ex_candidate"], at.session_state["ex_references"]) == before
    at.file_uploader(key="ex_upload_references").set_value([("good.txt", b"a cat\n", "text/plain")]).run()
    shown = " ".join(unescaped(e.value) for e in at.error)
    assert "cand.txt" in shown and "bad.txt" not in shown  # fixing one upload leaves the other's problem shown
    assert at.session_state["ex_references"] == "a cat"
