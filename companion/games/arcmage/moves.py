"""What may happen now: the legal actions of a state, grouped by kind.

The companion does not know the hands, so a card "from hand" may be any card
of the catalogue the player could afford; the hand *count* must allow it.
Groups let random play pick a kind of move first (end the phase, draw, attack,
play a card…) and then one move of that kind, so random games move on at a
human pace instead of drowning in the many ways to play a card.
"""
from __future__ import annotations

from companion.games.arcmage import cards as arc
from companion.games.arcmage import skeleton as R
from companion.games.arcmage.cards import DOMAINS
from companion.games.arcmage.state import PILES, attack_of, gold_available

_by_type: dict = {}


def cards_of(card_type: str) -> list[tuple[str, int | None]]:
    """(id, printed cost) of every catalogue card of a type, cheapest first; cached per catalogue."""
    cat = arc.catalogue()
    key = (id(cat), card_type)
    if key not in _by_type:
        _by_type[key] = [(cid, arc.cost(cid)) for cid in arc.by_type(card_type)]
    return _by_type[key]


def _affordable(card_type: str, gold: int) -> list[str]:
    """Ids of the cards of a type that cost at most ``gold``, cheapest first; cached like :func:`cards_of`
    (asked for both players before every random move).  Callers only read the list."""
    key = (id(arc.catalogue()), card_type, gold)
    found = _by_gold.get(key)
    if found is None:
        found = _by_gold[key] = [cid for cid, cost in cards_of(card_type) if cost is not None and cost <= gold]
    return found


_by_gold: dict = {}


def _ready(c: dict) -> bool:
    return not (c["marked"] or c["locked"] or c["assigned"])


def _actors(p: dict, front_only: bool = False) -> list[tuple[str, dict]]:
    """Creatures that can act: Front creatures and (unless front_only) each domain's top servant."""
    out = [("front", c) for c in p["front"]]
    if not front_only:
        out += [(d, p[d][-1]) for d in DOMAINS if p[d]]
    return out


def action_groups(rules, state: dict) -> list[list[dict]]:
    phase = state["phase"]
    if state["result"] is not None:
        return []
    if phase == "setup":
        return _setup_groups(state)
    if phase == "fallen":
        return [[{"type": "end_game", "seat": state["active"]}]]
    pending = state["pending"]
    if pending is not None:
        seat = pending["seat"]
        targets = [{"type": "target", "seat": seat, "target": t} for t in rules.targets(state)]
        return [g for g in (targets, [{"type": "cancel", "seat": seat}]) if g]
    combat = state["combat"]
    if combat is not None:
        return _combat_groups(state, combat) + _event_groups(state)
    seat = state["active"]
    p = state["p"][seat]
    nxt = {"type": "next", "seat": seat}
    groups: list[list[dict]] = []
    if phase == "unmark":
        groups.append([nxt])
        if p["mulligan"] and p["hand"] == R.START_HAND and p["deck"] >= 2:
            groups.append([{"type": "mulligan", "seat": seat}])
        groups.append([{"type": "unassign", "seat": seat, "card": c["id"]} for _, c in _actors(p) if c["assigned"]])
    elif phase == "upkeep":
        groups.append([nxt])
        if gold_available(p):
            groups.append([{"type": "spend", "seat": seat, "amount": 1}])
    elif phase == "tactical":
        groups.append([nxt])
        groups.append(_claims(state, seat))
    elif phase == "draw":
        if p["drawn"] > 0 or p["deck"] == 0:
            groups.append([nxt])
        if p["drawn"] < 2 + p["exhausted"] and p["deck"] > 0:
            groups.append([{"type": "draw", "seat": seat}])
        if not p["exhausted"]:
            ex = [{"type": "exhaust", "seat": seat, "discard": p[d][-1]["id"]} for d in DOMAINS if p[d]]
            if p["hand"] > 0:
                ex.append({"type": "exhaust", "seat": seat, "discard": "hand"})
            groups.append(ex)
    elif phase in ("play1", "play2"):
        groups.append([nxt, {"type": "next", "seat": seat, "to": "entrance"}])
        groups += _play_groups(rules, state, seat, p)
    elif phase in ("move1", "move2"):
        groups.append([nxt])
        groups += _move_groups(state, seat, p)
    elif phase == "entrance":
        groups.append([nxt])
        if p["hand"] > 0:
            groups.append([{"type": "enter", "seat": seat, "card": cid, "to": to}
                           for cid in _affordable("creature", gold_available(p)) for to in PILES
                           if to == "front" or R.faction_clash(p, to, cid) is None])
    elif phase == "discard":
        if p["hand"] > R.HAND_LIMIT:
            groups.append([{"type": "discard", "seat": seat}])
        else:
            groups.append([nxt])
        if len(p["chapter"]) > 1:
            groups.append([{"type": "discard_region", "seat": seat}])
    return [g for g in groups if g] + _event_groups(state)


def _setup_groups(state: dict) -> list[list[dict]]:
    groups = []
    for seat in (0, 1):
        p = state["p"][seat]
        if p["ready"]:
            continue
        chapter = [arc.card(r["card"]) for r in p["chapter"]]
        taken = {c.attrs.get("chapter") for c in chapter}
        faction = chapter[0].attrs.get("faction") if chapter else None
        if len(chapter) < 3:
            groups.append([{"type": "region", "seat": seat, "card": cid} for cid, _ in cards_of("region")
                           if arc.card(cid).attrs.get("chapter") not in taken
                           and (faction is None or arc.card(cid).attrs.get("faction") == faction)])
        if chapter:
            groups.append([{"type": "ready", "seat": seat}])
    return [g for g in groups if g]


def _claims(state: dict, seat: int) -> list[dict]:
    t = R.tactical(state, seat)
    claims = state["p"][seat]["claims"]
    if any(c in ("domination", "total_domination") for c in claims):
        return []
    out = [{"type": "claim", "seat": seat, "claim": "advantage", "domain": d} for d in t["won"] if d not in claims]
    if not claims:
        for kind, need in (("domination", 2), ("total_domination", 3)):
            if len(t["won"]) >= need:
                out += [{"type": "claim", "seat": seat, "claim": kind, "choice": ch} for ch in ("vp", "effect")]
    return out


def _event_groups(state: dict) -> list[list[dict]]:
    """Events may be played by either player at any time."""
    out = []
    for seat in (0, 1):
        p = state["p"][seat]
        if p["hand"] > 0:
            out.append([{"type": "play", "seat": seat, "card": cid} for cid in _affordable("event", gold_available(p))])
    return [g for g in out if g]


def _play_groups(rules, state: dict, seat: int, p: dict) -> list[list[dict]]:
    groups = []
    gold = gold_available(p)
    if p["hand"] > 0:
        if not p["resourced"] and not p["exhausted"]:
            groups.append([{"type": "resource", "seat": seat, "card": cid}
                           for t in ("creature", "event", "magic", "spell", "equipment") for cid, _ in cards_of(t)])
        magic = []
        for cid, need in cards_of("magic"):
            domain = arc.card(cid).attrs.get("domain")
            if need is not None and domain in DOMAINS and sum(c["cost"] for c in p[domain]) >= need:
                magic.append({"type": "play", "seat": seat, "card": cid})
        groups.append(magic)
        groups.append([{"type": "play", "seat": seat, "card": cid} for cid in _affordable("spell", gold)])
        if p["front"]:
            groups.append([{"type": "play", "seat": seat, "card": cid} for cid in _affordable("equipment", gold)])
    actors = [(pile, c) for pile, c in _actors(p) if _ready(c)]
    groups.append([{"type": "assign", "seat": seat, "card": c["id"]} for _, c in actors
                   if arc.card(c["card"]).attrs.get("assign") and int(arc.card(c["card"]).attrs.get("assign_cost", 0)) <= gold])
    ready_front = [c for pile, c in actors if pile == "front"]
    groups.append([{"type": "unequip", "seat": seat, "equipment": eq["id"]} for _, c in actors for eq in c["equip"]])
    give = []
    for giver in ready_front:
        for eq in giver["equip"]:
            if state.get("reassign_cost", "printed") == "printed" and (arc.cost(eq["card"]) is None
                                                                       or arc.cost(eq["card"]) > gold):
                continue
            for taker in ready_front:
                if taker is not giver and not (eq["subtype"] and any(x["subtype"] == eq["subtype"] for x in taker["equip"])):
                    give.append({"type": "give", "seat": seat, "equipment": eq["id"], "to": taker["id"]})
    groups.append(give)
    groups.append([{"type": "pickup", "seat": seat, "equipment": eq["id"], "to": c["id"]}
                   for eq in p["dropped"] for c in ready_front
                   if not (eq["subtype"] and any(x["subtype"] == eq["subtype"] for x in c["equip"]))])
    return groups


def _move_groups(state: dict, seat: int, p: dict) -> list[list[dict]]:
    groups = []
    phase = state["phase"]
    actors = [(pile, c) for pile, c in _actors(p) if _ready(c)]
    if not p["moved"] and p["attacked"] != phase and not p["exhausted"]:
        groups.append([{"type": "move", "seat": seat, "card": c["id"], "to": to}
                       for pile, c in actors for to in PILES if (pile == "front") != (to == "front")
                       and (to == "front" or R.faction_clash(p, to, c["card"]) is None)])
    if not p["attacked"] and p["moved"] != phase:
        front = [c["id"] for pile, c in actors if pile == "front"]
        attacks = [{"type": "attack", "seat": seat, "attackers": [i]} for i in front]
        if len(front) > 1:
            attacks.append({"type": "attack", "seat": seat, "attackers": front})
        groups.append(attacks)
    return groups


def _combat_groups(state: dict, combat: dict) -> list[list[dict]]:
    a_seat = combat["seat"]
    if combat["step"] == "block":
        d_seat = 1 - a_seat
        p = state["p"][d_seat]
        blocking = {b for bl in combat["blocks"].values() for b in bl}
        block = []
        for pile, c in _actors(p):
            if not _ready(c) or c["id"] in blocking:
                continue
            for attacker in combat["attackers"]:
                if not state["mixed_blockers"]:
                    kinds = {_pile_kind(p, b) for b in combat["blocks"].get(str(attacker), [])}
                    if kinds and kinds != {pile == "front"}:
                        continue
                block.append({"type": "block", "seat": d_seat, "blocker": c["id"], "attacker": attacker})
        return [g for g in ([{"type": "blocks_done", "seat": d_seat}], block,
                            [{"type": "unblock", "seat": d_seat, "blocker": b} for b in sorted(blocking)]) if g]
    splits = []
    for attacker, blockers in combat["blocks"].items():
        if len(blockers) < 2:
            continue
        found = [c for c in state["p"][a_seat]["front"] if str(c["id"]) == attacker]
        if not found:
            continue
        atk = max(attack_of(found[0]), 0)
        for target in blockers:
            splits.append({"type": "split", "seat": a_seat, "attacker": int(attacker),
                           "damage": {str(b): (atk if b == target else 0) for b in blockers}})
    return [g for g in ([{"type": "resolve", "seat": a_seat}], splits) if g]


def _pile_kind(p: dict, card_id: int) -> bool:
    """True when the creature is in the Front."""
    return any(c["id"] == card_id for c in p["front"])


def interleave(groups: list[list[dict]]) -> list[dict]:
    """One move of each kind first, then the second of each… so the first few cover every kind."""
    out = []
    for rank in range(max((len(g) for g in groups), default=0)):
        out += [g[rank] for g in groups if rank < len(g)]
    return out


def label(state: dict, action: dict) -> str:
    """The words on a button for ``action`` (the generic table screen shows them)."""
    kind = action["type"]
    p = state["p"][action["seat"]]

    def creature_name(card_id) -> str:
        for q in state["p"]:
            for pile in PILES:
                for c in q[pile]:
                    if c["id"] == card_id:
                        return arc.name(c["card"])
        return "?"

    if kind == "next":
        if state["phase"] == "discard":
            return "End the turn"
        to = action.get("to") or R.PHASES[R.PHASES.index(state["phase"]) + 1]
        return ("Skip to the " if action.get("to") else "On to the ") + R.PHASE_LABELS[to]
    if kind == "claim":
        if action["claim"] == "advantage":
            return f"Claim the {arc.DOMAIN_LABELS[action['domain']]} advantage"
        title = "Domination" if action["claim"] == "domination" else "Total Domination"
        gain = "1 VP" if action["claim"] == "domination" else "3 VP"
        return f"{title}: " + (gain if action["choice"] == "vp" else "the region's effect")
    if kind == "exhaust":
        what = "a card from hand" if action["discard"] == "hand" else creature_name(action["discard"])
        return f"Exhaust: discard {what}"
    if kind == "unassign":
        return f"Unassign {creature_name(action['card'])}"
    if kind == "assign":
        return f"Assign {creature_name(action['card'])}"
    if kind == "move":
        return f"Move {creature_name(action['card'])} to {R.PILE_LABELS[action['to']]}"
    if kind == "attack":
        return "Attack with " + ", ".join(creature_name(i) for i in action["attackers"])
    if kind == "block":
        return f"{creature_name(action['blocker'])} blocks {creature_name(action['attacker'])}"
    if kind == "unblock":
        return f"{creature_name(action['blocker'])} stops blocking"
    if kind == "split":
        target = next((b for b, n in action["damage"].items() if n), None)
        if target is None:
            return f"{creature_name(action['attacker'])}: no damage to share"
        return f"{creature_name(action['attacker'])}: all damage to {creature_name(int(target))}"
    if kind == "target":
        what, _, rest = action["target"].partition(":")
        if what == "creature":
            return f"Onto {creature_name(int(rest))}"
        seat, area = rest.split(":")
        where = {"front": "Front", "kingdom": "Kingdom", "region": "region"}.get(area) or arc.DOMAIN_LABELS[area]
        return f"Onto {R.who(state, int(seat))}'s {where}"
    if kind in ("unequip", "give", "pickup"):
        names = {"unequip": "Discard equipment from", "give": "Give equipment to", "pickup": "Pick up with"}
        holder = creature_name(action["to"]) if kind != "unequip" else next(
            (arc.name(c["card"]) for pile in PILES for c in p[pile] if any(e["id"] == action["equipment"] for e in c["equip"])), "?")
        if kind == "give" and state.get("reassign_cost", "printed") == "printed":
            eq = next((e for pile in PILES for c in p[pile] for e in c["equip"] if e["id"] == action["equipment"]),
                      None)
            cost = arc.cost(eq["card"]) if eq is not None else None
            if cost:
                return f"{names[kind]} {holder} ({cost} gold)"
        return f"{names[kind]} {holder}"
    if kind in ("play", "resource", "enter", "region"):
        verb = {"play": "Play", "resource": "Into the vault:", "region": "Chapter:", "enter": "Enter"}[kind]
        text = f"{verb} {arc.name(action['card'])}"
        return text + (f" into {R.PILE_LABELS[action['to']]}" if kind == "enter" else "")
    fixed = {"mulligan": "Mulligan", "draw": "Draw a card", "blocks_done": "Done blocking", "resolve": "Resolve combat",
             "discard": "Discard a card", "discard_region": "Discard the active region", "end_game": "End the game",
             "ready": "Ready", "cancel": "Take the card back", "spend": f"Spend {action.get('amount', 1)} gold"}
    return fixed.get(kind, kind.replace("_", " ").capitalize())


def placeable(state: dict, groups: list[list[dict]]) -> list[list[dict]]:
    """The groups without vault moves of a card already in that vault.

    Legal, but the simulated table (one virtual tag per card) cannot put a second
    copy where one lies, and the vault is face down, so the move cannot go
    through the screen either without telling what lies there: random play skips it.
    """
    out = []
    for group in groups:
        if group[0]["type"] == "resource":
            in_vault = {r["card"] for r in state["p"][group[0]["seat"]]["vault"]}
            group = [a for a in group if a["card"] not in in_vault]
        if group:
            out.append(group)
    return out
