"""Cards and card catalogues.

A card has a stable id, the game it belongs to and its attributes::

    Card(id="sams.7h", game="sams", name="7 of Hearts",
         attrs={"rank": 7, "suit": "hearts", "colour": "red"})

Ids are ``<game>.<slug>``: lower case, digits, ``-`` and ``_`` after the dot.
They are what tags carry and records name, so they never change once printed.

Each game ships its catalogue as ``companion/data/<game>/cards.json``::

    {"game": "sams", "format": 1, "cards": [{"id": ..., "name": ..., "attrs": {...}}, ...]}

Players add their own printed cards in a file of the same format at
``<data dir>/cards/<game>.json``; :func:`load_catalogue` merges it over the
shipped one (same id: the player's card wins).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

DATA_DIR = Path(__file__).parent / "data"
CARD_ID = re.compile(r"^[a-z0-9]+\.[a-z0-9][a-z0-9_\-]*$")


class CatalogueError(ValueError):
    """A catalogue file that cannot be used; the message names the file and the entry."""


@dataclass(frozen=True)
class Card:
    id: str
    game: str
    name: str
    attrs: dict = field(default_factory=dict, hash=False, compare=False)

    def __getitem__(self, key):
        return self.attrs[key]

    def get(self, key, default=None):
        return self.attrs.get(key, default)

    def as_dict(self) -> dict:
        return {"id": self.id, "name": self.name, "attrs": dict(self.attrs)}


class Catalogue:
    """All cards of one game, by id, in file order."""

    def __init__(self, game: str, cards: list[Card]):
        self.game = game
        self._cards = {c.id: c for c in cards}

    def __getitem__(self, card_id: str) -> Card:
        return self._cards[card_id]

    def __contains__(self, card_id: str) -> bool:
        return card_id in self._cards

    def __iter__(self):
        return iter(self._cards.values())

    def __len__(self) -> int:
        return len(self._cards)

    def get(self, card_id: str) -> Card | None:
        return self._cards.get(card_id)

    def ids(self) -> list[str]:
        return list(self._cards)

    def find(self, text: str) -> list[Card]:
        """Cards whose id or name contains ``text`` (case-insensitive)."""
        needle = text.lower()
        return [c for c in self._cards.values() if needle in c.id or needle in c.name.lower()]


def parse_catalogue(data: dict, game: str, source: str) -> list[Card]:
    """Cards from a catalogue document; every problem is reported at once."""
    problems = []
    if data.get("game") != game:
        problems.append(f"'game' is {data.get('game')!r}, expected {game!r}")
    entries = data.get("cards")
    if not isinstance(entries, list):
        raise CatalogueError(f"{source}: no 'cards' list")
    cards, seen = [], set()
    for n, entry in enumerate(entries, start=1):
        where = f"card {n}"
        if not isinstance(entry, dict):
            problems.append(f"{where}: not an object")
            continue
        card_id = entry.get("id")
        if not isinstance(card_id, str) or not CARD_ID.match(card_id):
            problems.append(f"{where}: id {card_id!r} is not of the form '<game>.<slug>'")
            continue
        if not card_id.startswith(game + "."):
            problems.append(f"{where}: id {card_id!r} does not start with '{game}.'")
        if card_id in seen:
            problems.append(f"{where}: id {card_id!r} appears twice")
        seen.add(card_id)
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            problems.append(f"{where} ({card_id}): no name")
        attrs = entry.get("attrs", {})
        if not isinstance(attrs, dict):
            problems.append(f"{where} ({card_id}): 'attrs' is not an object")
            attrs = {}
        cards.append(Card(card_id, game, name or card_id, attrs))
    if problems:
        raise CatalogueError(f"{source}: " + "; ".join(problems))
    return cards


MAX_CARD_FILE_BYTES = 5_000_000

#: A card file (shipped or a player's), as JSON Schema.  What an attribute means is the game's
#: to check (its engine refuses a Vita Luna colour that is not black, blue or red, …).
SCHEMA = {
    "type": "object",
    "required": ["game", "cards"],
    "properties": {
        "game": {"type": "string", "maxLength": 40},
        "format": {"type": "integer", "minimum": 1, "maximum": 1},
        "cards": {"type": "array", "maxItems": 10_000, "items": {
            "type": "object", "required": ["id", "name"],
            "properties": {
                "id": {"type": "string", "maxLength": 80, "pattern": CARD_ID.pattern},
                "name": {"type": "string", "minLength": 1, "maxLength": 200},
                "attrs": {"type": "object", "maxProperties": 64}}}},
        "biomes": {"type": "array", "maxItems": 200, "items": {"type": "object"}},
    },
}


def read_catalogue_file(path: Path, game: str) -> list[Card]:
    """A card file, checked against :data:`SCHEMA` (one sentence naming file, line and field)."""
    from companion import validate
    try:
        data, _text = validate.load(path, SCHEMA, "json", MAX_CARD_FILE_BYTES, "card file")
    except validate.InputError as exc:
        raise CatalogueError(str(exc)) from None
    return parse_catalogue(data, game, str(path))


_shipped: dict[str, list[Card]] = {}
_user_dir: Path | None = None


def use_user_dir(path: Path | None) -> None:
    """Merge players' own cards from ``path/cards/<game>.json`` into every catalogue loaded from now on.

    The composition root calls this with the data directory before any engine
    is imported (engines load their catalogue at import).  Tests leave it unset,
    so they see exactly the shipped cards.
    """
    global _user_dir
    _user_dir = Path(path) if path is not None else None


def user_dir() -> Path | None:
    """The data directory whose ``cards/`` the composition root asked to merge (None in tests)."""
    return _user_dir


def load_catalogue(game: str, user_dir: Path | None = None) -> Catalogue:
    """The shipped catalogue of ``game``, with a player's own cards merged over it."""
    if game not in _shipped:
        _shipped[game] = read_catalogue_file(DATA_DIR / game / "cards.json", game)
    cards = {c.id: c for c in _shipped[game]}
    user_dir = user_dir if user_dir is not None else _user_dir
    if user_dir is not None:
        extra = Path(user_dir) / "cards" / f"{game}.json"
        if extra.exists():
            # A broken file of the players' never hides the game: the shipped cards stay
            # playable and the reason is kept for the screen (user_problems()).
            try:
                for card in read_catalogue_file(extra, game):
                    cards[card.id] = card
                _user_problems.pop(game, None)
            except CatalogueError as exc:
                _user_problems[game] = str(exc)
    return Catalogue(game, list(cards.values()))


_user_problems: dict[str, str] = {}


def _illegal_action():
    from companion.engine import IllegalAction
    return IllegalAction


class PlayersCardError(CatalogueError, _illegal_action()):
    """The players' card file of a game cannot be used.  It is also an ``IllegalAction``,
    so a start that needs the file is refused with this sentence, like any other setup."""


def read_players_file(game: str, folder: Path | None = None) -> dict | None:
    """``<data dir>/cards/<game>.json`` checked against :data:`SCHEMA`, or None when there is none.

    For the games that carry the players' cards in their setup options (Vita
    Luna's card values, Territory's designed creatures); raises
    :class:`PlayersCardError` naming file, line and field.
    """
    from companion import validate
    folder = folder if folder is not None else _user_dir
    path = Path(folder) / "cards" / f"{game}.json" if folder is not None else None
    if path is None or not path.exists():
        return None
    try:
        doc, _text = validate.load(path, SCHEMA, "json", MAX_CARD_FILE_BYTES, "card file")
    except validate.InputError as exc:
        _user_problems[game] = str(exc)
        raise PlayersCardError(str(exc)) from None
    return doc


def user_problems() -> dict[str, str]:
    """game → why the players' card file of that game was left out (file, line and field)."""
    return dict(_user_problems)


def game_of(card_id: str) -> str:
    """The game a card id belongs to ("sams.7h" → "sams")."""
    return card_id.split(".", 1)[0]
