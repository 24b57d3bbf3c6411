"""Lifeforce Battle: what each seat and the shared screen may see (the companion's own hand in solo
play is never shown).
"""
from __future__ import annotations

from companion.engine import State, counter
from companion.games.lifeforce import solo
from companion.games.lifeforce.animals import ANIMALS, cards_in, colour_label
from companion.games.lifeforce.table import BUILDING, zone_id


class LifeforceView:
    """The view part of :class:`~.rules.LifeforceRules`: what each seat and the shared screen may see."""

    # ---- what may be seen ----------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict:
        """Everything on the table is face up and hands are unknown, so all seats see the same.

        ``detail`` holds what the Lifeforce screen needs: ``battle`` (number),
        ``starter``, ``duels`` (this battle's duels: per seat animal, name, colour,
        declared mode, lifespan, support, support_total; resolved duels also
        ``strength`` and ``stalemate_pair``), ``needs`` (why the player placing
        cards cannot press done yet, e.g. "support 14 < lifespan 20 (…)", or None),
        ``counts`` (per seat deck, hand, discard, graveyard, in_play),
        ``graveyard`` and ``discard`` (card ids known there), ``last_battle``,
        ``may_mulligan`` and ``buttons`` (the screen actions possible now:
        mulligan, first_attacker, declare, done, resolve, call, check,
        cannot_support, forfeit).
        """
        players = state["options"]["players"]
        phase = state["phase"]
        duel = state["duels"][-1] if state["duels"] else None
        zones = {}
        for s in (0, 1):
            animal = duel["animal"][s] if duel else None
            support = list(duel["support"][s]) if duel else []
            zones[zone_id(s, "attacker")] = {"cards": [animal] if animal else [],
                                             "summary": _animal_summary(duel, s)}
            zones[zone_id(s, "support")] = {"cards": support, "summary": _support_summary(duel, s)}
        zones["deck_check"] = {"cards": [], "summary": "place a card here to see whose it is and where it belongs"}
        counters = []
        for s in (0, 1):
            c = self.counts(state, s)
            # the companion's hand is what its holder holds: not corrected by touch
            counters += [counter(f"{key}.{s}", s, label, c[key],
                                 adjustable=key == "hand" and (state.get("solo") or {}).get("seat") != s)
                         for key, label in COUNTERS]
        label, awaiting, active = self._phase_label(state)
        duels = []
        for d in state["duels"]:
            entry = {"cards": [_side(d, s) for s in (0, 1)]}
            if "strength" in d:
                entry.update(strength=d["strength"], stalemate_pair=d["stalemate_pair"])
            duels.append(entry)
        return {
            "game": self.name, "players": players, "phase": phase, "phase_label": label,
            "active_seat": active, "awaiting": awaiting, "over": self.is_over(state),
            "result": self.result(state) if self.is_over(state) else None,
            "counters": counters, "zones": zones,
            "detail": {
                "battle": state["battle"], "starter": state["starter"], "duels": duels,
                "needs": (self._support_problem(state, state["turn"]) if phase in BUILDING else None),
                "counts": [self.counts(state, s) for s in (0, 1)],
                "graveyard": [cards_in(state["graveyard"][s]) for s in (0, 1)],
                "discard": [cards_in(state["discard"][s]) for s in (0, 1)],
                "last_battle": state["battles"][-1] if state["battles"] else None,
                "may_mulligan": [phase == "setup" and not state["mulliganed"][s] for s in (0, 1)],
                "buttons": sorted({a["type"] for a in self.legal_actions(state)
                                   if a["type"] not in ("play_animal", "support", "withdraw", "solo_hand",
                                                        "solo_decide")}),
                "solo": solo.view(state),
            },
        }

    def _phase_label(self, state: State) -> tuple[str, str | None, int | None]:
        """(the sentence, what is awaited, the active seat); in solo play what to do for the companion."""
        label, awaiting, active = self._table_label(state)
        companion = state.get("solo")
        phase = state["phase"]
        if companion is None or phase == "over":
            return label, awaiting, active
        seat, who, told = companion["seat"], self._who(state, companion["seat"]), solo.instruction(state)
        if solo.undecided_at_setup(state):
            return told, "scan", seat
        if phase in BUILDING and state["turn"] == seat and told:
            where = f"Battle {state['battle']}" + (f", duel {len(state['duels'])}" if len(state["duels"]) > 1 else "")
            return f"{where}: {told}", "scan", seat
        if phase == "call" and state["battle_winner"] == seat and told:
            return f"{who} won battle {state['battle']} — {told}", "scan" if solo.missing(state) else "choice", seat
        n = solo.missing(state)
        if n:
            label += f" · draw {n} for {who} on {who}'s hand pad"
        return label, awaiting, active

    def _table_label(self, state: State) -> tuple[str, str | None, int | None]:
        players = state["options"]["players"]
        phase = state["phase"]
        if phase == "setup":
            return ("Both players hold 5 cards: take a new hand once if you like, then choose who attacks first",
                    "choice", None)
        if phase in BUILDING:
            seat = state["turn"]
            duel = state["duels"][-1]
            where = f"Battle {state['battle']}" + (f", duel {len(state['duels'])}" if len(state["duels"]) > 1 else "")
            role = "attacks" if phase == "attack" else "counters"
            animal = duel["animal"][seat]
            if animal and ANIMALS[animal].has_range and duel["mode"][seat] is None:
                return f"{where}: {players[seat]} {role} — say low or max for {ANIMALS[animal].name}", "choice", seat
            # the instruction names the Done button only when there is one to touch
            nxt = ("touch Done when ready" if {"type": "done", "seat": seat} in self.legal_actions(state)
                   else "add support" if animal else "put an animal on the attacker pad")
            return f"{where}: {players[seat]} {role} — {self._status(state, seat)}; {nxt}", "scan", seat
        if phase == "resolve":
            return f"Battle {state['battle']}: both sides stand — resolve the duel", "confirm", None
        if phase == "call":
            w = state["battle_winner"]
            return (f"{players[w]} won battle {state['battle']}: call (attack next) or check "
                    f"({players[1 - w]} attacks)", "choice", w)
        w = state["winner"]
        return (f"{players[w]} wins: {state['reason']}" if w is not None else f"A draw: {state['reason']}",
                None, None)


# ---- helpers that fill in a fresh state (never the one apply was given) -------


def _side(duel: dict, seat: int) -> dict:
    animal = duel["animal"][seat]
    beast = ANIMALS[animal] if animal else None
    return {"animal": animal, "name": beast.name if beast else None,
            "colour": beast.colour if beast else None, "mode": duel["mode"][seat],
            "lifespan": beast.lifespan(duel["mode"][seat]) if beast else None,
            "support": list(duel["support"][seat]), "support_total": duel["total"][seat]}


def _animal_summary(duel: dict | None, seat: int) -> str:
    if not duel or duel["animal"][seat] is None:
        return "empty"
    beast = ANIMALS[duel["animal"][seat]]
    mode = duel["mode"][seat]
    if beast.has_range and mode is None:
        return f"{beast.label()}: low or max?"
    return f"{beast.name} · {colour_label(beast.colour)} · {beast.lifespan(mode)} years" + (
        f" ({mode})" if beast.has_range else "")


def _support_summary(duel: dict | None, seat: int) -> str:
    if not duel:
        return "empty"
    cards = duel["support"][seat]
    total = duel["total"][seat]
    text = f"{len(cards)} card{'' if len(cards) == 1 else 's'} · support {total}"
    animal = duel["animal"][seat]
    if animal and not (ANIMALS[animal].has_range and duel["mode"][seat] is None):
        need = ANIMALS[animal].lifespan(duel["mode"][seat])
        text += f" of {need}" + (" ✓" if total >= need else "")
    return text


COUNTERS = (("deck", "Deck"), ("hand", "Hand"), ("discard", "Discard"), ("graveyard", "Graveyard"),
            ("in_play", "In play"))
