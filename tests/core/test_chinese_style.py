"""The Chinese catalog as a native reader meets it: the same placeholders as the English one, full-width
punctuation in Chinese prose, one name for the app, one word for each term, and none of the phrases a native
reviewer stumbled on (issue 30: 平局 for a tie, 「平滑 不平滑」, 「累积 k」, feedback that read as if a wrong answer
were right, ...)."""

from __future__ import annotations

import re
import string

import pytest

from bleu_core.i18n import catalog, text
from bleu_core.teach.examples import PRESETS

EN, ZH = catalog("en"), catalog("zh")
HAN = r"[\u3400-\u9fff]"
#: Placeholders and `code spans` are not prose; they become a neutral Latin letter.
NOT_PROSE = re.compile(r"\{[^{}]*\}|`[^`]*`")
#: ASCII ":" "(" ")" touching Chinese text, or an ASCII aside after Chinese text ("精确率 (%)"); a formula after
#: Chinese text ("为 (R + 1) / (R + H + 2)") goes on with an operator and is not an aside.
ASCII_IN_CHINESE = re.compile(rf"{HAN} ?:|[(:)]{HAN}|{HAN}[()]|{HAN} \([^()]*\)(?=$|{HAN}|[，。；：、）])")
#: Formulas whose arguments are Chinese words keep their ASCII brackets.
FORMULAS = (
    "min(次数, 在单条参考译文中的最大次数)",
    "min(次数, 单条参考译文中的最多次数)",
    "1/(2^k · 总数)",
    "max(1, 总数)",
    "max(1, n-gram 数)",
)
#: Phrases a native reader stumbled on, each with the reason.
BANNED = {
    "平局": "a drawn game: say 两个参考长度同样接近",
    "并列": "say 同样接近, as everywhere else",
    "任一条参考译文中的最大次数": "clip to the count in a single reference: 单条参考译文中出现的最多次数",
    "任一条参考译文中出现的最大次数": "clip to the count in a single reference: 单条参考译文中出现的最多次数",
    "累积 k": "累积 BLEU-k",
    "仅 k 阶": "仅 k 元",
    "按分组的": "分组统计的",
    "漏译": "the headings say 产出不足",
    "多译": "the headings say 产出过多",
    "假设译文": "the hypothesis is 候选译文 everywhere",
    "一元": "1-gram, as everywhere else (k 元 only on the shortcut button)",
    "的的": "a doubled 的",
    "Explorer": "the app's Chinese name is app.title",
}
#: Where the English says the term on the left, the Chinese says the one on the right.
TERMS = {
    "brevity penalty": "简短惩罚",
    "modified": "修正的",
    "clipped count": "截断计数",
    "hypothesis": "候选",
    "candidate": "候选",
}


def prose(value: str) -> str:
    return NOT_PROSE.sub("X", value)


def fields(template: str) -> set[tuple[str, str | None, str | None]]:
    """Every placeholder with its format spec and conversion (``{lines:,}`` is not ``{lines}``)."""
    return {(name, spec, conv) for _, name, spec, conv in string.Formatter().parse(template) if name is not None}


def test_placeholders_are_identical_with_their_formats() -> None:
    differ = {key: (fields(EN[key]), fields(ZH[key])) for key in EN if key in ZH}
    assert {key: pair for key, pair in differ.items() if pair[0] != pair[1]} == {}


def test_no_ascii_colon_or_bracket_inside_chinese_text() -> None:
    found = {}
    for key, value in ZH.items():
        plain = prose(value)
        for formula in FORMULAS:
            plain = plain.replace(formula, "X")
        if hits := [plain[max(0, m.start() - 8) : m.end() + 8] for m in ASCII_IN_CHINESE.finditer(plain)]:
            found[key] = hits
    assert found == {}


def test_no_space_between_two_chinese_characters() -> None:
    """A space before a TOML line-continuation backslash survives into the text: 「未校正时 才低于」."""
    spaced = {key: m[0] for key, value in ZH.items() if (m := re.search(rf"{HAN} +{HAN}", value))}
    assert spaced == {}


def test_the_allowed_formulas_are_still_in_use() -> None:
    """An allow-list entry no catalog value holds any more is dead weight (and hides nothing)."""
    assert [f for f in FORMULAS if not any(f in value for value in ZH.values())] == []


@pytest.mark.parametrize("phrase", BANNED)
def test_phrases_a_native_reader_stumbled_on_are_gone(phrase: str) -> None:
    assert [key for key, value in ZH.items() if phrase in value] == [], BANNED[phrase]


def test_one_name_for_the_app() -> None:
    name = ZH["app.title"]
    assert name.startswith("BLEU") and re.search(HAN, name)
    word = name.removeprefix("BLEU").strip()
    assert {key for key, value in ZH.items() if word in value} >= {"app.title", "verdict.report_created"}
    assert [key for key, value in ZH.items() if word in value and name not in value] == []


@pytest.mark.parametrize(("english", "chinese"), TERMS.items())
def test_one_word_for_each_term(english: str, chinese: str) -> None:
    missing = {key: ZH[key] for key, value in EN.items() if english in prose(value).lower() and chinese not in ZH[key]}
    assert missing == {}


def test_the_counts_are_clipped_to_a_single_reference() -> None:
    for key in ("home.intro", "present.order_title", "exercise.step_order_help"):
        assert "单条参考译文中出现的最多次数" in ZH[key], key


def test_smoothing_none_reads_as_a_setting() -> None:
    none = ZH["settings.smooth_none"]
    line = text("present.settings", "zh", max_n=4, weights="0.25", tokenizer="13a", smoothing=none)
    assert "平滑：无" in line and "不平滑" not in line


def test_the_shortcut_buttons() -> None:
    assert (ZH["explain.bleu_k"], ZH["explain.k_gram"]) == ("累积 BLEU-k", "仅 k 元")


def test_a_wrong_answer_is_named_as_what_the_student_wrote() -> None:
    zh = text("exercise.wrong", "zh", label=text("exercise.matches", "zh", n=1), answer="8", why="")
    en = text("exercise.wrong", "en", label=text("exercise.matches", "en", n=1), answer="8", why="")
    assert "你填的是 8" in zh and "= 8" not in zh
    assert "you wrote 8" in en and "= 8" not in en


def test_ties_between_reference_lengths_are_equally_close() -> None:
    assert "两个参考长度同样接近" in ZH["presets.love.name"]
    assert "两个参考长度同样接近" in ZH["exercise.trap_length_tie"]


def test_the_corpus_intro_names_its_headings() -> None:
    caption = ZH["corpus.caption"]
    for heading in ("corpus.under_header", "corpus.over_header"):
        assert re.search(r"\*\*(.+?)\*\*", ZH[heading])[1] in caption  # type: ignore[index]
    assert "分组统计的词准确率" in caption


def test_presets_named_after_an_english_sentence_keep_the_sentence() -> None:
    """The example's text stays English in the box, so its name quotes it instead of translating it."""
    kept = {}
    for preset in PRESETS:
        head = EN[f"presets.{preset.key}.name"].split(":")[0]
        words = {w.lower() for w in re.findall(r"[A-Za-z]+", preset.candidate)}
        quoted = [w for w in re.findall(r"[A-Za-z]+", head) if w.lower() in words]
        if quoted:
            kept[preset.key] = all(w.lower() in ZH[f"presets.{preset.key}.name"].lower() for w in quoted)
    assert kept and all(kept.values()), kept


@pytest.mark.parametrize("key", ["corpus.upload_caption", "compare.upload_caption", "implementations.upload_caption"])
def test_each_uploader_caption_explains_streamlits_english(key: str) -> None:
    """Streamlit's uploader says "Upload" and "50MB per file" in English whatever the page's language."""
    assert "50 MB" in EN[key]
    assert "`Upload`" in ZH[key] and "`50MB per file`" in ZH[key] and "每个文件最大 50 MB" in ZH[key]
