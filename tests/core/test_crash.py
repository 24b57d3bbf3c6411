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


class Reports:
    """The report lines a child writes on a pipe.

    One buffer carries a line cut between two reads over to the next read, so a
    report is never split in two (the child's lines are shorter than PIPE_BUF,
    so each one reaches the pipe whole even when the kill lands mid-write).
    """

    def __init__(self, fd: int):
        self.fd = fd
        self.lines: list[str] = []
        self._pending = b""

    def _read(self) -> bool:
        chunk = os.read(self.fd, 4096)
        if not chunk:
            return False
        *complete, self._pending = (self._pending + chunk).split(b"\n")
        self.lines.extend(line.decode() for line in complete if line)
        return True

    def wait_for(self, count: int) -> bool:
        """Read until ``count`` lines other than "start …" arrived; False if the child ended first."""
        while sum(1 for line in self.lines if not line.startswith("start")) < count:
            if not self._read():
                return False
        return True

    def drain(self) -> list[str]:
        """Everything the child wrote before it died."""
        while self._read():
            pass
        return self.lines


@pytest.fixture
def scratch(tmp_path):
    """A folder in memory when there is one: a SIGKILL leaves the kernel's page cache as it was, so
    what these tests check does not depend on the disk, and each commit's fsync then costs nothing."""
    import shutil
    import tempfile
    from pathlib import Path
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    folder = Path(tempfile.mkdtemp(dir=shm))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.slow
def test_kill_minus_nine_at_random_points_loses_no_committed_action(scratch):
    db_path = scratch / "crash.sqlite3"
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
        reader = Reports(read_fd)
        reader.wait_for(picker.randint(0, 170))
        time.sleep(picker.random() * 0.002)           # land anywhere inside the next action
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        lines = reader.drain()                        # what the child managed to report before dying
        os.close(read_fd)
        reports = [l.split() for l in lines if l and not l.startswith("start")]
        starts = [l for l in lines if l.startswith("start")]
        if not starts:
            continue                                   # killed before the game was even created
        game_id = int(starts[0].split()[1])
        reported = int(reports[-1][0]) if reports else 0

        with Store(db_path) as store:
            assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            resumed = Session.resume(store, game_id)
            assert resumed._redo == []                    # this child never undoes: the redo table stays empty
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


# ---- kills during every kind of write: actions, undo, redo, start and resume ---------------------
KILLS = 80
OPS = ("act", "undo", "redo", "resume", "start")


def next_op(seed: int, done: int) -> str:
    roll = Rng(seed * 7919 + done).randrange(100)
    return "act" if roll < 55 else "undo" if roll < 70 else "redo" if roll < 85 else "resume" if roll < 93 else "start"


def script(store, seed: int, report, stop_after: int | None = None) -> None:
    """The child's life: a deterministic mix of every write the companion makes.

    ``report(ops)`` is called after each completed operation; the parent runs the
    same script on a scratch database to know what each moment should look like.
    """
    session = Session.start(store, "sams", {}, seed=seed)
    done = 0
    report(done)
    while stop_after is None or done < stop_after:
        op = next_op(seed, done)
        if op == "act" and not session.rules.is_over(session.state):
            session.act(choose(session.rules, session.state, done, seed))
        elif op == "undo" and session.can_undo():
            session.undo()
        elif op == "redo" and session.can_redo():
            session.redo()
        elif op == "resume":
            session = Session.resume(store, session.id)
        elif op == "start":
            session = Session.start(store, "sams", {}, seed=seed * 31 + done)
        done += 1
        report(done)


def snapshot(store) -> dict:
    """Every game's log and redo table, as the database holds them."""
    return {gid: (store.load_game(gid)[3], store.load_game(gid)[4])
            for (gid,) in store.db.execute("SELECT id FROM games ORDER BY id")}


class _Enough(Exception):
    """The replica has played as far as the kill needs."""


def replica_snapshots(seed: int, upto: int, folder, aim: str) -> tuple[list[dict], int]:
    """What the database should hold after the start and after 1, 2, … operations of ``script``, up
    to the first operation of kind ``aim`` that changes the database (a resume never does: its
    first) and one more, or ``upto`` operations; and that operation's index (0 when there is none)."""
    shots: list[dict] = []

    def shot(done: int) -> None:
        shots.append(snapshot(store))
        n = done - 1                                     # the operation that just ended
        if n >= 0 and next_op(seed, n) == aim and (aim == "resume" or shots[n] != shots[n + 1]):
            raise _Enough(n)
    with Store(folder / "replica.sqlite3") as store:
        try:
            script(store, seed, shot, stop_after=upto)
        except _Enough as found:
            return shots, found.args[0]
    return shots, 0


def test_kill_minus_nine_during_undo_redo_start_and_resume_loses_nothing(scratch):
    """SIGKILL at random moments of a script of actions, undos, redos, starts and resumes.

    The parent paces the child (one "go" byte per operation), so it knows which
    operation is in flight when the kill lands, and aims the kills at each kind
    in turn.  After each kill the database must equal the replica after the last
    reported operation, or after the one in flight (it committed, the report did
    not get out); the redo table included; and ``PRAGMA integrity_check`` must pass.
    """
    import shutil
    import tempfile
    from pathlib import Path
    picker = random.Random(13)
    in_flight = {op: 0 for op in OPS}
    landed_after_commit = 0
    for kill in range(KILLS):
        seed = 1000 + kill
        aim = OPS[kill % len(OPS)]
        folder = Path(tempfile.mkdtemp(dir=scratch))
        # the first operation of the aimed kind that changes the database (a resume never does)
        shots, until = replica_snapshots(seed, 40, folder, aim)
        (folder / "replica.sqlite3").unlink()
        db_path = folder / "companion.sqlite3"
        Store(db_path).close()
        read_fd, write_fd = os.pipe()
        go_read, go_write = os.pipe()
        os.write(go_write, b"g" * (until + 1))          # the child may do operations 1 … until + 1
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            os.close(go_write)

            def report(done):
                os.write(write_fd, f"{done}\n".encode())
                os.read(go_read, 1)                      # wait for the parent's go
            try:
                with Store(db_path) as store:
                    script(store, seed, report)
            finally:
                os._exit(0)
        os.close(write_fd)
        os.close(go_read)
        reader = Reports(read_fd)
        reader.wait_for(until + 1)          # reports 0 … until: operation until + 1 is under way
        if picker.random() < 0.2:                        # mostly at once: the operation is still running
            time.sleep(picker.random() * 0.0005)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(go_write)
        lines = reader.drain()
        os.close(read_fd)
        reported = int(lines[-1])
        assert reported in (until, until + 1)           # the child cannot pass the operation it was given
        with Store(db_path) as store:
            assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            found = snapshot(store)
            candidates = shots[until:until + 2]
            if reported == until + 1:
                candidates = candidates[1:]             # its report got out: it must be there
            assert found in candidates, f"kill {kill}: after {reported} operations the database holds {found}"
            writes = shots[until] != shots[until + 1]
            if reported == until and (writes or aim == "resume"):
                in_flight[aim] += 1                      # the kill landed before its report got out
                landed_after_commit += writes and found == shots[until + 1]
            if found:                                     # and play goes on from what was found
                game = max(found)
                resumed = Session.resume(store, game)
                if not resumed.rules.is_over(resumed.state):
                    resumed.act(choose(resumed.rules, resumed.state, 10_000, seed))
        shutil.rmtree(folder)
    print(f"\n{KILLS} kills; writing operation in flight: {in_flight}; "
          f"{landed_after_commit} after its commit, before its report")
    assert all(in_flight[op] > 0 for op in OPS), in_flight


def test_a_report_cut_between_two_reads_is_read_whole():
    """CI once saw "hash" without its number: a line cut at a read boundary must be joined, not split."""
    read_fd, write_fd = os.pipe()
    reader = Reports(read_fd)
    os.write(write_fd, b"start 7\n12 ab")
    assert reader.wait_for(0) and reader._read()
    os.write(write_fd, b"cd\n13 ef\n")
    os.close(write_fd)
    assert reader.drain() == ["start 7", "12 abcd", "13 ef"]
    os.close(read_fd)
