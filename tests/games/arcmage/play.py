"""Helpers for the Arcmage tests: a started game, phases, and cards placed by hand.

Tests build their positions through the engine's own actions where the rules
text describes the steps (setup, phases, combat) and place cards directly only
to set up a position quickly (``put``, ``gold``): the rules under test then run
unchanged from there.
"""
from companion.games.arcmage import RULES
from companion.games.arcmage.skeleton import PHASES

NORTH, SOUTH = 0, 1
GAIAN_CHAPTER = ["whispering-woods", "heart-of-the-forest", "sacred-grove"]
LEGION_CHAPTER = ["cursed-marshes", "necropolis", "throne-of-bones"]


def cid(slug: str) -> str:
    return f"arcmage.{slug}"


def act(state, kind, seat, **fields):
    return RULES.apply(state, {"type": kind, "seat": seat, **fields})


def started(north=GAIAN_CHAPTER, south=LEGION_CHAPTER, seed=7, **options):
    """Both chapters on the region pads, both Ready: North's turn 1, Unmark phase."""
    state = RULES.setup(RULES.normalise_options(options), seed)
    for seat, chapter in ((NORTH, north), (SOUTH, south)):
        for slug in chapter:
            state, _ = act(state, "region", seat, card=cid(slug))
    state, _ = act(state, "ready", NORTH)
    state, _ = act(state, "ready", SOUTH)
    return state


def to_phase(state, phase):
    """Press next (drawing one card in the Draw phase) until the active player reaches ``phase``."""
    events = []
    while state["phase"] != phase:
        seat = state["active"]
        if state["phase"] == "draw" and state["p"][seat]["drawn"] == 0:
            state, ev = act(state, "draw", seat)
            events += ev
        state, ev = act(state, "next", seat)
        events += ev
    return state, events


def end_turn(state):
    """Finish the active player's turn: on to the next player's Unmark phase."""
    seat = state["active"]
    state, _ = to_phase(state, "discard")
    while state["p"][seat]["hand"] > 7:
        state, _ = act(state, "discard", seat)
    state, _ = act(state, "next", seat)
    return state


def put(state, seat, pile, slug, **changes):
    """A copy of ``state`` with creature ``slug`` on top of ``pile`` (unmarked); returns (state, id)."""
    from companion.games.arcmage import cards as arc
    card = arc.card(cid(slug))
    state = dict(state, p=list(state["p"]))
    p = state["p"][seat] = dict(state["p"][seat])
    n = state["next_id"]
    state["next_id"] = n + 1
    creature = {"id": n, "card": card.id, "atk": card["atk"], "def": card["defence"], "cost": card["cost"],
                "marked": False, "assigned": False, "locked": False, "damage": 0, "equip": [], "spells": []}
    creature.update(changes)
    p[pile] = p[pile] + [creature]
    p["deck"] -= 1                         # it came from the 60-card deck, so every card stays accounted
    return state, n


def gold(state, seat, n):
    """``n`` unmarked resources in ``seat``'s vault (cards from the deck)."""
    state = dict(state, p=list(state["p"]))
    p = state["p"][seat] = dict(state["p"][seat])
    first = state["next_id"]
    state["next_id"] = first + n
    p["vault"] = p["vault"] + [{"id": first + k, "card": cid("ghoul"), "marked": False} for k in range(n)]
    p["deck"] -= n
    return state


def creature(state, seat, card_id):
    for pile in ("front", "politics", "science", "faith"):
        for c in state["p"][seat][pile]:
            if c["id"] == card_id:
                return pile, c
    return None


def region(state, seat):
    return state["p"][seat]["chapter"][0]


assert PHASES[0] == "unmark"
