"""Vita Luna's standing choice, *attack every turn* (issue 25; docs/rulings/vitaluna.md, "Attack every turn").

A player may say, on their turn in a battle, "I attack every turn": from then
on each of their turns in this battle is an attack, made at once, while no
creature of theirs may move in the white row that could not when they said it.
It is a move like any other — logged, replayed, undone by one undo, kept in
the state (``orders``: per seat None, or the creatures that could move then) —
so a game resumed after a power cut still has it.  What it stops on is what
the whole table can see (:func:`movers`), and the stop is the engine's own
event.  The attacks themselves are plain ``attack`` actions, each its own in
the log: :func:`follow_up` names the next one, and the input road
(``companion.inputs``) applies it after a person's input.
"""
from __future__ import annotations

from companion.engine import Action, IllegalAction, State, event
from companion.games.vitaluna.table import ZONE_IDS

#: white positions per side: the row a standing choice watches
POSITIONS = 4
NO_ORDERS = (None, None)


def movers(legal: list[Action], state: State, seat: int) -> frozenset:
    """The creatures of ``seat`` the engine lets move in the white row now: a creature on white to
    another white position (a step, a swap), a reserve card promoted to a free white position.

    What the whole table can tell from the board, so that a stop says nothing about a face-down
    card: a white creature's epics lie face up, and a promotion does not depend on which card it
    is; a reserve card's move within the reserve, or a swap with the reserve that its own (hidden)
    move anywhere allows, is left out."""
    row = state["board"][seat]
    white = set(ZONE_IDS[seat][:POSITIONS])
    out = set()
    for a in legal:
        if a["type"] != "move" or a["seat"] != seat or a["to"] not in white:
            continue
        on_white = row.index(a["card"]) < POSITIONS
        if on_white or row[ZONE_IDS[seat].index(a["to"])] is None:
            out.add(a["card"])
    return frozenset(out)


def standing(state: State) -> list[int]:
    """The seats whose standing choice holds now."""
    return [s for s, mine in enumerate(state.get("orders") or NO_ORDERS) if mine is not None]


def _with(orders, seat: int, value) -> list:
    out = list(orders or NO_ORDERS)
    out[seat] = value
    return out


def attack_every_turn(rules, state: State, action: Action):
    """``seat`` chooses to attack on each of its turns in this battle (the attack follows at once)."""
    seat = action["seat"]
    turn = rules._my_turn(state, seat, "attacking every turn")
    name = rules._names(state)[seat]
    if turn["pending"]:
        raise IllegalAction(f"choose the target of {turn['pending'].capitalize()} first (or cancel it)")
    if seat in standing(state):
        raise IllegalAction(f"{name} already attacks every turn")
    could = sorted(movers(rules.legal_actions(state), state, seat))
    return dict(state, orders=_with(state.get("orders"), seat, could)), [
        event("attack_every_turn", f"{name} attacks every turn in this battle, until a creature of theirs "
                                   "can move that could not now", seat=seat)]


def stop_attacking(rules, state: State, action: Action):
    """``seat`` takes its standing choice back (at any moment of the battle)."""
    seat = action["seat"]
    name = rules._names(state)[seat]
    if seat not in standing(state):
        raise IllegalAction(f"{name} is not attacking every turn")
    return dict(state, orders=_with(state["orders"], seat, None)), [
        event("stop_attacking", f"{name} stops attacking every turn", seat=seat)]


def watched(handler):
    """``handler`` for a move that may be made during a battle, followed by :func:`check` while a
    standing choice holds.  Only a battle's moves are wrapped (in the rules' ``MOVES``): a choice is
    made in a battle and ends with it, so every other move leaves ``orders`` as it found them,
    ``[None, None]``, and goes from the one dispatch straight to its handler."""
    def battle_move(rules, state: State, action: Action):
        new, events = handler(rules, state, action)
        standing = new["orders"]
        if standing[0] is None and standing[1] is None:
            return new, events
        return check(rules, new, events)
    battle_move.__name__ = battle_move.__qualname__ = handler.__name__
    battle_move.__doc__ = handler.__doc__
    return battle_move


def check(rules, new: State, events: list) -> tuple[State, list]:
    """After a battle's move while a standing choice holds: the choices end with the battle; the one
    of the seat to act ends when a creature of theirs may move now that could not when they chose
    (said in an event)."""
    if new["phase"] != "battle":
        return dict(new, orders=list(NO_ORDERS)), events
    turn = new["turn"]
    seat = turn["seat"]
    mine = new["orders"][seat]
    if mine is None or turn["pending"] or movers(rules.legal_actions(new), new, seat) <= set(mine):
        return new, events
    name = rules._names(new)[seat]
    return dict(new, orders=_with(new["orders"], seat, None)), events + [
        event("orders_stopped", f"A creature of {name}'s can move now: attacking every turn stops here",
              seat=seat)]


def legal(state: State) -> list[Action]:
    """The standing choices that may be made now (the seat to act, no target pending) or taken back."""
    turn = state["turn"]
    held = standing(state)
    out = [] if turn["pending"] or turn["seat"] in held else [{"type": "attack_every_turn", "seat": turn["seat"]}]
    return out + [{"type": "stop_attacking", "seat": s} for s in held]


def follow_up(state: State) -> Action | None:
    """The attack the seat to act's standing choice makes now, or None."""
    if state["phase"] != "battle":
        return None
    turn = state["turn"]
    seat = turn["seat"]
    if turn["pending"] or seat not in standing(state):
        return None
    return {"type": "attack", "seat": seat}
