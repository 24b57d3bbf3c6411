"""Sam's Battle Game, solo play: the companion's own seat.

The person at the table draws for the companion and taps each card face down on its hand pad; the
card goes into the lowest free slot of a numbered holder (:mod:`companion.holder`).  The
companion's player (:mod:`companion.solo`) decides with ``solo_decide`` which slot to play onto
which lane; the play is then the pad event of that card on that lane.  The fast model its search
plays on is :mod:`.playout`.
"""
from __future__ import annotations

from companion import holder
from companion.engine import Action, IllegalAction, State, event, hidden_event
from companion.games.sams.cards import BIT, DECK, LANES, is_face_down, lane_zone, symbol, to_play

# ---- the companion's own seat (solo play) ---------------------------------------------------
# The person at the table draws for the companion and taps each card face down on
# its hand pad; the card goes into the lowest free slot of a numbered holder.  The
# companion's player (companion.solo) decides with ``solo_decide`` which slot to
# play onto which lane; the play is then the pad event of that card on that lane.
# The slots' cards are the companion's secret: no text shown on the table names them.
HOLDER_SLOTS = 6


def solo_hand(state: State) -> list[str]:
    """The cards in the solo seat's holder, slot order, empty slots left out."""
    return [c for c in state["solo"]["slots"] if c is not None]


def _missing(state: State) -> int:
    """How many drawn cards the person still has to tap onto the solo seat's hand pad."""
    solo = state["solo"]
    return max(0, state["hand"][solo["seat"]] - len(solo_hand(state)))


def solo_instruction(state: State) -> str:
    """What the person does for the companion now, as the screen shows it."""
    solo = state["solo"]
    who = state["options"]["players"][solo["seat"]]
    missing = _missing(state)
    if missing:
        return (f"Draw {missing} card{'s' if missing > 1 else ''} for {who}: tap each face down on "
                f"{who}'s hand pad, then put it in the slot shown")
    decision = solo["decision"]
    if decision is None:
        return f"{who} is thinking…"
    lane = decision["lane"]
    face = "face down" if is_face_down(len(state["lanes"][solo["seat"]][lane])) else "face up"
    return f"{who} plays the card in slot {decision['slot'] + 1} {face} on lane {lane + 1}"


def decision_point(state: State) -> list[int]:
    """Where in the game a decision was made (round, turn, cards played by each seat):
    a ``solo_decide`` made for another moment is refused."""
    return [state["round"], state["turn"], state["played"][0], state["played"][1]]


def solo_legal_actions(state: State) -> list[Action]:
    solo = state["solo"]
    seat = solo["seat"]
    if _missing(state):
        held = set(solo_hand(state))
        out = state["on_table"] | state["discarded"]
        return [{"type": "solo_hand", "seat": seat, "card": c} for c in DECK
                if not BIT[c] & out and c not in held]
    if solo["decision"] is None:
        at = decision_point(state)
        return [{"type": "solo_decide", "seat": seat, "slot": n, "lane": lane, "at": at}
                for n, c in enumerate(solo["slots"]) if c is not None for lane in range(LANES)]
    d = solo["decision"]
    return [{"type": "play", "seat": seat, "lane": d["lane"], "card": solo["slots"][d["slot"]]}]


def _solo_hand(state: State, action: Action) -> tuple[State, list]:
    solo = state.get("solo")
    card = action.get("card")
    if solo is None or action.get("seat") != solo["seat"]:
        raise IllegalAction("only the companion's seat has a hand pad")
    who = state["options"]["players"][solo["seat"]]
    if state["phase"] != "play":
        raise IllegalAction(f"the round is scored: press Next round before drawing for {who}")
    if card not in BIT:
        raise IllegalAction("that is not one of the 36 numbered cards: put it back in the box")
    if not _missing(state):
        raise IllegalAction(f"{who} holds all the cards it drew: put that card back on top of the draw pile")
    if BIT[card] & (state["on_table"] | state["discarded"]) or card in solo["slots"]:
        raise IllegalAction(f"that card cannot be in {who}'s hand (it lies on the table, in the discard pile "
                            "or already in the holder): put it back where it was")
    slots, slot = holder.take(solo["slots"], card, HOLDER_SLOTS, who)
    new = dict(state, solo=dict(solo, slots=slots))
    text = holder.slot_sentence(slot, who)
    return new, [hidden_event("solo_hand", f"{who} drew {symbol(card)}: slot {slot + 1}", text,
                              [0, 1], seat=solo["seat"], card=card, slot=slot)]


def _solo_decide(state: State, action: Action) -> tuple[State, list]:
    solo = state.get("solo")
    if solo is None or action.get("seat") != solo["seat"]:
        raise IllegalAction("only the companion's seat decides by itself")
    seat, slot, lane = solo["seat"], action.get("slot"), action.get("lane")
    if to_play(state) != seat:
        raise IllegalAction("it is not the companion's turn")
    if _missing(state):
        raise IllegalAction("the companion's hand is not complete yet")
    if not isinstance(slot, int) or not 0 <= slot < len(solo["slots"]) or solo["slots"][slot] is None:
        raise IllegalAction(f"slot {slot!r} of the holder is empty")
    if not isinstance(lane, int) or not 0 <= lane < LANES:
        raise IllegalAction(f"there is no lane {lane!r}")
    if action.get("at") != decision_point(state):
        raise IllegalAction("the game moved on while the companion was thinking")
    new = dict(state, solo=dict(solo, decision={"slot": slot, "lane": lane}))
    return new, [event("solo_decide", solo_instruction(new), seat=seat, zone=lane_zone(seat, lane),
                       slot=slot, lane=lane)]


def _solo_take(state: State, card: str, lane: int) -> State:
    """The solo seat's card leaves its holder for ``lane``, as decided."""
    solo = state["solo"]
    who = state["options"]["players"][solo["seat"]]
    if card not in solo["slots"]:
        raise IllegalAction(f"that card is not in {who}'s holder: take it back; " + solo_instruction(state))
    decision = solo["decision"]
    if decision is None:
        raise IllegalAction(f"take that card back: {solo_instruction(state)}")
    slot = solo["slots"].index(card)
    if slot != decision["slot"] or lane != decision["lane"]:
        raise IllegalAction(f"take that card back to slot {slot + 1}: {solo_instruction(state)}")
    slots = list(solo["slots"])
    slots[slot] = None
    return dict(state, solo=dict(solo, slots=slots, decision=None))


def _solo_empty_holder(new: State, pile: str, aside: bool = False) -> list:
    """A round's end (the discard pile) or a swap (the separate pile, ``aside``): what was in the
    holder goes to that pile, and the companion remembers which cards lie there."""
    solo = new["solo"]
    held = [n for n, c in enumerate(solo["slots"]) if c is not None]
    key = "known_aside" if aside else "known_discards"
    known = solo[key]
    for card in solo_hand(new):
        known |= BIT[card]
    new["solo"] = dict(solo, slots=[], decision=None, **{key: known})
    if not held:
        return []
    who = new["options"]["players"][solo["seat"]]
    slots = ", ".join(str(n + 1) for n in held)
    return [event("solo_hand", f"Put the cards in {who}'s slot{'s' if len(held) > 1 else ''} {slots} "
                               f"face down on the {pile}", seat=solo["seat"])]


def _solo_view(state: State, seat: int | None) -> dict | None:
    """What every screen may know of the solo seat: which slots hold a card, the decision."""
    solo = state.get("solo")
    if solo is None:
        return None
    return {"seat": solo["seat"], "strength": state["options"]["solo_strength"],
            "slots": [c is not None for c in solo["slots"]], "missing": _missing(state),
            "decision": solo["decision"],
            "instruction": solo_instruction(state) if to_play(state) == solo["seat"] else None,
            "target": lane_zone(solo["seat"], solo["decision"]["lane"]) if solo["decision"] else None}


