"""Sam's Battle Game: the points a close reading of the rules text found (issue 15).

Every test reaches its situation through the engine's public API, the way a
game at the table does; the hidden-information tests go through a real
session (SQLite store, pad events) as the readers would.
"""
import json

import pytest

from companion.engine import IllegalAction, redact_event
from companion.games.sams import RULES
from companion.session import Session
from companion.simulate import register_virtual_tags
from companion.table import SEEN, PadEvent
from companion.tags import virtual_uid

from .test_rules import NORTH, SOUTH, new_game, play, play_round


def vp(state, seat, delta):
    return RULES.apply(state, {"type": "adjust", "seat": seat, "counter": f"vp.{seat}", "delta": delta})


# ---- Hidden information: a refused card that would lie face down is not named ------------------

@pytest.fixture
def session(store):
    register_virtual_tags(store, "sams")
    return Session.start(store, "sams", {}, seed=7)


def scan(session, zone, card):
    return session.handle_pad_event(PadEvent(zone, virtual_uid(card), SEEN, 0.0))


def test_rule_refused_card_that_would_lie_face_down_is_not_named_on_the_shared_screen(session):
    """Rules: 'the first power up on top of them is face down'; RULINGS: a refused card that would
    have lain face down is never named on the shared screen — not in the text, not in a field."""
    scan(session, "0.lane1", "sams.7h")                       # North opens lane 1
    scan(session, "1.lane1", "sams.6s")                       # South opens lane 1
    scan(session, "0.lane2", "sams.4s")                       # North: South plays now
    events = scan(session, "0.lane1", "sams.8c")              # North, out of turn, on a 1-card stack
    assert [e["type"] for e in events] == ["rejected"] and len(session.actions) == 3
    shared = json.dumps(session.public_events(events), ensure_ascii=False)
    assert "8♣" not in shared and "sams.8c" not in shared and "8 of Clubs" not in shared
    assert "North's lane 1" in shared and "South's turn" in shared
    assert redact_event(events[0], 1)["text"] == session.public_events(events)[0]["text"]
    assert "8♣" in redact_event(events[0], 0)["text"]          # the owner reads which card it was


def test_rule_refused_card_that_would_lie_face_up_is_named(session):
    """A refusal of a card that would lie face up (a new fighter) names it, so the table knows which."""
    scan(session, "0.lane1", "sams.7h")
    events = scan(session, "0.lane2", "sams.8c")              # South's turn; 0.lane2 is empty
    assert "8♣" in session.public_events(events)[0]["text"]


def test_rule_a_card_already_lying_face_down_is_not_named_when_played_again(session):
    """A card that lies face down is secret until resolution, also when it is scanned elsewhere."""
    for zone, card in [("0.lane1", "sams.7h"), ("1.lane1", "sams.6s"), ("0.lane1", "sams.9s"),
                       ("1.lane2", "sams.3h")]:
        scan(session, zone, card)
    assert len(session.actions) == 4
    events = scan(session, "0.lane3", "sams.9s")              # the face-down 9♠ scanned on a new lane
    assert events[0]["type"] == "rejected"
    shared = json.dumps(session.public_events(events), ensure_ascii=False)
    assert "9♠" not in shared and "sams.9s" not in shared


def test_rule_refusal_after_scoring_on_a_stack_is_not_named():
    """A card put on a buffed-size stack while the round waits for Next is refused without its name."""
    state, _ = play_round(new_game())
    one_card = next(z for z, v in RULES.view(state, None)["zones"].items() if len(v["cards"]) % 2)
    with pytest.raises(IllegalAction) as refused:
        RULES.interpret(state, one_card, "sams.10d", True)
    assert "10♦" in str(refused.value) and "10♦" not in refused.value.redacted


# ---- VP corrections ---------------------------------------------------------------------

def test_rule_vp_correction_taken_back_mid_round_resumes_the_round():
    """A correction that reaches 5 VP ends the game; correcting it back mid-round resumes the
    round where it stood: the next card is accepted and nothing is lost."""
    state, _ = play(new_game(), 0, 0, "sams.7h")
    state, events = vp(state, 1, +5)
    assert RULES.is_over(state) and events[-1]["type"] == "game_over"
    state, _ = vp(state, 1, -5)
    assert state["phase"] == "play" and not RULES.is_over(state)
    action = RULES.interpret(state, "1.lane1", "sams.6s", True)
    state, _ = RULES.apply(state, action)
    assert state["lanes"][1][0] == ["sams.6s"] and state["played"] == [1, 1]


def test_rule_vp_correction_taken_back_after_scoring_waits_for_next():
    state, _ = play_round(new_game())
    state, _ = vp(state, 1, +5)
    state, _ = vp(state, 1, -1)
    assert state["phase"] == "round_over"
    assert RULES.legal_actions(state) == [{"type": "next_round", "seat": 0}, {"type": "next_round", "seat": 1}]


# ---- Announcements ---------------------------------------------------------------------

# North wins lanes 1 and 2, South lane 3; lanes 4 and 5 are walls of black cards that nobody
# gets through (a draw each):
#   lane 1: N 10♥ (atk 10)         vs S 2♠ (def 2): 10 ≥ 2 → North
#   lane 2: N 9♥ (atk 9)           vs S 3♣ (def 3): 9 ≥ 3 → North
#   lane 3: N 2♣ (atk 1, def 2)    vs S 8♦ (atk 8): 8 ≥ 2 → South
#   lane 4: N 5♠ 3♠ 4♠ 6♣ 7♠ (atk 1, def 25) vs S 4♣ 5♣ 7♣ 2♥ (atk 2, def 16): draw
#   lane 5: N 6♠ 8♠ 9♠ 10♠ (atk 1, def 33)   vs S 8♣ 9♣ 10♣ 2♦ 3♥ (atk 5, def 27): draw
TWO_ONE_NORTH = [(0, "sams.10h"), (1, "sams.9h"), (2, "sams.2c")] + [(3, c) for c in (
    "sams.5s", "sams.3s", "sams.4s", "sams.6c", "sams.7s")] + [(4, c) for c in ("sams.6s", "sams.8s", "sams.9s",
                                                                             "sams.10s")]
TWO_ONE_SOUTH = [(0, "sams.2s"), (1, "sams.3c"), (2, "sams.8d")] + [(3, c) for c in (
    "sams.4c", "sams.5c", "sams.7c", "sams.2h")] + [(4, c) for c in ("sams.8c", "sams.9c", "sams.10c", "sams.2d",
                                                                   "sams.3h")]


def two_one_round(**options):
    state = RULES.setup(RULES.normalise_options(options), seed=7)
    state, events = play_round(state, north=TWO_ONE_NORTH, south=TWO_ONE_SOUTH)
    return state, next(e for e in events if e["type"] == "round_result")


def test_rule_more_lanes_than_the_other_wins_the_round_2_1():
    """Rules: 'the player that wins the majority of the battles gains 1 Victory Point'; RULINGS: more
    lanes won than the other wins the round, so 2–1 (two draws) is North's."""
    state, rr = two_one_round()
    assert rr["lanes_won"] == [2, 1] and rr["winner"] == 0 and state["vp"] == [1, 0]
    assert rr["text"] == "Round 1: North wins 2 lanes to 1 and gains 1 VP"


def test_rule_strict_majority_2_1_is_a_round_tie_and_is_announced_as_one():
    """Variant 'strict majority' (RULINGS): a round needs 3 lanes, so 2–1 is a round tie — announced as
    2 lanes to 1 short of a majority, not 'a tie at 2 lanes each'."""
    state, rr = two_one_round(strict_majority=True)
    assert rr["lanes_won"] == [2, 1] and rr["winner"] is None and state["vp"] == [1, 1]
    assert rr["text"] == ("Round 1: North wins 2 lanes to 1, short of the 3 a strict majority needs: "
                          "a round tie — North and South gain 1 VP")


def test_rule_player_on_4_vp_gains_nothing_from_a_tie_in_words():
    """Rules: a player on 4 VP 'cannot win through a tie'; the other still gets the point — 'South gains'."""
    state = dict(RULES.setup(RULES.normalise_options({"strict_majority": True}), seed=7), vp=[4, 1])
    state, events = play_round(state, north=TWO_ONE_NORTH, south=TWO_ONE_SOUTH)
    rr = next(e for e in events if e["type"] == "round_result")
    assert state["vp"] == [4, 2]
    assert rr["text"].endswith("— South gains 1 VP (a player on 4 VP cannot win through a tie)")


# ---- The hand swap: "discard it into a separate pile" --------------------------------------

def test_rule_swapped_hand_goes_to_a_separate_pile_that_sits_out_the_next_reshuffle():
    """Rules, Additional Rules: 'discard it into a separate pile and re-draw 3 cards'; RULINGS: a swapped
    hand goes to a separate pile, not the discard pile. Ruling (docs/rulings/sams.md): the separate pile
    sits out the next reshuffle and then becomes the discard pile, so the swapped cards do not come
    straight back."""
    state = new_game()
    state, events = RULES.apply(state, {"type": "redraw", "seat": 1})
    assert state["set_aside"] == 5 and state["discard"] == 0 and state["hand"] == [5, 3]
    assert "separate pile" in events[0]["text"]
    shared = {c["id"]: c["value"] for c in RULES.view(state, None)["counters"]}
    assert shared["set_aside"] == 5 and shared["discard"] == 0
    state, _ = play_round(state)
    # Round 1 drew 5+5, 3 for the swap, 3×6: 31 of 36 → pile 5; the table (24) and the hands
    # (North 2, South 0) go to the discard pile; the separate pile stays apart.
    state, events = RULES.apply(state, {"type": "next_round", "seat": 0})
    reshuffle = next(e for e in events if e["type"] == "reshuffle")
    assert reshuffle["cards"] == 26 and reshuffle["set_aside"] == 5
    # 5 drawn from the old pile, then 26 reshuffled and 5 more drawn; the swapped 5 wait in the discard pile.
    assert state["pile"] == 21 and state["discard"] == 5 and state["set_aside"] == 0
    assert state["pile"] + state["discard"] + sum(state["hand"]) == 36
