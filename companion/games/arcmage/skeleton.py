"""The Original Rules Concept's skeleton: turns, phases, gold, domains, combat, regions, victory.

Card texts may override any rule, so the companion does not try to automate
them: it keeps the skeleton exact and lets players make logged manual
adjustments for what a card says (see ``adjust``, ``set_mark``, ``destroy``).

A turn is ten phases (rules text, "Turn Structure")::

    unmark → upkeep → tactical → draw → play1 → move1 → play2 → move2 → entrance → discard

``{"type": "next", "seat": s}`` moves on one phase; ``"to": phase`` skips the
optional ones (play, move/attack, entrance) in between.  Every other action is
documented at its ``_do_<type>`` method below; ``legal_actions`` lists them.
"""
from __future__ import annotations

from companion.engine import IllegalAction, Rng, event
from companion.games.arcmage import cards as arc
from companion.games.arcmage.cards import DOMAINS, DOMAIN_LABELS
from companion.games.arcmage.state import (PILES, Edit, attack_of, defence_of, domain_points, find,
                                           gold_available, new_player)

MAIN_DECK = 60
START_HAND = 7
HAND_LIMIT = 7
PHASES = ("unmark", "upkeep", "tactical", "draw", "play1", "move1", "play2", "move2", "entrance", "discard")
OPTIONAL = {"play1", "move1", "play2", "move2", "entrance"}
PHASE_LABELS = {
    "setup": "Setup: put your regions (your chapter) on your region pad, then press Ready",
    "unmark": "Unmark/Unassign phase", "upkeep": "Upkeep phase", "tactical": "Tactical phase",
    "draw": "Draw phase", "play1": "Play phase", "move1": "Move or Attack phase",
    "play2": "Second Play phase", "move2": "Second Move or Attack phase",
    "entrance": "Entrance phase", "discard": "Discard phase",
    "fallen": "A last region has fallen", "over": "Game over",
}
PILE_LABELS = {"front": "the Front", **{d: f"the {DOMAIN_LABELS[d]} domain" for d in DOMAINS}}


def who(state: dict, seat: int) -> str:
    return state["names"][seat]


def card_label(c: dict) -> str:
    """"Elf Druid (2/3)" for a creature in play, with equipment bonuses and damage."""
    text = f"{arc.name(c['card'])} ({attack_of(c)}/{defence_of(c)})"
    if c.get("damage"):
        text += f" with {c['damage']} damage"
    return text


def new_game(options: dict, seed: int) -> dict:
    return {
        "rng": Rng(seed).state,
        "vp_target": int(options["vp_target"]),
        "mixed_blockers": bool(options["mixed_blockers"]),
        "reassign_cost": options["reassign_cost"],
        "names": list(options["players"]),
        "turn": 0, "active": 0, "phase": "setup",
        "combat": None, "pending": None, "fallen": [], "resume": None,
        "next_id": 1, "result": None, "battles": [],
        "p": [new_player(MAIN_DECK - START_HAND, START_HAND) for _ in (0, 1)],
    }


# ---------------------------------------------------------------------------
# Phases and turns
# ---------------------------------------------------------------------------

def begin_turn(e: Edit, seat: int, events: list) -> None:
    """Unmark/Unassign phase: the player's marked cards unmark; assigned ones stay."""
    s = e.s
    s["active"], s["turn"], s["phase"] = seat, s["turn"] + 1, "unmark"
    p = e.p(seat)
    for pile in PILES:
        if any(c["marked"] or c["locked"] for c in p[pile]):
            e.lst(seat, pile)
            p[pile] = [dict(c, marked=False, locked=False) if (c["marked"] or c["locked"]) else c for c in p[pile]]
    if any(r["marked"] for r in p["vault"]):
        p["vault"] = [dict(r, marked=False) if r["marked"] else r for r in p["vault"]]
    p.update(drawn=0, exhausted=False, resourced=False, moved=None, attacked=None, claims=[])
    events.append(event("turn", f"Turn {s['turn']}: {who(s, seat)}'s turn. Their cards unmark.",
                        seat=seat, turn=s["turn"]))


def enter_phase(e: Edit, phase: str, events: list) -> None:
    s = e.s
    seat = s["active"]
    s["phase"] = phase
    p = e.p(seat)
    if p["mulligan"] and phase != "unmark":
        p["mulligan"] = False                  # kept the hand and proceeded: no mulligan later
    events.append(event("phase", f"{who(s, seat)}: {PHASE_LABELS[phase]}", seat=seat, phase=phase))
    if phase == "draw" and p["deck"] == 0:
        finish(e, 1 - seat, f"{who(s, seat)} cannot draw: their deck is empty", events, how="deck_out")


def end_turn(e: Edit, events: list) -> None:
    """Damage on creatures heals, dropped equipment goes to the grave, unused gold is lost."""
    s = e.s
    for seat in (0, 1):
        p = e.p(seat)
        for pile in PILES:
            if any(c["damage"] or c["locked"] for c in p[pile]):
                # damage heals; an unassign's "not again this turn" ends with the turn
                e.lst(seat, pile)
                p[pile] = [dict(c, damage=0, locked=False) if (c["damage"] or c["locked"]) else c for c in p[pile]]
        if p["dropped"]:
            e.lst(seat, "grave").extend(x["card"] for x in p["dropped"])
            events.append(event("dropped", f"{who(s, seat)} discards {len(p['dropped'])} dropped equipment nobody picked up.",
                                seat=seat))
            p["dropped"] = []
        p["gold"] = 0
    begin_turn(e, 1 - s["active"], events)


def finish(e: Edit, winner: int | None, reason: str, events: list, how: str = "") -> None:
    s = e.s
    vp = [s["p"][0]["vp"], s["p"][1]["vp"]]
    regions = [len(s["p"][0]["chapter"]), len(s["p"][1]["chapter"])]
    s["result"] = {"winner": winner, "reason": reason, "how": how, "vp": vp, "regions_left": regions,
                   "turn": s["turn"]}
    s["phase"] = "over"
    s["combat"] = s["pending"] = None
    text = f"{reason}. " + (f"{who(s, winner)} wins." if winner is not None else "The game is a draw.")
    events.append(event("game_over", text, winner=winner, reason=reason))


# ---------------------------------------------------------------------------
# Gold
# ---------------------------------------------------------------------------

def pay(e: Edit, seat: int, amount: int, what: str) -> None:
    """Mark unmarked resources in the vault (after any gold already produced) to pay ``amount``."""
    if amount <= 0:
        return
    p = e.s["p"][seat]
    have = gold_available(p)
    if have < amount:
        raise IllegalAction(f"{what} costs {amount} gold; {who(e.s, seat)} has {have} "
                            f"({sum(1 for r in p['vault'] if not r['marked'])} unmarked resources in the vault"
                            + (f" + {p['gold']} gold produced" if p["gold"] else "") + ").")
    p = e.p(seat)
    from_pool = min(p["gold"], amount)
    p["gold"] -= from_pool
    left = amount - from_pool
    if left:
        vault = e.lst(seat, "vault")
        for i, r in enumerate(vault):
            if left and not r["marked"]:
                vault[i] = dict(r, marked=True)
                left -= 1


def printed_cost(card_id: str, action: dict) -> int:
    """The cost to pay: the printed number; the action's ``cost`` only for an X or T cost, which the card text
    defines.  A card whose text lowers a printed cost is paid with a logged gold adjustment first."""
    value = arc.cost(card_id)
    if "cost" in action:
        given = action["cost"]
        if isinstance(given, bool) or not isinstance(given, int) or given < 0:
            raise IllegalAction(f"A cost must be a whole number of gold, not {given!r}.")
        if value is not None and given != value:
            raise IllegalAction(f"{arc.name(card_id)} costs {value} gold as printed. If a card text lets you pay "
                                "less, add the difference to your gold with an adjustment first (it is logged).")
        return given
    if value is None:
        raise IllegalAction(f"{arc.name(card_id)} costs {arc.card(card_id).attrs.get('cost')}: "
                            "say how much gold on the screen.")
    return value


# ---------------------------------------------------------------------------
# Creatures and regions leaving play
# ---------------------------------------------------------------------------

def remove_creature(e: Edit, seat: int, pile: str, index: int, to: str, events: list, why: str) -> dict:
    """Take a creature out of play: to the grave (equipment dropped), hand, deck or out of the game."""
    c = e.lst(seat, pile).pop(index)
    p = e.p(seat)
    for sp in c["spells"]:                                  # spells never follow to hand or deck
        if to == "removed":
            e.lst(sp["owner"], "removed").append(sp["card"])
        else:
            e.lst(sp["owner"], "grave").append(sp["card"])
    if to == "grave":
        e.lst(seat, "grave").append(c["card"])
        if c["equip"]:
            e.lst(seat, "dropped").extend(c["equip"])
    elif to == "hand":
        p["hand"] += 1 + len(c["equip"])
    elif to == "deck":
        p["deck"] += 1
        e.lst(seat, "grave").extend(x["card"] for x in c["equip"])
    else:
        e.lst(seat, "removed").extend([c["card"]] + [x["card"] for x in c["equip"]])
    events.append(event("creature_left", why, seat=seat, card=c["card"], to=to))
    return c


def kill_if_dead(e: Edit, seat: int, card_id: int, events: list) -> bool:
    """Life & Death: dies when its damage reaches its DEF, or DEF drops to 0 or below."""
    where = find(e.s["p"][seat], card_id)
    if where is None:
        return False
    pile, i = where
    c = e.s["p"][seat][pile][i]
    d = defence_of(c)
    if d <= 0 or c["damage"] >= d:
        remove_creature(e, seat, pile, i, "grave", events,
                        f"{arc.name(c['card'])} of {who(e.s, seat)} dies ({c['damage']} damage, DEF {d}).")
        return True
    return False


def damage_region(e: Edit, seat: int, amount: int, events: list, source: str) -> None:
    p = e.p(seat)
    if not p["chapter"] or amount <= 0:
        return
    chapter = e.lst(seat, "chapter")
    region = dict(chapter[0], hp=chapter[0]["hp"] - amount)
    chapter[0] = region
    events.append(event("region_damage", f"{source} hits {arc.name(region['card'])} of {who(e.s, seat)} "
                                         f"for {amount}: {max(region['hp'], 0)} HP left.",
                        seat=seat, damage=amount, hp=region["hp"]))
    if region["hp"] <= 0:
        lose_region(e, seat, events, "is destroyed")


def lose_region(e: Edit, seat: int, events: list, how: str) -> None:
    """The active region goes to the grave; its draw symbol is honoured; the next one is revealed."""
    s = e.s
    chapter = e.lst(seat, "chapter")
    lost = chapter.pop(0)
    e.lst(seat, "grave").append(lost["card"])
    for caster in (0, 1):
        # RULINGS: a spell attached to a region goes to its owner's graveyard with the region
        on_it = [sp for sp in s["p"][caster]["spells"] if sp["on"] == [seat, "region"]]
        if on_it:
            e.p(caster)["spells"] = [sp for sp in s["p"][caster]["spells"] if sp["on"] != [seat, "region"]]
            e.lst(caster, "grave").extend(sp["card"] for sp in on_it)
            events.append(event("spell_gone", f"{', '.join(arc.name(sp['card']) for sp in on_it)} on "
                                              f"{arc.name(lost['card'])} goes to {who(s, caster)}'s grave with it.",
                                seat=caster, cards=[sp["card"] for sp in on_it]))
    p = e.p(seat)
    draws = min(int(arc.card(lost["card"]).attrs.get("draw_on_loss", 0)), p["deck"])
    p["deck"] -= draws
    p["hand"] += draws
    text = f"{arc.name(lost['card'])} of {who(s, seat)} {how}"
    if draws:
        text += f"; {who(s, seat)} draws {draws}"
    if chapter:
        nxt = chapter[0]
        events.append(event("region_lost", text + f". Next region revealed: {arc.name(nxt['card'])} ({nxt['hp']} HP).",
                            seat=seat, card=lost["card"], revealed=nxt["card"]))
        return
    events.append(event("region_lost", text + f": it was {who(s, seat)}'s last region.", seat=seat, card=lost["card"]))
    if seat not in s["fallen"]:
        s["fallen"] = s["fallen"] + [seat]
    if s["phase"] != "fallen":
        s["resume"] = s["phase"]
        s["phase"] = "fallen"


def faction_clash(p: dict, domain: str, card_id: str) -> str | None:
    """Why ``card_id`` may not join ``domain`` (RULINGS: one faction per domain at a time), or None.

    The text, "Faction combinations": "with only one faction being allowed in a domain at a time".  A card
    without a faction fits any domain.
    """
    faction = arc.card(card_id).attrs.get("faction")
    for c in p[domain]:
        other = arc.card(c["card"]).attrs.get("faction")
        if faction and other and other != faction:
            return (f"The {DOMAIN_LABELS[domain]} domain holds {arc.faction_label(other)} servants "
                    f"({arc.name(c['card'])}); {arc.name(card_id)} is {arc.faction_label(faction)}: only one "
                    "faction is allowed in a domain at a time.")
    return None


def gain_vp(e: Edit, seat: int, amount: int, events: list, why: str) -> None:
    p = e.p(seat)
    if p["vp"] + amount < 0:
        raise IllegalAction(f"{who(e.s, seat)} has {p['vp']} VP; it cannot go below 0.")
    p["vp"] += amount
    events.append(event("vp", f"{who(e.s, seat)} {why}: {p['vp']} VP.", seat=seat, vp=p["vp"]))
    if e.s["phase"] == "fallen":
        # RULINGS: once a last region has fallen only a simultaneous loss can change the outcome; VP count
        # only for that tie-break (end_fallen)
        return
    if amount > 0 and p["vp"] >= e.s["vp_target"]:
        finish(e, seat, f"{who(e.s, seat)} reaches {p['vp']} victory points (target {e.s['vp_target']})",
               events, how="victory_points")


def end_fallen(e: Edit, events: list) -> None:
    """Win condition 1 and its tie-break: all regions lost in the same turn → most VP, else a draw."""
    s = e.s
    fallen = s["fallen"]
    if len(fallen) == 1:
        loser = fallen[0]
        finish(e, 1 - loser, f"{who(s, loser)} has lost their last region", events, how="regions")
        return
    vp = [s["p"][0]["vp"], s["p"][1]["vp"]]
    if vp[0] == vp[1]:
        finish(e, None, f"Both players lost their last region in the same turn with {vp[0]} VP each", events,
               how="regions_tie")
    else:
        winner = 0 if vp[0] > vp[1] else 1
        finish(e, winner, f"Both players lost their last region in the same turn; "
                          f"{who(s, winner)} has more victory points ({vp[winner]} to {vp[1 - winner]})",
               events, how="regions_tie")


# ---------------------------------------------------------------------------
# Tactical phase
# ---------------------------------------------------------------------------

def tactical(state: dict, seat: int) -> dict:
    """Domain points of both players and what ``seat`` may claim now."""
    mine, theirs = state["p"][seat], state["p"][1 - seat]
    points = {d: [domain_points(mine, d), domain_points(theirs, d)] for d in DOMAINS}
    won = [d for d in DOMAINS if points[d][0] >= points[d][1] + 2]
    return {"points": points, "won": won}


# ---------------------------------------------------------------------------
# Combat
# ---------------------------------------------------------------------------

def default_split(attack: int, blockers: list[dict]) -> dict[str, int]:
    """The attacker's ATK shared out in block order: enough to kill each, the rest to the last."""
    split, left = {}, attack
    for n, b in enumerate(blockers):
        need = max(defence_of(b) - b["damage"], 0)
        give = left if n == len(blockers) - 1 else min(left, need)
        split[str(b["id"])] = give
        left -= give
    return split


def resolve_combat(e: Edit, events: list) -> None:
    """Resolve every attacker's combat in the order the attacking player announced them."""
    s = e.s
    combat = s["combat"]
    a_seat = combat["seat"]
    d_seat = 1 - a_seat
    battles = []
    for attacker_id in combat["attackers"]:
        where = find(s["p"][a_seat], attacker_id)
        if where is None:
            events.append(event("combat", "An attacker left play before its combat.", seat=a_seat))
            continue
        attacker = s["p"][a_seat][where[0]][where[1]]
        blocker_ids = combat["blocks"].get(str(attacker_id), [])
        name = arc.name(attacker["card"])
        if not blocker_ids:
            atk = max(attack_of(attacker), 0)
            damage_region(e, d_seat, atk, events, f"{name} ({atk}), unblocked,")
            events.append(event("battle_result", f"{name} is unblocked and hits the region for {atk}.",
                                winner=a_seat, outcome="win", zones=[f"{d_seat}.region"], damage=atk))
            battles.append({"turn": s["turn"], "attacker": attacker["card"], "blockers": [], "winner": a_seat,
                            "outcome": "win", "region_damage": atk})
            continue
        blockers = []
        for b_id in blocker_ids:
            b_where = find(s["p"][d_seat], b_id)
            if b_where is not None:
                blockers.append((b_where[0], s["p"][d_seat][b_where[0]][b_where[1]]))
        split = combat["split"].get(str(attacker_id)) or default_split(max(attack_of(attacker), 0),
                                                                        [b for _, b in blockers])
        strike_back = 0
        lines = []
        for pile, b in blockers:
            dealt = split.get(str(b["id"]), 0)
            i = find(s["p"][d_seat], b["id"])[1]
            hit = e.replace(d_seat, pile, i, damage=b["damage"] + dealt)
            dies = hit["damage"] >= defence_of(hit)
            lines.append(f"{name} ({dealt}) hits {arc.name(b['card'])} ({defence_of(b)} DEF): "
                         + ("dies" if dies else "survives"))
            if pile == "front":
                strike_back += attack_of(b)
        attacker_dies = False
        if strike_back:
            i = find(s["p"][a_seat], attacker_id)[1]
            hit = e.replace(a_seat, where[0], i, damage=attacker["damage"] + strike_back)
            attacker_dies = hit["damage"] >= defence_of(hit)
            lines.append(f"the Front strikes back for {strike_back}: {name} "
                         + ("dies" if attacker_dies else "survives"))
        elif blockers:
            lines.append("servants never strike back")
        dead_blockers = 0
        for _, b in blockers:
            dead_blockers += kill_if_dead(e, d_seat, b["id"], events)
        kill_if_dead(e, a_seat, attacker_id, events)
        if attacker_dies and not dead_blockers:
            winner, outcome = d_seat, "win"
        elif dead_blockers and not attacker_dies:
            winner, outcome = a_seat, "win"
        else:
            winner, outcome = None, "tie" if attacker_dies else "draw"
        zones = sorted({f"{d_seat}.{pile}" for pile, _ in blockers} | {f"{a_seat}.front"})
        events.append(event("battle_result", "; ".join(lines) + ".", winner=winner, outcome=outcome, zones=zones))
        battles.append({"turn": s["turn"], "attacker": attacker["card"], "blockers": [b["card"] for _, b in blockers],
                        "winner": winner, "outcome": outcome, "region_damage": 0})
    s["combat"] = None
    s["battles"] = s["battles"] + battles
