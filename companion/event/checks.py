"""Random events and the invariants every round must keep — shared by the property test and the benchmark.

:func:`random_event` plays a whole event through the pure moves: 8–128
players, 3–7 rounds (or "until one undefeated"), random results from the
tables (confirmed by both players, sometimes disputed and decided by the
organiser) or typed by the organiser, drops (the organiser's and the
players' own) and late entries.  :func:`check_round` checks one round's
pairings against the rules of docs/event.md; :func:`standings_from_log`
recomputes the standings from the logged actions alone, by a second, plainly
written route (no code shared with :mod:`companion.event.standings`), so the
two can be compared.
"""
from __future__ import annotations

import random
from fractions import Fraction

import networkx as nx

from companion.event import moves, standings

RESULTS_BO3 = ([2, 0, 0], [2, 1, 0], [0, 2, 0], [1, 2, 0], [1, 1, 1], [1, 0, 1], [0, 0, 3])


def random_event(seed: int, *, min_players: int = 8, max_players: int = 128, check_determinism: str = "one"):
    """Play a random event; returns (log of actions, final state, list of problems found, figures)."""
    rng = random.Random(seed)
    n = rng.randint(min_players, max_players)
    rounds = rng.choice([3, 4, 5, 6, 7, None])
    fmt = rng.choice(["bo3", "bo3", "bo1"])
    log = [{"type": "create", "name": f"Random {seed}", "game": "sams", "format": fmt, "rounds": rounds,
            "seed": seed, "at": 0}]
    state = moves.apply(None, log[0])
    problems: list[str] = []
    figures = {"players": n, "rounds": 0, "rematches": 0, "byes": 0, "late": 0, "drops": 0, "seatings": 0,
               "same_table_again": 0}

    def act(action):
        nonlocal state
        action = moves.prepare(state, action)
        state = moves.apply(state, action)
        log.append(action)

    for i in range(n):
        act({"type": "register", "name": f"Player {i + 1}"})
    determinism_round = rng.randint(1, 3)
    while not moves.is_over(state) and moves.current_round(state) < 12:
        number = moves.current_round(state) + 1
        if number > 1:
            for p in moves.active_players(state, number):
                if rng.random() < 0.04:
                    act({"type": "drop", "player": p["id"], "by": rng.choice(["organiser", "player"])})
                    figures["drops"] += 1
            if moves.is_over(state):           # "until one undefeated": the drops may have ended it
                break
            for _ in range(rng.choice([0, 0, 0, 1, 2])):
                act({"type": "register", "name": f"Late {len(state['players']) + 1}"})
                figures["late"] += 1
        if len(moves.active_players(state, number)) < 2:
            break
        before = state
        act({"type": "start_round"})
        if check_determinism == "all" or (check_determinism == "one" and number == determinism_round):
            again = moves.prepare(before, {"type": "start_round"})["pairings"]
            if again != log[-1]["pairings"]:
                problems.append(f"seed {seed} round {number}: the same state and seed paired differently")
        found = check_round(before, state["rounds"][-1]["pairings"])
        problems += [f"seed {seed} round {number}: {p}" for p in found["problems"]]
        figures["rematches"] += found["rematches"]
        figures["byes"] += found["bye"]
        figures["same_table_again"] += found["same_table_again"]
        figures["seatings"] += 2 * sum(1 for p in state["rounds"][-1]["pairings"] if p["b"] is not None)
        figures["rounds"] += 1
        for p in state["rounds"][-1]["pairings"]:
            if p["b"] is None:
                continue
            games = rng.choice(RESULTS_BO3) if fmt == "bo3" else rng.choice([[1, 0, 0], [0, 1, 0], [0, 0, 1]])
            where = {"round": number, "table": p["table"]}
            roll = rng.random()
            if roll < 0.1:
                act({"type": "report", **where, "games": games, "source": "organiser"})
                continue
            act({"type": "report", **where, "games": games, "source": "table",
                 "game_ref": {"table": f"t{p['table']}", "game_id": rng.randint(1, 10_000)}})
            if roll < 0.15:
                act({"type": "dispute", **where, "player": p["b"], "reason": "wrong count"})
                act({"type": "correct", **where, "games": rng.choice(RESULTS_BO3) if fmt == "bo3" else games,
                     "note": "judge call"})
            else:
                act({"type": "confirm", **where, "player": p["b"]})
                act({"type": "confirm", **where, "player": p["a"]})
    return log, state, problems, figures


def check_round(before: dict, pairings: list[dict]) -> dict:
    """Problems of one round's pairings, given the state before it started."""
    number = moves.current_round(before) + 1
    active = {p["id"] for p in moves.active_players(before, number)}
    cands = {c.id: c for c in moves.candidates(before, number)}
    problems = []
    seen: list[str] = [x for p in pairings for x in (p["a"], p["b"]) if x is not None]
    if sorted(seen) != sorted(active):
        problems.append("not every active player is paired or given a bye exactly once")
    byes = [p["a"] for p in pairings if p["b"] is None]
    if len(byes) != len(active) % 2:
        problems.append(f"{len(byes)} byes for {len(active)} players")
    fewest = min((c.byes for c in cands.values()), default=0)
    for b in byes:
        if cands[b].byes > fewest:
            problems.append(f"{b} has a second bye while another player has none")
    rematches = [(p["a"], p["b"]) for p in pairings if p["b"] is not None and p["b"] in cands[p["a"]].opponents]
    if rematches and rematch_free_pairing_exists(cands):
        problems.append(f"avoidable rematch: {rematches}")
    if any(not p.get("why") for p in pairings):
        problems.append("a pairing without its explanation")
    again = sum(1 for p in pairings if p["b"] is not None
                for x in (p["a"], p["b"]) if cands[x].last_table == p["table"])
    return {"problems": problems, "rematches": len(rematches), "bye": len(byes), "same_table_again": again}


def rematch_free_pairing_exists(cands: dict) -> bool:
    """Is there a pairing of everyone (the bye to a player with the fewest byes) without any rematch?"""
    graph = nx.Graph()
    ids = sorted(cands)
    graph.add_nodes_from(ids)
    graph.add_edges_from((a, b) for i, a in enumerate(ids) for b in ids[i + 1:] if b not in cands[a].opponents)
    if len(ids) % 2:
        fewest = min(c.byes for c in cands.values())
        graph.add_edges_from(("BYE", a) for a in ids if cands[a].byes == fewest)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return 2 * len(matching) == len(ids) + len(ids) % 2


def standings_from_log(log: list[dict]) -> dict[str, tuple]:
    """Player id → (points, OMW%, GW%, OGW%), from the logged actions alone, written out plainly."""
    fmt = log[0].get("format", "bo3")
    players = [a for a in log if a["type"] == "register"]
    ids = [f"p{i + 1}" for i in range(len(players))]
    results: dict[tuple, list] = {}           # (round, table) → [a, b, games] of settled results
    pending: dict[tuple, list] = {}
    round_number = 0
    for a in log:
        if a["type"] == "start_round":
            round_number += 1
            for p in a["pairings"]:
                key = (round_number, p["table"], p["a"])
                if p["b"] is None:
                    results[key] = [p["a"], None, [1, 0, 0] if fmt == "bo1" else [2, 0, 0]]
                else:
                    pending[(round_number, p["table"])] = [p["a"], p["b"], None, set()]
        elif a["type"] in ("report", "correct", "confirm", "dispute"):
            slot = pending[(a["round"], a["table"])]
            key = (a["round"], a["table"], slot[0])
            if a["type"] == "report":
                slot[2], slot[3] = a["games"], set()
                if a["source"] == "organiser":
                    results[key] = [slot[0], slot[1], a["games"]]
            elif a["type"] == "correct":
                results[key] = [slot[0], slot[1], a["games"]]
            elif a["type"] == "confirm":
                slot[3].add(a["player"])
                if slot[3] == {slot[0], slot[1]}:
                    results[key] = [slot[0], slot[1], slot[2]]
    mp = {i: 0 for i in ids}
    rounds_played = {i: 0 for i in ids}
    gp = {i: 0 for i in ids}
    games_played = {i: 0 for i in ids}
    opps: dict[str, list] = {i: [] for i in ids}
    for a, b, (wa, wb, d) in results.values():
        for me, other, won, lost in ((a, b, wa, wb), (b, a, wb, wa)):
            if me is None:
                continue
            rounds_played[me] += 1
            mp[me] += 3 if won > lost else (1 if won == lost else 0)
            gp[me] += 3 * won + d
            games_played[me] += won + lost + d
            if other is not None:
                opps[me].append(other)
    floor = Fraction(33, 100)
    mw = {i: max(floor, Fraction(mp[i], 3 * rounds_played[i])) if rounds_played[i] else floor for i in ids}
    gw = {i: max(floor, Fraction(gp[i], 3 * games_played[i])) if games_played[i] else floor for i in ids}
    out = {}
    for i in ids:
        omw = sum(mw[o] for o in opps[i]) / len(opps[i]) if opps[i] else floor
        ogw = sum(gw[o] for o in opps[i]) / len(opps[i]) if opps[i] else floor
        out[i] = (mp[i], Fraction(omw), gw[i], Fraction(ogw))
    return out


def standings_agree(log: list[dict], state: dict) -> bool:
    rows = {r.id: (r.points, r.omw, r.gw, r.ogw) for r in standings.compute(state)}
    return rows == standings_from_log(log)
