"""Issue 15: what a close reading of the rules text found, each reached through the engine's public API.

Each test names the rule it checks (rules text 002_…, RULINGS.md "Added after the first full build", or
docs/rulings/territory.md); every number is worked out by hand from the cards' stats.
"""
import pytest

from companion.engine import IllegalAction, redact_event
from companion.games.territory import RULES
from companion.games.territory.pricing import price_entry

from .play import FIVE, T, act, battle, both_done, deploy, game, pass_all

# Players' own cards for the issue's example: a shark is no good on a mountain.
BEASTS = {"cards": [
    {"id": "territory.shark", "name": "Shark", "attrs": {
        "kind": "creature", "species": "Reef Shark", "types": ["fish"], "base_power": 1,
        "biomes": {"ocean": 3, "mountain": -4}}},
    {"id": "territory.goat", "name": "Goat", "attrs": {
        "kind": "creature", "species": "Goat", "types": ["mammal"], "base_power": 3}},
    {"id": "territory.ram", "name": "Ram", "attrs": {
        "kind": "creature", "species": "Ram", "types": ["mammal"], "base_power": 2}},
]}


# ---------------------------------------------------------------- power
def test_rule_negative_biome_bonus_is_not_clamped():
    """RULINGS: power = Base Power (≥ 0) + biome bonus + modifiers; "The biome bonus can be negative. A shark
    wouldn't fare too good on a mountain."  Shark (1, Mountain −4) adds −3 to Goat's 3: North 0 against Ram's
    2 on Grey Peaks, so South claims."""
    s = game(["shark", "goat"], ["ram"], FIVE, cards=BEASTS)
    s = deploy(deploy(deploy(s, 0, "shark", 1), 0, "goat", 1), 1, "ram", 1)
    events = []
    s = pass_all(both_done(s, events))
    assert battle(s, 1)["totals"] == [0, 2] and battle(s, 1)["winner"] == 1
    assert T("grey-peaks") in s["claimed"][1]
    text = next(e["text"] for e in events if e["type"] == "battle_result" and e["slot"] == 1)
    assert "Shark -3" in text and "South claims Grey Peaks" in text


def test_rule_only_base_power_is_floored():
    """Rules, Taking Damage: "A creature's Base Power cannot be reduced below 0" — Base Power effects too.
    Tiny (0, Plain +1) under Bramble's Roar (all other creatures −1 Base Power) keeps Base Power 0 and adds 1 on
    Green Meadow; Round End still gives it a Rest counter for Base Power 0."""
    s = game(["tiny"], ["bramble"], FIVE)
    s = deploy(deploy(s, 0, "tiny", 3), 1, "bramble", 3)
    s = both_done(s)
    s = act(s, {"type": "activate", "seat": 1, "creature": T("bramble"), "ability": 0})
    s = pass_all(s)
    assert battle(s, 3)["totals"] == [1, 5]
    assert s["resting"][0] == {T("tiny"): 1}


def test_rule_empty_side_claims_against_a_negative_total():
    """RULINGS: the highest total claims — 0 (nobody there) is higher than Bubbles' −1 on Red Dunes (3, Desert
    −4).  Option ``empty_side_claims`` off: only a side with a creature at the land claims it."""
    s = game(["bubbles"], ["tiny"], FIVE)
    s = pass_all(both_done(deploy(s, 0, "bubbles", 4)))
    assert battle(s, 4)["totals"] == [-1, 0] and battle(s, 4)["winner"] == 1
    events = []
    s = game(["bubbles"], ["tiny"], FIVE, empty_side_claims=False)
    s = pass_all(both_done(deploy(s, 0, "bubbles", 4), events), events)
    assert battle(s, 4)["winner"] is None and s["claimed"] == [[], []]
    assert any("South has no creature here" in e["text"] for e in events)


def test_rule_disorient_pushes_a_bonus_below_zero():
    """RULINGS: "Disorient can push a biome bonus below zero".  Cinder (2, no Mountain bonus) pays Flare's
    Disorient 1 on Grey Peaks: its bonus there becomes −1, so it adds 1, not 2; Pike (2) takes 2 damage → 0."""
    s = game(["cinder"], ["pike"], FIVE)
    s = deploy(deploy(s, 0, "cinder", 1), 1, "pike", 1)
    s = both_done(s)
    s = act(s, {"type": "activate", "seat": 0, "creature": T("cinder"), "ability": 0, "target": T("pike")})
    s = pass_all(s)
    assert battle(s, 1)["totals"] == [1, 0]


# ---------------------------------------------------------------- activated abilities at any time
LANDS_2_FOREST = ["grey-peaks", "pine-forest", "still-lake", "green-meadow", "red-dunes"]


def test_rule_activated_ability_at_a_later_land_helps_the_land_being_fought():
    """Rules, Ability: "You can activate these abilities at any time, as long as the creature is deployed to a
    land."  Land 1 (Grey Peaks): Rusty 2 against Pike 2 would tie.  Sprout, face down at land 2 (Pine Forest,
    its home), uses Grove Blessing (all allies +1 Base Power on every land) before land 1 is decided: Rusty 3,
    North claims.  Sprout is turned face up to do it; the rest of land 2 stays hidden."""
    s = game(["rusty", "sprout", "ash"], ["pike"], LANDS_2_FOREST)
    s = deploy(deploy(deploy(deploy(s, 0, "rusty", 0), 0, "sprout", 1), 0, "ash", 1), 1, "pike", 0)
    events = []
    s = both_done(s, events)
    # RULINGS: a land is not decided before both players had the chance to activate
    assert s["phase"] == "combat" and s["battle"] == 0 and s["done"] == [False, True] and not s["battles"]
    assert {"type": "activate", "seat": 0, "creature": T("sprout"), "ability": 0} in RULES.legal_actions(s)
    s = act(s, {"type": "activate", "seat": 0, "creature": T("sprout"), "ability": 0}, events)
    used = next(e for e in events if e["type"] == "ability")
    assert "at land 2, turning it face up" in used["text"]
    for seat in (None, 1):
        seen = RULES.view(s, seat)["zones"]["0.land2"]["cards"]
        assert seen == [T("sprout"), {"hidden": True}]
    assert RULES.totals_if_fought_now(s) == [3, 2]
    s = act(s, {"type": "done", "seat": 0})
    assert battle(s, 0)["totals"] == [3, 2] and battle(s, 0)["winner"] == 0


def test_rule_without_the_ability_the_same_land_ties():
    """The control for the test above: nobody activates, Rusty 2 against Pike 2 ties at land 1."""
    s = game(["rusty", "sprout"], ["pike"], LANDS_2_FOREST)
    s = deploy(deploy(deploy(s, 0, "rusty", 0), 0, "sprout", 1), 1, "pike", 0)
    s = act(both_done(s), {"type": "done", "seat": 0})
    assert battle(s, 0)["totals"] == [2, 2] and battle(s, 0)["winner"] is None


def test_rule_targeted_ability_waits_until_its_land_is_revealed():
    """docs/rulings/territory.md: "one enemy of your choice" needs a target one can see.  Kestrel at land 2 is
    not offered Stoop while land 1 is fought (land 2 face down), and is refused; once land 2 is revealed it is."""
    s = game(["kestrel", "rusty"], ["pike", "dash"], FIVE)
    s = deploy(deploy(deploy(deploy(s, 0, "rusty", 0), 0, "kestrel", 1), 1, "pike", 0), 1, "dash", 1)
    s = both_done(s)
    assert s["battle"] == 0
    assert not any(a.get("creature") == T("kestrel") for a in RULES.activations(s, 0))
    with pytest.raises(IllegalAction, match="still face down"):
        act(s, {"type": "activate", "seat": 0, "creature": T("kestrel"), "ability": 0, "target": T("dash")})
    s = act(s, {"type": "done", "seat": 0})
    assert s["battle"] == 1
    assert {"type": "activate", "seat": 0, "creature": T("kestrel"), "ability": 0,
            "target": T("dash")} in RULES.activations(s, 0)


def test_rule_ability_cannot_change_a_land_already_resolved():
    """RULINGS: abilities are used "before the lands they affect are resolved".  Rusty's Trickster reaches only
    its own land 1; once land 1 is fought it is refused (while land 2 waits for Kestrel's Stoop)."""
    s = game(["rusty", "kestrel"], ["pike", "dash"], FIVE)
    s = deploy(deploy(deploy(deploy(s, 0, "rusty", 0), 0, "kestrel", 1), 1, "pike", 0), 1, "dash", 1)
    s = act(both_done(s), {"type": "done", "seat": 0})
    assert s["battle"] == 1 and battle(s, 0)
    assert not any(a.get("creature") == T("rusty") for a in RULES.activations(s, 0))
    with pytest.raises(IllegalAction, match="land 1 has been fought"):
        act(s, {"type": "activate", "seat": 0, "creature": T("rusty"), "ability": 0})


def test_rule_damage_at_a_face_down_land_names_the_creature_to_its_owner_only():
    """Rules, Ability and Hidden information: Tusker's Trample (deal 1 damage to enemies) used from land 2 while
    land 1 is fought hits Dash, still face down at land 2: South reads the name, North and the table do not."""
    s = game(["tusker", "rusty"], ["dash", "pike"], FIVE)
    s = deploy(deploy(deploy(deploy(s, 0, "rusty", 0), 0, "tusker", 1), 1, "pike", 0), 1, "dash", 1)
    s = both_done(s)
    events = []
    s = act(s, {"type": "activate", "seat": 0, "creature": T("tusker"), "ability": 0}, events)
    hit = next(e for e in events if e["type"] == "damage")
    assert "Dash" in redact_event(hit, 1)["text"]
    assert "Dash" not in redact_event(hit, None)["text"] and "Dash" not in redact_event(hit, 0)["text"]
    assert "Dash" not in str(redact_event(hit, None))


# ---------------------------------------------------------------- the end
def _round_without_claims(s):
    s = both_done(s)
    return pass_all(s)


def test_rule_lands_nobody_claims_end_the_game_after_three_rounds():
    """docs/rulings/territory.md, "Lands nobody can claim": with the land deck empty, three rounds in a row
    without a claim end the game; most lands wins.  Four lands (2 a player) are all dealt; North claims Grey
    Peaks in round 1 (the counter starts), then nobody claims in rounds 2, 3 and 4."""
    s = game(["skye"], ["pike"], ["pine-forest", "grey-peaks", "still-lake", "green-meadow"], lands_per_player=2)
    assert s["land_deck"] == 0 and s["phase"] == "deploy"
    s = pass_all(both_done(deploy(s, 0, "skye", 1)))
    assert s["claimed"][0] == [T("grey-peaks")] and s["stalled"] == 0
    for n in (1, 2):
        s = _round_without_claims(s)
        assert s["phase"] == "deploy" and s["stalled"] == n
    events = []
    s = both_done(s, events)
    assert s["phase"] == "over" and s["winner"] == 0
    assert "no land was claimed in 3 rounds in a row" in s["reason"]
    assert events[-1]["type"] == "game_over" and events[-1]["winner"] == 0


def test_rule_stalled_rounds_zero_plays_until_every_land_is_claimed():
    """Option ``stalled_rounds`` 0: the text's own end only — the game goes on while a land is unclaimed."""
    s = game(["skye"], ["pike"], ["pine-forest", "grey-peaks", "still-lake", "green-meadow"], lands_per_player=2,
             stalled_rounds=0)
    for _ in range(6):
        s = _round_without_claims(s)
    assert s["phase"] == "deploy" and s["stalled"] == 6


# ---------------------------------------------------------------- cards
OVERPRICED = {"cards": [{"id": "territory.colossus", "name": "Colossus", "attrs": {
    "kind": "creature", "species": "Titan", "types": ["giant"], "base_power": 51}}]}


def test_rule_creature_cost_ranges_from_0_to_100():
    """Rules, Creature Deck: "Each creature has a cost ranging from 0 to 100".  Colossus (Base Power 51) costs
    102: a game with it is refused, and the designer's breakdown says why."""
    with pytest.raises(IllegalAction, match=r"costs 102: a creature costs 0 to 100"):
        RULES.setup(RULES.normalise_options({"cards": OVERPRICED}), 1)
    breakdown = price_entry(OVERPRICED["cards"][0])
    assert breakdown.final == 102 and "Over the limit by 2" in breakdown.text()


# ---------------------------------------------------------------- hidden information
def test_rule_refused_face_down_creature_is_not_named_on_the_shared_screen():
    """RULINGS, "Hidden information in refusals": North puts Rusty on South's land pad during the face-down
    deployment.  North (the owner) reads why; South and the shared screen read it without the name."""
    s = game(["rusty"], ["pike"], FIVE)
    with pytest.raises(IllegalAction) as refused:
        RULES.interpret(s, "1.land2", T("rusty"), True)
    error = refused.value
    assert str(error) == "Rusty (Red Fox) is North's creature: it goes on North's side"
    assert error.hidden_from == [1]
    assert error.redacted == "The card on South's pad at land 2 is North's creature: it goes on North's side"
    assert "Rusty" not in error.redacted and "Fox" not in error.redacted


def _deployed_rusty(s):
    return deploy(s, 0, "rusty", 0)


def _in_combat(s):
    return both_done(deploy(s, 1, "pike", 0))


@pytest.mark.parametrize("before, zone, slug", [
    (_deployed_rusty, "0.land2", "rusty"),        # already deployed at land 1
    (None, "0.land2", "nanook"),                  # registered in neither deck
    (_in_combat, "0.land3", "rusty"),             # combat: not the Deploy phase
    (None, "1.ready", "rusty"),                   # North's card on South's ready pad
])
def test_rule_every_refusal_of_a_hidden_creature_is_redacted(before, zone, slug):
    """RULINGS, "Hidden information in refusals": whatever the reason, a refused creature on a land pad or a
    ready pad is named only to the player who may know it (here North)."""
    s = game(["rusty"], ["pike"], FIVE)
    if before is not None:
        s = before(s)
    with pytest.raises(IllegalAction) as refused:
        RULES.interpret(s, zone, T(slug), True)
    error = refused.value
    assert slug.capitalize() in str(error)
    assert error.hidden_from == [1] and slug.capitalize() not in error.redacted


def test_rule_registration_refusals_do_not_name_the_card():
    """Decks are private while they are built (the screen hides costs): a card that would take the deck over
    the budget is refused by name to its seat only."""
    s = RULES.setup(RULES.normalise_options({"deck_budget": 10}), 3)
    s = act(s, {"type": "register", "seat": 0, "creature": T("ash")})
    with pytest.raises(IllegalAction) as refused:
        RULES.interpret(s, "0.ready", T("bramble"), True)
    assert "Bramble" in str(refused.value) and "Bramble" not in refused.value.redacted
    assert refused.value.hidden_from == [1]


def test_rule_lifting_a_face_down_creature_with_a_usable_ability_turns_it_up():
    """The table's way to use an ability of a face-down creature (the shared screen offers no button naming it):
    North lifts Sprout off land 2 and puts it back while land 1 is fought — it is turned face up, and only then
    can its ability be touched.  Lifting Ash (no activated ability) changes nothing."""
    s = game(["rusty", "sprout", "ash"], ["pike"], LANDS_2_FOREST)
    s = deploy(deploy(deploy(deploy(s, 0, "rusty", 0), 0, "sprout", 1), 0, "ash", 1), 1, "pike", 0)
    s = both_done(s)
    assert RULES.interpret(s, "0.land2", T("sprout"), False) is None
    assert RULES.interpret(s, "0.land2", T("ash"), True) is None
    action = RULES.interpret(s, "0.land2", T("sprout"), True)
    assert action == {"type": "show", "seat": 0, "creature": T("sprout")}
    events = []
    s = act(s, action, events)
    assert events[0]["text"] == "North turns Sprout (Treant Sapling) face up at land 2 to use its ability"
    assert RULES.view(s, None)["zones"]["0.land2"]["cards"] == [T("sprout"), {"hidden": True}]
    assert RULES.interpret(s, "0.land2", T("sprout"), True) is None                 # already face up


def test_rule_the_screen_says_how_to_use_a_face_down_creatures_ability():
    """The phase label tells the table the gesture while a face-down creature has a usable ability — without
    naming it or saying whose it is."""
    s = game(["rusty", "sprout", "ash"], ["pike"], LANDS_2_FOREST)
    s = both_done(deploy(deploy(deploy(deploy(s, 0, "rusty", 0), 0, "sprout", 1), 0, "ash", 1), 1, "pike", 0))
    label = RULES.view(s, None)["phase_label"]
    assert label.endswith("(to use a face-down creature's ability, lift it and put it back)")
    assert "Sprout" not in label
    s = act(s, {"type": "show", "seat": 0, "creature": T("sprout")})
    assert "lift it" not in RULES.view(s, None)["phase_label"]
