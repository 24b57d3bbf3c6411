"""Creature Combat Territory: what each seat and the shared screen may see.

Creatures deployed face down stay hidden from the other seat and the table until their land is
fought (Rules, Combat 1); the piles show ``{"hidden": True}`` in their place.
"""
from __future__ import annotations

from companion.engine import Action, State, counter

from .catalogue import CATALOGUE, CREATURES, FINAL_COST, LANDS, STARS, name
from .table import LAND_DECK_ZONE, land_zone, ready_zone


def is_revealed(state: State, slot: int) -> bool:
    """Rules, Combat 1: a land's creatures are revealed when that land is fought."""
    return state["phase"] == "combat" and state["battle"] is not None and slot <= state["battle"]


def _creature_entry(rec: dict) -> dict:
    c = CREATURES[rec["id"]]
    return {"id": rec["id"], "name": c.label, "stars": STARS[rec["id"]], "base_power": c.base_power,
            "damage": rec["dmg"] + rec["exh"],
            "rest": rec["rest"], "support": rec["support"], "sacrificed": rec["sac"],
            "base": rec["base"], "power": rec["power"]}


def _pile_summary(pile: list[dict], shown: list, fought: bool) -> str:
    if not pile:
        return "empty"
    hidden = sum(1 for s in shown if isinstance(s, dict) and s.get("hidden"))
    if hidden:
        return f"{len(pile)} card{'s' if len(pile) > 1 else ''} ({hidden} hidden)"
    if fought:
        return " + ".join(f"{CREATURES[r['id']].name} {r['power']}" for r in pile) + \
            f" = {sum(r['power'] for r in pile)}"
    return ", ".join(CREATURES[r["id"]].name for r in pile)


def _phase_label(rules, state: State) -> tuple[str, str | None, int | None]:
    players = rules.players(state)
    phase = state["phase"]
    waiting = [s for s in (0, 1) if not state["done"][s]]
    active = waiting[0] if len(waiting) == 1 else None
    who = f" (waiting for {players[active]})" if active is not None else ""
    if phase == "register":
        # costs stay private while decks are built: a cost going up by 13 could name the card
        parts = [f"{players[s]} {len(state['decks'][s])}" for s in (0, 1)]
        return (f"Scan your creature decks on your ready pads (creatures: {', '.join(parts)}), then press "
                f"done{who}", "scan", active)
    if phase == "deal":
        slot = state["slots"].index(None)
        return (f"Round {state['round']}: deal land {slot + 1} — scan it on the land-deck pad "
                f"({state['land_deck']} left)", "scan", None)
    if phase == "deploy":
        return f"Round {state['round']}: deploy creatures face down, then touch Done{who}", "scan", active
    if phase == "combat":
        slot = state["battle"]
        land = LANDS[state["slots"][slot]["land"]]
        # a face-down creature's ability has no button (it would name the card): say how to turn it up
        hint = any(sl > slot and not rec["shown"] for s in waiting for sl, rec, _, _, _ in rules.usable(state, s))
        return (f"Round {state['round']}, land {slot + 1} ({land.name}): use activated abilities or pass{who}"
                + (" (to use a face-down creature's ability, lift it and put it back)" if hint else ""),
                "choice", active)
    if phase == "recover":
        return (f"Round {state['round']} ends: choose which Rest counters your lands remove{who}", "choice", active)
    result = rules.result(state)
    winner = result["winner"]
    text = f"{players[winner]} wins" if winner is not None else "A draw"
    return f"{text}: {result['reason']}", None, None


def view(rules, state: State, seat: int | None) -> dict:
    players = rules.players(state)
    biomes = CATALOGUE.biomes
    phase = state["phase"]
    zones_view: dict[str, dict] = {}
    lands = []
    for i, entry in enumerate(state["slots"]):
        if entry is None:
            for s in (0, 1):
                zones_view[land_zone(s, i)] = {"cards": [], "summary": "no land"}
            lands.append(None)
            continue
        land = LANDS[entry["land"]]
        revealed = is_revealed(state, i)
        piles = []
        for s in (0, 1):
            pile = entry["piles"][s]
            visible = revealed or seat == s
            # a creature turned face up to use an ability is seen by everybody
            seen = [visible or r.get("shown", False) for r in pile]
            shown = [r["id"] if v else {"hidden": True} for r, v in zip(pile, seen)]
            zones_view[land_zone(s, i)] = {"cards": shown,
                                           "summary": _pile_summary(pile, shown, entry["fought"] and visible)}
            piles.append([_creature_entry(r) if v else {"hidden": True} for r, v in zip(pile, seen)])
        lands.append({"slot": i, "land": land.id, "name": land.name, "biome": biomes.label(land.biome),
                      "plays_as": land.plays_as, "passive": land.passive_text(), "piles": piles,
                      "revealed": revealed, "fought": entry["fought"], "winner": entry["winner"],
                      "totals": [sum(r["power"] for r in entry["piles"][s]) for s in (0, 1)]
                      if entry["fought"] else None})
    ready_view, resting_view, decks_view = [], [], []
    for s in (0, 1):
        ready = state["ready"][s]
        own = seat == s
        zones_view[ready_zone(s)] = {"cards": list(ready) if own else [{"hidden": True}] * len(ready),
                                     "summary": f"{len(ready)} ready"}
        ready_view.append([{"id": c, "name": name(c)} for c in ready] if own else len(ready))
        piles: dict[int, list] = {}
        for cid, n in state["resting"][s].items():
            piles.setdefault(n, []).append({"id": cid, "name": name(cid)})
        resting_view.append([{"rest": n, "creatures": piles[n]} for n in sorted(piles)])
        deck = state["decks"][s]
        deck_view = {"count": len(deck), "budget": state["options"]["deck_budget"]}
        if own:
            deck_view.update(cost=sum(FINAL_COST[c] for c in deck), creatures=list(deck))
        decks_view.append(deck_view)
    zones_view[LAND_DECK_ZONE] = {"cards": [], "summary": f"{state['land_deck']} lands left"}
    phase_label, awaiting, active = _phase_label(rules, state)
    counters = [counter(f"lands.{s}", s, "Lands", len(state["claimed"][s]), adjustable=False) for s in (0, 1)]
    counters.append(counter("land_deck", None, "Land deck", state["land_deck"]))
    for s in (0, 1):
        counters += [counter(f"rest.{cid}", s, f"Rest: {CREATURES[cid].name}", n)
                     for cid, n in state["resting"][s].items()]
    leader = rules.early_end_leader(state) if phase not in ("register", "over") else None
    detail = {
        "round": state["round"], "lands": lands, "land_deck": state["land_deck"],
        "claimed": [[{"id": l, "name": LANDS[l].name, "passive": LANDS[l].passive_text()} for l in c]
                    for c in state["claimed"]],
        "ready": ready_view, "resting": resting_view,
        "removed": [[{"id": c, "name": name(c)} for c in r] for r in state["removed"]],
        "decks": decks_view, "done": list(state["done"]), "battle": state["battle"],
        "early_end": {"available": leader is not None, "leader": leader, "agreed": list(state["agree_end"])},
        "last_battles": [b for b in state["battles"] if b["round"] == state["round"]],
    }
    if phase == "combat":
        # what the land being fought would give if both passed now (the screen shows it while players decide)
        detail["live_totals"] = rules.totals_if_fought_now(state)
    if seat is not None:
        detail["activations"] = [dict(a, label=_activation_label(rules, state, a))
                                 for a in rules.activations(state, seat)] if not state["done"][seat] else []
        if phase == "recover" and not state["done"][seat]:
            proposal = rules.default_recovery(state, seat)
            detail["recovery_proposal"] = [{"land": i, "land_name": LANDS[state["claimed"][seat][i]].name,
                                            "creature": c, "creature_name": name(c)} for i, c in proposal]
    return {
        "game": rules.name, "players": players, "phase": phase, "phase_label": phase_label,
        "active_seat": active, "awaiting": awaiting, "over": rules.is_over(state),
        "result": rules.result(state) if rules.is_over(state) else None,
        "counters": counters, "zones": zones_view, "detail": detail,
    }


def _activation_label(rules, state: State, action: Action) -> str:
    ability = CREATURES[action["creature"]].abilities[action["ability"]]
    at = rules.where(state, action["seat"], action["creature"])
    text = f"{CREATURES[action['creature']].name}"
    if at[0] == "deployed" and at[1] != state["battle"]:
        text += f" (land {at[1] + 1})"
    text += f": {ability.text()}"
    if "target" in action:
        text += f" → {name(action['target'])}"
    return text


class TerritoryView:
    """The view part of :class:`~.rules.TerritoryRules`."""

    def view(self, state: State, seat: int | None) -> dict:
        return view(self, state, seat)

    def totals_if_fought_now(self, state: State) -> list[int]:
        """The totals the land being fought would give if both players passed now."""
        after, _ = self._resolve(state.copy(), [])      # _resolve changes the copy it is given
        return next(b for b in reversed(after["battles"])
                    if b["slot"] == state["battle"] and b["round"] == state["round"])["totals"]
