"""``--paired-bs`` and ``--paired-ar`` with chrF (alone, chrF++, beside BLEU): the same stdout as sacreBLEU's command.

Both commands run as processes on small random files and on a WMT22 sample (the version in the signature is
masked, as in :mod:`tests.core.test_dropin_cli`).  sacreBLEU's JSON of a paired bootstrap on chrF fails (its
means are float32); there ours is held to the numbers of sacreBLEU's own ``PairedTest``.
"""

from __future__ import annotations

import json
import random
from itertools import islice
from pathlib import Path

import pytest
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.significance import PairedTest

from tests.conftest import Pair, read_plain
from tests.core.test_dropin_cli import SACREBLEU, run_both

pytestmark = pytest.mark.skipif(not Path(SACREBLEU).exists(), reason="the sacrebleu command is not installed")

WORDS = [
    "the",
    "a",
    "cat",
    "dog",
    "sat",
    "on",
    "mat",
    "house",
    "big",
    "small",
    "red",
    "blue",
    "went",
    "to",
    ",",
    ".",
    "Über",
    "straße",
    "猫",
]


def _corpus(rng: random.Random, n: int) -> tuple[list[str], dict[str, list[str]]]:
    refs = [" ".join(rng.choices(WORDS, k=rng.randint(0, 12))) for _ in range(n)]
    systems = {}
    for name, noise in (("a.txt", 0.15), ("b.txt", 0.3), ("c.txt", 0.6)):
        systems[name] = [
            " ".join(w if rng.random() > noise else rng.choice(WORDS) for w in ref.split()) for ref in refs
        ]
    return refs, systems


@pytest.fixture(scope="module", params=[1, 2], ids=["seed1", "seed2"])
def folder(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("paired_chrf")
    refs, systems = _corpus(random.Random(request.param), 30)
    (path / "ref.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    for name, lines in systems.items():
        (path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


FLAGS = [
    "-m chrf --paired-bs -pbsn 150 -f text",
    "-m chrf -cw 2 --paired-bs -pbsn 120 -f text -w 3",
    "-m bleu chrf --paired-bs -pbsn 100 -f text",
    "-m chrf bleu -cw 2 --paired-bs -pbsn 100 -f latex -sh",
    "-m chrf --paired-ar -parn 200",
    "-m chrf --paired-ar -parn 200 -f text",
    "-m chrf -cw 2 --paired-ar -parn 150",
    "-m bleu chrf -cw 2 --paired-ar -parn 150",
    "-m chrf bleu --paired-ar -parn 150 -f text -sh",
    "-m chrf --chrf-eps-smoothing -cw 2 --paired-bs -pbsn 100 -f text",
    "-m chrf --chrf-lowercase --chrf-whitespace --paired-ar -parn 100 -f text",
]


@pytest.mark.parametrize("flags", FLAGS)
def test_paired_tests_print_what_sacrebleu_prints(folder: Path, flags: str) -> None:
    theirs, ours = run_both(["ref.txt", "-i", "a.txt", "b.txt", "c.txt", *flags.split()], cwd=folder)
    assert theirs[0] == 0 and ours == theirs, flags


def test_standard_input_columns(folder: Path) -> None:
    columns = [(folder / name).read_bytes().splitlines() for name in ("a.txt", "b.txt")]
    stdin = b"".join((a or b"x") + b"\t" + (b or b"x") + b"\n" for a, b in zip(*columns, strict=True))
    args = ["ref.txt", "-m", "bleu", "chrf", "--paired-bs", "-pbsn", "100", "-f", "text"]
    theirs, ours = run_both(args, stdin=stdin, cwd=folder)
    assert theirs[0] == 0 and ours == theirs


@pytest.mark.parametrize("word_order", [0, 2])
def test_bootstrap_json_holds_sacrebleus_numbers(folder: Path, word_order: int) -> None:
    """sacreBLEU's command fails on this JSON (float32 means); ours prints its PairedTest's numbers as floats."""
    args = ["ref.txt", "-i", "a.txt", "b.txt", "c.txt", "-m", "chrf", "-cw", str(word_order), "--paired-bs"]
    theirs, ours = run_both([*args, "-pbsn", "100"], cwd=folder)
    assert theirs[0] == 1 and ours[0] == 0
    refs = read_plain(folder / "ref.txt")
    systems = [(name, read_plain(folder / name)) for name in ("a.txt", "b.txt", "c.txt")]
    metric = CHRF(word_order=word_order, references=[refs])
    _, scores = PairedTest(systems, {"chrF": metric}, None, "bs", 100)()
    column = next(key for key in scores if key != "System")
    printed = json.loads(ours[1])
    assert [row["system"] for row in printed] == ["Baseline: a.txt", "b.txt", "c.txt"]
    for row, result in zip(printed, scores[column], strict=True):
        got = row[column]
        assert got["score"] == result.score and got["p_value"] == result.p_value
        assert got["mean"] == float(result.mean) and got["ci"] == float(result.ci)


def test_degenerate_resamples(tmp_path: Path) -> None:
    """Mostly empty segments: some resamples score sacreBLEU's literal 0.0 among float32 scores (a float64 array)."""
    (tmp_path / "ref.txt").write_text("a b c\n\n\n\nd e\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("a b\n\n\n\nx\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("c\n\n\n\nd e\n", encoding="utf-8")
    for flags in ("-m chrf --paired-bs -pbsn 200 -f text -w 6", "-m chrf --chrf-eps-smoothing --paired-bs -f text"):
        theirs, ours = run_both(["ref.txt", "-i", "a.txt", "b.txt", *flags.split()], cwd=tmp_path)
        assert theirs[0] == 0 and ours == theirs, flags


def test_a_wmt22_sample(pairs: list[Pair], tmp_path: Path) -> None:
    """Three systems of the first WMT22 pair, the first 300 segments."""
    pair = pairs[0]
    files = [pair.references[0], *pair.systems[:3]]
    names = ["ref.txt", "a.txt", "b.txt", "c.txt"]
    for source, name in zip(files, names, strict=True):
        with open(source, encoding="utf-8") as handle:
            (tmp_path / name).write_text("".join(islice(handle, 300)), encoding="utf-8")
    for flags in ("-m bleu chrf --paired-bs -pbsn 100 -f text", "-m chrf -cw 2 --paired-ar -parn 200 -f json"):
        theirs, ours = run_both(["ref.txt", "-i", *names[1:], *flags.split()], cwd=tmp_path)
        assert theirs[0] == 0 and ours == theirs, flags
