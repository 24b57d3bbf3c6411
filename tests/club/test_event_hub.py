"""The event on the running hub, through real HTTP and the real Mosquitto: the organiser's actions need
the password and are logged, the tables get their pairings retained, play, and report; both players'
confirmations settle a result, a dispute waits for the organiser; nothing hidden leaves a table."""
from __future__ import annotations

import base64
import json
import random
import threading
import time
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


def test_the_organiser_runs_the_event_from_the_page_in_chromium(event_hub):
    """Create → register four → start the round → the pairings; a refusal is the hub's one sentence."""
    from tests.club.chromium import Browser, chromium_path
    from tests.club.conftest import missing
    if chromium_path() is None:
        missing("chromium")
    url = event_hub.server.url
    assert call(event_hub, "/organiser/events", auth=False)[0] == 401
    with Browser() as browser:
        def submit(form: str, **fields):
            """Type into a form's fields and press its button, as a person does."""
            sets = "".join(f"f.querySelector('[name=\"{k}\"]').value={json.dumps(v)};" for k, v in fields.items())
            browser.evaluate(f"(function(){{var f=document.querySelector({json.dumps(form)});{sets}"
                             "f.querySelector('button').click();})()")

        browser.open(url + "/organiser/events", 1280, 800, headers=AUTH)
        assert "Create an event" in browser.text()
        # Nothing typed in the name: the hub's sentence, not a traceback; nothing created.
        before = len(event_hub.store.events())
        browser.evaluate("document.querySelector('[name=name]').removeAttribute('required')")
        submit("form[data-post='/organiser/event']", name="", format="bo1")
        browser.wait_for("document.getElementById('message').textContent.length > 0")
        assert browser.evaluate("document.getElementById('message').textContent") == "the event's name is missing"
        assert len(event_hub.store.events()) == before
        submit("form[data-post='/organiser/event']", name="Page Night", game="sams", format="bo1", rounds="3",
               round_minutes="45", tables="t7, t8")
        browser.wait_for("location.pathname.startsWith('/organiser/event/')")
        browser.wait_for("document.readyState === 'complete' && document.body.innerText.includes('Register')")
        ev = int(browser.evaluate("location.pathname").rsplit("/", 1)[1])
        state = event_hub.store.state(ev)
        assert (state["name"], state["format"], state["rounds_planned"], state["round_minutes"], state["tables"]) == \
            ("Page Night", "bo1", 3, 45, ["t7", "t8"])
        for k, name in enumerate(("Ana", "Ben", "Cy", "Dee")):
            submit(f"form[data-post='/organiser/event/{ev}/register']", name=name,
                   deck="c1\nc2" if name == "Ana" else "")
            browser.wait_for(f"document.readyState === 'complete' && document.querySelectorAll('form"
                             f"[data-post=\"/organiser/event/{ev}/drop\"]').length === {k + 1}")
        assert event_hub.store.state(ev)["players"][0]["deck"] == ["c1", "c2"]
        submit(f"form[data-post='/organiser/event/{ev}/start_round']")
        browser.wait_for("document.body.innerText.includes('Round 1 of 3')")
        text = browser.text()
        view = call(event_hub, f"/api/event/{ev}", auth=False)[1]
        for p in view["pairings"]:
            row = browser.evaluate(f"Array.from(document.querySelectorAll('tr')).map(r => r.innerText)"
                                   f".find(t => t.startsWith('{p['table']}\\t'))")
            assert p["a"] in row and p["b"] in row and ("t7" if p["table"] == 1 else "t8") in row
            assert "never joined" in row and "playing" in row
        # The next round cannot start yet: the page shows the hub's sentence and nothing changes.
        logged = len(event_hub.store.log(ev))
        submit(f"form[data-post='/organiser/event/{ev}/start_round']")
        browser.wait_for("document.getElementById('message').textContent.length > 0")
        assert browser.evaluate("document.getElementById('message').textContent") == \
            "round 1 is not finished: no settled result at table 1, 2"
        assert len(event_hub.store.log(ev)) == logged and "Round 1 of 3" in text
        # Table 1 offline: the organiser types its result; the page shows it as entered by hand. Then undo.
        submit(f"form[data-post='/organiser/event/{ev}/result']", **{"games.0": "0", "games.1": "1"})
        browser.wait_for("document.readyState === 'complete' && document.body.innerText.includes('0–1 (entered by hand)')")
        submit(f"form[data-post='/organiser/event/{ev}/undo']")
        browser.wait_for("document.readyState === 'complete' && !document.body.innerText.includes('0–1 (entered')")
        assert not event_hub.store.state(ev)["rounds"][0]["pairings"][0]["result"]
        # Table 2's result as a table reports it, disputed by a player (the table test plays this through
        # the broker): the organiser reads the reason, amends the prefilled score and decides.
        second = event_hub.store.state(ev)["rounds"][0]["pairings"][1]
        event_hub.store.act(ev, {"type": "report", "round": 1, "table": 2, "games": [1, 0, 0], "source": "table",
                                 "game_ref": {"table": "t8", "game_id": 1}})
        event_hub.store.act(ev, {"type": "dispute", "round": 1, "table": 2, "player": second["b"],
                                 "reason": "we counted 14 not 12"})
        browser.evaluate("location.reload()")
        browser.wait_for("document.readyState === 'complete' && document.body.innerText.includes('we counted 14')")
        decide = f"form[data-post='/organiser/event/{ev}/correct']"
        assert browser.evaluate(f"document.querySelector(\"{decide} [name='games.0']\").value") == "1"
        submit(decide, **{"games.0": "0", "games.1": "1", "note": "judge: recount"})
        browser.wait_for("document.readyState === 'complete' && document.body.innerText.includes('0–1 (entered by hand)')")
        assert event_hub.store.state(ev)["rounds"][0]["pairings"][1]["result"]["note"] == "judge: recount"
        # A drop is one button in the player's row.
        submit(f"form[data-post='/organiser/event/{ev}/drop']")
        browser.wait_for("document.readyState === 'complete' && document.body.innerText.includes('dropped after round 1')")
        assert event_hub.store.state(ev)["players"][0]["dropped"] == {"after_round": 1, "by": "organiser"}


def test_best_of_three_is_played_game_after_game_at_the_table_and_rates_only_once_agreed(broker, event_hub, tmp_path):
    """A best-of-three match needs two game wins: the table plays the next game of the match until one
    player has them (EventTable.needs_game); the hub reports the match once, when it is decided; its games
    count in the ratings only once both players agreed — and a friendly game counts as soon as it is stored."""
    ev = call(event_hub, "/organiser/event", {"name": "Bo3 night", "game": "sams", "format": "bo3",
                                              "rounds": 1, "seed": 5, "tables": ["t4"]})[1]["event"]
    for name in ("Ivo", "Jun"):
        call(event_hub, f"/organiser/event/{ev}/register", {"name": name})
    store = Store(tmp_path / "companion.sqlite3")
    publisher = Publisher(store, broker.club("t4")).start()
    table = EventTable(store, publisher)
    try:
        call(event_hub, f"/organiser/event/{ev}/start_round", {})
        wait_until(lambda: table.pairing is not None and table.pairing["event"] == ev)
        assert table.pairing["format"] == "bo3" and table.needs_game()

        def linked():
            with event_hub.hub.store.read() as db:
                return db.execute("SELECT COUNT(*) FROM club_event_table_games WHERE event_id = ?", (ev,)).fetchone()[0]

        def result():
            return event_hub.store.state(ev)["rounds"][0]["pairings"][0]["result"]
        played, winners = [], []
        while table.needs_game():
            assert len(played) < 3
            table.press(0)
            assert table.press(1)
            session = table.start(Session.start, seed=40 + len(played))
            _play_to_the_end(session, len(played))
            played.append(session)
            winner = session.rules.result(session.state).get("winner")
            winners.append(None if winner is None else session.options["players"][winner])
            wait_until(lambda: publisher.pending() == 0 and linked() == len(played))
            decided = max(winners.count("Ivo"), winners.count("Jun")) >= 2 or len(played) == 3
            # Not decided: no result at the hub yet, and the table asks for the next game.
            assert (result() is not None) == decided
            if decided:
                break
            assert table.answer(session, 0) and table.answer(session, 1) and table.needs_game()
        pair = event_hub.store.state(ev)["rounds"][0]["pairings"][0]
        names = {p["id"]: p["name"] for p in event_hub.store.state(ev)["players"]}
        a, b = names[pair["a"]], names[pair["b"]]
        assert pair["result"]["games"] == [winners.count(a), winners.count(b), winners.count(None)]
        assert pair["result"]["status"] == "reported" and pair["result"]["source"] == "table"
        # Reported, not yet agreed: none of the match's games is in the ratings.
        assert "ivo" not in event_hub.ratings().get("sams", {})
        last = played[-1]
        assert table.answer(last, 0) and table.answer(last, 1) and not table.needs_game()
        wait_until(lambda: result()["status"] == "confirmed")
        board = event_hub.ratings()["sams"]
        assert board["ivo"]["games"] == board["jun"]["games"] == len(played)
        # A friendly game (no event) at the same table counts as soon as the hub stored it.
        friendly = Session.start(store, "sams", {"players": ["Ivo", "Kim"]}, seed=77)
        _play_to_the_end(friendly, 77)
        wait_until(lambda: publisher.pending() == 0)
        wait_until(lambda: "kim" in event_hub.ratings()["sams"])
        assert event_hub.ratings()["sams"]["ivo"]["games"] == len(played) + 1
    finally:
        publisher.close()
        store.close()


def test_a_restarted_hub_clears_the_retained_pairings_of_tables_not_in_the_round(broker, event_hub):
    """The hub stopped between an undo (logged) and clearing the undone round's pairings: once it is
    back, the stale pairings are cleared; a table of the current round keeps its pairing."""
    ev = call(event_hub, "/organiser/event", {"name": "Restart", "game": "sams", "format": "bo1",
                                              "rounds": 3, "seed": 2, "tables": ["t1", "t2"]})[1]["event"]
    for name in ("Lia", "Mo", "Ned", "Oz"):
        call(event_hub, f"/organiser/event/{ev}/register", {"name": name})
    watchers = {t: Watcher(broker, t) for t in ("t1", "t2")}
    try:
        call(event_hub, f"/organiser/event/{ev}/start_round", {})
        for w in watchers.values():
            wait_until(lambda: w.messages and parse_pairing(w.messages[-1]) is not None)
        call(event_hub, f"/organiser/event/{ev}/result", {"table": 2, "games": [1, 0, 0]})
        wait_until(lambda: watchers["t2"].messages[-1] == b"")
        call(event_hub, f"/organiser/event/{ev}/undo", {})          # table 2 is open again
        wait_until(lambda: parse_pairing(watchers["t2"].messages[-1]) is not None)
        event_hub.store.undo(ev)              # the undo of the round is logged; then the hub stops
        assert not event_hub.store.state(ev)["rounds"]
        before = {t: len(w.messages) for t, w in watchers.items()}
        server = HubServer(event_hub.hub, ("127.0.0.1", 0))
        restarted = EventHub(event_hub.hub, server)     # what `companion hub` builds at its start
        server.start()
        try:
            for t, w in watchers.items():
                wait_until(lambda: len(w.messages) > before[t] and w.messages[-1] == b"")
            assert all(owner != ev for owner, _ in restarted._published.values())
            # The round started again: its tables get their pairings; another restart leaves them be.
            restarted.store.redo(ev)
            restarted.changed(ev)
            for w in watchers.values():
                wait_until(lambda: parse_pairing(w.messages[-1]) is not None)
            count = {t: len(w.messages) for t, w in watchers.items()}
            again_server = HubServer(event_hub.hub, ("127.0.0.1", 0))
            again = EventHub(event_hub.hub, again_server.start())
            event_hub.hub.log_listeners.remove(again.table_message)
            event_hub.hub.listeners.remove(again_server._changed)
            again_server.close()
            time.sleep(0.3)                   # a clear would arrive within milliseconds on loopback
            assert {t: len(w.messages) for t, w in watchers.items()} == count
        finally:
            event_hub.hub.log_listeners.remove(restarted.table_message)
            event_hub.hub.listeners.remove(server._changed)
            server.close()
    finally:
        for w in watchers.values():
            w.close()


def test_a_player_drops_from_the_table_logged_as_their_own_and_is_not_paired_next_round(broker, event_hub, tmp_path):
    """Issue 28: a player's own "I drop", pressed on the table's answer view, reaches the hub after the
    answers (the game's outbox), is logged as ``drop`` by the player, and the next round does not pair
    them; the organiser's Undo takes it back, and a restart's catch-up does not drop them again."""
    ev = call(event_hub, "/organiser/event", {"name": "Drop night", "game": "sams", "format": "bo1",
                                              "rounds": 2, "seed": 4, "tables": ["t7"]})[1]["event"]
    for name in ("Pia", "Quin", "Rex"):
        call(event_hub, f"/organiser/event/{ev}/register", {"name": name})
    store = Store(tmp_path / "companion.sqlite3")
    publisher = Publisher(store, broker.club("t7")).start()
    table = EventTable(store, publisher)

    def player(name_or_id):
        return next(p for p in event_hub.store.state(ev)["players"] if name_or_id in (p["name"], p["id"]))
    try:
        call(event_hub, f"/organiser/event/{ev}/start_round", {})
        wait_until(lambda: table.pairing is not None and table.pairing["event"] == ev)
        table.press(0)
        assert table.press(1)
        session = table.start(Session.start, seed=21)
        _play_to_the_end(session, 21)
        leaver = session.options["players"][0]
        assert table.drop_question(session, 0) == f"Drop {leaver} from Drop night? Tap again to drop"
        assert table.answer(session, 0) and table.answer(session, 1)
        assert table.drop(session, 0) and not table.drop(session, 0) and table.has_dropped(session, 0)
        wait_until(lambda: player(leaver)["dropped"] is not None)
        assert player(leaver)["dropped"] == {"after_round": 1, "by": "player"}
        last = event_hub.store.log(ev)[-1]
        assert (last["type"], last["by"], player(last["player"])["name"]) == ("drop", "player", leaver)
        # The organiser's Undo takes it back; a restart's catch-up does not drop them again; Redo does.
        call(event_hub, f"/organiser/event/{ev}/undo", {})
        assert player(leaver)["dropped"] is None
        event_hub.catch_up()
        assert player(leaver)["dropped"] is None
        call(event_hub, f"/organiser/event/{ev}/redo", {})
        assert player(leaver)["dropped"] == {"after_round": 1, "by": "player"}
        status, body, _ = call(event_hub, f"/organiser/event/{ev}/start_round", {})
        assert status == 200 and body["view"]["round"] == 2
        paired = {x for p in event_hub.store.state(ev)["rounds"][-1]["pairings"] for x in (p["a"], p["b"])}
        assert player(leaver)["id"] not in paired
        assert {player(n)["id"] for n in ("Pia", "Quin", "Rex") if n != leaver} <= paired
    finally:
        publisher.close()
        store.close()
