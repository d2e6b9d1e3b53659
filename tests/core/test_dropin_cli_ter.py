"""``python -m bleu_core -m ter`` (and ``-m bleu chrf ter``) as a drop-in for sacreBLEU's: the same stdout and status.

Both commands run as processes on small files (and on one WMT22 pair when the data is there); the version in
the signature is masked, as in :mod:`tests.core.test_dropin_cli`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from sacrebleu.metrics.ter import TER
from sacrebleu.significance import PairedTest

from tests.conftest import Pair, read_plain
from tests.core.test_dropin_cli import SACREBLEU, assert_same, drop_in_folder, run_both

pytestmark = pytest.mark.skipif(not Path(SACREBLEU).exists(), reason="the sacrebleu command is not installed")

REF = (
    "The cat sat on the mat .\nA dog barked loudly\n\nHello world , again &amp; again\nIt is RAINING today!\n"
    "我们 今天 去 公园。\nthe the cat the mat the cat\n"
).encode()
HYPS = {
    "a.txt": "on the mat The cat sat.\nThe dog barked\n\nHello there world again\nit is raining today\n"
    "今天我们去公园\ncat the the mat the\n".encode(),
    "b.txt": "The cat is on a mat.\nloudly A dog barks\nx\nworld Hello again\nIt rains, today.\n我们 公园\n\n".encode(),
    "c.txt": b"cat mat\ndog\n\nworld\nRAINING\n\nthe\n",
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return drop_in_folder(tmp_path_factory.mktemp("ter_cli"), REF, HYPS)


ONE_SYSTEM = [
    "-m ter",
    "-m ter -f text",
    "-m bleu ter",
    "-m bleu chrf ter",
    "-m ter chrf bleu -f text -sh",
    "-m ter chrf -f latex",
    "-m ter --ter-normalized -f text",
    "-m ter --ter-case-sensitive -f text",
    "-m ter --ter-normalized --ter-asian-support -f text",
    "-m ter --ter-no-punct --ter-asian-support -sh",
    "-m ter --ter-normalized --ter-no-punct --ter-asian-support --ter-case-sensitive -f text -sh",
    "-m ter -b",
    "-m bleu chrf ter -b -f text",
    "-m ter -w 4",
    "-m ter --confidence -f text",
    "-m ter --confidence -sh",
    "-m bleu ter --confidence -cin 50 -w 3 -f text",
    "-m ter -sl",
    "-m ter -sl -w 3 -sh -f text",
]


@pytest.mark.parametrize("flags", ONE_SYSTEM)
def test_one_system(folder: Path, flags: str) -> None:
    assert_same(["ref.txt", "-i", "a.txt", *flags.split()], cwd=folder)


@pytest.mark.parametrize(
    "refs", [["ref.txt", "ref2.txt"], ["tabs.txt", "-nr", "2"]], ids=["two-files", "tab-separated"]
)
def test_several_references(folder: Path, refs: list[str]) -> None:
    assert_same([*refs, "-i", "b.txt", "-m", "bleu", "ter", "-f", "text"], cwd=folder)
    assert_same([*refs, "-i", "b.txt", "-m", "ter", "-sl"], cwd=folder)


SEVERAL_SYSTEMS = [
    "-m ter",
    "-m ter -f text",
    "-m bleu ter -f text -sh",
    "-m bleu chrf ter -f latex -w 2",
    "-m ter --ter-normalized --ter-case-sensitive -f text",
]


@pytest.mark.parametrize("flags", SEVERAL_SYSTEMS)
def test_several_systems(folder: Path, flags: str) -> None:
    assert_same(["ref.txt", "-i", "a.txt", "b.txt", "c.txt", *flags.split()], cwd=folder)


@pytest.mark.parametrize(
    "flags",
    [
        "-m ter bleu -sl",  # one metric only at sentence level
        "-m ter -i a.txt b.txt --confidence",  # several systems need a paired test
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
    theirs, ours = run_both(["ref.txt", "-m", "bleu", "ter", "-f", "text"], stdin=stdin, cwd=folder)
    assert ours == theirs


PAIRED = [
    "-m ter --paired-bs -pbsn 150 -f text",
    "-m ter --paired-bs -pbsn 100 -f latex -sh",
    "-m bleu ter --paired-bs -pbsn 100 -f text",
    "-m ter chrf bleu --paired-bs -pbsn 100 -f text -w 3",
    "-m ter --ter-normalized --ter-case-sensitive --paired-bs -pbsn 120 -f text",
    "-m ter --paired-ar -parn 200",
    "-m ter --paired-ar -parn 200 -f text",
    "-m bleu chrf ter --paired-ar -parn 150 -f latex",
    "-m ter --ter-no-punct --ter-asian-support --paired-ar -parn 100",
]


@pytest.mark.parametrize("flags", PAIRED)
def test_paired_tests(folder: Path, flags: str) -> None:
    """Paired tests on TER, alone and beside the others: its scores are float32 in a bootstrap, as sacreBLEU's."""
    assert_same(["ref.txt", "-i", "a.txt", "b.txt", "c.txt", *flags.split()], cwd=folder)
    assert_same(["ref.txt", "ref2.txt", "-i", "c.txt", "a.txt", *flags.split()], cwd=folder)


def test_paired_bootstrap_json_holds_sacrebleus_numbers(folder: Path) -> None:
    """sacreBLEU's command fails on this JSON (float32 means); ours prints its PairedTest's numbers as floats."""
    args = ["ref.txt", "-i", "a.txt", "b.txt", "c.txt", "-m", "ter", "--paired-bs", "-pbsn", "100"]
    theirs, ours = run_both(args, cwd=folder)
    assert theirs[0] == 1 and ours[0] == 0
    refs = read_plain(folder / "ref.txt")
    systems = [(name, read_plain(folder / name)) for name in ("a.txt", "b.txt", "c.txt")]
    _, scores = PairedTest(systems, {"TER": TER(references=[refs])}, None, "bs", 100)()
    printed = json.loads(ours[1])
    for row, result in zip(printed, scores["TER"], strict=True):
        got = row["TER"]
        assert got["score"] == result.score and got["p_value"] == result.p_value
        assert got["mean"] == float(result.mean) and got["ci"] == float(result.ci)


@pytest.mark.parametrize(
    "flags",
    [
        "-m ter --paired-bs -i a.txt b.txt",
        "-m bleu ter --paired-ar -i a.txt b.txt",
        "-m ter --statistics",
    ],
)
def test_refused_with_a_message(folder: Path, flags: str, capsys: pytest.CaptureFixture[str]) -> None:
    """What TER does not have here is refused in one line, naming TER: paired tests with three references
    (sacreBLEU sums thirds of words in float32, in its own order), statistics records."""
    from bleu_core.cli.main import run

    args = ["ref.txt", *flags.split()]
    if "--paired" in flags:
        args[1:1] = ["ref2.txt", "ref.txt"]
    if "-i" not in args:
        args += ["-i", "a.txt"]
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        assert run(args) == 1
    finally:
        os.chdir(cwd)
    error = capsys.readouterr().err
    assert "bleu_core: error:" in error and "TER" in error


def test_a_wmt22_pair(pairs: list[Pair], tmp_path: Path) -> None:
    """The first 40 lines of one system: with the other metrics, and the sentence scores; two systems."""
    pair = pairs[0]
    for path, name in ((pair.references[0], "ref.txt"), (pair.systems[0], "a.txt"), (pair.systems[1], "b.txt")):
        (tmp_path / name).write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[:40]))
    assert_same(["ref.txt", "-i", "a.txt", "-m", "bleu", "chrf", "ter", "-f", "text"], cwd=tmp_path)
    assert_same(["ref.txt", "-i", "a.txt", "-m", "ter", "-sl", "-w", "4"], cwd=tmp_path)
    assert_same(["ref.txt", "-i", "a.txt", "b.txt", "-m", "ter", "chrf"], cwd=tmp_path)


def test_an_interval_where_sacrebleu_fails(tmp_path: Path) -> None:
    """A resample of only empty segments scores a Python 0.0 among float32 scores: sacreBLEU's mean fails on
    the mix (a traceback); ours prints the interval (see docs/dropin-differences.md).  When every segment's
    reference is empty, both print the same interval."""
    (tmp_path / "ref.txt").write_bytes(b"a b c\n\n\n")
    (tmp_path / "hyp.txt").write_bytes(b"a b\n\n\n")
    (_, theirs), (our_status, ours) = run_both(["ref.txt", "-i", "hyp.txt", "-m", "ter", "--confidence"], cwd=tmp_path)
    assert b'"confidence_mean"' not in theirs and our_status == 0 and b'"confidence_mean"' in ours
    (tmp_path / "ref0.txt").write_bytes(b"\n\n\n")
    (tmp_path / "hyp0.txt").write_bytes(b"a\n\nb\n")
    assert_same(["ref0.txt", "-i", "hyp0.txt", "-m", "ter", "--confidence", "-f", "text", "-w", "6"], cwd=tmp_path)
