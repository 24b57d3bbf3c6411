"""Sam's Battle Game: the 36 cards, the lanes they lie in, and whose turn it is — what the rules,
the table, the views and the solo seat all read.
"""
from __future__ import annotations

from companion.cards import load_catalogue
from companion.engine import State

LANES = 5
TURNS = 4
CARDS_PER_TURN = 3
OPENING_HAND = 5
DRAW_PER_TURN = 3
VP_TO_WIN = 5

SUITS = {"hearts": ("♥", "red"), "diamonds": ("♦", "red"), "spades": ("♠", "black"), "clubs": ("♣", "black")}
RANK_NAMES = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10"}


def generate_catalogue() -> dict:
    """The 36 numbered cards (2–10 of every suit), as shipped in data/sams/cards.json."""
    cards = []
    for suit, (symbol, colour) in SUITS.items():
        for rank in range(2, 11):
            cards.append({
                "id": f"sams.{rank}{suit[0]}",
                "name": f"{rank} of {suit.capitalize()}",
                "attrs": {"rank": rank, "suit": suit, "colour": colour, "symbol": f"{rank}{symbol}",
                          "role": "attack" if colour == "red" else "defence"},
            })
    return {"game": "sams", "format": 1, "cards": cards}


CATALOGUE = load_catalogue("sams")
DECK: tuple[str, ...] = tuple(CATALOGUE.ids())
# card id → (rank, is red), looked up on every play and resolution
_INFO: dict[str, tuple[int, bool]] = {c.id: (c["rank"], c["colour"] == "red") for c in CATALOGUE}
_SYMBOL: dict[str, str] = {c.id: c["symbol"] for c in CATALOGUE}
BIT: dict[str, int] = {card_id: 1 << i for i, card_id in enumerate(DECK)}


def cards_in(mask: int) -> list[str]:
    """The card ids of a bitmask over DECK (state["on_table"], state["discarded"])."""
    return [c for c in DECK if BIT[c] & mask]


def symbol(card_id: str) -> str:
    """"7♥" for "sams.7h"."""
    return _SYMBOL.get(card_id, card_id)


def lane_zone(seat: int, lane: int) -> str:
    """Zone id of ``seat``'s lane ``lane`` (0-based): "0.lane1" … "1.lane5"."""
    return _ZONES[seat][lane]


_ZONES = [[f"{seat}.lane{lane + 1}" for lane in range(LANES)] for seat in (0, 1)]


def is_face_down(position: int) -> bool:
    """Stacks alternate: base face up, 1st buff face down, 2nd buff face up, …"""
    return position % 2 == 1


def lane_strength(stack: list[str]) -> tuple[int, int]:
    """(attack, defence) of one stack: red sum (1 when there is no red), black sum."""
    attack = defence = 0
    for card_id in stack:
        rank, red = _INFO[card_id]
        if red:
            attack += rank
        else:
            defence += rank
    return (attack or 1), defence


def hand_zone(seat: int) -> str:
    """Zone id of the solo seat's hand pad: "0.hand" or "1.hand"."""
    return f"{seat}.hand"


def to_play(state: State) -> int | None:
    """The seat that plays the next card: alternating, the round's first player first."""
    if state["phase"] != "play":
        return None
    n = state["played"][0] + state["played"][1]
    return state["first"] if n % 2 == 0 else 1 - state["first"]
