"""The event on the running hub, through real HTTP and the real Mosquitto: the organiser's actions need
the password and are logged, the tables get their pairings retained, play, and report; both players'
confirmations settle a result, a dispute waits for the organiser; nothing hidden leaves a table."""
from __future__ import annotations

import base64
import json
import random
import threading
import urllib.error
import urllib.request

import paho.mqtt.client as mqtt
import pytest

from companion.club.config import HubConfig, hash_password, topic
from companion.club.eventtable import EventTable, parse_pairing
from companion.club.hub import Hub
from companion.club.outbox import Publisher
from companion.club.web import HubServer
from companion.event.hub import EventHub
from companion.session import Session, Store
from tests.club.conftest import wait_until
from tests.club.test_club import faces, hidden_cards

PASSWORD = "club night"
AUTH = {"Authorization": "Basic " + base64.b64encode(f"organiser:{PASSWORD}".encode()).decode()}


@pytest.fixture(scope="module")
def event_hub(broker, tmp_path_factory):
    hub = Hub(HubConfig(broker.broker("hub"), tmp_path_factory.mktemp("evhub") / "hub.sqlite3",
                        organiser_hash=hash_password(PASSWORD, rounds=1000))).start()
    assert hub.connected.wait(10)
    server = HubServer(hub, ("127.0.0.1", 0))
    events = EventHub(hub, server)
    server.start()
    yield events
    server.close()
    hub.close()


def call(hub: EventHub, path: str, body=None, auth=True, method=None):
    """(status, JSON or bytes, headers) of a request to the hub."""
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    request = urllib.request.Request(hub.server.url + path, data=data, headers=AUTH if auth else {},
                                     method=method or ("POST" if data is not None else "GET"))
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            status, raw, headers = r.status, r.read(), dict(r.headers)
    except urllib.error.HTTPError as e:
        status, raw, headers = e.code, e.read(), dict(e.headers)
    if headers.get("Content-Type", "").startswith("application/json"):
        return status, json.loads(raw), headers
    return status, raw, headers


class Watcher:
    """A table's own MQTT user subscribed to its pairing topic, as the table's publisher is."""

    def __init__(self, broker, table, of=None):
        self.messages: list[bytes] = []
        of = of or table
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"watch-{table}-{of}",
                                  protocol=mqtt.MQTTv5)
        club = broker.club(table)
        self.client.username_pw_set(club.broker.username, club.broker.password)
        self.client.on_message = lambda c, u, m: self.messages.append(m.payload)
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe(topic(of, "pairing"), qos=1)
        self.client.connect(club.broker.host, club.broker.port)
        self.client.loop_start()

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()


def test_the_organiser_runs_an_event_over_http_and_each_table_gets_its_pairing(broker, event_hub):
    status, body, _ = call(event_hub, "/organiser/event", {"name": "Friday", "game": "sams"}, auth=False)
    assert status == 401
    status, body, _ = call(event_hub, "/organiser/event", b"{not json")
    assert status == 400 and body == {"error": "the request is not JSON"}
    status, body, _ = call(event_hub, "/organiser/event", {"name": "Friday", "game": "sams", "format": "bo5"})
    assert status == 400 and body["error"].startswith("the format is one of")
    status, body, _ = call(event_hub, "/organiser/event", {"name": "Friday", "game": "sams", "format": "bo1",
                                                           "rounds": 3, "seed": 7, "tables": ["t3", "t4"]})
    assert status == 200
    ev = body["event"]
    for name in ("Ana", "Ben", "Cy", "Dee"):
        assert call(event_hub, f"/organiser/event/{ev}/register", {"name": name})[0] == 200
    assert call(event_hub, f"/organiser/event/{ev}/register", {"name": "ana"})[1]["error"].startswith(
        "there is already a player called")
    watchers = {t: Watcher(broker, t) for t in ("t3", "t4")}
    spy = Watcher(broker, "t3", of="t4")           # a table reading another table's pairing: the ACL says no
    try:
        status, body, _ = call(event_hub, f"/organiser/event/{ev}/start_round", {})
        assert status == 200 and body["view"]["round"] == 1
        pairs = {p["table"]: p for p in body["view"]["pairings"]}
        assert set(pairs) == {1, 2}
        for number, table in ((1, "t3"), (2, "t4")):
            got = wait_until(lambda: [parse_pairing(m) for m in watchers[table].messages if m])
            assert got[-1]["players"] == [pairs[number]["a"], pairs[number]["b"]]
            assert (got[-1]["round"], got[-1]["table"], got[-1]["event"]) == (1, number, ev)
        # A late entry, then table 2 offline: the organiser types its result, marked as typed by hand.
        assert call(event_hub, f"/organiser/event/{ev}/register", {"name": "Eve"})[0] == 200
        status, body, _ = call(event_hub, f"/organiser/event/{ev}/result", {"table": 2, "games": [1, 0, 0]})
        assert status == 200
        row = next(p for p in body["view"]["pairings"] if p["table"] == 2)
        assert row["result"] == "1–0 (entered by organiser)"
        # Settled: table t4's retained pairing is cleared; t3's stays until its result counts.
        wait_until(lambda: watchers["t4"].messages and watchers["t4"].messages[-1] == b"")
        assert parse_pairing(watchers["t3"].messages[-1])["table"] == 1
        assert spy.messages == []
        # Undo and redo through the log, as the organiser sees them.
        status, body, _ = call(event_hub, f"/organiser/event/{ev}/undo", {})
        assert next(p for p in body["view"]["pairings"] if p["table"] == 2)["result"] == "playing"
        wait_until(lambda: parse_pairing(watchers["t4"].messages[-1]) is not None)
        status, body, _ = call(event_hub, f"/organiser/event/{ev}/redo", {})
        assert next(p for p in body["view"]["pairings"] if p["table"] == 2)["result"] == "1–0 (entered by organiser)"
        status, body, _ = call(event_hub, f"/organiser/event/{ev}/start_round", {})
        assert status == 400 and body["error"] == "round 1 is not finished: no settled result at table 1"
        status, body, _ = call(event_hub, f"/organiser/event/{ev}/drop", {"player": "Eve", "by": "player"})
        assert status == 200 and [p["dropped"] for p in body["view"]["players"] if p["name"] == "Eve"] == [True]
    finally:
        for w in [*watchers.values(), spy]:
            w.close()
    # Pages, read by anyone: the TV page under its own CSP (its inline script by hash), JSON, the slips.
    status, html, headers = call(event_hub, f"/event/{ev}", auth=False)
    assert status == 200 and b"Friday" in html and b"Round 1 of 3" in html
    assert "script-src 'sha256-" in headers["Content-Security-Policy"]
    assert call(event_hub, f"/event/{ev}/slips.pdf", auth=False)[1][:5] == b"%PDF-"
    assert call(event_hub, "/event/99", auth=False)[0] == 404
    assert call(event_hub, f"/organiser/event/{ev}/undo", {}, auth=False)[0] == 401


def _play_to_the_end(session, seed):
    rng = random.Random(seed)
    hidden_seen = set()
    while not session.rules.is_over(session.state):
        session.act(session.rules.random_action(session.state, rng))
        hidden_seen |= hidden_cards(session)
    return hidden_seen


def test_tables_play_their_pairings_and_both_players_confirm_or_one_disputes(broker, event_hub, tmp_path):
    status, body, _ = call(event_hub, "/organiser/event", {"name": "Saturday", "game": "sams", "format": "bo1",
                                                           "rounds": 2, "seed": 3, "tables": ["t5", "t6"]})
    ev = body["event"]
    for name in ("Ana", "Ben", "Cy", "Dee"):
        call(event_hub, f"/organiser/event/{ev}/register", {"name": name})
    updates = []
    stream = threading.Thread(target=_follow, args=(event_hub.server.url + f"/events?event={ev}", updates),
                              daemon=True)
    stream.start()
    stores = {t: Store(tmp_path / t / "companion.sqlite3") for t in ("t5", "t6")}
    publishers = {t: Publisher(stores[t], broker.club(t)).start() for t in stores}
    tables = {t: EventTable(stores[t], publishers[t]) for t in stores}
    payloads = []
    try:
        call(event_hub, f"/organiser/event/{ev}/start_round", {})
        sessions, hidden = {}, set()
        for k, (name, table) in enumerate(tables.items()):
            wait_until(lambda: table.pairing is not None and table.pairing["event"] == ev)
            assert table.line().startswith(f"Round 1 · Table {k + 1}: ")
            if k == 1:
                table.swap()                       # they sit the other way round
            assert not table.press(0) and table.press(1)
            sessions[name] = table.start(Session.start, seed=10 + k)
            assert sessions[name].options["players"] == table.names()
            hidden |= _play_to_the_end(sessions[name], k)
        # Table t5: both confirm. Table t6: the second player disputes.
        s5, s6 = sessions["t5"], sessions["t6"]
        assert tables["t5"].answer(s5, 0) and tables["t5"].answer(s5, 1) and not tables["t5"].answer(s5, 1)
        assert tables["t6"].answer(s6, 0) and tables["t6"].answer(s6, 1, agree=False, reason="wrong count")

        def results():
            view = call(event_hub, f"/api/event/{ev}", auth=False)[1]
            return {p["table"]: p["result"] for p in view["pairings"]}
        wait_until(lambda: "disputed" in results()[2] and "(" not in results()[1])
        names5, winner5 = s5.options["players"], s5.rules.result(s5.state)["winner"]
        view = call(event_hub, f"/api/event/{ev}", auth=False)[1]
        first = next(p for p in view["pairings"] if p["table"] == 1)
        a_won = names5[winner5] == first["a"] if winner5 is not None else None
        assert first["result"] == {True: "1–0", False: "0–1", None: "0–0–1"}[a_won]
        # The dispute waits for the organiser; the next round cannot start until it is decided.
        assert call(event_hub, f"/organiser/event/{ev}/start_round", {})[1]["error"].endswith("table 2")
        status, body, _ = call(event_hub, f"/organiser/event/{ev}/correct",
                               {"table": 2, "games": [0, 1, 0], "note": "judge: recount"})
        assert status == 200
        status, body, _ = call(event_hub, f"/organiser/event/{ev}/start_round", {})
        assert status == 200 and body["view"]["round"] == 2
        for table in tables.values():
            wait_until(lambda: table.pairing is not None and table.pairing["round"] == 2)
        # The pages heard of each change.
        wait_until(lambda: any(u.get("round") == 2 for u in updates))
        # Nothing face down left any table: not in the pairings, not in the event's pages.
        payloads += [json.dumps(table.pairing) for table in tables.values()]
        pages = [call(event_hub, path, auth=False)[1] for path in
                 (f"/event/{ev}", f"/event/{ev}/player/p1", f"/api/event/{ev}")]
        text = " ".join(p.decode() if isinstance(p, bytes) else json.dumps(p) for p in pages + payloads)
        assert hidden and not any(c in text for c in faces(hidden))
        # After a restart the hub handles every stored message again: nothing is logged twice.
        logged = len(event_hub.store.log(ev))
        event_hub.catch_up()
        assert len(event_hub.store.log(ev)) == logged
        # Ratings from every stored game of the club, not only the event's: a friendly game at t5.
        before = event_hub.ratings()["sams"]["ana"]["games"]
        friendly = Session.start(stores["t5"], "sams", {"players": ["Ana", "Zed"]}, seed=99)
        hidden |= _play_to_the_end(friendly, 99)
        wait_until(lambda: publishers["t5"].pending() == 0)
        board = event_hub.ratings()["sams"]
        assert board["ana"]["games"] == before + 1 and board["zed"]["games"] == 1
        # Each game counted once: here table 1's from its stored record, table 2's as the organiser decided
        # (not also the table's disputed record), the friendly game; and the first test's hand-typed result.
        assert sum(e["games"] for e in board.values()) == 2 * (2 + 1 + 1)
        assert [h["opponent"] for h in board["zed"]["history"]] == ["Ana"]
        # The player's page: ratings with history, the games at the tables, head-to-head.
        ana = next(p["id"] for p in event_hub.store.state(ev)["players"] if p["name"] == "Ana")
        page = call(event_hub, f"/event/{ev}/player/{ana}", auth=False)[1].decode()
        assert "Ratings" in page and "Games at the club" in page and "Zed" in page and "Head to head" in page
        assert not any(c in page for c in faces(hidden))
    finally:
        for p in publishers.values():
            p.close()
        for s in stores.values():
            s.close()


def _follow(url, updates):
    with urllib.request.urlopen(url, timeout=60) as r:
        for line in r:
            if line.startswith(b"data: "):
                updates.append(json.loads(line[6:]))


def test_the_tv_page_on_the_hub_runs_its_script_and_follows_the_event_in_chromium(event_hub):
    from tests.club.chromium import Browser, chromium_path
    from tests.club.conftest import missing
    if chromium_path() is None:
        missing("chromium")
    ev = call(event_hub, "/organiser/event", {"name": "Sunday Cup", "game": "sams", "format": "bo3",
                                              "rounds": 4, "round_minutes": 50, "seed": 1})[1]["event"]
    for name in ("Ana", "Ben", "Cy", "Dee", "Eli"):
        call(event_hub, f"/organiser/event/{ev}/register", {"name": name})
    view = call(event_hub, f"/organiser/event/{ev}/start_round", {})[1]["view"]
    with Browser() as browser:
        browser.open(f"{event_hub.server.url}/event/{ev}", 1920, 1080)
        text = browser.text()
        assert "Sunday Cup" in text and "Round 1 of 4" in text and "bye" in text
        for p in view["pairings"]:
            assert p["a"] in text
        # The timer is the page's own script (allowed by its hash): it counts down from 50:00.
        browser.wait_for("/^(49:5\\d|50:00)$/.test(document.getElementById('timer').textContent)")
        # An organiser's entry reaches the open page by itself (server-sent event → reload).
        call(event_hub, f"/organiser/event/{ev}/result", {"table": 1, "games": [2, 1, 0]})
        browser.wait_for("!!document.body && document.body.innerText.includes('2–1 organiser')", timeout=10)
