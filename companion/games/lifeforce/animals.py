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

from pathlib import Path
from typing import NamedTuple

from companion.cards import DATA_DIR, Card, CatalogueError, parse_catalogue, read_catalogue_file, read_players_file

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


def _animal(card: Card) -> Animal:
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


# The shipped cards only: players' own cards reach a game through its options (``own_cards``), so
# that its record replays on any machine; :func:`register` adds them here when a game is set up.
CATALOGUE = read_catalogue_file(DATA_DIR / GAME / "cards.json", GAME)
ANIMALS: dict[str, Animal] = {c.id: _animal(c) for c in CATALOGUE}
# Every known card gets a bit, so sets of cards (a deck, a graveyard) are ints.  Both grow only
# (register), so a card's bit never changes while the program runs.
BIT: dict[str, int] = {card_id: 1 << i for i, card_id in enumerate(ANIMALS)}
ORDER: list[str] = list(ANIMALS)
# What the engine asks about a card on every action, worked out once per card: its label
# ("Seep Tubeworm (Orange, 170–250 years)") and name, its lifespan by declared mode (``LIFESPAN[card][mode]``
# is ``Animal.lifespan(mode)``) and the lowest lifespan it can fight with.  A card id's values never
# change while the program runs (register refuses a clash), so neither do these.
LABEL: dict[str, str] = {}
NAME: dict[str, str] = {}
SUPPORT: dict[str, int] = {}      # what a card counts as support: its maximum lifespan (RULINGS.md)
LIFESPAN: dict[str, dict[str | None, int]] = {}
LOWEST: dict[str, int] = {}
RANGED: set[str] = set()          # the cards with a lifespan range: their player says low or max
# How the duel event names a card fighting, by declared mode: ``FIGHTS[card][mode]`` is the plain
# and the doubled wording ("Peregrine Falcon (25)", "Peregrine Falcon (25 ×2 = 50, Red is strong)").
FIGHTS: dict[str, dict[str | None, tuple[str, str]]] = {}
# The support event's words between the player and the support's total: " supports with Koi (226): ".
SUPPORTS_WITH: dict[str, str] = {}


def _remember(beast: Animal) -> None:
    LABEL[beast.id] = beast.label()
    NAME[beast.id] = beast.name
    SUPPORT[beast.id] = beast.lifespan_max
    LIFESPAN[beast.id] = {mode: beast.lifespan(mode) for mode in (None, "low", "max")}
    LOWEST[beast.id] = beast.lifespan("low")
    if beast.has_range:
        RANGED.add(beast.id)
    FIGHTS[beast.id] = {mode: _fights(beast, mode) for mode in (None, "low", "max")}
    SUPPORTS_WITH[beast.id] = f" supports with {beast.name} ({beast.lifespan_max}): "


def _fights(beast: Animal, mode: str | None) -> tuple[str, str]:
    said = "" if beast.lifespan_low is None else f"{mode} "
    life = beast.lifespan(mode)
    return (f"{beast.name} ({said}{life})",
            f"{beast.name} ({said}{life} ×2 = {life * 2}, {colour_label(beast.colour)} is strong)")


for _beast in ANIMALS.values():
    _remember(_beast)


def own_cards(data_dir: Path | None) -> dict:
    """The player's own printed cards from ``<data dir>/cards/lifeforce.json`` as setup options
    take them (``{card id: {"name": …, "attrs": {…}}}``); {} when there is no such file.

    Raises :class:`CatalogueError` (one sentence) for a broken file or an own card that gives a
    shipped card other values — an own card needs its own id.
    """
    if data_dir is None:
        return {}
    path = Path(data_dir) / "cards" / f"{GAME}.json"
    doc = read_players_file(GAME, Path(data_dir))      # bounded and checked like every input file
    if doc is None:
        return {}
    own = {c.id: {"name": c.name, "attrs": dict(c.attrs)} for c in parse_catalogue(doc, GAME, str(path))}
    try:
        _check(own)
    except ValueError as exc:
        raise CatalogueError(f"{path}: {exc}") from None
    return own


def _check(own: dict) -> list[Animal]:
    """The animals of ``own`` (see :func:`own_cards`); ValueError for a bad value or a clash."""
    if not isinstance(own, dict):
        raise ValueError("own_cards must map card ids to {\"name\": …, \"attrs\": {…}}")
    animals = []
    for card_id, entry in own.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("attrs", {}), dict):
            raise ValueError(f"{card_id}: needs a name and attrs")
        if not isinstance(card_id, str) or not card_id.startswith(GAME + "."):
            raise ValueError(f"{card_id!r} is not a Lifeforce Battle card id")
        beast = _animal(Card(card_id, GAME, entry.get("name") or card_id, entry.get("attrs", {})))
        known = ANIMALS.get(card_id)
        if known is not None and known != beast:
            if card_id in _SHIPPED_IDS:
                raise ValueError(f"{beast.name} ({card_id}) is a shipped card with other values: "
                                 "give your own card its own id")
            raise ValueError(f"{beast.name} ({card_id}) is known here with other values "
                             f"({known.label()}, not {beast.label()})")
        animals.append(beast)
    return animals


def register(own: dict) -> None:
    """Make the own cards of a game known (idempotent); ValueError with a sentence when one clashes
    with a card of the same id but other values."""
    for beast in _check(own):
        if beast.id not in ANIMALS:
            ANIMALS[beast.id] = beast
            BIT[beast.id] = 1 << len(ORDER)
            ORDER.append(beast.id)
            _remember(beast)


_SHIPPED_IDS = frozenset(ANIMALS)


def animal(card_id: str) -> Animal:
    return ANIMALS[card_id]


def name(card_id: str) -> str:
    found = ANIMALS.get(card_id)
    return found.name if found else card_id


# (colour, colour) → (first doubled, second doubled, stalemate pair): what a duel asks of two colours
FACING = {(a, b): (STRONG_AGAINST.get(a) == b, STRONG_AGAINST.get(b) == a,
                   a in STALEMATE_COLOURS and b in STALEMATE_COLOURS) for a in COLOURS for b in COLOURS}


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


def cards_in(mask: int) -> list[str]:
    """The card ids in a bitmask over the catalogue, in catalogue order."""
    return [c for c in ORDER if BIT[c] & mask]
