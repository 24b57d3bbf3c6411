"""The event log in SQLite: one writer, one transaction per action, undo and redo, replay on open.

:class:`EventStore` does not open files itself unless asked to
(:meth:`EventStore.open`): it is given a ``sqlite3`` connection and the lock
that guards it, so the club's hub — the one writer of its database — can hand
it its own connection and lock and keep events beside the tables' games.
Every statement runs under that lock, and every action in its own
``BEGIN IMMEDIATE … COMMIT``: the action is applied to a copy of the state
first (a refused action raises :class:`~companion.event.moves.EventError` and
writes nothing), then logged, and only then does the state in memory move on.

Undo moves an event's last action to ``event_redo``; redo moves it back; a new
action clears the redo list — like a game's session.  The state of an event is
always ``replay(log)``; it is cached in memory and rebuilt on first use.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from companion.event import moves

SCHEMA = """
CREATE TABLE IF NOT EXISTS club_events (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS club_event_log (
    event_id INTEGER NOT NULL REFERENCES club_events(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (event_id, seq)
);
CREATE TABLE IF NOT EXISTS club_event_redo (
    event_id INTEGER NOT NULL REFERENCES club_events(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (event_id, seq)
);
"""


def _dumps(action: dict) -> str:
    return json.dumps(action, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def replay(log: list[dict]) -> dict:
    """The state after every action of ``log`` (its first is ``create``)."""
    state = None
    for action in log:
        state = moves.apply(state, action)
    return state


class EventStore:
    """Events and their logs on a connection the caller may own (``conn`` and ``lock``)."""

    def __init__(self, conn: sqlite3.Connection, lock: threading.RLock | None = None, clock=time.time):
        self.conn = conn
        self.lock = lock or threading.RLock()
        self.clock = clock
        self._states: dict[int, dict] = {}
        self._owned = False
        with self.lock:
            self.conn.executescript(SCHEMA)          # CREATE … IF NOT EXISTS: safe on the hub's database too

    @classmethod
    def open(cls, path: str | Path, **kwargs) -> "EventStore":
        """A store on its own database file (the organiser's CLI), with the companion's durability settings."""
        from companion.session import connect
        store = cls(connect(path), **kwargs)
        store._owned = True
        return store

    def close(self) -> None:
        if self._owned:
            self.conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @contextmanager
    def _tx(self):
        with self.lock:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")

    # -- events ---------------------------------------------------------------------------------
    def create(self, **settings) -> int:
        """A new event (``settings`` as the ``create`` action: name, game, format, rounds, …); its id."""
        action = {"type": "create", **settings, "at": self.clock()}
        moves.apply(None, action)                      # refused settings write nothing
        with self._tx():
            cur = self.conn.execute("INSERT INTO club_events (name, created) VALUES (?, ?)",
                                    (action["name"], action["at"]))
            event_id = cur.lastrowid
            self.conn.execute("INSERT INTO club_event_log VALUES (?, 1, ?)", (event_id, _dumps(action)))
        return event_id

    def events(self) -> list[dict]:
        with self.lock:
            rows = self.conn.execute("SELECT id, name, created FROM club_events ORDER BY id").fetchall()
        return [{"id": r[0], "name": r[1], "created": r[2]} for r in rows]

    def log(self, event_id: int) -> list[dict]:
        with self.lock:
            rows = self.conn.execute("SELECT action FROM club_event_log WHERE event_id = ? ORDER BY seq",
                                     (event_id,)).fetchall()
        if not rows:
            raise KeyError(f"there is no event #{event_id}")
        return [json.loads(r[0]) for r in rows]

    def state(self, event_id: int) -> dict:
        """The event's state: replayed from its log on first use, then kept up to date."""
        with self.lock:
            if event_id not in self._states:
                self._states[event_id] = replay(self.log(event_id))
            return self._states[event_id]

    # -- actions ----------------------------------------------------------------------------------
    def act(self, event_id: int, action: dict) -> dict:
        """Apply and log ``action``; the new state.  A refused action raises and changes nothing."""
        with self.lock:
            state = self.state(event_id)
            action = moves.prepare(state, {**action, "at": self.clock()})
            new = moves.apply(state, action)
            with self._tx():
                seq = self.conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM club_event_log WHERE event_id = ?",
                                        (event_id,)).fetchone()[0]
                self.conn.execute("INSERT INTO club_event_log VALUES (?, ?, ?)", (event_id, seq, _dumps(action)))
                self.conn.execute("DELETE FROM club_event_redo WHERE event_id = ?", (event_id,))
            self._states[event_id] = new
            return new

    def undo(self, event_id: int) -> dict:
        """Take back the event's last action (never its ``create``); the state before it."""
        with self.lock:
            log = self.log(event_id)
            if len(log) < 2:
                raise moves.EventError("there is nothing to undo")
            with self._tx():
                seq = len(log)
                self.conn.execute("DELETE FROM club_event_log WHERE event_id = ? AND seq = ?", (event_id, seq))
                self.conn.execute("INSERT INTO club_event_redo VALUES (?, ?, ?)",
                                  (event_id, seq, _dumps(log[-1])))
            self._states[event_id] = replay(log[:-1])
            return self._states[event_id]

    def redo(self, event_id: int) -> dict:
        """Do again the last action undone (as it was: the same pairings, the same time)."""
        with self.lock:
            row = self.conn.execute("SELECT seq, action FROM club_event_redo WHERE event_id = ? "
                                    "ORDER BY seq LIMIT 1", (event_id,)).fetchone()
            if row is None:
                raise moves.EventError("there is nothing to redo")
            action = json.loads(row[1])
            new = moves.apply(self.state(event_id), action)
            with self._tx():
                self.conn.execute("DELETE FROM club_event_redo WHERE event_id = ? AND seq = ?", (event_id, row[0]))
                self.conn.execute("INSERT INTO club_event_log VALUES (?, ?, ?)", (event_id, row[0], row[1]))
            self._states[event_id] = new
            return new
