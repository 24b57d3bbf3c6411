"""The advanced game's bidding (rules, Advanced game; RULINGS, Vita Luna).

Each player has 15 markers.  One player bids first for the right to attack
first; then 8 black and 4 blue cards are turned over one at a time and each
gets one open bid from each player.  Who bids first alternates with every
item: the first black card is opened by whoever bid second for the attack.
Who opens blue card 1 the text leaves open (setup option ``blue_opener``, see
:data:`BLUE_OPENERS`).  The higher bid wins the card, both players pay, and a
tie goes to the player who bid first.  Each player must end with 4 black and 2 blue cards: once one
has their quota the rest of that colour go to the other without bidding, and
once both are out of markers the rest are dealt at random.

The bidding part of the state is a plain dict::

    {"stage": "first" | "attack" | "black" | "blue", "first_bidder": seat | None,
     "markers": [15, 15], "item": n (0 = the attack bid, 1… the cards),
     "card": the card turned over or None, "bids": [amount | None, amount | None],
     "got": {"black": [n, n], "blue": [n, n]}, "left": {"black": 8, "blue": 4},
     "blue_opener": one of BLUE_OPENERS, "blue_from": item of blue card 1 (set when the blue cards start)}
"""
from __future__ import annotations

MARKERS = 15
QUOTA = {"black": 4, "blue": 2}
AUCTION = {"black": 8, "blue": 4}
# Who opens blue card 1 (rules: "Remember to alternate who bids first each time!", the blue cards
# follow "the same pattern as for the black cards"):
#   "alternate"  — every bid alternates, black into blue: the player who did not open the last black
#                  card that was bid for (cards handed out by quota are not bid for);
#   "like_black" — the blue cards start as the black ones did: the player who bid second for the attack;
#   "rounds"     — the three rounds alternate (attack, black, blue): the player who bid first for the attack.
BLUE_OPENERS = ("alternate", "like_black", "rounds")


def fresh(blue_opener: str = "alternate") -> dict:
    return {"stage": "first", "first_bidder": None, "markers": [MARKERS, MARKERS], "item": 0, "card": None,
            "bids": [None, None], "got": {"black": [0, 0], "blue": [0, 0]}, "left": dict(AUCTION),
            "blue_opener": blue_opener, "blue_from": None}


def opener(bidding: dict) -> int:
    """Who bids first on the current item: the chosen first bidder for the attack, then alternating
    with every card; blue card 1 as ``blue_opener`` says."""
    b = bidding["first_bidder"]
    rule = bidding.get("blue_opener", "alternate")
    if bidding["stage"] == "blue" and rule != "alternate":
        start = 1 - b if rule == "like_black" else b
        return start if (bidding["item"] - bidding["blue_from"]) % 2 == 0 else 1 - start
    return b if bidding["item"] % 2 == 0 else 1 - b


def to_bid(bidding: dict) -> int | None:
    """The seat whose bid is awaited, or None (a card must be turned over first)."""
    if bidding["stage"] == "first" or (bidding["stage"] != "attack" and bidding["card"] is None):
        return None
    first = opener(bidding)
    return first if bidding["bids"][first] is None else 1 - first


def winner(bidding: dict) -> int:
    """The higher bid wins; a tie goes to the player who bid first."""
    first = opener(bidding)
    bids = bidding["bids"]
    return 1 - first if bids[1 - first] > bids[first] else first


def settle_colour(bidding: dict, colour: str) -> tuple[list[int], str] | None:
    """Cards of ``colour`` handed out without bidding, if quotas or empty purses decide them.

    Returns ``([n for seat 0, n for seat 1], why)`` or None when bidding goes on.
    """
    got, left = bidding["got"][colour], bidding["left"][colour]
    if left == 0:
        return None
    need = [QUOTA[colour] - got[0], QUOTA[colour] - got[1]]
    if need[0] == 0 or need[1] == 0:
        return need, "quota"
    if bidding["markers"] == [0, 0]:
        return need, "no markers"
    return None
