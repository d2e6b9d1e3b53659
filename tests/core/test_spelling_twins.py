"""Words written with other characters than the references (``don't`` against ``don’t``): found, named, and
the matches at stake bound what normalizing really recovers (sacreBLEU recomputed on the edited output)."""

from __future__ import annotations

import sacrebleu
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from bleu_core.corpus.produced_ngrams import ngram_stats
from bleu_core.corpus.spelling_twins import Twin, fold, matches_at_stake, spelling_twins
from bleu_core.stats.corpus_ngrams import count_ngrams, tokenize_corpus
from tests.conftest import Pair, read_plain


def twins_of(hyps: list[str], refs: list[list[str | None]]) -> tuple[Twin, ...]:
    return spelling_twins(ngram_stats(count_ngrams(tokenize_corpus(hyps, refs, "13a", False), 4)))


def test_apostrophes_dashes_and_quotes_are_paired_and_named() -> None:
    hyps = ['I don\'t know - really "yes"', "The cat don't", "ＡＢ"]
    refs = [["I don’t know – really “yes”", "the cat don’t", "AB"]]
    twins = {(twin.reference, twin.hypothesis): twin for twin in twins_of(hyps, refs)}
    assert twins[("don’t", "don't")].kind == "apostrophe"
    assert twins[("don’t", "don't")].lost == 2
    assert twins[("don’t", "don't")].characters == (("’", "'"),)
    assert twins[("–", "-")].kind == "dash"
    assert twins[("AB", "ＡＢ")].kind == "width"
    assert twins[("AB", "ＡＢ")].characters == (("A", "Ａ"), ("B", "Ｂ"))
    # 13a splits the straight quote off, not the curly ones: “yes” is one token, "yes" three.
    assert ("“yes”", "yes") not in twins
    assert ("the", "The") not in twins  # letter case is not folded
    assert all(twin.reference != twin.hypothesis for twin in twins.values())


def test_a_word_written_alike_somewhere_is_only_a_twin_where_it_is_missed() -> None:
    hyps = ["don't stop", "don’t stop"]
    refs = [["don’t stop", "don’t stop"]]
    (twin,) = twins_of(hyps, refs)
    assert (twin.reference, twin.hypothesis, twin.missed, twin.over, twin.lost) == ("don’t", "don't", 1, 1, 1)


def test_matches_at_stake_counts_a_word_with_two_system_forms_once() -> None:
    twins = (
        Twin("„", '"', "quote", 3, missed=3, over=5),
        Twin("„", "“", "quote", 2, missed=3, over=2),
        Twin("don’t", "don't", "apostrophe", 4, missed=4, over=9),
    )
    assert matches_at_stake(twins) == min(3, 5 + 2) + min(4, 9)
    assert fold("„") == fold("“") == fold('"')


def tokens(line: str) -> list[str]:
    return Tokenizer13a()(line).split()


def unigram_matches(hyps: list[str], refs: list[list[str]]) -> int:
    return int(sacrebleu.BLEU(tokenize="none").corpus_score(hyps, refs).counts[0])


def test_lost_matches_bound_what_writing_alike_recovers_on_wmt22(pairs: list[Pair]) -> None:
    pair = next(p for p in pairs if p.name == "de-en")
    streams = [read_plain(path) for path in pair.references]
    hyps = read_plain(pair.systems[0])
    twins = spelling_twins(ngram_stats(count_ngrams(tokenize_corpus(hyps, streams, "13a", False), 1)))
    assert twins and {twin.kind for twin in twins} >= {"apostrophe", "quote"}
    tokenized_refs = [[" ".join(tokens(line)) for line in stream] for stream in streams]
    tokenized = [tokens(line) for line in hyps]
    before = unigram_matches([" ".join(line) for line in tokenized], tokenized_refs)

    def rewritten(swaps: dict[str, str]) -> list[str]:
        return [" ".join(swaps.get(token, token) for token in line) for line in tokenized]

    top = twins[0]
    gain = unigram_matches(rewritten({top.hypothesis: top.reference}), tokenized_refs) - before
    assert 0 < gain <= top.lost
    # Every system form written as its most-missed reference form: the whole gain stays within the bound.
    swaps: dict[str, str] = {}
    for twin in twins:
        swaps.setdefault(twin.hypothesis, twin.reference)
    total = unigram_matches(rewritten(swaps), tokenized_refs) - before
    assert top.lost < total <= matches_at_stake(twins)
