"""`companion bench event`: pairing and standings times, and the property run over random events.

Wall-clock figures of this machine (``time.perf_counter``); ``property_events``
random events (:func:`companion.event.checks.random_event`) are checked for
avoidable rematches, second byes, players left out, standings that differ from
a recomputation from the log, and pairings that differ for the same seed.
"""
from __future__ import annotations

import json
import os
import platform
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from companion.event import checks, moves, standings


def _event_after(players: int, rounds: int, seed: int = 1) -> dict:
    """An event of ``players`` after ``rounds`` rounds of random organiser-entered results."""
    rng = random.Random(seed)
    state = moves.apply(None, {"type": "create", "name": "Bench", "game": "sams", "seed": seed, "rounds": 15})
    for i in range(players):
        state = moves.apply(state, {"type": "register", "name": f"P{i + 1}"})
    for number in range(1, rounds + 1):
        state = moves.apply(state, moves.prepare(state, {"type": "start_round"}))
        for p in state["rounds"][-1]["pairings"]:
            if p["b"] is not None:
                state = moves.apply(state, {"type": "report", "round": number, "table": p["table"],
                                            "games": rng.choice(checks.RESULTS_BO3), "source": "organiser"})
    return state


def pairing_times(players: int, rounds: int = 5, seed: int = 1) -> dict:
    """Seconds to pair each round 1…``rounds`` of an event of ``players``."""
    state = _event_after(players, 0, seed)
    rng = random.Random(seed)
    times = []
    for number in range(1, rounds + 1):
        began = time.perf_counter()
        action = moves.prepare(state, {"type": "start_round"})
        times.append(round(time.perf_counter() - began, 3))
        state = moves.apply(state, action)
        for p in state["rounds"][-1]["pairings"]:
            if p["b"] is not None:
                state = moves.apply(state, {"type": "report", "round": number, "table": p["table"],
                                            "games": rng.choice(checks.RESULTS_BO3), "source": "organiser"})
    return {"players": players, "seconds_by_round": times, "max_s": max(times)}


def standings_time(players: int, rounds: int = 6) -> dict:
    state = _event_after(players, rounds)
    began = time.perf_counter()
    repeat = 5
    for _ in range(repeat):
        standings.compute(state)
    return {"players": players, "rounds": rounds, "seconds": round((time.perf_counter() - began) / repeat, 4)}


def _one(seed: int) -> dict:
    try:
        log, state, problems, figures = checks.random_event(seed)
    except Exception as exc:                      # a refusal or a crash is a finding, not the end of the run
        return {"problems": [f"seed {seed}: crashed: {exc!r}"], "players": 0, "rounds": 0, "rematches": 0,
                "byes": 0, "late": 0, "drops": 0, "seatings": 0, "same_table_again": 0}
    if not checks.standings_agree(log, state):
        problems.append(f"seed {seed}: standings differ from the recomputation from the log")
    return {"problems": problems, **figures}


def property_run(events: int, first_seed: int = 1, workers: int | None = None, progress: bool = True) -> dict:
    """``events`` random events, every round checked; counts of each kind of problem (all should be 0)."""
    began = time.perf_counter()
    workers = workers or min(2, os.cpu_count() or 1)
    totals = {"events": 0, "rounds": 0, "players_min": None, "players_max": 0, "rematches_forced": 0,
              "byes": 0, "late_entries": 0, "drops": 0, "seatings": 0, "same_table_as_last_round": 0}
    kinds = {"avoidable_rematches": "avoidable rematch", "second_byes": "second bye",
             "players_left_out": "not every active player", "standings_mismatch": "standings differ",
             "pairings_differ_for_same_seed": "paired differently", "wrong_bye_count": " byes for ",
             "crashes": "crashed"}
    counts = {k: 0 for k in kinds}
    examples: list[str] = []
    with ProcessPoolExecutor(workers) as pool:
        for out in pool.map(_one, range(first_seed, first_seed + events), chunksize=4):
            totals["events"] += 1
            totals["rounds"] += out["rounds"]
            totals["players_min"] = min(out["players"], totals["players_min"] or out["players"])
            totals["players_max"] = max(out["players"], totals["players_max"])
            totals["rematches_forced"] += out["rematches"]
            totals["byes"] += out["byes"]
            totals["late_entries"] += out["late"]
            totals["drops"] += out["drops"]
            totals["seatings"] += out.get("seatings", 0)
            totals["same_table_as_last_round"] += out.get("same_table_again", 0)
            for problem in out["problems"]:
                for key, words in kinds.items():
                    if words in problem:
                        counts[key] += 1
                examples = (examples + [problem])[:5]
            if progress and totals["events"] % 250 == 0:       # a partial result survives an interruption
                print(json.dumps({**totals, **counts, "wall_clock_s": round(time.perf_counter() - began, 1)}),
                      file=sys.stderr, flush=True)
    return {**totals, **counts, "examples": examples, "workers": workers,
            "wall_clock_s": round(time.perf_counter() - began, 1)}


def bench_event(property_events: int = 0) -> dict:
    result = {
        "machine": {"python": platform.python_version(), "cpu": platform.processor() or platform.machine(),
                    "cores": os.cpu_count()},
        "time": "wall clock of this machine",
        "pairing": {"128_players": {**pairing_times(128), "aim": "<= 1 s"}, "512_players": pairing_times(512, 5)},
        "standings_recomputation": [standings_time(128), standings_time(512)],
    }
    if property_events:
        result["property"] = property_run(property_events)
    return result
