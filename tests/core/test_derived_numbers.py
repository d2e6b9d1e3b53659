"""Every "would be" of the Corpus diagnosis recomputed by another route: sacreBLEU's statistics and the formula
written out here (never the code under test), on the demo corpus and on the WMT22 files."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence

import pytest
import sacrebleu
from sacrebleu.metrics.bleu import BLEU

from bleu_core import corpus_bleu, make_options
from bleu_core.api import corpus_statistics
from bleu_core.corpus.diagnosis import analyze_corpus
from bleu_core.corpus.produced_ngrams import ngram_stats
from bleu_core.corpus.relative import (
    BELOW_OTHERS_SEVERAL,
    DECAY_BREAKS,
    LOWEST_GAP,
    SHORT,
    SPELLING,
    Finding,
    relative_diagnosis,
)
from bleu_core.corpus.spelling_twins import Twin, bleu_if_spelled_alike, matches_at_stake, spelling_twins
from bleu_core.stats.corpus_ngrams import count_ngrams, tokenize_corpus
from bleu_core.teach.examples import DEMO_REFERENCES, DEMO_SYSTEMS
from tests.conftest import Pair, read_plain

OPTIONS = make_options()


def precisions(score: sacrebleu.BLEUScore) -> list[float]:
    return [m / t for m, t in zip(score.counts, score.totals, strict=True)]


def bleu_from(p: list[float], bp: float) -> float:
    """BLEU (0-1) with equal weights: BP · exp(Σ log p_n / N)."""
    if min(p) <= 0:
        return 0.0
    return bp * math.exp(sum(math.log(x) for x in p) / len(p))


def diagnose(hyps: list[str], refs: list[list[str]], others: dict[str, list[str]]) -> list[Finding]:
    stats, n_refs = corpus_statistics(hyps, refs, OPTIONS)
    analysis = analyze_corpus(stats, OPTIONS, n_refs)
    other_results = {name: corpus_bleu(h, refs, OPTIONS) for name, h in others.items()}
    return list(relative_diagnosis(analysis, other_results).findings)


def check_findings(hyps: list[str], refs: list[list[str]], others: dict[str, list[str]]) -> set[str]:
    """Recompute each finding's BLEU figure from sacreBLEU's statistics; the codes checked."""
    mine = sacrebleu.corpus_bleu(hyps, refs)
    p, bp = precisions(mine), mine.bp
    assert bleu_from(p, bp) == pytest.approx(mine.score / 100, abs=1e-12)
    theirs = [sacrebleu.corpus_bleu(h, refs) for h in others.values()]
    checked = set()
    for finding in diagnose(hyps, refs, others):
        if finding.code == DECAY_BREAKS:
            k = int(finding.term[1:])  # p_k breaks: had p_k/p_{k-1} stayed at p_{k-1}/p_{k-2}
            held = p[k - 2] * (p[k - 2] / p[k - 3])
            expected = bleu_from([held if i == k - 1 else x for i, x in enumerate(p)], bp)
            assert finding.typical == pytest.approx(p[k - 2] / p[k - 3], abs=1e-12)
            assert finding.value == pytest.approx(p[k - 1] / p[k - 2], abs=1e-12)
        elif finding.code == SHORT:
            expected = bleu_from(p, 1.0)
            assert finding.bleu_if_perfect == pytest.approx(expected, abs=1e-12)
            assert finding.cost == pytest.approx(expected - mine.score / 100, abs=1e-12)
            checked.add(finding.code)
            continue
        elif finding.code in (LOWEST_GAP, BELOW_OTHERS_SEVERAL):
            terms = finding.term.replace("–", "-").split(", ")
            changed: dict[str, float] = {}
            for term in terms:
                if term == "BP":
                    changed["BP"] = statistics.median(o.bp for o in theirs)
                    continue
                low, _, high = term[1:].partition("-p")
                for n in range(int(low), int(high or low) + 1):
                    changed[f"p{n}"] = statistics.median(precisions(o)[n - 1] for o in theirs)
            if finding.code == BELOW_OTHERS_SEVERAL:  # every named term really is below all others
                assert len(changed) >= 2 and finding.value == len(theirs)
                for term in changed:
                    values = (
                        [o.bp for o in theirs] if term == "BP" else [precisions(o)[int(term[1:]) - 1] for o in theirs]
                    )
                    assert (bp if term == "BP" else p[int(term[1:]) - 1]) < min(values)
            new_p = [changed.get(f"p{n + 1}", x) for n, x in enumerate(p)]
            expected = bleu_from(new_p, changed.get("BP", bp))
        else:
            continue
        assert finding.bleu_if_typical == pytest.approx(expected, abs=1e-12), finding
        assert finding.cost == pytest.approx(max(expected - mine.score / 100, 0.0), abs=1e-12)
        checked.add(finding.code)
    return checked


def test_demo_corpus_findings_recomputed() -> None:
    refs = [list(r) for r in DEMO_REFERENCES]
    systems = {name: list(h) for name, h in DEMO_SYSTEMS.items()}
    checked: set[str] = set()
    for name, hyps in systems.items():
        checked |= check_findings(hyps, refs, {k: v for k, v in systems.items() if k != name})
    assert {DECAY_BREAKS, SHORT, LOWEST_GAP, BELOW_OTHERS_SEVERAL} <= checked


def test_demo_literal_decay_break_is_the_continued_ratio() -> None:
    """The demo's "literal" system: p4/p3 falls below p3/p2; had it held, p4 = p3²/p2 and BLEU about 41."""
    refs = [list(r) for r in DEMO_REFERENCES]
    findings = diagnose(list(DEMO_SYSTEMS["literal"]), refs, {})
    (decay,) = [f for f in findings if f.code == DECAY_BREAKS]
    score = sacrebleu.corpus_bleu(list(DEMO_SYSTEMS["literal"]), refs)
    p = precisions(score)
    assert decay.term == "p4"
    assert decay.bleu_if_typical == pytest.approx(bleu_from([p[0], p[1], p[2], p[2] ** 2 / p[1]], score.bp), abs=1e-12)
    assert 40 < 100 * (decay.bleu_if_typical or 0) < 42


def test_findings_come_costliest_first() -> None:
    refs = [list(r) for r in DEMO_REFERENCES]
    for name, hyps in DEMO_SYSTEMS.items():
        others = {k: list(v) for k, v in DEMO_SYSTEMS.items() if k != name}
        costs = [f.cost for f in diagnose(list(hyps), refs, others) if f.cost]
        assert costs == sorted(costs, reverse=True)


def respell_with_sacrebleu(hyps: list[str], refs: list[list[str]], twins: Sequence[Twin]) -> float:
    """BLEU (0-100) with the twins' words written as each segment's references write them, by the rule of
    ``respelled`` written out token by token, tokenized and scored by sacreBLEU."""
    tokenizer = BLEU(tokenize="13a").tokenizer
    forms: dict[str, list[str]] = {}
    for twin in twins:  # most at stake first
        forms.setdefault(twin.hypothesis, []).append(twin.reference)
    respelled = []
    for i, hyp in enumerate(hyps):
        tokens = tokenizer(hyp.rstrip()).split()
        ref_tokens = [tokenizer(stream[i].rstrip()).split() for stream in refs]
        neighbours = {(r[j], r[j + 1]) for r in ref_tokens for j in range(len(r) - 1)}
        words = set(tokens).union(*forms.values())
        clip = {word: max(r.count(word) for r in ref_tokens) for word in words}
        out: list[str] = []
        kept: Counter[str] = Counter()
        replaced: Counter[str] = Counter()
        for j, token in enumerate(tokens):
            if token in forms and kept[token] < clip[token]:
                kept[token] += 1
            elif token in forms:
                free = [f for f in forms[token] if clip[f] - tokens.count(f) - replaced[f] > 0]
                if free:
                    context = (out[-1] if out else None, tokens[j + 1] if j + 1 < len(tokens) else None)
                    token = max(free, key=lambda f: ((context[0], f) in neighbours) + ((f, context[1]) in neighbours))
                    replaced[token] += 1
            out.append(token)
        respelled.append(" ".join(out))
    tokenized_refs = [[" ".join(tokenizer(r.rstrip()).split()) for r in stream] for stream in refs]
    return sacrebleu.corpus_bleu(respelled, tokenized_refs, tokenize="none").score


def test_spelling_twins_counterfactual_on_a_small_corpus() -> None:
    hyps = ['I don\'t know "why" .', "It's a well-known fact", "don't stop"]
    refs = [["I don’t know “why” .", "It’s a well–known fact", "don’t stop now"]]
    stats, n_refs = corpus_statistics(hyps, refs, OPTIONS)
    analysis = analyze_corpus(stats, OPTIONS, n_refs)
    counts = count_ngrams(tokenize_corpus(hyps, refs, "13a", False), 1)
    twins = spelling_twins(ngram_stats(counts))
    result = bleu_if_spelled_alike(counts.corpus, analysis.stats, twins, OPTIONS)
    mapping = {"don't": "don’t", "It's": "It’s", "well-known": "well–known"}
    assert {(t.hypothesis, t.reference) for t in twins} >= set(mapping.items())
    assert result.score_100 == pytest.approx(respell_with_sacrebleu(hyps, refs, twins), abs=1e-9)
    respelled = [h.replace("don't", "don’t").replace("It's", "It’s").replace("well-known", "well–known") for h in hyps]
    assert result.score_100 == pytest.approx(sacrebleu.corpus_bleu(respelled, refs).score, abs=1e-9)
    found = relative_diagnosis(analysis, None, result, matches_at_stake(twins))
    (spelling,) = [f for f in found.findings if f.code == SPELLING]
    assert spelling.cost == pytest.approx(result.score - analysis.result.score, abs=1e-12)
    assert spelling.value == matches_at_stake(twins)


@pytest.mark.parametrize("system", [0, 3, 6])
def test_spelling_twins_counterfactual_on_wmt22(pairs: list[Pair], system: int) -> None:
    pair = next(p for p in pairs if p.name == "de-en")
    refs = [read_plain(path) for path in pair.references]
    hyps = read_plain(pair.systems[system])
    stats, n_refs = corpus_statistics(hyps, refs, OPTIONS)
    analysis = analyze_corpus(stats, OPTIONS, n_refs)
    counts = count_ngrams(tokenize_corpus(hyps, refs, "13a", False), 1)
    twins = spelling_twins(ngram_stats(counts))
    result = bleu_if_spelled_alike(counts.corpus, analysis.stats, twins, OPTIONS)
    assert result.score_100 == pytest.approx(respell_with_sacrebleu(hyps, refs, twins), abs=1e-9)
    assert result.score >= analysis.result.score
    assert result.counts[0] >= analysis.result.counts[0]  # no unigram match is lost


def test_a_form_the_references_use_in_one_segment_is_not_forced_on_another() -> None:
    """The system writes "-" everywhere; the references write "–" in the first segment and "-" in the second:
    only the first changes (a corpus-wide swap would break the second's matches and lower the score)."""
    hyps = ["he said - yes", "a - b is c"]
    refs = [["he said – yes", "a - b is c"]]
    stats, n_refs = corpus_statistics(hyps, refs, OPTIONS)
    analysis = analyze_corpus(stats, OPTIONS, n_refs)
    counts = count_ngrams(tokenize_corpus(hyps, refs, "13a", False), 1)
    twins = spelling_twins(ngram_stats(counts))
    assert [(t.reference, t.hypothesis) for t in twins] == [("–", "-")]
    result = bleu_if_spelled_alike(counts.corpus, analysis.stats, twins, OPTIONS)
    assert result.score_100 == pytest.approx(sacrebleu.corpus_bleu(["he said – yes", "a - b is c"], refs).score)
    assert result.score_100 == pytest.approx(100.0)
    swapped = sacrebleu.corpus_bleu([h.replace("-", "–") for h in hyps], refs).score
    assert swapped < analysis.result.score_100 < result.score_100


def test_opening_and_closing_forms_go_where_the_references_put_them() -> None:
    hyps = ['er sagte " ja " und ging']
    refs = [["er sagte „ ja “ und ging"]]
    stats, n_refs = corpus_statistics(hyps, refs, OPTIONS)
    analysis = analyze_corpus(stats, OPTIONS, n_refs)
    counts = count_ngrams(tokenize_corpus(hyps, refs, "13a", False), 1)
    twins = spelling_twins(ngram_stats(counts))
    result = bleu_if_spelled_alike(counts.corpus, analysis.stats, twins, OPTIONS)
    assert result.score_100 == pytest.approx(100.0)
    assert result.score_100 == pytest.approx(respell_with_sacrebleu(hyps, refs, twins), abs=1e-9)


def test_a_respelling_that_raises_nothing_is_not_a_finding() -> None:
    hyps = ["the cat sat"]
    refs = [["the cat sat"]]
    stats, n_refs = corpus_statistics(hyps, refs, OPTIONS)
    analysis = analyze_corpus(stats, OPTIONS, n_refs)
    found = relative_diagnosis(analysis, None, analysis.result, 3)
    assert SPELLING not in {f.code for f in found.findings}


def test_wmt22_findings_recomputed(pairs: list[Pair]) -> None:
    pair = next(p for p in pairs if p.name == "de-en")
    refs = [read_plain(pair.references[0])]
    systems = {path.name: read_plain(path) for path in pair.systems}
    checked: set[str] = set()
    for name, hyps in systems.items():
        checked |= check_findings(hyps, refs, {k: v for k, v in systems.items() if k != name})
    assert {SHORT, LOWEST_GAP} <= checked
