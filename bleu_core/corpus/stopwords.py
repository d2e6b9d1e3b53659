"""Small stop-word lists, one per language, for hiding function-word n-grams from the n-gram lists.

Written for this project (not copied from a published list): the most frequent function words of each
language (articles, pronouns, auxiliaries, prepositions, conjunctions, particles), lower case, as the
tokenizers split them (13a keeps "n't" and "'s" attached to their words; ``zh`` splits Chinese characters
one by one, so the Chinese list holds single characters).  They only filter what is shown; no score uses them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence

_WORDS = {
    "en": """a an the this that these those i you he she it we they me him her us them my your his its our their
        is are was were be been being am do does did have has had will would shall should can could may might must
        of in on at to for from by with about as into over under than then so if or and but not no nor
        there here what which who whom whose when where why how all any some each both more most such only also
        very just too up out off again s t 's 're 'm 'll 've 'd n't""",
    "de": """der die das den dem des ein eine einer eines einem einen ich du er sie es wir ihr mich dich sich uns
        euch ihm ihn ihnen mein dein sein unser euer ist sind war waren bin bist sein gewesen hat haben hatte
        hatten wird werden wurde wurden kann können muss müssen soll sollen will wollen darf von in im an am auf
        zu zum zur für mit bei nach aus über unter vor durch um als wie und oder aber denn doch nicht kein keine
        auch noch schon nur so da dass wenn ob was wer wo wie dieser diese dieses jeder jede man""",
    "fr": """le la les l' un une des du de d' au aux ce cet cette ces je tu il elle on nous vous ils elles me te
        se lui leur moi toi mon ma mes ton ta tes son sa ses notre nos votre vos est sont était étaient être été
        ai as a avons avez ont avait fait peut doit en dans sur sous pour par avec sans chez entre vers et ou
        mais donc car ni ne pas plus que qu' qui quoi dont où si comme tout tous toute toutes très aussi y""",
    "cs": """a i o u v ve k ke s se z ze na do od po pro při za před mezi nad pod bez je jsou byl byla bylo byli
        být jsem jsi jsme jste bude budou by aby že ale nebo ani jak když kde co kdo který která které to ten
        ta tu tento tato toto jeho její jejich jsem mi mě mne mu ho jí nám vám jim si sebe tak také už ještě jen
        jako než není""",
    "es": """el la los las lo un una unos unas de del al a en con por para sin sobre entre y o u e pero ni que
        quien cual como cuando donde si no es son era eran ser sido fue fueron está están estar ha han había
        hay yo tú él ella nosotros ellos ellas me te se le les nos mi tu su sus este esta esto estos estas ese
        esa muy más también ya""",
    "ru": """и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только ее мне
        было вот от меня еще нет о из ему теперь когда даже ну вдруг ли если уже или ни быть был него до вас
        нибудь опять уж вам ведь там потом себя ничего ей может они тут где есть надо ней для мы тебя их чем
        была сам чтоб без будто чего раз тоже себе под будет ж тогда кто этот того потому этого какой это""",
    # Single characters: the zh tokenizer splits Chinese characters apart.
    "zh": """的 了 在 是 我 你 他 她 它 们 这 那 和 与 及 或 也 都 就 而 但 又 把 被 对 从 向 于 以 为 之
        其 个 有 不 没 吗 呢 吧 啊 着 过 地 得 所 中 上 下 等""",
    "ja": "の に は を た が で て と し れ さ ある いる も な い か から まで より こと する です ます",
}

#: Stop words per language code.
STOPWORDS: dict[str, frozenset[str]] = {code: frozenset(words.split()) for code, words in _WORDS.items()}


def is_punctuation(token: str) -> bool:
    """True when every character of ``token`` is punctuation or a symbol (Unicode categories P* and S*)."""
    return bool(token) and all(unicodedata.category(ch)[0] in "PS" for ch in token)


def is_stopword(token: str, language: str | None) -> bool:
    """True when ``token`` (case-folded) is on ``language``'s list; always False for a language without a list."""
    words = STOPWORDS.get(language or "")
    return words is not None and token.casefold() in words


def guess_language(tokens: Iterable[Sequence[str]], candidates: Iterable[str] | None = None) -> str | None:
    """The language whose stop words cover the most tokens (at least 10%), or None.

    A cheap guess for choosing a list, not language identification: on one sentence of mixed text it may err.
    """
    codes = list(candidates) if candidates is not None else list(STOPWORDS)
    hits = dict.fromkeys(codes, 0)
    total = 0
    for line in tokens:
        for token in line:
            total += 1
            folded = token.casefold()
            for code in codes:
                if folded in STOPWORDS[code]:
                    hits[code] += 1
    if not total:
        return None
    best = max(codes, key=lambda code: (hits[code], code == "en"))
    return best if hits[best] >= 0.1 * total else None
