"""``python -m bleu_core --tags FILE`` (our flag): every metric's score per label equals sacreBLEU scoring that label's
lines alone; with ``--paired-bs`` each label's p-value is sacreBLEU's on the subset and its Holm correction is
recomputed here; bad tags files end with one line and status 1, never a traceback."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest

from bleu_core.cli.main import run
from tests.core.test_slices import _holm

REF = ["The cat sat on the mat .", "A dog barked loudly", "", "Hello world , again", "It is RAINING today!", "one two"]
HYPS = {
    "a.txt": ["The cat sat on a mat.", "The dog barked", "", "Hello there world again", "it is raining today", "one"],
    "b.txt": ["The cat is on a mat.", "A dog barks", "x", "Hello world again", "It rains, today.", "one two"],
}
TAGS = ["news", "news", "", "sport", " news", "doc 7"]


@pytest.mark.parametrize("options", [[], ["--ter-case-sensitive", "--ter-no-punct"], ["--ter-normalized"]])
def test_ter_alone_per_label_keeps_its_own_options(
    folder: Path, capsys: pytest.CaptureFixture[str], options: list[str]
) -> None:
    status, out, err = _run(capsys, "ref.txt", "-i", "a.txt", "b.txt", "-m", "ter", *options, "--tags", "tags.txt")
    assert status == 0 and err == ""
    settings = {
        "case_sensitive": "--ter-case-sensitive" in options,
        "no_punct": "--ter-no-punct" in options,
        "normalized": "--ter-normalized" in options,
    }
    for record in json.loads(out):
        hyps = _subset(HYPS[record["system"]], record["label"])
        assert set(record) == {"label", "segments", "system", "TER"}
        assert record["TER"] == round(TER(**settings).corpus_score(hyps, [_subset(REF, record["label"])]).score, 1)


@pytest.fixture(autouse=True)
def _quiet_sacrebleu(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    monkeypatch.delenv("SACREBLEU_FORMAT", raising=False)
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    yield


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "ref.txt").write_text("\n".join(REF) + "\n", encoding="utf-8")
    for name, lines in HYPS.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "tags.txt").write_text("\n".join(TAGS) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = run(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def _subset(lines: list[str], label: str | None) -> list[str]:
    return [line for line, tag in zip(lines, TAGS, strict=True) if label is None or tag.strip() == label]


def test_json_records_hold_every_labels_bleu_chrf_and_ter_as_sacrebleu_on_the_subset(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = _run(
        capsys, "ref.txt", "-i", "a.txt", "b.txt", "-m", "bleu", "chrf", "ter", "--tags", "tags.txt", "-w", "4"
    )
    assert status == 0 and err == ""
    records = json.loads(out)
    assert [(r["label"], r["system"]) for r in records] == [
        (label, system) for label in (None, "news", "", "sport", "doc 7") for system in HYPS
    ]
    for record in records:
        hyps = _subset(HYPS[record["system"]], record["label"])
        refs = [_subset(REF, record["label"])]
        assert record["segments"] == len(hyps)
        assert record["BLEU"] == round(BLEU().corpus_score(hyps, refs).score, 4)
        assert record["chrF2"] == round(CHRF().corpus_score(hyps, refs).score, 4)
        assert record["TER"] == round(TER().corpus_score(hyps, refs).score, 4)
        assert "p_value" not in record


def test_paired_bootstrap_per_label_is_sacrebleus_on_the_subset_and_holm_corrected(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = _run(
        capsys, "ref.txt", "-i", "a.txt", "b.txt", "--tags", "tags.txt", "--paired-bs", "-pbsn", "300"
    )
    assert status == 0
    tested = [r for r in json.loads(out) if r["label"] is not None and r["system"] == "b.txt"]
    raw = []
    for record in tested:
        ordered = [(name, _subset(lines, record["label"])) for name, lines in HYPS.items()]
        metric = BLEU(references=[_subset(REF, record["label"])])
        _, scores = PairedTest(ordered, {"BLEU": metric}, None, test_type="bs", n_samples=300)()
        p_value = scores["BLEU"][1].p_value  # type: ignore[union-attr]
        raw.append(p_value)
        assert record["p_value"] == round(p_value, 4), record["label"]
    for record, corrected in zip(tested, _holm(raw), strict=True):
        assert record["p_corrected"] == round(corrected, 4)
    baseline = [r for r in json.loads(out) if r["label"] is not None and r["system"] == "a.txt"]
    assert all(r["p_value"] is None for r in baseline)


def test_text_table_names_labels_and_the_test(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "ref.txt", "-i", "a.txt", "b.txt", "--tags", "tags.txt", "--paired-bs", "-f", "text")
    assert status == 0
    assert out.startswith("Scores by label of tags.txt\n")
    for text in ("(corpus)", "(no label)", "doc 7", "p (Holm)", "corrected over 4 tests (labels x systems)"):
        assert text in out
    corpus_row = next(line for line in out.splitlines() if "(corpus)" in line and "b.txt" in line)
    assert f"{BLEU().corpus_score(HYPS['b.txt'], [REF]).score:.1f}" in corpus_row


def test_without_tags_the_output_is_unchanged(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, plain, _ = _run(capsys, "ref.txt", "-i", "a.txt", "-b")
    assert plain == f"{BLEU().corpus_score(HYPS['a.txt'], [REF]).score:.1f}\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"news\nsport\n", "tags.txt: The tags file has 2 lines but the corpus has 6 segments"),
        (b"", "tags.txt: The tags file is empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "tags.txt (line 3): contains a NUL byte"),
        (b"caf\xe9\n" * 6, "tags.txt (line 1): "),
    ],
    ids=["wrong line count", "empty", "binary", "not UTF-8"],
)
def test_a_bad_tags_file_ends_with_one_line_not_a_traceback(
    folder: Path, capsys: pytest.CaptureFixture[str], content: bytes, message: str
) -> None:
    (folder / "tags.txt").write_bytes(content)
    status, out, err = _run(capsys, "ref.txt", "-i", "a.txt", "--tags", "tags.txt")
    assert status == 1 and out == ""
    assert err.startswith("bleu_core: error: " + message) and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("flag", ["-sl", "--segment-json", "--statistics", "--confidence"])
def test_flags_without_a_per_label_form_are_refused(
    folder: Path, capsys: pytest.CaptureFixture[str], flag: str
) -> None:
    status, out, err = _run(capsys, "ref.txt", "-i", "a.txt", "--tags", "tags.txt", flag)
    assert status == 1 and out == ""
    assert "--tags cannot be combined with" in err


def test_a_missing_tags_file_fails_before_the_corpus_is_read(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _run(capsys, "ref.txt", "-i", "a.txt", "--tags", "nope.txt")
    assert status == 1 and err == "bleu_core: error: nope.txt: no such file\n"


def test_help_documents_the_flag() -> None:
    from bleu_core.cli.main import build_parser

    assert "--tags FILE" in build_parser().format_help()
