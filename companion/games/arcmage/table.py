"""The table: which pads Arcmage uses and what a card appearing on one means.

Each player has seven pads (zone ids ``"<seat>.<kind>"``):

* ``front`` — the Front: creatures enter it in the Entrance phase, or move to it
  from the top of a domain in a Move phase;
* ``politics``, ``science``, ``faith`` — the top of each domain pile of the Kingdom;
* ``region`` — the chapter: at setup the regions are put here face down; later
  only the active region matters;
* ``vault`` — a card put here face down becomes a gold resource;
* ``handoff`` — the play pad: events, magic, spells and equipment played from hand.

A card lifted off a pad means nothing (players pick cards up to read them);
the screen and the pad events say everything else.
"""
from __future__ import annotations

from companion.engine import IllegalAction, Zone
from companion.games.arcmage import cards as arc
from companion.games.arcmage.cards import DOMAINS
from companion.games.arcmage.skeleton import PHASE_LABELS
from companion.games.arcmage.state import PILES, find, is_top

KINDS = ("front",) + DOMAINS + ("region", "vault", "handoff")
LABELS = {"front": "Front", "politics": "Politics domain (top)", "science": "Science domain (top)",
          "faith": "Faith domain (top)", "region": "Region (chapter)", "vault": "Vault",
          "handoff": "Play pad (cards from hand)"}


def zones(options: dict) -> list[Zone]:
    names = options.get("players", ["North", "South"])
    return [Zone(f"{seat}.{kind}", f"{names[seat]}: {LABELS[kind]}", seat, stack=kind != "handoff")
            for seat in (0, 1) for kind in KINDS]


def _split(zone: str) -> tuple[int, str]:
    seat, _, kind = zone.partition(".")
    if seat not in ("0", "1") or kind not in KINDS:
        raise IllegalAction(f"{zone!r} is not a place on the Arcmage table.")
    return int(seat), kind


def interpret(state: dict, zone: str, card_id: str, present: bool) -> dict | None:
    seat, kind = _split(zone)
    if not present:
        pending = state["pending"]
        if kind == "handoff" and pending is not None and pending["seat"] == seat and pending["card"] == card_id:
            return {"type": "cancel", "seat": seat}
        return None
    c = arc.card(card_id)
    card_type = c.attrs.get("type")
    p = state["p"][seat]
    phase = state["phase"]
    if kind == "region":
        if phase == "setup":
            return {"type": "region", "seat": seat, "card": card_id}
        if any(r["card"] == card_id for r in p["chapter"]):
            return None
        raise IllegalAction(f"{c.name} is not in {state['names'][seat]}'s chapter; the region pad holds the chapter.")
    if card_type == "region":
        raise IllegalAction(f"{c.name} is a region: it belongs on the region pad.")
    if phase == "setup":
        raise IllegalAction("Put your regions on your region pad and press Ready first.")
    if kind == "vault":
        resource = {"type": "resource", "seat": seat, "card": card_id}
        if any(r["card"] == card_id for r in p["vault"]) and not _may_add_resource(state, seat):
            return None                               # put back after a look
        return resource
    if kind == "handoff":
        if card_type == "creature":
            raise IllegalAction(f"{c.name} is a creature: put it on your Front pad or on top of a domain pad.")
        return {"type": "play", "seat": seat, "card": card_id}
    # front or a domain
    if card_type != "creature":
        if kind == "front":
            if _attached(state, card_id):
                return None
            return {"type": "play", "seat": seat, "card": card_id}
        raise IllegalAction(f"{c.name} is not a creature: only creatures go into a domain. Play it on your play pad.")
    # A card seen again may be a put-back or another copy of the same card (its own tag):
    # the phase decides which is meant; a wrong guess is one undo away.
    if phase == "entrance" and state["active"] == seat:
        return {"type": "enter", "seat": seat, "card": card_id, "to": kind}
    if phase in ("move1", "move2"):
        source = _movable(p, card_id, kind)
        if source is not None:
            return {"type": "move", "seat": seat, "card": source["id"], "to": kind}
    if any(x["card"] == card_id for x in p[kind]):
        return None                                   # put back where it already was
    if _in_play(p, card_id):
        raise IllegalAction(f"{c.name} moves only in a Move or Attack phase, from the top of a domain to the Front "
                            "or back. Put it back where it was.")
    raise IllegalAction(f"{c.name} enters play in your Entrance phase (now: {_phase_text(state)}). "
                        "Take it back into your hand.")


def _may_add_resource(state: dict, seat: int) -> bool:
    p = state["p"][seat]
    return (state["active"] == seat and state["phase"] in ("play1", "play2") and not p["resourced"]
            and not p["exhausted"] and state["combat"] is None)


def _movable(p: dict, card_id: str, to: str) -> dict | None:
    """A copy of ``card_id`` that could move to ``to`` (Front ↔ top of a domain)."""
    sources = DOMAINS if to == "front" else ("front",)
    for pile in sources:
        for i, x in enumerate(p[pile]):
            if x["card"] == card_id and is_top(p, pile, i):
                return x
    return None


def _in_play(p: dict, card_id: str) -> bool:
    return any(x["card"] == card_id for pile in PILES for x in p[pile])


def _attached(state: dict, card_id: str) -> bool:
    for p in state["p"]:
        if any(s["card"] == card_id for s in p["spells"]) or any(d["card"] == card_id for d in p["dropped"]):
            return True
        for pile in PILES:
            for x in p[pile]:
                if any(eq["card"] == card_id for eq in x["equip"]) or any(s["card"] == card_id for s in x["spells"]):
                    return True
    return False


def _phase_text(state: dict) -> str:
    return PHASE_LABELS[state["phase"]]


def scan_for(state: dict, action: dict) -> tuple[str, str] | None:
    """The (zone, card) whose placement makes ``action``; None for screen-only actions.

    The simulated table gives each card id one virtual tag, so it cannot put a
    second copy where a copy already lies: such actions go through the screen.
    """
    kind, seat = action.get("type"), action.get("seat")
    if kind == "region":
        return f"{seat}.region", action["card"]
    if kind == "play" and "target" not in action and "cost" not in action:
        return f"{seat}.handoff", action["card"]
    if kind == "resource":
        return f"{seat}.vault", action["card"]        # always a card on the pad: the vault is face down
    if kind == "enter" and "cost" not in action:
        zone, card_id = f"{seat}.{action['to']}", action["card"]
    elif kind == "move":
        where = find(state["p"][seat], action["card"])
        if where is None:
            return None
        zone, card_id = f"{seat}.{action['to']}", state["p"][seat][where[0]][where[1]]["card"]
        mover = state["p"][seat][where[0]][where[1]]
        if _movable(state["p"][seat], card_id, action["to"]) is not mover:
            return None                               # another copy would be read as the mover
    else:
        return None
    if any(x["card"] == card_id for x in state["p"][seat][zone.split(".")[1]]):
        return None
    return zone, card_id
