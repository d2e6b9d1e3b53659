"""Scale: corpus statistics are a monoid, so huge corpora are counted in pieces and summed to the identical score.

Owns: :mod:`.dask_bleu` (corpus BLEU over Dask collections), :mod:`.records` (statistics as flat records,
Parquet), :mod:`.worker_files` (a worker reading its own byte range of a file) and :mod:`.cluster` (the command
line's ``--dask``: chunks counted on a cluster, taken in order).

May import: :mod:`bleu_core.stats`, :mod:`bleu_core.text`, :mod:`bleu_core.api`, :mod:`bleu_core.compare`,
:mod:`bleu_core.options`, :mod:`bleu_core.version`; pandas and Dask (optional extras).
"""
