"""sacreBLEU's ``13a`` (mteval-v13a) over a whole stream: replacements, then the four rules over UTF-8 bytes."""

from __future__ import annotations

from collections.abc import Sequence

from bleu_core.tokenizers.joined import Joined, join
from bleu_core.tokenizers.rules import apply_rules, punctuation_bytes

#: The entities Tokenizer13a unescapes, in its order.
_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))
#: What Tokenizer13a replaces (line breaks aside), by first character.
_REPLACED = (("<", ("<skipped>",)), ("&", tuple(entity for entity, _ in _ENTITIES)))
#: How many of each first character :func:`needs_preparing` looks at one by one (bounds its Python loop).
_LOOKS = 64


def prepared(line: str) -> str:
    """What 13a's rules see of a line, less its padding: BLEU's rstrip, then Tokenizer13a's replacements."""
    line = line.rstrip().replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        for entity, char in _ENTITIES:
            line = line.replace(entity, char)
    return line


def needs_preparing(text: str) -> bool:
    """Whether 13a replaces anything in ``text``.

    Speed trick: each "<" and "&" is found with ``str.find`` and the words are checked there (up to
    :data:`_LOOKS` of each; past those, the words themselves are searched for);
    :func:`plain_needs_preparing` (``in`` for each word) is what it must equal (tested).  Measured gain
    (``python -m bench.tricks``): 13-28x on de-en ref A (0.5 ms saved a stream), 9-17x on zh-en ref A
    (0.8 ms).
    """
    if "\n" in text:
        return True
    for first, words in _REPLACED:
        at = text.find(first)
        for _ in range(_LOOKS):
            if at < 0:
                break
            if text.startswith(words, at):
                return True
            at = text.find(first, at + 1)
        else:
            if at >= 0 and any(text.find(word, at) >= 0 for word in words):
                return True
    return False


def plain_needs_preparing(text: str) -> bool:
    return "\n" in text or any(word in text for _, words in _REPLACED for word in words)


def join_13a(lines: Sequence[str], as_bytes: bool = True) -> Joined:
    """sacreBLEU's 13a: drop ``<skipped>``, join ``-\\n`` line breaks, unescape four entities, then the rules.

    Every rule acts on single characters and their neighbours, and each line has a space before and after
    it (as in sacreBLEU), so the rules run once over the UTF-8 bytes of the joined lines.  The replacements
    change the lengths of lines, so they are done line by line, and only for texts that need them; else
    stripping a line's end only drops whitespace, which changes no token.  ``as_bytes=False`` is the plain
    version of running over bytes (see :func:`.joined.join`).
    """
    if needs_preparing(" ".join(lines)):
        lines = [prepared(line) for line in lines]
    return apply_rules(join(lines, as_bytes), punctuation_bytes())
