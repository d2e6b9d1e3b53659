"""Exercises for students: a bank of generated sentences, each built around one classic BLEU trap.

:func:`generate_exercise` turns a seed (and optionally a trap) into a candidate and references, the same ones for
the same arguments on every machine: it draws from its own ``random.Random(seed)``, never the global one.  Each
trap is checked on the finished sentences with :func:`~bleu_core.teach.explain.explain` (redrawn until it holds), so an
exercise always shows the situation it names.  Checking the student's answers is :mod:`bleu_core.teach.exercise_checks`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bleu_core.options import BleuOptions, make_options
from bleu_core.teach.examples import Preset
from bleu_core.teach.explain import Explanation, explain, paper_text

__all__ = ["TRAPS", "Exercise", "exercise_from_preset", "exercise_from_text", "generate_exercise", "shows_trap"]

#: The classic traps of the bank, in the order a course meets them.
TRAPS: tuple[str, ...] = ("repeated_words", "length_tie", "short_candidate", "zero_match", "closest_not_shortest")


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


#: Plain lower-case words with no punctuation (every tokenizer splits them the same way, at spaces), by word class:
#: sentences follow "adjective noun verb adjective noun adverb" ("old farmer paints red boat today"), each word
#: at most once, so that every count in a table comes from the trap and not from chance.
WORD_CLASSES: dict[str, tuple[str, ...]] = {
    "adjective": ("red", "small", "old", "green", "quiet", "happy", "tall", "young"),
    "noun": _words(
        "cat dog bird fish horse mouse child teacher student farmer doctor sailor river garden house street market "
        "school window table letter book song boat train"
    ),
    "verb": ("sees", "finds", "likes", "reads", "writes", "sings", "carries", "opens", "paints", "watches"),
    "adverb": ("early", "slowly", "today", "again", "twice"),
}
PATTERN = ("adjective", "noun", "verb", "adjective", "noun", "adverb")
WORDS: tuple[str, ...] = tuple(word for words in WORD_CLASSES.values() for word in words)
_CLASS_OF = {word: kind for kind, words in WORD_CLASSES.items() for word in words}
#: How many draws a trap may take before the bank gives up (each draw succeeds far more often than not).
ATTEMPTS = 200
SMOOTHINGS = ("exp", "floor", "add-k")


@dataclass(frozen=True, slots=True)
class Exercise:
    """A candidate, its references and the settings the student computes BLEU with.

    ``trap`` and ``seed`` name a generated exercise (None for a preset or the student's own text).
    """

    candidate: str
    references: tuple[str, ...]
    options: BleuOptions
    trap: str | None = None
    seed: int | None = None

    def explanation(self) -> Explanation:
        """Every intermediate of the exercise's BLEU: the answers."""
        return explain(self.candidate, list(self.references), self.options)


def exercise_options(max_order: int = 4, smooth: str = "none", weights: Sequence[float] | None = None) -> BleuOptions:
    """The exercises' settings: 13a tokens, case kept, no effective order (every order counts, as on paper)."""
    return make_options(max_order=max_order, weights=weights, smooth=smooth, effective_order=False)


def exercise_from_preset(preset: Preset) -> Exercise:
    """A walkthrough of the Explain page as an exercise, with its own settings."""
    settings = preset.options()
    weights = settings.get("weights")
    options = make_options(
        max_order=settings.get("max_order", len(weights) if weights else 4),
        weights=weights,
        tokenize=settings["tokenize"],
        lowercase=settings.get("lowercase", False),
        smooth=settings["smooth"],
        effective_order=False,
    )
    if preset.paper:  # counted as the paper counts: lower-cased, punctuation removed
        return Exercise(paper_text(preset.candidate), tuple(paper_text(r) for r in preset.references), options)
    return Exercise(preset.candidate, preset.references, options)


def exercise_from_text(candidate: str, references: Sequence[str], max_order: int = 4, smooth: str = "none") -> Exercise:
    """The student's own sentences (blank reference lines dropped), with the exercises' settings."""
    refs = tuple(r for r in references if r.strip())
    if not candidate.strip() or not refs:
        raise ValueError("an exercise needs a candidate and at least one reference; fill in both")
    return Exercise(candidate, refs, exercise_options(max_order, smooth))


# --- the traps: one builder (draws sentences) and one check (the situation holds) each -------------------------

Sentences = tuple[list[str], list[list[str]]]


def _word(rng: random.Random, kind: str, avoid: set[str]) -> str:
    """A word of class ``kind`` not in ``avoid`` (any unused word when the class has none left)."""
    choices = [w for w in WORD_CLASSES[kind] if w not in avoid] or [w for w in WORDS if w not in avoid]
    return rng.choice(choices)


def _sentence(rng: random.Random, length: int, avoid: Sequence[str] = (), start: int = 0) -> list[str]:
    """``length`` distinct words following :data:`PATTERN` from position ``start``, none of them in ``avoid``."""
    used = set(avoid)
    words = []
    for i in range(start, start + length):
        words.append(_word(rng, PATTERN[i % len(PATTERN)], used))
        used.add(words[-1])
    return words


def _replacement(rng: random.Random, word: str, avoid: Sequence[str]) -> str:
    """Another word of ``word``'s class that ``avoid`` does not hold (the candidate's one wrong word)."""
    return _word(rng, _CLASS_OF[word], {word, *avoid})


def _repeated_words(rng: random.Random) -> Sentences:
    """A noun said three or four times that each reference has once: clipping cuts it down to one (not two)."""
    reference = _sentence(rng, rng.randint(6, 8))
    word = reference[1]
    candidate = [word] * rng.randint(3, 4) + reference[2 : rng.randint(5, len(reference))]
    second = [_word(rng, "adjective", set(reference)), word, *reference[2:5]]
    return candidate, [reference, second]


def _length_tie(rng: random.Random) -> Sentences:
    """Two references as far from the candidate's length, one shorter and one longer: the shorter wins."""
    length, gap = rng.randint(6, 8), rng.randint(1, 2)
    longer = _sentence(rng, length + gap)
    candidate = list(longer[:length])
    at = rng.randrange(length - 4, length)
    candidate[at] = _replacement(rng, candidate[at], longer)
    shorter = longer[:2] + _sentence(rng, length - gap - 2, avoid=longer, start=2)
    return candidate, rng.sample([longer, shorter], 2)


def _short_candidate(rng: random.Random) -> Sentences:
    """A candidate much shorter than every reference: good precisions, and the brevity penalty bites."""
    reference = _sentence(rng, rng.randint(9, 11))
    start = rng.randint(0, 2)
    candidate = reference[start : start + rng.randint(5, 6)]
    candidate[-1] = _replacement(rng, candidate[-1], reference)
    return candidate, [reference]


def _zero_match(rng: random.Random) -> Sentences:
    """Reference bigrams in a scrambled order: unigrams and bigrams match, no 3- or 4-gram does."""
    reference = _sentence(rng, 8)
    pairs = [reference[i : i + 2] for i in range(0, 8, 2)]
    kept = sorted(rng.sample(range(4), 3), reverse=True)  # descending: no pair continues the one before it
    candidate = [word for i in kept for word in pairs[i]]
    candidate.insert(rng.randint(0, len(candidate)), rng.choice([w for w in WORDS if w not in reference]))
    return candidate, [reference]


def _closest_not_shortest(rng: random.Random) -> Sentences:
    """A short reference, and a closer one longer than the candidate: r is the closer, not the shortest."""
    length = rng.randint(6, 8)
    closest = _sentence(rng, length + 1)
    candidate = list(closest[:length])
    at = rng.randrange(length - 3, length)
    candidate[at] = _replacement(rng, candidate[at], closest)
    shortest = _sentence(rng, rng.randint(3, length - 3))
    return candidate, rng.sample([closest, shortest], 2)


BUILDERS: dict[str, Callable[[random.Random], Sentences]] = {
    "repeated_words": _repeated_words,
    "length_tie": _length_tie,
    "short_candidate": _short_candidate,
    "zero_match": _zero_match,
    "closest_not_shortest": _closest_not_shortest,
}


def shows_trap(trace: Explanation, trap: str) -> bool:
    """Whether the exercise behind ``trace`` shows ``trap`` (and is worth computing: BLEU above 0)."""
    length = trace.length
    shortest = min(length.reference_lengths)
    checks = {
        "repeated_words": any(row.clipped_away > 0 and row.max_reference_count > 0 for row in trace.orders[0].rows)
        and not trace.zero_orders,
        "length_tie": len({length.reference_lengths[i] for i in length.tied_indices}) > 1
        and length.chosen_length < length.candidate_length
        and not trace.zero_orders,
        "short_candidate": length.candidate_length < length.chosen_length and not trace.zero_orders,
        "zero_match": bool(trace.zero_orders) and trace.options.smooth != "none",
        "closest_not_shortest": length.chosen_length != shortest
        and length.candidate_length < length.chosen_length
        and not trace.zero_orders,
    }
    if trap not in checks:
        raise ValueError(f"unknown trap {trap!r}; choose one of {', '.join(TRAPS)}")
    return checks[trap] and trace.score > 0


def generate_exercise(seed: int, trap: str | None = None) -> Exercise:
    """The exercise of ``seed``: ``trap`` if given, else one the seed picks; the same arguments, the same exercise."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0; got {seed!r}")
    if trap is not None and trap not in BUILDERS:
        raise ValueError(f"unknown trap {trap!r}; choose one of {', '.join(TRAPS)}")
    rng = random.Random(seed)
    chosen = trap if trap is not None else rng.choice(TRAPS)
    smooth = rng.choice(SMOOTHINGS) if chosen == "zero_match" else "none"
    options = exercise_options(smooth=smooth)
    for _ in range(ATTEMPTS):
        candidate, references = BUILDERS[chosen](rng)
        exercise = Exercise(" ".join(candidate), tuple(" ".join(r) for r in references), options, chosen, seed)
        if shows_trap(exercise.explanation(), chosen):
            return exercise
    raise RuntimeError(f"no {chosen} exercise found for seed {seed} in {ATTEMPTS} draws")  # pragma: no cover
