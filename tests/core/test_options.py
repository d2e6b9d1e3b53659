"""Options travel as one BleuOptions; keyword settings are converted once at the public boundary."""

from __future__ import annotations

import pytest

import bleu_core
from bleu_core.options import BleuOptions, make_options
from bleu_core.teach.explain import explain

HYPS = ["the cat sat on the mat", "a dog barked"]
REFS = [["the cat sat on a mat", "the dog barked"]]


def test_options_object_equals_keywords() -> None:
    options = make_options(max_order=3, tokenize="none", smooth="floor", smooth_value=0.2)
    by_object = bleu_core.corpus_bleu(HYPS, REFS, options)
    by_keywords = bleu_core.corpus_bleu(HYPS, REFS, max_order=3, tokenize="none", smooth="floor", smooth_value=0.2)
    assert by_object == by_keywords
    assert by_object.options is options
    sentence = make_options(max_order=2, effective_order=True)
    assert (
        bleu_core.sentence_bleu(HYPS[0], [REFS[0][0]], sentence).score
        == bleu_core.sentence_bleu(HYPS[0], [REFS[0][0]], max_order=2).score
    )
    assert explain(HYPS[0], [REFS[0][0]], sentence).score == explain(HYPS[0], [REFS[0][0]], max_order=2).score


def test_defaults_differ_between_corpus_and_sentence_as_in_sacrebleu() -> None:
    assert bleu_core.corpus_bleu(HYPS, REFS).options.effective_order is False
    assert bleu_core.sentence_bleu(HYPS[0], [REFS[0][0]]).options.effective_order is True


def test_both_or_unknown_settings_are_refused() -> None:
    with pytest.raises(TypeError, match="not both"):
        bleu_core.corpus_bleu(HYPS, REFS, make_options(), max_order=2)
    with pytest.raises(TypeError, match="unexpected keyword argument 'max_n'"):
        bleu_core.corpus_bleu(HYPS, REFS, max_n=2)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="must be a BleuOptions"):
        bleu_core.corpus_bleu(HYPS, REFS, {"max_order": 2})  # type: ignore[arg-type]


def test_inconsistent_options_cannot_be_built() -> None:
    with pytest.raises(ValueError, match="make_options"):
        BleuOptions(max_order=2)
    assert make_options(max_order=2) == BleuOptions(max_order=2, weights=(0.5, 0.5))


def test_settings_changed_against_sacrebleus_sentence_defaults() -> None:
    from bleu_core.options import SENTENCE_DEFAULTS, settings_changed

    assert settings_changed(make_options(effective_order=True)) == ()
    assert settings_changed(make_options(weights=[1, 1, 1, 1], effective_order=True)) == ()  # equal weights
    assert settings_changed(make_options(max_order=3, smooth="none")) == (
        ("max_order", "3"),
        ("smooth", "none"),
        ("effective_order", "false"),
    )
    changed = make_options(weights=[2, 1], tokenize="intl", lowercase=True, smooth="add-k", smooth_value=0.5)
    assert dict(settings_changed(changed, SENTENCE_DEFAULTS)) == {
        "max_order": "2",
        "weights": "0.667, 0.333",
        "tokenize": "intl",
        "lowercase": "true",
        "smooth": "add-k 0.5",
        "effective_order": "false",
    }
