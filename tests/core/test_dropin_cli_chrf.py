"""``python -m bleu_core -m chrf`` (and ``-m bleu chrf``) as a drop-in for sacreBLEU's: the same stdout and status.

Both commands run as processes on small files (and on one WMT22 pair when the data is there); the version in
the signature is masked, as in :mod:`tests.core.test_dropin_cli`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import Pair
from tests.core.test_dropin_cli import SACREBLEU, assert_same, drop_in_folder, run_both

pytestmark = pytest.mark.skipif(not Path(SACREBLEU).exists(), reason="the sacrebleu command is not installed")

REF = b"The cat sat on the mat .\nA dog barked loudly\n\nHello world , again\nIt is RAINING today!\n"
HYPS = {
    "a.txt": b"The cat sat on a mat.\nThe dog barked\n\nHello there world again\nit is raining today\n",
    "b.txt": b"The cat is on a mat.\nA dog barks\nx\nHello world again\nIt rains, today.\n",
    "c.txt": b"cat mat\ndog\n\nworld\nRAINING\n",
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return drop_in_folder(tmp_path_factory.mktemp("chrf_cli"), REF, HYPS)


ONE_SYSTEM = [
    "-m chrf",
    "-m bleu chrf",
    "-m chrf bleu -f text",
    "-m chrf bleu -f latex",
    "-m chrf -cw 2 -f text",
    "-m chrf -cw 2 -sh -f text",
    "-m bleu chrf -sh -f text",
    "-m bleu chrf -sh",
    "-m chrf -cc 3 -cw 1 --chrf-beta 1 -f text",
    "-m chrf --chrf-beta 3 -w 4",
    "-m chrf --chrf-whitespace -f text",
    "-m chrf --chrf-lowercase -f text",
    "-m chrf --chrf-eps-smoothing -cw 2 -f text",
    "-m bleu chrf -lc -f text",
    "-m bleu chrf -b",
    "-m bleu chrf -b -f text",
    "-m chrf -b -w 3 -f text",
    "-m bleu chrf -w 3",
    "-m chrf --confidence -f text",
    "-m chrf --confidence",
    "-m chrf bleu --confidence -f text",
    "-m chrf bleu --confidence -cin 50 -w 3",
    "-m chrf -cw 2 --confidence -cin 100 -sh -f text",
    "-m chrf -sl",
    "-m chrf -cw 2 -sl -w 3 -sh",
    "-m chrf -sl -b",
]


@pytest.mark.parametrize("flags", ONE_SYSTEM)
def test_one_system(folder: Path, flags: str) -> None:
    assert_same(["ref.txt", "-i", "a.txt", *flags.split()], cwd=folder)


@pytest.mark.parametrize(
    "refs", [["ref.txt", "ref2.txt"], ["tabs.txt", "-nr", "2"]], ids=["two-files", "tab-separated"]
)
def test_several_references(folder: Path, refs: list[str]) -> None:
    assert_same([*refs, "-i", "b.txt", "-m", "bleu", "chrf", "-f", "text"], cwd=folder)


SEVERAL_SYSTEMS = [
    "-m chrf",
    "-m bleu chrf",
    "-m chrf bleu -f text",
    "-m chrf -cw 2 -f text -sh",
    "-m chrf bleu -f latex -w 2",
    "-m chrf -b -f text",
]


@pytest.mark.parametrize("flags", SEVERAL_SYSTEMS)
def test_several_systems(folder: Path, flags: str) -> None:
    assert_same(["ref.txt", "-i", "a.txt", "b.txt", "c.txt", *flags.split()], cwd=folder)


@pytest.mark.parametrize(
    "flags",
    [
        "-m chrf bleu -sl",  # one metric only at sentence level
        "-m chrf -i a.txt b.txt --confidence",  # several systems need a paired test
        "-m chrf -cc 0 -cw 0",
    ],
)
def test_errors_have_the_same_status(folder: Path, flags: str) -> None:
    args = ["ref.txt", *flags.split()]
    if "-i" not in args:
        args += ["-i", "a.txt"]
    (their_status, _), (our_status, _) = run_both(args, cwd=folder)
    assert our_status == their_status != 0


def test_standard_input_columns(folder: Path) -> None:
    stdin = b"".join(
        a + b"\t" + b + b"\n" for a, b in zip(HYPS["a.txt"].splitlines(), HYPS["b.txt"].splitlines(), strict=True)
    )
    theirs, ours = run_both(["ref.txt", "-m", "bleu", "chrf", "-f", "text"], stdin=stdin, cwd=folder)
    assert ours == theirs


@pytest.mark.parametrize(
    "flags",
    ["-m chrf --statistics", "-m chrf --dask tcp://nowhere:1"],
)
def test_refused_with_a_message(folder: Path, flags: str, capsys: pytest.CaptureFixture[str]) -> None:
    from bleu_core.cli.main import run

    args = ["ref.txt", *flags.split()]
    if "-i" not in args:
        args += ["-i", "a.txt"]
    import os

    cwd = os.getcwd()
    os.chdir(folder)
    try:
        assert run(args) == 1
    finally:
        os.chdir(cwd)
    error = capsys.readouterr().err
    assert "bleu_core: error:" in error and ("chrf" in error or "chrF" in error)


def test_an_interval_where_sacrebleu_fails(folder: Path, tmp_path: Path) -> None:
    """A resample of only empty segments scores a Python 0.0 among float32 scores: sacreBLEU's mean fails on
    the mix (status 1); ours prints the interval (see docs/dropin-differences.md)."""
    (tmp_path / "ref.txt").write_bytes(b"a b c\n\n\n")
    (tmp_path / "hyp.txt").write_bytes(b"a b\n\n\n")
    (their_status, _), (our_status, ours) = run_both(
        ["ref.txt", "-i", "hyp.txt", "-m", "chrf", "--confidence"], cwd=tmp_path
    )
    assert their_status == 1 and our_status == 0 and b'"confidence_mean"' in ours


def test_a_wmt22_pair(pairs: list[Pair], tmp_path: Path) -> None:
    pair = pairs[0]
    assert_same([str(pair.references[0]), "-i", str(pair.systems[0]), "-m", "bleu", "chrf", "-f", "text"], cwd=tmp_path)
    assert_same(
        [str(pair.references[0]), "-i", str(pair.systems[0]), "-m", "chrf", "-cw", "2", "-w", "4"], cwd=tmp_path
    )


def test_a_bleu_only_command_does_not_load_chrf_or_ter(folder: Path) -> None:
    """chrF's and TER's modules are imported only when asked for (a lighter start for the common command)."""
    import subprocess
    import sys

    script = (
        "import sys; from bleu_core.cli.main import run; run(['ref.txt', '-i', 'a.txt', '-m', '{metrics}']); "
        "print(sorted(m for m in ('bleu_core.stats.chrf', 'bleu_core.stats.ter') if m in sys.modules))"
    )
    loaded = {}
    for metrics in ("bleu", "ter"):
        done = subprocess.run(
            [sys.executable, "-c", script.format(metrics=metrics)], cwd=folder, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        loaded[metrics] = done.stdout.splitlines()[-1]
    assert loaded["bleu"] == "[]" and "'bleu_core.stats.ter'" in loaded["ter"]
