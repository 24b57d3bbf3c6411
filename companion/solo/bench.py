"""`companion bench solo`: how well the solo player plays, and how long it thinks.

Whole games of Sam's Battle Game or Lifeforce Battle between the solo player and
a random player, then a greedy one (:func:`companion.games.sams.playout.greedy_move`,
:func:`companion.games.lifeforce.playout.greedy_move`), seats alternating.  A draw
(Lifeforce: both run out of cards at once) counts as not won.
The table is the fast full-information model (it deals the real cards); every
move also goes through the rules engine, and the solo player sees only the
engine's view for its seat plus its own hand, as at a real table.
"""
from __future__ import annotations

import math
import random
import time

from companion.games.sams import rules as engine
from companion.games.sams import playout as model
from companion.solo.player import SamsPlayer


def wilson(wins: int, n: int, z: float = 1.96) -> list[float]:
    """The 95 % Wilson score interval of a win rate."""
    if n == 0:
        return [0.0, 1.0]
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def random_move(g: model.Game, rng: random.Random) -> tuple:
    seat = g.to_move()
    if g.may_redraw(seat) and rng.randrange(20) == 0:
        return (model.REDRAW,)
    return (model.PLAY, rng.randrange(model.LANES), rng.choice(g.hands[seat]))


OPPONENTS = {"random": random_move, "greedy": model.greedy_move}


def play_game(seed: int, solo_seat: int, opponent, think: float | None, iterations: int | None,
              think_times: list[float]) -> int:
    """One whole game; returns the winner's seat."""
    rng = random.Random(seed)
    table = model.new_game(seed)
    rules = engine.RULES
    state = rules.setup({}, seed)
    solo = SamsPlayer(solo_seat, seconds=think, iterations=iterations, seed=seed)
    while True:
        while table.phase == "play":
            seat = table.to_move()
            if seat == solo_seat:
                solo.hand = [engine.DECK[c] for c in table.hands[seat]]
                t0 = time.perf_counter()
                action = solo.choose(state)
                think_times.append(time.perf_counter() - t0)
                move = (model.REDRAW,) if action["type"] == "redraw" else (
                    model.PLAY, action["lane"], model.INDEX[action["card"]])
            else:
                move = opponent(table, rng)
                action = model.to_action(seat, move)
            state, events = rules.apply(state, action)
            solo.observe(action, events)
            table.apply(move)
        if table.phase == "over":
            assert state["winner"] == table.winner, "engine and fast model disagree"
            return table.winner
        action = {"type": "next_round", "seat": 0}
        state, events = rules.apply(state, action)
        solo.observe(action, events)
        table.next_round()


def play_lifeforce_game(seed: int, solo_seat: int, opponent, think: float | None, iterations: int | None,
                        think_times: list[float]) -> int | None:
    """One whole game of Lifeforce Battle; returns the winner's seat (None: a draw).

    The fast model deals and keeps the hands; its record (builds, calls, resolved duels)
    drives the engine, whose state is all the solo player sees besides its own hand."""
    from companion.games.lifeforce import RULES as rules, sample_decks
    from companion.games.lifeforce import playout as lf
    from companion.games.lifeforce.solo import LifeforcePlayer
    decks = sample_decks()
    rng = random.Random(seed)
    table = lf.new_game(seed, decks)
    table.record = record = []
    state = rules.setup({"decks": decks}, seed)
    solo = LifeforcePlayer(solo_seat, seconds=think, iterations=iterations, seed=seed)
    table.start(rng.randrange(2))
    fed = 0
    while True:
        for seat, what, *_ in record[fed:]:
            for action in lf.to_actions(seat, what):
                state, _ = rules.apply(state, action)
        fed = len(record)
        if table.stage == "over":
            assert state["winner"] == table.winner, "engine and fast model disagree"
            return table.winner
        seat = table.to_move()
        if seat == solo_seat:
            solo.hand = [lf.card_id(c) for c in table.hand[seat]]
            t0 = time.perf_counter()
            move = solo.choose_move(state)
            think_times.append(time.perf_counter() - t0)
        else:
            move = opponent(table, rng)
        table.apply(move)


# seconds of thought per decision by default: a Lifeforce game asks the solo seat about 50
# decisions (Sam's: 15), so 200 games per opponent take minutes, not an hour
THINK = {"sams": 0.03, "lifeforce": 0.02}


def bench_solo(game: str = "sams", games: int = 200, think: float | None = None,
               iterations: int | None = None, seed: int = 1) -> dict:
    if game not in ("sams", "lifeforce"):
        return {"game": game, "error": "the solo player plays Sam's Battle Game and Lifeforce Battle only"}
    if game == "lifeforce":
        from companion.games.lifeforce import playout as lf
        opponents = {"random": lf.random_move, "greedy": lf.greedy_move}
        play = play_lifeforce_game
    else:
        opponents, play = OPPONENTS, play_game
    if think is None and iterations is None:
        think = THINK[game]
    out: dict = {"game": game, "games_per_opponent": games, "think_seconds": think, "iterations": iterations}
    think_times: list[float] = []
    start = time.perf_counter()
    for name, opponent in opponents.items():
        wins = 0
        for i in range(games):
            solo_seat = i % 2
            wins += play(seed + i, solo_seat, opponent, think, iterations, think_times) == solo_seat
        out[f"win_rate_vs_{name}"] = round(wins / games, 4)
        out[f"win_rate_vs_{name}_ci95"] = wilson(wins, games)
    think_times.sort()
    ms = [t * 1000 for t in think_times]
    out["moves_thought"] = len(ms)
    out["think_ms_p50"] = round(ms[len(ms) // 2], 2) if ms else 0.0
    out["think_ms_p95"] = round(ms[min(len(ms) - 1, int(len(ms) * 0.95))], 2) if ms else 0.0
    out["seconds"] = round(time.perf_counter() - start, 1)
    return out
