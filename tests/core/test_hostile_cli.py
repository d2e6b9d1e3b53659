"""The command line's edges (issue 31, "CLI edges"), each run as a real process next to ``python -m sacrebleu``.

* ``-i`` from a FIFO, from process substitution or from ``/dev/stdin`` fed by a pipe reads as sacreBLEU reads
  it (before: "not seekable");
* ``-nr 0`` and ``-nr -3`` are refused in one line with sacreBLEU's exit status (17) instead of scoring;
* ``-w -1`` is refused in one line (sacreBLEU: a traceback; we: "Format specifier missing precision");
* ``-s add-k -sv 1e308`` is refused: sacreBLEU prints ``"score": Infinity``, which is not JSON; every JSON we
  print parses with a strict parser;
* a NUL byte is refused on standard input as it is in a file, with the same message.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bleu_core.cli import main as cli
from tests.conftest import ROOT

ENV = {
    **{k: v for k, v in os.environ.items() if k not in ("SACREBLEU_FORMAT", "SACREBLEU_SEED")},
    "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
}
OURS = [sys.executable, "-m", "bleu_core"]
SACREBLEU = [sys.executable, "-m", "sacrebleu"]
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs (POSIX)")

#: Four lines as sacreBLEU reads a file: a CRLF ending (stripped), a lone CR inside a line (kept), an empty
#: line, and a last line without a line feed.
HYP = b"The cat sat on a mat.\r\nThe dog\rbarked twice  \n\nHello there world again"
REF = b"The cat sat on the mat .\nThe dog barked twice\n\nHello world , again\n"


def run(command: list[str], *args: str, stdin: bytes = b"", cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [*command, *args], input=stdin, capture_output=True, cwd=cwd, check=False, timeout=300, env=ENV
    )  # fmt: skip
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


def masked(output: str) -> str:
    """The report with the version in the signature masked (sacreBLEU prints its own, we print ours)."""
    import re

    return re.sub(r"\b(version|v):[^|\"\s]+", r"\1:X", re.sub(r'"version": "[^"]*"', '"version": "X"', output))


def strict_json(text: str) -> Any:
    """``json.loads`` that refuses NaN and Infinity (JSON has neither)."""

    def refuse(constant: str) -> Any:
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def one_line_error(done: subprocess.CompletedProcess[str], status: int, fragment: str) -> None:
    assert done.returncode == status, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith("bleu_core: error: ") and done.stderr.count("\n") == 1, done.stderr
    assert fragment in done.stderr and "Traceback" not in done.stderr


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "hyp.txt").write_bytes(HYP)
    (tmp_path / "ref.txt").write_bytes(REF)
    return tmp_path


# ---------------------------------------------------------------------------------------------------------
# -i from a FIFO, process substitution, /dev/stdin


@contextlib.contextmanager
def fifo_fed(path: Path, data: bytes) -> Iterator[Path]:
    """A FIFO at ``path`` that a thread writes ``data`` into once a reader opens it."""
    os.mkfifo(path)

    def feed() -> None:
        with contextlib.suppress(OSError), open(path, "wb") as handle:
            handle.write(data)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        yield path
    finally:
        if writer.is_alive():  # the reader never opened it (or stopped early): let the writer's open return
            with contextlib.suppress(OSError):
                os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
        writer.join(10)


@needs_fifo
@pytest.mark.parametrize("flags", [["-f", "text"], ["-sl", "-w", "3"]], ids=["corpus", "sentences"])
def test_a_fifo_reads_as_sacrebleu_reads_it(files: Path, flags: list[str]) -> None:
    outputs = []
    for n, command in enumerate((SACREBLEU, OURS)):
        with fifo_fed(files / f"hyp{n}.fifo", HYP) as hyp, fifo_fed(files / f"ref{n}.fifo", REF) as ref:
            outputs.append(run(command, str(ref), "-i", str(hyp), *flags))
    theirs, ours = outputs
    assert theirs.returncode == 0, theirs.stderr
    assert (ours.returncode, masked(ours.stdout)) == (0, masked(theirs.stdout)), ours.stderr


def test_dev_stdin_fed_by_a_pipe_reads_as_a_file(files: Path) -> None:
    # -i /dev/stdin is a file to both: a lone CR stays in its line (standard input proper splits on it).
    if not Path("/dev/stdin").exists():
        pytest.skip("no /dev/stdin")
    args = [str(files / "ref.txt"), "-i", "/dev/stdin", "-f", "text"]
    theirs, ours = run(SACREBLEU, *args, stdin=HYP), run(OURS, *args, stdin=HYP)
    assert theirs.returncode == 0, theirs.stderr
    assert (ours.returncode, masked(ours.stdout)) == (0, masked(theirs.stdout)), ours.stderr


def test_process_substitution_reads_as_sacrebleu_reads_it(files: Path) -> None:
    bash = shutil.which("bash")
    if bash is None or not Path("/dev/fd").exists():
        pytest.skip("needs bash and /dev/fd")
    outputs = []
    for command in (SACREBLEU, OURS):
        line = " ".join([*command, "<(cat ref.txt)", "-i", "<(cat hyp.txt)", "-f", "text"])
        done = subprocess.run([bash, "-c", line], cwd=files, capture_output=True, text=True, timeout=300, env=ENV)
        outputs.append(done)
    theirs, ours = outputs
    assert theirs.returncode == 0, theirs.stderr
    assert (ours.returncode, masked(ours.stdout)) == (0, masked(theirs.stdout)), ours.stderr


@needs_fifo
def test_bad_bytes_in_a_fifo_name_the_line_without_reading_it_again(files: Path) -> None:
    # Before, a decoding error re-read the whole file to find the line: a FIFO cannot be read twice.
    with fifo_fed(files / "hyp.fifo", b"fine\n\xe9t\xe9\nmore\n") as hyp:
        done = run(OURS, str(files / "ref.txt"), "-i", str(hyp))
    one_line_error(done, 1, "hyp.fifo (line 2): not valid UTF-8 (byte 0xE9 at offset 5)")


@needs_fifo
def test_dask_reads_a_fifo_here(files: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # With --dask the workers open regular files themselves; a FIFO (read once) is read here and sent as text.
    pytest.importorskip("dask")
    from bleu_core.scale import cluster

    seen: list[object] = []

    def fake_cluster(address: str, files: object, chunks: Any, options: object, sink: Any) -> bool:
        seen.append(files)
        for hyp_chunks, ref_chunks in chunks():
            for k, stats in enumerate(
                cli.score_chunk(hyp_chunks, ref_chunks, options.tokenize, options.lowercase, options.max_order)  # type: ignore[attr-defined]
            ):
                sink.add(k, stats)
        return files is None

    monkeypatch.setattr(cluster, "score_on_cluster", fake_cluster)
    ref = str(files / "ref.txt")
    outputs = []
    with fifo_fed(files / "hyp.fifo", HYP) as hyp:
        with contextlib.redirect_stdout(io.StringIO()) as out:
            assert cli.run([ref, "-i", str(hyp), "--dask", "tcp://nowhere:1", "-b", "-w", "6"]) == 0
        outputs.append(out.getvalue())
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert cli.run([ref, "-i", str(files / "hyp.txt"), "--dask", "tcp://nowhere:1", "-b", "-w", "6"]) == 0
    outputs.append(out.getvalue())
    assert seen[0] is None and seen[1] is not None
    assert outputs[0] == outputs[1]


# ---------------------------------------------------------------------------------------------------------
# Argument checks


@pytest.mark.parametrize("n_refs", ["0", "-3"])
def test_num_refs_below_one_is_refused_with_sacrebleus_status(files: Path, n_refs: str) -> None:
    # sacreBLEU stops at the first line ("expected 0 fields, but found 1") with status 17; before, we scored.
    args = [str(files / "ref.txt"), "-i", str(files / "hyp.txt"), "-nr", n_refs]
    theirs = run(SACREBLEU, *args)
    assert (theirs.returncode, theirs.stdout) == (17, "")
    one_line_error(run(OURS, *args), 17, "--num-refs must be 1 or more (the number of tab-separated references")


def test_a_huge_num_refs_fails_on_the_first_line_without_allocating(files: Path) -> None:
    # Before (and in sacreBLEU), -nr 1000000000 made a billion empty lists before reading a line (gigabytes, then
    # the first line's field count error); now the line is checked first.
    (files / "tabs.txt").write_bytes(b"a\tb\n" * 4)
    done = run(OURS, str(files / "tabs.txt"), "-i", str(files / "hyp.txt"), "-nr", "1000000000", "-b")
    assert done.returncode == 17 and done.stdout == ""
    assert "line 1: expected 1000000000 fields, but found 2" in done.stderr


@pytest.mark.parametrize("flags", [["-w", "-1"], ["-w", "-1", "-f", "text"], ["-w", "-5", "-b"], ["-w", "1075"]])
def test_width_out_of_range_is_refused_in_one_line(files: Path, flags: list[str]) -> None:
    # sacreBLEU fails on -w -1 with a traceback (status 1); before, we printed Python's "Format specifier
    # missing precision". More than 1074 decimals only adds zeros (and -w 2000000000 asks for gigabytes).
    args = [str(files / "ref.txt"), "-i", str(files / "hyp.txt"), *flags]
    if flags[1].startswith("-"):
        theirs = run(SACREBLEU, *args)
        assert theirs.returncode == 1 and "Traceback" in theirs.stderr
    one_line_error(run(OURS, *args), 1, "--width must be a whole number of decimals from 0 to 1074")


@pytest.mark.parametrize("flags", [["-w", "0"], ["-w", "1074", "-b"], ["-w", "40", "-f", "text"]])
def test_widths_in_range_print_what_sacrebleu_prints(files: Path, flags: list[str]) -> None:
    args = [str(files / "ref.txt"), "-i", str(files / "hyp.txt"), *flags]
    theirs, ours = run(SACREBLEU, *args), run(OURS, *args)
    assert theirs.returncode == 0 and theirs.stdout
    assert (ours.returncode, masked(ours.stdout)) == (0, masked(theirs.stdout))


def test_an_overflowing_add_k_value_is_refused_not_printed_as_infinity(files: Path) -> None:
    args = [str(files / "ref.txt"), "-i", str(files / "hyp.txt"), "-s", "add-k", "-sv", "1e308", "-f", "json"]
    theirs = run(SACREBLEU, *args)
    assert theirs.returncode == 0 and '"score": Infinity' in theirs.stdout  # sacreBLEU's output is not JSON
    with pytest.raises(ValueError, match="not JSON"):
        strict_json(theirs.stdout)
    one_line_error(run(OURS, *args), 1, "--smooth-value for add-k must be at most 1e+306")
    # Up to the bound, the same finite number and bytes as sacreBLEU.
    args[-3] = "1e306"
    theirs, ours = run(SACREBLEU, *args), run(OURS, *args)
    assert (ours.returncode, masked(ours.stdout)) == (0, masked(theirs.stdout))
    assert strict_json(ours.stdout)["score"] == strict_json(theirs.stdout)["score"]


EDGE_FLAGS = [
    ["-s", "add-k", "-sv", "1e308"],
    ["-s", "add-k", "-sv", "1.7e306"],
    ["-s", "add-k", "-sv", "1e306"],
    ["-s", "add-k", "-sv", "0"],
    ["-s", "floor", "-sv", "0"],
    ["-s", "floor", "-sv", "1e-320"],
    ["-s", "none"],
    ["--weights", "1e308,1e308,1e308,1e308"],
    ["--max-ngram-order", "100"],
    ["-w", "1074"],
]


@pytest.mark.parametrize("output", [[], ["--statistics"], ["--segment-json"], ["-b"], ["second"]])
@pytest.mark.parametrize("flags", EDGE_FLAGS, ids=lambda flags: " ".join(flags))
def test_every_json_we_print_is_json(
    files: Path, flags: list[str], output: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # Either a refusal (nothing on standard output) or output that a strict JSON parser reads.
    hyps = [str(files / "hyp.txt")]
    if output == ["second"]:
        (files / "other.txt").write_bytes(REF)
        hyps.append(str(files / "other.txt"))
        output = []
    code = cli.run([str(files / "ref.txt"), "-i", *hyps, *flags, *output])
    out = capsys.readouterr().out
    if code != 0:
        assert out == ""
        return
    if output == ["-b"]:
        assert "inf" not in out.lower() and "nan" not in out.lower()
        return
    records = [strict_json(line) for line in out.splitlines()] if output else [strict_json(out)]
    assert records


# ---------------------------------------------------------------------------------------------------------
# The same NUL rule for standard input and files

NUL_CASES = {
    "binary": (b"The cat sat\x00 on a mat.\nA dog\n", 1, "contains a NUL byte: this looks like a binary file"),
    "second-line": (b"The cat sat on a mat.\nA dog\x00\n", 2, "contains a NUL byte: this looks like a binary file"),
    "utf-16-without-bom": (
        "The cat\nA dog\n".encode("utf-16-le"),
        1,
        "contains NUL bytes: this looks like UTF-16 without a byte-order mark",
    ),
}


@pytest.mark.parametrize("case", list(NUL_CASES))
def test_nul_is_refused_on_standard_input_as_in_a_file(files: Path, case: str) -> None:
    # sacreBLEU scores NUL characters (in files and on standard input); we refuse both, with one message.
    data, line, fragment = NUL_CASES[case]
    (files / "nul.txt").write_bytes(data)
    ref = str(files / "ref.txt")
    from_file = run(OURS, ref, "-i", str(files / "nul.txt"))
    from_stdin = run(OURS, ref, stdin=data)
    one_line_error(from_file, 1, f"nul.txt (line {line}): {fragment}")
    one_line_error(from_stdin, 1, f"<stdin> (line {line}): {fragment}")
    assert from_stdin.stderr.split("): ", 1)[1] == from_file.stderr.split("): ", 1)[1]


def test_nul_after_a_bad_byte_on_standard_input_is_still_binary(files: Path) -> None:
    # As for files: in UTF-8 a NUL byte means binary input, whatever decoding error comes with it.
    data = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
    (files / "image.png").write_bytes(data)
    one_line_error(run(OURS, str(files / "ref.txt"), "-i", str(files / "image.png")), 1, "looks like a binary file")
    one_line_error(run(OURS, str(files / "ref.txt"), stdin=data), 1, "<stdin> (line 3): contains a NUL byte")


def test_an_unknown_encoding_on_standard_input_is_one_line(files: Path) -> None:
    for args in (["-e", "no-such-codec"], ["-e", "base64"]):
        one_line_error(run(OURS, str(files / "ref.txt"), *args, stdin=HYP), 1, "unknown encoding")
        one_line_error(run(OURS, str(files / "ref.txt"), "-i", str(files / "hyp.txt"), *args), 1, "unknown encoding")


# ---------------------------------------------------------------------------------------------------------
# The warnings, now found without a regex


@pytest.mark.parametrize(
    ("data", "warned"),
    [
        (b"a b\r\nc d\r\n", False),  # CRLF: the CR is stripped
        (b"a b\r \t\nc d\r", False),  # a CR followed by whitespace only, at the end of its line
        (b"a\rb\nc d\n", True),  # a CR with text after it on its line
        (b"a b\n" * 3000 + b"c\r d", True),  # in a later block (blocks of 64 bytes below)
        (b"\r" * 5000, False),  # a run of CRs: one empty line once stripped
    ],
)
def test_a_carriage_return_inside_a_line_is_warned_about(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], data: bytes, warned: bool
) -> None:
    monkeypatch.setattr(cli, "BLOCK_BYTES", 64)
    hyp = tmp_path / "hyp.txt"
    hyp.write_bytes(data)
    assert cli.run([str(hyp), "-i", str(hyp), "-b"]) == 0
    err = capsys.readouterr().err
    assert ("carriage return inside a line" in err) == warned, err


def test_warnings_come_in_a_fixed_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hyp = tmp_path / "hyp.txt"
    hyp.write_bytes(b"\xef\xbb\xbfzero\xe2\x80\x8bwidth\nCR\rinside\n")
    assert cli.run([str(hyp), "-i", str(hyp), "-b"]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    order = ["byte-order mark", "carriage return", "invisible characters"]
    # One file after the other (here the same file twice: reference, then hypothesis), each in that order.
    assert [next(k for k, word in enumerate(order) if word in w) for w in warnings] == [0, 1, 2, 0, 1, 2]
