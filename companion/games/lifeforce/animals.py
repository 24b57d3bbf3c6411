"""The animal cards of Lifeforce Battle and how two of them compare.

Every card is an animal with a colour (its class) and a lifespan in years::

    >>> from companion.games.lifeforce.animals import ANIMALS, strengths
    >>> falcon = ANIMALS["lifeforce.peregrine-falcon"]
    >>> falcon.colour, falcon.lifespan_max
    ('red', 25)

Some animals have a lifespan range (``lifespan_low``–``lifespan_max``); when
such an animal attacks or counters, its player says "low" or "max" and that
number is its lifespan in the duel.  As a support card an animal always counts
its maximum lifespan (RULINGS.md).

Colour strengths (rules text, "Battle variables"): Blue is strong against
Orange, Orange against Red, Red against Yellow, Yellow against Blue.  A strong
animal's lifespan is doubled in the duel.  Purple (reptiles) and Green
(amphibians) against each other are always a stalemate; against any other
colour they compare plainly.
"""
from __future__ import annotations

from typing import NamedTuple

from companion.cards import load_catalogue

GAME = "lifeforce"

# colour → (label shown to players, class of animal)
COLOURS = {
    "red": ("Red", "birds"),
    "orange": ("Orange", "invertebrates"),
    "yellow": ("Yellow", "mammals"),
    "blue": ("Blue", "fish"),
    "purple": ("Purple", "reptiles"),
    "green": ("Green", "amphibians"),
}
# X: the colour X is strong against (rules text, "The strengths are")
STRONG_AGAINST = {"blue": "orange", "orange": "red", "red": "yellow", "yellow": "blue"}
# reptiles and amphibians "cannot battle each other on their own"
STALEMATE_COLOURS = frozenset({"purple", "green"})


class Animal(NamedTuple):
    id: str
    name: str
    colour: str
    lifespan_max: int
    lifespan_low: int | None     # None: a single lifespan, nothing to declare

    @property
    def has_range(self) -> bool:
        return self.lifespan_low is not None

    def lifespan(self, mode: str | None) -> int:
        """The lifespan this animal fights with: ``mode`` is "low", "max" or None (= max)."""
        return self.lifespan_low if mode == "low" and self.lifespan_low is not None else self.lifespan_max

    def label(self) -> str:
        """"Seep Tubeworm (Orange, 170–250 years)"."""
        years = (f"{self.lifespan_low}–{self.lifespan_max}" if self.has_range else str(self.lifespan_max))
        return f"{self.name} ({colour_label(self.colour)}, {years} years)"


def colour_label(colour: str) -> str:
    return COLOURS[colour][0]


def _animal(card) -> Animal:
    colour = card.get("colour")
    high = card.get("lifespan_max")
    low = card.get("lifespan_low")
    if colour not in COLOURS:
        raise ValueError(f"{card.id}: colour {colour!r} is not one of {', '.join(COLOURS)}")
    if not isinstance(high, int) or high < 1:
        raise ValueError(f"{card.id}: lifespan_max must be a whole number of years ≥ 1, not {high!r}")
    if low is not None and (not isinstance(low, int) or not 1 <= low < high):
        raise ValueError(f"{card.id}: lifespan_low must be a whole number from 1 to below lifespan_max, not {low!r}")
    return Animal(card.id, card.name, colour, high, low)


CATALOGUE = load_catalogue(GAME)
ANIMALS: dict[str, Animal] = {c.id: _animal(c) for c in CATALOGUE}


def animal(card_id: str) -> Animal:
    return ANIMALS[card_id]


def name(card_id: str) -> str:
    found = ANIMALS.get(card_id)
    return found.name if found else card_id


def is_stalemate_pair(colour_a: str, colour_b: str) -> bool:
    """Purple vs Green, Purple vs Purple, Green vs Green (rules text, "Other variables")."""
    return colour_a in STALEMATE_COLOURS and colour_b in STALEMATE_COLOURS


def strengths(a: Animal, mode_a: str | None, b: Animal, mode_b: str | None) -> tuple[int, int, bool, bool]:
    """Effective strengths of two animals facing each other in one duel.

    Returns ``(strength_a, strength_b, a_doubled, b_doubled)``.  Worked example 1
    of the rules: a Red bird of 20 against an Orange invertebrate of 11 gives
    20 against 22, because Orange is strong against Red.  A Purple/Green pair
    keeps its plain lifespans (RULINGS.md: they count plainly in a stalemate sum).
    """
    life_a, life_b = a.lifespan(mode_a), b.lifespan(mode_b)
    a_doubled = STRONG_AGAINST.get(a.colour) == b.colour
    b_doubled = STRONG_AGAINST.get(b.colour) == a.colour
    return (life_a * 2 if a_doubled else life_a), (life_b * 2 if b_doubled else life_b), a_doubled, b_doubled
