"""The streaming command line: any block and chunk size prints what the whole-file reader's lines give."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

import bleu_core
from bleu_core.cli import main as cli

HYP = ["The cat sat on the mat.", "", "A dog barked twice at the moon", "Ünïcode ✓ text", "x"]
REF = ["The cat is on the mat.", "nothing", "The dog barked twice.", "Ünïcode text ✓", "x"]


def run(*args: str) -> str:
    """The command's standard output, run in this process."""
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert cli.run(list(args)) == 0
    return out.getvalue()


def write(path: Path, lines: list[str], encoding: str, newline: str, final: bool) -> Path:
    path.write_bytes((newline.join(lines) + (newline if final else "")).encode(encoding))
    return path


@pytest.mark.parametrize(
    ("encoding", "newline", "final"), [("utf-8", "\n", True), ("utf-8-sig", "\r\n", True), ("utf-16", "\r\n", False)]
)
def test_small_blocks_and_chunks_print_the_whole_file_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, encoding: str, newline: str, final: bool
) -> None:
    hyps = HYP * 7  # 35 lines: several chunks of 4 lines, lines split across blocks of 5 bytes
    refs = REF * 7
    hyp = write(tmp_path / "hyp.txt", hyps, encoding, newline, final)
    other = write(tmp_path / "other.txt", list(reversed(hyps)), "utf-8", "\n", True)
    ref = write(tmp_path / "ref.txt", refs, encoding, newline, not final)
    cases = [[], ["-b", "-w", "6"], [str(other)], [str(other), "-f", "text"], ["-sl"], ["-sl", "-b"], ["--confidence"]]
    whole = {tuple(extra): run(str(ref), "-i", str(hyp), *extra) for extra in cases}
    monkeypatch.setattr(cli, "BLOCK_BYTES", 5)
    monkeypatch.setattr(cli, "CHUNK_LINES", 4)
    for extra in cases:
        assert run(str(ref), "-i", str(hyp), *extra) == whole[tuple(extra)], extra
    score = float(whole[("-b", "-w", "6")])
    assert score == pytest.approx(bleu_core.corpus_bleu(hyps, [refs]).score_100, abs=1e-6)
    assert len(whole[("-sl", "-b")].splitlines()) == len(hyps)


def test_standard_input_streams_with_its_encoding(tmp_path: Path) -> None:
    ref = write(tmp_path / "ref.txt", REF, "utf-8", "\n", True)
    hyp = write(tmp_path / "hyp.txt", HYP, "utf-16", "\r\n", True)
    done = subprocess.run(
        [sys.executable, "-m", "bleu_core", str(ref), "-b", "-w", "6"],
        input=hyp.read_bytes(),
        capture_output=True,
        check=True,
        timeout=120,
    )
    assert float(done.stdout) == pytest.approx(bleu_core.corpus_bleu(HYP, [REF]).score_100, abs=1e-6)


def test_undecodable_standard_input_is_an_error_naming_it(tmp_path: Path) -> None:
    ref = write(tmp_path / "ref.txt", ["a", "b"], "utf-8", "\n", True)
    done = subprocess.run(
        [sys.executable, "-m", "bleu_core", str(ref)], input=b"a\n\xff\xfe\n", capture_output=True, timeout=120
    )
    assert done.returncode == 1
    assert done.stderr.decode().startswith("bleu_core: error: <stdin>")


def _traced_peak(ref: Path, hyp: Path) -> int:
    tracemalloc.start()
    try:
        run(str(ref), "-i", str(hyp))
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_does_not_grow_with_the_number_of_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Only summed statistics stay: eight times the lines must not take noticeably more memory at the peak.
    # (Blocks of 64 kB, so that both files are longer than a block, as large files are than 1 MB.)
    monkeypatch.setattr(cli, "BLOCK_BYTES", 1 << 16)
    peaks = []
    for copies in (2, 16):
        hyp = write(tmp_path / f"hyp{copies}.txt", HYP * 1000 * copies, "utf-8", "\n", True)
        ref = write(tmp_path / f"ref{copies}.txt", REF * 1000 * copies, "utf-8", "\n", True)
        peaks.append(_traced_peak(ref, hyp))
    assert peaks[1] < 1.15 * peaks[0], peaks


@pytest.mark.slow
def test_command_line_peak_memory_is_flat_on_real_data(tmp_path: Path) -> None:
    # make test-slow: the benchmark's measurement on 50k and 400k WMT22 segments (two references).
    from bench import scale

    if not (scale.data_folder() / scale.PAIR).is_dir():
        pytest.skip(f"WMT22 data not found at {scale.data_folder()}")
    rows = scale.bench_cli(tmp_path, [50_000, 400_000], scale.base_lines())
    assert all(row["identical"] for row in rows)
    assert rows[1]["peak_mb"] < min(1.1 * rows[0]["peak_mb"], scale.TARGETS["cli_peak_mb"]), rows
