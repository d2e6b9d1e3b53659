"""Counting and scoring: tokens -> n-gram counts per reference -> clipped counts -> ``SegmentStats`` -> a score.

Owns the rules every other part uses, each once: n-gram keys (:mod:`.ngram_keys`), the vectorized counting engine
(:mod:`.counting`), clipping (:mod:`.clipping`), the per-segment statistics and the closest-reference rule
(:mod:`.segment_stats`), the brevity penalty, smoothing and the score (:mod:`.scoring`), statistics of
pre-tokenized lists (:mod:`.token_lists`), a corpus's n-gram tallies (:mod:`.corpus_ngrams`), chrF / chrF++
from text to statistics to score (:mod:`.chrf`), and TER likewise (:mod:`.ter`, its edits with shifts in
:mod:`.ter_edits`).

May import: :mod:`bleu_core.options`, :mod:`bleu_core.tokenizers`, :mod:`bleu_core.sorting`,
:mod:`bleu_core.stats.progress`, :mod:`bleu_core.limits`, :mod:`bleu_core.i18n`; never a floor above (teach,
corpus, compare, gaps, tools, cli, scale).
"""
