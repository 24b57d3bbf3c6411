"""The Original Rules Concept (shared/rules/003_…) and its rulings, checked by hand-worked cases.

Each test names the passage of the rules text (quoted) or of RULINGS.md / docs/rulings/arcmage.md
it checks.
"""
import pytest

from companion.engine import IllegalAction
from companion.games.arcmage import RULES

from .play import (NORTH, SOUTH, act, cid, creature, end_turn, gold, put, region, started, to_phase)


# ---- tactical phase ----------------------------------------------------------------------

def test_faith_example_domain_points_are_3_plus_2_plus_5_equals_10():
    """Rules text, Tactical: 'The first creature card has a gold cost value of 3, the second ... 2,
    and the third ... 5. Hence, the players domain point in the Faith domain is 10 (3 + 2 + 5 = 10)'."""
    s = started()
    s, _ = put(s, NORTH, "faith", "elf-druid")              # cost 3
    s, _ = put(s, NORTH, "faith", "forest-sentinel")        # cost 2
    s, _ = put(s, NORTH, "faith", "knight-of-the-crown")    # cost 5
    s, _ = to_phase(s, "tactical")
    assert RULES.view(s, None)["detail"]["tactical"]["points"]["faith"] == [10, 0]
    assert RULES.view(s, None)["zones"]["0.faith"]["summary"] == "Faith: 3 servants, 10 domain points"   # counted words (issue 25), was "3 servant(s)"


def test_domain_points_count_only_unmarked_creatures():
    """Rules text: 'the player sums up the gold cost of all unmarked creatures in it' (RULINGS: every
    unmarked creature of the pile, not only the top)."""
    s = started()
    s, _ = put(s, SOUTH, "faith", "ghoul", marked=True)     # cost 2, marked: does not count
    s, _ = put(s, SOUTH, "faith", "necromancer")            # cost 4
    s, _ = to_phase(s, "tactical")
    assert RULES.view(s, None)["detail"]["tactical"]["points"]["faith"] == [0, 4]


def test_advantage_needs_two_more_points_exactly_two_is_enough():
    """Rules text, Advantage: 'When you have 2 or more domain points in a given domain compared to what
    your opponent has ... you may win that domains tactical advantage.'"""
    s = started()
    s, _ = put(s, NORTH, "politics", "elf-druid")           # 3 against 1: exactly 2 more
    s, _ = put(s, SOUTH, "politics", "skeleton-warrior")    # 1
    s, _ = put(s, NORTH, "science", "forest-sentinel")      # 2 against 1: only 1 more
    s, _ = put(s, SOUTH, "science", "goblin-sapper")        # 1
    s, _ = to_phase(s, "tactical")
    s2, events = act(s, "claim", NORTH, claim="advantage", domain="politics")
    assert "has 3 Politics against 1 and claims the Politics advantage of Whispering Woods: Draw a card." in events[0]["text"]
    with pytest.raises(IllegalAction, match="Science: 2 against 1; an advantage needs 2 or more points more"):
        act(s, "claim", NORTH, claim="advantage", domain="science")


def test_domination_gives_one_vp_and_replaces_advantages():
    """Rules text, Domination: 'If you have won at least 2 of the domains you may claim Domination ...
    1. Get 1 victory point, or 2. Get the Domination effect' and 'It is not possible to claim Domination
    at the same time as Advantage effect(s) are claimed'."""
    s = started()
    s, _ = put(s, NORTH, "politics", "elf-druid")
    s, _ = put(s, NORTH, "faith", "forest-sentinel")
    s, _ = to_phase(s, "tactical")
    dominated, _ = act(s, "claim", NORTH, claim="domination", choice="vp")
    assert dominated["p"][NORTH]["vp"] == 1
    with pytest.raises(IllegalAction, match="Domination replaces every other claim"):
        act(dominated, "claim", NORTH, claim="advantage", domain="faith")
    advantaged, _ = act(s, "claim", NORTH, claim="advantage", domain="faith")
    with pytest.raises(IllegalAction, match="Advantages were already claimed"):
        act(advantaged, "claim", NORTH, claim="domination", choice="vp")
    _, events = act(s, "claim", NORTH, claim="domination", choice="effect")
    assert events[0]["text"].endswith("claims Domination with the effect of Whispering Woods: Gain 2 HP.")
    with pytest.raises(IllegalAction, match="Total Domination needs 3 domains won; North has won 2"):
        act(s, "claim", NORTH, claim="total_domination", choice="vp")


def test_total_domination_gives_three_vp_or_the_region_effect():
    """Rules text, Total Domination: 'If you have won all 3 ... 1. Get 3 victory points, or 2. Get the
    Total Domination effect of your active region card.'"""
    s = started()
    for d in ("politics", "science", "faith"):
        s, _ = put(s, NORTH, d, "forest-sentinel")          # 2 against 0 in each
    s, _ = to_phase(s, "tactical")
    three, events = act(s, "claim", NORTH, claim="total_domination", choice="vp")
    assert three["p"][NORTH]["vp"] == 3 and events[0]["text"] == "North claims Total Domination: 3 VP."
    _, events = act(s, "claim", NORTH, claim="total_domination", choice="effect")
    assert "Every creature of yours gets +1/+1 this turn." in events[0]["text"]


def test_unclaimed_advantages_cannot_be_claimed_after_the_tactical_phase():
    """Rules text: 'Unclaimed advantages can not be claimed after the player has continued into any
    other phase beyond the tactical.'"""
    s = started()
    s, _ = put(s, NORTH, "politics", "elf-druid")
    s, _ = to_phase(s, "draw")
    with pytest.raises(IllegalAction, match="done in the Tactical phase; now it is the Draw phase"):
        act(s, "claim", NORTH, claim="advantage", domain="politics")


# ---- combat ------------------------------------------------------------------------------

def _attack(s, attackers, blocks=(), split=None):
    """North attacks; South blocks ``blocks`` [(blocker, attacker)]; North resolves."""
    s, _ = act(s, "attack", NORTH, attackers=list(attackers))
    for blocker, attacker in blocks:
        s, _ = act(s, "block", SOUTH, blocker=blocker, attacker=attacker)
    s, _ = act(s, "blocks_done", SOUTH)
    for attacker, damage in (split or {}).items():
        s, _ = act(s, "split", NORTH, attacker=attacker, damage=damage)
    return act(s, "resolve", NORTH)


def _move_phase():
    return to_phase(started(), "move1")[0]


def test_a_blocker_dies_when_attack_equals_its_defence():
    """Rules text, Combat: 'If the ATK value of the attacker is higher or equal the blockers DEF value the
    blocking creature will die.' Moonlit Huntress (4/3) against Necromancer (2/4) in the Front."""
    s = _move_phase()
    s, huntress = put(s, NORTH, "front", "moonlit-huntress")
    s, necro = put(s, SOUTH, "front", "necromancer")
    s, events = _attack(s, [huntress], [(necro, huntress)])
    assert creature(s, SOUTH, necro) is None and s["p"][SOUTH]["grave"][-1] == cid("necromancer")
    _, h = creature(s, NORTH, huntress)
    assert h["damage"] == 2 and h["marked"]                        # struck back for 2 < 3: survives
    result = [e for e in events if e["type"] == "battle_result"][0]
    assert result["winner"] == NORTH and result["outcome"] == "win"
    assert "Moonlit Huntress (4) hits Necromancer (4 DEF): dies" in result["text"]
    assert region(s, SOUTH)["hp"] == 9                              # a block protects the region


def test_attack_below_defence_does_not_kill():
    """Rules text: 'If the ATK value of the attacker is lower than the blockers DEF value the blocking
    creature survives.' Elf Druid (2/3) against Necromancer (2/4)."""
    s = _move_phase()
    s, druid = put(s, NORTH, "front", "elf-druid")
    s, necro = put(s, SOUTH, "front", "necromancer")
    s, _ = _attack(s, [druid], [(necro, druid)])
    assert creature(s, SOUTH, necro)[1]["damage"] == 2
    assert creature(s, NORTH, druid)[1]["damage"] == 2              # 2 back < 3 DEF


def test_a_front_blocker_strikes_back_and_can_kill_the_attacker():
    """Rules text: 'Regardless of the outcome the blocker gets to strike back at the attacker if he/she
    is defending from the Front.' Wild Boar (2/1) against Ghoul (2/2): both die."""
    s = _move_phase()
    s, boar = put(s, NORTH, "front", "wild-boar")
    s, ghoul = put(s, SOUTH, "front", "ghoul")
    s, events = _attack(s, [boar], [(ghoul, boar)])
    assert creature(s, NORTH, boar) is None and creature(s, SOUTH, ghoul) is None
    result = [e for e in events if e["type"] == "battle_result"][0]
    assert result["winner"] is None and result["outcome"] == "tie"


def test_a_servant_blocking_from_a_domain_never_strikes_back():
    """Rules text: 'Blockers that are servants and therefore located in the Domains do not strike back
    on the attackers while blocking the attack.' Wild Boar (2/1) against the top servant Ghoul (2/2)."""
    s = _move_phase()
    s, boar = put(s, NORTH, "front", "wild-boar")
    s, ghoul = put(s, SOUTH, "faith", "ghoul")
    s, events = _attack(s, [boar], [(ghoul, boar)])
    assert creature(s, SOUTH, ghoul) is None
    assert creature(s, NORTH, boar)[1]["damage"] == 0
    assert "servants never strike back" in [e for e in events if e["type"] == "battle_result"][0]["text"]


def test_only_the_top_servant_may_block():
    """Rules text: 'All other servants that have any other position in a domain pile may not use their
    abilities, move, mark, assign, attack, defend or anything else until they become a top.'"""
    s = _move_phase()
    s, boar = put(s, NORTH, "front", "wild-boar")
    s, under = put(s, SOUTH, "faith", "ghoul")
    s, _ = put(s, SOUTH, "faith", "skeleton-warrior")
    s, _ = act(s, "attack", NORTH, attackers=[boar])
    with pytest.raises(IllegalAction, match="Ghoul is under another servant"):
        act(s, "block", SOUTH, blocker=under, attacker=boar)


def test_several_blockers_share_the_attack_in_block_order_and_all_strike_back():
    """RULINGS: 'One attacker blocked by several creatures: the attacking player splits the attacker's
    ATK among its blockers; every Front blocker strikes back.' Ancient Oak (3/8) against two Skeleton
    Warriors (1/1) and a Ghoul (2/2): by default 1, 1 and 1; strike back 1 + 1 + 2 = 4 < 8."""
    s = _move_phase()
    s, oak = put(s, NORTH, "front", "ancient-oak")
    s, sk1 = put(s, SOUTH, "front", "skeleton-warrior")
    s, sk2 = put(s, SOUTH, "front", "skeleton-warrior")
    s, ghoul = put(s, SOUTH, "front", "ghoul")
    s, _ = _attack(s, [oak], [(sk1, oak), (sk2, oak), (ghoul, oak)])
    assert creature(s, SOUTH, sk1) is None and creature(s, SOUTH, sk2) is None
    assert creature(s, SOUTH, ghoul)[1]["damage"] == 1
    assert creature(s, NORTH, oak)[1]["damage"] == 4


def test_the_attacking_player_chooses_the_split_and_it_must_add_up_to_the_attack():
    """RULINGS: 'the attacking player splits the attacker's ATK among its blockers'. Oak (3) puts 0 on the
    first Skeleton, 1 on the second and 2 on the Ghoul: the first Skeleton lives."""
    s = _move_phase()
    s, oak = put(s, NORTH, "front", "ancient-oak")
    s, sk1 = put(s, SOUTH, "front", "skeleton-warrior")
    s, sk2 = put(s, SOUTH, "front", "skeleton-warrior")
    s, ghoul = put(s, SOUTH, "front", "ghoul")
    with pytest.raises(IllegalAction, match="The shares add up to 4; Ancient Oak has 3 ATK to split"):
        _attack(s, [oak], [(sk1, oak), (sk2, oak), (ghoul, oak)],
                split={oak: {str(sk1): 1, str(sk2): 1, str(ghoul): 2}})
    s, _ = _attack(s, [oak], [(sk1, oak), (sk2, oak), (ghoul, oak)],
                   split={oak: {str(sk1): 0, str(sk2): 1, str(ghoul): 2}})
    assert creature(s, SOUTH, sk1) is not None
    assert creature(s, SOUTH, sk2) is None and creature(s, SOUTH, ghoul) is None


def test_damage_accumulates_within_a_turn_and_clears_at_its_end():
    """RULINGS: 'Damage on creatures accumulates within a turn and a creature dies when its damage reaches
    its DEF; damage clears at end of turn.'"""
    s = _move_phase()
    s, oak = put(s, NORTH, "front", "ancient-oak")
    s, ghoul = put(s, SOUTH, "front", "ghoul")
    s, sk = put(s, SOUTH, "front", "skeleton-warrior")
    s, _ = _attack(s, [oak], [(sk, oak), (ghoul, oak)])             # 1 to the skeleton, 2 to the ghoul
    s, events = act(s, "adjust", NORTH, counter=f"card.{oak}.damage", delta=5)   # 3 + 5 = 8 = DEF
    assert creature(s, NORTH, oak) is None
    s = _move_phase()
    s, oak = put(s, NORTH, "front", "ancient-oak")
    s, sk = put(s, SOUTH, "front", "skeleton-warrior")
    s, _ = _attack(s, [oak], [(sk, oak)])
    assert creature(s, NORTH, oak)[1]["damage"] == 1
    s = end_turn(s)
    assert creature(s, NORTH, oak)[1]["damage"] == 0


def test_unblocked_attackers_hit_the_active_region():
    """Rules text: 'Allow the attacks to go on undefended and let the Region lose HP that's equal to the
    total amount of damage dealt by the attackers.' Huntress 4 + Boar 2 into Cursed Marshes (9 HP)."""
    s = _move_phase()
    s, huntress = put(s, NORTH, "front", "moonlit-huntress")
    s, boar = put(s, NORTH, "front", "wild-boar")
    s, events = _attack(s, [huntress, boar])
    assert region(s, SOUTH)["hp"] == 3
    assert [e["winner"] for e in events if e["type"] == "battle_result"] == [NORTH, NORTH]


def test_a_destroyed_region_is_discarded_and_the_next_is_revealed_with_its_draws():
    """Rules text, Region: 'that region is discarded and the next one beneath it is revealed' and the
    symbols 'show how many cards the player gets to draw directly when he/she loses the region' (Cursed
    Marshes: 2). docs/rulings/arcmage.md: excess damage does not carry over."""
    s = _move_phase()
    s, _ = act(s, "adjust", SOUTH, counter="1.hp", delta=-6)        # 9 → 3
    s, huntress = put(s, NORTH, "front", "moonlit-huntress")
    hand, deck = s["p"][SOUTH]["hand"], s["p"][SOUTH]["deck"]
    s, events = _attack(s, [huntress])
    assert region(s, SOUTH)["card"] == cid("necropolis") and region(s, SOUTH)["hp"] == 12
    assert s["p"][SOUTH]["grave"][-1] == cid("cursed-marshes")
    assert (s["p"][SOUTH]["hand"], s["p"][SOUTH]["deck"]) == (hand + 2, deck - 2)
    lost = [e for e in events if e["type"] == "region_lost"][0]
    assert lost["text"] == ("Cursed Marshes of South is destroyed; South draws 2. "
                            "Next region revealed: Necropolis (12 HP).")


def test_losing_the_last_region_loses_the_game():
    """Rules text: 'The player that loses the last region is the one that also lost the game.'"""
    s = to_phase(started(south=["necropolis"]), "move1")[0]
    s, _ = act(s, "adjust", SOUTH, counter="1.hp", delta=-10)       # 12 → 2
    s, boar = put(s, NORTH, "front", "wild-boar")
    s, _ = _attack(s, [boar])
    assert s["phase"] == "fallen" and not RULES.is_over(s)
    assert RULES.legal_actions(s) == [{"type": "end_game", "seat": NORTH, "label": "End the game"}]
    s, events = act(s, "end_game", NORTH)
    assert RULES.result(s)["winner"] == NORTH and RULES.result(s)["how"] == "regions"
    assert events[-1] == {"type": "game_over", "winner": NORTH, "reason": "South has lost their last region",
                          "text": "South has lost their last region. North wins."}


def test_both_lose_their_last_region_in_the_same_turn_most_vp_wins_else_draw():
    """Rules text: 'In the rare case where all remaining players both lose all their regions during the
    same turn the player with the highest amount of victory points is the winner. If that is also equal
    then the game is considered a draw.'"""
    s = to_phase(started(north=["sacred-grove"], south=["necropolis"]), "move1")[0]
    s, _ = act(s, "adjust", SOUTH, counter="1.hp", delta=-12)       # South's last region falls
    s, _ = act(s, "adjust", NORTH, counter="0.hp", delta=-15)       # a card hits North's too, same turn
    assert s["fallen"] == [SOUTH, NORTH]
    drawn, _ = act(s, "end_game", NORTH)
    assert RULES.result(drawn)["winner"] is None and RULES.result(drawn)["how"] == "regions_tie"
    s, _ = act(s, "adjust", SOUTH, counter="1.vp", delta=1)
    south_wins, _ = act(s, "end_game", NORTH)
    assert RULES.result(south_wins)["winner"] == SOUTH


def test_reaching_the_vp_target_wins_at_once_and_the_target_is_an_option():
    """Rules text: 'be the first one to achieve a certain amount of Victory Points (VP)'; RULINGS: 'The
    victory-point target is a setup option (default 10).'"""
    assert RULES.default_options()["vp_target"] == 10
    s = started(vp_target=3)
    for d in ("politics", "science", "faith"):
        s, _ = put(s, NORTH, d, "forest-sentinel")
    s, _ = to_phase(s, "tactical")
    s, events = act(s, "claim", NORTH, claim="total_domination", choice="vp")
    assert RULES.is_over(s) and RULES.result(s)["winner"] == NORTH and RULES.result(s)["how"] == "victory_points"
    assert events[-1]["text"] == "North reaches 3 victory points (target 3). North wins."
    with pytest.raises(IllegalAction, match="at least 1"):
        RULES.setup(RULES.normalise_options({"vp_target": 0}), 1)


def test_an_empty_deck_in_the_draw_phase_loses():
    """Rules text: 'If a player can't draw a card during the draw phase due to his/her Deck being depleted
    then the player loses the game.'"""
    s = started()
    s, _ = act(s, "adjust", NORTH, counter="0.deck", delta=-53)
    s, _ = to_phase(s, "tactical")
    s, events = act(s, "next", NORTH)
    assert RULES.result(s)["winner"] == SOUTH
    assert events[-1]["text"] == "North cannot draw: their deck is empty. South wins."


# ---- turn structure ----------------------------------------------------------------------

def test_phases_come_in_order_and_only_optional_ones_are_skipped():
    """Rules text, Turn Structure: the ten phases; 'The phases that are mandatory are the Unmark/unassign,
    Upkeep, Tactical, Draw and Discard-phases. The Play, Move or Attack and Entrance phases are all
    optional'."""
    s = started()
    with pytest.raises(IllegalAction, match="The Upkeep phase cannot be skipped"):
        act(s, "next", NORTH, to="draw")
    s, _ = to_phase(s, "play1")
    s, _ = act(s, "next", NORTH, to="entrance")                     # Move, Play, Move skipped
    assert s["phase"] == "entrance"
    with pytest.raises(IllegalAction, match="not a phase after the Entrance phase"):
        act(s, "next", NORTH, to="play2")
    with pytest.raises(IllegalAction, match="It is North's turn, not South's"):
        act(s, "next", SOUTH)
    s, _ = act(s, "next", NORTH)
    s, _ = act(s, "discard", NORTH)                                 # 8 in hand after drawing
    s, events = act(s, "next", NORTH)                               # Discard → South's turn
    assert (s["active"], s["phase"], s["turn"]) == (SOUTH, "unmark", 2)


def test_draw_one_or_two_at_least_one_and_exhausting_draws_a_third():
    """Rules text, Draw: 'The player must draw up to 2 cards each turn ... decides him/herself if 1 or 2
    cards are drawn'; Exhausting: 'draw up to 1 additional card ... discard either a) target ally top
    servant or b) a card in hand'."""
    s, _ = to_phase(started(), "tactical")
    s, _ = act(s, "next", NORTH)
    with pytest.raises(IllegalAction, match="Draw at least 1 card first"):
        act(s, "next", NORTH)
    s, _ = act(s, "draw", NORTH)
    s, _ = act(s, "draw", NORTH)
    with pytest.raises(IllegalAction, match="North has drawn 2: that is all this turn \\(exhaust to draw a third\\)"):
        act(s, "draw", NORTH)
    s, _ = act(s, "exhaust", NORTH, discard="hand")
    s, _ = act(s, "draw", NORTH)
    assert (s["p"][NORTH]["hand"], s["p"][NORTH]["deck"], s["p"][NORTH]["grave"]) == (9, 50, [None])
    with pytest.raises(IllegalAction, match="Exhausting is allowed once a turn"):
        act(s, "exhaust", NORTH, discard="hand")


def test_after_exhausting_no_vault_and_no_movement():
    """Rules text: 'A player that has performed an exhaustion may not put any resources into the vault
    during that turn or perform a movement.' Exhausting by discarding a top servant."""
    s = started()
    s, top = put(s, NORTH, "faith", "elf-druid")
    s, mover = put(s, NORTH, "front", "wild-boar")
    s, _ = to_phase(s, "draw")
    s, _ = act(s, "exhaust", NORTH, discard=top)
    assert creature(s, NORTH, top) is None and s["p"][NORTH]["grave"] == [cid("elf-druid")]
    s, _ = act(s, "draw", NORTH)
    s, _ = act(s, "next", NORTH)
    with pytest.raises(IllegalAction, match="After exhausting, no card may go into the vault"):
        act(s, "resource", NORTH, card=cid("wild-boar"))
    s, _ = act(s, "next", NORTH)
    with pytest.raises(IllegalAction, match="After exhausting, no movement"):
        act(s, "move", NORTH, card=mover, to="politics")


def test_mulligan_once_in_the_first_turn_before_proceeding():
    """Rules text, Mulligan: 'Selects two of the cards in the starting hand and puts them into the grave
    ... Draws new cards until the player gets 7 in hand again.' and 'can't be performed in a later turn,
    nor ... after a player has accepted the cards'."""
    s = started()
    m, _ = act(s, "mulligan", NORTH)
    assert (m["p"][NORTH]["hand"], m["p"][NORTH]["deck"], m["p"][NORTH]["grave"]) == (7, 51, [None, None])
    with pytest.raises(IllegalAction, match="once, in your first turn"):
        act(m, "mulligan", NORTH)
    s, _ = act(s, "next", NORTH)
    with pytest.raises(IllegalAction, match="done in the Unmark/Unassign phase"):
        act(s, "mulligan", NORTH)
    s = end_turn(to_phase(s, "discard")[0])
    s, _ = act(s, "mulligan", SOUTH)                                 # South's own first turn
    s = end_turn(s)
    with pytest.raises(IllegalAction, match="once, in your first turn"):
        act(s, "mulligan", NORTH)


# ---- gold, entering play, moving ---------------------------------------------------------

def test_one_resource_a_turn_gold_is_paid_by_marking_and_unmarks_next_turn():
    """Rules text, Vault: 'Each turn a player may put one of the cards in hand face down in the Vault'; a
    resource 'produces 1 gold each turn, if and only if it becomes marked'; 'The players resource cards
    replenish at the start of his/her next turn by becoming unmarked.'"""
    s, _ = to_phase(gold(started(), NORTH, 2), "play1")
    s, _ = act(s, "resource", NORTH, card=cid("ghoul"))
    with pytest.raises(IllegalAction, match="Only one card a turn goes into the vault"):
        act(s, "resource", NORTH, card=cid("ghoul"))
    s, _ = to_phase(s, "entrance")
    s, events = act(s, "enter", NORTH, card=cid("elf-druid"), to="front")    # costs 3: all three mark
    assert [r["marked"] for r in s["p"][NORTH]["vault"]] == [True, True, True]
    assert events[0]["text"] == "North pays 3 gold: Elf Druid (2/3) enters the Front."
    with pytest.raises(IllegalAction, match="Wild Boar costs 1 gold; North has 0"):
        act(s, "enter", NORTH, card=cid("wild-boar"), to="front")
    s = end_turn(end_turn(s))
    assert [r["marked"] for r in s["p"][NORTH]["vault"]] == [False, False, False]


def test_gold_produced_but_not_spent_is_lost_at_the_end_of_the_turn():
    """Rules text: 'At the end of turn all leftover gold that hasn't been used disappears'."""
    s, _ = to_phase(gold(started(), NORTH, 2), "play1")
    s, _ = act(s, "adjust", NORTH, counter="0.gold", delta=2)
    assert RULES.view(s, None)["detail"]["players"][NORTH]["gold"] == 4
    s = end_turn(s)
    assert s["p"][NORTH]["gold"] == 0


def test_creatures_enter_the_front_or_a_domain_top_only_in_the_entrance_phase():
    """Rules text, Entrance: 'the player may put new Creatures into play in any one of the three domains
    ... or as a warrior in the Front. Creatures that are put in a domain should be put on top'."""
    s, _ = to_phase(gold(started(), NORTH, 5), "play1")
    with pytest.raises(IllegalAction, match="done in the Entrance phase; now it is the Play phase"):
        act(s, "enter", NORTH, card=cid("wild-boar"), to="faith")
    s, _ = to_phase(s, "entrance")
    s, _ = act(s, "enter", NORTH, card=cid("wild-boar"), to="faith")
    s, _ = act(s, "enter", NORTH, card=cid("forest-sentinel"), to="faith")
    assert [c["card"] for c in s["p"][NORTH]["faith"]] == [cid("wild-boar"), cid("forest-sentinel")]
    assert RULES.view(s, None)["detail"]["players"][NORTH]["domains"]["faith"]["servants"][-1]["top"]
    assert s["p"][NORTH]["hand"] == 6                                  # 7 + 1 drawn − 2 played


def test_one_move_a_turn_between_kingdom_and_front_only_for_the_top_servant():
    """Rules text, Movement: 'Up to one creature per turn may perform a movement between the Kingdom and
    Front ... The creature is unmarked/unassigned. The creature is the top servant ... Moves between two
    domains are not possible.' and 'Mark it'."""
    s = started()
    s, under = put(s, NORTH, "faith", "elf-druid")
    s, top = put(s, NORTH, "faith", "forest-sentinel")
    s, _ = to_phase(s, "move1")
    with pytest.raises(IllegalAction, match="Elf Druid is under another servant"):
        act(s, "move", NORTH, card=under, to="front")
    with pytest.raises(IllegalAction, match="never between two domains"):
        act(s, "move", NORTH, card=top, to="politics")
    s, events = act(s, "move", NORTH, card=top, to="front")
    assert events[0]["text"] == "North moves Forest Sentinel from the Faith domain to the Front."
    pile, moved = creature(s, NORTH, top)
    assert pile == "front" and moved["marked"]
    s, _ = act(s, "next", NORTH)
    s, _ = act(s, "next", NORTH)                                      # second Move or Attack phase
    with pytest.raises(IllegalAction, match="already moved this turn"):
        act(s, "move", NORTH, card=under, to="front")


def test_move_or_attack_in_one_phase_not_both():
    """Rules text: 'The move/attack phase allows the player to either move with one creature or attack ...
    It does not allow the player to do both'; the other may follow in the second Move or Attack phase."""
    s = started()
    s, boar = put(s, NORTH, "front", "wild-boar")
    s, druid = put(s, NORTH, "faith", "elf-druid")
    s, _ = to_phase(s, "move1")
    s, _ = act(s, "move", NORTH, card=druid, to="front")
    with pytest.raises(IllegalAction, match="a move or an attack, not both"):
        act(s, "attack", NORTH, attackers=[boar])
    s, _ = to_phase(s, "move2")
    s, _ = act(s, "attack", NORTH, attackers=[boar])
    assert s["combat"]["attackers"] == [boar]


def test_moving_into_a_domain_drops_equipment_in_the_front():
    """Rules text: 'Equipment is not allowed to enter the domains: When a creature is moved to a domain it
    drops the Equipment in the Front.' Dropped equipment not picked up goes to the grave at end of turn."""
    s = gold(started(), NORTH, 2)
    s, druid = put(s, NORTH, "front", "elf-druid")
    s, _ = to_phase(s, "play1")
    s, events = act(s, "play", NORTH, card=cid("living-bow"), target=f"creature:{druid}")
    assert creature(s, NORTH, druid)[1]["equip"][0]["card"] == cid("living-bow")
    assert RULES.view(s, None)["detail"]["players"][NORTH]["front"][0]["atk"] == 4      # 2 + 2
    s, _ = to_phase(s, "move1")
    s, _ = act(s, "move", NORTH, card=druid, to="science")
    assert creature(s, NORTH, druid)[1]["equip"] == [] and len(s["p"][NORTH]["dropped"]) == 1
    s = end_turn(s)
    assert s["p"][NORTH]["dropped"] == [] and s["p"][NORTH]["grave"][-1] == cid("living-bow")


def test_a_creature_carries_one_equipment_of_each_subtype():
    """Rules text: 'A creature may carry one Equipment card from each Equipment subtype at the same time.'"""
    s = gold(started(), NORTH, 6)
    s, druid = put(s, NORTH, "front", "elf-druid")
    s, _ = to_phase(s, "play1")
    s, _ = act(s, "play", NORTH, card=cid("living-bow"), target=f"creature:{druid}")
    s, _ = act(s, "play", NORTH, card=cid("damocles-sword"))
    assert RULES.targets(s) == []                                      # a Weapon already
    s, _ = act(s, "cancel", NORTH)
    s, _ = act(s, "play", NORTH, card=cid("tower-shield"), target=f"creature:{druid}")
    assert RULES.view(s, None)["detail"]["players"][NORTH]["front"][0]["def"] == 5       # 3 + 2


def test_magic_needs_servants_worth_its_cost_in_its_domain_and_uses_no_gold():
    """Rules text, Magic: 'To play a Magic card it's corresponding domain must contain creatures that have
    a total gold value that is equal to or larger than the cost requirement ... No gold is ever used up'."""
    s = started()
    s, _ = put(s, NORTH, "faith", "forest-sentinel")                  # 2
    s, _ = to_phase(s, "play1")
    with pytest.raises(IllegalAction, match="Suffocate needs creatures worth 3 gold in your Faith domain; they are worth 2"):
        act(s, "play", NORTH, card=cid("suffocate"))
    s, _ = put(s, NORTH, "faith", "wild-boar")                        # 2 + 1 = 3
    s, events = act(s, "play", NORTH, card=cid("suffocate"))
    assert s["p"][NORTH]["grave"] == [cid("suffocate")] and s["p"][NORTH]["vault"] == []


def test_events_may_be_played_on_the_opponents_turn():
    """Rules text, Events: 'You may play an Event card at any time, even on your opponents turn'."""
    s, _ = to_phase(gold(started(), SOUTH, 3), "move1")
    s, boar = put(s, NORTH, "front", "wild-boar")
    s, _ = act(s, "attack", NORTH, attackers=[boar])
    s, events = act(s, "play", SOUTH, card=cid("raise-dead"))
    assert s["p"][SOUTH]["grave"] == [cid("raise-dead")] and s["p"][SOUTH]["hand"] == 6


# ---- marking and assigning ---------------------------------------------------------------

def test_assigned_creatures_cannot_attack_and_unassign_only_in_the_unmark_phase():
    """Rules text, Assigning: 'Assigned creatures can't attack or defend.'; 'Unassignment may only occur
    during the unmark/unassign phase ... the controlling player puts the card in the marked state ... it
    can not mark or assign again during the same turn'."""
    s = started()
    s, druid = put(s, NORTH, "front", "elf-druid")
    s, _ = to_phase(s, "play1")
    s, events = act(s, "assign", NORTH, card=druid)
    assert events[0]["text"] == "North assigns Elf Druid: (A): Your region gains up to 2 HP it has previously lost."
    s, _ = to_phase(s, "move1")
    with pytest.raises(IllegalAction, match="Elf Druid is assigned"):
        act(s, "attack", NORTH, attackers=[druid])
    s = end_turn(end_turn(s))                                          # North's next Unmark phase
    assert creature(s, NORTH, druid)[1]["assigned"]                   # 'Don't automatically unassign'
    s, _ = act(s, "unassign", NORTH, card=druid)
    c = creature(s, NORTH, druid)[1]
    assert (c["assigned"], c["marked"]) == (False, True)
    s, _ = to_phase(s, "play1")
    with pytest.raises(IllegalAction, match="Elf Druid was unassigned this turn"):
        act(s, "assign", NORTH, card=druid)


def test_a_creature_without_the_assign_symbol_cannot_be_assigned():
    """Rules text: 'Only unmarked and unassigned creatures with the assign symbol ... can be assigned'."""
    s = started()
    s, boar = put(s, NORTH, "front", "wild-boar")
    s, _ = to_phase(s, "play1")
    with pytest.raises(IllegalAction, match="Wild Boar has no assign \\(A\\) ability"):
        act(s, "assign", NORTH, card=boar)


def test_blocking_with_the_front_and_the_domains_together_is_a_variant():
    """Rules text, Defend: 'The defending player must choose one of the following: ... top servant from
    one or more of the 3 Domains ... one or more creatures from his/her Front'. docs/rulings/arcmage.md:
    the option ``mixed_blockers`` allows any mix."""
    def attack_with_both(**options):
        s = to_phase(started(**options), "move1")[0]
        s, oak = put(s, NORTH, "front", "ancient-oak")
        s, front = put(s, SOUTH, "front", "ghoul")
        s, servant = put(s, SOUTH, "faith", "skeleton-warrior")
        s, _ = act(s, "attack", NORTH, attackers=[oak])
        s, _ = act(s, "block", SOUTH, blocker=front, attacker=oak)
        return act(s, "block", SOUTH, blocker=servant, attacker=oak)
    with pytest.raises(IllegalAction, match="block with Front creatures or with top servants, not both"):
        attack_with_both()
    s, _ = attack_with_both(mixed_blockers=True)
    assert len(s["combat"]["blocks"][str(s["combat"]["attackers"][0])]) == 2


# ---- discard phase -----------------------------------------------------------------------

def test_hand_limit_seven_in_the_discard_phase():
    """Rules text, Discard: 'If the player has more than 7 cards (>7) in his/her hand the player must
    select and discard any excess cards down to 7. A player may not discard ... if he/she has 7 or less'."""
    s, _ = to_phase(started(), "draw")
    s, _ = act(s, "draw", NORTH)
    s, _ = act(s, "draw", NORTH)                                      # 9 in hand
    s, _ = to_phase(s, "discard")
    with pytest.raises(IllegalAction, match="North has 9 cards in hand: discard down to 7 first"):
        act(s, "next", NORTH)
    s, _ = act(s, "discard", NORTH)
    s, _ = act(s, "discard", NORTH)
    with pytest.raises(IllegalAction, match="North has 7 cards: discarding is only allowed above 7"):
        act(s, "discard", NORTH)
    s, _ = act(s, "next", NORTH)
    assert s["active"] == SOUTH


def test_the_active_region_may_be_discarded_but_not_the_last():
    """Rules text: 'The player may discard his/her active region during this phase. ... the next region
    beneath it is revealed ... It is not possible to discard the last region.'"""
    s, _ = to_phase(started(north=["whispering-woods", "sacred-grove"]), "discard")
    s, events = act(s, "discard_region", NORTH)
    assert region(s, NORTH)["card"] == cid("sacred-grove")
    with pytest.raises(IllegalAction, match="The last region cannot be discarded"):
        act(s, "discard_region", NORTH)


# ---- manual adjustments ------------------------------------------------------------------

def test_manual_adjustments_are_actions_but_never_listed_as_moves():
    """RULINGS: 'the screen offers manual adjustments (±ATK/DEF, ±HP, ±VP, mark/unmark) that are logged
    like any action.'"""
    s = started()
    s, druid = put(s, NORTH, "front", "elf-druid")
    s, _ = act(s, "adjust", SOUTH, counter=f"card.{druid}.atk", delta=5)
    s, _ = act(s, "adjust", NORTH, counter=f"card.{druid}.def", delta=-1)
    assert RULES.view(s, None)["detail"]["players"][NORTH]["front"][0]["atk"] == 7
    s, events = act(s, "adjust", NORTH, counter="0.hp", delta=2)
    assert events[0]["text"] == "Whispering Woods of North gains 2 HP: 12 HP."
    s, _ = act(s, "set_mark", NORTH, card=druid, marked=True)
    assert creature(s, NORTH, druid)[1]["marked"]
    s, _ = act(s, "adjust", NORTH, counter=f"card.{druid}.def", delta=-2)     # DEF 0: dies
    assert creature(s, NORTH, druid) is None
    with pytest.raises(IllegalAction, match="North's hand is 7; it cannot go below 0"):
        act(s, "adjust", NORTH, counter="0.hand", delta=-8)
    with pytest.raises(IllegalAction, match="no counter"):
        act(s, "adjust", NORTH, counter="0.mana", delta=1)
    kinds = {a["type"] for a in RULES.legal_actions(s)}
    assert not kinds & {"adjust", "set_mark", "destroy"}
    adjustable = {c["id"] for c in RULES.view(s, None)["counters"] if c["adjustable"]}
    assert {"0.vp", "0.hp", "0.hand", "0.deck", "0.gold", "1.vp", "1.hp"} <= adjustable


def test_spells_attach_to_their_target_and_go_to_their_casters_grave_with_it():
    """Rules text, Spells: 'Spells are always targeting a creature, a kingdom, a domain, the front, an
    equipment or a region; attached to it's target'; 'When combat is over place all dead creatures into the
    grave piles ... also any Spells that were attached to the creatures.'"""
    s = gold(started(), NORTH, 5)
    s, ghoul = put(s, SOUTH, "front", "ghoul")
    s, _ = to_phase(s, "play1")
    s, events = act(s, "play", NORTH, card=cid("plague-cloud"))
    assert RULES.targets(s) == [f"creature:{ghoul}"]                  # Plague Cloud targets a creature
    assert RULES.view(s, None)["awaiting"] == "choice"
    s, events = act(s, "target", NORTH, target=f"creature:{ghoul}")
    assert events[0]["text"] == "North casts Plague Cloud on Ghoul: Enchanted creature gets -1/-1."
    s, _ = act(s, "destroy", NORTH, card=ghoul)
    assert s["p"][SOUTH]["grave"] == [cid("ghoul")] and s["p"][NORTH]["grave"] == [cid("plague-cloud")]
    s, _ = act(s, "play", NORTH, card=cid("thorn-wall"))
    assert RULES.targets(s) == ["area:0:front", "area:1:front"]
    s, _ = act(s, "target", NORTH, target="area:0:front")
    assert s["p"][NORTH]["spells"][0]["on"] == [NORTH, "front"]
    assert [r["marked"] for r in s["p"][NORTH]["vault"]] == [True] * 5        # 3 + 2 gold paid
