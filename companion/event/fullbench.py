"""`companion bench event --full`: a whole event played by the tables, over the real broker, to the real hub.

A real Mosquitto on loopback (the club's generated configuration: passwords,
ACL), the hub as its own process (``companion hub``, which mounts the event),
and N tables — threads of this process, each with its own SQLite, publisher
and :class:`~companion.club.eventtable.EventTable` — play an event of 2N
players, single games, R rounds.  The organiser (this bench) works only through
the hub's HTTP API: create, register, and each round *start_round*.  Each table
waits for its pairing to arrive over the broker, both seats press, the game
starts with those names, random legal moves (the real engine) play it to the
end, and both players confirm the result on the table.

Per round: the seconds from the organiser's *start_round* to every match of the
round settled at the hub.  At the end: how many results reached the hub from
the tables without any hand entry (aim: all), how many the organiser had to
type because none came within the round's limit (*lost*, aim 0), and how many
differ from the table's own game result (aim 0).
"""
from __future__ import annotations

import base64
import json
import os
import random
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

PASSWORD = "bench organiser"


class _Table(threading.Thread):
    """One table: waits for each pairing, seats, plays to the end at machine speed, both confirm."""

    def __init__(self, name: str, directory: Path, club, seed: int, stop: threading.Event):
        super().__init__(name=f"bench-event-{name}", daemon=True)
        from companion.club.eventtable import EventTable
        from companion.club.outbox import Publisher
        from companion.session import Store
        self.table_name, self.rng, self.stop = name, random.Random(seed), stop
        self.store = Store(directory / "companion.sqlite3")
        self.publisher = Publisher(self.store, club).start()
        self.event_table = EventTable(self.store, self.publisher)
        self.wake = threading.Event()
        self.event_table.listeners.append(lambda pairing: self.wake.set())
        self.played: dict[tuple[int, int], dict] = {}           # (round, table) → names by seat, winner seat
        self.actions = 0
        self.errors: list[str] = []

    def run(self) -> None:
        from companion.session import Session
        while not self.stop.is_set():
            self.wake.wait(0.5)
            self.wake.clear()
            pairing = self.event_table.pairing
            if pairing is None or (pairing["round"], pairing["table"]) in self.played:
                continue
            try:
                self.event_table.press(0)
                self.event_table.press(1)
                session = self.event_table.start(Session.start, seed=self.rng.randrange(1 << 30))
                while not session.rules.is_over(session.state):
                    session.act(session.rules.random_action(session.state, self.rng))
                    self.actions += 1
                self.event_table.answer(session, 0)
                self.event_table.answer(session, 1)
                self.played[(pairing["round"], pairing["table"])] = {
                    "names": session.options["players"], "winner": session.rules.result(session.state)["winner"]}
            except Exception as exc:            # a finding for the report, not the end of the bench
                self.errors.append(f"{self.table_name}: {exc!r}")
                self.played[(pairing["round"], pairing["table"])] = {"error": repr(exc)}

    def close(self) -> None:
        self.publisher.close()
        self.store.close()


def _request(url: str, body=None, timeout: float = 30):
    headers = {"Authorization": "Basic " + base64.b64encode(f"organiser:{PASSWORD}".encode()).decode()}
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers=headers, method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        return json.loads(e.read())


def full_event(tables: int = 32, rounds: int = 6, seed: int = 1, round_limit: float = 600.0) -> dict:
    from companion.club.bench import _HubProcess, _wait_port
    from companion.club.broker import RunningBroker, free_port
    from companion.club.config import HubConfig, hash_password
    work = Path(tempfile.mkdtemp(prefix="bench-event-"))
    names = [f"t{n:02d}" for n in range(1, tables + 1)]
    broker = RunningBroker(work / "broker", names).start()
    port = free_port()
    HubConfig(broker.broker("hub"), work / "hub" / "hub.sqlite3", "127.0.0.1", port,
              organiser_hash=hash_password(PASSWORD)).save(work / "hub.toml")
    hub = _HubProcess(work / "hub.toml")
    hub.start()
    stop = threading.Event()
    players: list[_Table] = []
    url = f"http://127.0.0.1:{port}"
    began = time.perf_counter()
    try:
        _wait_port(port)
        rng = random.Random(seed)
        players = [_Table(n, work / n, broker.club(n), rng.randrange(1 << 30), stop) for n in names]
        for p in players:
            p.start()
        ev = _request(f"{url}/organiser/event", {"name": "Bench night", "game": "sams", "format": "bo1",
                                                 "rounds": rounds, "seed": seed, "tables": names})["event"]
        for i in range(2 * tables):
            _request(f"{url}/organiser/event/{ev}/register", {"name": f"Player {i + 1:03d}"})
        per_round, hand_entered = [], 0
        for number in range(1, rounds + 1):
            t0 = time.perf_counter()
            answer = _request(f"{url}/organiser/event/{ev}/start_round", {})
            if "error" in answer:
                raise RuntimeError(answer["error"])
            deadline = time.monotonic() + round_limit
            while True:
                view = _request(f"{url}/api/event/{ev}")
                open_tables = [p for p in view["pairings"] if p["b"] is not None and
                               (p["result"] == "playing" or "(" in p["result"])]
                if not open_tables or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            for p in open_tables:            # lost: the organiser types it so the event goes on
                hand_entered += 1
                _request(f"{url}/organiser/event/{ev}/correct",
                         {"round": number, "table": p["table"], "games": [1, 0, 0], "note": "bench: none came"})
            per_round.append(round(time.perf_counter() - t0, 2))
        final = _request(f"{url}/api/event/{ev}")
        # Every settled result against the table's own game, by round and table number.
        wrong, from_tables, checked = 0, 0, 0
        played = {k: v for p in players for k, v in p.played.items()}
        history = _rounds_of(url, ev, rounds)
        for number, rows in history.items():
            for row in rows:
                if row["b"] is None:
                    continue
                mine = played.get((number, row["table"]))
                if mine is None or "error" in mine or "(" in row["result"]:
                    continue
                checked += 1
                from_tables += 1
                a_seat = mine["names"].index(row["a"])
                expected = "0–0–1" if mine["winner"] is None else ("1–0" if mine["winner"] == a_seat else "0–1")
                wrong += row["result"] != expected
        matches = sum(1 for rows in history.values() for r in rows if r["b"] is not None)
        return {
            "tables": tables, "rounds": rounds, "players": 2 * tables, "matches": matches,
            "results_at_hub_from_tables": from_tables, "aim": f"all {matches}",
            "lost_hand_entered": hand_entered, "wrong_results": wrong, "checked_against_tables": checked,
            "seconds_per_round": per_round, "seconds_total": round(time.perf_counter() - began, 1),
            "actions_played": sum(p.actions for p in players),
            "table_errors": [e for p in players for e in p.errors][:5],
            "over": final["over"], "load_average": [round(x, 1) for x in os.getloadavg()],
            "time": "wall clock of this machine; tables play at machine speed (no modelled human pace)",
        }
    finally:
        stop.set()
        for p in players:
            p.join(timeout=5)
            p.close()
        hub.stop()
        broker.stop()


def _rounds_of(url: str, ev: int, rounds: int) -> dict[int, list[dict]]:
    """Every round's pairings and results as the hub's API shows them (``?rounds=all``)."""
    view = _request(f"{url}/api/event/{ev}?rounds=all")
    return {r["number"]: r["pairings"] for r in view.get("rounds_all", [])}
