"""`companion bench engines`: random legal games through every rules engine.

For each engine it prints the completed ``bench_unit`` per second (games,
battles, rounds, turns: whatever that game's issue asks for) on one core, and
the distribution of the time to apply one action.  With ``--against COMMIT`` it measures this
checkout and that commit side by side instead (:func:`bench_against`).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


# ---- old and new side by side ------------------------------------------------------------------
#
# A figure from another day says little on a shared machine (the same commit measured 290 or 760
# games/s by the load), so `companion bench engines --against REF` measures this checkout and REF's
# tree in one run: REF is checked out with `git worktree add` into a temporary directory, and child
# processes, one per (tree, engine, round), take turns (the order rotates each round) playing the same
# seeds, timed with time.process_time (CPU time: another process on the core does not count).

_CHILD = """
import json, sys, time
import companion
from companion import games
tree, name, first, last = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
if not companion.__file__.startswith(tree):
    raise SystemExit(f"imported {companion.__file__}, not the tree {tree}")
rules = games.get(name)
rules.bench_playout(10**6)              # warm up: imports, catalogues, caches
units, seed, start = 0, first, time.process_time()
budget = float(sys.argv[5]) if len(sys.argv) > 5 else None
while seed < last or (budget is not None and time.process_time() - start < budget):
    units += rules.bench_playout(seed)
    seed += 1
print(json.dumps({"units": units, "seeds": seed - first, "cpu": time.process_time() - start,
                  "unit": rules.bench_unit}))
"""


class AgainstError(Exception):
    """A comparison that cannot be made (not a git checkout, an unknown commit); one sentence."""


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)
    if done.returncode:
        raise AgainstError(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"git {args[0]} failed")
    return done.stdout.strip()


def _play(tree: Path, name: str, first: int, last: int, data: Path, budget: float | None = None) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree), "XDG_DATA_HOME": str(data), "PYTHONHASHSEED": "0"}
    argv = [sys.executable, "-c", _CHILD, str(tree) + os.sep, name, str(first), str(last)]
    if budget is not None:
        argv.append(str(budget))
    done = subprocess.run(argv, capture_output=True, text=True, cwd=tree, env=env)
    if done.returncode:
        raise AgainstError(f"{name} in {tree}: " + (done.stderr.strip().splitlines() or ["failed"])[-1])
    return json.loads(done.stdout)


def bench_against(refs: list[str], seconds: float = 2.0, only: str | None = None, rounds: int = 5) -> dict:
    """Every engine (or ``only``) of this checkout and of each commit in ``refs``, side by side.

    Per engine the seeds of each round are fixed by a first calibration run here (as many games as
    ``seconds`` of CPU allow); every tree then plays exactly those seeds in each round.  Figures are
    ``bench_unit`` per CPU second; ``ratio`` is this checkout's over the other commit's."""
    repo = Path(__file__).resolve().parent.parent
    refs = list(dict.fromkeys(refs))
    for ref in refs:
        if ref.startswith("-") or ref == "this checkout":
            raise AgainstError(f"{ref!r} is not a commit of {repo}")
    _git(repo, "rev-parse", "--git-dir")
    here = {"label": "this checkout", "commit": _git(repo, "rev-parse", "--short", "HEAD"),
            "uncommitted_changes": bool(_git(repo, "status", "--porcelain", "--untracked-files=no")),
            "tree": repo}
    trees = [here]
    with tempfile.TemporaryDirectory(prefix="companion-against-") as tmp:
        data = Path(tmp) / "data"                   # no player's own cards in any tree
        data.mkdir()
        try:
            for ref in refs:
                try:
                    commit = _git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
                except AgainstError:
                    raise AgainstError(f"{ref!r} is not a commit of {repo}") from None
                path = Path(tmp) / commit[:12]
                _git(repo, "worktree", "add", "--detach", str(path), commit)
                trees.append({"label": ref, "commit": commit[:7], "tree": path})
            names = [only] if only else games.available()
            engines = {}
            for name in names:
                calibration = _play(repo, name, 1, 1, data, budget=seconds)
                n = max(1, calibration["seeds"])
                runs = {t["label"]: [] for t in trees}
                for r in range(rounds):
                    order = trees[r % len(trees):] + trees[:r % len(trees)]
                    for t in order:
                        runs[t["label"]].append(_play(t["tree"], name, 1 + r * n, 1 + (r + 1) * n, data))
                figures = {}
                for label, measured in runs.items():
                    units, cpu = sum(m["units"] for m in measured), sum(m["cpu"] for m in measured)
                    per_round = [round(m["units"] / m["cpu"], 1) for m in measured]
                    figures[label] = {f"{measured[0]['unit']}_per_cpu_second": round(units / cpu, 1),
                                      "median_round": sorted(per_round)[len(per_round) // 2],
                                      "per_round": per_round,
                                      "units": units, "cpu_seconds": round(cpu, 3)}
                mine = figures[here["label"]]
                key = next(k for k in mine if k.endswith("_per_cpu_second"))
                for t in trees[1:]:
                    other = figures[t["label"]]
                    other_key = next(k for k in other if k.endswith("_per_cpu_second"))
                    other["this_checkout_ratio"] = round(mine[key] / other[other_key], 3)
                engines[name] = {"seeds_per_round": n, "rounds": rounds, **figures}
        finally:
            for t in trees[1:]:
                subprocess.run(["git", "-C", str(repo), "worktree", "remove", "--force", str(t["tree"])],
                               capture_output=True)
    import platform
    return {"machine": {"python": platform.python_version(), "cpu": platform.processor() or platform.machine(),
                        "cores": os.cpu_count(), "load_average": list(os.getloadavg())},
            "clock": "time.process_time (CPU seconds of the child playing)",
            "trees": [{k: v for k, v in t.items() if k != "tree"} for t in trees],
            "engines": engines}
