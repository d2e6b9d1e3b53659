"""Built-in examples: the classic BLEU walkthroughs (presets of the explain page) and a small demo corpus.

The short sentences are the subject matter of the walkthroughs they come from (Papineni et al. 2002,
common tutorials, the MATLAB and NLTK documentation); the numbers each one must show are in the tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bleu_core.i18n import Message


@dataclass(frozen=True, slots=True)
class Preset:
    """A walkthrough: a candidate, its references and the exact settings it is shown with.

    ``key`` names it in links (``?preset=love``) and in the message catalogs, where its title and lesson live
    (``presets.<key>.name``, ``presets.<key>.lesson``) in every language.  ``paper`` counts as Papineni et al.
    do: case-insensitive, punctuation removed (:func:`bleu_core.teach.explain.paper_text`).
    """

    key: str
    candidate: str
    references: tuple[str, ...]
    settings: dict[str, Any] = field(default_factory=dict)
    paper: bool = False
    terms: dict[str, str] = field(default_factory=dict)  # example text the messages quote (never translated)

    @property
    def name(self) -> Message:
        return Message(f"presets.{self.key}.name", {"candidate": self.candidate, **self.terms})

    @property
    def lesson(self) -> Message:
        return Message(f"presets.{self.key}.lesson", {"candidate": self.candidate, **self.terms})

    def options(self) -> dict[str, Any]:
        """Keyword arguments for :func:`bleu_core.teach.explain.explain`."""
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
        "love",
        "the love can always do",
        ("love can always find a way", "love makes anything possible"),
        {"max_order": 3, "weights": (1 / 3, 1 / 3, 1 / 3)},
    ),
    Preset("clip_the", "the the the the the the the", CAT_REFS, terms={"repeated": "the the the …", "word": "the"}),
    Preset(
        "clip_paper",
        "the the the the the the the",
        ("The cat is on the mat.", "There is a cat on the mat."),
        {"max_order": 1},
        paper=True,
        terms={"repeated": "the the the …", "word": "the", "capital": "The"},
    ),
    Preset("clip_bigrams", "the cat the cat on the mat", CAT_REFS, terms={"bigram": "the cat", "never": "cat the"}),
    Preset(
        "clip_bigrams3",
        "the cat the cat the cat on the mat",
        ("the cat the cat is on the mat", "there is a cat on the mat"),
        terms={"candidate": "the cat ×3 on the mat", "bigram": "the cat", "other": "cat on"},
    ),
    Preset(
        "papineni1",
        "It is a guide to action which ensures that the military always obeys the commands of the party",
        PAPINENI_REFS,
    ),
    Preset(
        "papineni2",
        "It is to insure the troops forever hearing the activity guidebook that party direct",
        PAPINENI_REFS,
    ),
    Preset("of_the", "of the", PAPINENI_REFS, {"max_order": 2}),
    Preset("borrow", "I always invariably perpetually do.", RECALL_REFS, {"max_order": 2}),
    Preset("exact", "I always do.", RECALL_REFS),
    Preset(
        "fox_one",
        "the fast brown fox jumped over the lazy dog",
        FOX_REF,
        {"tokenize": "none"},
        terms={"function": "sentence_bleu"},
    ),
    Preset(
        "fox_two",
        "the fast brown fox jumped over the sleepy dog",
        FOX_REF,
        {"tokenize": "none"},
        terms={"function": "sentence_bleu"},
    ),
    Preset("fox_shorter", "the quick brown fox jumped over the", FOX_REF, {"tokenize": "none"}),
    Preset("fox_longer", "the quick brown fox jumped over the lazy dog from space", FOX_REF, {"tokenize": "none"}),
    Preset(
        "matlab4",
        "The fast brown fox jumped over the lazy dog.",
        MATLAB_REFS,
        {"weights": (1.0, 1.0, 1.0, 1.0)},
    ),
    Preset("matlab2", "The fast brown fox jumped over the lazy dog.", MATLAB_REFS, {"weights": (1.0, 1.0)}),
)
PRESET_BY_KEY: dict[str, Preset] = {p.key: p for p in PRESETS}

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
#: Example labels of the demo corpus's segments, by topic (the Corpus page's "try with example labels").
DEMO_TAGS = ("home", "weather", "travel", "home", "leisure", "leisure", "work", "leisure")
DEMO_SYSTEMS: dict[str, tuple[str, ...]] = {
    "careful": (  # reference A but for its last two sentences
        *DEMO_REFERENCES[0][:6],
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
