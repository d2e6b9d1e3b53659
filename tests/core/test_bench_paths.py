"""Every code path `make bench` times gives sacreBLEU's (or NLTK's) result, so the benchmark never times a wrong path.

Fast: each path runs once on the first segments of a few WMT22 systems, or on generated text when the data
folder is absent.  Scores must agree to 1e-9 on the 0-100 scale, paired tests must give equal p-values.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench import run as bench

SEGMENTS = 150
SYSTEMS = 3
#: One pair per tokenizer: 13a with two references, zh with two, char with one.
PAIRS = {"de-en": "13a", "en-zh": "zh", "en-ja": "char"}


@pytest.fixture(autouse=True)
def _sacrebleu_defaults(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    yield


@pytest.fixture(scope="module")
def corpora() -> list[bench.Corpus]:
    """A small slice of de-en, en-zh and en-ja, or generated text of the same shape without the data."""
    root = bench.data_root()
    out = []
    for seed, (pair, tokenize) in enumerate(PAIRS.items()):
        corpus = bench.load_corpus(root, pair) if root.is_dir() else None
        if corpus is None:
            corpus = bench.synthetic_corpus(tokenize, segments=SEGMENTS, systems=SYSTEMS, seed=seed)
        out.append(corpus.head(segments=SEGMENTS, systems=SYSTEMS))
    return out


def test_slices_have_the_expected_shape(corpora: list[bench.Corpus]) -> None:
    assert [c.tokenize for c in corpora] == list(PAIRS.values())
    for corpus in corpora:
        assert len(corpus.systems) == SYSTEMS
        assert all(len(stream) == SEGMENTS for stream in corpus.refs)
        assert all(len(hyps) == SEGMENTS for hyps in corpus.systems.values())


def test_cold_cache_clearing_empties_every_tokenizer_cache(corpora: list[bench.Corpus]) -> None:
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
    from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

    for corpus in corpora:
        bench.sacre_corpus(next(iter(corpus.systems.values())), corpus.refs, corpus.tokenize)
    caches = [
        Tokenizer13a.__call__,
        TokenizerRegexp.__call__,
        TokenizerZh.__call__,
        TokenizerZh._is_chinese_char,
        TokenizerChar.__call__,
    ]
    assert all(cache.cache_info().currsize > 0 for cache in caches)
    assert bench.clear_sacrebleu_caches() >= len(caches)
    assert all(cache.cache_info().currsize == 0 for cache in caches)


def test_corpus_path_equals_sacrebleu(corpora: list[bench.Corpus]) -> None:
    for corpus in corpora:
        for name, hyps in corpus.systems.items():
            ours = bench.ours_corpus(hyps, corpus.refs, corpus.tokenize)
            theirs = bench.sacre_corpus(hyps, corpus.refs, corpus.tokenize)
            assert abs(ours - theirs) <= 1e-9, (corpus.name, name, ours, theirs)


def test_sentence_path_equals_sacrebleu(corpora: list[bench.Corpus]) -> None:
    for corpus in corpora:
        hyps = next(iter(corpus.systems.values()))
        ours = bench.ours_sentences(hyps, corpus.refs, corpus.tokenize)
        theirs = bench.sacre_sentences(hyps, corpus.refs, corpus.tokenize)
        assert len(ours) == len(theirs) == len(hyps)
        assert max(abs(a - b) for a, b in zip(ours, theirs, strict=True)) <= 1e-9, corpus.name
        assert bench.same_scores(ours, theirs)


def test_nltk_path_equals_nltk(corpora: list[bench.Corpus]) -> None:
    corpus = corpora[0]  # the 13a pair: the benchmark compares NLTK there only
    hyps = next(iter(corpus.systems.values()))
    ours = bench.ours_nltk(hyps, corpus.refs)
    theirs = bench.nltk_sentences(hyps, corpus.refs)
    assert max(abs(a - b) for a, b in zip(ours, theirs, strict=True)) <= 1e-9
    assert bench.same_scores(ours, theirs)


@pytest.mark.parametrize(("test", "n_samples"), [("bs", 200), ("ar", 500)])
def test_paired_paths_equal_sacrebleu(corpora: list[bench.Corpus], test: str, n_samples: int) -> None:
    corpus = corpora[0]
    ours = bench.ours_paired(corpus.systems, corpus.refs, corpus.tokenize, test, n_samples)
    theirs = bench.sacre_paired(corpus.systems, corpus.refs, corpus.tokenize, test, n_samples)
    assert list(ours) == list(theirs) == list(corpus.systems)
    for name, mine in ours.items():
        assert abs(mine.score - theirs[name].score) <= 1e-9, name
        assert mine.p_value == theirs[name].p_value, name
    assert ours[next(iter(ours))].p_value is None
    assert bench.same_paired(ours, theirs)


def test_large_corpus_subprocess_path_equals_sacrebleu() -> None:
    synthetic = not bench.data_root().is_dir()
    ours = bench.run_child("ours", 400, synthetic=synthetic)
    theirs = bench.run_child("sacrebleu", 400, synthetic=synthetic)
    assert ours["segments"] == theirs["segments"] == 400
    assert abs(ours["score"] - theirs["score"]) <= 1e-9
    for record in (ours, theirs):
        assert 0 < record["base_kb"] <= record["scoring_peak_kb"] <= record["peak_kb"]
        assert 0 < record["seconds"] < record["process_seconds"]


@pytest.mark.skipif(not bench.data_root().is_dir(), reason="WMT22 data not found")
def test_large_corpus_is_made_of_13a_outputs_with_one_reference() -> None:
    hyps, refs = bench.hundred_k_corpus(bench.data_root(), 25_000)
    assert len(hyps) == len(refs) == 25_000
    en_de = bench.load_corpus(bench.data_root(), "en-de")
    assert en_de is not None
    first = next(iter(en_de.systems.values()))
    assert hyps[: len(first)] == first and refs[: len(first)] == en_de.refs[0]


def test_cli_path_equals_sacrebleu(corpora: list[bench.Corpus], tmp_path: Path) -> None:
    corpus = corpora[0]
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("\n".join(corpus.refs[0]) + "\n", encoding="utf-8")
    hyp.write_text("\n".join(next(iter(corpus.systems.values()))) + "\n", encoding="utf-8")
    ours_cmd, theirs_cmd = bench.cli_commands(ref, hyp)
    ours_out, theirs_out = bench.run_command(ours_cmd), bench.run_command(theirs_cmd)
    expected = bench.sacre_corpus(next(iter(corpus.systems.values())), corpus.refs[:1], "13a")
    assert json.loads(ours_out)["score"] == float(f"{expected:.1f}")  # sacreBLEU's JSON rounds to -w
    assert bench.cli_scores_agree(ours_out, theirs_out, ref, hyp)


def test_timing_harness_alternates_and_keeps_first_results() -> None:
    calls: list[str] = []

    def ours() -> int:
        calls.append("ours")
        return len(calls)

    def theirs() -> int:
        calls.append("theirs")
        return len(calls)

    ours_times, theirs_times, first_ours, first_theirs = bench.alternate(ours, theirs, 3)
    assert calls == ["ours", "theirs", "theirs", "ours", "ours", "theirs"]
    assert len(ours_times) == len(theirs_times) == 3
    assert (first_ours, first_theirs) == (1, 2)
    table = bench.format_table([bench.Row("corpus", 1.0, 10.0, 0.1, target=0.125, identical=True)])
    assert "ok" in table and "yes" in table


def test_benchmark_exits_cleanly_without_the_data(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BLEU_WMT22", str(tmp_path / "absent"))
    assert bench.main([]) == 0
    assert "WMT22 data not found" in capsys.readouterr().out


def test_task_selection_runs_only_the_named_tasks(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        bench.parse_args(["--tasks", "corpus,warp"])
    assert "unknown task(s) warp" in capsys.readouterr().err
    ran: list[str] = []
    for name in ("bench_corpus", "bench_sentences", "bench_nltk", "bench_paired", "bench_hundred_k", "bench_cli"):
        monkeypatch.setattr(bench, name, lambda *args, _name=name, **kwargs: ran.append(_name) or [])
    monkeypatch.setattr(
        bench,
        "environment",
        lambda: {
            "bleu_core": "x",
            "sacrebleu": "x",
            "nltk": "x",
            "python": "x",
            "cpus": 2,
            "load_average": (0.0, 0.0, 0.0),
        },
    )
    if not bench.data_root().is_dir():
        pytest.skip(f"WMT22 data not found at {bench.data_root()}")
    assert bench.main(["--tasks", "sentences,cli", "--output", str(tmp_path / "out.json")]) == 0
    assert ran == ["bench_sentences", "bench_cli"]
