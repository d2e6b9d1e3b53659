"""The Corpus page's analyses: the diagnosis relative to other systems, produced n-grams and the segments behind
one, word accuracy by bucket.  The n-gram and word views count on request (when their view is chosen), from one
tokenization of the corpus shared by both."""

from __future__ import annotations

from typing import Any

import streamlit as st

from bleu_core.corpus.diagnosis import CorpusAnalysis
from bleu_core.corpus.produced_ngrams import RANKINGS, NgramFilter, Ranking
from bleu_core.corpus.relative import Finding
from bleu_core.corpus.spelling_twins import matches_at_stake
from bleu_core.corpus.stopwords import STOPWORDS, guess_language
from bleu_core.corpus.word_accuracy import (
    LENGTH_EDGES,
    SCORE_EDGES,
    frequency_buckets,
    read_frequencies,
    segment_buckets,
    source_lengths,
)
from bleu_core.options import BleuOptions
from bleu_core.text.reader import InputFileError
from pages.corpus_page import analysis_views as corpus_analysis_views
from pages.corpus_page.inputs import choices
from pages.corpus_page.views import MISSING
from pages.shared import cached, charts, views
from pages.shared import state as S
from pages.shared.i18n import error_text, number_columns, t

#: Above this many segments the n-gram and word views count only when asked.
LAZY_SEGMENTS = 20_000
NO_LANGUAGE = "none"


def _bleu(value: float | None) -> str:
    return MISSING if value is None else f"{100 * value:.2f}"


def finding_text(finding: Finding, analysis: CorpusAnalysis) -> str:
    """One finding as a sentence in the interface language (numbers in the page's one format per quantity)."""
    term = finding.term
    digits = 3 if term == "c/r" or finding.code in ("decay_breaks", "decay_regular", "short", "long") else 4
    counted = finding.code in ("spelling", "below_others_several")  # a count: matches at stake, other systems
    value = f"{finding.value:.0f}" if counted else f"{finding.value:.{digits}f}"
    typical = MISSING if finding.typical is None else f"{finding.typical:.{digits}f}"
    order = int(term[1:]) if term[:1] == "p" and term[1:].isdigit() else 0
    return t(
        f"diagnosis.{finding.code}",
        term=term,
        n=order,
        previous=max(order - 1, 1),
        before=max(order - 2, 1),
        value=value,
        typical=typical,
        bleu=f"{analysis.result.score_100:.2f}",
        bleu_typical=_bleu(finding.bleu_if_typical),
        bleu_perfect=_bleu(finding.bleu_if_perfect),
        bp=f"{analysis.result.bp:.4f}",
        cost=_bleu(finding.cost),
    )


def _other_systems(n_segments: int) -> dict[str, list[str]]:
    """Other systems' outputs for the same test set, kept in the shared store (loaded here or on Compare)."""
    ss = st.session_state
    # Clearing gives the uploader a new key: Streamlit cannot empty an uploader from the script.
    generation = ss.setdefault(S.KEPT + "co_other_generation", 0)
    key = f"co_other_files_{generation}"
    uploaded = st.file_uploader(
        t("diagnosis.others_upload"),
        accept_multiple_files=True,
        key=key,
        help=t("diagnosis.others_help"),
        on_change=_merge_others,
        args=(key,),
    )
    for file in uploaded or []:  # (merged into the store by _merge_others; here the unreadable ones are named)
        try:
            cached.decode_cached(file.getvalue(), file.name)
        except InputFileError as error:
            st.error(views.md_escape(error_text(error)))
    systems = S.other_systems(ss)
    usable = {name: lines for name, lines in systems.items() if len(lines) == n_segments}
    if len(usable) < len(systems):
        st.warning(t("diagnosis.others_mismatch", count=len(systems) - len(usable), segments=n_segments))
    if systems:
        st.button(t("diagnosis.others_clear"), key="co_other_clear", on_click=_clear_others)
    return usable


def _merge_others(key: str) -> None:
    """New uploads go into the store before the run, so that the expander's label counts them (the run itself
    reports the files it cannot read)."""
    ss = st.session_state
    systems = S.other_systems(ss)
    for file in ss.get(key) or []:
        try:
            systems[file.name] = cached.decode_cached(file.getvalue(), file.name)
        except InputFileError:
            continue
    ss[S.SYSTEMS] = systems


def _clear_others() -> None:
    ss = st.session_state
    ss.pop(S.SYSTEMS, None)
    ss[S.KEPT + "co_other_generation"] = ss.get(S.KEPT + "co_other_generation", 0) + 1


def show_diagnosis(corpus: cached.Corpus, settings: BleuOptions) -> None:
    """Findings relative to what is typical: other systems when loaded, the decay of p_n, the length."""
    st.subheader(t("diagnosis.header"))
    analysis = cached.corpus_analysis_cached(corpus, settings)
    loaded = S.other_systems(st.session_state)
    fitting = sum(len(lines) == len(corpus.hypotheses) for lines in loaded.values())
    label = (
        t("diagnosis.others_expander", count=len(loaded))
        if fitting == len(loaded)
        else t("diagnosis.others_expander_some", used=fitting, count=len(loaded))  # the others are left out
    )
    with st.expander(label):
        others = _other_systems(len(corpus.hypotheses))
    found = cached.relative_cached(corpus, settings, cached.Systems(others, corpus.references) if others else None)
    st.caption(t("diagnosis.costliest_first"))
    st.markdown("\n".join(f"- {finding_text(f, analysis)}" for f in found.findings))
    if not others:
        st.caption(t("diagnosis.no_others"))
    else:
        st.dataframe(
            corpus_analysis_views.comparison_frame(found.comparisons),
            hide_index=True,
            column_config={
                "term": st.column_config.TextColumn(t("diagnosis.col_term")),
                "this system": st.column_config.TextColumn(t("diagnosis.col_this")),
                "others' median": st.column_config.TextColumn(t("diagnosis.col_median")),
                "others' range": st.column_config.TextColumn(t("diagnosis.col_range")),
                "rank": st.column_config.TextColumn(t("diagnosis.col_rank")),
                "BLEU at their median": st.column_config.TextColumn(t("diagnosis.col_at_median")),
                "BLEU if perfect": st.column_config.TextColumn(t("corpus.col_bleu_if_perfect")),
            },
        )


def _counts(corpus: cached.Corpus, settings: BleuOptions) -> Any:
    """The corpus's n-gram counts (one tokenization), with a progress bar on a large corpus; None if not asked."""
    segments = len(corpus.hypotheses)
    if segments > LAZY_SEGMENTS and not st.toggle(t("corpus.count_large", segments=f"{segments:,}"), key="co_count"):
        return None
    bar = st.progress(0.0, t("corpus.counting_ngrams")) if segments > 2000 else None
    counts = cached.corpus_ngrams_cached(
        corpus,
        settings,
        progress=(lambda done: bar.progress(done, t("corpus.counting_ngrams"))) if bar is not None else None,
    )
    if bar is not None:
        bar.empty()
    return counts


def _ngram_filter(counts: Any, max_order: int) -> tuple[NgramFilter, Ranking]:
    cols = st.columns([1, 1.5, 1.2, 1.3])  # the two checkboxes stacked, so that their labels are not cut
    min_order = int(cols[0].number_input(t("corpus.min_order"), 1, max_order, value=1, key="co_min_order"))
    hide_punct = cols[1].checkbox(t("corpus.hide_punctuation"), value=True, key="co_hide_punct")
    hide_stop = cols[1].checkbox(t("corpus.hide_stopwords"), value=True, key="co_hide_stop")
    languages = [NO_LANGUAGE, *STOPWORDS]
    if "co_stop_language" not in st.session_state:
        guess = guess_language(tokens for segment in counts.corpus.references for tokens in segment if tokens)
        st.session_state["co_stop_language"] = guess or NO_LANGUAGE
    language = cols[2].selectbox(
        t("corpus.stop_language"),
        languages,
        format_func=choices("corpus.lang_"),
        key="co_stop_language",
        help=t("corpus.stop_language_help"),
    )
    rank: Ranking = cols[3].radio(
        t("corpus.rank"), RANKINGS, format_func=choices("corpus.rank_"), key="co_rank", horizontal=True
    )
    keep = NgramFilter(
        min_order=min_order,
        hide_punctuation=hide_punct,
        hide_stopwords=hide_stop,
        language=None if language == NO_LANGUAGE else language,
    )
    return keep, rank


def _produced_table(where: Any, frame: Any, key: str) -> None:
    where.dataframe(
        frame,
        hide_index=True,
        width="stretch",
        key=key,
        column_config={
            "n-gram": st.column_config.TextColumn(t("corpus.col_ngram")),
            "count": st.column_config.NumberColumn(
                t("corpus.col_missed" if key == "co_under" else "corpus.col_over"), format="%d"
            ),
            **number_columns(
                {
                    "reference": "corpus.col_ref_count",
                    "hypothesis": "corpus.col_hyp_count",
                    "matched": "corpus.col_matched",
                    "segments": "corpus.col_segments",
                }
            ),
            "salience": st.column_config.NumberColumn(
                t("corpus.col_salience"), format="%.4f", help=t("corpus.col_salience_help")
            ),
        },
    )


def _twins(key: str, counts: Any) -> None:
    """A notice when the system writes words with other characters than the references (’ against ')."""
    twins = cached.twins_cached(key, counts)
    if not twins:
        return
    with st.container(border=True):
        st.warning(t("corpus.twins_intro", words=len(twins), count=matches_at_stake(twins)))
        st.dataframe(
            corpus_analysis_views.twins_frame(twins, lambda kind: t(f"corpus.twins_kind_{kind}")),
            hide_index=True,
            height=min(36 * (len(twins) + 1) + 3, 330),  # every one, scrolling after eight
            key="co_twins",
            column_config={
                "reference": st.column_config.TextColumn(t("corpus.twins_col_reference")),
                "hypothesis": st.column_config.TextColumn(t("corpus.twins_col_hypothesis")),
                "characters": st.column_config.TextColumn(t("corpus.twins_col_characters")),
                "kind": st.column_config.TextColumn(t("corpus.twins_col_kind")),
                "lost": st.column_config.NumberColumn(t("corpus.twins_col_count"), format="%d"),
            },
        )
        st.caption(t("corpus.twins_advice"))


def show_ngrams(corpus: cached.Corpus, settings: BleuOptions) -> None:
    key = corpus.key
    counts = _counts(corpus, settings)
    if counts is None:
        return
    keep, rank = _ngram_filter(counts, settings.max_order)
    lists = cached.produced_cached(key, counts, keep, rank)
    _twins(key, counts)
    # one list above the other, each the page's width: side by side, their eight columns were cut off
    st.markdown(t("corpus.under_header"))
    _produced_table(st, corpus_analysis_views.produced_frame(lists.under, True), "co_under")
    st.caption(t("corpus.hidden", count=lists.hidden_under))
    st.markdown(t("corpus.over_header"))
    _produced_table(st, corpus_analysis_views.produced_frame(lists.over, False), "co_over")
    st.caption(t("corpus.hidden", count=lists.hidden_over))
    st.caption(t("corpus.ngram_rules"))
    choices = [" ".join(s.ngram) for s in (*lists.under, *lists.over)]
    if not choices:
        return
    chosen = st.selectbox(t("corpus.follow"), list(dict.fromkeys(choices)), key="co_follow")
    gram = tuple(chosen.split(" "))
    occurrences = cached.ngram_segments_cached(key, counts, gram)
    st.caption(t("corpus.follow_caption", segments=len(occurrences)))
    st.dataframe(
        corpus_analysis_views.occurrence_frame(counts.corpus, occurrences, len(gram)),
        hide_index=True,
        column_config={
            **number_columns(
                {
                    "segment": "corpus.col_segment",
                    "hypothesis count": "corpus.col_hyp_count",
                    "reference count": "corpus.col_ref_count_max",
                    "matched": "corpus.col_matched",
                }
            ),
            "hypothesis": st.column_config.TextColumn(t("corpus.col_hypothesis"), width="medium"),
            **{
                f"reference {k}": st.column_config.TextColumn(t("corpus.col_reference", k=k), width="medium")
                for k in range(1, len(corpus.references) + 1)
            },
        },
    )


def _frequencies(counts: Any, key: str, settings: BleuOptions) -> dict[str, int]:
    source = st.radio(
        t("corpus.freq_source"),
        ("test", "training"),
        format_func=choices("corpus.freq_"),
        horizontal=True,
        key="co_freq_source",
    )
    _, from_references = cached.word_counts_cached(key, counts)
    if source == "test":
        return from_references
    file = st.file_uploader(t("corpus.freq_file"), key="co_freq_file", help=t("corpus.freq_file_help"))
    if file is None:
        st.info(t("corpus.freq_file_needed"))
        return from_references
    try:
        return read_frequencies(cached.decode_cached(file.getvalue(), file.name), settings.lowercase)
    except (InputFileError, ValueError) as error:
        st.error(views.md_escape(str(error)))
        return from_references


def show_words(corpus: cached.Corpus, analysis: CorpusAnalysis, settings: BleuOptions) -> None:
    key, source = corpus.key, corpus.source
    counts = _counts(corpus, settings)
    if counts is None:
        return
    st.caption(t("corpus.words_caption"))
    kind = st.radio(
        t("corpus.words_by"),
        ("frequency", "length", "score", *(("source",) if source is not None else ())),
        format_func=choices("corpus.words_"),
        horizontal=True,
        key="co_words_by",
    )
    words, _ = cached.word_counts_cached(key, counts)
    if kind == "frequency":
        buckets = frequency_buckets(words, _frequencies(counts, key, settings))
        label = corpus_analysis_views.frequency_label
    elif kind == "length":
        buckets = segment_buckets(words, analysis.stats.ref_len.astype(float), LENGTH_EDGES)
        label = corpus_analysis_views.frequency_label
    elif kind == "source" and source is not None:
        buckets = segment_buckets(words, source_lengths(source).astype(float), LENGTH_EDGES)
        label = corpus_analysis_views.frequency_label
    else:
        buckets = segment_buckets(words, 100 * analysis.sentence, SCORE_EDGES)
        label = corpus_analysis_views.range_label
    charts.show(
        st, corpus_analysis_views.word_chart, buckets, label, t(f"corpus.words_axis_{kind}"), t("corpus.words_chart")
    )
    st.dataframe(
        corpus_analysis_views.word_frame(buckets, label),
        hide_index=True,
        column_config={
            "bucket": st.column_config.TextColumn(t(f"corpus.words_axis_{kind}")),
            "count": st.column_config.NumberColumn(
                t("corpus.col_distinct_words" if kind == "frequency" else "corpus.col_segments"), format="%d"
            ),
            **number_columns(
                {
                    "hypothesis words": "corpus.col_hyp_words",
                    "reference words": "corpus.col_ref_words",
                    "matched": "corpus.col_matched",
                }
            ),
            "precision": st.column_config.TextColumn(t("corpus.col_precision")),
            "recall": st.column_config.TextColumn(t("corpus.col_recall")),
            "F-measure": st.column_config.TextColumn(t("corpus.col_f")),
        },
    )
