"""Corpus analyses: why a system's score is what it is, and what would change it.

Owns: :mod:`.diagnosis` (findings ranked by what they cost), :mod:`.relative` (this system against the others),
:mod:`.what_if` (a segment edited, the corpus rescored), :mod:`.lint` (input problems), the n-gram views
(:mod:`.produced_ngrams`, :mod:`.ngram_lists`, :mod:`.stopwords`), :mod:`.word_accuracy` and
:mod:`.spelling_twins` (words written with other characters than the references).

May import: :mod:`bleu_core.stats`, :mod:`bleu_core.api`, :mod:`bleu_core.options`, :mod:`bleu_core.tokenizers`,
:mod:`bleu_core.stats.progress`, :mod:`bleu_core.i18n`.
"""
