"""Sam's Battle Game at the table: its zones (five lanes per seat, the companion's hand pad in solo
play), how a card on a pad becomes an action, the confirm button, and refusals that keep a
face-down card unnamed.
"""
from __future__ import annotations

from companion.engine import Action, IllegalAction, State, Zone
from companion.games.sams.cards import BIT, LANES, hand_zone, is_face_down, lane_zone, symbol
from companion.games.sams.solo import solo_instruction


class SamsTable:
    """The table part of :class:`~.rules.SamsRules`."""

    # ---- the table -----------------------------------------------------------
    def zones(self, options: dict) -> list[Zone]:
        players = (options or {}).get("players", ["North", "South"])
        zones = [Zone(lane_zone(s, n), f"{players[s]} lane {n + 1}", s, stack=True)
                 for s in (0, 1) for n in range(LANES)]
        solo = (options or {}).get("solo_seat")
        if solo in (0, 1):
            zones.append(Zone(hand_zone(solo), f"{players[solo]}'s hand pad", solo, stack=True))
        return zones

    def interpret(self, state: State, zone: str, card_id: str, present: bool) -> Action | None:
        solo = state.get("solo")
        if solo is not None and zone == hand_zone(solo["seat"]):
            return {"type": "solo_hand", "seat": solo["seat"], "card": card_id} if present else None
        seat, lane = _parse_zone(zone)
        players = state["options"]["players"]
        here = state["lanes"][seat][lane]
        if not present:
            if card_id in here and state["phase"] == "play":
                raise _refusal(state, seat, lane, f"{{card}} was lifted from {players[seat]}'s lane {lane + 1}: "
                               "put it back, the game still counts it there (undo if it was a mistake)", card_id,
                               also_hidden=is_face_down(here.index(card_id)))
            return None
        if card_id in here:
            return None                                  # seen again where it already is
        if state["phase"] == "round_over":
            if card_id in BIT and BIT[card_id] & (state["discarded"] | state["on_table"]):
                return None
            raise _refusal(state, seat, lane, f"Round {state['round']} is scored: clear the table and press Next round "
                                              "before playing {card}", card_id)
        if state["phase"] == "over":
            return None
        expected = self.to_play(state)
        solo = state.get("solo")
        if solo is not None and card_id in solo["slots"] and (seat, expected) != (solo["seat"], solo["seat"]):
            # a card from the companion's holder: its face is secret, say only where it goes back
            where = solo_instruction(state) if expected == solo["seat"] else f"{players[expected]} plays now"
            raise IllegalAction(f"take that card back to slot {solo['slots'].index(card_id) + 1}: {where}")
        if seat != expected:
            raise _refusal(state, seat, lane, f"{{card}} is on {players[seat]}'s lane {lane + 1}, but it is "
                           f"{players[expected]}'s turn: take it back, {players[expected]} plays now", card_id)
        return {"type": "play", "seat": seat, "lane": lane, "card": card_id}

    def scan_for(self, state: State, action: Action) -> tuple[str, str] | None:
        if action.get("type") == "play":
            return lane_zone(action["seat"], action["lane"]), action["card"]
        if action.get("type") == "solo_hand":
            return hand_zone(action["seat"]), action["card"]
        return None

    def confirm_action(self, state: State, seat: int) -> Action | None:
        if state["phase"] == "round_over":
            return {"type": "next_round", "seat": seat}
        return None



def _refusal(state: State, seat: int, lane: int, text: str, card: str | None = None,
             also_hidden: bool = False) -> IllegalAction:
    """A refused placement; ``text`` names the card as ``{card}``.

    A card put on a stack that holds an odd number of cards would lie face
    down there, and a card that already lies face down is secret too: then
    the full sentence is for the player who placed it only (the lane's owner)
    and everybody else reads it with "a card" instead.
    """
    full = text.replace("{card}", symbol(card) if card else "this card")
    here = state["lanes"][seat][lane]
    lifted = card in here
    if not ((not lifted and is_face_down(len(here))) or also_hidden) or state["phase"] == "over":
        return IllegalAction(full)
    redacted = text.replace("{card}", "A card" if text.startswith("{card}") else "a card")
    return IllegalAction(full, redacted=redacted, hidden_from=[1 - seat])


def _where(state: State, card: str) -> tuple[int, int]:
    for side in (0, 1):
        for n, stack in enumerate(state["lanes"][side]):
            if card in stack:
                return side, n
    raise KeyError(card)


def _parse_zone(zone: str) -> tuple[int, int]:
    try:
        seat_text, lane_text = zone.split(".lane")
        seat, lane = int(seat_text), int(lane_text) - 1
        if seat in (0, 1) and 0 <= lane < LANES:
            return seat, lane
    except ValueError:
        pass
    raise IllegalAction(f"{zone!r} is not a zone of Sam's Battle Game (zones are 0.lane1 … 1.lane5)")
