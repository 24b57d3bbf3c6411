"""Placement, turn order and the table: what a card on a pad means (interpret / scan_for)."""
import pytest

from companion.engine import IllegalAction, Rng
from companion.games.vitaluna import RULES

from .battle import WALL, act, battle, cid, illegal, new_game, texts


def test_attacker_places_first_white_face_up():
    """Basic game: "The attacking player must place their cards down before the defending player … The
    ones on the white positions must be placed face up"."""
    state = new_game()
    state, events = act(state, type="attack_first", seat=1)
    assert state["placing"] == 1
    assert illegal(state, type="place", seat=0, zone="0.white1", card=cid("Wolf")) == (
        "South is placing now; North places after South presses Done")
    state, events = act(state, type="place", seat=1, zone="1.white2", card=cid("Wolf"))
    assert texts(events) == ["South places Wolf 3/2 on white 2"] and "hidden_from" not in events[0]
    assert illegal(state, type="place", seat=1, zone="1.white2", card=cid("Rat")) == (
        "South's white 2 already holds Wolf; lift it first")
    assert illegal(state, type="place", seat=1, zone="0.white2", card=cid("Rat")) == (
        "'0.white2' is not one of South's positions")
    assert illegal(state, type="place", seat=1, zone="1.white3", card="vitaluna.burn-1") == (
        "Burn is a singular card: play it on the shared pad during your turn")


def test_placement_needs_a_creature_and_is_limited_to_eight_positions():
    """Basic game: "you may only have eight cards in play for any single battle" — 4 white + 4 grey pads."""
    state = new_game()
    state, _ = act(state, type="attack_first", seat=0)
    assert illegal(state, type="done", seat=0) == "North must place at least one creature before the battle"
    assert len([z for z in RULES.zones(state["options"]) if z.seat == 0]) == 8


def test_turns_alternate_attacker_first():
    """Sequence of play: the attacker's three steps, then the defender's, and so on."""
    state = battle(["Rock"], ["Snail"])
    assert state["turn"]["seat"] == 0
    assert illegal(state, type="attack", seat=1) == "it is North's turn"


def test_a_battle_nobody_can_win_goes_to_the_defender():
    """docs/rulings/vitaluna.md, "No way to win": no creature with attack above 0 is left on either side."""
    state = battle(["Rock"], ["Bat"], edits=WALL)
    state, events = act(state, type="attack", seat=0)
    result = [e for e in events if e["type"] == "battle_result"]
    assert result[0]["winner"] == 1 and state["track"] == [0, 0]


def test_placing_a_card_of_the_other_player_is_refused_with_where_it_belongs():
    state = battle(["Wolf"], ["Rat"])
    with pytest.raises(IllegalAction, match="Wolf is North's, on white 1: put it back there"):
        RULES.interpret(state, "1.white2", cid("Wolf"), True)
    with pytest.raises(IllegalAction, match="Fox is not in this battle: cards join between battles only"):
        RULES.interpret(state, "0.white2", cid("Fox"), True)
    with pytest.raises(IllegalAction, match="it is North's turn: put Rat back on white 1"):
        RULES.interpret(state, "1.white2", cid("Rat"), True)
    with pytest.raises(IllegalAction, match="during a battle the shared pad takes singular cards"):
        RULES.interpret(state, "scan", cid("Fox"), True)
    assert RULES.interpret(state, "0.white1", cid("Wolf"), False) is None


def test_scan_for_is_the_inverse_of_interpret():
    """The simulated table plays any action made by a card with scan_for; interpret must read it back."""
    checked = 0
    for seed in range(6):
        rng = Rng(seed)
        state = RULES.setup(RULES.normalise_options({"card_edits": {}, "advanced": seed % 2 == 1}), seed)
        while not RULES.is_over(state):
            action = RULES.random_action(state, rng)
            scan = RULES.scan_for(state, action)
            if scan is not None:
                assert RULES.interpret(state, scan[0], scan[1], True) == action
                checked += 1
            state, _ = RULES.apply(state, action)
    assert checked > 100


def test_confirm_button_means_done_then_attack():
    state = new_game()
    state, _ = act(state, type="attack_first", seat=0)
    assert RULES.confirm_action(state, 0) is None                        # nothing placed yet
    state, _ = act(state, type="place", seat=0, zone="0.white1", card=cid("Wolf"))
    assert RULES.confirm_action(state, 0) == {"type": "done", "seat": 0}
    assert RULES.confirm_action(state, 1) is None
    state = battle(["Wolf"], ["Rat"])
    assert RULES.confirm_action(state, 0) == {"type": "attack", "seat": 0}
