"""The Arcmage game state and copy-on-write editing of it.

A state is plain JSON data::

    {"rng": 123, "vp_target": 10, "mixed_blockers": False, "names": ["North", "South"],
     "turn": 3, "active": 0, "phase": "play1", "combat": None, "pending": None,
     "fallen": [], "resume": None, "next_id": 17, "result": None,
     "battles": [{"turn", "attacker", "blockers", "winner", "outcome", "region_damage"}, ...],
     "p": [player0, player1]}

and a player is::

    {"deck": 51, "hand": 6, "vp": 1, "gold": 0,
     "chapter": [{"id": 3, "card": "arcmage.whispering-woods", "hp": 8}, ...],   # [0] is active
     "ready": True,
     "front": [creature, ...], "politics": [...], "science": [...], "faith": [...],   # piles: top last
     "vault": [{"id": 9, "card": "arcmage.ghoul", "marked": False}],   # face down
     "grave": ["arcmage.ghoul", None, ...],      # top last; None: a card from hand nobody scanned
     "removed": [], "dropped": [equipment, ...], "spells": [area spell, ...],
     "mulligan": True, "drawn": 0, "exhausted": False, "resourced": False,
     "moved": None, "attacked": None, "claims": []}

A creature in play is ``{"id", "card", "atk", "def", "cost", "marked",
"assigned", "locked", "damage", "equip": [...], "spells": [...]}`` with
``atk``/``def`` its printed values plus manual adjustments; equipment bonuses
are added by :func:`attack_of` / :func:`defence_of`.  Every card in play has a
unique ``id`` (copies of one card are told apart by it).

:class:`Edit` copies only what an action changes, so applying an action costs a
few small dict copies however long the game is.
"""
from __future__ import annotations

from companion.games.arcmage.cards import DOMAINS

PILES = ("front",) + DOMAINS


class Edit:
    """A new state being built from an old one without touching the old one."""

    __slots__ = ("s", "_players", "_lists")

    def __init__(self, state: dict):
        self.s = state.copy()            # dict.copy: about twice as fast as dict(state)
        self.s["p"] = list(state["p"])
        self._players: set[int] = set()
        self._lists: set[tuple[int, str]] = set()

    def p(self, seat: int) -> dict:
        """Seat's player dict, copied on first use."""
        if seat not in self._players:
            self.s["p"][seat] = self.s["p"][seat].copy()
            self._players.add(seat)
        return self.s["p"][seat]

    def lst(self, seat: int, key: str) -> list:
        """One of seat's lists (front, grave, vault…), copied on first use."""
        p = self.p(seat)
        if (seat, key) not in self._lists:
            p[key] = list(p[key])
            self._lists.add((seat, key))
        return p[key]

    def new_id(self) -> int:
        n = self.s["next_id"]
        self.s["next_id"] = n + 1
        return n

    def replace(self, seat: int, pile: str, index: int, **changes) -> dict:
        """A copy of the card at ``pile[index]`` with ``changes``, put in its place."""
        cards = self.lst(seat, pile)
        card = cards[index].copy()
        card.update(changes)
        cards[index] = card
        return card


def new_player(deck: int, hand: int) -> dict:
    return {"deck": deck, "hand": hand, "vp": 0, "gold": 0, "chapter": [], "ready": False,
            "front": [], "politics": [], "science": [], "faith": [],
            "vault": [], "grave": [], "removed": [], "dropped": [], "spells": [],
            "mulligan": True, "drawn": 0, "exhausted": False, "resourced": False,
            "moved": None, "attacked": None, "claims": []}


def find(p: dict, card_id: int) -> tuple[str, int] | None:
    """(pile, index) of the creature with instance id ``card_id`` in play for player ``p``."""
    for pile in PILES:
        for i, c in enumerate(p[pile]):
            if c["id"] == card_id:
                return pile, i
    return None


def find_any(state: dict, card_id: int) -> tuple[int, str, int] | None:
    for seat in (0, 1):
        where = find(state["p"][seat], card_id)
        if where is not None:
            return (seat,) + where
    return None


def is_top(p: dict, pile: str, index: int) -> bool:
    return pile == "front" or index == len(p[pile]) - 1


def attack_of(c: dict) -> int:
    return c["atk"] + sum(e["atk"] for e in c["equip"])


def defence_of(c: dict) -> int:
    return c["def"] + sum(e["def"] for e in c["equip"])


def domain_points(p: dict, domain: str) -> int:
    """Tactical phase: the gold cost of every unmarked creature in the domain pile."""
    return sum(c["cost"] for c in p[domain] if not c["marked"])


def gold_available(p: dict) -> int:
    gold = p["gold"]
    for r in p["vault"]:          # a loop, not sum(generator): asked several times before every move
        if not r["marked"]:
            gold += 1
    return gold


def main_cards_accounted(state: dict, seat: int, is_region) -> int:
    """Every main-deck card of ``seat``, wherever it is (regions not counted).

    The property test checks this stays 60: each card in exactly one place.
    Spells count for their caster, wherever they are attached.
    """
    p = state["p"][seat]
    total = p["deck"] + p["hand"] + len(p["vault"]) + len(p["dropped"]) + len(p["spells"]) + len(p["removed"])
    total += sum(1 for g in p["grave"] if g is None or not is_region(g))
    for q in state["p"]:
        for pile in PILES:
            for c in q[pile]:
                if q is p:
                    total += 1 + len(c["equip"])
                total += sum(1 for sp in c["spells"] if sp["owner"] == seat)
    pending = state.get("pending")
    if pending and pending["seat"] == seat:
        total += 1
    return total
