"""Statistics records: Arrow and Parquet round trips, the stored schema, and refusing to mix options."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow", reason="pyarrow (the dask extra) is not installed")
pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow (the dask extra) is not installed")

import bleu_core  # noqa: E402
from bleu_core.scale import records  # noqa: E402
from bleu_core.scale.records import StatisticsRecord, merge_n_refs  # noqa: E402

HYPS = ["the cat sat on the mat", "", "a dog barked twice", "x y z w"]
REFS: list[list[str | None]] = [
    ["the cat is on the mat", "b", "the dog barked twice", "x y z"],
    ["the cat sat", None, "a dog barked", None],
]


def _record(**settings: object) -> StatisticsRecord:
    options = bleu_core.make_options(**settings)  # type: ignore[arg-type]
    stats, prepared = bleu_core.corpus_statistics(HYPS, REFS, options)
    return StatisticsRecord.of(stats, options, prepared.n_refs)


def test_arrow_and_parquet_round_trips_keep_every_number(tmp_path: Path) -> None:
    record = _record(tokenize="intl", lowercase=True, max_order=3, smooth="add-k", smooth_value=2)
    table = records.to_arrow(record)
    assert table.column_names == ["hyp_len", "ref_len", "matches_1", "matches_2", "matches_3"] + [
        f"totals_{n}" for n in (1, 2, 3)
    ]
    assert all(field.type == pa.int64() for field in table.schema)
    metadata = table.schema.metadata
    assert metadata[b"bleu_core.format"] == b"1"
    assert metadata[b"bleu_core.signature"].startswith(b"nrefs:var|case:lc|eff:no|tok:intl|smooth:add-k[2.00]")
    back = records.from_arrow(table)
    assert back.options == record.options and back.n_refs == record.n_refs == -1 and back.segments == 4
    assert (back.stats.as_matrix() == record.stats.as_matrix()).all()
    records.write_parquet(record, tmp_path / "stats.parquet")
    again = records.read_parquet(tmp_path / "stats.parquet")
    assert again.score() == bleu_core.corpus_bleu(HYPS, REFS, record.options)


def test_a_folder_of_records_reads_back_in_name_order(tmp_path: Path) -> None:
    record = _record()
    for i in range(len(HYPS)):
        one = StatisticsRecord.of(record.stats.take([i]), record.options, 2 if REFS[1][i] is not None else 1)
        records.write_parquet(one, tmp_path / f"part-{i:05d}.parquet")
    back = records.read_parquet(tmp_path)
    assert (back.stats.as_matrix() == record.stats.as_matrix()).all()
    assert back.n_refs == -1 and back.segments == len(HYPS)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match=r"holds no \.parquet files"):
        records.read_parquet(tmp_path / "empty")


def test_mixing_options_is_refused_naming_every_difference() -> None:
    with pytest.raises(ValueError, match=r"tokenize: '13a' != 'char'; lowercase: False != True"):
        _record().merge(_record(tokenize="char", lowercase=True))
    with pytest.raises(ValueError, match=r"smooth: 'exp' != 'floor'"):
        _record().concat(_record(smooth="floor"))
    with pytest.raises(TypeError, match="can only combine a StatisticsRecord"):
        _record().merge("stats")  # type: ignore[arg-type]


def test_scoring_may_change_smoothing_but_not_counting() -> None:
    record = _record()
    floor = bleu_core.make_options(smooth="floor")
    assert record.score(floor) == bleu_core.corpus_bleu(HYPS, REFS, floor)
    with pytest.raises(ValueError, match=r"counted with other options \(tokenize: '13a' != 'zh'\)"):
        record.score(bleu_core.make_options(tokenize="zh"))


def test_records_form_a_monoid() -> None:
    record = _record()
    rows = [StatisticsRecord.of(record.stats.take([i]), record.options, 2 - (REFS[1][i] is None)) for i in range(4)]
    empty = StatisticsRecord.empty(record.options)
    left = ((rows[0].merge(rows[1])).merge(rows[2])).merge(rows[3])
    right = rows[0].merge(rows[1].merge(rows[2].merge(rows[3])))
    for merged in (left, right, empty.merge(left), left.merge(empty)):
        assert (merged.stats.as_matrix() == record.stats.summed().as_matrix()).all()
        assert merged.n_refs == -1 and merged.segments == 4
    assert merged.score() == bleu_core.corpus_bleu(HYPS, REFS)
    for a, b, c in itertools.product([None, 1, 2, -1], repeat=3):
        assert merge_n_refs(merge_n_refs(a, b), c) == merge_n_refs(a, merge_n_refs(b, c))
        assert merge_n_refs(None, a) == merge_n_refs(a, None) == a


def test_tables_that_are_not_records_are_refused() -> None:
    with pytest.raises(ValueError, match="not a bleu_core statistics record"):
        records.from_arrow(pa.table({"hyp_len": [1]}))
    table = records.to_arrow(_record())
    future = table.replace_schema_metadata({**table.schema.metadata, b"bleu_core.format": b"2"})
    with pytest.raises(ValueError, match="format 2 is not supported"):
        records.from_arrow(future)
    with pytest.raises(ValueError, match="columns are"):
        records.from_arrow(table.drop_columns(["totals_4"]))
    with pytest.raises(ValueError, match=r"4 n-gram orders but options\.max_order is 2"):
        StatisticsRecord.of(_record().stats, bleu_core.make_options(max_order=2), 1)
