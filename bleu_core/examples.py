"""Built-in examples: the classic BLEU walkthroughs (presets of the explain page) and a small demo corpus.

The short sentences are the subject matter of the walkthroughs they come from (Papineni et al. 2002,
common tutorials, the MATLAB and NLTK documentation); the numbers each one must show are in the tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Preset:
    """A walkthrough: a candidate, its references and the exact settings it is shown with."""

    name: str
    candidate: str
    references: tuple[str, ...]
    settings: dict[str, Any] = field(default_factory=dict)
    lesson: str = ""

    def options(self) -> dict[str, Any]:
        """Keyword arguments for :func:`bleu_core.explain.explain`."""
        return {"tokenize": "13a", "smooth": "none", "effective_order": False, **self.settings}


CAT_REFS = ("the cat is on the mat", "there is a cat on the mat")
PAPINENI_REFS = (
    "It is a guide to action that ensures that the military will forever heed Party commands",
    "It is the guiding principle which guarantees the military forces always being under the command of the Party",
    "It is the practical guide for the army always to heed the directions of the party",
)
FOX_REF = ("the quick brown fox jumped over the lazy dog",)
MATLAB_REFS = (
    "The quick brown animal jumped over the lazy dog.",
    "The quick brown fox jumped over the lazy dog.",
)
RECALL_REFS = ("I always do.", "I invariably do.", "I perpetually do.")

PRESETS: tuple[Preset, ...] = (
    Preset(
        "Love can always: three orders, a length tie",
        "the love can always do",
        ("love can always find a way", "love makes anything possible"),
        {"max_order": 3, "weights": (1 / 3, 1 / 3, 1 / 3)},
        "p = 3/5, 2/4, 1/3; reference lengths 6 and 4 are both 1 away from c = 5: the tie goes to the shorter, "
        "so r = 4 and BP = 1. BLEU = (3/5 · 1/2 · 1/3)^(1/3) = 0.464.",
    ),
    Preset(
        "Clipping: the the the …",
        "the the the the the the the",
        CAT_REFS,
        {},
        "Every 'the' appears in a reference, but no reference has more than two: clipped unigram precision 2/7.",
    ),
    Preset(
        "Clipping bigrams: the cat the cat on the mat",
        "the cat the cat on the mat",
        CAT_REFS,
        {},
        "'the cat' occurs twice but at most once in any reference, and 'cat the' never: bigram precision 4/6.",
    ),
    Preset(
        "Clipping bigrams: the cat ×3 on the mat",
        "the cat the cat the cat on the mat",
        ("the cat the cat is on the mat", "there is a cat on the mat"),
        {},
        "'the cat' is clipped to 2 by the first reference; 'cat on' comes from the second: 6/8 "
        "(tutorials that print 5/8 forgot 'cat on').",
    ),
    Preset(
        "Papineni et al.: candidate 1",
        "It is a guide to action which ensures that the military always obeys the commands of the party",
        PAPINENI_REFS,
        {},
        "The paper's good candidate: p = 17/18, 10/17, 7/16, 4/15 (the paper counts words without the period).",
    ),
    Preset(
        "Papineni et al.: candidate 2",
        "It is to insure the troops forever hearing the activity guidebook that party direct",
        PAPINENI_REFS,
        {},
        "The paper's poor candidate: unigram precision 8/14, bigram 1/13; no 3-gram matches, so unsmoothed BLEU is 0.",
    ),
    Preset(
        "Brevity: 'of the'",
        "of the",
        PAPINENI_REFS,
        {},
        "Perfect precisions 2/2 and 1/1 but only two words: the brevity penalty exp(1 - 16/2) is what stops it.",
    ),
    Preset(
        "Brevity: I always invariably perpetually do.",
        "I always invariably perpetually do.",
        RECALL_REFS,
        {"max_order": 2},
        "Uses every reference's words at once: p1 = 6/6 and p2 = 3/5 with unigrams and bigrams, so BLEU = 0.775. "
        "Precision does not punish borrowing from several references, and BP cannot, because c = 6 > r = 4. "
        "(With 3- and 4-grams p4 = 0/3, and unsmoothed BLEU drops to 0.)",
    ),
    Preset(
        "Brevity: I always do.",
        "I always do.",
        RECALL_REFS,
        {},
        "Equal to one reference: every precision is 1, c = r = 4, BLEU = 1.",
    ),
    Preset(
        "Quick brown fox: one word changed",
        "the fast brown fox jumped over the lazy dog",
        FOX_REF,
        {"tokenize": "none"},
        "NLTK's sentence_bleu gives 0.7506238537503395.",
    ),
    Preset(
        "Quick brown fox: two words changed",
        "the fast brown fox jumped over the sleepy dog",
        FOX_REF,
        {"tokenize": "none"},
        "NLTK's sentence_bleu gives 0.4854917717073234.",
    ),
    Preset(
        "Quick brown fox: shorter",
        "the quick brown fox jumped over the",
        FOX_REF,
        {"tokenize": "none"},
        "All precisions are 1, but c = 7 < r = 9: BP = exp(1 - 9/7) = 0.7514772930752859.",
    ),
    Preset(
        "Quick brown fox: longer",
        "the quick brown fox jumped over the lazy dog from space",
        FOX_REF,
        {"tokenize": "none"},
        "Two extra words lower the precisions; a longer candidate gets no length bonus.",
    ),
    Preset(
        "MATLAB: fast brown fox summary, weights [1 1 1 1]",
        "The fast brown fox jumped over the lazy dog.",
        MATLAB_REFS,
        {"weights": (1.0, 1.0, 1.0, 1.0)},
        "MATLAB's bleuEvaluationScore example: 0.7825 (weights are normalized to 1/4 each).",
    ),
    Preset(
        "MATLAB: fast brown fox summary, weights [1 1]",
        "The fast brown fox jumped over the lazy dog.",
        MATLAB_REFS,
        {"weights": (1.0, 1.0)},
        "Only unigrams and bigrams, weights normalized to 1/2: 0.8367.",
    ),
)

DEFAULT_PRESET = PRESETS[0]

#: A small demo corpus written for this project: source, two references, and three systems.
DEMO_SOURCE = (
    "Die Katze schläft auf dem Sofa.",
    "Morgen regnet es in Berlin.",
    "Der Zug hatte zwanzig Minuten Verspätung.",
    "Sie liest jeden Abend ein Buch.",
    "Wir haben das Museum am Sonntag besucht.",
    "Das Restaurant ist montags geschlossen.",
    "Er hat seinen Schlüssel im Büro vergessen.",
    "Die Kinder spielen im Garten Fußball.",
)
DEMO_REFERENCES = (
    (
        "The cat is sleeping on the sofa.",
        "It will rain in Berlin tomorrow.",
        "The train was twenty minutes late.",
        "She reads a book every evening.",
        "We visited the museum on Sunday.",
        "The restaurant is closed on Mondays.",
        "He forgot his key at the office.",
        "The children are playing football in the garden.",
    ),
    (
        "The cat sleeps on the couch.",
        "Tomorrow it is going to rain in Berlin.",
        "The train was delayed by twenty minutes.",
        "Every evening she reads a book.",
        "On Sunday we went to the museum.",
        "The restaurant is shut on Mondays.",
        "He left his key in the office.",
        "The kids are playing soccer in the garden.",
    ),
)
DEMO_SYSTEMS: dict[str, tuple[str, ...]] = {
    "careful": (
        "The cat is sleeping on the sofa.",
        "It will rain in Berlin tomorrow.",
        "The train was twenty minutes late.",
        "She reads a book every evening.",
        "We visited the museum on Sunday.",
        "The restaurant is closed on Mondays.",
        "He forgot his key in the office.",
        "The children play football in the garden.",
    ),
    "literal": (
        "The cat sleeps on the sofa.",
        "Tomorrow rains it in Berlin.",
        "The train had twenty minutes delay.",
        "She reads every evening a book.",
        "We have the museum on Sunday visited.",
        "The restaurant is Mondays closed.",
        "He has his key in the office forgotten.",
        "The children play in the garden football.",
    ),
    "terse": (
        "Cat sleeps.",
        "Rain in Berlin.",
        "Train late.",
        "She reads.",
        "We visited the museum.",
        "Restaurant closed Mondays.",
        "He forgot his key.",
        "Children play football.",
    ),
}
