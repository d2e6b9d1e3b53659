"""Comparing systems: paired significance tests, bootstrap intervals and rank clusters.

Owns: :mod:`.resampling` (resampled sums of segment statistics, scored in chunks), :mod:`.significance`
(sacreBLEU's paired bootstrap and approximate randomization, intervals), :mod:`.ranking` (rank clusters from
resampled scores), :mod:`.metrics` (what a metric gives the tests: BLEU, chrF, chrF++), :mod:`.paired` (the tests
for any such metric) and :mod:`.slices` (each label of a tags file scored and tested).  Every test resamples
statistics; nothing here tokenizes again.

May import: :mod:`bleu_core.stats`, :mod:`bleu_core.api`, :mod:`bleu_core.options`, :mod:`bleu_core.limits`,
:mod:`bleu_core.stats.progress`.
"""
