"""Screenshots of the event's pages from a running hub (headless Chromium, desktop and phone width).

    .venv/bin/python -m tests.club.event_screenshots docs/screenshots

A real Mosquitto, the hub with the event mounted, four tables that play round 1
through the broker (pairing → seats → random legal play → both confirm), then
round 2 half played: two results awaiting the players, one typed by the
organiser (a table offline), one still playing.  Writes
``event-hub-tv-1920x1080.png``, ``event-hub-tv-390x844.png``,
``event-hub-player-1920x1080.png`` and ``event-hub-player-390x844.png``; and the
organiser's page of the event (round 2's first table disputed by a player) as
``event-organiser-1280x800.png`` and ``event-organiser-390x844.png``, and the
list of events with the form that creates one, ``event-organiser-create-1280x800.png``.
Two deck checks are made at round 2's first table (through the broker, as a
table makes them): one passed, one with a card missing and another extra.
"""
from __future__ import annotations

import base64
import json
import random
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from companion.club.broker import RunningBroker
from companion.club.config import HubConfig, hash_password
from companion.club.eventtable import EventTable
from companion.club.hub import Hub
from companion.club.outbox import Publisher
from companion.table import PadEvent
from companion.club.web import HubServer
from companion.event.hub import EventHub
from companion.session import Session, Store
from tests.club.chromium import Browser

PASSWORD = "shots"
TABLES = ["t1", "t2", "t3", "t4"]
NAMES = ["Ana Lima", "Ben Okafor", "Chiara Rossi", "Dmitri Volkov", "Eun-ji Park", "Farid Haddad",
         "Greta Holm", "Hugo Martin"]
DECK = ["north-wind", "north-wind", "ember", "ember", "tide", "stone", "stone", "spark"]


def _post(url, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers={
        "Authorization": "Basic " + base64.b64encode(f"organiser:{PASSWORD}".encode()).decode()})
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.loads(r.read())


def _wait(check, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise TimeoutError("the hub did not get there")


def main(out: str = "docs/screenshots") -> None:
    work = Path(tempfile.mkdtemp(prefix="event-shots-"))
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    with RunningBroker(work / "broker", TABLES) as broker:
        hub = Hub(HubConfig(broker.broker("hub"), work / "hub.sqlite3",
                            organiser_hash=hash_password(PASSWORD, rounds=1000))).start()
        hub.connected.wait(10)
        server = HubServer(hub, ("127.0.0.1", 0))
        events = EventHub(hub, server)
        server.start()
        stores = {t: Store(work / t / "companion.sqlite3") for t in TABLES}
        pubs = {t: Publisher(stores[t], broker.club(t)).start() for t in TABLES}
        tables = {t: EventTable(stores[t], pubs[t]) for t in TABLES}
        rng = random.Random(4)
        try:
            ev = _post(f"{server.url}/organiser/event", {"name": "Friday Club Night", "game": "sams",
                                                        "format": "bo1", "rounds": 4, "round_minutes": 40,
                                                        "seed": 11, "tables": TABLES})["event"]
            for name in NAMES:
                _post(f"{server.url}/organiser/event/{ev}/register", {"name": name, "deck": DECK})
            for number, finish in ((1, TABLES), (2, TABLES[:2])):
                _post(f"{server.url}/organiser/event/{ev}/start_round", {})
                for t in finish:
                    table = tables[t]
                    _wait(lambda: table.pairing is not None and table.pairing["round"] == number)
                    table.press(0)
                    table.press(1)
                    session = table.start(Session.start, seed=rng.randrange(1000))
                    while not session.rules.is_over(session.state):
                        session.act(session.rules.random_action(session.state, rng))
                    if number == 1:
                        table.answer(session, 0)
                        table.answer(session, 1)
                    elif t == TABLES[0]:
                        table.answer(session, 0)
                        table.answer(session, 1, agree=False, reason="we counted 14 not 12")
                if number == 1:
                    _wait(lambda: not events.pairing_messages(ev))       # every table's result settled
            _post(f"{server.url}/organiser/event/{ev}/result", {"table": 3, "games": [0, 1, 0]})
            _wait(lambda: sum(1 for p in events.store.state(ev)["rounds"][-1]["pairings"] if p.get("result")) >= 3)
            _wait(lambda: any((p.get("result") or {}).get("status") == "disputed"
                              for p in events.store.state(ev)["rounds"][-1]["pairings"]))
            # Deck checks at the disputed table: the first player's deck as registered, the second's with
            # one card left out and another added (the organiser's page names them; the pages do not).
            table = tables[TABLES[0]]
            for player_index, cards in ((0, DECK), (1, DECK[1:] + ["stray-card"])):
                check = table.start_deck_check(player_index, None, lambda uid: None)
                for i, card in enumerate(cards):
                    check.feed(PadEvent("any", f"{player_index}-{i}", "seen", time.monotonic(), card))
                check.finish()
                _wait(lambda: check.done)
            player = events.store.state(ev)["players"][0]["id"]
            auth = {"Authorization": "Basic " + base64.b64encode(f"organiser:{PASSWORD}".encode()).decode()}
            with Browser() as browser:
                browser.open(f"{server.url}/organiser/events", 1280, 800, headers=auth)
                browser.screenshot(folder / "event-organiser-create-1280x800.png", full_page=True)
                for width, height, mobile in ((1280, 800, False), (390, 844, True)):
                    browser.open(f"{server.url}/organiser/event/{ev}", width, height, mobile=mobile, headers=auth)
                    time.sleep(0.3)
                    png = folder / f"event-organiser-{width}x{height}.png"
                    browser.screenshot(png, full_page=not mobile)
                    print("wrote", png)
                for path, name in ((f"/event/{ev}", "tv"), (f"/event/{ev}/player/{player}", "player")):
                    for width, height, mobile in ((1920, 1080, False), (390, 844, True)):
                        browser.open(server.url + path, width, height, mobile=mobile)
                        time.sleep(0.3)
                        png = folder / f"event-hub-{name}-{width}x{height}.png"
                        browser.screenshot(png)
                        print("wrote", png)
        finally:
            for p in pubs.values():
                p.close()
            for s in stores.values():
                s.close()
            server.close()
            hub.close()


if __name__ == "__main__":
    main(*sys.argv[1:])
