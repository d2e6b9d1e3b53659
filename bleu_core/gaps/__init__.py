"""Why two tools (or two ways of writing BLEU) give different numbers.

Owns: :mod:`.conventions` (each tool as a point in the space of conventions), :mod:`.waterfall` (the gap between
two tools as one step per convention), :mod:`.divergence` (where two tools' traces part), :mod:`.fields`
(every score field each tool reports) and :mod:`.mistakes` (what a common write-up mistake costs).

May import: :mod:`bleu_core.tools` and everything below it (stats, teach, tokenizers, options, i18n).
"""
