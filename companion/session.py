"""Game sessions: a rules engine, its action log in SQLite, undo, redo and resume.

A game is its record: the setup options, the seed and the ordered actions.
Each action is committed in its own SQLite transaction (WAL mode,
``synchronous=FULL``) *before* the in-memory state moves on, so a power cut at
any moment loses at most the action that was being applied, and the next start
rebuilds the exact state by replaying the log.

Pad events enter through :meth:`Session.handle_pad_event`; touches and button
presses through :meth:`Session.act`.  Both end in the same place.  Anything
that listens (screen, LEDs) subscribes and receives the events of every change.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from companion import games
from companion.cards import game_of
from companion.engine import Event, IllegalAction, Rules, State, redact_event
from companion.table import Layout, PadEvent, TableState, UnknownTag, UnusedPad, ZoneChange
from companion.tags import TagRegistry

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    game     TEXT NOT NULL,
    options  TEXT NOT NULL,
    seed     INTEGER NOT NULL,
    status   TEXT NOT NULL DEFAULT 'playing',   -- playing | over | abandoned
    result   TEXT,
    created  TEXT NOT NULL DEFAULT (datetime('now')),
    updated  TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS actions (
    game_id  INTEGER NOT NULL REFERENCES games(id),
    seq      INTEGER NOT NULL,
    action   TEXT NOT NULL,
    at       TEXT NOT NULL DEFAULT (datetime('now')),
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS redo (
    game_id  INTEGER NOT NULL REFERENCES games(id),
    seq      INTEGER NOT NULL,
    action   TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


def connect(path: str | Path) -> sqlite3.Connection:
    """A connection with the durability settings every part of the companion uses."""
    db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    # A plain `with db:` would not begin a transaction in autocommit mode; Store.tx does.
    return db


def dumps(data) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


@dataclass(frozen=True)
class GameInfo:
    id: int
    game: str
    status: str
    created: str
    updated: str
    actions: int
    result: dict | None


class Store:
    """The SQLite file holding every game and the tag registry."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.db = connect(self.path)
        self.db.executescript(SCHEMA)
        self.tags = TagRegistry(self.db)

    def close(self) -> None:
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def tx(self):
        return _Transaction(self.db)

    def create_game(self, game: str, options: dict, seed: int) -> int:
        with self.tx():
            cur = self.db.execute("INSERT INTO games(game, options, seed) VALUES (?, ?, ?)",
                                  (game, dumps(options), int(seed)))
        return cur.lastrowid

    def load_game(self, game_id: int) -> tuple[str, dict, int, list[dict], list[dict]]:
        row = self.db.execute("SELECT game, options, seed FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"no game #{game_id}")
        actions = [json.loads(a) for (a,) in self.db.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))]
        redo = [json.loads(a) for (a,) in self.db.execute(
            "SELECT action FROM redo WHERE game_id = ? ORDER BY seq", (game_id,))]
        return row[0], json.loads(row[1]), row[2], actions, redo

    def games(self, status: str | None = None) -> list[GameInfo]:
        """Past and unfinished games, newest first."""
        sql = ("SELECT g.id, g.game, g.status, g.created, g.updated, g.result, "
               "(SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id) FROM games g")
        args: tuple = ()
        if status:
            sql += " WHERE g.status = ?"
            args = (status,)
        sql += " ORDER BY g.id DESC"
        return [GameInfo(r[0], r[1], r[2], r[3], r[4], r[6], json.loads(r[5]) if r[5] else None)
                for r in self.db.execute(sql, args)]

    def unfinished(self) -> GameInfo | None:
        rows = self.games("playing")
        return rows[0] if rows else None

    def abandon(self, game_id: int) -> None:
        with self.tx():
            self.db.execute("UPDATE games SET status='abandoned', updated=datetime('now') WHERE id=? AND status='playing'",
                            (game_id,))

    def restore(self, game_id: int) -> bool:
        """Undo :meth:`abandon`: the game is playing again (its log was never touched).
        Returns False when ``game_id`` was not an abandoned game."""
        with self.tx():
            cur = self.db.execute("UPDATE games SET status='playing', updated=datetime('now') "
                                  "WHERE id=? AND status='abandoned'", (game_id,))
        return cur.rowcount == 1

    def action_times(self, game_id: int) -> list[str]:
        """When each logged action of ``game_id`` was committed (UTC, ``YYYY-MM-DD HH:MM:SS``), in order."""
        return [at for (at,) in self.db.execute("SELECT at FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))]


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any exception."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, exc_type, exc, tb):
        self.db.execute("COMMIT" if exc_type is None else "ROLLBACK")
        return False


Listener = Callable[["Session", list], None]


class Session:
    """One game being played: rules + state + durable log + the table's pads."""

    def __init__(self, store: Store, game_id: int, rules: Rules, options: dict, seed: int,
                 actions: list[dict], redo: list[dict], layout: Layout | None = None):
        self.store = store
        self.id = game_id
        self.rules = rules
        self.options = options
        self.seed = seed
        self._states: list[State] = [rules.setup(options, seed)]
        self._actions: list[dict] = []
        for n, action in enumerate(actions, start=1):
            try:
                state, _ = rules.apply(self._states[-1], action)
            except IllegalAction as exc:
                raise RecordError(f"game #{game_id}: logged action {n} is illegal now: {exc}") from None
            self._states.append(state)
            self._actions.append(action)
        self._redo = list(redo)
        if layout is None:
            layout = Layout.identity(rules.name, [z.id for z in rules.zones(options)])
        self.table = TableState(layout, store.tags.lookup)
        self._listeners: list[Listener] = []
        # Readers and buttons call in from their own threads; one change at a time.
        self._lock = threading.RLock()

    # ---- construction ----------------------------------------------------
    @classmethod
    def start(cls, store: Store, game: str, options: dict | None = None, seed: int | None = None,
              layout: Layout | None = None) -> "Session":
        rules = games.get(game)
        options = rules.normalise_options(options)
        if seed is None:
            seed = time.time_ns() & 0xFFFFFFFF
        rules.setup(options, seed)                      # refuse bad options before anything is stored
        game_id = store.create_game(game, options, seed)
        return cls(store, game_id, rules, options, seed, [], [], layout)

    @classmethod
    def resume(cls, store: Store, game_id: int, layout: Layout | None = None) -> "Session":
        game, options, seed, actions, redo = store.load_game(game_id)
        return cls(store, game_id, games.get(game), options, seed, actions, redo, layout)

    # ---- reading ---------------------------------------------------------
    @property
    def state(self) -> State:
        return self._states[-1]

    @property
    def actions(self) -> list[dict]:
        return list(self._actions)

    def view(self, seat: int | None = None) -> dict:
        return self.rules.view(self.state, seat)

    def can_undo(self) -> bool:
        return bool(self._actions)

    def can_redo(self) -> bool:
        return bool(self._redo)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(session, events)`` after every change; returns an unsubscribe."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _notify(self, events: list) -> list:
        for listener in list(self._listeners):
            listener(self, events)
        return events

    # ---- changing ----------------------------------------------------------
    def _act_unlocked(self, action: dict) -> list[Event]:
        """Apply a player's action (a touch, a button, an interpreted scan).

        Illegal actions raise :class:`IllegalAction` and change nothing.
        """
        return self._notify(self._commit(action))

    def _commit(self, action: dict) -> list[Event]:
        state, events = self.rules.apply(self.state, action)
        over = self.rules.is_over(state)
        seq = len(self._actions) + 1
        with self.store.tx() as db:
            db.execute("INSERT INTO actions(game_id, seq, action) VALUES (?, ?, ?)", (self.id, seq, dumps(action)))
            db.execute("DELETE FROM redo WHERE game_id = ?", (self.id,))
            self._mark(db, state, over)
        self._states.append(state)
        self._actions.append(action)
        self._redo.clear()
        return events

    def _undo_unlocked(self) -> list[Event]:
        if not self._actions:
            raise IllegalAction("nothing to undo")
        action = self._actions[-1]
        seq = len(self._actions)
        with self.store.tx() as db:
            db.execute("DELETE FROM actions WHERE game_id = ? AND seq = ?", (self.id, seq))
            db.execute("INSERT OR REPLACE INTO redo(game_id, seq, action) VALUES (?, ?, ?)",
                       (self.id, len(self._redo) + 1, dumps(action)))
            self._mark(db, self._states[-2], self.rules.is_over(self._states[-2]))
        self._actions.pop()
        self._states.pop()
        self._redo.append(action)
        return self._notify([{"type": "undone", "text": f"Undone: {describe_action(action)}", "action": action}])

    def _redo_unlocked(self) -> list[Event]:
        if not self._redo:
            raise IllegalAction("nothing to redo")
        action = self._redo[-1]
        state, events = self.rules.apply(self.state, action)
        seq = len(self._actions) + 1
        with self.store.tx() as db:
            db.execute("INSERT INTO actions(game_id, seq, action) VALUES (?, ?, ?)", (self.id, seq, dumps(action)))
            db.execute("DELETE FROM redo WHERE game_id = ? AND seq = ?", (self.id, len(self._redo)))
            self._mark(db, state, self.rules.is_over(state))
        self._redo.pop()
        self._states.append(state)
        self._actions.append(action)
        return self._notify(events)

    def _mark(self, db, state: State, over: bool) -> None:
        if over:
            db.execute("UPDATE games SET status='over', result=?, updated=datetime('now') WHERE id=?",
                       (dumps(self.rules.result(state)), self.id))
        else:
            db.execute("UPDATE games SET status='playing', result=NULL, updated=datetime('now') WHERE id=?",
                       (self.id,))

    # ---- the table -------------------------------------------------------
    def _handle_pad_event_unlocked(self, ev: PadEvent) -> list[Event]:
        """A debounced sighting from a reader (or the simulated table).

        Never raises for bad input: an unknown tag, a card of another game, a
        pad this game does not use or a card the rules cannot take becomes an
        event the screen shows, and nothing is logged.
        """
        events: list[Event] = []
        for sighting in self.table.feed(ev):
            events.extend(self._sighting(sighting))
        return self._notify(events) if events else events

    def _sighting(self, s) -> list[Event]:
        if isinstance(s, UnknownTag):
            return [{"type": "unknown_tag", "pad": s.pad, "uid": s.uid,
                     "text": f"Unknown tag {s.uid} on pad {s.pad}: assign it a card on the Cards screen"}]
        if isinstance(s, UnusedPad):
            return [{"type": "rejected", "pad": s.pad, "uid": s.uid, "card": s.card_id,
                     "text": f"Pad {s.pad} is not used in {self.rules.title}"}]
        assert isinstance(s, ZoneChange)
        if game_of(s.card_id) != self.rules.name:
            if not s.present:
                return []
            owner = games.KNOWN_GAMES.get(game_of(s.card_id), game_of(s.card_id))
            return [{"type": "rejected", "pad": s.pad, "zone": s.zone, "card": s.card_id,
                     "text": f"{s.card_id} is a {owner} card, not a {self.rules.title} card"}]
        try:
            action = self.rules.interpret(self.state, s.zone, s.card_id, s.present)
            return self._commit(action) if action is not None else []
        except IllegalAction as exc:
            return [{"type": "rejected", "pad": s.pad, "zone": s.zone, "card": s.card_id, "text": str(exc)}]

    def act(self, action: dict) -> list[Event]:
        """Apply a player's action (a touch, a button, an interpreted scan).

        Illegal actions raise :class:`IllegalAction` and change nothing.
        Listeners are called with the events, in the caller's thread.
        """
        with self._lock:
            return self._act_unlocked(action)

    def undo(self) -> list[Event]:
        """Drop the last action (kept for redo until a new action is made)."""
        with self._lock:
            return self._undo_unlocked()

    def redo(self) -> list[Event]:
        with self._lock:
            return self._redo_unlocked()

    def handle_pad_event(self, ev: PadEvent) -> list[Event]:
        """A debounced sighting from a reader or the simulated table (see _handle_pad_event_unlocked)."""
        with self._lock:
            return self._handle_pad_event_unlocked(ev)

    def report(self, events: list[Event]) -> list[Event]:
        """Tell every listener about events that are not game actions (a refused
        button press, a reader that stopped answering); nothing is logged."""
        with self._lock:
            return self._notify(list(events))

    def confirm(self, seat: int) -> list[Event]:
        """A player's confirm button: whatever the rules say it means now; nothing otherwise."""
        with self._lock:
            action = self.rules.confirm_action(self.state, seat)
            return self._act_unlocked(action) if action is not None else []

    # ---- records ---------------------------------------------------------
    def record(self) -> dict:
        from companion.records import make_record
        return make_record(self.rules, self.options, self.seed, self._actions, self.state)

    def public_events(self, events: list[Event]) -> list[Event]:
        """What the shared screen may show of ``events``."""
        return [redact_event(e, None) for e in events]


class RecordError(ValueError):
    """A log or record that does not replay; the message names the first bad entry."""


def describe_action(action: dict) -> str:
    parts = [str(action.get("type", "?"))]
    parts += [f"{k}={v}" for k, v in action.items() if k != "type"]
    return " ".join(parts)
