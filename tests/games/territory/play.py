"""Helpers for Territory tests: build positions by playing real actions through the engine."""
from __future__ import annotations

from companion.games.territory import RULES


def T(slug: str) -> str:
    """"ash" → "territory.ash"."""
    return f"territory.{slug}"


def act(state, action, events=None):
    """Apply ``action``; append its events to ``events`` when given."""
    new, evs = RULES.apply(state, action)
    if events is not None:
        events.extend(evs)
    return new


def game(deck0, deck1, lands, seed=7, **options):
    """A game whose decks were scanned onto the ready pads and whose lands were dealt (deploy phase)."""
    state = RULES.setup(RULES.normalise_options(options), seed)
    for seat, deck in ((0, deck0), (1, deck1)):
        for slug in deck:
            state = act(state, {"type": "register", "seat": seat, "creature": T(slug)})
    state = act(state, {"type": "done", "seat": 0})
    state = act(state, {"type": "done", "seat": 1})
    for slug in lands:
        state = act(state, {"type": "deal", "land": T(slug)})
    return state


def deploy(state, seat, slug, slot):
    return act(state, {"type": "deploy", "seat": seat, "creature": T(slug), "slot": slot})


def both_done(state, events=None):
    """Both players finish deploying: combat runs until input is needed."""
    state = act(state, {"type": "done", "seat": 0}, events)
    return act(state, {"type": "done", "seat": 1}, events)


def pass_all(state, events=None):
    """Both players pass at every land until the phase changes from combat."""
    while state["phase"] == "combat":
        for seat in (0, 1):
            if not state["done"][seat] and state["phase"] == "combat":
                state = act(state, {"type": "done", "seat": seat}, events)
    return state


def battle(state, slot):
    """The latest recorded battle at ``slot``."""
    return [b for b in state["battles"] if b["slot"] == slot][-1]


FIVE = ["pine-forest", "grey-peaks", "still-lake", "green-meadow", "red-dunes"]
