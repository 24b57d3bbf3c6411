"""`companion bench solo`: how well the solo player plays, and how long it thinks.

Whole games of Sam's Battle Game between the solo player and a random player,
then a greedy one (:func:`companion.solo.sams.greedy_move`), seats alternating.
The table is the fast full-information model (it deals the real cards); every
move also goes through the rules engine, and the solo player sees only the
engine's view for its seat plus its own hand, as at a real table.
"""
from __future__ import annotations

import math
import random
import time

from companion.games import sams as engine
from companion.solo import sams as model
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


def bench_solo(game: str = "sams", games: int = 200, think: float | None = 0.03,
               iterations: int | None = None, seed: int = 1) -> dict:
    if game != "sams":
        return {"game": game, "error": "the solo player plays Sam's Battle Game only so far"}
    out: dict = {"game": game, "games_per_opponent": games, "think_seconds": think, "iterations": iterations}
    think_times: list[float] = []
    start = time.perf_counter()
    for name, opponent in OPPONENTS.items():
        wins = 0
        for i in range(games):
            solo_seat = i % 2
            wins += play_game(seed + i, solo_seat, opponent, think, iterations, think_times) == solo_seat
        out[f"win_rate_vs_{name}"] = round(wins / games, 4)
        out[f"win_rate_vs_{name}_ci95"] = wilson(wins, games)
    think_times.sort()
    ms = [t * 1000 for t in think_times]
    out["moves_thought"] = len(ms)
    out["think_ms_p50"] = round(ms[len(ms) // 2], 2) if ms else 0.0
    out["think_ms_p95"] = round(ms[min(len(ms) - 1, int(len(ms) * 0.95))], 2) if ms else 0.0
    out["seconds"] = round(time.perf_counter() - start, 1)
    return out
