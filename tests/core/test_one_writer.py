"""One writer per database (issue 13, item 1): many threads, one store, and every log still replays.

The threads stand for what calls the core at a real table: the Cards screen
registering and forgetting tags, the Home screen starting and abandoning games,
a reader thread's pad events, two players' confirm buttons, and long presses
(undo) with the screen's redo.  They share one :class:`Store` and, per game,
one :class:`Session`, exactly as the app wires them.  After 10,000 operations
every stored game must replay from its log, every live session must agree with
the database action for action, and SQLite's integrity check must pass.

The file lives on tmpfs when there is one: the test is about transactions
interleaving, not about fsync latency, which the crash test covers.
"""
import random
import sqlite3
import tempfile
import threading
from pathlib import Path

import pytest

from companion.engine import IllegalAction, Rng
from companion.records import replay
from companion.session import Session, Store
from companion.simulate import register_virtual_tags
from companion.table import GONE, SEEN, PadEvent
from companion.tags import virtual_uid

OPERATIONS = 10_000
THREADS = 6


@pytest.fixture
def fast_dir(tmp_path):
    shm = Path("/dev/shm")
    if shm.is_dir():
        with tempfile.TemporaryDirectory(dir=shm) as d:
            yield Path(d)
    else:
        yield tmp_path


def test_ten_thousand_operations_from_six_threads_leave_every_log_replayable(fast_dir):
    store = Store(fast_dir / "companion.sqlite3")
    register_virtual_tags(store, "sams")
    pool: list[Session] = [Session.start(store, "sams", {}, seed=1)]
    pool_lock = threading.Lock()
    done = [0]
    counter_lock = threading.Lock()
    failures: list[BaseException] = []
    writes = {"ok": 0}

    def quota(n: int):
        """Each thread makes its own share, so no thread can starve the others out of the test."""
        for _ in range(n):
            with counter_lock:
                done[0] += 1
            yield

    def some_session(rng) -> Session:
        with pool_lock:
            return rng.choice(pool[-3:])

    def tags(rng):
        uid = "0499" + "".join(rng.choice("0123456789ABCDEF") for _ in range(10))
        what = rng.random()
        if what < 0.5:
            store.tags.register(uid, rng.choice(["sams.7h", "sams.8s", "lifeforce.great-tit"]))
        elif what < 0.7:
            store.tags.forget(uid)
        else:
            store.tags.lookup(virtual_uid("sams.9h"))
            store.tags.all()

    def home(rng):
        what = rng.random()
        if what < 0.03:
            session = Session.start(store, "sams", {"strict_majority": rng.random() < 0.5}, seed=rng.randrange(1 << 30))
            with pool_lock:
                pool.append(session)
        elif what < 0.05:
            with pool_lock:
                victim = pool[rng.randrange(len(pool))] if len(pool) > 4 else None
            if victim is not None:
                store.abandon(victim.id)
        else:
            store.games()

    def reader(rng):
        session = some_session(rng)
        state = session.state
        if session.rules.is_over(state):
            return
        action = session.rules.random_action(state, Rng(rng.randrange(1 << 30)))
        scan = session.rules.scan_for(state, action)
        if scan is None:
            return
        zone, card = scan
        uid = virtual_uid(card, rng.randrange(2))
        session.handle_pad_event(PadEvent(zone, uid, SEEN, 0.0))
        session.handle_pad_event(PadEvent(zone, uid, GONE, 0.0))

    def button(rng):
        some_session(rng).confirm(rng.randrange(2))

    def undo_redo(rng):
        session = some_session(rng)
        what = rng.random()
        if what < 0.15:
            session.undo()
        elif what < 0.25:
            session.redo()
        elif not session.rules.is_over(session.state):
            session.act(session.rules.random_action(session.state, Rng(rng.randrange(1 << 30))))

    def worker(job, seed, share):
        rng = random.Random(seed)
        try:
            for _ in quota(share):
                try:
                    job(rng)
                    writes["ok"] += 1
                except IllegalAction:
                    pass                      # refused moves are part of play; nothing was written
        except BaseException as exc:          # anything else is a bug this test exists to find
            failures.append(exc)

    jobs = [tags, home, reader, button, undo_redo, undo_redo]
    shares = [OPERATIONS // THREADS + (n < OPERATIONS % THREADS) for n in range(THREADS)]
    threads = [threading.Thread(target=worker, args=(job, n, shares[n])) for n, job in enumerate(jobs[:THREADS])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures[:3]
    assert done[0] == OPERATIONS

    # Every live session agrees with the database, and every stored log replays.
    for session in pool:
        _, _, _, actions, redo = store.load_game(session.id)
        assert actions == session.actions, f"game #{session.id}: memory and database disagree"
        assert redo == session._redo
        again = Session.resume(store, session.id)
        assert again.state == session.state
    infos = store.games()
    assert len(infos) == len(pool)
    logged = 0
    for info in infos:
        replay(Session.resume(store, info.id).record())
        logged += info.actions
    print(f"{done[0]} operations, {writes['ok']} accepted, {len(infos)} games, {logged} actions logged")
    assert writes["ok"] > OPERATIONS // 2 and logged > 300   # the hammer did play, not only refuse
    assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    store.close()
    # and a second, independent connection reads the same logs
    other = sqlite3.connect(fast_dir / "companion.sqlite3")
    assert other.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == logged
    other.close()
