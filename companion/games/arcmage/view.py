"""What each screen may see of an Arcmage game.

Face down: the vault's resource cards and the chapter's regions under the
active one.  Their owner sees them; the opponent and the shared screen
(``seat=None``) see ``{"hidden": True}`` in their place and counts only.
"""
from __future__ import annotations

from companion.engine import counter
from companion.games.arcmage import cards as arc
from companion.games.arcmage import skeleton as R
from companion.games.arcmage.cards import DOMAIN_LABELS, DOMAINS
from companion.games.arcmage.state import attack_of, defence_of, domain_points, gold_available
from companion.words import counted

HIDDEN = {"hidden": True}


def creature_view(c: dict, top: bool = True) -> dict:
    return {"id": c["id"], "card": c["card"], "name": arc.name(c["card"]),
            "atk": attack_of(c), "def": defence_of(c), "damage": c["damage"], "cost": c["cost"],
            "marked": c["marked"], "assigned": c["assigned"], "top": top,
            "equipment": [{"id": e["id"], "card": e["card"], "name": arc.name(e["card"])} for e in c["equip"]],
            "spells": [{"id": s["id"], "card": s["card"], "name": arc.name(s["card"])} for s in c["spells"]],
            "adjust": [f"card.{c['id']}.atk", f"card.{c['id']}.def", f"card.{c['id']}.damage"]}


def domain_faction(p: dict, domain: str) -> str | None:
    """The faction holding ``domain`` ("Gaian"), or None while it is open to any (RULINGS: one
    faction per domain at a time, cards without a faction fit anywhere)."""
    return next((arc.faction_label(f) for c in p[domain] if (f := arc.card(c["card"]).attrs.get("faction"))), None)


def awaiting(state: dict) -> tuple[int | None, str | None]:
    """(seat expected to act, what the screen waits for)."""
    if state["result"] is not None:
        return None, None
    phase = state["phase"]
    if phase == "setup":
        waiting = [n for n in (0, 1) if not state["p"][n]["ready"]]
        return (waiting[0] if waiting else None), "scan"
    if phase == "fallen":
        return state["active"], "confirm"
    if state["pending"] is not None:
        return state["pending"]["seat"], "choice"
    combat = state["combat"]
    if combat is not None:
        if combat["step"] == "block":
            return 1 - combat["seat"], "choice"
        return combat["seat"], "confirm"
    if phase in ("play1", "play2", "entrance"):
        return state["active"], "scan"
    if phase in ("tactical", "draw", "move1", "move2"):
        return state["active"], "choice"
    return state["active"], "confirm"


def phase_label(state: dict) -> str:
    phase = state["phase"]
    if phase in ("setup", "over"):
        return R.PHASE_LABELS[phase]
    if phase == "fallen":
        names = " and ".join(R.who(state, n) for n in state["fallen"])
        return (f"{names} lost the last region. Apply any effect of this same turn (adjust HP), "
                "then end the game.")
    seat = state["active"]
    p = state["p"][seat]
    text = f"Turn {state['turn']}, {R.who(state, seat)} — {R.PHASE_LABELS[phase]}"
    combat = state["combat"]
    if state["pending"] is not None:
        return text + f": choose the target of {arc.name(state['pending']['card'])}"
    if combat is not None:
        if combat["step"] == "block":
            return text + f": {R.who(state, 1 - seat)} chooses blockers, then presses Done"
        return text + ": split damage among several blockers if you like, then resolve"
    hints = {
        "unmark": "unassign if you like" + (", or mulligan" if p["mulligan"] else ""),
        "upkeep": "pay upkeep costs cards ask for",
        "tactical": "claim advantages or domination",
        "draw": f"draw 1 or 2 (drawn {p['drawn']})" + ("" if p["exhausted"] else "; exhaust for a third"),
        "play1": "play cards, put one card into the vault",
        "play2": "play cards, put one card into the vault",
        "move1": "move one creature or attack",
        "move2": "move one creature or attack",
        "entrance": "put creatures into the Front or a domain",
        "discard": f"discard down to {R.HAND_LIMIT} (hand: {p['hand']})",
    }
    return text + ": " + hints[phase]


def view(rules, state: dict, seat: int | None) -> dict:
    over = state["result"] is not None
    actor, wait = awaiting(state)
    counters, zones, players = [], {}, []
    for n in (0, 1):
        p = state["p"][n]
        mine = seat == n
        started = state["phase"] != "setup"
        region = p["chapter"][0] if p["chapter"] and started else None
        counters += [
            counter(f"{n}.vp", n, "Victory points", p["vp"]),
            counter(f"{n}.hp", n, "Region HP", region["hp"] if region else 0, adjustable=region is not None),
            counter(f"{n}.hand", n, "Cards in hand", p["hand"]),
            counter(f"{n}.deck", n, "Cards in deck", p["deck"]),
            counter(f"{n}.gold", n, "Gold produced", p["gold"]),
        ]
        zones[f"{n}.front"] = {"cards": [c["card"] for c in p["front"]],
                               "summary": f"{counted(len(p['front']), 'creature')} in the Front"}
        for d in DOMAINS:
            zones[f"{n}.{d}"] = {"cards": [c["card"] for c in p[d]],
                                 "summary": f"{DOMAIN_LABELS[d]}: {counted(len(p[d]), 'servant')}, "
                                            f"{domain_points(p, d)} domain points"}
        if mine:
            chapter_cards = [r["card"] for r in p["chapter"]]
        else:
            chapter_cards = ([region["card"]] if region else []) + [HIDDEN] * (len(p["chapter"]) - (1 if region else 0))
        zones[f"{n}.region"] = {"cards": chapter_cards,
                                "summary": (f"{arc.name(region['card'])}: {region['hp']} HP; " if region else "")
                                           + f"{len(p['chapter'])} region{'' if len(p['chapter']) == 1 else 's'} left"}
        zones[f"{n}.vault"] = {"cards": [r["card"] if mine else HIDDEN for r in p["vault"]],
                               "summary": f"{counted(len(p['vault']), 'card')} face down, "
                                          f"{sum(1 for r in p['vault'] if not r['marked'])} unmarked"}
        pend = state["pending"]
        zones[f"{n}.handoff"] = {"cards": [pend["card"]] if pend and pend["seat"] == n else [],
                                 "summary": "waiting for a target" if pend and pend["seat"] == n else "empty"}
        players.append(_player_detail(state, n, mine))
    detail = {"players": players, "vp_target": state["vp_target"], "turn": state["turn"],
              "combat": _combat_detail(state), "pending": state["pending"],
              "targets": rules.targets(state) if state["pending"] else [],
              "tactical": _tactical_detail(state) if state["phase"] == "tactical" else None,
              "fallen": list(state["fallen"])}
    return {"game": rules.name, "active_seat": actor, "phase": state["phase"], "phase_label": phase_label(state),
            "awaiting": wait, "counters": counters, "zones": zones, "over": over,
            "result": state["result"], "players": list(state["names"]), "detail": detail}


def _player_detail(state: dict, n: int, mine: bool) -> dict:
    p = state["p"][n]
    started = state["phase"] != "setup"
    region = p["chapter"][0] if p["chapter"] and (started or mine) else None
    region_card = arc.card(region["card"]) if region else None
    return {
        "name": R.who(state, n), "vp": p["vp"], "hand": p["hand"], "deck": p["deck"],
        "gold": gold_available(p), "gold_produced": p["gold"],
        "vault": {"cards": len(p["vault"]), "unmarked": sum(1 for r in p["vault"] if not r["marked"]),
                  "resources": [{"id": r["id"], "marked": r["marked"], **({"card": r["card"]} if mine else {})}
                                for r in p["vault"]]},
        "region": None if region is None else {
            "id": region["id"], "card": region["card"], "name": region_card.name, "hp": region["hp"],
            "printed_hp": region_card.attrs.get("hp"), "advantage": region_card.attrs.get("advantage", {}),
            "domination": region_card.attrs.get("domination"),
            "total_domination": region_card.attrs.get("total_domination")},
        "regions_left": len(p["chapter"]),
        "front": [creature_view(c) for c in p["front"]],
        "domains": {d: {"points": domain_points(p, d), "faction": domain_faction(p, d),
                        "servants": [creature_view(c, i == len(p[d]) - 1) for i, c in enumerate(p[d])]}
                    for d in DOMAINS},
        "grave": {"cards": len(p["grave"]), "top": next((g for g in reversed(p["grave"]) if g), None)},
        "dropped": [{"id": e["id"], "card": e["card"], "name": arc.name(e["card"])} for e in p["dropped"]],
        "spells": [{"id": s["id"], "card": s["card"], "name": arc.name(s["card"]), "on": s["on"]} for s in p["spells"]],
        "removed": len(p["removed"]),
        "mulligan_available": p["mulligan"] and started and state["active"] == n and state["phase"] == "unmark",
        "drawn": p["drawn"], "exhausted": p["exhausted"], "resourced": p["resourced"],
        "moved": p["moved"] is not None, "attacked": p["attacked"] is not None, "claims": list(p["claims"]),
        "ready": p["ready"],
    }


def _combat_detail(state: dict) -> dict | None:
    combat = state["combat"]
    if combat is None:
        return None
    return {"attacker_seat": combat["seat"], "attackers": list(combat["attackers"]),
            "blocks": {k: list(v) for k, v in combat["blocks"].items()},
            "split": combat["split"], "step": combat["step"]}


def _tactical_detail(state: dict) -> dict:
    seat = state["active"]
    t = R.tactical(state, seat)
    won = t["won"]
    return {"points": t["points"], "won": won,
            "can_claim": {"advantage": won, "domination": len(won) >= 2, "total_domination": len(won) == 3},
            "claimed": list(state["p"][seat]["claims"])}
