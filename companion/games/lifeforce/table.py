"""Lifeforce Battle at the table: its zones (attacker and support pads per seat, the companion's hand
pad in solo play, the deck-check pad), how a card on a pad becomes an action, and the confirm button.
"""
from __future__ import annotations

from companion.engine import Action, IllegalAction, State, Zone
from companion.games.lifeforce import solo
from companion.games.lifeforce.animals import ANIMALS, BIT

BUILDING = ("attack", "counter")          # the phases in which a seat places cards


class LifeforceTable:
    """The table part of :class:`~.rules.LifeforceRules`: its zones, what a card on a pad means, the confirm button."""

    # ---- the table -----------------------------------------------------------
    def zones(self, options: dict) -> list[Zone]:
        players = (options or {}).get("players", ["North", "South"])
        return ([Zone(zone_id(s, "attacker"), f"{players[s]} attacker", s, stack=False) for s in (0, 1)]
                + [Zone(zone_id(s, "support"), f"{players[s]} support", s, stack=True) for s in (0, 1)]
                + [Zone("deck_check", "Deck check", None, stack=False)]
                + [Zone(solo.hand_zone(s), f"{players[s]}'s hand pad", s, stack=True)
                   for s in (0, 1) if (options or {}).get("solo_seat") == s])

    def interpret(self, state: State, zone: str, card_id: str, present: bool) -> Action | None:
        if state["phase"] == "over":
            return None                          # a record ends with the game: nothing more is logged
        if zone == "deck_check":
            return {"type": "identify", "card": card_id} if present else None
        companion = state.get("solo")
        if companion is not None and zone == solo.hand_zone(companion["seat"]):
            return {"type": "solo_hand", "seat": companion["seat"], "card": card_id} if present else None
        seat, place = _parse_zone(zone)
        if companion is not None and present and not (card_id in BIT and BIT[card_id] & state["table"][seat]):
            self._check_companion_card(state, seat, place, card_id)
            if seat == companion["seat"] and card_id in companion["slots"]:
                return {"type": "play_animal" if place == "attacker" else "support", "seat": seat, "card": card_id}
        if companion is not None and not present and seat == companion["seat"]:
            return None                          # the companion never takes a card back
        if not present:
            # lifting a card means something only while its owner is still placing it
            if state["phase"] in BUILDING and state["turn"] == seat:
                duel = state["duels"][-1]
                if card_id == duel["animal"][seat] or card_id in duel["support"][seat]:
                    return {"type": "withdraw", "seat": seat, "card": card_id}
            return None
        if card_id in BIT and BIT[card_id] & state["table"][seat]:
            return None                          # seen again where it already lies
        # the checks apply() would make, said with where the card belongs
        self._check_card_on_pad(state, seat, card_id)
        self._expect_builder(state, seat, f"placing {ANIMALS[card_id].name}")
        if place == "attacker":
            return {"type": "play_animal", "seat": seat, "card": card_id}
        return {"type": "support", "seat": seat, "card": card_id}

    def _check_companion_card(self, state: State, seat: int, place: str, card_id: str) -> None:
        """Solo play: a card on the companion's pads must be the one it decided on; a card of its
        holder or deck anywhere else is refused without its face (RULINGS: hidden stays hidden)."""
        companion = state["solo"]
        who = self._who(state, companion["seat"])
        if seat == companion["seat"]:
            if card_id in companion["slots"] or solo.is_secret(state, card_id):
                solo.check_place(state, "play_animal" if place == "attacker" else "support", card_id)
            return                               # a card everybody knows: the usual checks say where it goes
        if not solo.is_secret(state, card_id):
            return
        bit = BIT[card_id]
        if bit & state["deckmask"][seat] and not bit & (state["graveyard"][seat] | state["discard"][seat]):
            if card_id not in companion["slots"]:
                return                           # a copy of the same card in this player's own deck
        if card_id in companion["slots"]:
            raise solo.secret_refusal(f"take that card back to slot {companion['slots'].index(card_id) + 1} of "
                                      f"{who}'s holder: it is {who}'s")
        raise solo.secret_refusal(f"that card is {who}'s: put it back face down in {who}'s deck")

    def _check_card_on_pad(self, state: State, seat: int, card_id: str) -> None:
        if card_id not in ANIMALS:
            raise IllegalAction(f"{card_id} is not in the Lifeforce Battle catalogue")
        bit = BIT[card_id]
        if not bit & state["deckmask"][seat] and bit & state["deckmask"][1 - seat]:
            raise IllegalAction(f"{ANIMALS[card_id].name} is not in {self._who(state, seat)}'s deck: it belongs "
                                f"on {self._who(state, 1 - seat)}'s side of the table")
        self._check_card(state, seat, card_id)

    def scan_for(self, state: State, action: Action) -> tuple[str, str] | None:
        kind = action.get("type")
        if kind == "play_animal":
            return zone_id(action["seat"], "attacker"), action["card"]
        if kind == "support":
            return zone_id(action["seat"], "support"), action["card"]
        if kind == "identify":
            return "deck_check", action["card"]
        if kind == "solo_hand":
            return solo.hand_zone(action["seat"]), action["card"]
        return None

    def confirm_action(self, state: State, seat: int) -> Action | None:
        phase = state["phase"]
        if phase in BUILDING and state["turn"] == seat:
            return {"type": "done", "seat": seat}
        if phase == "resolve":
            return {"type": "resolve", "seat": seat}
        if phase == "call" and state["battle_winner"] == seat:
            return {"type": "call", "seat": seat}
        return None

    def follow_up(self, state: State, action: Action) -> Action | None:
        """The counter's Done (a touch or the confirm button) also resolves the duel: with both
        sides standing, resolving is the one thing left to do and either player may do it."""
        if action.get("type") == "done" and state["phase"] == "resolve":
            return {"type": "resolve", "seat": action["seat"]}
        return None


def _parse_zone(zone: str) -> tuple[int, str]:
    seat_text, _, place = zone.partition(".")
    if seat_text in ("0", "1") and place in ("attacker", "support"):
        return int(seat_text), place
    raise IllegalAction(f"{zone!r} is not a zone of Lifeforce Battle "
                        "(zones are 0.attacker, 0.support, 1.attacker, 1.support, deck_check)")


def zone_id(seat: int, place: str) -> str:
    """"0.attacker", "1.support"."""
    return f"{seat}.{place}"
