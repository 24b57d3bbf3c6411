"""The track, rewards, roles and the end of the game (rules, Sequence of play; RULINGS, Vita Luna)."""
import pytest

from .battle import SLAYER, WALL, act, fight_battle, finish_between_battles, new_game, texts

EDITS = {**WALL, **SLAYER}


def game(extended=False):
    state = new_game({"extended": extended}, edits=EDITS)
    state, _ = act(state, type="attack_first", seat=0)
    return state


def test_basic_game_two_attacking_wins_reach_the_heart():
    """RULINGS: "Basic game: middle → red circle → heart (two attacking wins)"; roles swap every battle;
    only a winning attacker moves."""
    state = game()
    state, events = fight_battle(state, attacker_wins=True)              # battle 1: North attacks, wins
    assert state["track"] == [1, 0]
    assert texts(events, "battle_result") == ["Battle 1: North wins (South has no hearts left) and advances to "
                                              "the red circle"]
    assert state["rewards"] == [[0, "red"], [1, "blue"]]                  # entering the red circle
    state = finish_between_battles(state)
    assert state["attacker"] == 1
    state, events = fight_battle(state, attacker_wins=False)             # battle 2: South attacks, loses
    assert state["track"] == [1, 0] and state["rewards"] == [[0, "black"], [1, "black"]]
    assert "no counter moves" in texts(events, "battle_result")[0]
    state = finish_between_battles(state)
    assert state["attacker"] == 0
    state, events = fight_battle(state, attacker_wins=True)              # battle 3: North reaches the heart
    assert state["phase"] == "over" and state["winner"] == 0
    assert texts(events, "game_over") == ["North reaches South's heart and wins the game"]
    assert [b["winner"] for b in state["battles"]] == [0, 0, 0]


def test_extended_game_needs_three_attacking_wins():
    """Extended game: "all three circles are in play … an additional battle to be fought"."""
    state = game(extended=True)
    state, _ = fight_battle(state, True)
    assert state["track"] == [1, 0] and state["rewards"] == [[0, "black"], [1, "black"]]
    state = finish_between_battles(state)
    state, _ = fight_battle(state, True)                                  # South attacks and wins
    assert state["track"] == [1, 1]
    state = finish_between_battles(state)
    state, _ = fight_battle(state, True)
    assert state["track"] == [2, 1] and state["rewards"] == [[0, "red"], [1, "blue"]]
    state = finish_between_battles(state)
    state, _ = fight_battle(state, False)
    state = finish_between_battles(state)
    state, _ = fight_battle(state, True)
    assert state["phase"] == "over" and state["winner"] == 0 and len(state["battles"]) == 5


def test_reward_must_be_of_the_right_colour_and_free():
    """Rewards: "Both the winner and loser collect one random black card" from the pile."""
    from .battle import illegal
    state, _ = fight_battle(game(extended=True), True)
    assert illegal(state, type="reward", seat=0, card="vitaluna.cheetah") == (
        "Cheetah is a blue card; North's reward is a black card")
    assert illegal(state, type="reward", seat=1, card="vitaluna.fox") == "North takes their black card first"
    assert illegal(state, type="reward", seat=0, card="vitaluna.elephant") == (
        "Elephant is a red card; North's reward is a black card")
    state, _ = act(state, type="reward", seat=0, card="vitaluna.fox")
    assert state["owner"]["vitaluna.fox"] == 0 and state["held"][0]["black"] == 5   # 4 dealt + the reward
    assert illegal(state, type="reward", seat=1, card="vitaluna.fox") == (
        "Fox belongs to North; South's reward comes from the black pile")


def test_black_to_blue_exchange():
    """Black to blue: "swap two black cards for one random, new blue card … after a battle but before the
    next one … multiple times"."""
    from .battle import illegal
    state, _ = fight_battle(game(extended=True), True)
    state, _ = act(state, type="reward", seat=0, card="vitaluna.fox")
    state, _ = act(state, type="reward", seat=1, card="vitaluna.ferret")
    assert state["phase"] == "exchange" and state["exchanging"] == 1        # the next attacker first
    assert illegal(state, type="exchange", seat=1, card="vitaluna.fox") == "Fox belongs to North"
    state, _ = act(state, type="exchange", seat=1, card="vitaluna.ferret")
    assert illegal(state, type="done", seat=1).startswith("South has given 1 black card: ")
    assert illegal(state, type="exchange", seat=1, card="vitaluna.owl") == (
        "Wall 2 lies on white 2: lift it off its position, then scan it")
    state, _ = act(state, type="unplace", seat=1, zone="1.white2")
    state, _ = act(state, type="exchange", seat=1, card="vitaluna.owl")
    state, events = act(state, type="exchange", seat=1, card="vitaluna.lynx")
    assert state["owner"].get("vitaluna.ferret") is None and state["owner"]["vitaluna.lynx"] == 1
    assert texts(events) == ["South swaps two black cards for Lynx 3/3"]
    assert events[0]["redacted"]["text"] == "South swaps two black cards for a blue card"
