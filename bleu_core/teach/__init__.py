"""Explanation and teaching: one segment's walkthrough, the built-in examples and the exercises.

Owns: :mod:`.explain` (every intermediate of one segment's score: tokens, per-reference counts, clipping, p_n,
the chosen reference length, BP, the log-sum), :mod:`.examples` (the built-in examples and textbook cases),
:mod:`.exercises` and :mod:`.exercise_checks` (exercises and the feedback on an answer), :mod:`.chrf_explain` and
:mod:`.chrf_exercises` (the same for chrF and chrF++).

May import: :mod:`bleu_core.stats`, :mod:`bleu_core.api`, :mod:`bleu_core.options`, :mod:`bleu_core.limits`,
:mod:`bleu_core.i18n`, :mod:`bleu_core.tokenizers`.
"""
