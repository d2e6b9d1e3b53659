"""The bad-input file cases and corpus text cases through the corpus and compare pages (AppTest).

Every case either scores exactly like the clean input or shows an on-page error naming the file; no case raises.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sacrebleu
from streamlit.testing.v1 import AppTest

import bleu_core
from bleu_core.text.reader import InputFileError, decode_lines
from tests.core.test_bad_input import CLEAN_HYP, CLEAN_REF, FILE_CASES, FileCase, case_id, utf8
from tests.pages.test_corpus_page import plain

ROOT = Path(__file__).resolve().parents[2]
CORPUS = str(ROOT / "pages" / "corpus.py")
COMPARE = str(ROOT / "pages" / "compare.py")
CLEAN = bleu_core.corpus_bleu(CLEAN_HYP, [CLEAN_REF])


def files(case: FileCase) -> tuple[bytes, bytes]:
    hyp = case.data if case.which == "hyp" else utf8(CLEAN_HYP)
    ref = case.data if case.which == "ref" else utf8(CLEAN_REF)
    return hyp, ref


def errors(at: AppTest) -> str:
    return " ".join(plain(e.value) for e in at.error)


def expected_error(case: FileCase) -> str:
    """What the page says: the reader's message, or the linter's line-count message naming both files."""
    assert case.fragment is not None
    if "lines but the hypothesis" in case.fragment:
        return case.fragment.replace("ref.txt: has", "ref.txt has")
    if "is empty but reference" in case.fragment:
        return "ref.txt has 3 lines but the hypothesis hyp.txt has 0 lines"
    return case.fragment


@pytest.mark.parametrize("case", FILE_CASES, ids=case_id)
def test_corpus_page_file_case(case: FileCase) -> None:
    at = AppTest.from_file(CORPUS, default_timeout=60).run()
    at.radio(key="co_mode").set_value("upload").run()
    hyp, ref = files(case)
    at.file_uploader(key="co_hyp_file").set_value(("hyp.txt", hyp, "text/plain"))
    at.file_uploader(key="co_ref_files").set_value([("ref.txt", ref, "text/plain")])
    at.run()
    assert not at.exception
    if case.fragment is None:
        assert not at.error, errors(at)
        shown = next(m.value for m in at.metric if m.label == "BLEU ×100")
        assert shown == f"{100 * CLEAN.score:.2f}"
        return
    assert expected_error(case) in errors(at)
    assert not at.metric
    # both files were given: the page never asks for them, and an unreadable one is named as the reason
    infos = " ".join(i.value for i in at.info)
    assert "Scores appear once a hypothesis" not in infos
    try:
        decode_lines(case.data, "file")
    except InputFileError:
        assert "Scores appear once every file reads as text" in infos


@pytest.mark.parametrize("case", FILE_CASES, ids=case_id)
def test_compare_page_file_case(case: FileCase) -> None:
    at = AppTest.from_file(COMPARE, default_timeout=60).run()
    at.radio(key="cmp_mode").set_value("Upload files").run()
    hyp, ref = files(case)
    other = utf8(["The cafe sat on a mat.", "Nothing at all.", "A dog barked."])
    at.file_uploader(key="cmp_systems").set_value([("hyp.txt", hyp, "text/plain"), ("other.txt", other, "")])
    at.file_uploader(key="cmp_references").set_value([("ref.txt", ref, "text/plain")])
    at.run()
    assert not at.exception
    if case.fragment is None:
        assert not at.error, errors(at)
        table = next(d.value for d in at.dataframe if "p-value" in d.value.columns).set_index("system")
        assert table.loc["hyp", "BLEU"] == pytest.approx(round(CLEAN.score_100, 2), abs=1e-9)
        return
    text = errors(at)
    if "lines but" in case.fragment:  # a reference of the wrong length: each system is reported and left out
        assert "hyp.txt has 3 lines but the references have" in text, text
    elif "is empty" in case.fragment:
        assert "hyp.txt has 0 lines but the references have 3" in text, text
    else:
        assert f"{case.which}.txt" in text and case.fragment in text, text


TEXT_CASES = {
    "empty lines inside a corpus": ("a cat sat\n\nthe end", "a cat sat here\nnothing\nthe end"),
    "whitespace-only lines": ("  \nthe end\n\t", "x\nthe end\ny"),
    "CJK text with 13a": ("我们今天去公园\n天气很好", "我们今天去公园散步\n今天天气很好"),
    "right-to-left and emoji": ("مرحبا بالعالم 🐕\nשלום", "مرحبا بالعالم\nשלום עולם 🐕"),
    "zero-width and BOM inside lines": ("a\u200bb c\ufeffd\nx", "ab cd\nx"),
}


@pytest.mark.parametrize("name", list(TEXT_CASES))
def test_corpus_page_pasted_text_equals_sacrebleu(name: str) -> None:
    hyp, ref = TEXT_CASES[name]
    at = AppTest.from_file(CORPUS, default_timeout=60).run()
    at.radio(key="co_mode").set_value("paste").run()
    at.text_area(key="co_paste_hyp").set_value(hyp)
    at.text_area(key="co_paste_ref0").set_value(ref)
    at.run()
    assert not at.exception
    expected = sacrebleu.corpus_bleu(hyp.split("\n"), [ref.split("\n")])
    assert next(m.value for m in at.metric if m.label == "BLEU ×100") == f"{expected.score:.2f}"


def test_corpus_page_all_empty_corpus_is_an_error_not_a_crash() -> None:
    at = AppTest.from_file(CORPUS, default_timeout=60).run()
    at.radio(key="co_mode").set_value("paste").run()
    at.text_area(key="co_paste_hyp").set_value("\n\n")
    at.text_area(key="co_paste_ref0").set_value("\n\n")
    at.run()
    assert not at.exception
    assert "has only empty lines" in errors(at)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("CAT\n".encode("utf-16-le"), "hyp.txt（第 1 行）：含有 NUL 字节：它看起来是没有字节顺序标记（BOM）的 UTF-16"),
        (b"caf\xe9\n", "hyp.txt（第 1 行）：不是有效的 UTF-8 编码（偏移 3 处的字节 0xE9）"),
    ],
)
def test_file_errors_speak_the_page_language(data: bytes, expected: str) -> None:
    at = AppTest.from_file(CORPUS, default_timeout=60)
    at.query_params["lang"] = "zh"
    at.run()
    at.radio(key="co_mode").set_value("upload").run()
    at.file_uploader(key="co_hyp_file").set_value(("hyp.txt", data, "text/plain"))
    at.file_uploader(key="co_ref_files").set_value([("ref.txt", utf8(CLEAN_REF), "text/plain")])
    at.run()
    assert not at.exception
    assert expected in errors(at)
    with pytest.raises(InputFileError, match=r"^hyp\.txt \(line 1\): (contains NUL|not valid UTF-8)"):
        decode_lines(data, "hyp.txt")  # the core's own message stays English (the command line prints it)
