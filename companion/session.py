"""Game sessions: a rules engine, its action log in SQLite, undo, redo and resume.

A game is its record: the setup options, the seed and the ordered actions.
Each action is committed in its own SQLite transaction (WAL mode,
``synchronous=FULL``) *before* the in-memory state moves on, so a power cut at
any moment loses at most the action that was being applied, and the next start
rebuilds the exact state by replaying the log.

Pad events enter through :meth:`Session.handle_pad_event`; touches and button
presses through :meth:`Session.act` and :meth:`Session.confirm`.  Both end in
the same place.  In the app every input reaches them by one road, on one
thread (:mod:`companion.inputs`).  Anything that listens (screen, LEDs)
subscribes and receives the events of every change.
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import urllib.parse
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from companion import cards, games, paths
from companion.cards import game_of
from companion.engine import Event, IllegalAction, Rules, State, redact_event, rejected_event
from companion.outfiles import fsync_dir
from companion.records import RecordError, check_options, make_record
from companion.table import (Layout, PadEvent, TableProfile, TableState, UnknownTag, UnreadCards, UnusedPad,
                             ZoneChange, layout_for)
from companion.tags import RELABEL_SCHEMA, SCHEMA as TAGS_SCHEMA, TagRegistry

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
    t_ms     INTEGER,                             -- when it was played, Unix ms (NULL before version 3)
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS redo (
    game_id  INTEGER NOT NULL REFERENCES games(id),
    seq      INTEGER NOT NULL,
    action   TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""
OUTBOX_SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,   -- the order the club's hub must receive them in
    game_id  INTEGER NOT NULL,
    n        INTEGER NOT NULL,                    -- per game, from 1: what the hub acknowledges
    body     TEXT NOT NULL,
    UNIQUE (game_id, n)
);
CREATE TABLE IF NOT EXISTS outbox_count (
    game_id  INTEGER PRIMARY KEY,
    n        INTEGER NOT NULL                     -- the last n given: rows go once acknowledged, n never repeats
);
"""
# ``outbox`` stays empty unless a club is configured (companion.club.outbox fills it, in the same
# transaction as the change it reports, and its publisher empties it as the hub acknowledges).

#: ``PRAGMA application_id`` of a companion database ("TCmp"): a file with another id is not ours.
APPLICATION_ID = 0x54436D70
#: ``PRAGMA user_version``: 1 = the first files (no application id, no relabels), 2 = relabels,
#: 3 = now (each action's time in ms, the club outbox).
SCHEMA_VERSION = 3
V1_TABLES = {"games", "actions", "redo", "tags"}
SQLITE_MAGIC = b"SQLite format 3\x00"


def run_script(db: sqlite3.Connection, script: str) -> None:
    """Each statement of ``script`` in the caller's transaction (``executescript`` would commit it first)."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _migrate_1_to_2(db: sqlite3.Connection) -> None:
    run_script(db, RELABEL_SCHEMA)                # relabels: card ids tags claim, awaiting the players


def _migrate_2_to_3(db: sqlite3.Connection) -> None:
    columns = {row[1] for row in db.execute("PRAGMA table_info(actions)")}
    if "t_ms" not in columns:                   # (a first-version file made empty gets it from SCHEMA)
        db.execute("ALTER TABLE actions ADD COLUMN t_ms INTEGER")     # old actions keep NULL: time unknown
    run_script(db, OUTBOX_SCHEMA)


MIGRATIONS = {1: _migrate_1_to_2, 2: _migrate_2_to_3}                # from version n to n + 1, each in one transaction


def connect(path: str | Path, readonly: bool = False) -> sqlite3.Connection:
    """A connection with the durability settings every part of the companion uses.

    ``readonly``: SQLite's ``mode=ro``, for the commands that only read (list,
    export); it cannot write the file even by mistake and needs no lock.
    """
    if readonly:
        uri = "file:" + urllib.parse.quote(str(Path(path).absolute())) + "?mode=ro"
        db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    else:
        db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    db.execute("PRAGMA busy_timeout=5000")
    # A plain `with db:` would not begin a transaction in autocommit mode; Store.tx does.
    return db


def now_ms() -> int:
    """Wall-clock time in Unix milliseconds: when an action was played (record format v2)."""
    return time.time_ns() // 1_000_000


def sqlite_time(seconds: float) -> str:
    """Unix time as SQLite's ``datetime('now')`` writes it (UTC, "2026-11-21 14:03:07")."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(seconds))


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


class StoreError(Exception):
    """The database cannot be opened; the message is one sentence for the players.

    ``move_aside`` is True when ``companion repair`` (or the app's button) may
    move the file aside and start afresh, keeping the old file.
    """

    def __init__(self, message: str, path: Path | None = None, move_aside: bool = False):
        super().__init__(message)
        self.path, self.move_aside = path, move_aside


class NotSaved(IllegalAction):
    """A change the database refused (disk full, read-only, I/O error): nothing moved.

    It is an :class:`IllegalAction`, so every place that shows a refused move
    (the screen, the buttons, a pad's "rejected" event) shows this sentence too.
    The game plays on as soon as the cause is gone.
    """


def _fault_reason(exc: sqlite3.Error) -> str:
    text = str(exc).lower()
    if "full" in text:
        return "the disk is full; free some space and do it again"
    if "readonly" in text or "read-only" in text:
        return "the data directory is read-only; make it writable and do it again"
    if "locked" in text or "busy" in text:
        return "another program holds the database; close it and do it again"
    if "malformed" in text or "not a database" in text or "corrupt" in text:
        return "the database file is damaged; run 'companion repair' to move it aside"
    if "i/o" in text:
        return "the storage failed (disk I/O error); check the SD card or disk and do it again"
    return f"the database refused it ({exc})"


def _readable_fault(path: Path, exc: BaseException) -> StoreError:
    return StoreError(f"{path} cannot be read ({exc}); run 'companion repair' to move it aside and start "
                      f"afresh (the old file is kept)", path, move_aside=True)


class Store:
    """The SQLite file holding every game and the tag registry: the one writer.

    Every statement of every thread (sessions, the tag registry, the screens'
    lists) runs on one connection under one lock, and every write is one
    ``BEGIN IMMEDIATE … COMMIT`` taken under that lock, so no thread can ever
    commit or roll back another thread's half-done transaction.  Opening it
    takes the data directory's OS lock (:class:`~companion.paths.DataDirLock`):
    a second process gets :class:`StoreError` naming the first one's pid.

    ``readonly=True`` (``list``, ``export``): ``mode=ro``, no lock, and reads
    in one read transaction, a consistent snapshot while the app writes.

    Opening checks the file before anything is written to it: a 0-byte file,
    another program's file, a damaged one (``PRAGMA quick_check``) or one from
    a newer companion raise :class:`StoreError` and are left untouched.  A
    file of an older version is migrated (``user_version``, :data:`MIGRATIONS`).
    """

    def __init__(self, path: str | Path, readonly: bool = False, lock: bool = True):
        self.path = Path(path)
        self.readonly = readonly
        self.lock = threading.RLock()       # held by whoever talks to the database
        #: ``on_change(db, session, kind, events)``, called inside the transaction of every change a
        #: session logs (``kind``: act, undo, redo): the club's outbox (companion.club.outbox) when
        #: the table has joined a club; None, and nothing happens, when it has not.
        self.on_change: Callable | None = None
        self._dir_lock: paths.DataDirLock | None = None
        self.db: sqlite3.Connection | None = None
        #: the table's clock (Unix seconds) that stamps games and actions: the wall clock; a
        #: screenshot script may pace it as people play (tests/ui/shots_window.py)
        self.clock: Callable[[], float] = time.time
        if (linked := paths.link_problem(self.path)) is not None:
            raise StoreError(linked, self.path)
        if readonly:
            if not self.path.exists():
                raise StoreError(f"no games are stored in {self.path.parent} yet", self.path)
            self._inspect()
            self.db = self._open(readonly=True)
        else:
            self._prepare(lock)
        self.tags = TagRegistry(self)

    # ---- opening ---------------------------------------------------------------
    def _prepare(self, lock: bool) -> None:
        directory = self.path.parent
        try:
            existed = directory.is_dir()
            directory.mkdir(mode=paths.DIR_MODE, parents=True, exist_ok=True)
            if not existed or paths.holds_companion_data(directory):   # never chmod a shared dir like /tmp
                paths.make_private(directory, paths.DIR_MODE)
            if lock:
                self._dir_lock = paths.DataDirLock(directory).acquire()
        except paths.DirectoryBusy as exc:
            raise StoreError(str(exc), self.path) from None
        except OSError as exc:
            raise StoreError(f"{directory} cannot be used for the games ({exc.strerror or exc}); "
                             f"check its owner and permissions, or give another --data-dir", self.path) from None
        try:
            if not self.path.exists():
                self._create()
            self._inspect()
            for suffix in ("", "-wal", "-shm"):
                paths.make_private(Path(str(self.path) + suffix), paths.FILE_MODE)
            self.db = self._open(readonly=False)
            self._upgrade()
        except BaseException:
            self.close()
            raise

    def _create(self) -> None:
        """A new database, built under another name and renamed into place: a crash
        while creating leaves no half-made (or 0-byte) file under the real name."""
        tmp = self.path.with_name(self.path.name + ".new")
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(str(tmp) + suffix).unlink(missing_ok=True)
        try:
            os.close(os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_NOFOLLOW, paths.FILE_MODE))
            db = connect(tmp)
            try:
                with _Transaction(db):
                    run_script(db, SCHEMA + TAGS_SCHEMA + RELABEL_SCHEMA + OUTBOX_SCHEMA)
                    db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            finally:
                db.close()
            os.replace(tmp, self.path)
            fsync_dir(self.path.parent)
        except (OSError, sqlite3.Error) as exc:
            reason = _fault_reason(exc) if isinstance(exc, sqlite3.Error) else (exc.strerror or str(exc))
            raise StoreError(f"a new database cannot be made in {self.path.parent}: {reason}", self.path) from None

    def _inspect(self) -> None:
        """Refuse, without writing, a file that is not a healthy companion database."""
        path = self.path
        try:
            with open(path, "rb") as f:
                header = f.read(100)
        except OSError as exc:
            raise StoreError(f"{path} cannot be read ({exc.strerror or exc}); check its permissions", path) from None
        aside = "run 'companion repair' to move it aside and start afresh (the old file is kept)"
        if not header:
            raise StoreError(f"{path} is empty (0 bytes), not a companion database; {aside}", path, True)
        if not header.startswith(SQLITE_MAGIC) or len(header) < 100:
            raise StoreError(f"{path} is not an SQLite database (another program's file, or damaged); {aside}",
                             path, True)
        app_id = int.from_bytes(header[68:72], "big")
        if app_id not in (0, APPLICATION_ID):
            raise StoreError(f"{path} belongs to another program (SQLite application id {app_id:#x}); {aside}",
                             path, True)
        try:
            db = connect(path, readonly=True)
        except (sqlite3.Error, UnicodeDecodeError) as exc:    # a damaged schema's message may not be UTF-8
            raise _readable_fault(path, exc) from None
        try:
            check = [r[0] for r in db.execute("PRAGMA quick_check(3)")]
            if check != ["ok"]:
                found = " ".join(" ".join(check).split())[:160]
                raise StoreError(f"{path} is damaged (SQLite's quick check: {found}); {aside}", path, True)
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            version = db.execute("PRAGMA user_version").fetchone()[0]
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            raise StoreError(f"{path} is damaged ({exc}); {aside}", path, True) from None
        finally:
            db.close()
        if app_id == 0:
            # The first companions set no application id: theirs is the file with our tables and no others.
            if not tables <= V1_TABLES or (tables and not {"games", "actions"} <= tables):
                raise StoreError(f"{path} is another program's SQLite database (tables "
                                 f"{', '.join(sorted(tables))}); {aside}", path, True)
            if version not in (0, 1):
                raise StoreError(f"{path} has no companion application id but user_version {version}; {aside}",
                                 path, True)
        elif version > SCHEMA_VERSION:
            raise StoreError(f"{path} was written by a newer companion (database version {version}; this one "
                             f"reads up to {SCHEMA_VERSION}); update the companion", path)

    def _open(self, readonly: bool) -> sqlite3.Connection:
        try:
            return connect(self.path, readonly=readonly)
        except sqlite3.Error as exc:
            raise _readable_fault(self.path, exc) from None

    def _upgrade(self) -> None:
        """Bring an older (or still empty) companion file to :data:`SCHEMA_VERSION`, one step per transaction."""
        app_id = self.db.execute("PRAGMA application_id").fetchone()[0]
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if app_id == 0:
            try:
                with self.tx() as db:
                    run_script(db, SCHEMA + TAGS_SCHEMA)
                    db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                    db.execute("PRAGMA user_version=1")
            except NotSaved as exc:
                raise StoreError(f"{self.path} cannot be upgraded: {exc}", self.path) from None
            version = 1
        while version < SCHEMA_VERSION:
            try:
                with self.tx() as db:
                    MIGRATIONS[version](db)
                    db.execute(f"PRAGMA user_version={version + 1}")
            except NotSaved as exc:
                raise StoreError(f"{self.path} cannot be upgraded to version {version + 1}: {exc}", self.path) \
                    from None
            version += 1

    def close(self) -> None:
        with self.lock:
            if self.db is not None:
                self.db.close()
            if self._dir_lock is not None:
                self._dir_lock.release()
                self._dir_lock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- the one way in --------------------------------------------------------
    @contextmanager
    def tx(self):
        """One write transaction, alone: ``with store.tx() as db: db.execute(...)``.

        Database faults (disk full, read-only, I/O, damage) become
        :class:`NotSaved` with the reason; the transaction is rolled back and
        nothing it did remains.
        """
        if self.readonly:
            raise NotSaved("this database was opened read-only")
        with self.lock:
            try:
                with _Transaction(self.db) as db:
                    yield db
            except sqlite3.ProgrammingError:
                raise                              # our bug (a closed store), not the disk's
            except sqlite3.Error as exc:
                raise NotSaved(f"Not saved: {_fault_reason(exc)}") from exc

    @contextmanager
    def read(self):
        """Several reads that see one consistent moment (a read transaction)."""
        with self.lock:
            if self.db.in_transaction:             # already inside this thread's write
                yield self.db
                return
            try:
                self.db.execute("BEGIN")
                try:
                    yield self.db
                finally:
                    if self.db.in_transaction:
                        self.db.execute("COMMIT")
            except sqlite3.ProgrammingError:
                raise
            except sqlite3.Error as exc:           # a page damaged since the start, an I/O error
                raise NotSaved(f"The games could not be read: {_fault_reason(exc)}") from exc

    def create_game(self, game: str, options: dict, seed: int) -> int:
        with self.tx() as db:
            now = self.now()
            cur = db.execute("INSERT INTO games(game, options, seed, created, updated) VALUES (?, ?, ?, ?, ?)",
                             (game, dumps(options), int(seed), now, now))
            return cur.lastrowid

    def load_game(self, game_id: int) -> tuple[str, dict, int, list[dict], list[dict]]:
        with self.read() as db:
            row = db.execute("SELECT game, options, seed FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise KeyError(f"no game #{game_id}")
            actions = [a for (a,) in db.execute("SELECT action FROM actions WHERE game_id = ? ORDER BY seq",
                                                (game_id,))]
            redo = [a for (a,) in db.execute("SELECT action FROM redo WHERE game_id = ? ORDER BY seq", (game_id,))]
        try:
            return row[0], json.loads(row[1]), row[2], [json.loads(a) for a in actions], \
                [json.loads(a) for a in redo]
        except (ValueError, RecursionError) as exc:
            raise RecordError(f"game #{game_id}: its stored log is not valid JSON ({exc})") from None

    def action_times(self, game_id: int) -> list[int | None]:
        """When each logged action of ``game_id`` was played (Unix ms; None if logged before version 3)."""
        with self.read() as db:
            return [t for (t,) in db.execute("SELECT t_ms FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))]

    def games(self, status: str | None = None) -> list[GameInfo]:
        """Past and unfinished games, newest first."""
        sql = ("SELECT g.id, g.game, g.status, g.created, g.updated, g.result, "
               "(SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id) FROM games g")
        args: tuple = ()
        if status:
            sql += " WHERE g.status = ?"
            args = (status,)
        sql += " ORDER BY g.id DESC"
        with self.read() as db:
            rows = db.execute(sql, args).fetchall()
        return [GameInfo(r[0], r[1], r[2], r[3], r[4], r[6], _json_or_none(r[5])) for r in rows]

    def unfinished(self) -> GameInfo | None:
        rows = self.games("playing")
        return rows[0] if rows else None

    def now(self) -> str:
        """This moment by the table's clock, as the games table keeps times."""
        return sqlite_time(self.clock())

    def abandon(self, game_id: int) -> None:
        with self.tx() as db:
            db.execute("UPDATE games SET status='abandoned', updated=? WHERE id=? AND status='playing'",
                       (self.now(), game_id))

    def restore(self, game_id: int) -> bool:
        """Undo :meth:`abandon`: the game is playing again (its log was never touched).
        Returns False when ``game_id`` was not an abandoned game."""
        with self.tx() as db:
            cur = db.execute("UPDATE games SET status='playing', updated=? "
                             "WHERE id=? AND status='abandoned'", (self.now(), game_id))
            return cur.rowcount == 1


def _json_or_none(text):
    try:
        return json.loads(text) if text else None
    except ValueError:
        return None


def move_aside(path: str | Path) -> Path:
    """Rename a database that cannot be used (and its -wal/-shm) to ``<name>.broken-<time>``; returns the new name.

    Nothing is deleted: the old file stays beside the new one for whoever wants
    to rescue it.  The caller must hold the data directory (no companion running).
    """
    path = Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.broken-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.broken-{stamp}-{n}")
    for suffix in ("-wal", "-shm"):
        extra = Path(str(path) + suffix)
        if extra.exists():
            os.replace(extra, Path(str(target) + suffix))
    os.replace(path, target)
    fsync_dir(path.parent)
    return target


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any exception."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            try:
                self.db.execute("COMMIT")
                return False
            except sqlite3.Error:
                self._rollback()
                raise
        self._rollback()
        return False

    def _rollback(self) -> None:
        if self.db.in_transaction:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:
                pass            # SQLite already rolled back (it does on SQLITE_FULL, IOERR …)


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
        try:
            self._states: list[State] = [rules.setup(options, seed)]
        except (IllegalAction, LookupError, TypeError, ValueError, AttributeError) as exc:
            raise RecordError(f"game #{game_id}: its stored options cannot set up {rules.title}: {exc}") from None
        self._actions: list[dict] = []
        for n, action in enumerate(actions, start=1):
            try:
                state, _ = rules.apply(self._states[-1], action)
            except IllegalAction as exc:
                raise RecordError(f"game #{game_id}: logged action {n} is illegal now: {exc}") from None
            except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
                raise RecordError(f"game #{game_id}: logged action {n} is malformed: {exc!r}") from None
            self._states.append(state)
            self._actions.append(action)
        self._redo = list(redo)
        if layout is None:
            layout = Layout.identity(rules.name, rules.zones(options))
        self.table = TableState(layout, store.tags.lookup)
        self._listeners: list[Listener] = []
        # Readers and buttons call in from their own threads; one change at a time.
        self._lock = threading.RLock()

    # ---- construction ----------------------------------------------------
    @classmethod
    def start(cls, store: Store, game: str, options: dict | None = None, seed: int | None = None,
              layout: Layout | None = None, profile: TableProfile | None = None) -> "Session":
        """A new game: its options checked and normalised here, once, and its layout built from the
        table ``profile`` (or ``layout`` as given; neither: one virtual pad per zone)."""
        rules = games.get(game)
        check_options(rules, options, f"{rules.title}'s options")     # the same check a record's options get
        options = rules.normalise_options(options)
        if seed is None:
            seed = time.time_ns() & 0xFFFFFFFF
        rules.setup(options, seed)                      # refuse bad options before anything is stored
        layout = layout or layout_for(rules, options, profile)    # a profile that does not fit refuses here
        game_id = store.create_game(game, options, seed)
        return cls(store, game_id, rules, options, seed, [], [], layout)

    @classmethod
    def resume(cls, store: Store, game_id: int, layout: Layout | None = None,
               profile: TableProfile | None = None) -> "Session":
        game, options, seed, actions, redo = store.load_game(game_id)
        rules = games.get(game)
        return cls(store, game_id, rules, options, seed, actions, redo, layout or layout_for(rules, options, profile))

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
            db.execute("INSERT INTO actions(game_id, seq, action, at, t_ms) VALUES (?, ?, ?, ?, ?)",
                       (self.id, seq, dumps(action), *self._stamp()))
            db.execute("DELETE FROM redo WHERE game_id = ?", (self.id,))
            self._mark(db, state, over)
            self._tell(db, "act", state, events)
        self._states.append(state)
        self._actions.append(action)
        self._redo.clear()
        return events

    def _tell(self, db, kind: str, state: State, events: list[Event]) -> None:
        """Report a logged change to ``store.on_change`` (the club's outbox), in its transaction."""
        if self.store.on_change is not None:
            self.store.on_change(db, self, kind, state, events)

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
            undone = {"type": "undone", "text": f"Undone: {public_line(self.rules, self._states[-2], action)}",
                      "action": action}
            self._tell(db, "undo", self._states[-2], [undone])
        self._actions.pop()
        self._states.pop()
        self._redo.append(action)
        return self._notify([undone])

    def _redo_unlocked(self) -> list[Event]:
        if not self._redo:
            raise IllegalAction("nothing to redo")
        action = self._redo[-1]
        state, events = self.rules.apply(self.state, action)
        seq = len(self._actions) + 1
        with self.store.tx() as db:
            db.execute("INSERT INTO actions(game_id, seq, action, at, t_ms) VALUES (?, ?, ?, ?, ?)",
                       (self.id, seq, dumps(action), *self._stamp()))
            db.execute("DELETE FROM redo WHERE game_id = ? AND seq = ?", (self.id, len(self._redo)))
            self._mark(db, state, self.rules.is_over(state))
            self._tell(db, "redo", state, events)
        self._redo.pop()
        self._states.append(state)
        self._actions.append(action)
        return self._notify(events)

    def _stamp(self) -> tuple[str, int]:
        """When an action is logged, by the table's clock: the log's time and Unix milliseconds."""
        seconds = self.store.clock()
        return sqlite_time(seconds), int(seconds * 1000)

    def _mark(self, db, state: State, over: bool) -> None:
        """The game's status after this change; an abandoned game takes no more actions."""
        if over:
            cur = db.execute("UPDATE games SET status='over', result=?, updated=? "
                             "WHERE id=? AND status != 'abandoned'",
                             (dumps(self.rules.result(state)), self.store.now(), self.id))
        else:
            cur = db.execute("UPDATE games SET status='playing', result=NULL, updated=? "
                             "WHERE id=? AND status != 'abandoned'", (self.store.now(), self.id))
        if cur.rowcount != 1:
            raise IllegalAction(f"game #{self.id} was abandoned; start or resume another game")

    # ---- the table -------------------------------------------------------
    def _handle_pad_event_unlocked(self, ev: PadEvent) -> list[Event]:
        """A debounced sighting from a reader (or the simulated table).

        Never raises for bad input: an unknown tag, a card of another game, a
        pad this game does not use or a card the rules cannot take becomes an
        event the screen shows, and nothing is logged.
        """
        events: list[Event] = []
        if ev.card_id is not None:
            ev, events = self._check_claim(ev)
        for sighting in self.table.feed(ev):
            events.extend(self._sighting(sighting))
        return self._notify(events) if events else events

    def _check_claim(self, ev: PadEvent) -> tuple[PadEvent, list[Event]]:
        """A tag that names its own card (NDEF) never overrides this table's registry.

        The registered card is used; the claim waits in ``store.tags.pending()``
        for the players.  The event names no card: the tag may lie face down.
        """
        try:
            card, new = self.store.tags.resolve(ev.uid, ev.card_id)
        except (ValueError, NotSaved):
            return replace(ev, card_id=None), []
        if card == ev.card_id:
            return ev, []
        events = []
        if new:
            events.append({"type": "relabel_pending", "pad": ev.pad, "uid": ev.uid,
                           "text": f"The tag on pad {ev.pad} names another card than this table registered for it; "
                                   f"the registered card counts until the players confirm the change on the "
                                   f"Cards screen"})
        return replace(ev, card_id=None), events

    def _sighting(self, s) -> list[Event]:
        if isinstance(s, UnreadCards):
            label = next((z.label for z in self.rules.zones(self.options) if z.id == s.zone), None)
            return [{"type": "unread_cards", "pad": s.pad, "zone": s.zone, "text": s.text(label)}]
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
            return [rejected_event(exc, pad=s.pad, zone=s.zone, card=s.card_id)]

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
        return make_record(self.rules, self.options, self.seed, self._actions, self.state,
                           self.store.action_times(self.id))

    def public_events(self, events: list[Event]) -> list[Event]:
        """What the shared screen may show of ``events``."""
        return [redact_event(e, None) for e in events]


def public_line(rules, before: State, action: dict) -> str:
    """What the shared screen says about ``action`` played on ``before``: its events' sentences as
    the table may see them ("North buffs lane 1 (face down)", never the card), for "Undone: …"
    on the screen, in a long press's answer and in the club's messages."""
    try:
        _, events = rules.apply(before, action)
    except Exception:                      # an engine that refuses it again: say no more than this
        return "the last action"
    texts = [redact_event(e, None).get("text", "") for e in events]
    return " · ".join(t for t in texts if t) or str(action.get("type", "?")).replace("_", " ")


@dataclass(frozen=True)
class Unfinished:
    """An unfinished game as Resume lists it: ``problem`` is None, or why it cannot be resumed now."""

    info: GameInfo
    problem: str | None


def unfinished_games(store: Store) -> list[Unfinished]:
    """Every unfinished game, newest first, each with the reason if it cannot be resumed.

    A game whose engine does not load or whose log no longer replays (a
    players' card file broken since, say) is still listed, with the reason,
    so fixing the cause brings it back; nothing is ever dropped from the list.
    """
    out = []
    for info in store.games("playing"):
        problem = None
        try:
            Session.resume(store, info.id)
        except games.UnknownGame:
            why = games.broken().get(info.game)
            problem = f"the {games.KNOWN_GAMES.get(info.game, info.game)} engine does not load" + \
                (f" ({why})" if why else "")
        except Exception as exc:                 # a listing: whatever went wrong, the game stays on it
            problem = str(exc) or type(exc).__name__
        if problem is not None:
            card_problem = cards.user_problems().get(info.game)
            if card_problem:
                problem += f"; the players' card file is broken: {card_problem}"
        out.append(Unfinished(info, problem))
    return out
