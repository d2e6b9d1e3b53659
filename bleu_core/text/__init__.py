"""Text in: reading files and streams as sacreBLEU reads them, with clear errors for bad input.

Owns: :mod:`.reader` (decoding uploads and files, line-count checks, the errors pages and the command line show)
and :mod:`.sacrebleu_reading` (sacreBLEU's own reading rules: blocks, line endings, test-set references).

May import: the standard library and :mod:`bleu_core.i18n`; nothing else in ``bleu_core`` (the lowest floor).
"""
