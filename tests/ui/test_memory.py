"""Issue 14 (memory above a bare Kivy window): what the app lets go of, in the real window.

The figure itself is `companion bench ui`'s (docs/ui.md, "Measured"); these
tests hold the behaviours it rests on: a closed game's table is freed, no
label keeps the scratch surface its text was drawn in, and a finished game's
summary, dropped once read, comes back when the game is over again.
"""
import gc
import time
import weakref

from ui import harness, memory

from .driver import do, result_open, table_screen
from .test_tables import NORTH, SOUTH, start


def play_to_the_last_move(session, seed: int = 11) -> dict:
    """Random moves through the session until the next one would end the game; returns that one."""
    from companion.engine import Rng
    rules, rng = session.rules, Rng(seed)
    while True:
        action = rules.random_action(session.state, rng)
        if rules.is_over(rules.apply(session.state, action)[0]):
            return action
        session.act(action)


def alive_when_the_next_table_is_built(old_table: weakref.ref, start_next) -> list[bool]:
    """For each table ``start_next()`` has built: whether ``old_table`` was alive at that moment,
    after a full collection (a table kept alive then makes the heap keep room for both)."""
    from ui import tables
    real = tables.table_screen_for
    seen = []

    def built(name):
        gc.collect()
        seen.append(old_table() is not None)
        return real(name)
    tables.table_screen_for = built
    try:
        start_next()
    finally:
        tables.table_screen_for = real
    return seen


def test_a_closed_games_zones_are_let_go_of_at_once(home):
    """The zones' notes share one timer that every new note puts off: it held the zones of
    every game closed while play went on (about 10 MB a game of Sam's)."""
    from ui.widgets import _NOTES
    app = home
    (nl, nc), (sl, sc) = NORTH[0], SOUTH[0]
    app.controller.start_game("sams", {}, seed=1)
    harness.frames(2)
    old = table_screen(app)
    app.controller.sim_place(f"0.lane{nl}", nc)         # notes on the zones, still on their timer
    app.controller.sim_place(f"1.lane{sl}", sc)
    harness.frames(2)
    zones = set(old.zone_boxes.values())
    assert zones & _NOTES.boxes and old.ids.feed.shown
    app.controller.start_game("sams", {}, seed=2)       # a rematch replaces it
    harness.frames(2)
    assert not zones & _NOTES.boxes
    assert not old.ids.feed.shown and old.ids.feed._hide_event is None


def test_labels_keep_no_text_surface_once_drawn(home):
    app = home
    start(app, "sams")
    harness.frames(3)
    labels = [w for w in harness.walk(table_screen(app)) if hasattr(w, "_label") and w.text]
    assert len(labels) > 20
    kept = [w.text for w in labels if getattr(w._label, "_surface", None) is not None]
    assert not kept, f"labels still holding their drawing surface: {kept[:5]}"


def test_a_finished_games_summary_is_dropped_when_read_and_built_again(home):
    app = home
    session = start(app, "sams")
    screen = table_screen(app)
    rules = session.rules
    action = play_to_the_last_move(session)
    harness.frames(2)
    if result_open(app):
        screen.result_view.dismiss()
        harness.frames(2)
    assert screen.result_view is not None             # mid-game: kept, so scoring never waits for it
    do(app, action)                                   # the last move, through the screen
    assert rules.is_over(session.state) and result_open(app)
    screen.result_view.dismiss()
    harness.frames(2)
    assert screen.result_view is None                 # the game is over: the summary goes
    app.controller.undo()
    harness.frames(2)
    app.controller.redo()                             # over again: the summary is built again
    harness.frames(2)
    assert result_open(app) and screen.result_view.game_over


def test_tidying_waits_for_a_still_table(home):
    app = home
    memory.tidy_soon()
    start(app, "sams")                                # a transition and a move re-arm it
    assert memory._pending
    harness.frames(2)
    app.controller.dispatch("on_session_events", [])  # something happened: it waits again
    assert memory._pending
    until = time.monotonic() + memory.STILL + 0.5
    while memory._pending and time.monotonic() < until:
        harness.frames(1)
    assert not memory._pending


def test_a_new_game_is_built_once_the_old_table_is_gone(home):
    """Built while the old table still lived, the new one made the heap keep room for both
    (~10 MB more after a second game).  What held the old table past its game: the screen
    transition (ended only at the next frame, and then still pointing at the screen it took
    away) and labels' pending redraws (lambdas the clock held)."""
    app = home
    start(app, "sams")
    (nl, nc), _ = NORTH[0], SOUTH[0]
    app.controller.sim_place(f"0.lane{nl}", nc)
    harness.frames(2)
    screen = table_screen(app)
    screen.zone_boxes[f"0.lane{nl}"].flash(["a note"])   # a label with a redraw pending
    old = weakref.ref(screen)
    del screen
    seen_alive = alive_when_the_next_table_is_built(old, lambda: app.controller.start_game("sams", {}, seed=2))
    assert seen_alive == [False], "the old table was still alive when the new one was built"


def test_a_closed_table_forgets_the_texts_it_measured(home):
    """Kept across games, the measured texts (~1,700 entries after three games of Sam's) were
    made while play went on, scattered among the table's own objects, and kept ~2 MB of the
    interpreter's memory from going back after that table was freed."""
    from ui import widgets
    app = home
    start(app, "sams")
    widgets.measure("a text only this table showed", 20, False, None)
    assert ("a text only this table showed", 20, False, None) in widgets._fit_cache
    app.controller.start_game("sams", {}, seed=2)
    harness.frames(2)
    assert ("a text only this table showed", 20, False, None) not in widgets._fit_cache
    assert widgets._fit_cache                             # the new table measured its own


def test_rematch_builds_the_new_table_once_the_old_one_is_gone(home):
    """The summary let go of its table only when it was freed, and the Rematch button that
    closes it outlives the tap: Kivy's double- and triple-tap check keeps the touch for 0.4 s,
    and Kivy's buttons file themselves in their touch.  So the old table lived on while Rematch
    built the next one; a closed summary now lets go of its table at once."""
    app = home
    session = start(app, "sams")
    action = play_to_the_last_move(session)
    harness.frames(2)
    screen = table_screen(app)
    if result_open(app):
        screen.result_view.dismiss()
    do(app, action)                                   # the last move: the summary opens
    assert result_open(app) and screen.result_view.game_over
    old = weakref.ref(screen)
    del screen
    seen_alive = alive_when_the_next_table_is_built(old, lambda: harness.tap(harness.button("Rematch")))
    assert seen_alive == [False], "the old table was still alive when the rematch's table was built"
    assert app.root.current == "table" and app.controller.session is not session
