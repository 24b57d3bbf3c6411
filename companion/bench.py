"""`companion bench engines`: random legal games through every rules engine.

For each engine it prints the completed ``bench_unit`` per second (games,
battles, rounds, turns: whatever that game's issue asks for) on one core, and
the distribution of the time to apply one action.
"""
from __future__ import annotations

import time

from companion import games


def _percentile(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return 0.0
    k = min(len(sorted_values) - 1, max(0, round(p / 100 * (len(sorted_values) - 1))))
    return sorted_values[k]


def bench_engine(name: str, seconds: float = 2.0) -> dict:
    rules = games.get(name)
    # Throughput: nothing but the engine in the loop.
    units = 0
    seed = 1
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        units += rules.bench_playout(seed)
        seed += 1
    elapsed = time.perf_counter() - start
    # Latency: time each apply separately (timing adds overhead, so it is a separate pass).
    timings: list[float] = []
    perf = time.perf_counter

    def timed_apply(state, action):
        t0 = perf()
        out = original_apply(state, action)
        timings.append(perf() - t0)
        return out

    original_apply = rules.apply
    rules.apply = timed_apply            # instance attribute shadows the method for this pass only
    try:
        start = perf()
        lat_seed = 10_000
        while perf() - start < max(0.5, seconds / 2):
            rules.bench_playout(lat_seed)
            lat_seed += 1
    finally:
        del rules.apply
    timings.sort()
    return {
        f"{rules.bench_unit}_per_second": round(units / elapsed, 1),
        "units_completed": units,
        "seconds": round(elapsed, 3),
        "actions_timed": len(timings),
        "apply_ms_p50": round(_percentile(timings, 50) * 1000, 4),
        "apply_ms_p99": round(_percentile(timings, 99) * 1000, 4),
        "apply_ms_max": round(timings[-1] * 1000, 4) if timings else 0.0,
    }


def bench_fast_path(name: str, seconds: float = 2.0) -> dict | None:
    """Whole random games on the solo player's fast model, the path its search plays out."""
    if name == "sams":
        from companion.games.sams.playout import random_games
        path = "companion.games.sams.playout.Game._play_randomly (whole games; the solo player's search plays its rounds on it)"
    elif name == "lifeforce":
        from companion.games.lifeforce.playout import random_games
        path = ("companion.games.lifeforce.playout.Game (random builds; the solo player's search plays its battles "
                "out on the same model with a greedy policy)")
    else:
        return None
    n = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        n += random_games(50, seed=n + 1)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    # per CPU second too: on a shared machine the wall clock counts the other processes' time
    return {"path": path, "games_per_second": round(n / elapsed, 1),
            "games_per_cpu_second": round(n / cpu, 1) if cpu > 0 else None, "units_completed": n,
            "seconds": round(elapsed, 3)}


def bench_engines(seconds: float = 2.0, only: str | None = None) -> dict:
    """Per engine: the rules engine's own random games (``path: engine``) and, for the games the
    solo player plays, its fast model (``fast_path``)."""
    names = [only] if only else games.available()
    import platform
    engines = {}
    for name in names:
        engines[name] = {"path": "engine", **bench_engine(name, seconds)}
        fast = bench_fast_path(name, seconds)
        if fast is not None:
            engines[name]["fast_path"] = fast
    return {
        "machine": {"python": platform.python_version(), "cpu": platform.processor() or platform.machine()},
        "engines": engines,
    }
