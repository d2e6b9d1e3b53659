"""``python -m bleu_core`` and the ``bleu-core`` console script: the command line (:mod:`bleu_core.cli.main`)."""

import os


def main() -> None:
    """Run the command line; it owns its process, so it may set what the library never does."""
    # The command line does no linear algebra, but at numpy's import OpenBLAS starts a worker thread per core,
    # and those busy-wait for a while: on two cores that slowed every run of the command by about a tenth.
    # An explicit setting in the environment wins.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from bleu_core.cli.main import main as run_cli  # imports numpy: after the setting

    run_cli()


if __name__ == "__main__":
    main()
