"""The club's hub: every table's games in one SQLite, acknowledged, and shown on read-only pages.

One :class:`HubStore` is the one writer of the hub's database: paho's thread
only queues what arrives; the writer thread stores a batch in one transaction
(idempotent on table, game and ``n``: a message seen twice, or early, changes
nothing twice), and only after the commit acknowledges each game's highest
``n`` stored without a gap and tells the pages.  Another module (the event
layer) adds its own tables with :meth:`HubStore.add_schema` and its pages with
:meth:`companion.club.web.Routes.add`; it writes through :meth:`HubStore.tx`
like everything else.

The table's name comes from the topic, which the broker's ACL lets only that
table write; a message claiming another table in its body is refused.
"""
from __future__ import annotations

import json
import logging
import queue
import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from companion.club.config import MAX_MESSAGE_BYTES, PREFIX, HubConfig, table_of, topic
from companion.session import connect, dumps, now_ms, run_script

log = logging.getLogger(__name__)

HUB_SCHEMA = """
CREATE TABLE IF NOT EXISTS hub_tables (
    name      TEXT PRIMARY KEY,
    online    INTEGER NOT NULL DEFAULT 0,
    seen_ms   INTEGER,
    live      TEXT                                 -- the table's retained shared-screen state
);
CREATE TABLE IF NOT EXISTS hub_games (
    table_name TEXT NOT NULL,
    game_id    INTEGER NOT NULL,                   -- the table's own game number
    name       TEXT NOT NULL,
    title      TEXT NOT NULL,
    status     TEXT NOT NULL,
    players    TEXT,
    result     TEXT,
    record     TEXT,                               -- the whole record, once the game is over
    acked      INTEGER NOT NULL DEFAULT 0,         -- highest n stored with none missing below
    started_ms INTEGER,
    ended_ms   INTEGER,
    PRIMARY KEY (table_name, game_id)
);
CREATE TABLE IF NOT EXISTS hub_messages (
    table_name TEXT NOT NULL,
    game_id    INTEGER NOT NULL,
    n          INTEGER NOT NULL,
    kind       TEXT NOT NULL,                      -- act | undo | redo
    seq        INTEGER NOT NULL,                   -- actions in the log after it
    t_ms       INTEGER NOT NULL,                   -- when the table played it
    received_ms INTEGER NOT NULL,
    body       TEXT NOT NULL,
    PRIMARY KEY (table_name, game_id, n)
);
"""


class HubStore:
    """The hub's SQLite file: one connection, one lock, every write through :meth:`tx`."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.RLock()
        self.db = connect(self.path)
        self.add_schema(HUB_SCHEMA)

    def add_schema(self, script: str) -> None:
        """Create another module's tables (``CREATE TABLE IF NOT EXISTS …``) in this database."""
        with self.tx() as db:
            run_script(db, script)

    @contextmanager
    def tx(self):
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    @contextmanager
    def read(self):
        with self.lock:
            self.db.execute("BEGIN")
            try:
                yield self.db
            finally:
                self.db.execute("COMMIT")

    def close(self) -> None:
        with self.lock:
            self.db.close()

    # ---- reading, for the pages and the event layer ------------------------------------------------
    def tables(self) -> list[dict]:
        with self.read() as db:
            rows = db.execute("SELECT name, online, seen_ms, live FROM hub_tables ORDER BY name").fetchall()
        return [{"table": n, "online": bool(o), "seen_ms": s, "live": json.loads(l) if l else None}
                for n, o, s, l in rows]

    def table(self, name: str) -> dict | None:
        with self.read() as db:
            row = db.execute("SELECT name, online, seen_ms, live FROM hub_tables WHERE name = ?", (name,)).fetchone()
        if row is None:
            return None
        return {"table": row[0], "online": bool(row[1]), "seen_ms": row[2], "live": json.loads(row[3]) if row[3] else None}

    def games(self, status: str | None = None) -> list[dict]:
        sql = "SELECT table_name, game_id, name, title, status, players, result, acked, started_ms, ended_ms FROM hub_games"
        with self.read() as db:
            rows = db.execute(sql + (" WHERE status = ?" if status else "") + " ORDER BY table_name, game_id",
                              (status,) if status else ()).fetchall()
        return [{"table": r[0], "game": r[1], "name": r[2], "title": r[3], "status": r[4],
                 "players": json.loads(r[5]) if r[5] else None, "result": json.loads(r[6]) if r[6] else None,
                 "messages": r[7], "started_ms": r[8], "ended_ms": r[9]} for r in rows]

    def record(self, table: str, game: int) -> dict | None:
        with self.read() as db:
            row = db.execute("SELECT record FROM hub_games WHERE table_name = ? AND game_id = ?", (table, game)).fetchone()
        return json.loads(row[0]) if row and row[0] else None

    def messages(self, table: str, game: int) -> list[dict]:
        """A game's stored messages in the table's order (n), with when each arrived."""
        with self.read() as db:
            rows = db.execute("SELECT n, kind, seq, t_ms, received_ms FROM hub_messages WHERE table_name = ? "
                              "AND game_id = ? ORDER BY n", (table, game)).fetchall()
        return [{"n": n, "kind": k, "seq": s, "t_ms": t, "received_ms": r} for n, k, s, t, r in rows]

    # ---- writing (the hub's writer thread) ----------------------------------------------------------
    def store_batch(self, items: list[tuple[str, str, dict | str, int]],
                    advanced: list | None = None) -> tuple[dict, list]:
        """Store a batch of (table, leaf, payload, received_ms) in one transaction.

        Returns ({(table, game): (acked n, whether a later n is stored past a gap)} for every game a
        log message touched, [(table, live) changed]).  ``advanced``, if given, receives (table, body
        as stored: JSON text) of every log message the acknowledgement moved over, in each game's
        order: the messages now stored with none missing before them, each exactly once.
        """
        touched: dict = {}
        lives = []
        with self.tx() as db:
            for table, leaf, payload, received in items:
                db.execute("INSERT INTO hub_tables(name, seen_ms) VALUES (?, ?) ON CONFLICT(name) "
                           "DO UPDATE SET seen_ms = excluded.seen_ms", (table, received))
                if leaf == "status":
                    db.execute("UPDATE hub_tables SET online = ? WHERE name = ?", (payload == "online", table))
                    lives.append((table, None))
                elif leaf == "live":
                    db.execute("UPDATE hub_tables SET live = ?, online = 1 WHERE name = ?", (dumps(payload), table))
                    lives.append((table, payload))
                elif leaf == "log":
                    touched[(table, payload["game"])] = None
                    self._store_log(db, table, payload, received)
            for (table, game) in touched:
                touched[(table, game)] = self._advance(db, table, game, advanced)
        return touched, lives

    def _store_log(self, db, table: str, m: dict, received: int) -> None:
        db.execute("INSERT OR IGNORE INTO hub_messages(table_name, game_id, n, kind, seq, t_ms, received_ms, body) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   (table, m["game"], m["n"], m["kind"], m["seq"], m["t_ms"], received, dumps(m)))
        players = (m.get("view") or {}).get("players")
        db.execute("INSERT INTO hub_games(table_name, game_id, name, title, status, players, started_ms) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(table_name, game_id) DO NOTHING",
                   (table, m["game"], m["name"], m["title"], m["status"], dumps(players), m["t_ms"]))

    def _advance(self, db, table: str, game: int, advanced: list | None = None) -> tuple[int, bool]:
        """Move the game's acknowledged ``n`` over every message now stored without a gap; the game's
        status and record follow the newest of those."""
        (acked,) = db.execute("SELECT acked FROM hub_games WHERE table_name = ? AND game_id = ?",
                              (table, game)).fetchone()
        newest, gap = None, False
        for n, body in db.execute("SELECT n, body FROM hub_messages WHERE table_name = ? AND game_id = ? AND n > ? "
                                  "ORDER BY n", (table, game, acked)).fetchall():
            if n != acked + 1:
                gap = True
                break
            acked, newest = n, body
            if advanced is not None:
                advanced.append((table, body))
        if newest is not None:
            m = json.loads(newest)
            over = m["status"] == "over"
            db.execute("UPDATE hub_games SET acked = ?, status = ?, result = ?, record = COALESCE(?, record), "
                       "ended_ms = ? WHERE table_name = ? AND game_id = ?",
                       (acked, m["status"], dumps(m.get("result")) if over else None,
                        dumps(m["record"]) if over and m.get("record") else None, m["t_ms"] if over else None,
                        table, game))
        return acked, gap


LOG_KINDS = ("act", "undo", "redo", "confirm", "dispute", "drop")   # confirm, dispute: a player's answer
# to the result; drop: a player's own "I drop from the event" (companion.event.hub)


def _event_ref_ok(ref) -> bool:
    """An event's reference on a table's message: which event, round and table number it played."""
    return (isinstance(ref, dict) and all(isinstance(ref.get(k), int) and not isinstance(ref.get(k), bool)
                                          and 0 < ref[k] < 10**9 for k in ("event", "round", "table"))
            and isinstance(ref.get("seats"), list) and len(ref["seats"]) == 2
            and all(isinstance(s, str) and len(s) <= 12 for s in ref["seats"]))


def parse_message(topic_name: str, payload: bytes):
    """(table, leaf, payload) of a message the hub may store, else None: bounded, checked, never trusted."""
    where = table_of(topic_name)
    if where is None or len(payload) > MAX_MESSAGE_BYTES:
        return None
    table, leaf = where
    if leaf == "status":
        text = payload.decode("utf-8", "replace")
        return (table, leaf, text) if text in ("online", "offline") else None
    if leaf not in ("log", "live", "deckscan"):
        return None
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    if leaf == "deckscan":          # a question for the event layer (Hub.request_listeners), not stored here
        return (table, leaf, data) if isinstance(data, dict) else None
    if not isinstance(data, dict) or data.get("table") != table:
        return None                 # a body naming another table than its topic: refused
    if not isinstance(data.get("game"), int) or not isinstance(data.get("view"), dict):
        return None
    if "event_ref" in data and not _event_ref_ok(data["event_ref"]):
        return None
    if leaf == "log":
        if not (isinstance(data.get("n"), int) and data["n"] >= 1 and data.get("kind") in LOG_KINDS
                and isinstance(data.get("seq"), int) and isinstance(data.get("t_ms"), int)
                and isinstance(data.get("name"), str) and isinstance(data.get("title"), str)
                and data.get("status") in ("playing", "over")):
            return None
    return table, leaf, data


class Hub:
    """Subscribes, stores, acknowledges; ``listeners`` hear of every table whose screen changed."""

    def __init__(self, config: HubConfig, store: HubStore | None = None):
        from companion.club.outbox import mqtt_client
        self.config = config
        self.store = store or HubStore(config.database)
        self.listeners: list = []               # f(table, live | None) on the writer thread: a new screen, or
                                                # (None) the table went online/offline, read back after the commit
        self.log_listeners: list = []           # f(table, body JSON text) on the writer thread, after the commit,
                                                # for each log message now stored in order (the event's results)
        self.request_listeners: list = []       # f(table, leaf, body dict) on the writer thread: a table's question
                                                # that is answered, not stored (a deck check's scan)
        self._inbox: queue.SimpleQueue = queue.SimpleQueue()
        self._closed = False
        self.connected = threading.Event()
        self.stats = {"received": 0, "refused": 0, "stored_batches": 0}
        self.client = mqtt_client("companion-hub", config.broker)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = lambda *a: self.connected.clear()
        self.client.on_message = self._on_message
        self._writer = threading.Thread(target=self._write, name="club-hub-writer", daemon=True)

    def start(self) -> "Hub":
        self._writer.start()
        self.client.loop_start()
        return self

    def close(self) -> None:
        self._closed = True
        self._inbox.put(None)
        self.client.disconnect()
        self.client.loop_stop()
        self._writer.join(timeout=5)
        self.store.close()

    def _on_connect(self, client, userdata, flags, reason_code, properties):
        if reason_code.is_failure:
            log.warning("club broker refused the hub: %s", reason_code)
            return
        # Every time: a broker restarted without its persistence has forgotten the subscriptions.
        client.subscribe([(f"{PREFIX}/+/{leaf}", 1) for leaf in ("log", "live", "status", "deckscan")])
        self.connected.set()

    def _on_message(self, client, userdata, message):
        self._inbox.put((message.topic, message.payload, now_ms()))

    def _write(self) -> None:
        while True:
            first = self._inbox.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < 500:
                try:
                    item = self._inbox.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self._closed = True
                    break
                batch.append(item)
            items = []
            for topic_name, payload, received in batch:
                parsed = parse_message(topic_name, payload)
                if parsed is None:
                    self.stats["refused"] += 1
                    continue
                if parsed[1] == "deckscan":
                    for listener in list(self.request_listeners):
                        try:
                            listener(*parsed)
                        except Exception:            # a bad question never stops the hub storing games
                            log.exception("club hub: a listener failed on a question of table %s", parsed[0])
                    continue
                items.append((*parsed, received))
            self.stats["received"] += len(batch)
            # A table's screen goes to the pages at once: it is what the table shows, not something the
            # hub acknowledges, so it need not wait for the commit (the log below does).
            for table, leaf, payload, _ in items:
                if leaf == "live":
                    for listener in list(self.listeners):
                        listener(table, payload)
            advanced: list = []
            try:
                acks, lives = self.store.store_batch(items, advanced)
            except (sqlite3.Error, KeyError, TypeError) as exc:
                log.error("club hub could not store %d messages: %s", len(items), exc)
                continue                   # not acknowledged: the tables send them again
            self.stats["stored_batches"] += 1
            for (table, game), (n, gap) in acks.items():
                # "gap": something after n is here but n + 1 is not (lost with a hub or broker that died):
                # the table sends again at once instead of waiting out its resend timer.
                self.client.publish(topic(table, "ack"), dumps({"game": game, "n": n, "gap": gap}), qos=1)
            for table, body in advanced:
                for listener in list(self.log_listeners):
                    try:
                        listener(table, body)
                    except Exception:                # the event layer never stops the hub storing games
                        log.exception("club hub: a listener failed on a message of table %s", table)
            for table, live in lives:
                if live is None:                     # online / offline: from the stored row
                    for listener in list(self.listeners):
                        listener(table, None)
            if self._closed:
                return


def run_hub(config: HubConfig, serve_forever: bool = True, mounts=()):
    """``companion hub``: the hub and its pages, until interrupted.  ``mounts``: each ``f(hub, server)``
    adds its routes and listeners before the pages open (the event layer, ``companion.event.hub``)."""
    from companion.club.web import HubServer
    hub = Hub(config).start()
    server = HubServer(hub, (config.http_host, config.http_port))
    for mount in mounts:
        mount(hub, server)
    if not serve_forever:
        return hub, server
    server.start()

    def stop(signum, frame):                      # systemd's SIGTERM: close the pages and the broker session
        raise KeyboardInterrupt

    import signal
    signal.signal(signal.SIGTERM, stop)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        hub.close()
    return None


__all__ = ["Hub", "HubStore", "parse_message", "run_hub"]
