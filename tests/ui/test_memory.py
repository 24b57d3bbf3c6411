"""Issue 14 (memory above a bare Kivy window): what the app lets go of, in the real window.

The figure itself is `companion bench ui`'s (docs/ui.md, "Measured"); these
tests hold the behaviours it rests on: a closed game's table is freed, no
label keeps the scratch surface its text was drawn in, and a finished game's
summary, dropped once read, comes back when the game is over again.
"""
import gc
import os
import subprocess
import sys
import time
import weakref

import pytest

from ui import harness, memory

from .driver import do, opens_a_result, result_open, table_screen
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


def test_a_finished_games_summary_is_emptied_when_read_and_filled_again(home):
    app = home
    session = start(app, "sams")
    screen = table_screen(app)
    rules = session.rules
    action = play_to_the_last_move(session)
    harness.frames(2)
    if result_open(app):
        screen.result_view.dismiss()
        harness.frames(2)
    view = screen.result_view                         # kept all game, so scoring never waits for it
    do(app, action)                                   # the last move, through the screen
    assert rules.is_over(session.state) and result_open(app) and view.ids.chart.story is not None
    view.dismiss()
    harness.frames(2)
    # the game is over and its summary read: its story, chart and lines go, and it lets go of the table
    assert screen.result_view is view and view.story is None and view.ids.chart.story is None
    assert not view.ids.lines.children and view.screen is None
    app.controller.undo()
    harness.frames(2)
    app.controller.redo()                             # over again: the summary is told again
    harness.frames(2)
    assert result_open(app) and view.game_over and view.screen is screen
    assert view.ids.chart.story is not None and "Results" in [line.text for line in view.ids.lines.children]


def test_tidying_waits_for_a_still_table(home, monkeypatch):
    """A transition arms the tidying, anything happening at the table puts it off, and it runs
    once the table is still.  While it is put off the tidying's timer is stretched to an hour
    (Kivy reads an event's timeout at each tick), so a slow frame on a busy machine cannot run
    it early; then it gets back its :data:`memory.STILL` and must run with no further event."""
    app = home
    memory.tidy_soon()
    event = memory._tidy_event
    monkeypatch.setattr(event, "timeout", 3600.0)
    start(app, "sams")                                # a transition and a move re-arm it
    assert memory._pending and event.is_triggered
    harness.frames(2)
    armed_at = event._last_dt                         # the clock's tick it was (re)armed at
    harness.frames(1)
    app.controller.dispatch("on_session_events", [])  # something happened: it waits again
    assert memory._pending and event.is_triggered
    assert event._last_dt > armed_at, "the tidying was not put off by what happened"
    event.timeout = memory.STILL
    waited_until = time.monotonic() + 120             # a bound, not a timing: frames until it is tidied
    while memory._pending and time.monotonic() < waited_until:
        harness.frames(1)
    assert not memory._pending and not event.is_triggered


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
    seen_alive = alive_when_the_next_table_is_built(old, lambda: app.controller.start_game("lifeforce", {}, seed=2))
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
    app.controller.start_game("lifeforce", {}, seed=2)
    harness.frames(2)
    assert ("a text only this table showed", 20, False, None) not in widgets._fit_cache
    assert widgets._fit_cache                             # the new table measured its own
    # a rematch keeps its table but not the last game's texts (kept, they grew by ~1,700 small
    # entries a game until the cache was cleared at 4,000: `companion bench ui` after five games
    # grew 0.1 MB a game)
    widgets.measure("a text only the last game showed", 20, False, None)
    app.controller.start_game("lifeforce", {}, seed=3)
    harness.frames(2)
    assert ("a text only the last game showed", 20, False, None) not in widgets._fit_cache


def test_the_measured_texts_keep_the_latest_and_a_summary_forgets_them(home):
    """All game long the measured texts grew to ~1,400 (~0.35 MB), all made during play and alive
    when the summary was built over the finished game's table: the app's busiest moment for memory
    (docs/ui.md, memory).  The cache keeps the latest; the summary forgets the game's."""
    from ui import widgets
    app = home
    session = start(app, "sams")
    texts = [f"sentence {n} of a long game" for n in range(widgets.MAX_MEASURED + 40)]
    for text in texts:
        widgets.measure(text, 20, False, None)
    assert len(widgets._fit_cache) <= widgets.MAX_MEASURED and len(widgets._word_cache) <= widgets.MAX_WORDS
    assert (texts[-1], 20, False, None) in widgets._fit_cache and (texts[0], 20, False, None) not in widgets._fit_cache
    last = play_to_the_last_move(session)
    harness.frames(2)
    if result_open(app):
        table_screen(app).result_view.dismiss()
    widgets.measure("a sentence of this game", 20, False, None)
    do(app, last)
    harness.frames(3)
    assert result_open(app) and table_screen(app).result_view.game_over
    assert ("a sentence of this game", 20, False, None) not in widgets._fit_cache


def test_a_summary_lists_its_results_and_turning_points_in_one_label_each(home):
    """~20 labels of ~35 KB each, made over the finished game's table, set the memory the app kept
    after a game; the words stay the same, each entry's indent marks where it begins."""
    from ui.screens.result import result_blocks
    summary = ["North wins the game 5–3", "Results", "  Round 1: North wins 2 lanes to 1",
               "  Round 2: a tie at 1 lane each", "Turning points", "  Action 9: North leads, VP 1–0"]
    assert result_blocks(summary) == ["North wins the game 5–3", "Results",
                                      "  Round 1: North wins 2 lanes to 1\n  Round 2: a tie at 1 lane each",
                                      "Turning points", "  Action 9: North leads, VP 1–0"]
    battle = ["North plays 7♥ on lane 1", "Round 1: all buffs are turned face up", "Lane 1: North wins",
              "Lane 2: a draw"]
    assert result_blocks(battle) == battle                   # a round's result: a label a line, as before
    app = home
    session = start(app, "sams")
    last = play_to_the_last_move(session)
    harness.frames(2)
    if result_open(app):
        table_screen(app).result_view.dismiss()
    do(app, last)
    harness.frames(3)
    view = table_screen(app).result_view
    shown = [line.text for line in view.ids.lines.children[::-1]]
    assert "\n".join(shown) == "\n".join(view.lines) and "Results" in shown
    assert len(shown) <= 5 < len(view.lines)


def test_a_new_game_from_the_summary_is_built_once_the_old_table_is_gone(home):
    """The summary let go of its table only when it was freed, and the button that closes it
    outlives the tap: Kivy's double- and triple-tap check keeps the touch for 0.4 s, and Kivy's
    buttons file themselves in their touch.  So the old table lived on while the next game's was
    built; a closed summary now lets go of its table at once."""
    app = home
    session = start(app, "sams")
    action = play_to_the_last_move(session)
    harness.frames(2)
    screen = table_screen(app)
    if result_open(app):
        screen.result_view.dismiss()
    do(app, action)                                   # the last move: the summary opens
    assert result_open(app) and screen.result_view.game_over
    harness.tap(harness.button("New game"))           # to the setup screen, the summary closed
    assert app.root.current == "setup"
    old = weakref.ref(screen)
    del screen
    seen_alive = alive_when_the_next_table_is_built(old, lambda: start(app, "vitaluna"))
    assert seen_alive == [False], "the old table was still alive when the next game's table was built"
    assert app.root.current == "table" and app.controller.session is not session


def board_picture(screen) -> list[tuple]:
    """What a table shows, widget by widget: kind, place, size, words, cards, marks, visibility."""
    picture = []
    for w in harness.walk(screen):
        entry = [type(w).__name__, tuple(round(v) for v in (*w.pos, *w.size)), round(w.opacity, 2), w.disabled]
        for attr in ("text", "choices", "cards", "note", "outcome", "reason", "highlight", "value", "title",
                     "info", "lines", "shown", "hidden", "seat", "owner"):
            value = getattr(w, attr, None)
            if value is not None and not callable(value):
                entry.append((attr, repr(value)))
        picture.append(tuple(entry))
    return picture


def moves(session, n: int, seed: int) -> None:
    from companion.engine import Rng
    rng = Rng(seed)
    for _ in range(n):
        if session.rules.is_over(session.state):
            return
        session.act(session.rules.random_action(session.state, rng))
        harness.frames(2)


@pytest.mark.parametrize("game", ["sams", "lifeforce", "vitaluna", "territory", "arcmage"])
def test_a_rematch_plays_on_the_same_table_and_it_shows_what_a_new_one_would(home, game):
    """Rematch keeps the board it was tapped on (no new table a game: a new one spread the app's
    memory over ~2 MB more of the heap), and nothing of the game before stays on it: after the
    tap and after the next moves it is, widget for widget, a table built for the new game."""
    app = home
    session = start(app, game)
    moves(session, 40, seed=3)                        # notes, marks, the feed, results on the board
    action = play_to_the_last_move(session)
    harness.frames(2)
    screen = table_screen(app)
    if result_open(app):
        screen.result_view.dismiss()
    do(app, action)
    assert result_open(app) and screen.result_view.game_over
    harness.tap(harness.button("Rematch"))
    harness.frames(3)
    again = app.controller.session
    assert again is not session and again.options == session.options
    assert table_screen(app) is screen and screen.session is again
    kept = [board_picture(screen)]
    moves(again, 6, seed=5)
    kept.append(board_picture(screen))

    app.controller.close_session()                    # the same game on a table built for it
    harness.frames(2)
    app.controller.start_game(game, dict(session.options), seed=again.seed)
    harness.frames(3)
    built = table_screen(app)
    assert built is not screen
    fresh = [board_picture(built)]
    moves(app.controller.session, 6, seed=5)
    fresh.append(board_picture(built))
    assert kept[0] == fresh[0]
    assert kept[1] == fresh[1]


def test_another_game_or_other_options_get_a_table_built_for_them(home):
    app = home
    start(app, "sams")
    screen = table_screen(app)
    app.controller.start_game("sams", {"players": ["Ada", "Bo"]}, seed=1)
    harness.frames(2)
    assert table_screen(app) is not screen and "Ada" in harness.texts(table_screen(app))
    screen = table_screen(app)
    app.controller.start_game("lifeforce", {}, seed=1)
    harness.frames(2)
    assert table_screen(app) is not screen


def test_a_second_game_makes_no_chips(home):
    """Chips a zone no longer shows are kept for any zone's next cards: when each zone kept its
    own four, a game of Sam's made and dropped some 16 after its first rounds."""
    from ui.widgets import CardChip
    app = home

    def chips():
        gc.collect()
        return {id(o) for o in gc.get_objects() if type(o) is CardChip}
    for seed in (1, 2):
        app.controller.start_game("sams", {}, seed=seed)
        harness.frames(2)
        screen = table_screen(app)
        if seed == 2:
            made_before = chips()
        session = app.controller.session
        from companion.engine import Rng
        rng = Rng(seed)
        while not session.rules.is_over(session.state):
            events = session.act(session.rules.random_action(session.state, rng))
            harness.frames(1)
            # only a move that decides something opens the result view: only then is it waited for
            if opens_a_result(events) and result_open(app) and not session.rules.is_over(session.state):
                screen.result_view.dismiss()
        assert result_open(app)
        screen.result_view.dismiss()
    assert chips() <= made_before, "the second game made chips of its own"


def test_the_feed_and_the_banner_going_are_tidied_after(home):
    """The feed goes last on a table that settles (5 s after the last move, the notes at 4 s):
    the tidying armed by the notes could run just before it, leaving what the feed's redraw
    freed in the heap (`companion bench ui` after two games: 33 or 29.7 MB, by the timing)."""
    app = home
    start(app, "sams")
    screen = table_screen(app)
    for widget, show in ((screen.ids.feed, lambda w: w.add(["Something happened"])),
                         (screen.ids.banner, lambda w: w.show("A message"))):
        show(widget)
        memory._tidy()                                # tidied before it goes
        assert not memory._pending
        widget.hide()
        assert memory._pending, f"{type(widget).__name__} went without a tidying after it"
        widget.hide()                                 # already gone: nothing new to tidy


def test_a_rematch_opens_a_card_panel_made_for_the_new_game(home):
    """The simulated table's card panel is made for one game (its seats' decks, a solo game's
    hands) and follows that game: a rematch on the same table closes it and makes a new one."""
    from ui.simtable import open_panel
    app = home
    start(app, "sams")
    screen = table_screen(app)
    panel = open_panel(screen)
    harness.frames(2)
    assert panel.parent is not None
    app.controller.start_game("sams", {}, seed=9)
    harness.frames(2)
    assert table_screen(app) is screen and panel.parent is None
    again = open_panel(screen)
    harness.frames(2)
    assert again is not panel and again.parent is not None and again._session is app.controller.session
    again.dismiss()



def test_the_simulated_table_imports_no_solo_player():
    """What the app and its simulated table import for a two-player game leaves the solo players
    out: Sam's player builds ~2.6 MB of tables when imported (companion.games.sams.playout), which
    `companion bench ui` counted in the app's memory after two games (docs/ui.md, "Start and
    memory, issue 25"). A fresh interpreter: this one has imported everything."""
    probe = ("import sys, ui.controller, hardware.sources, companion.cli; companion.cli.build_parser(); "
             "print(sorted(m for m in sys.modules if m.startswith(('companion.solo', 'companion.games.sams.playout'))))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1"})
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "[]"
