"""``python -m bleu_core`` as a drop-in for ``sacrebleu -m bleu``: the same stdout bytes and exit status.

Both commands run as real processes on the same files with the same flags; the version in the signature
is masked (sacreBLEU prints its own, we print ours).  ``make test`` runs a representative matrix; the
exhaustive one (every flag combination on several WMT22 pairs) is marked slow.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, Pair

SACREBLEU = shutil.which("sacrebleu") or str(Path(sys.executable).with_name("sacrebleu"))
SLOW = pytest.mark.slow
pytestmark = pytest.mark.skipif(not Path(SACREBLEU).exists(), reason="the sacrebleu command is not installed")


#: This checkout's bleu_core first, whatever folder the commands run in; no colours, sacreBLEU's default seed.
ENV = {
    **{k: v for k, v in os.environ.items() if k not in ("SACREBLEU_FORMAT", "SACREBLEU_SEED")},
    "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
}


def mask(output: bytes) -> bytes:
    """The output with the version in the signature replaced (long, short and JSON forms)."""
    output = re.sub(rb'"version": "[^"]*"', b'"version": "X"', output)
    return re.sub(rb"\b(version|v):[^|\"\s]+", rb"\1:X", output)


def run_both(args: list[str], stdin: bytes = b"", cwd: Path = ROOT) -> tuple[tuple[int, bytes], tuple[int, bytes]]:
    """(exit status, masked stdout) of sacrebleu and of ours."""
    results = []
    for command in ([SACREBLEU], [sys.executable, "-m", "bleu_core"]):
        done = subprocess.run(
            [*command, *args], input=stdin, capture_output=True, cwd=cwd, check=False, timeout=300, env=ENV
        )  # fmt: skip
        results.append((done.returncode, mask(done.stdout)))
    return results[0], results[1]


def drop_in_folder(path: Path, ref: bytes, hyps: dict[str, bytes]) -> Path:
    """A folder with ``ref.txt``, a second reference ``ref2.txt`` ("cat" -> "kitten"), tab-separated references
    ``tabs.txt`` and the hypothesis files: the shared files of the chrF and TER drop-in tests."""
    (path / "ref.txt").write_bytes(ref)
    (path / "ref2.txt").write_bytes(ref.replace(b"cat", b"kitten"))
    (path / "tabs.txt").write_bytes(ref.replace(b"\n", b"\tA second reference line\n"))
    for name, text in hyps.items():
        (path / name).write_bytes(text)
    return path


def assert_same(args: list[str], stdin: bytes = b"", cwd: Path = ROOT) -> None:
    theirs, ours = run_both(args, stdin, cwd)
    assert ours == theirs, f"sacrebleu {' '.join(args)}"


# ---------------------------------------------------------------------------------------------------------
# Odd files: each line of this table is a hypothesis file scored against REF (and some references too)

REF = b"The cat sat on the mat .\nA dog barked loudly\n\nHello world , again\n"
ODD_HYPOTHESES = {
    "plain": b"The cat sat on a mat.\nThe dog barked\n\nHello there world again\n",
    "bom": b"\xef\xbb\xbfThe cat sat on a mat.\nThe dog barked\n\nHello there world again\n",
    "crlf": b"The cat sat on a mat.\r\nThe dog barked\r\n\r\nHello there world again\r\n",
    "lone-cr": b"The cat sat on a mat.\rThe dog barked\n\nHello there\rworld again\nextra\n",
    "no-final-newline": b"The cat sat on a mat.\nThe dog barked\n\nHello there world again",
    "trailing-whitespace": b"The cat sat on a mat. \t \nThe dog barked\x0c\n  \nHello there world\x1c again\xc2\x85\n",
    "zero-width": "The cat sat\u200b on a mat.\nThe dog barked\n\nHello there world again\n".encode(),
    "empty-lines": b"\n\n\n\n",
    "one-line-short": b"The cat sat on a mat.\nThe dog barked\n\n",
    "empty-file": b"",
    "latin-1": "The cät sat on a mat.\nThe dog barked\n\nHello there world again\n".encode("latin-1"),
}
ODD_REFERENCES = {
    "bom": b"\xef\xbb\xbfThe cat sat on the mat .\nA dog barked loudly\n\nHello world , again\n",
    "no-tokens": b"The cat sat on the mat .\n   \n\nHello world , again\n",
    "all-empty": b"\n\n\n\n",
}
TAB_REFERENCES = (
    b"The cat sat on the mat .\tA cat on the mat\nA dog barked loudly\tthe dog\n\t\nHello world , again\tHi\n"
)


@pytest.fixture(scope="module")
def odd(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("odd")
    (folder / "ref.txt").write_bytes(REF)
    (folder / "reftab.txt").write_bytes(TAB_REFERENCES)
    for name, data in ODD_HYPOTHESES.items():
        (folder / f"hyp-{name}.txt").write_bytes(data)
    for name, data in ODD_REFERENCES.items():
        (folder / f"ref-{name}.txt").write_bytes(data)
    return folder


@pytest.mark.parametrize("hypothesis", list(ODD_HYPOTHESES))
@pytest.mark.parametrize(
    "flags", [["-f", "text"], pytest.param(["-sl", "-w", "3"], marks=SLOW)], ids=["text", "sentences"]
)
def test_odd_hypothesis_files(odd: Path, hypothesis: str, flags: list[str]) -> None:
    assert_same(["ref.txt", "-i", f"hyp-{hypothesis}.txt", *flags], cwd=odd)


@pytest.mark.parametrize("reference", list(ODD_REFERENCES))
@pytest.mark.parametrize(
    "flags", [[], pytest.param(["-f", "text", "-sh"], marks=SLOW), ["-sl"]], ids=["json", "text", "sentences"]
)
def test_odd_reference_files(odd: Path, reference: str, flags: list[str]) -> None:
    assert_same([f"ref-{reference}.txt", "-i", "hyp-plain.txt", *flags], cwd=odd)


def test_a_reference_without_tokens_gives_valid_json_with_ratio_zero(odd: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bleu_core", "ref-all-empty.txt", "-i", "hyp-plain.txt"],
        capture_output=True, cwd=odd, check=True, text=True, env=ENV,
    )  # fmt: skip
    assert "ratio = 0.000" in done.stdout and "Infinity" not in done.stdout


@pytest.mark.parametrize(
    "flags",
    [["-nr", "2", "-f", "text"], ["-nr", "2", "-sl"], ["-nr", "3"]],
    ids=["two-text", "two-sentences", "wrong-count"],
)
def test_tab_separated_references(odd: Path, flags: list[str]) -> None:
    assert_same(["reftab.txt", "-i", "hyp-plain.txt", *flags], cwd=odd)


@pytest.mark.parametrize("name", ["plain", "lone-cr", "bom", "empty-file"])
def test_standard_input(odd: Path, name: str) -> None:
    assert_same(["ref.txt", "-f", "text"], stdin=ODD_HYPOTHESES[name], cwd=odd)


def test_tab_separated_systems_on_standard_input(odd: Path) -> None:
    two = b"".join(
        a + b"\t" + b + b"\n"
        for a, b in zip(ODD_HYPOTHESES["plain"].splitlines(), ODD_HYPOTHESES["crlf"].splitlines(), strict=True)
    )
    assert_same(["ref.txt", "-f", "text"], stdin=two, cwd=odd)
    assert_same(["ref.txt"], stdin=two, cwd=odd)
    assert_same(["ref.txt", "--paired-ar", "--paired-ar-n", "50", "-f", "text"], stdin=two, cwd=odd)
    assert_same(["ref.txt"], stdin=two + b"only one field\n", cwd=odd)  # exit status 17


@pytest.mark.parametrize(
    "flags",
    [
        ["-tok", "spm"],
        ["-sl", "--confidence"],
        ["--paired-bs"],
        ["-sl", "-i", "a", "b"],
        ["-i", "hyp-plain.txt", "hyp-plain.txt", "--paired-bs"],
    ],
    ids=["unsupported-tokenizer", "sl-confidence", "paired-one-system", "sl-two-systems", "paired-baseline-twice"],
)
def test_refusals_have_sacrebleus_exit_status(odd: Path, flags: list[str]) -> None:
    args = ["ref.txt", "-i", "hyp-plain.txt", *flags] if "-i" not in flags else ["ref.txt", *flags]
    (their_code, _), (our_code, our_out) = run_both(args, cwd=odd)
    assert our_code == their_code != 0 and our_out == b""


def test_ter_reads_odd_files_as_sacrebleu(odd: Path) -> None:
    """TER (once refused here) reads the odd files as BLEU does: the same output as sacreBLEU's."""
    for name in ("hyp-plain.txt", "hyp-crlf.txt", "hyp-trailing-whitespace.txt"):
        assert_same(["ref.txt", "-i", name, "-m", "ter", "-f", "text"], cwd=odd)


# ---------------------------------------------------------------------------------------------------------
# WMT22: a representative matrix (make test) and every combination (make test-slow)

SINGLE = [
    [],
    ["-f", "text"],
    ["-f", "text", "-sh", "-w", "3"],
    ["-b", "-w", "4"],
    ["-lc", "-tok", "intl", "-f", "text"],
    pytest.param(["-s", "floor", "-sv", "0.3", "-f", "text"], marks=SLOW),
    ["-s", "add-k", "-tok", "char"],
    pytest.param(["-s", "none", "-tok", "none", "-f", "text"], marks=SLOW),
    ["-f", "text", "--confidence", "--confidence-n", "200"],
    pytest.param(["--confidence", "--confidence-n", "200"], marks=SLOW),
    pytest.param(["-l", "en-zh", "-f", "text"], marks=SLOW),
    pytest.param(["-f", "latex"], marks=SLOW),
]
MULTI = [
    [],
    ["-f", "text"],
    ["-f", "latex", "-sh", "-w", "2"],
    ["-f", "text", "--paired-bs", "--paired-bs-n", "200"],
    ["--paired-bs", "--paired-bs-n", "200"],
    pytest.param(["-f", "latex", "--paired-ar", "--paired-ar-n", "300"], marks=SLOW),
    ["--paired-ar", "--paired-ar-n", "300"],
]


@pytest.fixture(scope="module")
def en_de(pairs: list[Pair]) -> Pair:
    return next(pair for pair in pairs if pair.name == "en-de")


@pytest.mark.parametrize("flags", SINGLE, ids=[str(i) for i in range(len(SINGLE))])
def test_one_system_wmt22(en_de: Pair, flags: list[str]) -> None:
    assert_same([str(en_de.references[0]), "-i", str(en_de.systems[0]), *flags])


def test_two_references_and_sentences_wmt22(en_de: Pair) -> None:
    refs = [str(path) for path in en_de.references]
    assert_same([*refs, "-i", str(en_de.systems[1]), "-f", "text", "-sh"])
    assert_same([*refs, "-i", str(en_de.systems[1]), "-sl", "-sh"])


@pytest.mark.parametrize("flags", MULTI, ids=[str(i) for i in range(len(MULTI))])
def test_three_systems_wmt22(en_de: Pair, flags: list[str]) -> None:
    systems = [str(path) for path in en_de.systems[:3]]
    assert_same([str(en_de.references[0]), "-i", *systems, *flags])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("width", "short", "fmt", "case", "smooth"),
    list(itertools.product(["1", "3"], [False, True], ["json", "text", "latex"], [False, True], ["exp", "floor"])),
)
def test_every_combination_one_system(
    pairs: list[Pair], width: str, short: bool, fmt: str, case: bool, smooth: str
) -> None:
    for pair in pairs:
        if pair.target == "ja":
            continue  # ja-mecab is sacreBLEU's default for Japanese and needs MeCab
        flags = ["-w", width, "-f", fmt, "-s", smooth, "-l", f"x-{pair.target}"]
        flags += ["-sh"] * short + ["-lc"] * case
        assert_same([*map(str, pair.references), "-i", str(pair.systems[0]), *flags])


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["json", "text", "latex"])
@pytest.mark.parametrize("test", [[], ["--paired-bs"], ["--paired-ar", "-parn", "2000"]], ids=["none", "bs", "ar"])
def test_every_system_of_every_pair(pairs: list[Pair], fmt: str, test: list[str]) -> None:
    for pair in pairs:
        if pair.target == "ja":
            continue
        flags = ["-f", fmt, "-tok", pair.tokenize, *test]
        assert_same([*map(str, pair.references), "-i", *map(str, pair.systems), *flags])


@pytest.mark.slow
def test_sentence_level_every_pair(pairs: list[Pair]) -> None:
    for pair in pairs:
        flags = ["-sl", "-tok", pair.tokenize]
        assert_same([*map(str, pair.references), "-i", str(pair.systems[-1]), *flags])


def test_our_own_flags_name_themselves_in_the_signature(odd: Path) -> None:
    """--max-ngram-order and --weights are not sacreBLEU's: a BLEU-2 or a weighted score says so in its signature."""
    (_, standard), _ = run_both(["ref.txt", "-i", "hyp-plain.txt", "-f", "text"], cwd=odd)
    for flags, field in ((["--max-ngram-order", "2"], "ngram:2"), (["--weights", "0.5,0.5,0,0"], "w:0.5,0.5,0,0")):
        done = subprocess.run(
            [sys.executable, "-m", "bleu_core", "ref.txt", "-i", "hyp-plain.txt", "-f", "text", *flags],
            cwd=odd,
            capture_output=True,
            env={**os.environ, **ENV},
            check=True,
        )
        signature = done.stdout.decode().split(" = ")[0]
        assert f"|{field}|" in signature and f"|{field}|" not in standard.decode()
