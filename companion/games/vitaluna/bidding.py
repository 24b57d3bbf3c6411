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

from companion.engine import Action, IllegalAction, State, event

from .cards import COLOURS, add_held

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


# ---- the moves: handlers in VitaLunaRules.MOVES, called (rules, state, action) -------------------
def bid_first(rules, state: State, action: Action):
    b = state.get("bidding")
    if state["phase"] != "bidding" or b["stage"] != "first":
        raise IllegalAction("who bids first is already decided")
    seat = action["seat"]
    bidding = b.copy()
    bidding["first_bidder"], bidding["stage"] = seat, "attack"
    names = state["options"]["players"]
    return dict(state, bidding=bidding), [event(
        "bidding", f"{names[seat]} bids first for the first attack ({MARKERS} markers each)", seat=seat)]


def reveal(rules, state: State, action: Action):
    b = state.get("bidding")
    if state["phase"] != "bidding" or b["stage"] not in COLOURS:
        raise IllegalAction("no card is being turned over for bidding now")
    if b["card"] is not None:
        raise IllegalAction(f"{rules.table(state)[b['card']].name} is being bid for; finish its bids first")
    card = action.get("card")
    creature = rules.check_free_card(state, card, b["stage"], "the next card to bid for")
    bidding = b.copy()
    bidding["card"], bidding["bids"] = card, [None, None]
    first = opener(bidding)
    names = state["options"]["players"]
    return dict(state, bidding=bidding), [event(
        "reveal", f"Up for bidding: {creature.label()} — {names[first]} bids first", card=card, seat=first)]


def bid(rules, state: State, action: Action):
    b = state.get("bidding")
    seat, amount = action["seat"], action.get("amount")
    names = state["options"]["players"]
    if state["phase"] != "bidding":
        raise IllegalAction("there is no bidding now")
    expected = to_bid(b)
    if expected is None:
        raise IllegalAction("turn the next card over on the shared pad before bidding"
                            if b["stage"] != "first" else "first choose who bids first")
    if seat != expected:
        raise IllegalAction(f"it is {names[expected]}'s bid")
    if not isinstance(amount, int) or isinstance(amount, bool) or not 0 <= amount <= b["markers"][seat]:
        raise IllegalAction(f"{names[seat]} can bid 0 to {b['markers'][seat]} markers, not {amount!r}")
    bids = list(b["bids"])
    bids[seat] = amount
    bidding = b.copy()
    bidding["bids"] = bids
    new = state.copy()
    new["bidding"] = bidding
    events = [event("bid", f"{names[seat]} bids {amount}", seat=seat, amount=amount)]
    if None in bids:
        return new, events
    won = winner(bidding)
    markers = [b["markers"][0] - bids[0], b["markers"][1] - bids[1]]
    tie = " (a tie goes to the first bidder)" if bids[0] == bids[1] else ""
    if b["stage"] == "attack":
        new["attacker"] = won
        events.append(event("bid_won", f"{names[won]} wins the first attack, {bids[won]} to {bids[1 - won]}{tie}",
                            seat=won, bids=bids))
        bidding.update(markers=markers, bids=[None, None], item=1, stage="black")
    else:
        colour, card = b["stage"], b["card"]
        owner = dict(state["owner"])
        owner[card] = won
        new["owner"] = owner
        new["held"] = add_held(state["held"], won, colour, 1)
        got = {**b["got"], colour: _plus(b["got"][colour], won, 1)}
        left = {**b["left"], colour: b["left"][colour] - 1}
        events.append(event("bid_won", f"{names[won]} wins {rules.table(state)[card].name}, {bids[won]} to "
                                       f"{bids[1 - won]}{tie}", seat=won, card=card, bids=bids))
        bidding.update(markers=markers, bids=[None, None], item=b["item"] + 1, card=None, got=got, left=left)
    return _settle(rules, new, events)


def _settle(rules, new: State, events: list):
    """Hand out cards that quotas or empty purses decide; end the bidding when all are out."""
    names = new["options"]["players"]
    while new["bidding"]["stage"] in COLOURS:
        b = new["bidding"]
        colour = b["stage"]
        settled = settle_colour(b, colour)
        if settled is not None:
            need, why = settled
            for s in (0, 1):
                if need[s]:
                    new["held"] = add_held(new["held"], s, colour, need[s])
            if why == "quota":
                s = 0 if need[0] else 1
                text = (f"{names[1 - s]} has {QUOTA[colour]} {colour} cards: the {need[s]} "
                        f"remaining go to {names[s]} face down")
            else:
                text = (f"Both players are out of markers: shuffle the {b['left'][colour]} remaining {colour} "
                        f"cards and deal {need[0]} to {names[0]} and {need[1]} to {names[1]} face down")
            events.append(event("dealt", text, colour=colour, counts=need))
            got = {**b["got"], colour: [QUOTA[colour]] * 2}
            new["bidding"] = b = dict(b, got=got, left={**b["left"], colour: 0})
        if b["left"][colour] == 0:
            new["bidding"] = dict(b, stage="blue" if colour == "black" else "done", card=None,
                                  blue_from=b["item"] if colour == "black" else b.get("blue_from"))
            continue
        break
    if new["bidding"]["stage"] == "done":
        events.append(event("bidding_over", "The bidding is over: 4 black and 2 blue cards each"))
        return rules.begin_placement(new, events)
    return new, events


def _plus(pair: list[int], seat: int, n: int) -> list[int]:
    out = list(pair)
    out[seat] += n
    return out
