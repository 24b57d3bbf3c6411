"""The table's pairing screen at a club event (ui.pairing) in the real window: the words the players read,
the seat buttons, *Swap seats*, and the game started with the names as the players sit."""
from __future__ import annotations

import json

import pytest

from companion.club.eventtable import EventTable
from companion.session import Session, Store
from tests.club.pairing_shots import PAIRING

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
