"""One land's fight: requirements, effects, damage, costs and power.

Pure functions over the deployed-creature records of :mod:`.rules` (see its
docstring for their fields).  Who an effect reaches, whether a Shield stops it
and what each creature adds to its side's total are decided here; the state
machine in :mod:`.rules` decides when.
"""
from __future__ import annotations

from companion.engine import State

from .cards import Effect, Land
from .catalogue import CATALOGUE, CREATURES, LANDS, STARS


def new_deployed(creature_id: str) -> dict:
    return {"id": creature_id, "dmg": 0, "exh": 0, "dis": 0, "rest": 0, "support": False, "sac": False,
            "used": [], "base": None, "power": None, "shown": False}


def own_base(rec: dict) -> int:
    """Rules, Taking Damage: Base Power after damage and Exhaust, never below 0."""
    return max(0, CREATURES[rec["id"]].base_power - rec["dmg"] - rec["exh"])


def biome_bonus(rec: dict, biome: str) -> int:
    """The creature's bonus on a land playing as ``biome``, less what Disorient took from it.

    RULINGS: Disorient can push a biome bonus below zero, as the text's negative
    bonuses allow; a creature with no bonus there still pays it (it is a cost).
    """
    return CREATURES[rec["id"]].bonus(biome) - rec["dis"]


def requirements_hold(ability, rec: dict, pile: list[dict], land: Land) -> bool:
    """Rules, Requirement: Home, Biome A, Type Group [A] [X], Alone — checked now, at this land."""
    creature = CREATURES[rec["id"]]
    for req in ability.requires:
        kind = req.kind
        if kind == "home":
            if biome_bonus(rec, land.plays_as) <= 0:
                return False
        elif kind == "biome":
            if land.plays_as != CATALOGUE.biomes.canonical(req.biome):
                return False
        elif kind == "alone":
            if len(pile) != 1:
                return False
        else:  # type_group
            if req.of_type:
                if req.of_type not in creature.types:
                    return False
                n = sum(1 for o in pile if o is not rec and req.of_type in CREATURES[o["id"]].types)
            else:
                n = sum(1 for o in pile if o is not rec and creature.types & CREATURES[o["id"]].types)
            if n < req.count:
                return False
    return True


def reaches(effect: Effect, src_seat: int, src_id: str, seat: int, creature_id: str) -> bool:
    """Whether ``effect`` of ``src_id`` (of ``src_seat``) reaches ``creature_id`` of ``seat``."""
    t = effect.target
    if t == "self":
        hit = creature_id == src_id
    elif t == "allies":
        hit = seat == src_seat and creature_id != src_id
    elif t == "team":
        hit = seat == src_seat
    elif t in ("enemies", "enemy"):
        hit = seat != src_seat
    elif t == "others":
        hit = creature_id != src_id
    else:
        hit = True
    return hit and (effect.of_type is None or effect.of_type in CREATURES[creature_id].types)


def round_effect(entry: dict) -> Effect:
    return CREATURES[entry["src"]].abilities[entry["ability"]].effects[entry["effect"]]


def active_effects(state: State, slot: int, piles) -> list[tuple[int, str, Effect, tuple]]:
    """(source seat, source id, effect, (ability index, passive?)) of every effect working at ``slot`` now.

    Passive abilities of creatures at the land whose requirements hold, plus
    effects already put in play this round (activated abilities; all-lands
    passives of lands fought earlier).
    """
    land = LANDS[state["slots"][slot]["land"]]
    out = []
    for seat in (0, 1):
        pile = piles[seat]
        for rec in pile:
            for ai, ability in enumerate(CREATURES[rec["id"]].abilities):
                if not ability.activated and requirements_hold(ability, rec, pile, land):
                    for e in ability.effects:
                        out.append((seat, rec["id"], e, (ai, True)))
    for entry in state["effects"]:
        if entry["land"] is None or entry["land"] == slot:
            out.append((entry["seat"], entry["src"], round_effect(entry), (entry["ability"], False)))
    return out


def shielded(effects, seat: int, creature_id: str) -> bool:
    """Rules, Shield: "Enemy effects can't make ally creatures lose Base Power"."""
    return any(e.kind == "shield" and reaches(e, ss, sid, seat, creature_id) for ss, sid, e, _ in effects)


def take_damage(rec: dict, amount: int) -> tuple[dict, int, bool]:
    """Rules, Taking Damage: Base Power drops by ``amount``, not below 0; reaching 0 adds Star Count Rest counters.

    Returns (new record, damage taken, knocked out).
    """
    before = own_base(rec)
    taken = min(amount, before)
    new = dict(rec, dmg=rec["dmg"] + taken)
    knocked_out = before > 0 and before - taken == 0
    if knocked_out:
        new["rest"] = rec["rest"] + STARS[rec["id"]]
    return new, taken, knocked_out


def pay_costs(rec: dict, ability) -> dict:
    """Rules, Cost: Rest X, Support, Exhaust X, Sacrifice, Disorient X."""
    new = dict(rec)
    for c in ability.costs:
        if c.kind == "rest":
            new["rest"] += c.amount
        elif c.kind == "support":
            new["support"] = True
        elif c.kind == "exhaust":
            new["exh"] += c.amount
        elif c.kind == "sacrifice":
            new["sac"] = True
        else:
            new["dis"] += c.amount
    return new


def strengths(state: State, slot: int, piles, effects) -> list[list[tuple[int, int]]]:
    """(Base Power, power) of every creature at ``slot``, per seat, in pile order.

    RULINGS: power = Base Power (after damage, ≥ 0) + biome bonus + land and
    ability modifiers; a Support creature adds none.  Only Base Power is
    floored (after damage and Base Power effects): power may be negative ("A shark wouldn't fare too good on a
    mountain") and lowers its side's total.
    """
    land = LANDS[state["slots"][slot]["land"]]
    biome = land.plays_as
    out = []
    for seat in (0, 1):
        row = []
        for rec in piles[seat]:
            cid = rec["id"]
            creature = CREATURES[cid]
            base = own_base(rec)
            mods = 0
            shield = None
            for ss, sid, e, _ in effects:
                if e.kind in ("base_power", "power") and reaches(e, ss, sid, seat, cid):
                    if e.kind == "base_power" and e.amount < 0 and ss != seat:
                        if shield is None:
                            shield = shielded(effects, seat, cid)
                        if shield:
                            continue
                    if e.kind == "base_power":
                        base += e.amount
                    else:
                        mods += e.amount
            for le in land.effects:
                if le.kind == "power" and le.matches(creature, biome):
                    mods += le.amount
            base = max(0, base)            # "A creature's Base Power cannot be reduced below 0"
            power = 0 if rec["support"] else base + biome_bonus(rec, biome) + mods
            row.append((base, power))
        out.append(row)
    return out
