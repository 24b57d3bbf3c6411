"""The Territory engine on hand-checked positions (issue 5, Deliver 4 and "Must show").

Every number below was worked out by hand from the cards' stats; the
docstrings name the rule (rules text 002_…, RULINGS.md or docs/rulings/territory.md).
"""
import json

import pytest

from companion.engine import IllegalAction, redact_event
from companion.games.territory import RULES
from companion.games.territory.catalogue import CREATURES, LANDS
from companion.games.territory.combat import new_deployed, requirements_hold

from .play import FIVE, T, act, battle, both_done, deploy, game, pass_all


# ---------------------------------------------------------------- combat
def test_highest_total_claims_with_type_group_and_roar():
    """Rules, Combat: the highest total power claims the land.  Pine Forest (Forest): Ash and Fang (3, Forest +2)
    each get +1 from the other's Pack Howl (Type Group canid); Bramble (5, Forest +2) Roars (Rest 1: all other
    creatures −1 Base Power): North 5 + 5 = 10, South 7 → North claims Pine Forest.  Bramble rests 1."""
    s = game(["ash", "fang"], ["bramble"], FIVE)
    s = deploy(deploy(deploy(s, 0, "ash", 0), 0, "fang", 0), 1, "bramble", 0)
    events = []
    s = both_done(s, events)
    assert s["phase"] == "combat" and s["battle"] == 0 and s["done"] == [True, False]
    s = act(s, {"type": "activate", "seat": 1, "creature": T("bramble"), "ability": 0}, events)
    assert battle(s, 0)["totals"] == [10, 7] and battle(s, 0)["winner"] == 0
    assert s["claimed"] == [[T("pine-forest")], []]
    assert s["resting"] == [{}, {T("bramble"): 1}]
    assert sorted(s["ready"][0]) == [T("ash"), T("fang")]
    text = [e["text"] for e in events if e["type"] == "battle_result"][0]
    assert text == ("Land 1 (Pine Forest): North 10 (Ash 5 + Fang 5) vs South 7 (Bramble 7) — "
                    "North claims Pine Forest")


def test_tie_leaves_the_land_unclaimed_and_in_place():
    """Rules, Combat 4.1 and RULINGS: a tie (0–0 included) leaves the land unclaimed and in place.
    Still Lake: Shadow (4, Lake +1) 5 vs Pike (2, Lake +3) 5."""
    s = game(["shadow"], ["pike"], FIVE)
    s = deploy(deploy(s, 0, "shadow", 2), 1, "pike", 2)
    events = []
    s = both_done(s, events)
    results = [e for e in events if e["type"] == "battle_result"]
    assert [r["winner"] for r in results] == [None] * 5 and [r["outcome"] for r in results] == ["tie"] * 5
    assert battle(s, 2)["totals"] == [5, 5]
    assert s["claimed"] == [[], []]
    # next round: nothing to deal, every land is still there
    assert s["phase"] == "deploy" and s["round"] == 2 and s["land_deck"] == 45
    assert [slot["land"] for slot in s["slots"]] == [T(l) for l in FIVE]


def test_claimed_land_is_replaced_from_the_land_deck():
    """Rules, Concept: "another land card is drawn to take its place"; unclaimed lands stay."""
    s = game(["skye"], ["pike"], FIVE)
    s = deploy(s, 0, "skye", 1)            # Grey Peaks: Skye 4 + 3 = 7 against nobody
    s = both_done(s)
    assert s["claimed"][0] == [T("grey-peaks")]
    assert s["phase"] == "deal" and s["slots"][1] is None and s["slots"][0]["land"] == T("pine-forest")
    with pytest.raises(IllegalAction, match="Deploy phase"):
        deploy(s, 0, "skye", 0)
    s = act(s, {"type": "deal", "land": T("eagle-crag")})
    assert s["slots"][1]["land"] == T("eagle-crag") and s["land_deck"] == 44 and s["phase"] == "deploy"


def test_negative_biome_bonus_lowers_the_total():
    """Rules, Biome Bonus: "The biome bonus can be negative".  Jaws (5, Mountain −4) on Grey Peaks adds 1;
    Bubbles (3, Desert −4) on Red Dunes adds −1 (RULINGS: only Base Power is floored), so South, with nobody
    there (0), has the higher total and claims Red Dunes."""
    s = game(["jaws", "bubbles"], ["tiny"], FIVE)
    s = deploy(deploy(s, 0, "jaws", 1), 0, "bubbles", 4)
    s = pass_all(both_done(s))
    assert battle(s, 1)["totals"] == [1, 0]
    assert battle(s, 4)["totals"] == [-1, 0] and battle(s, 4)["winner"] == 1


def test_land_passive_and_custom_biome_alias():
    """Rules, Land Cards: "Flying creatures get +2 power here" (Eagle Crag, Mountain) and custom biomes:
    White Cliffs is a Cliff, which counts as Mountain, so Kestrel's Mountain +2 applies there too.
    Kestrel (2): Eagle Crag 2 + 2 + 2 = 6; White Cliffs 2 + 2 = 4."""
    s = game(["kestrel", "skye"], ["tiny"], ["eagle-crag", "white-cliffs", "still-lake", "green-meadow", "red-dunes"])
    s = deploy(deploy(s, 0, "kestrel", 0), 0, "skye", 1)
    s = both_done(s)
    assert battle(s, 0)["totals"] == [6, 0]
    assert battle(s, 1)["totals"] == [7, 0]          # Skye 4 + Mountain 3 on a Cliff


# ---------------------------------------------------------------- damage
def test_damage_to_zero_adds_star_count_then_round_end_adds_one():
    """Rules, Taking Damage: Base Power reduced to 0 gives extra Rest counters equal to the Star Count; Round End
    2.1: Base Power 0 or less adds 1 more.  Kestrel Stoops (Exhaust 1: 2 damage) Rusty (2, 1 star) on Grey Peaks:
    Rusty 0 → rests 1 + 1 = 2; Kestrel 2 − 1 + Mountain 2 = 3 claims, and is ready again (no counters)."""
    s = game(["kestrel"], ["rusty"], FIVE)
    s = deploy(deploy(s, 0, "kestrel", 1), 1, "rusty", 1)
    events = []
    s = both_done(s, events)
    assert s["battle"] == 1 and s["done"] == [False, False]
    s = act(s, {"type": "activate", "seat": 0, "creature": T("kestrel"), "ability": 0, "target": T("rusty")}, events)
    damage = [e["text"] for e in events if e["type"] == "damage"]
    assert damage == ["Kestrel (Gyr Falcon) deals 2 damage to South's Rusty (Red Fox): Base Power 2 → 0, "
                      "knocked out (+1 Rest counter, its Star Count)"]
    s = act(s, {"type": "done", "seat": 1}, events)
    assert battle(s, 1)["totals"] == [3, 0]
    assert s["resting"][1] == {T("rusty"): 2}
    assert T("kestrel") in s["ready"][0]


def test_damage_cannot_go_below_zero():
    """Rules, Taking Damage: "A creature's Base Power cannot be reduced below 0".  Scuttle's Sting (Sacrifice:
    4 damage) on Tiny (0 printed power): nothing to take, and no Star Count counters (it was not reduced)."""
    s = game(["scuttle"], ["tiny"], FIVE)
    s = deploy(deploy(s, 0, "scuttle", 0), 1, "tiny", 0)
    events = []
    s = act(both_done(s), {"type": "activate", "seat": 0, "creature": T("scuttle"), "ability": 0,
                           "target": T("tiny")}, events)
    assert [e["amount"] for e in events if e["type"] == "damage"] == [0]
    s = pass_all(s)
    assert s["resting"][1] == {T("tiny"): 1}              # only Round End 2.1's +1 for Base Power 0


# ---------------------------------------------------------------- ability costs
def test_sacrifice_removes_the_creature_at_round_end():
    """Rules, Cost: "Sacrifice – This creature is removed from the game when the round ends".
    Sting deals 4 to Bramble (5 → 1); Bramble on Pine Forest: 1 + 2 = 3 beats Scuttle's 1."""
    s = game(["scuttle"], ["bramble"], FIVE)
    s = deploy(deploy(s, 0, "scuttle", 0), 1, "bramble", 0)
    s = act(both_done(s), {"type": "activate", "seat": 0, "creature": T("scuttle"), "ability": 0,
                           "target": T("bramble")})
    s = pass_all(s)
    assert battle(s, 0)["totals"] == [1, 3]
    assert s["removed"][0] == [T("scuttle")] and T("scuttle") not in s["ready"][0]
    assert T("scuttle") not in s["resting"][0]


def test_support_adds_no_power_and_passive_costs_are_paid():
    """Rules, Cost: "Support – This creature doesn't add its power to the Total Power".  Inky (2, Ocean +2) on
    Open Sea uses Tentacle (Support: 2 damage to Jaws): Inky adds 0.  Its passive Ink Cloud (Rest 1, Alone)
    holds because Inky fights alone, so it pays Rest 1.  Jaws (5 − 2, Ocean +3) = 6."""
    s = game(["inky"], ["jaws"], ["open-sea", "grey-peaks", "still-lake", "green-meadow", "red-dunes"])
    s = deploy(deploy(s, 0, "inky", 0), 1, "jaws", 0)
    s = act(both_done(s), {"type": "activate", "seat": 0, "creature": T("inky"), "ability": 0, "target": T("jaws")})
    s = pass_all(s)
    assert battle(s, 0)["totals"] == [0, 6]
    assert s["resting"][0] == {T("inky"): 1}


def test_rest_cost_adds_rest_counters():
    """Rules, Cost: "Rest X – Add X amount of rest counters".  Grin's Death Roll is Rest 2 (Home: Swamp)."""
    s = game(["grin"], ["snap"], ["black-marsh", "grey-peaks", "still-lake", "green-meadow", "red-dunes"])
    s = deploy(deploy(s, 0, "grin", 0), 1, "snap", 0)
    s = act(both_done(s), {"type": "activate", "seat": 0, "creature": T("grin"), "ability": 0, "target": T("snap")})
    s = pass_all(s)
    assert battle(s, 0)["totals"] == [8, 2]          # Grin 5 + 3; Snap 3 − 3 damage + Swamp 2
    assert s["resting"] == [{T("grin"): 2}, {T("snap"): 2}]   # Snap: knocked out (+1 star) and Base Power 0 (+1)


def test_disorient_lowers_the_biome_bonus():
    """Rules, Cost: "Disorient X – This creature loses X amount of Biome Bonus in the relevant biome".
    Cinder (2, Volcano +3) Flares (Disorient 1) on Ash Cone: 2 + 2 = 4 instead of 5."""
    s = game(["cinder"], ["pike"], ["ash-cone", "grey-peaks", "still-lake", "green-meadow", "red-dunes"])
    s = deploy(deploy(s, 0, "cinder", 0), 1, "pike", 0)
    s = act(both_done(s), {"type": "activate", "seat": 0, "creature": T("cinder"), "ability": 0, "target": T("pike")})
    s = pass_all(s)
    assert battle(s, 0)["totals"] == [4, 0]          # Pike: 2 − 2 damage, no Volcano bonus


def test_activated_ability_once_per_round_and_only_while_deployed():
    """Rules, Ability: "You can activate each creature's ability only once per round"; "Creatures in your Ready
    piles and Resting piles cannot use their abilities"."""
    s = game(["rusty", "bramble"], ["pike"], FIVE)
    s = deploy(s, 0, "rusty", 0)
    s = both_done(s)
    with pytest.raises(IllegalAction, match="on the ready pile: only deployed creatures use their abilities"):
        act(s, {"type": "activate", "seat": 0, "creature": T("bramble"), "ability": 0})
    s = act(s, {"type": "activate", "seat": 0, "creature": T("rusty"), "ability": 0})
    assert s["battle"] != 0 or s["phase"] != "combat"
    with pytest.raises(IllegalAction):
        act(s, {"type": "activate", "seat": 0, "creature": T("rusty"), "ability": 0})


# ---------------------------------------------------------------- requirements
def test_home_requirement_fails_once_disoriented_to_zero():
    """Rules, Requirement: Home — "If the creature would be in a home biome but its biome bonus has been reduced
    to 0 or below, then this condition is no longer met"."""
    hoot = CREATURES[T("hoot")]
    forest = LANDS[T("pine-forest")]
    rec = new_deployed(T("hoot"))
    assert requirements_hold(hoot.abilities[0], rec, [rec], forest)
    assert not requirements_hold(hoot.abilities[0], dict(rec, dis=1), [rec], forest)
    assert not requirements_hold(hoot.abilities[0], rec, [rec], LANDS[T("grey-peaks")])


def test_biome_requirement():
    """Rules, Requirement: Biome A.  Hump's Water Store (+1 Base Power) needs Desert: Red Dunes 3 + 1 + 3 = 7;
    Green Meadow 3."""
    s = game(["hump", "dash"], ["tiny"], FIVE)
    s = deploy(deploy(s, 0, "hump", 4), 0, "dash", 1)
    s = both_done(s)
    assert battle(s, 4)["totals"] == [7, 0]
    s = game(["hump"], ["tiny"], FIVE)
    s = both_done(deploy(s, 0, "hump", 3))
    assert battle(s, 3)["totals"] == [3, 0]


def test_type_group_with_a_count():
    """Rules, Requirement: Type Group X.  Clover's Herd (all allies +1) needs 2 other allies sharing a type.
    Green Meadow (Plain) with Dash and Billy: Clover 2+1+1, Dash 2+1+3, Billy 2+1 = 13; with Dash only 3 + 5."""
    s = game(["clover", "dash", "billy"], ["tiny"], FIVE)
    for c in ("clover", "dash", "billy"):
        s = deploy(s, 0, c, 3)
    s = both_done(s)
    assert battle(s, 3)["totals"] == [13, 0]
    s = game(["clover", "dash"], ["tiny"], FIVE)
    s = both_done(deploy(deploy(s, 0, "clover", 3), 0, "dash", 3))
    assert battle(s, 3)["totals"] == [8, 0]


def test_type_group_of_a_type_with_a_count_and_allies_of_type_a():
    """Rules, Type Group A X and "Allies of type A get +1 Base Power".  Pine Forest: Ash and Fang (3 + 2) get
    +1 from each other's Pack Howl and +2 from Captain's Lead the Pack (2 other canids): 8 each; Captain
    5 + 1 + 1 + 2 = 9.  Total 25."""
    s = game(["ash", "fang", "captain"], ["tiny"], FIVE)
    for c in ("ash", "fang", "captain"):
        s = deploy(s, 0, c, 0)
    s = both_done(s)
    assert battle(s, 0)["totals"] == [25, 0]


def test_alone_requirement():
    """Rules, Requirement: Alone.  Stripes' Ambush (+2): alone on Pine Forest 5 + 2 + 1 = 8; with Shadow 6 + 4."""
    s = both_done(deploy(game(["stripes"], ["tiny"], FIVE), 0, "stripes", 0))
    assert battle(s, 0)["totals"] == [8, 0]
    s = game(["stripes", "shadow"], ["tiny"], FIVE)
    s = both_done(deploy(deploy(s, 0, "stripes", 0), 0, "shadow", 0))
    assert battle(s, 0)["totals"] == [10, 0]


# ---------------------------------------------------------------- effects
def test_enemies_lose_base_power_and_shield_protects_allies():
    """Rules, Effect "Enemies get -1 Base Power" and Shield ("Enemy effects can't make ally creatures lose Base
    Power").  Rusty's Trickster hits North at Pine Forest; Hoot's Night Watch (Home) shields the other allies:
    Ash keeps 3 + 2 = 5, Hoot itself drops to 0 + 1 = 1, and rests 1 for Base Power 0 (Round End 2.1)."""
    s = game(["ash", "hoot"], ["rusty"], FIVE)
    s = deploy(deploy(deploy(s, 0, "ash", 0), 0, "hoot", 0), 1, "rusty", 0)
    s = act(both_done(s), {"type": "activate", "seat": 1, "creature": T("rusty"), "ability": 0})
    s = pass_all(s)
    assert battle(s, 0)["totals"] == [6, 3]           # Rusty 2 + Forest 1
    assert s["resting"][0] == {T("hoot"): 1}
    assert s["resting"][1] == {T("rusty"): 1}          # Trickster's Rest 1


def test_shield_blocks_damage():
    """Shield also stops damage (damage lowers Base Power).  Frost's Snow Camouflage (Biome Tundra) protects it
    from Kestrel's Stoop on White Waste: Frost 2 + 3 = 5; Kestrel 1 + 1 = 2."""
    s = game(["kestrel"], ["frost"], ["white-waste", "grey-peaks", "still-lake", "green-meadow", "red-dunes"])
    s = deploy(deploy(s, 0, "kestrel", 0), 1, "frost", 0)
    events = []
    s = act(both_done(s), {"type": "activate", "seat": 0, "creature": T("kestrel"), "ability": 0,
                           "target": T("frost")}, events)
    assert [e["type"] for e in events].count("shielded") == 1
    s = pass_all(s)
    assert battle(s, 0)["totals"] == [2, 5]


def test_allies_gain_and_all_lands_scope():
    """Rules: effects are "limited to the land they are on, unless otherwise specified".  Koko's Rally (other
    allies +1) reaches only its land; Ember's Rebirth Flame (other allies +2 on every land) reaches Ash on
    Grey Peaks, fought later: 3 + 2 = 5."""
    s = game(["koko", "ember", "ash", "dash"], ["tiny"], FIVE)
    s = deploy(deploy(deploy(deploy(s, 0, "koko", 0), 0, "dash", 0), 0, "ember", 0), 0, "ash", 1)
    s = both_done(s)
    s = act(s, {"type": "activate", "seat": 0, "creature": T("koko"), "ability": 0})
    s = act(s, {"type": "activate", "seat": 0, "creature": T("ember"), "ability": 0})
    s = pass_all(s)
    # Pine Forest: Koko 2 + 2 (Ember); Dash 2 + 1 + 2; Ember 4 + 1 → 4 + 5 + 5
    assert battle(s, 0)["totals"] == [14, 0]
    assert battle(s, 1)["totals"] == [5, 0]
    assert s["removed"][0] == [T("ember")]


# ---------------------------------------------------------------- round end
def _resting_position(resting, claimed, deploy_rusty=False):
    """A hand-built position (plain data): North holds ``claimed`` lands and rests ``resting``."""
    s = game(["dash", "ash", "rusty", "billy"], ["tiny"], FIVE)
    ready = [c for c in s["ready"][0] if c not in {T(k) for k in resting}]
    s = dict(s, resting=[{T(k): v for k, v in resting.items()}, {}], ready=[ready, s["ready"][1]],
             claimed=[[T(l) for l in claimed], []])
    if deploy_rusty:
        s = deploy(s, 0, "rusty", 2)
    return s


def test_round_end_step_1_then_step_3_with_a_recovery_land():
    """Round End 1: every resting pile loses a counter (Ash 1 → ready, Dash 3 → 2).  Step 3: the screen proposes
    Windy Prairie (removes 2 from ungulates) on Dash → ready; the player may choose otherwise."""
    s = _resting_position({"dash": 3, "ash": 1}, ["windy-prairie", "pine-forest"])
    s = both_done(s)
    assert s["phase"] == "recover" and s["done"] == [False, True]
    assert s["resting"][0] == {T("dash"): 2} and T("ash") in s["ready"][0]
    assert RULES.default_recovery(s, 0) == [[0, T("dash")]]
    assert RULES.confirm_action(s, 0) == {"type": "recover", "seat": 0, "uses": [[0, T("dash")]]}
    proposed = act(s, RULES.confirm_action(s, 0))
    assert proposed["resting"][0] == {} and T("dash") in proposed["ready"][0]
    assert proposed["phase"] == "deploy" and proposed["round"] == 2
    chosen = act(s, {"type": "recover", "seat": 0, "uses": [[1, T("dash")]]})
    assert chosen["resting"][0] == {T("dash"): 1}
    with pytest.raises(IllegalAction, match="already used"):
        act(s, {"type": "recover", "seat": 0, "uses": [[1, T("dash")], [1, T("dash")]]})
    with pytest.raises(IllegalAction, match="Ash .* is ready"):
        act(s, {"type": "recover", "seat": 0, "uses": [[1, T("ash")]]})
    with pytest.raises(IllegalAction, match="holds 2 lands"):
        act(s, {"type": "recover", "seat": 0, "uses": [[2, T("dash")]]})


def test_round_end_steps_run_in_order():
    """Round End 1 runs before 2: Rusty, pulled back with 1 counter (Trickster's Rest 1), is not reduced by
    step 1, while Ash's old pile of 1 is; step 3 can then take Rusty's counter off (one land, player's choice)."""
    s = _resting_position({"ash": 1}, ["pine-forest"], deploy_rusty=True)
    events = []
    s = both_done(s, events)
    s = act(s, {"type": "activate", "seat": 0, "creature": T("rusty"), "ability": 0}, events)
    s = pass_all(s, events)
    steps = [e["step"] for e in events if e.get("step")]
    assert steps == [1, 2]
    assert s["phase"] == "recover" and s["resting"][0] == {T("rusty"): 1} and T("ash") in s["ready"][0]
    s = act(s, {"type": "recover", "seat": 0, "uses": [[0, T("rusty")]]}, events)
    assert s["resting"][0] == {} and T("rusty") in s["ready"][0]
    assert events[-2]["text"] == "Round end 3: North's lands: Pine Forest removes 1 from Rusty (Red Fox): ready"


def test_a_player_may_keep_their_counters():
    """Round End 3: "you may remove" — an empty choice is legal."""
    s = both_done(_resting_position({"dash": 3}, ["pine-forest"]))
    s = act(s, {"type": "recover", "seat": 0, "uses": []})
    assert s["resting"][0] == {T("dash"): 2}


# ---------------------------------------------------------------- the end
def _sweep(s, creatures, slots):
    for c, slot in zip(creatures, slots):
        s = deploy(s, 0, c, slot)
    return both_done(s)


def test_game_ends_when_the_land_deck_is_empty_and_every_land_is_claimed():
    """Rules, Win Condition and RULINGS: the game ends when the land deck is empty and every land in play is
    claimed; the player with the most lands wins.  3 lands each: North sweeps 5, then the last one."""
    s = game(["ash", "fang", "skye", "pike", "dash"], ["tiny"], FIVE, lands_per_player=3, early_end=False)
    s = _sweep(s, ["ash", "fang", "pike", "dash"], [0, 2, 2, 3])      # Grey Peaks and Red Dunes stay empty: ties
    assert s["phase"] == "deal" and len(s["claimed"][0]) == 3
    s = act(s, {"type": "deal", "land": T("eagle-crag")})
    assert s["land_deck"] == 0 and s["phase"] == "deploy"
    s = _sweep(s, ["skye", "ash"], [0, 1])                            # Red Dunes still tied: not over
    assert not RULES.is_over(s) and s["phase"] == "deploy"
    assert s["slots"][4]["land"] == T("red-dunes") and s["slots"][4]["winner"] is None
    s = _sweep(s, ["dash"], [4])                                      # Dash 2 + Desert 1 takes Red Dunes
    assert RULES.is_over(s)
    assert RULES.result(s) == {"winner": 0, "reason": "every land has been claimed", "lands": [6, 0], "rounds": 3}


def test_early_end_needs_50_percent_plus_one_and_both_players():
    """Rules: "if a player obtains 50% of the lands +1 land, then you may agree to end the game early".
    3 lands each → 4 of 6 needed."""
    s = game(["ash", "fang", "skye", "pike"], ["tiny"], FIVE, lands_per_player=3)
    with pytest.raises(IllegalAction, match="holds 4 lands"):
        act(s, {"type": "end_early", "seat": 1})
    s = _sweep(s, ["ash", "skye", "pike", "fang"], [0, 1, 2, 3])
    assert len(s["claimed"][0]) == 4
    assert {"type": "end_early", "seat": 1} in RULES.legal_actions(s)
    s = act(s, {"type": "end_early", "seat": 1})
    assert not RULES.is_over(s)
    events = []
    s = act(s, {"type": "end_early", "seat": 0}, events)
    assert RULES.is_over(s) and RULES.result(s)["winner"] == 0
    assert events[-1]["type"] == "game_over"


def test_early_end_can_be_switched_off():
    s = game(["ash", "fang", "skye", "pike"], ["tiny"], FIVE, lands_per_player=3, early_end=False)
    s = _sweep(s, ["ash", "skye", "pike", "fang"], [0, 1, 2, 3])
    with pytest.raises(IllegalAction, match="switched off"):
        act(s, {"type": "end_early", "seat": 1})


def test_forfeit_makes_the_other_player_win():
    """Rules: "Any player can forfeit the game ... The last player left wins the game"."""
    s = game(["ash"], ["tiny"], FIVE)
    events = []
    s = act(s, {"type": "forfeit", "seat": 0}, events)
    assert RULES.result(s)["winner"] == 1 and events[-1]["type"] == "game_over"
    with pytest.raises(IllegalAction, match="over"):
        act(s, {"type": "deploy", "seat": 1, "creature": T("tiny"), "slot": 0})


# ---------------------------------------------------------------- decks and refusals
def test_deck_over_budget_is_refused():
    """RULINGS: deck Final Costs sum ≤ 100 (an agreed option)."""
    s = RULES.setup(RULES.normalise_options({"deck_budget": 20}), 1)
    s = act(s, {"type": "register", "seat": 0, "creature": T("ash")})
    with pytest.raises(IllegalAction, match="would cost 21, over the agreed 20"):
        act(s, {"type": "register", "seat": 0, "creature": T("bramble")})
    with pytest.raises(IllegalAction, match="already in North's deck"):
        act(s, {"type": "register", "seat": 1, "creature": T("ash")})


def test_resting_creature_cannot_be_deployed():
    s = both_done(_resting_position({"dash": 3}, []))
    s = act(s, {"type": "deal", "land": T("oasis")}) if s["phase"] == "deal" else s
    with pytest.raises(IllegalAction, match="resting with 2 Rest counters"):
        deploy(s, 0, "dash", 0)


def test_apply_never_mutates_its_input():
    s = game(["ash", "fang"], ["bramble"], FIVE)
    before = json.dumps(s, sort_keys=True)
    s2 = deploy(s, 0, "ash", 0)
    s3 = both_done(deploy(s2, 1, "bramble", 0))
    act(s3, {"type": "activate", "seat": 1, "creature": T("bramble"), "ability": 0})
    assert json.dumps(s, sort_keys=True) == before


# ---------------------------------------------------------------- hidden information
def test_face_down_creatures_are_hidden_until_their_land_is_fought():
    """Rules, Deploy: creatures are placed face down; Combat 1 reveals them land by land."""
    s = game(["ash", "fang"], ["bramble"], FIVE)
    events = []
    s = act(s, {"type": "deploy", "seat": 0, "creature": T("ash"), "slot": 0}, events)
    s = act(s, {"type": "deploy", "seat": 0, "creature": T("fang"), "slot": 3}, events)
    s = act(s, {"type": "deploy", "seat": 1, "creature": T("bramble"), "slot": 0}, events)
    for seat in (None, 1):
        text = json.dumps(RULES.view(s, seat))
        assert T("ash") not in text and "Grey Wolf" not in text and T("fang") not in text
    assert RULES.view(s, None)["zones"]["0.land1"] == {"cards": [{"hidden": True}], "summary": "1 card (1 hidden)"}
    assert T("ash") in json.dumps(RULES.view(s, 0))
    public = json.dumps([redact_event(e, None) for e in events])
    assert "Ash" not in public and "Bramble" not in public
    s = both_done(s)                              # land 1 is fought first: Ash revealed, Fang (land 4) not yet
    shared = RULES.view(s, None)
    assert s["phase"] == "combat" and shared["zones"]["0.land1"]["cards"] == [T("ash")]
    assert shared["zones"]["0.land4"]["cards"] == [{"hidden": True}] and T("fang") not in json.dumps(shared)


def test_ready_piles_and_registration_are_hidden_from_the_other_seat():
    s = RULES.setup(RULES.normalise_options({}), 3)
    s, events = RULES.apply(s, {"type": "register", "seat": 0, "creature": T("ash")})
    assert "Ash" not in redact_event(events[0], None)["text"] and "Ash" not in redact_event(events[0], 1)["text"]
    assert "Ash" in redact_event(events[0], 0)["text"]
    for seat in (None, 1):
        assert T("ash") not in json.dumps(RULES.view(s, seat))


# ---------------------------------------------------------------- corrections and the screen
def test_adjust_rest_counters_and_land_deck():
    """Every counter the view lists as adjustable can be corrected (engine contract: adjust)."""
    s = both_done(_resting_position({"dash": 3}, ["pine-forest"]))
    adjustable = {c["id"] for c in RULES.view(s, None)["counters"] if c["adjustable"]}
    assert adjustable == {"land_deck", f"rest.{T('dash')}"}
    fixed = act(s, {"type": "adjust", "seat": 0, "counter": f"rest.{T('dash')}", "delta": -2})
    assert fixed["resting"][0] == {} and T("dash") in fixed["ready"][0]
    fixed = act(s, {"type": "adjust", "seat": None, "counter": "land_deck", "delta": -3})
    assert fixed["land_deck"] == s["land_deck"] - 3
    with pytest.raises(IllegalAction, match="not South's creature"):
        act(s, {"type": "adjust", "seat": 1, "counter": f"rest.{T('dash')}", "delta": 1})


def test_view_has_the_standard_keys_and_says_what_to_do():
    s = game(["ash"], ["bramble"], FIVE)
    v = RULES.view(s, None)
    assert {"game", "active_seat", "phase", "phase_label", "awaiting", "counters", "zones", "over", "result",
            "players", "detail"} <= set(v)
    assert v["phase_label"] == "Round 1: deploy creatures face down, then touch Done"
    assert set(v["zones"]) == {z.id for z in RULES.zones({})}
    s = act(s, {"type": "done", "seat": 0})
    assert RULES.view(s, None)["active_seat"] == 1 and "waiting for South" in RULES.view(s, None)["phase_label"]
    assert RULES.confirm_action(s, 1) == {"type": "done", "seat": 1}
    assert RULES.confirm_action(s, 0) is None


def test_scans_that_cannot_be_right_say_where_the_card_belongs():
    s = game(["ash"], ["bramble"], FIVE)
    with pytest.raises(IllegalAction, match="is a creature: deploy it"):
        RULES.interpret(s, "land_deck", T("ash"), True)
    with pytest.raises(IllegalAction, match="lands are dealt when a round begins"):
        RULES.interpret(s, "land_deck", T("oasis"), True)
    with pytest.raises(IllegalAction, match="not a card of the Territory catalogue"):
        RULES.interpret(s, "0.land1", "territory.unicorn", True)
    assert RULES.interpret(s, "0.land3", T("ash"), True) == {"type": "deploy", "seat": 0, "creature": T("ash"),
                                                              "slot": 2}
    s = deploy(s, 0, "ash", 2)
    assert RULES.interpret(s, "0.land3", T("ash"), False) == {"type": "undeploy", "seat": 0, "creature": T("ash")}
    assert RULES.scan_for(s, {"type": "deploy", "seat": 1, "creature": T("bramble"), "slot": 4}) == \
        ("1.land5", T("bramble"))


def test_land_deck_corrected_to_empty_while_dealing_moves_on():
    """A miscounted land deck: correcting it to 0 while dealing starts the Deploy phase with the lands in play."""
    s = game(["ash"], ["tiny"], FIVE[:3])
    assert s["phase"] == "deal"
    s = act(s, {"type": "adjust", "seat": None, "counter": "land_deck", "delta": -100})
    assert s["land_deck"] == 0 and s["phase"] == "deploy"
    with pytest.raises(IllegalAction, match="Deploy phase|deal"):
        act(s, {"type": "deal", "land": T("oasis")})


@pytest.mark.parametrize("action", [
    {"type": "register", "seat": 0, "creature": ["territory.ash"]},
    {"type": "deploy", "seat": 0},
    {"type": "deploy", "seat": 0, "creature": T("ash"), "slot": "one"},
    {"type": "activate", "seat": 1, "creature": T("bramble"), "ability": 7},
    {"type": "recover", "seat": 0, "uses": "all"},
    {"type": "adjust", "seat": 0, "counter": "hearts", "delta": 1},
    {"type": "deploy", "creature": T("ash"), "slot": 0},
    {"type": "fly"},
])
def test_malformed_actions_get_a_sentence_not_a_crash(action):
    """Bad input gets a clear error and changes nothing (developers' guide)."""
    s = game(["ash"], ["bramble"], FIVE)
    with pytest.raises(IllegalAction) as err:
        RULES.apply(s, action)
    assert str(err.value)


@pytest.mark.parametrize("action", [
    {"type": "deal", "land": 7},
    {"type": "undeploy", "seat": 0, "creature": None},
    {"type": "show", "seat": 0, "creature": {"id": "territory.ash"}},
    {"type": "activate", "seat": 1, "creature": T("bramble"), "ability": 0, "target": ["territory.ash"]},
])
def test_a_card_field_that_is_not_a_card_id_is_refused_by_the_move_that_reads_it(action):
    """Bad input gets one sentence: a card field (creature, land, target) must be a card id, whatever the phase."""
    s = game(["ash"], ["bramble"], FIVE)
    key = next(k for k in ("land", "creature", "target") if k in action and not isinstance(action[k], str))
    with pytest.raises(IllegalAction, match=f"'{key}' must be a card id such as 'territory.ash', not "):
        RULES.apply(s, action)


def test_the_live_totals_leave_the_state_they_were_worked_out_from_as_it_was():
    """The screen's totals fight the land on a copy: the game on the table is not touched."""
    s = game(["ash", "fang"], ["bramble"], FIVE)
    s = both_done(deploy(deploy(deploy(s, 0, "ash", 0), 0, "fang", 0), 1, "bramble", 0))
    before = json.loads(json.dumps(s))
    assert RULES.view(s, None)["detail"]["live_totals"] == [12, 7]
    assert s == before and s["phase"] == "combat" and s["battles"] == []


def test_screen_shows_the_totals_the_land_would_give_now():
    """While players decide on abilities the screen shows the land's totals as they stand: Ash and Fang 6 + 6
    against Bramble 7 while South has not Roared."""
    s = game(["ash", "fang"], ["bramble"], FIVE)
    s = both_done(deploy(deploy(deploy(s, 0, "ash", 0), 0, "fang", 0), 1, "bramble", 0))
    assert RULES.view(s, None)["detail"]["live_totals"] == [12, 7]
