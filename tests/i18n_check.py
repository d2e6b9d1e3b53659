"""What counts as untranslated English in Chinese text: words of three or more Latin letters that are not
shared technical terms (BLEU, sacreBLEU, tokenizer names, ...).  Used on the catalog and on rendered pages."""

from __future__ import annotations

import re
from collections.abc import Iterable

from streamlit.testing.v1 import AppTest

#: Terms a Chinese text keeps in Latin letters (names of tools, metrics, tokenizers, formats and symbols).
TECHNICAL = frozenset(
    " ".join(
        (
            "bleu sacrebleu nltk matlab bleuevaluationscore torchmetrics evaluate hugging face perl moses multi d2l",
            "bleu-k gram grams ngram n-gram n-grams p_n w_n add-k count_clip clip count exp log min max ratio",
            "intl char none floor add sum csv json tsv txt latex wmt utf utf-8 bom papineni compare-mt",
            "dask parquet arrow url ter chrf dataframe nul",
            "holm bonferroni barrault kocmi html multi-bleu nan",
            "sys float_info split method epsilon max_order n_gram ngramweights smooth true",
        )
    ).split()
)
WORD = re.compile(r"[A-Za-z][A-Za-z_\-]{2,}")
#: Placeholders, LaTeX commands, Markdown links and code spans are not prose.
NOT_PROSE = re.compile(r"\{[^{}]*\}|\\[A-Za-z]+|\]\([^)]*\)|`[^`]*`|https?://\S+|:material/[a-z_]+:")


def english_words(value: str) -> list[str]:
    """Latin words in ``value`` that are not technical terms."""
    return [w for w in WORD.findall(NOT_PROSE.sub(" ", value)) if w.lower().strip("-_") not in TECHNICAL]


def rendered_labels(at: AppTest) -> list[str]:
    """Headings, prose, captions, alerts and widget labels of a run (not user data such as table cells)."""
    texts: list[str] = []
    for kind in ("title", "header", "subheader", "caption", "info", "warning", "error", "success"):
        texts.extend(str(element.value) for element in getattr(at, kind))
    texts.extend(str(m.value) for m in at.markdown)
    for kind in ("button", "checkbox", "radio", "selectbox", "multiselect", "slider", "text_area", "text_input"):
        texts.extend(str(widget.label) for widget in getattr(at, kind))
    texts.extend(str(tab.label) for tab in at.tabs)
    texts.extend(str(m.label) for m in at.metric)
    return texts


def untranslated(texts: Iterable[str], allowed: Iterable[str] = ()) -> dict[str, list[str]]:
    """The texts that still hold English words (``allowed`` adds page-specific terms such as user data)."""
    extra = {a.lower() for a in allowed}
    found = {}
    for value in texts:
        words = [w for w in english_words(value) if w.lower() not in extra]
        if words:
            found[value[:120]] = words
    return found
