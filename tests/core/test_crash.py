"""Power cut in the middle of a battle: `kill -9` at random points during 200 simulated games.

A forked child plays a game through the simulated table (pad events → session
→ SQLite) and reports every committed action on a pipe.  The parent kills it
with SIGKILL after a random number of actions plus a random fraction of the
next one (so some kills land inside a transaction), then resumes the game from
the database and checks that

* every action the child reported as committed is in the log (nothing lost),
* at most the one action being applied at the kill is there besides,
* the log is exactly the actions the child chose, and
* the resumed state is identical to the child's state after that action,
  and the game plays on.

The child's choices are a pure function of (game seed, action number, state),
so the parent can recompute what the child did.
"""
import hashlib
import json
import os
import random
import signal
import time

import pytest

from companion.engine import Rng
from companion.session import Session, Store
from companion.simulate import ScriptedTable, register_virtual_tags

GAMES = 200


def state_hash(state) -> str:
    return hashlib.sha1(json.dumps(state, sort_keys=True).encode()).hexdigest()


def choose(rules, state, done: int, seed: int):
    """The child's next action: deterministic in (seed, actions so far, state)."""
    return rules.random_action(state, Rng(seed * 100_003 + done))


def child(db_path, seed: int, fd: int) -> None:
    """Play game ``seed`` until killed, writing "<seq> <state hash>" after each commit."""
    try:
        with Store(db_path) as store:
            session = Session.start(store, "sams", {}, seed=seed)
            table = ScriptedTable(session)
            os.write(fd, f"start {session.id}\n".encode())
            while not session.rules.is_over(session.state):
                table.play(choose(session.rules, session.state, len(session.actions), seed))
                os.write(fd, f"{len(session.actions)} {state_hash(session.state)}\n".encode())
    finally:
        os._exit(0)


def read_lines(fd, until: int, buffer: list[str]) -> bool:
    """Read reports until ``until`` action lines arrived; False if the child ended first."""
    pending = ""
    while sum(1 for line in buffer if not line.startswith("start")) < until:
        chunk = os.read(fd, 4096).decode()
        if not chunk:
            return False
        pending += chunk
        *complete, pending = pending.split("\n")
        buffer.extend(complete)
    return True


@pytest.mark.slow
def test_kill_minus_nine_at_random_points_loses_no_committed_action(tmp_path):
    db_path = tmp_path / "crash.sqlite3"
    with Store(db_path) as store:
        register_virtual_tags(store, "sams")
    picker = random.Random(2026)
    killed_mid_game = 0
    for seed in range(1, GAMES + 1):
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            child(db_path, seed, write_fd)
        os.close(write_fd)
        lines: list[str] = []
        alive = read_lines(read_fd, picker.randint(0, 170), lines)
        time.sleep(picker.random() * 0.002)           # land anywhere inside the next action
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        # drain what the child managed to report before dying
        while (chunk := os.read(read_fd, 65536)):
            lines.extend(l for l in chunk.decode().split("\n") if l)
        os.close(read_fd)
        reports = [l.split() for l in lines if l and not l.startswith("start")]
        starts = [l for l in lines if l.startswith("start")]
        if not starts:
            continue                                   # killed before the game was even created
        game_id = int(starts[0].split()[1])
        reported = int(reports[-1][0]) if reports else 0

        with Store(db_path) as store:
            resumed = Session.resume(store, game_id)
            n = len(resumed.actions)
            assert reported <= n <= reported + 1, f"game {seed}: {reported} reported, {n} in the log"
            # Recompute the child's game and compare action by action and state by state.
            rules = resumed.rules
            replica = rules.setup(resumed.options, seed)
            hashes = dict((int(a), h) for a, h in reports)
            for k in range(n):
                action = choose(rules, replica, k, seed)
                assert resumed.actions[k] == action, f"game {seed}: action {k + 1} differs"
                replica, _ = rules.apply(replica, action)
                if k + 1 in hashes:
                    assert state_hash(replica) == hashes[k + 1]
            assert resumed.state == replica
            # and the interrupted game plays on
            if not resumed.rules.is_over(resumed.state):
                killed_mid_game += 1
                table = ScriptedTable(resumed)
                for _ in range(3):
                    if resumed.rules.is_over(resumed.state):
                        break
                    table.play(choose(rules, resumed.state, len(resumed.actions), seed))
    assert killed_mid_game >= GAMES * 0.9
