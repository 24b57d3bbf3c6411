"""The table's pairing screen at a club event (ui.pairing) in the real window: the words the players read,
the seat buttons, *Swap seats*, and the game started with the names as the players sit."""
from __future__ import annotations

import json

import pytest

from companion.club.eventtable import EventTable
from companion.session import Session, Store
from tests.club.conftest import broker  # noqa: F401  (a real Mosquitto for the deck check)
from tests.club.pairing_shots import PAIRING
from tests.club.test_event_hub import event_hub  # noqa: F401  (the real hub on it)

pytestmark = pytest.mark.ui


def test_the_pairing_screen_says_who_sits_where_and_starts_the_game_with_those_names(app, tmp_path):
    from kivy.core.window import Window

    from ui import harness
    from ui.pairing import PairingView
    store = Store(tmp_path / "table" / "companion.sqlite3")
    table = EventTable(store)
    started = []
    view = PairingView(table, lambda t: started.append(t.start(Session.start, seed=1)), size=Window.size)
    Window.add_widget(view)
    try:
        harness.frames(2)

        def seats():
            return [[h.where.text, h.name.text, h.state.text, h.button.text] for h in view.halves]
        assert view.headline.text == "Waiting for the organiser's pairing…"
        assert view.halves[0].button.disabled and view.swap_button.disabled
        table.receive(json.dumps(PAIRING).encode())           # as the publisher's MQTT thread hands it over
        harness.frames(3)
        assert view.headline.text == "Round 2 · Table 5: Ana (North) vs Ben (South)"
        assert seats() == [["North", "Ana", "Press your seat's button", "I am Ana"],
                           ["South", "Ben", "Press your seat's button", "I am Ben"]]
        harness.tap(view.halves[1].button)
        assert seats()[1][2] == "Confirmed: ready to play" and seats()[0][2] == "Press your seat's button"
        assert not started
        harness.tap(view.swap_button)                         # they sit the other way round: both press again
        assert view.headline.text == "Round 2 · Table 5: Ben (North) vs Ana (South)"
        assert [s[2] for s in seats()] == ["Press your seat's button"] * 2
        view.press(0)                                          # North's physical button, as the app hands it on
        harness.tap(view.halves[1].button)
        assert [s.options["players"] for s in started] == [["Ben", "Ana"]]
        table.receive(b"")                                     # the hub cleared it (settled, or undone)
        harness.frames(3)
        assert view.headline.text == "Waiting for the organiser's pairing…"
    finally:
        Window.remove_widget(view)
        store.close()


def test_over_the_app_the_pairing_starts_the_game_and_the_players_answer_its_result(home):
    import random

    from companion.club.outbox import Outbox
    from ui import harness
    from ui.eventwiring import EventOverlay
    app = home
    store = app.controller.store
    table = EventTable(store)
    table.outbox = Outbox("t9").attach(store)          # as a club table's publisher attaches it
    try:
        overlay = EventOverlay(app, table)
        table.receive(json.dumps({**PAIRING, "format": "bo1"}).encode())
        harness.frames(3)
        assert overlay.pairing_modal.parent is not None                     # it opened over the home screen
        app.controller.road.confirm(0)          # North's physical button, through the input road
        harness.frames(2)
        assert overlay.pairing_view.halves[0].state.text == "Confirmed: ready to play"
        harness.tap(overlay.pairing_view.halves[1].button)
        session = app.controller.session
        assert session is not None and session.options["players"] == ["Ana", "Ben"]
        assert overlay.pairing_modal.parent is None
        rng = random.Random(3)
        while not session.rules.is_over(session.state):
            app.controller.road.act(session.rules.random_action(session.state, rng))
        harness.frames(4)
        assert overlay.answer_modal is not None
        view = overlay.answer_modal.children[0]
        winner = session.rules.result(session.state)["winner"]
        assert view.headline.text == (f"Result: {['Ana', 'Ben'][winner]} won — do you agree?" if winner is not None
                                      else "Result: a draw — do you agree?")
        assert [h.state.text for h in view.halves] == ["Is this the result?"] * 2
        from kivy.core.window import Window
        assert Window.children[0] is overlay.answer_modal           # over the game's summary
        assert app.controller.road.confirm(0) == [{"type": "seat_pressed", "seat": 0}]    # North agrees
        harness.frames(2)
        assert [h.state.text for h in view.halves] == ["Agreed", "Is this the result?"]
        # Issue 28: Ana drops from the event herself; the button asks twice.
        drop = view.halves[0].drop
        assert [h.drop.text for h in view.halves] == ["I drop from the event"] * 2
        harness.tap(drop)
        assert drop.text == "Drop Ana from Friday Club? Tap again to drop" and not table.has_dropped(session, 0)
        harness.tap(drop)
        assert (drop.text, drop.disabled) == ("Ana has dropped: the organiser can undo it", True)
        assert view.halves[1].drop.text == "I drop from the event" and overlay.answer_modal is not None
        harness.tap(view.halves[1].dispute)
        assert overlay.answer_modal is None and not table.needs_game()
        assert app.controller.road._press_taker is None            # the buttons confirm in games again
        with store.read() as db:
            rows = [json.loads(b) for (b,) in db.execute("SELECT body FROM outbox WHERE game_id = ? ORDER BY n",
                                                         (session.id,))]
        assert [(r["kind"], r.get("seat")) for r in rows[-3:]] == [("confirm", 0), ("drop", 0), ("dispute", 1)]
        assert all(r["event_ref"] == {"event": 1, "round": 2, "table": 5, "seats": ["p1", "p2"]} for r in rows)
    finally:
        from kivy.core.window import Window
        from kivy.uix.modalview import ModalView
        store.on_change = None
        table.listeners.clear()
        for child in list(Window.children):             # the game's summary: the next test starts at home
            if isinstance(child, ModalView):
                child.dismiss(animation=False)
        app.controller.close_session()
        harness.frames(2)


def test_a_judge_checks_a_deck_from_the_pairing_through_the_hub_and_reads_the_verdict(home, broker, event_hub):
    """The pairing's *Deck check* → the deck-check view; the pads (through the input road) count the cards;
    the real hub (real Mosquitto) answers "as registered", or with counts after *Done*."""
    import time

    from kivy.core.window import Window

    from companion.club.outbox import Publisher
    from companion.table import PadEvent
    from tests.club.test_event_hub import call
    from ui import harness
    from ui.eventwiring import EventOverlay
    app = home
    decks = {"Ana": ["owl", "owl", "fox", "hare"], "Ben": ["elk", "lynx", "crow", "frog"]}
    ev = call(event_hub, "/organiser/event", {"name": "Deck night", "game": "lifeforce", "rounds": 1, "seed": 2,
                                              "tables": ["t7"]})[1]["event"]
    for name, deck in decks.items():
        call(event_hub, f"/organiser/event/{ev}/register", {"name": name, "deck": deck})
    call(event_hub, f"/organiser/event/{ev}/start_round", {})
    store = app.controller.store
    publisher = Publisher(store, broker.club("t7"))
    table = EventTable(store, publisher)
    publisher.start()

    def until(check, timeout=60.0):          # a bound for a message that never comes, not a timing
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            harness.frames(1)
            if check():
                return True
        raise AssertionError("not within the time")
    try:
        overlay = EventOverlay(app, table)
        until(lambda: overlay.pairing_modal.parent is not None)
        buttons = overlay.pairing_view.deck_buttons
        names = table.names()
        assert [b.text for b in buttons] == [f"Deck check: {n}" for n in names]
        harness.tap(buttons[names.index("Ana")])
        view = overlay.deck_view
        assert Window.children[0] is overlay.deck_modal
        assert view.headline.text == "Pass Ana's deck over the deck-check pad one card at a time"
        assert (view.count.text, view.status.text) == ("0 cards read", "Waiting for the first card…")
        for i, card in enumerate(decks["Ana"]):
            app.controller.handle_pad_event(PadEvent("deck_check", f"A{i}", "seen", time.monotonic(), card))
            if i == 1:
                until(lambda: view.count.text == "2 cards read")
        until(lambda: view.status.text == "Ana's deck: 4 cards, as registered")
        assert view.count.text == "4 cards read" and app.controller.session is None     # nothing was played
        harness.tap(view.close_button)
        assert overlay.deck_modal is None and app.controller.pad_taker is None
        # Ben: "frog" left out, "owl" added; Done says that was the last card.
        harness.tap(buttons[names.index("Ben")])
        view = overlay.deck_view
        for i, card in enumerate(["elk", "lynx", "crow", "owl"]):
            app.controller.handle_pad_event(PadEvent("deck_check", f"B{i}", "seen", time.monotonic(), card))
        until(lambda: view.count.text == "4 cards read")
        harness.tap(view.done_button)
        until(lambda: view.status.text == "See the organiser: 1 missing, 1 extra")
        assert "frog" not in " ".join(harness.texts(overlay.deck_modal))
        harness.tap(view.close_button)
    finally:
        for modal in (overlay.deck_modal, overlay.pairing_modal):
            if modal is not None:
                modal.dismiss(animation=False)
        app.controller.pad_taker = None
        app.controller.road.take_presses(None)
        table.listeners.clear()
        publisher.close()
        harness.frames(2)
