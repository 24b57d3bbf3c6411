"""The club against a real Mosquitto: every change reaches the hub once and in order, the broker
keeps tables out of each other's topics, and nothing face down leaves the table."""
from __future__ import annotations

import json
import os
import random
import re
import threading
import urllib.error
import urllib.request

import paho.mqtt.client as mqtt
import pytest

from companion.club.config import ClubConfig, hash_password, topic
from companion.club.hub import HubStore, parse_message
from companion.club.outbox import Publisher, mqtt_client
from companion.session import Session, Store
from tests.club.conftest import wait_until


def play(session, rng, steps):
    for _ in range(steps):
        if session.rules.is_over(session.state):
            return
        session.act(session.rules.random_action(session.state, rng))


def hidden_cards(session) -> set[str]:
    """Cards on the table now that the shared screen shows face down (seen from their owner's seat)."""
    hidden = set()
    public = session.view(None)["zones"]
    for seat in (0, 1):
        mine = session.view(seat)["zones"]
        for zone, shown in public.items():
            for card, seen in zip(shown["cards"], mine[zone]["cards"]):
                if isinstance(card, dict) and card.get("hidden") and isinstance(seen, str):
                    hidden.add(seen)
    return hidden


def faces(cards: set[str]) -> set[str]:
    """Each card's id and what a screen prints for it (its symbol): neither may appear."""
    from companion.cards import load_catalogue
    catalogue = load_catalogue("sams")
    return cards | {str(catalogue[c].get("symbol") or catalogue[c].name) for c in cards}


def listening_sockets(pid: int = os.getpid()) -> list[str]:
    """TCP/UDP sockets in LISTEN state owned by ``pid`` (from /proc)."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if link.startswith("socket:["):
            inodes.add(link[8:-1])
    found = []
    for table in ("tcp", "tcp6"):
        with open(f"/proc/{pid}/net/{table}") as f:
            for line in f.readlines()[1:]:
                cols = line.split()
                if cols[3] == "0A" and cols[9] in inodes:      # 0A: TCP_LISTEN
                    found.append(f"{table} {cols[1]}")
    return found


# ---- a table on its own ------------------------------------------------------------------------------
def test_a_table_in_no_club_writes_no_outbox_and_opens_no_listener(store):
    session = Session.start(store, "sams", seed=4)
    play(session, random.Random(4), 40)
    with store.read() as db:
        assert db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0] == 0
    assert store.on_change is None


# ---- the hub gets everything, once, in order ---------------------------------------------------------
def test_every_change_undo_and_redo_included_reaches_the_hub_in_order(broker, hub, tmp_path):
    with Store(tmp_path / "companion.sqlite3") as store, Publisher(store, broker.club("t1")) as publisher:
        session = Session.start(store, "sams", seed=11)
        rng = random.Random(11)
        play(session, rng, 30)
        session.undo()
        session.undo()
        session.redo()
        while not session.rules.is_over(session.state):
            play(session, rng, 1)
        wait_until(lambda: publisher.pending() == 0)
        got = hub.store.messages("t1", session.id)
        assert [m["n"] for m in got] == list(range(1, len(got) + 1))          # nothing lost, nothing twice
        seq = 0
        for m in got:                                                          # and in the order played
            seq += 1 if m["kind"] in ("act", "redo") else -1
            assert m["seq"] == seq
        assert [m["kind"] for m in got].count("undo") == 2 and seq == len(session.actions)
        games = {(g["table"], g["game"]): g for g in hub.store.games()}
        assert games[("t1", session.id)]["status"] == "over"
        assert games[("t1", session.id)]["result"] == session.rules.result(session.state)
        record = hub.store.record("t1", session.id)
        assert record["actions"] == session.actions and len(record["at"]) == len(session.actions)
        from companion.records import replay
        assert replay(record)[1] == session.state                              # the hub's record replays


def test_the_hub_stores_duplicates_once_and_waits_for_a_gap(tmp_path):
    """Messages arriving twice and out of order: stored once each; acknowledged only up to the first gap."""
    hub = HubStore(tmp_path / "hub.sqlite3")

    def message(n):
        body = {"v": 1, "table": "t5", "game": 7, "n": n, "kind": "act", "t_ms": 1000 + n, "seq": n, "name": "sams",
                "title": "Sam's Battle Game", "status": "playing", "view": {"players": ["A", "B"]}, "events": []}
        return parse_message("club/t5/log", json.dumps(body).encode())

    order = [1, 3, 2, 2, 5, 1, 3]
    acked = []
    for n in order:
        acks, _ = hub.store_batch([(*message(n), 0)])
        acked.append(acks[("t5", 7)])
    assert acked == [(1, False), (1, True), (3, False), (3, False), (3, True), (3, True), (3, True)]
    assert [m["n"] for m in hub.messages("t5", 7)] == [1, 2, 3, 5]
    acks, _ = hub.store_batch([(*message(4), 0)])
    assert acks[("t5", 7)] == (5, False)


def test_the_hub_refuses_a_body_that_names_another_table():
    body = {"v": 1, "table": "t2", "game": 1, "n": 1, "kind": "act", "t_ms": 1, "seq": 1, "name": "sams",
            "title": "x", "status": "playing", "view": {}, "events": []}
    assert parse_message("club/t1/log", json.dumps(body).encode()) is None
    assert parse_message("club/t2/log", json.dumps(body).encode()) is not None
    assert parse_message("club/T2/log", json.dumps(body).encode()) is None
    assert parse_message("club/t2/log", b"[" * 100_000) is None


# ---- the broker keeps tables apart -------------------------------------------------------------------
def _connect(broker, user, password):
    result = {}
    done = threading.Event()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"probe-{user}-{random.random()}",
                         protocol=mqtt.MQTTv5)
    client.username_pw_set(user, password)

    def on_connect(c, u, flags, reason_code, props):
        result["rc"] = reason_code
        done.set()

    client.on_connect = on_connect
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    done.wait(10)
    return client, result.get("rc")


def test_a_table_with_another_tables_password_is_refused(broker):
    client, rc = _connect(broker, "t1", broker.passwords["t2"])
    client.loop_stop()
    assert rc is not None and rc.is_failure, rc
    client, rc = _connect(broker, "t9", "anything")                       # a name the club does not know
    client.loop_stop()
    assert rc.is_failure
    client, rc = _connect(broker, "", "")                                  # anonymous
    client.loop_stop()
    assert rc.is_failure


def test_a_table_cannot_write_another_tables_games(broker, hub):
    client, rc = _connect(broker, "t3", broker.passwords["t3"])
    assert not rc.is_failure
    forged = {"v": 1, "table": "t4", "game": 99, "n": 1, "kind": "act", "t_ms": 1, "seq": 1, "name": "sams",
              "title": "Sam's Battle Game", "status": "playing", "view": {"players": ["X", "Y"]}, "events": []}
    acks = {}
    client.on_publish = lambda c, u, mid, reason_code, props: acks.setdefault(mid, reason_code)
    info = client.publish("club/t4/log", json.dumps(forged), qos=1)
    own = client.publish("club/t3/log", json.dumps({**forged, "table": "t3"}), qos=1)
    wait_until(lambda: info.mid in acks and own.mid in acks)
    assert acks[info.mid].is_failure and "not authorized" in str(acks[info.mid]).lower()   # MQTT 5 PUBACK 0x87
    assert not acks[own.mid].is_failure
    wait_until(lambda: ("t3", 99) in {(g["table"], g["game"]) for g in hub.store.games()})
    assert ("t4", 99) not in {(g["table"], g["game"]) for g in hub.store.games()}
    received = []
    client.on_message = lambda c, u, m: received.append(m.topic)
    client.subscribe([("club/t4/ack", 1), ("club/t3/ack", 1)])       # Mosquitto grants, then filters by the ACL
    sender, rc = _connect(broker, "hub", broker.passwords["hub"])
    import time
    time.sleep(0.3)
    sender.publish("club/t4/ack", json.dumps({"game": 1, "n": 1}), qos=1).wait_for_publish(5)
    sender.publish("club/t3/ack", json.dumps({"game": 1, "n": 1}), qos=1).wait_for_publish(5)
    wait_until(lambda: "club/t3/ack" in received)
    time.sleep(0.3)
    assert "club/t4/ack" not in received                               # nor read another's acknowledgements
    for c in (client, sender):
        c.loop_stop()
        c.disconnect()


# ---- hidden stays hidden on the wire ------------------------------------------------------------------
def test_no_message_a_table_sends_names_a_face_down_card(broker, hub, tmp_path):
    spy_seen: list[bytes] = []
    spy = mqtt_client("spy", broker.broker("hub"))                          # reads everything the hub reads
    spy.on_connect = lambda c, u, f, rc, p: c.subscribe("club/t6/#", qos=1)
    spy.on_message = lambda c, u, m: spy_seen.append(m.payload)
    spy.loop_start()
    hidden_at: dict[int, set[str]] = {}
    with Store(tmp_path / "companion.sqlite3") as store, Publisher(store, broker.club("t6")) as publisher:
        session = Session.start(store, "sams", seed=21)
        rng = random.Random(21)
        n = 0
        while not session.rules.is_over(session.state):
            play(session, rng, 1)
            n += 1
            hidden_at[n] = faces(hidden_cards(session))
            if n % 17 == 0:
                session.undo()
                n += 1
                hidden_at[n] = faces(hidden_cards(session))
        assert any(hidden_at.values())                                     # the game did hide cards
        wait_until(lambda: publisher.pending() == 0)
    wait_until(lambda: len(spy_seen) >= n)
    spy.loop_stop()
    checked = 0
    for payload in spy_seen:
        if payload in (b"online", b"offline"):
            continue
        message = json.loads(payload)
        message.pop("record", None)          # sent once the game is over: `companion export`'s record
        text = json.dumps(message, ensure_ascii=False)
        for card in hidden_at[message["n"]]:
            assert card not in text, f"message {message['n']} shows face-down {card}"
        checked += 1
    assert checked >= n


# ---- offline for a while, then back ------------------------------------------------------------------
def test_a_table_plays_on_while_the_broker_is_down_and_catches_up(broker, hub, tmp_path):
    with Store(tmp_path / "companion.sqlite3") as store, Publisher(store, broker.club("t7")) as publisher:
        session = Session.start(store, "sams", seed=31)
        rng = random.Random(31)
        play(session, rng, 10)
        wait_until(lambda: publisher.pending() == 0)
        broker.kill()
        try:
            play(session, rng, 40)                       # the table keeps playing; the outbox grows
            assert publisher.pending() >= 40
        finally:
            broker.start()
        assert hub.connected.wait(15)
        wait_until(lambda: publisher.pending() == 0, timeout=30)
        got = hub.store.messages("t7", session.id)
        assert [m["n"] for m in got] == list(range(1, len(session.actions) + 1))


# ---- the pages are read-only; the organiser's password changes things -------------------------------
def test_pages_are_read_only_and_changes_need_the_organisers_password(hub):
    url = hub.server.url
    hub.config = hub.config.__class__(**{**hub.config.__dict__, "organiser_hash": hash_password("s3cret-night")})

    def call(method, path, data=b"", auth=None):
        request = urllib.request.Request(url + path, data=data if method != "GET" else None, method=method)
        if auth:
            import base64
            request.add_header("Authorization", "Basic " + base64.b64encode(auth.encode()).decode())
        try:
            with urllib.request.urlopen(request) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    assert call("PUT", "/api/tables")[0] == 405
    assert call("POST", "/table/t1")[0] == 405
    assert call("POST", "/organiser/announce", b"text=Round+3")[0] == 401
    assert call("POST", "/organiser/announce", b"text=Round+3", auth="organiser:wrong")[0] == 401
    status, body = call("POST", "/organiser/announce", b"text=Round+3+at+20%3A30", auth="organiser:s3cret-night")
    assert status == 200 and json.loads(body)["announcement"] == "Round 3 at 20:30"
    status, page = call("GET", "/")
    assert status == 200 and b"Round 3 at 20:30" in page
    call("POST", "/organiser/announce", b"text=", auth="organiser:s3cret-night")


def test_club_settings_are_private_and_refuse_bad_names(tmp_path):
    from companion.club.config import Broker, ClubError
    club = ClubConfig("t1", Broker("hub.local", 1883, "t1", "pw"))
    club.save(tmp_path / "club.toml")
    assert (os.stat(tmp_path / "club.toml").st_mode & 0o777) == 0o600
    assert ClubConfig.load(tmp_path / "club.toml") == club
    (tmp_path / "bad.toml").write_text('table = "t1/#"\nbroker = "x"\npassword = "p"\n')
    with pytest.raises(ClubError, match="cannot be used"):
        ClubConfig.load(tmp_path / "bad.toml")
    assert re.match(r"club/t1/log$", topic("t1", "log"))


# ---- TLS with a club certificate ----------------------------------------------------------------------
def test_tables_reach_the_hub_over_tls_with_the_club_certificate(tmp_path):
    """docs/club.md's steps: a club CA, the broker's certificate signed by it, tables trusting the CA."""
    import shutil
    import subprocess
    from companion.club.broker import RunningBroker, Tls, free_port, mosquitto_path
    from companion.club.config import HubConfig
    from companion.club.hub import Hub
    from tests.club.conftest import missing
    if mosquitto_path() is None or shutil.which("openssl") is None:
        missing("mosquitto and openssl")

    def openssl(*args):
        subprocess.run(["openssl", *args], cwd=tmp_path, check=True, capture_output=True)

    openssl("req", "-x509", "-new", "-nodes", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-days", "2",
            "-keyout", "club-ca.key", "-out", "club-ca.crt", "-subj", "/CN=Test club CA")
    openssl("req", "-new", "-nodes", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
            "-keyout", "broker.key", "-out", "broker.csr", "-subj", "/CN=localhost")
    (tmp_path / "san.txt").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "broker.csr", "-CA", "club-ca.crt", "-CAkey", "club-ca.key", "-CAcreateserial",
            "-days", "2", "-out", "broker.crt", "-extfile", "san.txt")
    tls = Tls(tmp_path / "club-ca.crt", tmp_path / "broker.crt", tmp_path / "broker.key", port=free_port())
    with RunningBroker(tmp_path / "broker", ["t1"], tls=tls) as broker:
        assert "tls_version tlsv1.2" in (tmp_path / "broker" / "mosquitto.conf").read_text()
        hub = Hub(HubConfig(broker.broker("hub"), tmp_path / "hub.sqlite3")).start()
        try:
            assert hub.connected.wait(10)
            with Store(tmp_path / "companion.sqlite3") as store, Publisher(store, broker.club("t1")) as publisher:
                session = Session.start(store, "sams", seed=2)
                play(session, random.Random(2), 12)
                wait_until(lambda: publisher.pending() == 0)
            assert [m["n"] for m in hub.store.messages("t1", session.id)] == list(range(1, 13))
        finally:
            hub.close()
        plain = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)   # no TLS: no MQTT
        plain.username_pw_set("t1", broker.passwords["t1"])
        accepted = []
        plain.on_connect = lambda c, u, f, rc, p: accepted.append(not rc.is_failure)
        try:
            plain.connect("127.0.0.1", broker.port)
            for _ in range(20):
                if plain.loop(0.1) != 0:
                    break
        except OSError:
            pass
        assert True not in accepted


def test_an_undo_is_told_as_the_shared_screen_tells_it(tmp_path):
    """An undone face-down play: the club hears "Undone: North buffs lane 1 (face down)", never the card."""
    from companion.club.outbox import Outbox
    with Store(tmp_path / "companion.sqlite3") as store:
        Outbox("t1").attach(store)
        session = Session.start(store, "sams", seed=21)
        rng = random.Random(21)
        while True:
            session.act(session.rules.random_action(session.state, rng))
            hidden = hidden_cards(session)
            if hidden:
                break
        session.undo()
        with store.read() as db:
            body = json.loads(db.execute("SELECT body FROM outbox ORDER BY id DESC LIMIT 1").fetchone()[0])
        assert body["kind"] == "undo" and body["events"][0]["text"].startswith("Undone: ")
        assert "(face down)" in body["events"][0]["text"]
        for card in faces(hidden):
            assert card not in json.dumps(body, ensure_ascii=False)


def test_a_table_that_vanishes_is_shown_offline_by_its_last_will_and_online_when_back(broker, hub, tmp_path):
    with Store(tmp_path / "companion.sqlite3") as store, Publisher(store, broker.club("t5")) as publisher:
        session = Session.start(store, "sams", seed=3)
        play(session, random.Random(3), 2)
        wait_until(lambda: (hub.store.table("t5") or {}).get("online") and publisher.pending() == 0)
        assert hub.store.table("t5")["live"]["view"]["phase_label"] == session.view(None)["phase_label"]
        publisher.cut()                                  # the Wi-Fi goes: no goodbye, the broker sends the will
        wait_until(lambda: hub.store.table("t5")["online"] is False)
        play(session, random.Random(4), 3)               # the table plays on meanwhile
        publisher.restore()
        wait_until(lambda: hub.store.table("t5")["online"] and publisher.pending() == 0)
        assert hub.store.table("t5")["live"]["view"]["phase_label"] == session.view(None)["phase_label"]
