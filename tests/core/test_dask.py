"""bleu_core.scale.dask_bleu on a real two-process LocalCluster: the same bits as in process, for any partitioning."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("dask.dataframe", reason="the dask extra is not installed (pip install '.[dask]')")
distributed = pytest.importorskip("distributed", reason="the dask extra is not installed (pip install '.[dask]')")

import dask.dataframe as dd  # noqa: E402
import pandas as pd  # noqa: E402

import bleu_core  # noqa: E402
from bleu_core.cli import main as cli  # noqa: E402
from bleu_core.scale import cluster, worker_files  # noqa: E402
from bleu_core.scale import dask_bleu as bleu_dask  # noqa: E402
from bleu_core.scale.records import read_parquet  # noqa: E402
from tests.conftest import SKIP_REASON, WMT22, read_plain  # noqa: E402

TOKENIZERS = ("13a", "intl", "zh", "char", "none")
PARTITIONS = (1, 3, 8)


@pytest.fixture(scope="module")
def client() -> Iterator[distributed.Client]:
    """Two worker processes with one thread each, started once for the module and closed at its end."""
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    )
    with distributed.Client(cluster) as connected:
        yield connected
    cluster.close()


def _wmt(pair: str, target: str, lines: int) -> pd.DataFrame:
    """The first lines of a WMT22 pair: one system and both references, with holes punched in on purpose."""
    folder = WMT22 / pair
    if not folder.is_dir():
        pytest.skip(SKIP_REASON)
    hyp = read_plain(sorted(folder.glob(f"*.hyp.*.{target}"))[0])[:lines]
    ref_a = read_plain(folder / f"generaltest2022.{pair}.ref.A.{target}")[:lines]
    ref_b: list[str | None] = list(read_plain(folder / f"generaltest2022.{pair}.ref.B.{target}")[:lines])
    for i in range(0, lines, 7):
        hyp[i] = ""  # empty hypotheses
    for i in range(3, lines, 11):
        ref_b[i] = None  # missing second references: nrefs varies
    for i in range(5, lines, 13):
        ref_a[i] = ""  # empty references
    return pd.DataFrame({"hyp": hyp, "ref1": ref_a, "ref2": ref_b})


@pytest.fixture(scope="module")
def english() -> pd.DataFrame:
    return _wmt("de-en", "en", 240)


@pytest.fixture(scope="module")
def chinese() -> pd.DataFrame:
    return _wmt("en-zh", "zh", 160)


def _in_process(frame: pd.DataFrame) -> tuple[list[str], list[list[str | None]]]:
    refs = [[None if pd.isna(x) else x for x in frame[c]] for c in ("ref1", "ref2")]
    return list(frame["hyp"]), refs


@pytest.mark.parametrize("tokenize", TOKENIZERS)
def test_corpus_bleu_equals_in_process_for_any_partitioning(
    client: distributed.Client, english: pd.DataFrame, chinese: pd.DataFrame, tokenize: str
) -> None:
    frame = chinese if tokenize in ("zh", "char") else english
    hyps, refs = _in_process(frame)
    expected = bleu_core.corpus_bleu(hyps, refs, tokenize=tokenize)
    assert expected.n_refs == -1  # the holes made nrefs vary, and that must merge too
    for partitions in PARTITIONS:
        df = dd.from_pandas(frame, npartitions=partitions)
        assert df.npartitions == partitions
        result = bleu_dask.corpus_bleu(df, "hyp", ["ref1", "ref2"], tokenize=tokenize, split_every=2)
        assert result == expected, partitions  # every field, to the last bit


@pytest.mark.parametrize("partitions", PARTITIONS)
def test_segment_statistics_and_sentence_scores_equal_in_process(
    client: distributed.Client, english: pd.DataFrame, partitions: int
) -> None:
    hyps, refs = _in_process(english)
    options = bleu_core.make_options(tokenize="intl", lowercase=True)
    stats, _ = bleu_core.corpus_statistics(hyps, refs, options)
    df = dd.from_pandas(english, npartitions=partitions)
    frame = bleu_dask.segment_statistics(df, "hyp", ["ref1", "ref2"], options).compute()
    matrix = frame.drop(columns=bleu_dask.REFERENCES_COLUMN).to_numpy()
    np.testing.assert_array_equal(matrix, stats.as_matrix())
    assert list(frame.index) == list(english.index)
    scores = bleu_dask.sentence_scores(df, "hyp", ["ref1", "ref2"], tokenize="intl", lowercase=True).compute()
    np.testing.assert_array_equal(
        scores.to_numpy(), bleu_core.sentence_scores(hyps, refs, tokenize="intl", lowercase=True)
    )


def test_statistics_frame_scores_writes_and_reads_back(
    client: distributed.Client, english: pd.DataFrame, tmp_path: Path
) -> None:
    options = bleu_core.make_options(smooth="floor", smooth_value=0.2)
    expected = bleu_core.corpus_bleu(*_in_process(english), options)
    statistics = bleu_dask.segment_statistics(dd.from_pandas(english, npartitions=3), "hyp", ["ref1", "ref2"], options)
    assert bleu_dask.score_statistics_frame(statistics, options) == expected
    assert bleu_dask.write_statistics(statistics, str(tmp_path / "stats"), options) == len(english)
    assert sorted(p.name for p in (tmp_path / "stats").iterdir()) == [f"part-0000{i}.parquet" for i in range(3)]
    record = read_parquet(tmp_path / "stats")
    assert record.segments == len(english)
    assert record.score() == expected


def test_significance_from_statistics_in_dask_equals_in_process(
    client: distributed.Client, english: pd.DataFrame
) -> None:
    options = bleu_core.make_options()
    hyps, refs = _in_process(english)
    other = english.assign(hyp=english["ref1"].str.lower())
    df_base, df_other = (dd.from_pandas(f, npartitions=3) for f in (english, other))
    statistics = {
        "base": bleu_dask.segment_statistics(df_base, "hyp", ["ref1", "ref2"], options),
        "other": bleu_dask.segment_statistics(df_other, "hyp", ["ref1", "ref2"], options),
    }
    in_process = {
        "base": bleu_core.corpus_statistics(hyps, refs, options)[0],
        "other": bleu_core.corpus_statistics(list(other["hyp"]), refs, options)[0],
    }
    for test, samples in (("bs", 200), ("ar", 300)):
        got = bleu_dask.paired_test(statistics, options, test=test, n_samples=samples, seed=7)
        assert got == bleu_core.paired_test_from_stats(in_process, options, test=test, n_samples=samples, seed=7)
    ci = bleu_dask.bootstrap_ci(statistics["base"], options, n_samples=200, seed=3)
    assert ci == bleu_core.bootstrap_ci_from_stats(in_process["base"], options, n_samples=200, seed=3)


def test_edge_cases_without_data(client: distributed.Client) -> None:
    # Runs without WMT22: empty segments, missing references, a partition of only empties, an empty frame.
    frame = pd.DataFrame(
        {
            "hyp": ["", "", "", "the cat sat", "a b c d e", "", "x"],
            "ref": ["", "x", "y", "the cat sat down", "a b c d", "", "x"],
            "alt": [None, None, None, "the cat", None, "", None],
        }
    )
    refs = [list(frame["ref"]), [None if pd.isna(x) else x for x in frame["alt"]]]
    expected = bleu_core.corpus_bleu(list(frame["hyp"]), refs)
    for partitions in (1, 3, 7):
        assert bleu_dask.corpus_bleu(dd.from_pandas(frame, npartitions=partitions)) == expected
    empty = dd.from_pandas(frame.iloc[:0], npartitions=1)
    assert bleu_dask.corpus_bleu(empty) == bleu_core.corpus_bleu([], [[], []])


def test_input_errors_name_the_column_or_the_partition(client: distributed.Client) -> None:
    frame = pd.DataFrame({"hyp": ["a", None], "ref": ["a", "b"]})
    df = dd.from_pandas(frame, npartitions=1)
    with pytest.raises(ValueError, match="no hypothesis column 'out'"):
        bleu_dask.corpus_bleu(df, "out")
    with pytest.raises(ValueError, match="no reference column 'ref9'"):
        bleu_dask.corpus_bleu(df, references=["ref9"])
    with pytest.raises(TypeError, match=r"partition 0: hypotheses\[1\]"):
        bleu_dask.corpus_bleu(df)


def test_command_line_on_the_cluster_prints_the_local_output(
    client: distributed.Client, english: pd.DataFrame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("\n".join(english["hyp"]) + "\n", encoding="utf-8")
    ref.write_text("\n".join(english["ref1"]) + "\n", encoding="utf-8")
    monkeypatch.setattr(cli, "CLUSTER_CHUNK_LINES", 50)  # several chunks in flight, taken in order
    address = client.scheduler.address
    # Two systems (JSON, text table) and one system's segments (-sl takes one system, as in sacreBLEU).
    for args in ([str(hyp), str(ref)], [str(hyp), "-sl"], [str(hyp), str(ref), "-f", "text"]):
        local, on_cluster = _outputs([str(ref), "-i", *args], address)
        assert local == on_cluster, args
        assert local.count("\n") >= (len(english) if "-sl" in args else 2)


def test_command_line_reports_an_unreachable_scheduler(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "1s")
    path = tmp_path / "a.txt"
    path.write_text("a\n", encoding="utf-8")
    assert cli.run([str(path), "-i", str(path), "--dask", "tcp://127.0.0.1:9"]) == 1
    assert "cannot reach the Dask scheduler" in capsys.readouterr().err


@pytest.mark.parametrize("scheduler", ["synchronous", "threads"])
def test_any_scheduler_gives_the_same_result(client: distributed.Client, scheduler: str) -> None:
    # Without a distributed Client (here overridden for the block), Dask's local schedulers count the partitions.
    import dask

    frame = pd.DataFrame({"hyp": ["a b c d", "x y", ""], "ref": ["a b c", "x y z", "w"]})
    expected = bleu_core.corpus_bleu(list(frame["hyp"]), [list(frame["ref"])], tokenize="char")
    with dask.config.set(scheduler=scheduler):
        assert bleu_dask.corpus_bleu(dd.from_pandas(frame, npartitions=2), tokenize="char") == expected


@pytest.mark.slow
def test_the_benchmarks_dask_path_gives_the_in_process_result(tmp_path: Path) -> None:
    # make test-slow: bench.scale's dask task on 20,000 segments (its own 2-process cluster, Parquet input).
    from bench import scale

    if not (scale.data_folder() / scale.PAIR).is_dir():
        pytest.skip(f"WMT22 data not found at {scale.data_folder()}")
    row = scale.bench_dask(tmp_path, 20_000, 1, scale.base_lines())
    assert row["identical"] and row["identical_to_repeated_statistics"]


def _outputs(args: list[str], address: str) -> tuple[str, str]:
    """The command's output counted here and on the cluster."""
    outputs = []
    for dask_args in ([], ["--dask", address]):
        with contextlib.redirect_stdout(io.StringIO()) as out:
            assert cli.run([*args, *dask_args]) == 0
        outputs.append(out.getvalue())
    return outputs[0], outputs[1]


@pytest.mark.parametrize(("bom", "newline"), [(b"", b"\n"), (b"\xef\xbb\xbf", b"\n"), (b"", b"\r\n")])
def test_workers_read_the_files_in_small_blocks(
    client: distributed.Client,
    english: pd.DataFrame,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    bom: bytes,
    newline: bytes,
) -> None:
    # Blocks of 300 bytes: chunks start mid-file at lines found by the workers; CRLF files are read here instead.
    monkeypatch.setattr(worker_files, "BLOCK_BYTES", 300)
    monkeypatch.setattr(cli, "CLUSTER_CHUNK_LINES", 50)
    files = []
    for name, lines in (("ref", english["ref1"]), ("hyp", english["hyp"]), ("other", english["ref2"].fillna(""))):
        path = tmp_path / f"{name}.txt"
        path.write_bytes(bom + newline.join(line.encode() for line in lines) + (newline if name != "hyp" else b""))
        files.append(str(path))
    plans = worker_files.plan_files(client, files)
    assert (plans is None) == (newline == b"\r\n" or bom != b"")  # a BOM or CRLF: the command reads the files
    if plans is not None:
        assert [plan.lines for plan in plans] == [len(english)] * 3
        assert len(worker_files.chunk_starts(plans, 1)) > 10
    for args in (files[1:], [files[1], "-sl"], [*files[1:], "-f", "text"]):  # -sl takes one system
        local, remote = _outputs([files[0], "-i", *args], client.scheduler.address)
        assert local == remote, args


def test_workers_report_bad_files_like_the_reader(
    client: distributed.Client, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, hyp, short = tmp_path / "ref.txt", tmp_path / "hyp.txt", tmp_path / "short.txt"
    ref.write_bytes(b"a b\nc d\ne f\n")
    hyp.write_bytes(b"a b\nc \xff\ne f\n")
    short.write_bytes(b"a b\n")
    address = client.scheduler.address
    assert cli.run([str(ref), "-i", str(hyp), "--dask", address]) == 1
    assert f"{hyp} (line 2): not valid UTF-8" in capsys.readouterr().err
    assert cli.run([str(ref), "-i", str(short), "--dask", address]) == 1
    local = cli.run([str(ref), "-i", str(short)])
    errors = capsys.readouterr().err.splitlines()
    assert local == 1 and errors[0] == errors[1] and "has 3 lines but the hypothesis" in errors[0]
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert cli.run([str(empty), "-i", str(empty)]) == cli.run([str(empty), "-i", str(empty), "--dask", address]) == 1
    errors = capsys.readouterr().err.splitlines()
    assert errors[0] == errors[1] and errors[0].endswith("contains no segments")
