"""Issue 26: a card on the (simulated) table enters the game by the input road, never through the screen."""
import threading

import pytest

from companion.engine import IllegalAction
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
        app.controller.undo()                                                   # a touch: also on the road
        harness.frames(2)
        assert session.actions == [] and set(changed_on) == {app.controller.road.thread}
    finally:
        stop()


def test_a_touch_never_waits_for_a_busy_road_and_its_refusal_still_reaches_the_banner(home):
    """A touch is handed over like a pad event: while the road is busy (a slow reader's event, a
    listener) the screen goes on, and the verdict comes back by the session's events."""
    app = home
    session = start(app, "sams")
    screen = table_screen(app)
    action = {"type": "next_round", "seat": 0}                  # nothing played yet: the rules refuse it
    with pytest.raises(IllegalAction) as refused:
        session.rules.apply(session.state, action)
    gate = threading.Event()
    app.controller.road.submit(lambda _session: gate.wait(30))  # the road is busy until the gate opens
    try:
        screen.send(action)                                     # returns while the road is still blocked
        assert not gate.is_set() and not app.controller.road.join(0)
        assert screen.ids.banner.text != str(refused.value)
    finally:
        gate.set()
    harness.frames(2)                                           # the road applies it; a Clock tick shows it
    assert screen.ids.banner.shown and screen.ids.banner.text == str(refused.value)
    assert session.actions == []


def test_undo_never_waits_for_a_busy_road_and_says_what_it_undid_once_applied(home):
    """Issue 26: the screen's Undo is handed to the road like a touch.  While the road is held by a
    slow item, the touch returns and a frame still runs (the Kivy thread is free); once the road is
    released the undo is applied there and the next frames say "Undone: …" with the log's words."""
    from kivy.base import EventLoop
    app = home
    session = start(app, "sams")
    app.controller.sim_place("0.lane1", "sams.7h")
    harness.frames(2)
    screen = table_screen(app)
    assert len(session.actions) == 1
    gate = threading.Event()
    app.controller.road.submit(lambda _session: gate.wait(30))  # the road is busy until the gate opens
    ran = []
    try:
        screen.undo()                                           # returns while the road is still blocked
        from kivy.clock import Clock
        Clock.schedule_once(lambda _dt: ran.append(len(session.actions)), -1)
        EventLoop.idle()                                        # a frame runs meanwhile, on the Kivy thread
        assert ran == [1] and not gate.is_set() and not app.controller.road.join(0)
        assert not screen.ids.banner.text.startswith("Undone")
    finally:
        gate.set()
    harness.frames(2)                                           # the road applies it; the next frames say it
    assert session.actions == []
    assert screen.ids.banner.shown and screen.ids.banner.text == "Undone: North opens lane 1 with 7♥"
    screen.redo()
    harness.frames(2)
    assert len(session.actions) == 1 and screen.ids.banner.text == "Redone: North opens lane 1 with 7♥"
