"""The command line (``python -m bleu_core``, ``bleu-core``): sacreBLEU's command line, byte for byte.

Owns: :mod:`.main` (reading in chunks, counting, dispatch), :mod:`.settings` (flags checked as sacreBLEU checks
them), :mod:`.report` (the paired tests' and intervals' output), :mod:`.metrics` (chrF beside BLEU) and
:mod:`.ter` (TER beside them).  The printed format itself is :mod:`bleu_core.sacrebleu_format`, shared with
:mod:`bleu_core.sacrebleu_api`.

May import: everything below it (text, stats, compare, options, sacrebleu_format); :mod:`bleu_core.scale` only
lazily, for ``--dask``.
"""
