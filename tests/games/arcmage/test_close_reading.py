"""Issue 15: what a close reading of the Original Rules Concept found, each reached through the engine's API.

Each test names the rule it checks (rules text 003_…, RULINGS.md "Added after the first full build", or
docs/rulings/arcmage.md).
"""
import json

import pytest

from companion.engine import IllegalAction
from companion.games.arcmage import RULES

from .play import NORTH, SOUTH, act, cid, creature, end_turn, gold, put, region, started, to_phase


def _counts_every_card(s):
    from companion.games.arcmage import cards as arc
    from companion.games.arcmage.state import main_cards_accounted
    return [main_cards_accounted(s, n, lambda c: arc.kind(c) == "region") for n in (NORTH, SOUTH)]


# ---------------------------------------------------------------- domains
def test_rule_one_faction_per_domain_when_entering():
    """Rules text, Faction combinations: "only one faction being allowed in a domain at a time".  A Gaian Wild
    Boar tops North's Faith domain: a Dark Legion Skeleton Warrior may not enter it, nor is it offered; it may
    enter Politics, and once Faith is empty again any faction may."""
    s, _ = to_phase(gold(started(), NORTH, 4), "entrance")
    s, _ = act(s, "enter", NORTH, card=cid("wild-boar"), to="faith")
    with pytest.raises(IllegalAction, match="Faith domain holds Gaian servants .Wild Boar.; Skeleton Warrior is "
                                            "Dark Legion: only one faction"):
        act(s, "enter", NORTH, card=cid("skeleton-warrior"), to="faith")
    offered = [a for a in RULES.legal_actions(s) if a["type"] == "enter" and a["card"] == cid("skeleton-warrior")]
    assert {a["to"] for a in offered} == {"front", "politics", "science"}
    s, _ = act(s, "enter", NORTH, card=cid("forest-sentinel"), to="faith")          # Gaian joins Gaian
    s, _ = act(s, "enter", NORTH, card=cid("skeleton-warrior"), to="politics")
    assert [c["card"] for c in s["p"][NORTH]["faith"]] == [cid("wild-boar"), cid("forest-sentinel")]


def test_rule_one_faction_per_domain_when_moving():
    """The same rule for a move from the Front into a domain (rules text, Movement)."""
    s = started()
    s, _ = put(s, NORTH, "faith", "wild-boar")
    s, skeleton = put(s, NORTH, "front", "skeleton-warrior")
    s, _ = to_phase(s, "move1")
    with pytest.raises(IllegalAction, match="only one faction is allowed in a domain at a time"):
        act(s, "move", NORTH, card=skeleton, to="faith")
    assert {"type": "move", "seat": NORTH, "card": skeleton, "to": "faith"} not in [
        {k: v for k, v in a.items() if k != "label"} for a in RULES.legal_actions(s)]
    s, _ = act(s, "move", NORTH, card=skeleton, to="science")
    assert creature(s, NORTH, skeleton)[0] == "science"


# ---------------------------------------------------------------- the last region
def _last_region_falls(**options):
    """South holds one region (Cursed Marshes, 9 HP) at 3 HP; North's Bone Dragon (ATK 7) attacks unblocked."""
    s = started(south=["cursed-marshes"], **options)
    s, _ = act(s, "adjust", SOUTH, counter="1.hp", delta=-6)
    s, dragon = put(s, NORTH, "front", "bone-dragon")
    s, _ = to_phase(s, "move1")
    s, _ = act(s, "attack", NORTH, attackers=[dragon])
    s, _ = act(s, "blocks_done", SOUTH)
    s, events = act(s, "resolve", NORTH)
    return s, events


def test_rule_vp_gained_after_the_last_region_fell_does_not_change_the_outcome():
    """RULINGS: "once a player's last region falls, only a simultaneous loss from the same combat can change the
    outcome".  South's last region falls; a +10 VP adjustment in the pause (South reaches the target) does not
    make South the winner: ending the game, North wins."""
    s, _ = _last_region_falls()
    assert s["phase"] == "fallen" and s["fallen"] == [SOUTH]
    s, events = act(s, "adjust", SOUTH, counter="1.vp", delta=10)
    assert s["result"] is None and s["p"][SOUTH]["vp"] == 10
    s, events = act(s, "end_game", NORTH)
    assert s["result"]["winner"] == NORTH and s["result"]["how"] == "regions"


def test_rule_a_simultaneous_loss_in_the_pause_goes_to_the_vp_tie_break():
    """Rules text: "all remaining players both lose all their regions during the same turn the player with the
    highest amount of victory points is the winner".  In the pause a card effect of the same combat destroys
    North's last region too: now VP decide, and South's 2 VP beat North's 0."""
    s, _ = _last_region_falls()
    s, _ = act(s, "adjust", SOUTH, counter="1.vp", delta=2)
    hp = region(s, NORTH)["hp"]
    s, _ = act(s, "adjust", NORTH, counter="0.hp", delta=-hp)          # North's region I falls …
    s, _ = act(s, "adjust", NORTH, counter="0.hp", delta=-region(s, NORTH)["hp"])
    s, _ = act(s, "adjust", NORTH, counter="0.hp", delta=-region(s, NORTH)["hp"])    # … and its last one
    assert sorted(s["fallen"]) == [NORTH, SOUTH]
    s, _ = act(s, "end_game", SOUTH)
    assert s["result"]["winner"] == SOUTH and s["result"]["how"] == "regions_tie"


@pytest.fixture
def region_spell(tmp_path, monkeypatch):
    """A player's own spell that targets a region (the shipped samples target creatures and Fronts)."""
    from companion import cards as catalogue_files
    from companion.games.arcmage import cards as arc
    folder = tmp_path / "tabletop-companion" / "cards"
    folder.mkdir(parents=True)
    (folder / "arcmage.json").write_text(json.dumps({"game": "arcmage", "format": 1, "cards": [
        {"id": "arcmage.withering-curse", "name": "Withering Curse", "attrs": {
            "type": "spell", "faction": "dark-legion", "number": 9101, "version": 1, "cost": 1, "target": "region",
            "text": "The region loses 1 HP each Upkeep."}}]}))
    monkeypatch.setattr(catalogue_files, "_user_dir", tmp_path / "tabletop-companion")
    monkeypatch.setattr(arc, "_catalogue", None)
    monkeypatch.setattr(arc, "_with_user_cards", False)
    return "arcmage.withering-curse"


def test_rule_a_spell_on_a_region_goes_to_its_owners_grave_with_the_region(region_spell):
    """RULINGS: "a spell on a region goes to its owner's graveyard with the region" (rules text, Life & Death:
    attached cards go to their owners' graves).  North curses South's Cursed Marshes; when it falls the curse
    is in North's grave, not on South's next region, and every card is still in exactly one place."""
    s = started(south=["cursed-marshes", "necropolis"])
    s, _ = to_phase(gold(s, NORTH, 1), "play1")
    s, _ = act(s, "play", NORTH, card=region_spell, target="area:1:region")
    assert [sp["card"] for sp in s["p"][NORTH]["spells"]] == [region_spell]
    before = _counts_every_card(s)
    s, events = act(s, "adjust", NORTH, counter="1.hp", delta=-region(s, SOUTH)["hp"])
    assert s["p"][NORTH]["spells"] == [] and s["p"][NORTH]["grave"][-1] == region_spell
    assert region_spell not in s["p"][SOUTH]["grave"]
    assert any(e["type"] == "spell_gone" and "Withering Curse on Cursed Marshes goes to North's grave" in e["text"]
               for e in events)
    assert region(s, SOUTH)["card"] == cid("necropolis")
    assert _counts_every_card(s) == before == [60, 60]


# ---------------------------------------------------------------- gold
def test_rule_a_printed_cost_is_paid_as_printed():
    """Rules text, Paying a cost: "The player looks at the card's gold cost" — a ``cost`` in the action is only
    for X and T costs.  Bone Dragon (7) does not enter for 0; paying less needs a logged adjustment: with 5
    resources and +2 gold adjusted it enters, its 7 still counting as domain points."""
    s, _ = to_phase(gold(started(), SOUTH, 5), "entrance")
    s = end_turn(s)
    s, _ = to_phase(s, "entrance")
    with pytest.raises(IllegalAction, match="Bone Dragon costs 7 gold as printed"):
        act(s, "enter", SOUTH, card=cid("bone-dragon"), to="faith", cost=0)
    with pytest.raises(IllegalAction, match="costs 7 gold; South has 5"):
        act(s, "enter", SOUTH, card=cid("bone-dragon"), to="faith")
    s, events = act(s, "adjust", SOUTH, counter="1.gold", delta=2)
    assert events[0]["type"] == "adjust" and "gold +2" in events[0]["text"]
    s, _ = act(s, "enter", SOUTH, card=cid("bone-dragon"), to="faith", cost=7)
    assert s["p"][SOUTH]["faith"][-1]["cost"] == 7 and all(r["marked"] for r in s["p"][SOUTH]["vault"])


def _armed_front(**options):
    s = started(**options)
    s, giver = put(s, NORTH, "front", "orc-raider", equip=[{"id": 900, "card": cid("iron-axe"), "atk": 2, "def": 0,
                                                           "subtype": "Weapon"}])
    s, taker = put(s, NORTH, "front", "goblin-sapper")
    s = dict(s, next_id=901)
    s["p"] = list(s["p"])
    s["p"][NORTH] = dict(s["p"][NORTH], deck=s["p"][NORTH]["deck"] - 1)      # the axe came from the deck too
    return s, giver, taker


def test_rule_reassigning_equipment_costs_its_gold_again():
    """docs/rulings/arcmage.md, "Reassigning equipment": the pick-up rule says it "costs no gold in contrast to
    reassigning equipment", so giving the Iron Axe (2 gold) to another Front creature costs 2 gold; both mark."""
    s, giver, taker = _armed_front()
    s, _ = to_phase(s, "play1")
    with pytest.raises(IllegalAction, match="Reassigning Iron Axe costs 2 gold; North has 0"):
        act(s, "give", NORTH, equipment=900, to=taker)
    assert not any(a["type"] == "give" for a in RULES.legal_actions(s))
    s = gold(s, NORTH, 2)
    offered = [a for a in RULES.legal_actions(s) if a["type"] == "give"]
    assert [a["label"] for a in offered] == ["Give equipment to Goblin Sapper (2 gold)"]
    s, events = act(s, "give", NORTH, equipment=900, to=taker)
    assert "gives Iron Axe to Goblin Sapper for 2 gold; both mark" in events[0]["text"]
    assert all(r["marked"] for r in s["p"][NORTH]["vault"])
    assert creature(s, NORTH, taker)[1]["equip"][0]["card"] == cid("iron-axe")
    assert creature(s, NORTH, giver)[1]["marked"] and creature(s, NORTH, taker)[1]["marked"]


def test_rule_reassigning_equipment_for_free_is_an_option():
    """Option ``reassign_cost`` = free: the Reassign paragraph's own steps (mark both, move the card), no gold."""
    s, giver, taker = _armed_front(reassign_cost="free")
    s, _ = to_phase(s, "play1")
    s, events = act(s, "give", NORTH, equipment=900, to=taker)
    assert events[0]["text"] == "Orc Raider gives Iron Axe to Goblin Sapper; both mark."


# ---------------------------------------------------------------- marking and assigning
def test_rule_an_unassigned_creature_cannot_assign_again_that_turn_even_if_unmarked():
    """Rules text, Unassign: "it can not mark or assign again during the same turn in which it was unassigned";
    Effects vs effects: "the forbidding effect always wins".  An effect unmarks the unassigned Elf Druid: it is
    unmarked (its domain points count) but still cannot assign or attack until that turn ends."""
    s = started()
    s, druid = put(s, NORTH, "front", "elf-druid", assigned=True)
    s, _ = act(s, "unassign", NORTH, card=druid)
    s, _ = act(s, "set_mark", NORTH, card=druid, marked=False)
    assert creature(s, NORTH, druid)[1]["marked"] is False
    s, _ = to_phase(s, "play1")
    with pytest.raises(IllegalAction, match="was unassigned this turn: it cannot mark or assign again"):
        act(s, "assign", NORTH, card=druid)
    s, _ = to_phase(s, "move1")
    with pytest.raises(IllegalAction, match="was unassigned this turn"):
        act(s, "attack", NORTH, attackers=[druid])
    s = end_turn(end_turn(s))
    s, _ = to_phase(s, "play1")
    s, events = act(s, "assign", NORTH, card=druid)
    assert events[0]["type"] == "assign"


# ---------------------------------------------------------------- hidden information
def test_rule_a_refused_region_in_the_face_down_chapter_is_not_named():
    """RULINGS, "Hidden information in refusals": regions go into the chapter face down; a Gaian region put on
    South's Dark Legion chapter is refused by name to South only, the shared screen reads it without the name."""
    s = RULES.setup(RULES.normalise_options({}), 7)
    s, _ = act(s, "region", SOUTH, card=cid("cursed-marshes"))
    with pytest.raises(IllegalAction) as refused:
        RULES.interpret(s, "1.region", cid("sacred-grove"), True)
    error = refused.value
    assert str(error).startswith("Sacred Grove is Gaian; the chapter is Dark Legion")
    assert error.redacted.startswith("That card is Gaian; the chapter is Dark Legion")
    assert "Sacred Grove" not in error.redacted and error.hidden_from == [NORTH]


def test_rule_a_refused_card_on_the_vault_pad_is_not_named():
    """The vault is face down: a second resource in one turn is refused without naming the card."""
    s, _ = to_phase(started(), "play1")
    s, _ = act(s, "resource", NORTH, card=cid("ghoul"))
    with pytest.raises(IllegalAction) as refused:
        RULES.interpret(s, "0.vault", cid("bone-dragon"), True)
    assert "Bone Dragon" not in refused.value.redacted and refused.value.hidden_from == [SOUTH]
    assert RULES.interpret(s, "0.vault", cid("ghoul"), True) is None            # the card put back after a look


# ---------------------------------------------------------------- equipment (rule table rows 42 and 44)
def test_rule_discarding_equipment_marks_the_creature_and_grave_takes_it():
    """Rules text, Discarding Equipment: "marks the equipped creature, and the chosen equipment is then moved
    to the grave"."""
    s, giver, _ = _armed_front()
    s, _ = to_phase(s, "play1")
    s, events = act(s, "unequip", NORTH, equipment=900)
    assert creature(s, NORTH, giver)[1]["marked"] and creature(s, NORTH, giver)[1]["equip"] == []
    assert s["p"][NORTH]["grave"][-1] == cid("iron-axe")


def test_rule_dropped_equipment_is_picked_up_free_or_discarded_at_the_end_of_the_turn():
    """Rules text, Drop & take equipment: a creature moved into a domain drops its equipment in the Front; an
    unmarked Front ally picks it up in a Play phase, marking, for no gold ("This action costs no gold"); what
    nobody picks up goes to the grave when the turn ends."""
    s, giver, taker = _armed_front()
    s, _ = to_phase(s, "move1")
    s, _ = act(s, "move", NORTH, card=giver, to="politics")
    assert [x["card"] for x in s["p"][NORTH]["dropped"]] == [cid("iron-axe")]
    s, _ = to_phase(s, "play2")
    picked, _ = act(s, "pickup", NORTH, equipment=900, to=taker)
    assert creature(picked, NORTH, taker)[1]["equip"][0]["card"] == cid("iron-axe")
    assert creature(picked, NORTH, taker)[1]["marked"] and picked["p"][NORTH]["vault"] == []
    left = end_turn(s)
    assert left["p"][NORTH]["dropped"] == [] and left["p"][NORTH]["grave"][-1] == cid("iron-axe")
