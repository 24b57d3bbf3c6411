"""Sam's Battle Game: the rules text (shared/rules/004_…) and the rulings (shared/RULINGS.md).

Card ids: "sams.<rank><suit initial>" — sams.7h is the 7 of hearts (red,
attack 7), sams.4s the 4 of spades (black, defence 4).
"""
import json

import pytest

from companion.cards import DATA_DIR
from companion.engine import IllegalAction, redact_event
from companion.games import sams
from companion.games.sams import RULES, fight, lane_strength, round_points


def lane(stack0, stack1, strict=False):
    return fight((stack0, stack1), strict)


# ---- cards ----------------------------------------------------------------------------

def test_catalogue_is_the_36_generated_numbered_cards():
    """Ruling: cards 2–10 of all four suits form the draw pile (36 cards)."""
    shipped = json.loads((DATA_DIR / "sams" / "cards.json").read_text())
    assert shipped == sams.generate_catalogue()
    assert len(sams.DECK) == 36
    reds = [c for c in sams.CATALOGUE if c["colour"] == "red"]
    assert {c["suit"] for c in reds} == {"hearts", "diamonds"} and len(reds) == 18
    assert sams.CATALOGUE["sams.10c"]["rank"] == 10


def test_lane_attack_is_red_sum_defence_black_sum():
    """Ruling: lane attack = sum of red cards, lane defence = sum of black cards."""
    assert lane_strength(["sams.7h", "sams.4s", "sams.3d", "sams.2c"]) == (10, 6)


def test_lane_without_red_gets_attack_1():
    """Rules: 'if a player's lane has no attack power … it is given one attack power'."""
    assert lane_strength(["sams.9s"]) == (1, 9)
    assert lane_strength([]) == (1, 0)


# ---- the rules text's worked scenarios --------------------------------------------------

def test_unusual_battle_scenario_black_4_against_empty_lane():
    """Rules, 'Unusual Battle Scenario' 1: a black 4 against an empty lane — both attack with 1
    simultaneously, the black 4 blocks, the empty lane does not: the black 4 wins."""
    r = lane(["sams.4s"], [])
    assert r["outcome"] == "win" and r["winner"] == 0
    assert lane([], ["sams.4c"])["winner"] == 1


def test_unusual_battle_scenario_two_black_cards_nobody_wins():
    """Rules, 'Unusual Battle Scenario' 2: both play only black cards; both attack with 1 and both
    block. The text calls it a tie; under the rulings' words (neither side kills) it is a draw —
    either way no one wins the lane."""
    r = lane(["sams.5s"], ["sams.3c"])
    assert r["outcome"] == "draw" and r["winner"] is None


# ---- battles ------------------------------------------------------------------------

def test_higher_attack_strikes_first_and_wins_at_equal_defence():
    """Ruling: the higher attack strikes first and wins if attack ≥ the opponent's defence."""
    assert lane(["sams.7h"], ["sams.5s"])["winner"] == 0
    assert lane(["sams.7h"], ["sams.2h", "sams.7s"])["winner"] == 0     # 7 ≥ 7


def test_failed_first_strike_gives_retaliation_with_greater_or_equal():
    """Ruling: if the first strike fails, the other side retaliates under the same test (≥)."""
    # North 8♥ 3♠ (attack 8, defence 3) vs South 3♥ 9♠ (attack 3, defence 9):
    # North strikes first, 8 < 9 fails; South retaliates, 3 ≥ 3 wins.
    r = lane(["sams.8h", "sams.3s"], ["sams.3h", "sams.9s"])
    assert r["outcome"] == "win" and r["winner"] == 1


def test_variant_strict_retaliation_needs_greater():
    """Variant 'strict retaliation': retaliation needs attack > defence (the text's second sentence)."""
    r = lane(["sams.8h", "sams.3s"], ["sams.3h", "sams.9s"], strict=True)
    assert r["outcome"] == "draw" and r["winner"] is None
    r = lane(["sams.8h", "sams.2s"], ["sams.3h", "sams.9s"], strict=True)       # 3 > 2
    assert r["winner"] == 1


def test_failed_strike_and_failed_retaliation_is_a_draw():
    r = lane(["sams.8h", "sams.9c"], ["sams.3h", "sams.9s"])
    assert r["outcome"] == "draw"


def test_equal_attacks_one_kill_wins():
    """Ruling: equal attacks strike simultaneously; one kill → that side wins."""
    r = lane(["sams.6h", "sams.8s"], ["sams.6d", "sams.2s"])
    assert r["outcome"] == "win" and r["winner"] == 0


def test_equal_attacks_both_kill_is_a_tie():
    """Ruling: both kill → the lane is a tie (not a lane won)."""
    r = lane(["sams.6h", "sams.2s"], ["sams.6d", "sams.5c"])
    assert r["outcome"] == "tie" and r["winner"] is None


def test_equal_attacks_neither_kills_is_a_draw():
    r = lane(["sams.3h", "sams.8s"], ["sams.3d", "sams.9c"])
    assert r["outcome"] == "draw"


# ---- rounds and victory points ---------------------------------------------------------

def test_round_won_by_more_lanes():
    """Ruling: the round is won by the player who won more lanes than the other."""
    assert round_points([2, 1], [0, 0], strict_majority=False) == ([1, 0], 0)


def test_round_tie_gives_both_a_point():
    """Rules, Additional Rules: a tie gives both players a VP."""
    assert round_points([1, 1], [2, 3], strict_majority=False) == ([1, 1], None)


def test_player_on_4_vp_gains_nothing_from_a_tie_but_the_other_does():
    """Rules: 'unless a player is at 4 Victory Points — they cannot win through a tie. If the other
    player has less than 4 … they do still get a point for the tie'."""
    assert round_points([2, 2], [4, 1], strict_majority=False) == ([0, 1], None)
    assert round_points([0, 0], [4, 4], strict_majority=False) == ([0, 0], None)


def test_variant_strict_majority_needs_three_lanes():
    """Variant 'strict majority': 3 lanes needed; otherwise a round tie."""
    assert round_points([2, 1], [0, 0], strict_majority=True) == ([1, 1], None)
    assert round_points([3, 0], [0, 0], strict_majority=True) == ([1, 0], 0)


# ---- a whole round through the engine ----------------------------------------------------

def new_game(**options):
    return RULES.setup(RULES.normalise_options(options), seed=7)


def play(state, seat, lane_no, card):
    return RULES.apply(state, {"type": "play", "seat": seat, "lane": lane_no, "card": card})


# 12 cards per player for one round, in play order (North first): lane, card
NORTH = [(0, "sams.7h"), (1, "sams.4s"), (0, "sams.9s"), (2, "sams.5h"), (2, "sams.2s"), (3, "sams.10h"),
         (0, "sams.3d"), (4, "sams.6c"), (1, "sams.8h"), (3, "sams.2h"), (4, "sams.5s"), (2, "sams.9h")]
SOUTH = [(0, "sams.6s"), (1, "sams.3h"), (2, "sams.10s"), (3, "sams.8c"), (0, "sams.4d"), (4, "sams.7d"),
         (1, "sams.7s"), (2, "sams.2d"), (3, "sams.3s"), (4, "sams.9c"), (0, "sams.2c"), (1, "sams.5d")]


def play_round(state, north=NORTH, south=SOUTH, first=0):
    events = []
    order = [(first, m) for m in (north if first == 0 else south)]
    other = [(1 - first, m) for m in (south if first == 0 else north)]
    for (s1, m1), (s2, m2) in zip(order, other):
        state, ev = play(state, s1, *m1)
        events += ev
        state, ev = play(state, s2, *m2)
        events += ev
    return state, events


def test_four_turns_of_three_cards_alternating_then_resolution():
    """Ruling: in each of the 4 turns each player plays 3 cards, one at a time, alternating, starting
    with the round's first player; players draw 3 at the start of turns 2, 3 and 4."""
    state = new_game()
    assert state["hand"] == [5, 5] and state["pile"] == 26
    state, _ = play(state, 0, 0, "sams.7h")
    with pytest.raises(IllegalAction, match="South's turn"):
        play(state, 0, 1, "sams.4s")
    for seat, move in [(1, SOUTH[0]), (0, NORTH[1]), (1, SOUTH[1]), (0, NORTH[2])]:
        state, _ = play(state, seat, *move)
    assert state["turn"] == 1 and state["hand"] == [2, 3]
    state, events = play(state, 1, *SOUTH[2])             # the 6th card ends turn 1
    assert events[-1]["type"] == "turn"
    assert state["turn"] == 2 and state["hand"] == [5, 5] and state["pile"] == 20


def test_round_resolution_scores_every_lane_with_reasons():
    """Hand-checked round (North first):
    lane 1: N 7♥ 9♠ 3♦ (atk 10, def 9)  vs S 6♠ 4♦ 2♣ (atk 4, def 8): N strikes first 10 ≥ 8 → N
    lane 2: N 4♠ 8♥ (atk 8, def 4)      vs S 3♥ 7♠ 5♦ (atk 8, def 7): equal 8s, both kill → tie
    lane 3: N 5♥ 2♠ 9♥ (atk 14, def 2)  vs S 10♠ 2♦ (atk 2, def 10): 14 ≥ 10 → N
    lane 4: N 10♥ 2♥ (atk 12, def 0)    vs S 8♣ 3♠ (atk 1, def 11): 12 ≥ 11 → N
    lane 5: N 6♣ 5♠ (atk 1, def 11)     vs S 7♦ 9♣ (atk 7, def 9): 7 < 11, N retaliates 1 < 9 → draw
    North wins 3 lanes to 0 and gains 1 VP."""
    state, events = play_round(new_game())
    lanes = [e for e in events if e["type"] == "battle_result"]
    assert [(e["outcome"], e["winner"]) for e in lanes] == [
        ("win", 0), ("tie", None), ("win", 0), ("win", 0), ("draw", None)]
    assert lanes[0]["text"] == "Lane 1: North attack 10 ≥ South defence 8 — North wins"
    assert lanes[0]["zones"] == ["0.lane1", "1.lane1"]
    rr = next(e for e in events if e["type"] == "round_result")
    assert rr["winner"] == 0 and rr["lanes_won"] == [3, 0] and state["vp"] == [1, 0]
    assert state["phase"] == "round_over"
    assert RULES.confirm_action(state, 1) == {"type": "next_round", "seat": 1}


def test_first_player_alternates_and_table_goes_to_discard():
    """Ruling: the first player alternates each round; at round end all played cards and the cards
    left in hand go to the discard pile."""
    state, _ = play_round(new_game())
    state, _ = RULES.apply(state, {"type": "next_round", "seat": 0})
    assert state["first"] == 1 and state["round"] == 2
    # 36 − 10 − 3×6 = 8 left after round 1; round 2 needs 10: 8 drawn, then the discard pile
    # (24 played + 4 in hand = 28) is reshuffled and 2 more are drawn.
    assert state["discard"] == 0 and state["pile"] == 26 and state["hand"] == [5, 5]
    assert RULES.to_play(state) == 1


def test_a_card_in_the_discard_pile_cannot_be_played():
    """Ruling: cards go to the discard pile; they come back only when it is reshuffled."""
    state = new_game()
    state, _ = play_round(state)
    # Before the reshuffle, look at the discard knowledge directly
    assert state["on_table"].bit_count() == 24
    state2 = dict(state, phase="play", on_table=0, discarded=sams.BIT["sams.7h"],
                  lanes=[[[] for _ in range(5)] for _ in (0, 1)], played=[0, 0], turn=1)
    with pytest.raises(IllegalAction, match="discard pile"):
        play(state2, 0, 0, "sams.7h")


def test_a_card_already_on_the_table_is_refused_with_its_place():
    state, _ = play(new_game(), 0, 2, "sams.7h")
    state, _ = play(state, 1, 0, "sams.3s")
    with pytest.raises(IllegalAction, match="already lies in North's lane 3"):
        play(state, 0, 1, "sams.7h")


def test_redraw_swaps_a_hand_of_five_for_three_once():
    """Rules, Additional Rules: at the start of any turn a hand of 5 may be discarded for 3 cards,
    and the reduced hand stays for the rest of the round."""
    state = new_game()
    state, events = RULES.apply(state, {"type": "redraw", "seat": 1})
    assert state["hand"] == [5, 3] and state["set_aside"] == 5 and state["pile"] == 23
    with pytest.raises(IllegalAction):
        RULES.apply(state, {"type": "redraw", "seat": 1})
    state, _ = play(state, 0, 0, "sams.7h")
    with pytest.raises(IllegalAction):          # North already played this turn
        RULES.apply(state, {"type": "redraw", "seat": 0})


# ---- hidden information ---------------------------------------------------------------

def test_face_down_buffs_are_hidden_from_the_opponent_and_the_shared_screen():
    """Ruling: a stack alternates face up / face down; face-down buffs are hidden from the opponent
    (and from the shared screen) until resolution."""
    state, _ = play(new_game(), 0, 0, "sams.7h")
    state, _ = play(state, 1, 0, "sams.6s")
    state, events = play(state, 0, 0, "sams.9s")           # North's 1st buff: face down
    secret = "sams.9s"
    for seat in (None, 1):
        v = RULES.view(state, seat)
        text = json.dumps(v, ensure_ascii=False)
        assert secret not in text and "9♠" not in text and "9 of Spades" not in text
        assert v["zones"]["0.lane1"]["cards"] == ["sams.7h", {"hidden": True}]
        assert "1 hidden" in v["zones"]["0.lane1"]["summary"]
        assert all("9♠" not in redact_event(e, seat)["text"] for e in events)
    assert RULES.view(state, 0)["zones"]["0.lane1"]["cards"] == ["sams.7h", "sams.9s"]
    assert "9♠" in redact_event(events[0], 0)["text"]
    state, _ = play(state, 1, 1, "sams.3h")
    state, _ = play(state, 0, 0, "sams.2d")                # 2nd buff: face up
    assert RULES.view(state, None)["zones"]["0.lane1"]["cards"][2] == "sams.2d"


def test_buffs_are_revealed_at_resolution():
    state, _ = play_round(new_game())
    shared = RULES.view(state, None)
    assert shared["zones"]["0.lane1"]["cards"] == ["sams.7h", "sams.9s", "sams.3d"]


# ---- the game ---------------------------------------------------------------------------

def test_first_to_five_vp_wins():
    """Rules, Game End: the game ends when one player gets 5 Victory Points."""
    state = dict(new_game(), vp=[4, 2])
    state, events = play_round(state)
    assert state["phase"] == "over" and RULES.is_over(state)
    assert RULES.result(state)["winner"] == 0
    assert events[-1]["type"] == "game_over" and events[-1]["text"] == "North wins the game 5–2"
    with pytest.raises(IllegalAction, match="over"):
        RULES.apply(state, {"type": "next_round", "seat": 0})


def test_vp_can_be_corrected_by_touch():
    state, _ = RULES.apply(new_game(), {"type": "adjust", "seat": 1, "counter": "vp.1", "delta": 2})
    assert state["vp"] == [0, 2]
    with pytest.raises(IllegalAction):
        RULES.apply(state, {"type": "adjust", "seat": 1, "counter": "pile", "delta": 1})


@pytest.mark.parametrize("options", [{}, {"strict_retaliation": True}, {"strict_majority": True},
                                     {"strict_retaliation": True, "strict_majority": True, "first_seat": 1}])
def test_property_random_legal_games_end_with_one_player_on_five(options):
    """Property: random legal games always end with exactly one player on 5 VP; every random action
    is one of legal_actions; the state never counts more than 36 cards."""
    for seed in range(40):
        def check(before, action, after, events):
            if seed % 10 == 0:
                assert action in RULES.legal_actions(before)
            on_table = after["on_table"].bit_count()
            assert after["pile"] + after["discard"] + after["set_aside"] + on_table + sum(after["hand"]) == 36
            json.dumps(after)
        final = RULES.playout(options, seed, on_apply=check)
        assert sorted(final["vp"])[1] == 5 and sorted(final["vp"])[0] < 5
        assert final["vp"][final["winner"]] == 5


def test_same_seed_same_actions_same_game():
    a = RULES.playout(None, 1234)
    b = RULES.playout(None, 1234)
    assert a == b
