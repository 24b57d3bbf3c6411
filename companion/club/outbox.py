"""A table's side of the club: the outbox (in the table's SQLite) and the publisher thread.

:class:`Outbox` is ``Store.on_change``: inside the transaction of every change
a session logs (an action, an undo, a redo) it adds one row to ``outbox``, so
the change and the news of it commit together or not at all.  A row says only
what the shared screen shows: ``view(state, None)`` and the events through
``redact_event(event, None)`` — never a face-down card, never a solo
companion's holder.  Once the game is over the row also carries the whole
record (what ``companion export`` writes), for the hub to keep.

:class:`Publisher` sends the rows in order (QoS 1, a persistent session) and
deletes a row only when the hub's acknowledgement for that game's ``n``
arrives — not the broker's PUBACK: a broker's queue is not a store.  Offline,
the rows wait in SQLite; on every (re)connection the publisher starts again
from the oldest unacknowledged row, and the hub ignores what it already has.
The table keeps playing throughout: nothing here blocks a session.
"""
from __future__ import annotations

import collections
import json
import logging
import queue
import threading
import time

from companion.club.config import MAX_MESSAGE_BYTES, ClubConfig, topic
from companion.engine import redact_event
from companion.session import Store, dumps, now_ms, run_script

log = logging.getLogger(__name__)

RECENT_EVENTS = 8           # the shared screen's event list shows about this many
WINDOW = 500                # rows sent and not yet acknowledged, at most (bounds paho's memory queue)
RESEND_AFTER = 5.0          # seconds without an acknowledgement before the unacknowledged rows go again


def public_change(session, kind: str, state, events: list) -> dict:
    """What the shared screen shows after a change, as plain data (no face-down card)."""
    shown = []
    for event in events:
        event = redact_event(event, None)
        if event.get("type") == "undone":
            # its words are the shared screen's (companion.session.public_line); the undone action
            # itself would name a card that may have lain face down
            event = {"type": "undone", "text": event.get("text", "Undone")}
        shown.append(event)
    view = session.rules.view(state, None)
    return {"name": session.rules.name, "title": session.rules.title, "view": view, "events": shown,
            "labels": _labels(session.rules.name, view)}


_catalogues: dict = {}


def _labels(game: str, view: dict) -> dict:
    """Each visible card id → what the table's screen prints for it (its symbol, else its name)."""
    from companion.cards import CatalogueError, load_catalogue, user_dir
    if game not in _catalogues:
        try:
            _catalogues[game] = load_catalogue(game, user_dir())
        except CatalogueError:
            _catalogues[game] = None
    catalogue = _catalogues[game]
    labels = {}
    for zone in (view.get("zones") or {}).values():
        for card in zone.get("cards", []) if isinstance(zone, dict) else []:
            if isinstance(card, str) and card not in labels:
                found = catalogue.get(card) if catalogue is not None else None
                labels[card] = str(found.get("symbol") or found.name) if found is not None else card
    return labels


EVENT_SCHEMA = """
CREATE TABLE IF NOT EXISTS club_game_event (
    game_id INTEGER PRIMARY KEY,
    ref     TEXT NOT NULL          -- {"event", "round", "table", "seats": [player id at seat 0, at seat 1]}
);
"""


class Outbox:
    """``Store.on_change`` for a table in a club: one outbox row per logged change."""

    def __init__(self, table: str, wake: threading.Event | None = None):
        self.table = table
        self.wake = wake or threading.Event()

    def attach(self, store: Store) -> "Outbox":
        with store.tx() as db:
            run_script(db, EVENT_SCHEMA)
        store.on_change = self
        return self

    def mark(self, store: Store, game_id: int, ref: dict) -> None:
        """Game ``game_id`` plays an event's pairing: every row of it carries ``ref`` (event_ref)."""
        with store.tx() as db:
            db.execute("INSERT OR REPLACE INTO club_game_event(game_id, ref) VALUES (?, ?)", (game_id, dumps(ref)))

    def answer(self, store: Store, session, seat: int, agree: bool, reason: str | None = None) -> None:
        """A player's answer to the finished game's result (their confirm button: agree; or dispute),
        as a row of the game's own sequence, so it reaches the hub in order, after the result."""
        with store.tx() as db:
            self._row(db, session, "confirm" if agree else "dispute", session.state, [],
                      {"seat": seat, **({"reason": reason[:200]} if reason and not agree else {})})

    def drop(self, store: Store, session, seat: int) -> None:
        """The player at ``seat`` drops from the event (their own "I drop", on the answer view):
        a row of the game's sequence like the answers, so the hub logs it after the result."""
        with store.tx() as db:
            self._row(db, session, "drop", session.state, [], {"seat": seat})

    def __call__(self, db, session, kind: str, state, events: list) -> None:
        self._row(db, session, kind, state, events)

    def _row(self, db, session, kind: str, state, events: list, extra: dict | None = None) -> None:
        row = db.execute("SELECT n FROM outbox_count WHERE game_id = ?", (session.id,)).fetchone()
        n = (row[0] if row else 0) + 1
        db.execute("INSERT OR REPLACE INTO outbox_count(game_id, n) VALUES (?, ?)", (session.id, n))
        over = session.rules.is_over(state)
        (seq,) = db.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (session.id,)).fetchone()
        body = {"v": 1, "table": self.table, "game": session.id, "n": n, "kind": kind, "t_ms": now_ms(),
                "seq": seq, "status": "over" if over else "playing", **public_change(session, kind, state, events),
                **(extra or {})}
        ref = db.execute("SELECT ref FROM club_game_event WHERE game_id = ?", (session.id,)).fetchone()
        if ref:
            body["event_ref"] = json.loads(ref[0])
        if kind in ("confirm", "dispute", "drop"):
            body["result"] = session.rules.result(state) if over else None
        elif over:      # the game is over: its record (every card, as `companion export` writes it) may go
            body["result"] = session.rules.result(state)
            body["record"] = _record_in(db, session, state)
        text = dumps(body)
        if len(text.encode()) > MAX_MESSAGE_BYTES and "record" in body:
            # More than the hub takes: the result goes, the record stays on the table (`companion export`).
            body["record"], body["record_omitted"] = None, True
            text = dumps(body)
        db.execute("INSERT INTO outbox(game_id, n, body) VALUES (?, ?, ?)", (session.id, n, text))
        self.wake.set()


def _record_in(db, session, state) -> dict:
    """The game's record as this transaction leaves it (the session moves on only after the commit)."""
    from companion.records import make_record
    rows = db.execute("SELECT action, t_ms FROM actions WHERE game_id = ? ORDER BY seq", (session.id,)).fetchall()
    return make_record(session.rules, session.options, session.seed, [json.loads(a) for a, _ in rows], state,
                       [t for _, t in rows])


def mqtt_client(client_id: str, broker, will_topic: str | None = None):
    """A paho-mqtt 2.x client (MQTT 5) with a persistent session: the broker keeps its
    subscriptions and QoS 1 messages across a dropped connection (a day), so nothing
    waits on the client's memory alone."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.properties import Properties
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    client.username_pw_set(broker.username, broker.password)
    if broker.ca_file is not None:
        client.tls_set(ca_certs=str(broker.ca_file))
    if will_topic is not None:
        client.will_set(will_topic, "offline", qos=1, retain=True)
    client.reconnect_delay_set(min_delay=0.2, max_delay=5)
    client.max_queued_messages_set(0)
    props = Properties(PacketTypes.CONNECT)
    props.SessionExpiryInterval = 24 * 3600
    client.connect_async(broker.host, broker.port, keepalive=15, clean_start=False, properties=props)
    return client


class Publisher:
    """The thread that empties the outbox into the broker, in order, as the hub acknowledges.

    It reads and deletes through the table's :class:`~companion.session.Store`
    (the one writer); paho's own thread only hands acknowledgements over.
    ``close()`` stops it; ``cut()``/``restore()`` drop and bring back the
    connection (the bench's Wi-Fi outage).
    """

    def __init__(self, store: Store, club: ClubConfig, resend_after: float = RESEND_AFTER):
        self.store, self.club, self.table = store, club, club.table
        self.resend_after = resend_after
        self.outbox = Outbox(club.table).attach(store)
        self.wake = self.outbox.wake
        self._acks: queue.SimpleQueue = queue.SimpleQueue()
        self._connected = threading.Event()
        self._reconnected = True
        self._take_acks_progress = False
        self._gap_resent = 0.0
        self._cut = False
        self._closed = False
        self._recent: collections.deque = collections.deque(maxlen=RECENT_EVENTS)
        self._live_cursor = 0
        self.stats = {"sent": 0, "acked_rows": 0, "connections": 0}
        self.on_pairing = None       # f(payload bytes) on paho's thread: the event's pairing for this table
        self.last_pairing: bytes | None = None
        self.on_deck_verdict = None  # f(payload bytes) on paho's thread: the hub's answer to a deck check
        self.client = mqtt_client(f"table-{club.table}", club.broker, topic(club.table, "status"))
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self._thread = threading.Thread(target=self._run, name=f"club-publisher-{club.table}", daemon=True)

    def start(self) -> "Publisher":
        self.client.loop_start()
        self._thread.start()
        return self

    def close(self) -> None:
        self._closed = True
        self.wake.set()
        self._thread.join(timeout=5)
        self.store.on_change = None
        try:
            if self._connected.is_set():
                self.client.publish(topic(self.table, "status"), "offline", qos=1, retain=True).wait_for_publish(2)
            self.client.disconnect()
        except (RuntimeError, ValueError, OSError):
            pass
        self.client.loop_stop()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def pending(self) -> int:
        """Rows the hub has not acknowledged yet."""
        with self.store.read() as db:
            return db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0]

    def ask(self, leaf: str, body: dict) -> bool:
        """A question for the hub that is answered, not kept (a deck check's scan); False when offline."""
        if not self._connected.is_set():
            return False
        self.client.publish(topic(self.table, leaf), json.dumps(body, ensure_ascii=False), qos=1)
        return True

    # ---- the network's outage, for the bench ---------------------------------------------------------
    def cut(self) -> None:
        """Lose the network: the socket dies without a goodbye (the broker sends the last will)."""
        self._cut = True
        self.client.loop_stop()
        sock = self.client.socket()
        if sock is not None:
            try:
                import socket as _socket
                sock.shutdown(_socket.SHUT_RDWR)
            except OSError:
                pass
        self._connected.clear()

    def restore(self) -> None:
        self._cut = False
        self.client.loop_start()

    # ---- paho's thread: only hand over --------------------------------------------------------------
    def _on_connect(self, client, userdata, flags, reason_code, properties):
        if reason_code.is_failure:
            log.warning("club broker refused table %s: %s", self.table, reason_code)
            return
        client.subscribe([(topic(self.table, leaf), 1) for leaf in ("ack", "pairing", "deckverdict")])
        client.publish(topic(self.table, "status"), "online", qos=1, retain=True)
        self.stats["connections"] += 1
        self._reconnected = True
        self._connected.set()
        self.wake.set()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties):
        self._connected.clear()

    def _on_message(self, client, userdata, message):
        if message.topic == topic(self.table, "pairing"):
            if len(message.payload) <= 20_000:
                self.last_pairing = message.payload      # for an EventTable made after the retained one came
                if self.on_pairing is not None:
                    self.on_pairing(message.payload)
            return
        if message.topic == topic(self.table, "deckverdict"):
            if self.on_deck_verdict is not None and len(message.payload) <= 20_000:
                self.on_deck_verdict(message.payload)
            return
        if len(message.payload) > 1000:
            return
        try:
            ack = json.loads(message.payload)
            game, n = int(ack["game"]), int(ack["n"])
        except (ValueError, KeyError, TypeError):
            return
        if ack.get("gap") is True and time.monotonic() - self._gap_resent > 1.0:
            self._gap_resent = time.monotonic()       # the hub misses one: send again from the oldest, now
            self._reconnected = True
        self._acks.put((game, n))
        self.wake.set()

    # ---- the publisher's thread --------------------------------------------------------------------
    def _run(self) -> None:
        cursor = 0                   # the last row id sent on this connection
        last_progress = time.monotonic()
        wait = self.resend_after     # doubles while the hub acknowledges nothing, back to the start when it does
        while not self._closed:
            self.wake.wait(0.5)
            self.wake.clear()
            try:
                if self._take_acks():
                    last_progress = time.monotonic()
                    self._take_acks_progress = True
                if not self._connected.is_set() or self._cut:
                    continue
                if self._take_acks_progress:
                    wait, self._take_acks_progress = self.resend_after, False
                if self._reconnected or (cursor and time.monotonic() - last_progress > wait):
                    if not self._reconnected:        # the hub is slow or lost some: back off, never flood it
                        wait = min(wait * 2, 120.0)
                    self._reconnected, cursor, last_progress = False, 0, time.monotonic()   # from the oldest again
                self._publish_live()
                cursor = self._send(cursor)
            except Exception:                  # a publisher never takes the table down; it tries again
                log.exception("club publisher of table %s", self.table)
                time.sleep(0.5)

    def _take_acks(self) -> bool:
        acks: dict[int, int] = {}
        while True:
            try:
                game, n = self._acks.get_nowait()
            except queue.Empty:
                break
            acks[game] = max(n, acks.get(game, 0))
        if not acks:
            return False
        deleted = 0
        with self.store.tx() as db:
            for game, n in acks.items():
                deleted += db.execute("DELETE FROM outbox WHERE game_id = ? AND n <= ?", (game, n)).rowcount
        self.stats["acked_rows"] += deleted
        return deleted > 0

    def _send(self, cursor: int) -> int:
        with self.store.read() as db:
            (unacked,) = db.execute("SELECT COUNT(*) FROM outbox WHERE id <= ?", (cursor,)).fetchone()
            room = WINDOW - unacked
            rows = db.execute("SELECT id, body FROM outbox WHERE id > ? ORDER BY id LIMIT ?",
                              (cursor, max(0, room))).fetchall() if room > 0 else []
        for row_id, body in rows:
            info = self.client.publish(topic(self.table, "log"), body, qos=1)
            if info.rc != 0:                   # the connection went: start again from the oldest next time
                self._reconnected = True
                return cursor
            cursor = row_id
            self.stats["sent"] += 1
        return cursor

    def _publish_live(self) -> None:
        """What the shared screen shows now, retained: the newest row's view and the last events."""
        with self.store.read() as db:
            rows = db.execute("SELECT id, body FROM outbox WHERE id > ? ORDER BY id", (self._live_cursor,)).fetchall()
        if not rows:
            return
        body = None
        for row_id, text in rows:
            body = json.loads(text)
            self._recent.extend(body.get("events", []))
            self._live_cursor = row_id
        live = {"table": self.table, "game": body["game"], "n": body["n"], "t_ms": body["t_ms"],
                "name": body["name"], "title": body["title"], "status": body["status"], "view": body["view"],
                "labels": body["labels"], "events": list(self._recent)}
        payload = dumps(live)
        if len(payload) <= MAX_MESSAGE_BYTES:
            self.client.publish(topic(self.table, "live"), payload, qos=1, retain=True)
