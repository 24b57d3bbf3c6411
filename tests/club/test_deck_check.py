"""A deck check at an event's table, through the real Mosquitto (the club's ACL) and the real hub: the table
sends what the pad read, the hub compares it with the registered list, logs it, and answers with counts;
the card names are on the organiser's page only, and the public pages say "passed" / "see the organiser"."""
from __future__ import annotations

import json
import threading

import paho.mqtt.client as mqtt

from companion.club.config import topic
from companion.club.eventtable import ANSWER_WITHIN_S, DeckCheck, EventTable
from companion.club.outbox import Publisher
from companion.event.deckcheck import SETTLE_S
from companion.session import Store
from companion.table import PadEvent
from tests.club.conftest import wait_until
from tests.club.test_event_hub import call, event_hub  # noqa: F401  (the module's hub fixture)

ANA = ["owl", "owl", "fox", "hare", "wolf", "bear"]
BEN = ["elk", "elk", "lynx", "crow", "frog", "toad"]


class Clock:
    """The table's monotonic clock, moved by the test (no sleeping out the 1.5 s settle)."""

    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def _pass(check: DeckCheck, clock: Clock, cards: list[tuple[str, str]], pad: str = "deck-check") -> None:
    for uid, card in cards:
        clock.now += 0.9                                     # a card laid every ~0.9 s (a guess of a hand's pace)
        check.feed(PadEvent(pad, uid, "seen", clock.now, card))
        check.feed(PadEvent(pad, uid, "gone", clock.now + 0.4, card))


def test_a_deck_check_at_the_table_is_judged_logged_and_answered_by_the_hub(broker, event_hub, tmp_path):
    status, body, _ = call(event_hub, "/organiser/event", {"name": "Deck night", "game": "lifeforce",
                                                           "rounds": 2, "seed": 5, "tables": ["t5", "t6"]})
    ev = body["event"]
    for name, deck in (("Ana", ANA), ("Ben", BEN), ("Cy", None), ("Dee", None)):
        assert call(event_hub, f"/organiser/event/{ev}/register", {"name": name, "deck": deck})[0] == 200
    view = call(event_hub, f"/organiser/event/{ev}/start_round", {})[1]["view"]
    ana_at = next(p["table"] for p in view["pairings"] if "Ana" in (p["a"], p["b"]))
    ben_at = next(p["table"] for p in view["pairings"] if "Ben" in (p["a"], p["b"]))
    club_table = {1: "t5", 2: "t6"}
    stores, publishers, tables = {}, {}, {}
    try:
        for t in {club_table[ana_at], club_table[ben_at]}:
            stores[t] = Store(tmp_path / t / "companion.sqlite3")
            publishers[t] = Publisher(stores[t], broker.club(t))
            tables[t] = EventTable(stores[t], publishers[t])     # before start: the retained pairing comes at once
            publishers[t].start()
            wait_until(lambda: tables[t].pairing is not None and tables[t].pairing["event"] == ev)
        clock = Clock()
        # A table listening to another table's deck check: the ACL gives it nothing (scan or verdict).
        spy_as = next(t for t in ("t5", "t6", "t7") if t != club_table[ana_at])
        spy, spied = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="spy", protocol=mqtt.MQTTv5), []
        spy.username_pw_set(broker.club(spy_as).broker.username, broker.club(spy_as).broker.password)
        spy.on_message = lambda c, u, m: spied.append(m.topic)
        subscribed = threading.Event()
        spy.on_subscribe = lambda *a: subscribed.set()
        spy.on_connect = lambda c, u, f, rc, p: c.subscribe([(topic(club_table[ana_at], leaf), 1)
                                                            for leaf in ("deckscan", "deckverdict")])
        spy.connect(broker.club(spy_as).broker.host, broker.club(spy_as).broker.port)
        spy.loop_start()
        assert subscribed.wait(10)

        # Ana's right deck (one card read twice as it slid off): "passed" with the last card, logged once.
        table = tables[club_table[ana_at]]
        check = table.start_deck_check(table.pairing["players"].index("Ana"), "deck-check", stores[
            club_table[ana_at]].tags.lookup, clock)
        assert check.status == "Waiting for the first card…"
        _pass(check, clock, [(f"A{i}", c) for i, c in enumerate(ANA)] + [("A0", "owl")])
        assert len(check.cards) == 6
        wait_until(lambda: check.done)
        assert check.status == "Ana's deck: 6 cards, as registered"
        assert check.sent_final is None                        # no wait: the hub answered at the matching card
        log = [a for a in event_hub.store.log(ev) if a["type"] == "deck_check"]
        assert [(a["player"], a["verdict"]["ok"], a["verdict"]["cards"]) for a in log] == [("p1", True, 6)]
        spy.disconnect()
        spy.loop_stop()
        assert spied == []

        # Ben's deck: one "frog" left out, a "wolf" added.  Nothing until 1.5 s without a card, then counts.
        table = tables[club_table[ben_at]]
        check = table.start_deck_check(table.pairing["players"].index("Ben"), "deck-check",
                                       lambda uid: None, clock)
        wrong = [(f"B{i}", c) for i, c in enumerate(BEN) if c != "frog"] + [("B9", "wolf")]
        _pass(check, clock, wrong)
        assert not check.feed(PadEvent("0.attacker", "X1", "seen", clock.now, "owl"))   # not the deck-check pad
        assert len(check.cards) == 6
        assert check.status == "Next card — the verdict comes 1.5 s after the last one, or press Done"
        clock.now += SETTLE_S - 0.5
        check.poll()
        assert check.sent_final is None
        clock.now += 0.5
        check.poll()
        assert check.status == "Asking the hub…"
        wait_until(lambda: check.done)
        assert check.status == "See the organiser: 1 missing, 1 extra"
        check.send_again()                                     # a repeat is answered, not logged again
        assert len([a for a in event_hub.store.log(ev) if a["type"] == "deck_check"]) == 2

        # The organiser's page names the cards; every public page says only "see the organiser".
        status, html, _ = call(event_hub, f"/organiser/event/{ev}")
        text = html.decode()
        assert status == 200
        assert f"see the organiser (round 1, {club_table[ben_at]}) — missing: 1× frog; not on the list: 1× wolf" \
            in text
        assert f"passed (6 cards, round 1, {club_table[ana_at]})" in text
        assert "Undo: deck check of Ben" in text                 # the log's last action, as the undo button says
        public = call(event_hub, f"/api/event/{ev}", auth=False)[1]
        assert public["deck_checks"] == [{"player": "Ana", "round": 1, "passed": True},
                                         {"player": "Ben", "round": 1, "passed": False}]
        for path in (f"/event/{ev}", f"/event/{ev}/player/p2", f"/api/event/{ev}"):
            page = call(event_hub, path, auth=False)[1]
            page = page if isinstance(page, bytes) else json.dumps(page).encode()
            assert b"frog" not in page and b"wolf" not in page
        assert b"see the organiser" in call(event_hub, f"/event/{ev}/player/p2", auth=False)[1]

        # A table asking about a player who is not at it gets one sentence, and nothing is logged.
        away = next(p for p in ("p1", "p2", "p3", "p4") if p not in table.pairing["ids"])
        other = {**table.pairing, "ids": [away, table.pairing["ids"][0]]}
        table.deck_check = stray = DeckCheck(other, 0, None, lambda uid: None, table.ask, clock)
        _pass(stray, clock, [("Z1", "owl")])
        stray.finish()
        wait_until(lambda: stray.done)
        assert stray.status == "That player is not paired at this table this round."
        assert len([a for a in event_hub.store.log(ev) if a["type"] == "deck_check"]) == 2
    finally:
        for p in publishers.values():
            p.close()
        for s in stores.values():
            s.close()


def test_a_hub_that_does_not_answer_gets_one_sentence_and_the_cards_read_are_kept(tmp_path):
    clock, asked = Clock(), []
    pairing = {"event": 1, "round": 1, "table": 1, "players": ["Ana", "Ben"], "ids": ["p1", "p2"]}
    check = DeckCheck(pairing, 0, None, lambda uid: None, lambda leaf, body: asked.append(body) or False, clock)
    _pass(check, clock, [("A1", "owl"), ("A2", "fox")], pad="any")
    check.finish()
    assert check.status == "Asking the hub…"
    clock.now += ANSWER_WITHIN_S
    assert check.status == ("The hub did not answer within 5 s: the 2 cards read are kept — press Send again, "
                            "or see the organiser.")
    check.send_again()
    assert asked[-1]["final"] and asked[-1]["cards"] == [["A1", "owl"], ["A2", "fox"]]
    check.receive(b"{not json")
    check.receive(json.dumps({"check": "someone else's", "ok": True, "cards": 2, "missing": 0, "extra": 0,
                              "unregistered": 0}).encode())
    assert not check.done
