"""A deck check's round trip through the real Mosquitto and the real hub on loopback, as JSON.

    .venv/bin/python -m tests.club.deckcheck_roundtrip 200

A 50-card deck (25 cards twice) is read all at once (the worst case: 50 scans
queued at the hub together), then timed from the last card to the verdict at
the table: a right deck is answered at its matching card; every tenth deck has
one card swapped for another and is timed from *Done*.  Not a test: a
measurement (wall-clock on this machine, the broker and hub on loopback; a
club's Wi-Fi adds its own latency, unmodelled).
"""
from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from companion.club.broker import RunningBroker
from companion.club.config import HubConfig
from companion.club.eventtable import EventTable
from companion.club.hub import Hub
from companion.club.outbox import Publisher
from companion.club.web import HubServer
from companion.event.hub import EventHub
from companion.session import Store
from companion.table import PadEvent


def _figures(times: list[float]) -> dict:
    times = sorted(times)
    return {"n": len(times), "mean_s": round(statistics.mean(times), 4),
            "p99_s": round(times[max(0, int(len(times) * 0.99) - 1)], 4), "max_s": round(times[-1], 4)}


def main(checks: int = 200) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="deckcheck-rtt-"))
    deck = [f"c{i % 25}" for i in range(50)]
    with RunningBroker(folder / "broker", ["t1"]) as broker:
        hub = Hub(HubConfig(broker.broker("hub"), folder / "hub.sqlite3", organiser_hash=None)).start()
        assert hub.connected.wait(10)
        events = EventHub(hub, HubServer(hub, ("127.0.0.1", 0)))
        event = events.store.create(name="Bench", game="lifeforce", rounds=1, seed=1, tables=["t1"])
        for name in ("Ana", "Ben"):
            events.store.act(event, {"type": "register", "name": name, "deck": deck})
        events.store.act(event, {"type": "start_round"})
        events.changed(event)
        store = Store(folder / "t1.sqlite3")
        publisher = Publisher(store, broker.club("t1"))
        table = EventTable(store, publisher)
        publisher.start()
        while table.pairing is None:
            time.sleep(0.01)
        right, wrong, wrong_verdicts = [], [], 0
        rng = random.Random(1)
        for k in range(checks):
            swapped = k % 10 == 0
            cards = list(deck)
            if swapped:
                cards[rng.randrange(len(cards))] = "intruder"
            check = table.start_deck_check(0, None, lambda uid: None)
            for i, card in enumerate(cards):
                check.feed(PadEvent("any", f"{k}-{i}", "seen", 0.0, card))
            started = time.monotonic()
            if swapped:
                check.finish()
            while not check.done:
                time.sleep(0.0005)
            (wrong if swapped else right).append(time.monotonic() - started)
            answer = check.answer
            if answer["ok"] == swapped or (swapped and (answer["missing"], answer["extra"]) != (1, 1)):
                wrong_verdicts += 1
        figures = {"right_deck_last_card_to_verdict": _figures(right), "swapped_card_done_to_verdict": _figures(wrong),
                   "wrong_verdicts": wrong_verdicts,
                   "deck_checks_logged": len(events.store.state(event)["deck_checks"])}
        publisher.close()
        store.close()
        hub.close()
    print(json.dumps(figures))
    return figures


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
