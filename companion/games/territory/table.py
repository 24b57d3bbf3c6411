"""Territory on the table: its zones, what a scan means, and what each seat may see.

Zones (one pad each in the default profile, ``firmware_config/tables/territory.toml``)::

    0.land1 … 0.land5   North's pile in front of land 1 … 5 (several cards on one pad)
    1.land1 … 1.land5   South's piles
    0.ready, 1.ready    each player's ready pile: scan the deck here before the game
    land_deck           scan each land as it is dealt; it goes to the first empty place

Face-down creatures are hidden from the other seat and from the shared screen
(``view(state, None)``) until their land is fought (or until one is turned
face up to use an ability): not their id, not their name, not their power; only
how many cards lie on the pile, which the table shows anyway.
"""
from __future__ import annotations

from companion.engine import Action, IllegalAction, State, Zone, counter

from .catalogue import CATALOGUE, CREATURES, FINAL_COST, LANDS, STARS, name
from .rules import LAND_DECK_ZONE, NOT_IN_GAME, SLOTS, land_zone, ready_zone, refusal


def zones(options: dict) -> list[Zone]:
    players = (options or {}).get("players", ["North", "South"])
    out = [Zone(land_zone(s, i), f"{players[s]} at land {i + 1}", s, stack=True)
           for s in (0, 1) for i in range(SLOTS)]
    out += [Zone(ready_zone(s), f"{players[s]}'s ready pile", s, stack=True) for s in (0, 1)]
    out.append(Zone(LAND_DECK_ZONE, "Land deck (scan each land as it is dealt)", None))
    return out


def parse_zone(zone: str) -> tuple[str, int | None, int | None]:
    """("land", seat, slot) / ("ready", seat, None) / ("land_deck", None, None)."""
    if zone == LAND_DECK_ZONE:
        return "land_deck", None, None
    seat_text, _, rest = zone.partition(".")
    if seat_text in ("0", "1"):
        seat = int(seat_text)
        if rest == "ready":
            return "ready", seat, None
        if rest.startswith("land") and rest[4:].isdigit() and 1 <= int(rest[4:]) <= SLOTS:
            return "land", seat, int(rest[4:]) - 1
    raise IllegalAction(f"{zone!r} is not a zone of Creature Combat Territory "
                        "(0.land1 … 1.land5, 0.ready, 1.ready, land_deck)")


def interpret(rules, state: State, zone: str, card_id: str, present: bool) -> Action | None:
    kind, seat, slot = parse_zone(zone)
    phase = state["phase"]
    players = rules.players(state)
    if card_id not in CREATURES and card_id not in LANDS:
        raise IllegalAction(f"{card_id} is not a card of the Territory catalogue; add it on the Cards screen")
    if not rules.in_game(state, card_id):
        raise IllegalAction(NOT_IN_GAME.format(name(card_id)))
    if phase == "over":
        return None
    if kind == "land_deck":
        if not present:
            return None
        if card_id in CREATURES:
            raise IllegalAction(f"{name(card_id)} is a creature: deploy it on one of your land pads "
                                "(or scan it on your ready pad before the game)")
        if phase != "deal":
            raise IllegalAction(f"{name(card_id)}: lands are dealt when a round begins and a land's place is empty; "
                                "put it back on the land deck")
        return {"type": "deal", "land": card_id}
    if card_id in LANDS:
        raise IllegalAction(f"{name(card_id)} is a land: scan it on the land-deck pad when you deal it")
    owner = rules.owner(state, card_id)
    # From here the card is a creature on a seat's pad: a ready pile (hidden from the other seat) or a land
    # pile (face down until its land is fought).  A refusal names it only to that seat (rules.refusal).
    label = name(card_id)
    if kind == "ready":
        if not present:
            return None
        mine = f"The card on {players[seat]}'s ready pad"
        if phase == "register":
            if owner == seat:
                return None
            if owner is not None:
                raise refusal(f"{label} is already in {players[owner]}'s deck",
                              f"{mine} is already in {players[owner]}'s deck", owner)
            room = state["options"]["deck_budget"] - sum(FINAL_COST[c] for c in state["decks"][seat])
            if FINAL_COST[card_id] > room:
                raise refusal(f"{label} costs {FINAL_COST[card_id]}: {players[seat]}'s deck would cost "
                              f"{state['options']['deck_budget'] - room + FINAL_COST[card_id]}, over the agreed "
                              f"{state['options']['deck_budget']}",
                              f"{mine} would take {players[seat]}'s deck over the agreed budget", seat)
            return {"type": "register", "seat": seat, "creature": card_id}
        if owner is None:
            raise refusal(f"{label} was not registered in either deck; decks are fixed once the game has started",
                          f"{mine} was not registered in either deck; decks are fixed once the game has started",
                          seat)
        if owner != seat:
            raise refusal(f"{label} is {players[owner]}'s creature: it goes on {players[owner]}'s side",
                          f"{mine} is {players[owner]}'s creature: it goes on {players[owner]}'s side", owner)
        at = rules.where(state, seat, card_id)
        if at[0] == "resting":
            raise refusal(f"{label} still has {at[1]} Rest counter{'s' if at[1] > 1 else ''}: it belongs on the "
                          f"resting pile of {at[1]}, not the ready pile",
                          f"{mine} is resting: it belongs on its resting pile, not the ready pile", seat)
        if at[0] == "removed":
            raise refusal(f"{label} was sacrificed and is out of the game",
                          f"{mine} was sacrificed and is out of the game", seat)
        return None
    # a land pad
    entry = state["slots"][slot]
    here = entry is not None and any(r["id"] == card_id for r in entry["piles"][seat])
    if not present:
        if phase == "deploy" and here:
            return {"type": "undeploy", "seat": seat, "creature": card_id}
        return None                       # lifted to flip, or pulled back at round end
    if here:
        return _turned_up(rules, state, seat, slot, card_id)
    mine = f"The card on {players[seat]}'s pad at land {slot + 1}"
    knows = owner if owner is not None else seat
    if phase != "deploy":
        back = "take it back to your ready pile" if owner == seat else "take it off the pad"
        raise refusal(f"{label}: creatures are deployed in the Deploy phase only; {back}",
                      f"{mine}: creatures are deployed in the Deploy phase only; {back}", knows)
    if entry is None:
        raise refusal(f"no land lies at place {slot + 1} (the land deck is empty): deploy {label} at another land",
                      f"no land lies at place {slot + 1} (the land deck is empty): deploy that card at another land",
                      knows)
    if card_id not in state["ready"][seat]:
        raise rules._not_ready(state, seat, card_id, slot)
    return {"type": "deploy", "seat": seat, "creature": card_id, "slot": slot}


def _turned_up(rules, state: State, seat: int, slot: int, card_id: str) -> Action | None:
    """A deployed creature lifted and put back on its pad: during combat, at a land not revealed yet, and with
    an ability it could use now, that is its owner turning it face up to use the ability (the shared screen
    offers no button for a face-down creature); anything else is a card lifted to flip or to read."""
    if state["phase"] != "combat" or slot <= state["battle"]:
        return None
    rec = next(r for r in state["slots"][slot]["piles"][seat] if r["id"] == card_id)
    if rec["shown"] or not any(r is rec for _, r, _, _, _ in rules.usable(state, seat)):
        return None
    return {"type": "show", "seat": seat, "creature": card_id}


def scan_for(state: State, action: Action) -> tuple[str, str] | None:
    kind = action.get("type")
    if kind == "deploy":
        return land_zone(action["seat"], action["slot"]), action["creature"]
    if kind == "deal":
        return LAND_DECK_ZONE, action["land"]
    if kind == "register":
        return ready_zone(action["seat"]), action["creature"]
    return None


def confirm_action(rules, state: State, seat: int) -> Action | None:
    """The confirm button: done (register, deploy, pass at a land) or accept the proposed recovery."""
    phase = state["phase"]
    if phase in ("register", "deploy", "combat") and not state["done"][seat]:
        if phase == "register" and not state["decks"][seat]:
            return None
        return {"type": "done", "seat": seat}
    if phase == "recover" and not state["done"][seat]:
        return {"type": "recover", "seat": seat, "uses": rules.default_recovery(state, seat)}
    return None


# ---------------------------------------------------------------- view
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
