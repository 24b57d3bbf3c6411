"""Fighting: the rules text's worked examples, each epic alone and the interactions RULINGS.md names."""
from companion.games.vitaluna import RULES

from .battle import WALL, act, battle, cid, illegal, texts


# an Armadillo that does not hit back, so the attacker lives to hit it again
PASSIVE_ARMADILLO = {**WALL, "vitaluna.armadillo": {"attrs": {"attack": 0}}}


def hits(events):
    return [e["text"] for e in events if e["type"] in ("hit", "retaliation")]


# ---- the rules text's worked examples (Fighting) -----------------------------------------------

def test_wolf_kills_gyr_falcon():
    """Fighting: "the Wolf is attacking the Gyr Falcon. That is 3 attack against 2 health. Therefore,
    the Wolf kills the Gyr Falcon and the Falcon's card is removed from the battle."""
    state = battle(["Wolf"], ["Gyr Falcon", "Bat"], edits=WALL)
    state, events = act(state, type="attack", seat=0)
    assert hits(events) == ["Wolf (3) hits Gyr Falcon (2 health): dies"]
    assert state["board"][1][0] is None and state["dead"][1] == [cid("Gyr Falcon")]


def test_rat_wounds_anaconda():
    """Fighting: "the Rat attacks an Anaconda. This is 1 attack against 5 health. So, one health is
    removed from the Anaconda's health, leaving it with 4.\""""
    state = battle(["Rat"], ["Anaconda"])
    state, events = act(state, type="attack", seat=0)
    assert hits(events) == ["Rat (1) hits Anaconda (5 health): 4 left"]
    assert state["health"][cid("Anaconda")] == 4
    view = RULES.view(state, None)
    assert view["detail"]["positions"]["1.white1"]["health"] == 4
    assert view["zones"]["1.white1"]["summary"].endswith("4/5 health")


def test_rat_dies_on_porcupine_retaliation():
    """Fighting: the Rat removes one health from the Porcupine (4 → 3); "the Retaliate epic means one
    health is also removed from the Rat, killing it, and removing it from the battle."""
    state = battle(["Rat", None, "Bat"], ["Porcupine"], edits=WALL)
    state, events = act(state, type="attack", seat=0)
    assert hits(events) == ["Rat (1) hits Porcupine (4 health): 3 left", "Porcupine retaliates: Rat takes 1, dies"]
    assert state["board"][0][0] is None and state["dead"][0] == [cid("Rat")]
    assert state["health"][cid("Porcupine")] == 3


def test_rock_with_zero_attack_does_not_attack():
    """Fighting: "The only creatures that don't attack are those with a zero attack rating e.g. the Rock card.\""""
    state = battle(["Rock"], ["Wolf"])
    state, events = act(state, type="attack", seat=0)
    assert hits(events) == [] and texts(events, "no_attack") == ["North has no creature that attacks"]
    assert state["heart"] == [10, 10] and state["turn"]["seat"] == 1


def test_attack_on_empty_white_position_hits_the_heart():
    """Fighting: "If your card is attacking an empty white position … any damage done goes against the
    opponents heart.\""""
    state = battle(["Wolf"], [None, "Bat"], edits=WALL)
    state, events = act(state, type="attack", seat=0)
    assert hits(events) == ["Wolf (3) hits South's heart: 7 left"]
    assert state["heart"] == [10, 7]


def test_attacks_go_left_to_right_and_killed_positions_then_hit_the_heart():
    """Fighting: white cards attack "in turn from left to right"; seat 1 sits opposite, so its left is
    column 4 (RULINGS: each player attacks from their own left to right)."""
    state = battle(["Rat", "Fox"], ["Wolf", "Owl", "Gyr Falcon", "Mouse"])
    state, events = act(state, type="attack", seat=0)
    assert [e["column"] for e in events if e["type"] == "hit"] == [1, 2]
    state, events = act(state, type="attack", seat=1)
    # Fox killed the Owl in column 2, so South's columns 4, 3 and 1 attack, in that order
    assert [e["column"] for e in events if e["type"] == "hit"] == [4, 3, 1]
    # Mouse (col 4) and Gyr Falcon (col 3) hit empty columns: the heart
    assert hits(events)[:2] == ["Mouse (1) hits North's heart: 9 left", "Gyr Falcon (2) hits North's heart: 7 left"]


# ---- each epic alone --------------------------------------------------------------------------------

def test_poisonous_kills_outright():
    """Epic 2, poisonous: "inflicts a critical hit on the opposing creature, killing them instantly"."""
    state = battle(["Frog"], ["Anaconda", "Bat"], edits=WALL)
    state, events = act(state, type="attack", seat=0)
    assert hits(events) == ["Frog (1, poisonous) hits Anaconda (5 health): poisoned, dies"]


def test_resistant_takes_poison_as_a_regular_hit():
    """Epic 3, resistant: "any poison hit on them is just regarded as a regular attack"."""
    state = battle(["Frog"], ["Honey Badger"])
    state, events = act(state, type="attack", seat=0)
    assert hits(events) == ["Frog (1, poisonous) hits Honey Badger (3 health): 2 left"]


def test_armour_absorbs_one_hit_and_returns_next_battle():
    """Epic 4, armour: absorbs one hit with no impact on health, gone until the end of the battle, and
    "at the beginning of the next battle it rejuvenates"."""
    state = battle(["Wolf", "Bat"], ["Armadillo"], edits=PASSIVE_ARMADILLO)
    state, events = act(state, type="attack", seat=0)
    assert hits(events) == ["Wolf (3) hits Armadillo (4 health): armour absorbs it"]
    assert cid("Armadillo") in state["spent"] and cid("Armadillo") not in state["health"]
    assert RULES.view(state, None)["zones"]["1.white1"]["summary"].endswith("armour gone")
    state, _ = act(state, type="attack", seat=1)
    state, events = act(state, type="attack", seat=0)
    assert hits(events) == ["Wolf (3) hits Armadillo (4 health): 1 left"]
    # the battle ends by a correction; at the next battle the armour is back
    state, _ = act(state, type="adjust", seat=1, counter="heart.1", delta=-10)
    from .battle import finish_between_battles, place_side
    state = finish_between_battles(state)
    state = place_side(state, 1, ["Armadillo"])
    state = place_side(state, 0, ["Wolf", "Bat"])
    assert state["spent"] == [] and state["health"] == {}
    state, events = act(state, type="attack", seat=1)
    state, events = act(state, type="attack", seat=0)
    assert hits(events) == ["Wolf (3) hits Armadillo (4 health): armour absorbs it"]


def test_holds_keeps_the_opposing_creature_from_moving():
    """Epic 5, holds: "this keeps the opposing creature from moving away"."""
    state = battle(["Wolf"], ["Crab"])
    assert illegal(state, type="move", seat=0, card=cid("Wolf"), to="0.white2") == "Wolf is held by Crab"


def test_anchor_cannot_move_on_white_but_can_be_promoted():
    """Epic 6, anchor, and Moving: "cards with the anchor epic cannot be moved or swapped, but they can
    be promoted to the white position"."""
    state = battle([None, "Wolf"], ["Bat"], grey0=["Rock"], edits=WALL)
    state, events = act(state, type="move", seat=0, card=cid("Rock"), to="0.white1")
    assert texts(events) == ["North promotes Rock 0/6 (anchor) from grey 1 to white 1"]
    assert illegal(state, type="move", seat=0, card=cid("Rock"), to="0.white3") == (
        "Rock is anchored: it cannot move once on a white position")


def test_retaliate_hits_back_even_when_the_hit_kills():
    """Epic 7, retaliate, with RULINGS: "1 damage to the attacker each time the creature is hit, even if
    the hit kills it"."""
    state = battle(["Wolf", "Bat"], ["Hedgehog"], edits=WALL)
    state, events = act(state, type="attack", seat=0)
    assert hits(events) == ["Wolf (3) hits Hedgehog (3 health): dies", "Hedgehog retaliates: Wolf takes 1, 1 left"]


def test_pronged_hits_both_diagonals_not_the_creature_opposite():
    """Epic 8, pronged: "The opposing card directly opposite is not harmed, but any enemy cards either
    side of it are hit", one damage each."""
    state = battle([None, "Stag Beetle"], ["Anaconda", "Wolf", "Rabbit"])
    state, events = act(state, type="attack", seat=0)
    assert hits(events) == ["Stag Beetle (pronged) hits Anaconda (5 health): 4 left",
                            "Stag Beetle (pronged) hits Rabbit (2 health): 1 left"]
    assert cid("Wolf") not in state["health"]


def test_move_anywhere_moves_far_and_swaps():
    """Epic 1, move anywhere: "move to any of its own free, white positions or to swap with any of its
    own side"; a plain creature moves to the next position only (RULINGS)."""
    state = battle(["Cheetah", "Wolf"], ["Bat"], edits=WALL)
    assert illegal(state, type="move", seat=0, card=cid("Wolf"), to="0.white4") == (
        "Wolf moves only to the next position (it has no move anywhere)")
    moved, events = act(state, type="move", seat=0, card=cid("Cheetah"), to="0.white4")
    assert moved["board"][0][:4] == [None, cid("Wolf"), None, cid("Cheetah")]
    swapped, events = act(state, type="move", seat=0, card=cid("Wolf"), to="0.white1")
    assert swapped["board"][0][:2] == [cid("Wolf"), cid("Cheetah")]
    assert texts(events) == ["North swaps Wolf (white 2) and Cheetah (white 1)"]
    assert illegal(swapped, type="move", seat=0, card=cid("Cheetah"), to="0.white3") == (
        "North has already moved in the white row this turn")


# ---- interactions named in RULINGS.md ------------------------------------------------------------------

def test_poison_against_armour_takes_the_armour_only():
    """RULINGS: poisonous kills outright unless the target "has armour (armour absorbs that hit and is gone)"."""
    state = battle(["Frog", "Bat"], ["Armadillo"], edits=PASSIVE_ARMADILLO)
    state, events = act(state, type="attack", seat=0)
    assert hits(events) == ["Frog (1, poisonous) hits Armadillo (4 health): armour absorbs it"]
    state, _ = act(state, type="attack", seat=1)
    state, events = act(state, type="attack", seat=0)
    assert hits(events) == ["Frog (1, poisonous) hits Armadillo (4 health): poisoned, dies"]


def test_poison_against_resistant_armour_uses_the_armour_first():
    """RULINGS: armour absorbs any one hit; after that a resistant creature takes poison as a regular hit."""
    edits = {**WALL, "vitaluna.armadillo": {"attrs": {"attack": 0, "epics": ["armour", "resistant"]}}}
    state = battle(["Frog", "Bat"], ["Armadillo"], edits=edits)
    state, events = act(state, type="attack", seat=0)
    state, _ = act(state, type="attack", seat=1)
    state, events2 = act(state, type="attack", seat=0)
    assert hits(events) + hits(events2) == [
        "Frog (1, poisonous) hits Armadillo (4 health): armour absorbs it",
        "Frog (1, poisonous) hits Armadillo (4 health): 3 left"]


def test_armour_absorbs_retaliation():
    """RULINGS: "Armour absorbs any one hit, retaliation included"."""
    state = battle(["Beetle", "Bat"], ["Porcupine"], edits=WALL)
    state, events = act(state, type="attack", seat=0)
    assert hits(events) == ["Beetle (1) hits Porcupine (4 health): 3 left",
                            "Porcupine retaliates: Beetle armour absorbs it"]
    assert state["board"][0][0] == cid("Beetle") and cid("Beetle") not in state["health"]


def test_pronged_at_the_board_edge_loses_the_off_board_prong():
    """RULINGS: pronged "off-board columns are ignored": from column 1 only column 2 is hit."""
    state = battle(["Stag Beetle"], ["Wolf", "Rabbit"])
    state, events = act(state, type="attack", seat=0)
    assert hits(events) == ["Stag Beetle (pronged) hits Rabbit (2 health): 1 left"]
    assert state["heart"][1] == 10
    # South's Crow in column 4 (South's left) only reaches column 3
    state = battle([None, None, "Rat", "Wolf"], [None, None, None, "Crow"], attacker=1)
    state, events = act(state, type="attack", seat=1)
    assert hits(events) == ["Crow (pronged) hits Rat (1 health): dies"]


def test_pronged_into_empty_positions_hits_the_heart_once_each():
    """RULINGS: "an empty diagonal position means 1 heart damage"."""
    state = battle([None, "Stag Beetle"], [None, "Bat"], edits=WALL)
    state, events = act(state, type="attack", seat=0)
    assert hits(events) == ["Stag Beetle (pronged) hits South's heart: 9 left",
                            "Stag Beetle (pronged) hits South's heart: 8 left"]


def test_pronged_into_two_retaliators_takes_two():
    """RULINGS: retaliation answers each hit — a pronged attack on two retaliators costs 2 health."""
    edits = {"vitaluna.stag-beetle": {"attrs": {"health": 3}}}
    state = battle([None, "Stag Beetle"], ["Porcupine", None, "Hedgehog"], edits=edits)
    state, events = act(state, type="attack", seat=0)
    assert hits(events)[1::2] == ["Porcupine retaliates: Stag Beetle takes 1, 2 left",
                                  "Hedgehog retaliates: Stag Beetle takes 1, 1 left"]


def test_holds_beats_move_anywhere_both_moving_and_being_swapped():
    """RULINGS: "the creature opposite a holder can neither move nor be swapped while the holder lives"."""
    state = battle(["Cheetah", "Wolf"], ["Crab"])
    assert illegal(state, type="move", seat=0, card=cid("Cheetah"), to="0.white4") == "Cheetah is held by Crab"
    assert illegal(state, type="move", seat=0, card=cid("Wolf"), to="0.white1") == "Cheetah is held by Crab"


def test_holder_dead_releases_the_creature():
    """RULINGS: holds works only "while the holder lives"."""
    state = battle(["Gyr Falcon", "Bat"], ["Crab", None, "Owl"], edits={**WALL, "vitaluna.crab": {"attrs": {"health": 1}}})
    state, _ = act(state, type="attack", seat=0)         # Gyr Falcon (2) kills Crab (1)
    state, _ = act(state, type="attack", seat=1)
    state, events = act(state, type="move", seat=0, card=cid("Gyr Falcon"), to="0.white4")
    assert state["board"][0][3] == cid("Gyr Falcon")


def test_anchor_cannot_be_swapped_by_move_anywhere():
    """Epic 1: swap "with any of its own side (as long as they don't have the anchor epic)"."""
    state = battle(["Cheetah", "Rock"], ["Bat"], edits=WALL)
    assert illegal(state, type="move", seat=0, card=cid("Cheetah"), to="0.white2") == (
        "Rock is anchored and cannot be swapped")


def test_one_move_per_row_and_one_promotion_per_turn():
    """Moving: one card in the white positions, one in the grey positions, plus a promotion (RULINGS)."""
    state = battle(["Wolf"], ["Bat"], grey0=["Rat", "Fox"], edits=WALL)
    state, _ = act(state, type="move", seat=0, card=cid("Wolf"), to="0.white2")
    state, _ = act(state, type="move", seat=0, card=cid("Rat"), to="0.grey3")
    state, _ = act(state, type="move", seat=0, card=cid("Fox"), to="0.white1")
    assert illegal(state, type="move", seat=0, card=cid("Rat"), to="0.white3") == (
        "North has already promoted a card this turn")
    assert illegal(state, type="move", seat=0, card=cid("Wolf"), to="0.grey1") == (
        "a card in play cannot go back to the reserve during a battle")


def test_promotion_to_the_column_in_front_is_a_variant():
    """docs/rulings/vitaluna.md, option promote_to="column": only the white position in front."""
    state = battle([None, "Wolf"], ["Bat"], grey0=[None, None, "Rat"], edits=WALL, options={"promote_to": "column"})
    assert illegal(state, type="move", seat=0, card=cid("Rat"), to="0.white1") == (
        "a reserve card is promoted to the white position in front of it (white 3)")
    act(state, type="move", seat=0, card=cid("Rat"), to="0.white3")


def test_if_one_attack_empties_both_sides_its_target_loses():
    """RULINGS: "if both conditions arise from one attack, the defender of that attack loses"."""
    state = battle(["Rat"], ["Porcupine"], edits={"vitaluna.porcupine": {"attrs": {"health": 1}}})
    state, events = act(state, type="attack", seat=0)
    result = [e for e in events if e["type"] == "battle_result"][0]
    assert result["winner"] == 0 and state["board"][0][0] is None and state["board"][1][0] is None
