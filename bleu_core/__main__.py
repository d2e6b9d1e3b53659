"""``python -m bleu_core``: the command line (:mod:`bleu_core.cli`)."""

import os

# The command line does no linear algebra, but at numpy's import OpenBLAS starts a worker thread per core,
# and those busy-wait for a while: on two cores that slowed every run of the command by about a tenth.
# An explicit setting in the environment wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from .cli import main  # imports numpy: after the setting

main()
