"""Helpers that build Vita Luna positions through the real engine (setup → actions), for the tests."""
from __future__ import annotations

import copy

from companion.engine import IllegalAction
from companion.games.vitaluna import RULES

# Test-only creatures, made by editing catalogue entries the way a player edits their own cards.
WALL = {"vitaluna.bat": {"name": "Wall", "attrs": {"attack": 0, "health": 9, "epics": []}},
        "vitaluna.owl": {"name": "Wall 2", "attrs": {"attack": 0, "health": 9, "epics": []}}}
SLAYER = {"vitaluna.lion": {"name": "Slayer", "attrs": {"colour": "black", "attack": 10, "health": 9, "epics": []}},
          "vitaluna.tiger": {"name": "Slayer 2", "attrs": {"colour": "black", "attack": 10, "health": 9, "epics": []}}}
# per seat, so that each player's cards stay their own from battle to battle
SLAYERS, WALLS, WEAKLINGS = ("Lion", "Tiger"), ("Bat", "Owl"), ("Rat", "Rabbit")


def cid(name: str) -> str:
    """"Gyr Falcon" → "vitaluna.gyr-falcon"."""
    return "vitaluna." + name.lower().replace(" ", "-")


def act(state, **action):
    """Apply one action and check the engine left its input untouched."""
    before = copy.deepcopy(state)
    new, events = RULES.apply(state, action)
    assert state == before, f"apply mutated its input on {action}"
    return new, events


def new_game(options=None, seed=1, edits=None):
    opts = {"card_edits": edits or {}, **(options or {})}
    return RULES.setup(RULES.normalise_options(opts), seed)


def place_side(state, seat, white=(), grey=()):
    for n, name in enumerate(white):
        if name:
            state, _ = act(state, type="place", seat=seat, zone=f"{seat}.white{n + 1}", card=cid(name))
    for n, name in enumerate(grey):
        if name:
            state, _ = act(state, type="place", seat=seat, zone=f"{seat}.grey{n + 1}", card=cid(name))
    state, _ = act(state, type="done", seat=seat)
    return state


def battle(white0, white1, grey0=(), grey1=(), edits=None, options=None, attacker=0):
    """A game whose first battle has begun with these cards (lists by column, None = empty).
    Seat ``attacker`` attacks and has the first turn."""
    state = new_game(options, edits=edits)
    state, _ = act(state, type="attack_first", seat=attacker)
    sides = {0: (white0, grey0), 1: (white1, grey1)}
    state = place_side(state, attacker, *sides[attacker])
    state = place_side(state, 1 - attacker, *sides[1 - attacker])
    assert state["phase"] == "battle"
    return state


def texts(events, kind=None):
    return [e["text"] for e in events if kind is None or e["type"] == kind]


def illegal(state, **action) -> str:
    try:
        RULES.apply(state, action)
    except IllegalAction as exc:
        return str(exc)
    raise AssertionError(f"{action} was accepted")


def finish_between_battles(state):
    """Take both rewards unscanned, exchange nothing and lift every card, ready to place anew."""
    while state["phase"] == "rewards":
        seat = state["rewards"][0][0]
        state, _ = act(state, type="reward", seat=seat, card=None)
    a = state["attacker"]
    state, _ = act(state, type="done", seat=a)
    state, _ = act(state, type="done", seat=1 - a)
    assert state["phase"] == "placement" and state["placing"] == a
    for s in (0, 1):
        for slot, card in enumerate(state["board"][s]):
            if card:
                zone = f"{s}.{'white' if slot < 4 else 'grey'}{slot % 4 + 1}"
                state, _ = act(state, type="unplace", seat=s, zone=zone)
    return state


def fight_battle(state, attacker_wins: bool):
    """Play one whole battle from placement: a Slayer (attack 10) on an open column wins it."""
    a = state["attacker"]
    d = 1 - a
    if attacker_wins:
        state = place_side(state, a, [SLAYERS[a]])
        state = place_side(state, d, [None, WALLS[d]])
        state, events = act(state, type="attack", seat=a)
    else:
        state = place_side(state, a, [WEAKLINGS[a]])
        state = place_side(state, d, [SLAYERS[d]])
        state, _ = act(state, type="attack", seat=a)
        state, events = act(state, type="attack", seat=1 - a)
    assert state["phase"] in ("rewards", "over"), texts(events)
    return state, events
