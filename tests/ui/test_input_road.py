"""Issue 26: a card on the (simulated) table enters the game by the input road, never through the screen."""
import threading

from companion.tags import virtual_uid
from ui import harness

from .driver import table_screen
from .test_tables import start


def test_a_placed_card_is_applied_on_the_road_and_the_screen_only_follows(home):
    app = home
    session = start(app, "sams")
    changed_on, sightings = [], []
    app.controller.bind(on_pad_event=lambda _c, ev: sightings.append((ev.uid, ev.kind, threading.current_thread())))
    stop = session.subscribe(lambda s, events: changed_on.append(threading.current_thread()))
    try:
        app.controller.sim_place("0.lane1", "sams.7h")      # the touch on the zone, made on the main thread
        harness.frames(2)
        assert session.actions[-1] == {"type": "play", "seat": 0, "lane": 0, "card": "sams.7h"}
        assert changed_on and set(changed_on) == {app.controller.road.thread}
        assert (virtual_uid("sams.7h"), "seen", threading.main_thread()) in sightings   # the screen saw it
        assert "7♥" in harness.texts(table_screen(app))                        # and shows the card
        assert table_screen(app).undo is not None
        changed_on.clear()
        assert app.controller.undo().startswith("Undone: ")                     # a touch: also on the road
        assert session.actions == [] and set(changed_on) == {app.controller.road.thread}
    finally:
        stop()
