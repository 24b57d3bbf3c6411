"""Vita Luna: what each seat and the shared screen may see (cards bid and rewards scanned from a hand
stay hidden from the other seat).
"""
from __future__ import annotations

from companion.engine import IllegalAction, State, counter
from companion.games.vitaluna import bidding as auction
from companion.games.vitaluna.cards import ARMOUR, COLOURS, SINGULARS
from companion.games.vitaluna.combat import GREY, WHITE
from companion.games.vitaluna.table import SCAN, ZONE_IDS, steps_to_heart


class VitaLunaView:
    """The view part of :class:`~.rules.VitaLunaRules`: what each seat and the shared screen may see."""

    # ---- what may be seen ----------------------------------------------------------------------------------
    def active_seat(self, state: State) -> int | None:
        """Whose move it is (the seat the shared pad's scan is for), None when both or nobody."""
        phase = state["phase"]
        if phase == "battle":
            return state["turn"]["seat"]
        if phase == "placement":
            return state["placing"]
        if phase == "rewards":
            return state["rewards"][0][0]
        if phase == "exchange":
            return state["exchanging"]
        if phase == "bidding":
            return auction.to_bid(state["bidding"])
        return None


    def hand_refusal(self, state: State, card: str, seat: int, exc: IllegalAction) -> IllegalAction:
        """A refused reward or exchange names a card scanned from ``seat``'s hand, hidden from the other
        player: so is the refusal (the other seat and the shared screen read "that card")."""
        entry = self.table(state).get(card)
        if exc.redacted is not None or entry is None or entry.name not in str(exc):
            return exc
        text = str(exc)
        redacted = ("That card" + text[len(entry.name):]) if text.startswith(entry.name) else text
        return IllegalAction(text, redacted=redacted.replace(entry.name, "that card"), hidden_from=[1 - seat])

    def _shown_name(self, state: State, card: str, slot: int, owner: int, seat: int | None = -1) -> str:
        if slot in GREY and seat != owner and seat != -1:
            return "a face-down card"
        return self.table(state)[card].name

    def _phase_label(self, state: State) -> str:
        names = self._names(state)
        phase = state["phase"]
        if phase == "start":
            return "Choose who attacks first"
        if phase == "bidding":
            b = state["bidding"]
            if b["stage"] == "first":
                return "Advanced game: choose who bids first"
            seat = auction.to_bid(b)
            if b["stage"] == "attack":
                return f"Bidding for the first attack: {names[seat]} bids"
            if seat is None:
                return f"Turn the next {b['stage']} card over on the shared pad"
            return f"Bidding for {self.table(state)[b['card']].name}: {names[seat]} bids"
        if phase == "placement":
            p = state["placing"]
            role = "attacker" if p == state["attacker"] else "defender"
            # Done is there once a card lies: the instruction names it only then
            then = "then touch Done" if any(state["board"][p]) else "at least one"
            return f"Battle {state['battle']}: {names[p]} ({role}) places cards, {then}"
        if phase == "battle":
            turn = state["turn"]
            s = turn["seat"]
            if turn["pending"]:
                return f"{names[s]}: choose the target of {turn['pending'].capitalize()}"
            step = "move, promote or attack" if turn["acted"] else "singular cards, moves, then attack"
            return f"Battle {state['battle']}: {names[s]}'s turn — {step}"
        if phase == "rewards":
            s, colour = state["rewards"][0]
            return f"{names[s]} takes a {colour} card: scan it on the shared pad"
        if phase == "exchange":
            s = state["exchanging"]
            if state["exchange"]:
                return f"{names[s]}: scan {'one more black card' if len(state['exchange']) == 1 else 'the new blue card'}"
            return f"{names[s]} may swap two black cards for a blue one, or touch Done"
        return f"{names[state['winner']]} wins the game" if state["winner"] is not None else "Game over"

    def view(self, state: State, seat: int | None) -> dict:
        names, table = self._names(state), self.table(state)
        phase = state["phase"]
        in_battle = phase == "battle"
        health, spent = state["health"], state["spent"]
        zones, positions = {}, {}
        for s in (0, 1):
            for slot, card in enumerate(state["board"][s]):
                zone = ZONE_IDS[s][slot]
                if card is None:
                    zones[zone] = {"cards": [], "summary": "empty"}
                    positions[zone] = None
                elif slot in GREY and seat != s:
                    zones[zone] = {"cards": [{"hidden": True}], "summary": "a card face down"}
                    positions[zone] = {"hidden": True}
                else:
                    c = table[card]
                    hp = health.get(card, c.health)
                    armour = bool(c.epics & ARMOUR) and card not in spent
                    summary = c.label() + (f" · {hp}/{c.health} health" if in_battle and slot in WHITE else "")
                    if in_battle and slot in WHITE and c.epics & ARMOUR:
                        summary += " · armour" if armour else " · armour gone"
                    if slot in GREY:
                        summary += " (face down)"
                    zones[zone] = {"cards": [card], "summary": summary}
                    positions[zone] = {"card": card, "name": c.name, "attack": c.attack, "health": hp,
                                       "max_health": c.health, "armour": armour, "epics": c.epic_names(),
                                       "colour": c.colour, "held": slot in WHITE and self._held(state, s, slot)}
        zones[SCAN] = {"cards": [], "summary": self._phase_label(state) if self.active_seat(state) is not None else ""}
        counters = [counter(f"track.{s}", s, "Track", state["track"][s]) for s in (0, 1)]
        if in_battle:
            counters += [counter(f"heart.{s}", s, "Heart", state["heart"][s]) for s in (0, 1)]
        if phase == "bidding":
            counters += [counter(f"markers.{s}", s, "Markers", state["bidding"]["markers"][s]) for s in (0, 1)]
        # In hand: the cards a player holds (dealt, won, exchanged: ``held``) less those on their
        # positions and those out of this battle (the dead go back to the hand when it ends)
        counters += [counter(f"hand.{s}", s, "In hand", sum(state["held"][s].values())
                             - sum(1 for c in state["board"][s] if c) - len(state["dead"][s]), adjustable=False)
                     for s in (0, 1)]
        awaiting = None
        if phase in ("start", "bidding"):
            awaiting = "scan" if phase == "bidding" and auction.to_bid(state["bidding"]) is None \
                and state["bidding"]["stage"] in COLOURS else "choice"
        elif phase in ("placement", "rewards"):
            awaiting = "scan"
        elif phase == "battle":
            awaiting = "choice" if state["turn"]["pending"] else "confirm"
        elif phase == "exchange":
            awaiting = "scan" if state["exchange"] else "confirm"
        detail = {
            "battle": state["battle"], "attacker": state["attacker"], "track": state["track"],
            "steps_to_heart": steps_to_heart(state["options"]), "heart": state["heart"] if in_battle else None,
            "positions": positions, "turn": state["turn"], "placing": state["placing"],
            "rewards": state["rewards"], "exchanging": state["exchanging"],
            "exchange_given": len(state["exchange"]),
            "singulars_left": [[n for n in SINGULARS if n not in state["used"][s]] for s in (0, 1)],
            "dead": [[table[c].name for c in state["dead"][s]] for s in (0, 1)] if in_battle else [[], []],
            "burnt": [table[c].name for c in state["burnt"]],
            "held": state["held"],
            "battles": state["battles"],
            "targets": (self.singular_targets(state, state["turn"]["seat"], state["turn"]["pending"])
                        if in_battle and state["turn"]["pending"] else []),
            # who chose to attack every turn (the creatures they could move then are theirs to know)
            "attacking_every_turn": [s for s, mine in enumerate(state.get("orders") or ()) if mine is not None],
        }
        if phase == "bidding":
            b = state["bidding"]
            detail["bidding"] = {"stage": b["stage"], "markers": b["markers"], "bids": b["bids"],
                                 "card": b["card"], "to_bid": auction.to_bid(b), "got": b["got"], "left": b["left"]}
        return {
            "game": self.name, "players": names, "phase": phase, "phase_label": self._phase_label(state),
            "active_seat": self.active_seat(state), "awaiting": awaiting, "over": self.is_over(state),
            "result": self.result(state) if self.is_over(state) else None,
            "counters": counters, "zones": zones, "detail": detail,
        }
