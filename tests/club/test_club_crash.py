"""The outbox survives SIGKILL of the table at any moment: the hub ends with every change once, in order."""
from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time

from companion.session import Session, Store
from tests.club.test_club import listening_sockets

CHILD = r"""
import json, random, sys, time
from companion.club.config import Broker, ClubConfig
from companion.club.outbox import Publisher
from companion.session import Session, Store
data, club, run, finish = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "finish"
store = Store(data + "/companion.sqlite3")
publisher = Publisher(store, ClubConfig(club["table"], Broker(**club["broker"]))).start()
rng = random.Random(run)
print("ready", flush=True)
while True:
    info = store.unfinished()
    if info is None and finish:
        break
    session = Session.resume(store, info.id) if info else Session.start(store, "sams", seed=rng.randrange(1 << 30))
    print("game", flush=True)
    while not session.rules.is_over(session.state):
        roll = rng.random()
        if roll < 0.05 and session.can_undo():
            session.undo()
        elif roll < 0.08 and session.can_redo():
            session.redo()
        else:
            session.act(session.rules.random_action(session.state, rng))
        time.sleep(rng.random() * 0.004)
deadline = time.time() + 20
while publisher.pending() and time.time() < deadline:
    time.sleep(0.05)
publisher.close()
print("done", publisher.pending(), flush=True)
"""


def test_sigkill_of_the_table_at_any_moment_loses_and_doubles_nothing(broker, hub, tmp_path):
    club = {"table": "t8", "broker": {"host": "127.0.0.1", "port": broker.port, "username": "t8",
                                       "password": broker.passwords["t8"]}}
    rng = random.Random(8)
    kills = 0
    for run in range(7):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path), json.dumps(club), str(run), "play"],
                                 stdout=subprocess.PIPE, text=True)
        assert child.stdout.readline().strip() == "ready"
        if run == 0:         # a game is under way before the first kill, however slow the machine (the later
            assert child.stdout.readline().strip() == "game"      # kills land anywhere, startup included)
        time.sleep(rng.uniform(0.05, 0.6))
        assert listening_sockets(child.pid) == []               # a table opens no network listener
        child.send_signal(signal.SIGKILL)
        child.wait()
        kills += 1
    last = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path), json.dumps(club), "99", "finish"],
                          capture_output=True, text=True, timeout=60)
    assert last.stdout.split()[-2:] == ["done", "0"], last.stderr[-2000:]
    with Store(tmp_path / "companion.sqlite3") as store:
        games = store.games()
        assert games and all(g.status == "over" for g in games)
        with store.read() as db:
            assert db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0] == 0
        for info in games:
            session = Session.resume(store, info.id)
            got = hub.store.messages("t8", info.id)
            assert [m["n"] for m in got] == list(range(1, len(got) + 1)), f"game {info.id}: lost or doubled"
            seq = 0
            for m in got:
                seq += 1 if m["kind"] in ("act", "redo") else -1
                assert m["seq"] == seq, f"game {info.id}, message {m['n']}: out of order"
            assert seq == len(session.actions)
            record = hub.store.record("t8", info.id)
            assert record is not None and record["actions"] == session.actions
    assert kills == 7
