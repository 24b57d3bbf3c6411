"""The solo player of Sam's Battle Game: legal, secret-keeping, and better than chance."""
import random

from companion.games import sams
from companion.games.sams import playout as model
from companion.solo.bench import play_game, random_move
from companion.solo.player import SamsPlayer

RULES = sams.RULES


def _table_with_hidden_buff(buff: str) -> tuple[dict, list[str]]:
    """Seat 0 opens lane 1, seat 1 opens lane 2, seat 0 plays, then seat 1 buffs its lane 2
    face down with ``buff``; seat 0 (the solo seat) holds ``hand`` and plays next."""
    state = RULES.setup({}, 11)
    for seat, lane, card in ((0, 0, "sams.9h"), (1, 1, "sams.7s"), (0, 2, "sams.4d"), (1, 1, buff)):
        state, _ = RULES.apply(state, {"type": "play", "seat": seat, "lane": lane, "card": card})
    return state, ["sams.10h", "sams.3c", "sams.6s"]


def test_the_move_never_depends_on_a_card_the_seat_has_not_seen():
    """Two games that differ only in South's face-down buff: same information, same choice."""
    decisions = []
    for buff in ("sams.2c", "sams.10s", "sams.8d"):
        state, hand = _table_with_hidden_buff(buff)
        player = SamsPlayer(0, seconds=None, iterations=400, seed=5)
        player.hand = list(hand)
        decisions.append(player.choose(state))
    assert decisions[0] == decisions[1] == decisions[2]
    assert decisions[0]["card"] in ("sams.10h", "sams.3c", "sams.6s")


def test_the_information_set_hides_the_opponents_face_down_card():
    state, hand = _table_with_hidden_buff("sams.10s")
    info = model.InfoSet(state, 0, hand)
    assert model.INDEX["sams.10s"] in info.unseen
    assert -1 in info.lanes[1][1]


def test_every_choice_is_a_legal_move_from_the_players_own_hand():
    rng = random.Random(3)
    game = model.new_game(3)
    state = RULES.setup({}, 3)
    player = SamsPlayer(1, seconds=None, iterations=60, seed=1)
    for _ in range(60):
        if game.phase != "play":
            state, events = RULES.apply(state, {"type": "next_round", "seat": 0})
            player.observe({"type": "next_round"}, events)
            game.next_round()
            continue
        seat = game.to_move()
        if seat == 1:
            player.hand = [sams.DECK[c] for c in game.hands[1]]
            action = player.choose(state)
            assert action["seat"] == 1
            if action["type"] == "play":
                assert action["card"] in player.hand
            move = (model.REDRAW,) if action["type"] == "redraw" else (
                model.PLAY, action["lane"], model.INDEX[action["card"]])
        else:
            move = random_move(game, rng)
            action = model.to_action(seat, move)
        state, events = RULES.apply(state, action)       # the engine accepts it
        player.observe(action, events)
        game.apply(move)


def test_the_solo_player_beats_a_random_player():
    wins = sum(play_game(seed, seed % 2, random_move, None, 150, []) == seed % 2 for seed in range(8))
    assert wins >= 7
