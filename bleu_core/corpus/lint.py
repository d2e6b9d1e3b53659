"""The input linter: mistakes in the uploaded files that make a corpus score meaningless or misleading.

Each check is a small rule function taking the files (:class:`LintInput`) and returning its findings;
:func:`lint_corpus` runs :data:`RULES` in order and lists errors first.  A new check is one more function
in that tuple.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bleu_core.i18n import DEFAULT_LANGUAGE, text

NamedLines = tuple[str, Sequence[str]]


@dataclass(frozen=True, slots=True)
class LintFinding:
    """Something about the input files a user should know before trusting the score.

    Its words live in the message catalog only (``lint.<key>`` in bleu_core/locales): :attr:`message` is the
    English one, the pages put it in the reader's language from ``key`` and ``params``.
    """

    level: str  # "error": cannot score; "warning": the score is probably misleading; "info"
    code: str
    key: str
    params: tuple[tuple[str, str | int], ...] = ()

    @property
    def message(self) -> str:
        """The finding in English (the command line, the tests)."""
        return text(f"lint.{self.key}", DEFAULT_LANGUAGE, **dict(self.params))


@dataclass(frozen=True, slots=True)
class LintInput:
    """What the rules look at: the hypothesis file, the reference files (name and lines each) and the tokenizer."""

    hypothesis: NamedLines
    references: Sequence[NamedLines]
    tokenize: str

    @property
    def files(self) -> list[NamedLines]:
        """The hypothesis first, then the references."""
        return [self.hypothesis, *self.references]


#: A check: the files in, its findings out (empty when all is well).
Rule = Callable[[LintInput], list[LintFinding]]
#: Order of the levels in the report.
LEVELS = {"error": 0, "warning": 1, "info": 2}

#: Lines the tokenization check looks at (the start of a file is enough to tell).
LINT_SAMPLE = 5_000
_TOKENIZED = re.compile(r"\s[.,!?;:](\s|$)|\s(?:'s|n't|'re|'ll)\b|&quot;|&amp;|@-@|\s-\s?$")


def _is_cjk(char: str) -> bool:
    code = ord(char)
    return (
        0x4E00 <= code <= 0x9FFF
        or 0x3400 <= code <= 0x4DBF
        or 0x3040 <= code <= 0x30FF
        or 0xF900 <= code <= 0xFAFF
        or 0x20000 <= code <= 0x2FA1F
    )


def invisible_characters(text: str) -> tuple[str, ...]:
    """The control or format characters in ``text`` other than tab (NUL, zero-width, BOM, direction marks, ...),
    each once, as ``U+200B``: they are part of the tokens, so a word that looks the same may not match."""
    if text.isprintable():  # the common case, at C speed: no control or format character at all
        return ()
    # the distinct characters first: a 200,000-token paste with one NUL took 450 ms character by character, 36 ms so
    found = {ch for ch in set(text) if ch != "\t" and unicodedata.category(ch) in ("Cc", "Cf")}
    return tuple(f"U+{ord(ch):04X}" for ch in sorted(found))


def _numbers(numbers: Sequence[int], limit: int = 5) -> str:
    """Line numbers for any language: "3, 5, 7 …"."""
    return ", ".join(str(n) for n in numbers[:limit]) + (" …" if len(numbers) > limit else "")


def _counted(key: str, count: int) -> str:
    """The catalog key for ``count`` lines: ``<key>_one`` words a single line."""
    return f"{key}_one" if count == 1 else key


def _cjk_share(lines: Sequence[str], sample: int = 500) -> tuple[float, bool]:
    """Share of CJK characters among the non-space characters of the first lines, and whether kana occur."""
    text = "".join(lines[:sample])[:100_000]
    letters = [ch for ch in text if not ch.isspace()]
    if not letters:
        return 0.0, False
    cjk = [ch for ch in letters if _is_cjk(ch)]
    kana = any(0x3040 <= ord(ch) <= 0x30FF for ch in cjk)
    return len(cjk) / len(letters), kana


def check_references_present(inputs: LintInput) -> list[LintFinding]:
    """At least one reference file."""
    if inputs.references:
        return []
    return [LintFinding("error", "no-references", "no_references")]


def _blank_at_end(lines: Sequence[str]) -> int:
    """How many of the last lines are empty or only spaces."""
    count = 0
    while count < len(lines) and not lines[len(lines) - 1 - count].strip():
        count += 1
    return count


def check_line_counts(inputs: LintInput) -> list[LintFinding]:
    """Every reference file has as many lines as the hypothesis (line i translates line i); when the longer file's
    extra lines are all empty lines at its end, the finding says so."""
    hyp_name, hyp_lines = inputs.hypothesis
    findings = []
    for name, lines in inputs.references:
        if len(lines) != len(hyp_lines):
            longer, extra_lines = (hyp_name, hyp_lines) if len(hyp_lines) > len(lines) else (name, lines)
            extra = abs(len(lines) - len(hyp_lines))
            params: tuple[tuple[str, str | int], ...] = (
                ("name", name),
                ("lines", len(lines)),
                ("hypothesis", hyp_name),
                ("hyp_lines", len(hyp_lines)),
            )
            if _blank_at_end(extra_lines) >= extra:
                key = _counted("line_count_blank_end", extra)
                params += (("longer", longer), ("extra", extra))
            else:
                key = (
                    "line_count_one"
                    if len(lines) == 1
                    else "line_count_hypothesis_one"
                    if len(hyp_lines) == 1
                    else "line_count"
                )
            findings.append(LintFinding("error", "line-count", key, params))
    return findings


def check_hypothesis_present(inputs: LintInput) -> list[LintFinding]:
    """The hypothesis has at least one line."""
    hyp_name, hyp_lines = inputs.hypothesis
    return [] if hyp_lines else [LintFinding("error", "empty", "empty", (("name", hyp_name),))]


def check_empty_lines(inputs: LintInput) -> list[LintFinding]:
    """Empty lines: a warning when some are empty (they score 0 or match nothing), an error when all are."""
    findings = []
    shortest = min(len(lines) for _, lines in inputs.files)  # empty lines past it are the line counts' finding
    for position, (name, lines) in enumerate(inputs.files):
        empty = [i + 1 for i, line in enumerate(lines) if not line.strip()]
        if empty and len(empty) < len(lines):
            empty = [number for number in empty if number <= shortest]
        if empty and len(empty) < len(lines):
            key = _counted("empty_lines_hypothesis" if position == 0 else "empty_lines_reference", len(empty))
            params = (("name", name), ("count", len(empty)), ("where", _numbers(empty)))
            findings.append(LintFinding("warning", "empty-lines", key, params))
        elif lines and len(empty) == len(lines):
            findings.append(LintFinding("error", "all-empty", "all_empty", (("name", name),)))
    return findings


def check_tokenized(inputs: LintInput) -> list[LintFinding]:
    """Files that look already tokenized (punctuation or clitics split off by spaces) in their first lines."""
    if inputs.tokenize == "none":
        return []
    findings = []
    for name, lines in inputs.files:
        sample = lines[:LINT_SAMPLE]
        nonempty = sum(1 for line in sample if line.strip())
        tokenized = [i + 1 for i, line in enumerate(sample) if line.strip() and _TOKENIZED.search(line.rstrip())]
        if nonempty and len(tokenized) >= max(1, 0.3 * nonempty):
            findings.append(
                LintFinding(
                    "warning",
                    "tokenized",
                    "tokenized",
                    (
                        ("name", name),
                        ("count", len(tokenized)),
                        ("lines", nonempty),
                        ("where", _numbers(tokenized, 3)),
                    ),
                )
            )
    return findings


def check_cjk(inputs: LintInput) -> list[LintFinding]:
    """Chinese or Japanese text under a tokenizer that splits only at spaces and punctuation (first such file)."""
    if inputs.tokenize not in ("13a", "intl", "none"):
        return []
    for name, lines in inputs.files:
        share, kana = _cjk_share(lines)
        if share >= 0.3:
            key = "cjk_char" if kana else "cjk_zh"
            params = (("name", name), ("share", f"{100 * share:.0f}"), ("tokenizer", inputs.tokenize))
            return [LintFinding("warning", "cjk", key, params)]
    return []


def check_whitespace(inputs: LintInput) -> list[LintFinding]:
    """Leading or trailing whitespace (harmless: the tokenizers ignore it)."""
    findings = []
    for name, lines in inputs.files:
        padded = [i + 1 for i, line in enumerate(lines) if line.strip() and line != line.strip()]
        if padded:
            params = (("name", name), ("count", len(padded)), ("where", _numbers(padded)))
            findings.append(LintFinding("info", "whitespace", _counted("whitespace", len(padded)), params))
    return findings


def check_identical(inputs: LintInput) -> list[LintFinding]:
    """A reference identical to the hypothesis (the same file uploaded twice?)."""
    hyp_name, hyp_lines = inputs.hypothesis
    same = [name for name, lines in inputs.references if hyp_lines and list(lines) == list(hyp_lines)]
    return [
        LintFinding("warning", "identical", "identical", (("hypothesis", hyp_name), ("name", name))) for name in same
    ]


def check_invisible(inputs: LintInput) -> list[LintFinding]:
    """Invisible control or format characters in the hypothesis, which become part of tokens."""
    hyp_name, hyp_lines = inputs.hypothesis
    controls = [i + 1 for i, line in enumerate(hyp_lines) if invisible_characters(line)]
    if not controls:
        return []
    params = (("name", hyp_name), ("count", len(controls)), ("where", _numbers(controls)))
    return [LintFinding("info", "invisible", _counted("invisible", len(controls)), params)]


def identical_systems(systems: Mapping[str, Sequence[str]]) -> list[tuple[str, ...]]:
    """Groups of two or more systems whose outputs are the same line for line (one file loaded twice?), in the
    systems' order."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for name, lines in systems.items():
        groups.setdefault(tuple(lines), []).append(name)
    return [tuple(names) for names in groups.values() if len(names) > 1]


#: The checks, in the order their findings are listed within a level.
RULES: tuple[Rule, ...] = (
    check_references_present,
    check_line_counts,
    check_hypothesis_present,
    check_empty_lines,
    check_tokenized,
    check_cjk,
    check_whitespace,
    check_identical,
    check_invisible,
)


def lint_corpus(
    hypothesis: NamedLines, references: Sequence[NamedLines], tokenize: str, rules: Sequence[Rule] = RULES
) -> tuple[LintFinding, ...]:
    """Check a hypothesis file and its reference files with every rule; errors first.  Never raises on text."""
    inputs = LintInput(hypothesis, references, tokenize)
    findings = [finding for rule in rules for finding in rule(inputs)]
    return tuple(sorted(findings, key=lambda finding: LEVELS[finding.level]))
