"""The CLI and the file reader: same numbers as the API, clear one-line errors with exit code 1 (as sacreBLEU)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleu_core
from bleu_core.cli import main as cli_module
from bleu_core.text.reader import InputFileError, decode_lines
from bleu_core.text.sacrebleu_reading import FieldCountError, stdin_systems

HYP = ["The cat sat on the mat.", "A dog barked twice."]
REF = ["The cat is on the mat.", "The dog barked twice."]


def cli(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "bleu_core", *args], input=stdin, capture_output=True, check=False, timeout=120
    )
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("\n".join(HYP) + "\n", encoding="utf-8")
    ref.write_text("\n".join(REF) + "\n", encoding="utf-8")
    return hyp, ref


def test_json_output_equals_api(files: tuple[Path, Path]) -> None:
    hyp, ref = files
    expected = bleu_core.corpus_bleu(HYP, [REF])
    done = cli(str(ref), "-i", str(hyp), "--statistics")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["score"] == expected.score_100
    assert record["counts"] == list(expected.counts)
    assert record["signature"].startswith("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:bleu_core-")
    plain = json.loads(cli(str(ref), "-i", str(hyp)).stdout)  # sacreBLEU's JSON: the score rounded to -w
    assert plain["score"] == round(expected.score_100, 1) and plain["signature"].startswith("nrefs:1|case:mixed")


def test_several_systems_share_the_references_and_score_as_alone(files: tuple[Path, Path], tmp_path: Path) -> None:
    # One system counts the references together with its hypothesis; several share prepared references.
    hyp, ref = files
    other = tmp_path / "other.txt"
    other_lines = ["The cat is on a mat .", "dog barked twice twice."]
    other.write_text("\n".join(other_lines) + "\n", encoding="utf-8")
    done = cli(str(ref), "-i", str(hyp), str(other), "--statistics")
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["hypothesis"] for r in records] == [str(hyp), str(other)]
    for record, lines in zip(records, [HYP, other_lines], strict=True):
        expected = bleu_core.corpus_bleu(lines, [REF])
        assert (record["score"], record["counts"]) == (expected.score_100, list(expected.counts))
        alone = json.loads(cli(str(ref), "-i", str(hyp if lines is HYP else other), "--statistics").stdout)
        assert (alone["score"], alone["counts"]) == (record["score"], record["counts"])


_THREADS_AFTER_RUN = """
import json, os, runpy, sys
sys.argv = ["bleu_core", *sys.argv[1:]]
try:
    runpy.run_module("bleu_core", run_name="__main__")
except SystemExit:
    pass
print(json.dumps({"setting": os.environ.get("OPENBLAS_NUM_THREADS"), "threads": len(os.listdir("/proc/self/task"))}))
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads in /proc (Linux)")
@pytest.mark.parametrize("preset", [None, "2"])
def test_command_line_starts_no_blas_threads_unless_told(
    files: tuple[Path, Path], preset: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The command line does no linear algebra: OpenBLAS's worker threads (which busy-wait after numpy's
    # import) are not started, unless the environment asks for them.
    if preset is None:
        monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    else:
        monkeypatch.setenv("OPENBLAS_NUM_THREADS", preset)
    hyp, ref = files
    done = subprocess.run(
        [sys.executable, "-c", _THREADS_AFTER_RUN, str(ref), "-i", str(hyp), "--statistics"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    *score, last = done.stdout.splitlines()
    assert json.loads(score[0])["score"] == bleu_core.corpus_bleu(HYP, [REF]).score_100
    report = json.loads(last)
    if preset is None:
        assert report == {"setting": "1", "threads": 1}
    else:
        assert report["setting"] == preset
        if (os.cpu_count() or 1) > 1:  # OpenBLAS starts up to one thread per core
            assert report["threads"] > 1


def test_stdin_score_only_and_width(files: tuple[Path, Path]) -> None:
    hyp, ref = files
    done = cli(str(ref), "-b", "-w", "3", stdin=hyp.read_bytes())
    assert done.stdout.strip() == f"{bleu_core.corpus_bleu(HYP, [REF]).score_100:.3f}"


def test_options_reach_the_score(files: tuple[Path, Path]) -> None:
    hyp, ref = files
    args = ["-tok", "none", "-lc", "-s", "floor", "--smooth-value", "0.2", "--weights", "1,1", "-b", "-w", "6"]
    done = cli(str(ref), "-i", str(hyp), *args)
    expected = bleu_core.corpus_bleu(
        HYP, [REF], tokenize="none", lowercase=True, smooth="floor", smooth_value=0.2, weights=[1, 1]
    )
    assert done.stdout.strip() == f"{expected.score_100:.6f}"


def test_segment_json_lines(files: tuple[Path, Path]) -> None:
    hyp, ref = files
    done = cli(str(ref), "-i", str(hyp), "--segment-json")
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["segment"] for r in records] == [1, 2]
    expected = bleu_core.sentence_scores(HYP, [REF])
    assert [r["score"] for r in records] == [100 * s for s in expected]
    lines = cli(str(ref), "-i", str(hyp), "-sl", "-b", "-w", "4").stdout.splitlines()  # sacreBLEU's -sl
    assert lines == [f"{100 * s:.4f}" for s in expected]


def test_text_format(files: tuple[Path, Path]) -> None:
    hyp, ref = files
    done = cli(str(ref), "-i", str(hyp), "-f", "text")
    assert done.stdout.startswith("BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:") and " = " in done.stdout


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"The cat\n\xe9t\xe9\n", "(line 2): not valid UTF-8 (byte 0xE9"),
        (b"The cat\x00\nx\n", "(line 1): contains a NUL byte"),
        (b"only one line\n", "has 1 lines but the hypothesis"),
        (b"", "is empty but reference"),
    ],
)
def test_bad_files_exit_1_with_one_line(
    files: tuple[Path, Path], tmp_path: Path, content: bytes, fragment: str
) -> None:
    _, ref = files
    bad = tmp_path / "bad.txt"
    bad.write_bytes(content)
    order = [str(bad), "-i", str(ref)] if b"one line" in content else [str(ref), "-i", str(bad)]
    done = cli(*order)
    assert done.returncode == 1
    assert fragment in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "bad.txt" in done.stderr


def test_missing_file(files: tuple[Path, Path]) -> None:
    done = cli("no-such-file.txt", "-i", str(files[0]))
    assert done.returncode == 1 and "no-such-file.txt: no such file" in done.stderr


@pytest.mark.parametrize(
    "encoded",
    [
        "\n".join(HYP).encode("utf-8"),
        b"\xef\xbb\xbf" + "\n".join(HYP).encode("utf-8") + b"\n",
        "\n".join(HYP).encode("utf-16"),
        "\ufeff".encode("utf-16-be") + "\n".join(HYP).encode("utf-16-be"),
        "\r\n".join(HYP).encode("utf-8") + b"\r\n",
        "\r".join(HYP).encode("utf-8"),
    ],
    ids=["no-final-newline", "utf8-bom", "utf16-le-bom", "utf16-be-bom", "crlf", "lone-cr"],
)
def test_encodings_and_line_endings_read_the_same(encoded: bytes) -> None:
    assert decode_lines(encoded, "f.txt") == HYP


def test_reader_errors_name_the_file() -> None:
    with pytest.raises(InputFileError, match=r"sys.txt \(line 3\)"):
        decode_lines(b"a\nb\n\xff\xfe\xfd\n", "sys.txt")
    assert decode_lines(b"", "empty.txt") == []
    assert decode_lines(b"\n\n", "blank.txt") == ["", ""]


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(alphabet="ab\r\n é\x85\t\x0c\x1c\u2028\u200b\ufeff", max_size=40),
    encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-32"]),
    block=st.integers(1, 7),
    take=st.integers(1, 5),
)
def test_cli_reads_blocks_into_sacrebleus_lines(text: str, encoding: str, block: int, take: int) -> None:
    # The CLI splits blocks of text into lines; any block and chunk size must give the lines sacreBLEU reads
    # (a file opened with newline="\n", every line right-stripped); UTF-16/32 with a BOM are read too.
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "f.txt"
        path.write_bytes(text.encode(encoding))
        codec = "utf-8" if encoding.startswith("utf-8") else encoding  # sacreBLEU keeps a UTF-8 BOM
        with open(path, encoding=codec, newline="\n") as handle:
            expected = [line.rstrip() for line in handle]
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(cli_module, "BLOCK_BYTES", block)
            source = cli_module._Source(str(path), "utf-8")
            lines: list[str] = []
            while chunk := source.take(take):
                assert len(chunk) == take or not source.take(take)
                lines += chunk
            source.close()
    assert lines == expected


def _sacrebleu_stdin(data: bytes) -> list[list[str]] | str:
    """sacreBLEU 2.6's loop over standard input (``sacrebleu.py``, ``if args.input is None``), or "17"."""
    handle = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    systems = [[field] for field in handle.readline().rstrip().split("\t")]
    for line in handle:
        fields = line.rstrip().split("\t")
        if len(fields) != len(systems):
            return "17"
        for system, sentence in zip(systems, fields, strict=True):
            system.append(sentence.rstrip())
    return systems


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="ab\t\r\n \x0c\x1c\x85\u2028\u200b\ufeff", max_size=40))
def test_standard_input_splits_into_sacrebleus_systems(text: str) -> None:
    # Universal newlines, tab-separated columns, the first line's fields kept as split (sacreBLEU's quirk).
    data = text.encode("utf-8")
    try:
        ours: list[list[str]] | str = stdin_systems(data, "utf-8")
    except FieldCountError:
        ours = "17"
    assert ours == _sacrebleu_stdin(data)
