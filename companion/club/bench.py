"""`companion bench club`: a club night against a real Mosquitto on loopback, with outages.

N tables (threads of this process, each its own SQLite, session and publisher)
play whole random Sam's games at a modelled human pace, compressed in time.
Meanwhile the bench SIGKILLs and restarts the broker, cuts tables off the
network for minutes of modelled time, and SIGKILLs and restarts the hub (its
own process, ``companion hub``).  A spectator (a server-sent-events client, as
a page is) follows every table.  At the end every table's truth — the changes
its session acknowledged, in order — is compared with what the hub stored.

Modelled pace (a guess, not a measurement): a player places a card or presses
a button every ~4 s on average (exponential gaps), so one table makes ~15
changes a minute and 32 tables ~8 a second.  ``--speedup`` compresses it.
"""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from companion.bench import _percentile
from companion.club.broker import RunningBroker, free_port
from companion.club.config import HubConfig
from companion.session import Session, Store, now_ms

MODELLED_GAP_S = 4.0             # mean seconds between two changes at one table (guess: a person's pace)
CUT_MODELLED_S = 180.0           # a table cut off for three minutes of modelled time
GRACE_MS = 3000                  # after an outage ends, this long still counts as "catching up"


class _Table(threading.Thread):
    def __init__(self, name: str, directory: Path, club, speedup: float, seed: int, stop: threading.Event):
        super().__init__(name=f"bench-table-{name}", daemon=True)
        from companion.club.outbox import Publisher
        self.table = name
        self.store = Store(directory / "companion.sqlite3")
        self.publisher = Publisher(self.store, club).start()
        self.speedup, self.rng, self.stop = speedup, random.Random(seed), stop
        self.truth: dict[int, list[tuple[str, int]]] = {}      # game → [(kind, seq)] in the order acknowledged
        self.games_finished = 0
        self.actions = 0

    def run(self) -> None:
        session = None
        while not self.stop.is_set():
            if session is None or session.rules.is_over(session.state):
                if session is not None:
                    self.games_finished += 1
                session = Session.start(self.store, "sams", seed=self.rng.randrange(1 << 30))
                self.truth[session.id] = []
            time.sleep(self.rng.expovariate(1 / MODELLED_GAP_S) / self.speedup)
            roll = self.rng.random()
            if roll < 0.03 and session.can_undo():
                session.undo()
                kind = "undo"
            elif roll < 0.045 and session.can_redo():
                session.redo()
                kind = "redo"
            else:
                session.act(session.rules.random_action(session.state, self.rng))
                kind = "act"
            self.truth[session.id].append((kind, len(session.actions)))
            self.actions += 1

    def close(self) -> None:
        self.publisher.close()
        self.store.close()


SPECTATOR = r"""
import http.client, json, sys, time
port, out = int(sys.argv[1]), open(sys.argv[2], "a", buffering=1)
while True:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/events")
        response = conn.getresponse()
        while True:
            line = response.fp.readline()
            if not line:
                break
            if line.startswith(b"data: "):
                update = json.loads(line[6:])
                live = update.get("live")
                if live and "t_ms" in live:
                    out.write(json.dumps([update["table"], live["game"], live["n"], live["t_ms"],
                                          time.time_ns() // 1_000_000]) + "\n")
    except (OSError, http.client.HTTPException, ValueError):
        time.sleep(0.2)
"""


class _Spectator:
    """A page's view of the club, in its own process (as a browser is): /events, each change noted once
    with the time it arrived."""

    def __init__(self, port: int, path: Path):
        self.path = path
        self.proc = subprocess.Popen([sys.executable, "-c", SPECTATOR, str(port), str(path)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def close(self) -> list[tuple[int, int]]:
        self.proc.kill()
        self.proc.wait()
        seen, latencies = set(), []
        for line in self.path.read_text().splitlines():
            table, game, n, t_ms, arrived = json.loads(line)
            if (table, game, n) not in seen:          # not a retained state sent again
                seen.add((table, game, n))
                latencies.append((t_ms, arrived - t_ms))
        return latencies


def _cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


class _HubProcess:
    def __init__(self, config_path: Path):
        self.config_path = config_path
        self.proc: subprocess.Popen | None = None
        self.cpu = 0.0

    def start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "companion", "hub", "--config", str(self.config_path)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    def stop(self, sig=signal.SIGTERM) -> None:
        if self.proc and self.proc.poll() is None:
            self.cpu += _cpu_seconds(self.proc.pid)
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def bench_club(tables: int = 32, seconds: float = 120.0, speedup: float = 10.0, seed: int = 1) -> dict:
    """Play ``seconds`` of real time (``seconds × speedup`` of modelled club time), with outages; see module doc."""
    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="bench-club-"))
    names = [f"t{n:02d}" for n in range(1, tables + 1)]
    broker = RunningBroker(work / "broker", names).start()
    http_port = free_port()
    HubConfig(broker.broker("hub"), work / "hub" / "hub.sqlite3", "127.0.0.1", http_port).save(work / "hub.toml")
    hub = _HubProcess(work / "hub.toml")
    hub.start()
    _wait_port(http_port)
    spectator = _Spectator(http_port, work / "spectator.jsonl")
    load_before = os.getloadavg()
    stop = threading.Event()
    players = [_Table(name, work / name, broker.club(name), speedup, rng.randrange(1 << 30), stop) for name in names]
    outages: list[dict] = []                           # {"what", "tables" (None: all), "from_ms", "to_ms"}
    broker_cpu = 0.0
    started = time.monotonic()
    for p in players:
        p.start()

    def at(fraction: float) -> None:
        remaining = started + seconds * fraction - time.monotonic()
        if remaining > 0:
            time.sleep(remaining)

    cut_real = CUT_MODELLED_S / speedup
    cut = rng.sample(players, max(1, tables // 4))
    at(0.15)
    t0 = now_ms()
    for p in cut:
        p.publisher.cut()
    at(0.15 + cut_real / seconds)
    for p in cut:
        p.publisher.restore()
    outages.append({"what": "tables cut off", "tables": [p.table for p in cut], "from_ms": t0, "to_ms": now_ms(),
                    "modelled_s": CUT_MODELLED_S})
    at(0.45)
    t0 = now_ms()
    broker_cpu += _cpu_seconds(broker.proc.pid)
    broker.kill()
    time.sleep(3)
    broker.start()
    outages.append({"what": "broker SIGKILLed and restarted", "tables": None, "from_ms": t0, "to_ms": now_ms()})
    at(0.7)
    t0 = now_ms()
    hub.stop(signal.SIGKILL)
    time.sleep(2)
    hub.start()
    _wait_port(http_port)
    outages.append({"what": "hub SIGKILLed and restarted", "tables": None, "from_ms": t0, "to_ms": now_ms()})
    at(1.0)
    stop.set()
    for p in players:
        p.join()
    played_until = now_ms()
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and any(p.publisher.pending() for p in players):
        time.sleep(0.2)
    catch_up_s = round((now_ms() - played_until) / 1000, 1)
    time.sleep(1.0)
    latencies = spectator.close()
    load_after = os.getloadavg()
    pending = sum(p.publisher.pending() for p in players)
    hub.stop()
    broker_cpu += _cpu_seconds(broker.proc.pid)
    for p in players:
        p.close()
    broker.stop()
    report = _report(players, work / "hub" / "hub.sqlite3", outages, latencies, hub.cpu, broker_cpu, tables,
                     seconds, speedup, pending, catch_up_s)
    report["machine"] = {"cpus": os.cpu_count(), "load_average_before": load_before, "load_average_after": load_after,
                         "note": "tables, hub, broker and spectator share these CPUs (and any other work on them)"}
    return report


def _wait_port(port: int, timeout: float = 20) -> None:
    import socket
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"the hub did not open port {port}")


def _disturbed(t_ms: int, table: str, outages: list[dict]) -> bool:
    return any(o["from_ms"] <= t_ms <= o["to_ms"] + GRACE_MS and (o["tables"] is None or table in o["tables"])
               for o in outages)


def _report(players, hub_db: Path, outages, latencies, hub_cpu, broker_cpu, tables, seconds, speedup,
            pending, catch_up_s) -> dict:
    from companion.session import connect
    db = connect(hub_db, readonly=True)
    lost = duplicated = out_of_order = stored = 0
    to_hub_steady, to_hub_all = [], []
    for p in players:
        for game, truth in p.truth.items():
            rows = db.execute("SELECT n, kind, seq, t_ms, received_ms FROM hub_messages WHERE table_name = ? "
                              "AND game_id = ? ORDER BY n", (p.table, game)).fetchall()
            stored += len(rows)
            by_n = {n: (kind, seq) for n, kind, seq, _, _ in rows}
            lost += sum(1 for n in range(1, len(truth) + 1) if n not in by_n)
            duplicated += sum(1 for n in by_n if n > len(truth))        # a change stored under a second number
            out_of_order += sum(1 for n, got in by_n.items() if n <= len(truth) and got != truth[n - 1])
            for n, kind, seq, t_ms, received in rows:
                to_hub_all.append(received - t_ms)
                if not _disturbed(t_ms, p.table, outages):
                    to_hub_steady.append(received - t_ms)
    db.close()
    page_all = sorted(lat for _, lat in latencies)
    page_steady = sorted(lat for t, lat in latencies
                         if not any(o["from_ms"] <= t <= o["to_ms"] + GRACE_MS for o in outages))
    to_hub_all.sort()
    to_hub_steady.sort()
    actions = sum(p.actions for p in players)

    def pct(values):
        return {"p50_ms": _percentile(values, 50), "p99_ms": _percentile(values, 99),
                "max_ms": values[-1] if values else None, "n": len(values)}

    modelled_minutes = seconds * speedup / 60
    return {
        "tables": tables, "real_seconds": seconds, "speedup": speedup,
        "modelled_minutes": round(modelled_minutes, 1),
        "modelled_pace": f"a change every {MODELLED_GAP_S} s per table (guess), exponential gaps",
        "games_finished": sum(p.games_finished for p in players),
        "games_started": sum(len(p.truth) for p in players),
        "changes_played": actions,
        "changes_stored_by_hub": stored,
        "lost": lost, "duplicated": duplicated, "out_of_order": out_of_order,
        "left_in_outboxes": pending, "catch_up_seconds_after_play": catch_up_s,
        "outages": [{k: v for k, v in o.items() if k != "tables"} | {"tables": len(o["tables"]) if o["tables"] else "all"}
                    for o in outages],
        "action_to_hub": {"steady": pct(to_hub_steady), "all": pct(to_hub_all)},
        "action_to_spectator_page": {"steady": pct(page_steady), "all": pct(page_all)},
        "hub_cpu_seconds": round(hub_cpu, 2),
        "hub_cpu_ms_per_1000_changes": round(hub_cpu * 1000 / max(1, stored) * 1000, 1),
        "broker_cpu_seconds": round(broker_cpu, 2),
        "broker_cpu_ms_per_1000_changes": round(broker_cpu * 1000 / max(1, stored) * 1000, 1),
        "real_club_load": {"changes_per_second_32_tables": round(32 / MODELLED_GAP_S, 1)},
    }
