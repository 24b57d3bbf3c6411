"""Each game's table screen in a real window: a full battle or round through pad events and touches.

Every step checks that no face-down card's name or face appears in any
widget (issue 9, "Hidden information").
"""
import pytest

from companion.engine import redact_event
from ui import harness

from .driver import assert_nothing_hidden_shown, faces, place, play_until, result_open, table_screen


def start(app, game, **options):
    """Home → the game's button (keeping a game in progress when asked) → setup → "Start the game",
    all by touch."""
    app.root.current = "home"
    harness.frames(2)
    title = {"sams": "Sam's Battle Game", "lifeforce": "Lifeforce Battle", "vitaluna": "Vita Luna",
             "territory": "Creature Combat Territory", "arcmage": "Arcmage Original Rules Concept"}[game]
    harness.tap(harness.button(title))
    if app.root.current == "home":                   # a game in progress: Home asks whether to keep it
        harness.frames(1)
        harness.tap(harness.button(f"Keep it, set up {title}"))
    assert app.root.current == "setup"
    setup = app.root.get_screen("setup")
    setup.values.update(options)
    harness.tap(harness.button("Start the game"))
    assert app.root.current == "table", harness.texts()
    return app.controller.session


# Sam's Battle Game, one round by hand (the engine's hand-checked round in tests/games/sams):
NORTH = [(1, "sams.7h"), (2, "sams.4s"), (1, "sams.9s"), (3, "sams.5h"), (3, "sams.2s"), (4, "sams.10h"),
         (1, "sams.3d"), (5, "sams.6c"), (2, "sams.8h"), (4, "sams.2h"), (5, "sams.5s"), (3, "sams.9h")]
SOUTH = [(1, "sams.6s"), (2, "sams.3h"), (3, "sams.10s"), (4, "sams.8c"), (1, "sams.4d"), (5, "sams.7d"),
         (2, "sams.7s"), (3, "sams.2d"), (4, "sams.3s"), (5, "sams.9c"), (1, "sams.2c"), (2, "sams.5d")]


def test_sams_round_scored_on_screen_with_reasons_and_buffs_hidden_until_then(home):
    app = home
    session = start(app, "sams")
    screen = table_screen(app)
    assert "North plays card 1 of 3" in screen.phase_label
    for n, ((nl, nc), (sl, sc)) in enumerate(zip(NORTH, SOUTH)):
        place(app, f"0.lane{nl}", nc)
        assert_nothing_hidden_shown(app)
        if n == 11:
            break                                      # South's 12th card ends the round below
        place(app, f"1.lane{sl}", sc)
        assert_nothing_hidden_shown(app)
    # Before the last card: North lane 1 shows 7♥, a card back for 9♠, and 3♦
    lane1 = screen.zone_boxes["0.lane1"]
    assert faces(lane1) == [("7♥", False), ("?", True), ("3♦", False)]
    assert lane1.info[0] == "visible attack 10 · defence 0 · 1 face down"
    assert not any("9♠" in t for t in harness.texts())
    place(app, "1.lane2", "sams.5d")                   # the 24th card: the lanes are scored
    assert result_open(app)
    shown = harness.texts()
    assert "Lane 1: North attack 10 ≥ South defence 8 — North wins" in shown
    assert any(t.startswith("Round 1: North wins 3 lanes to 0") for t in shown)
    assert faces(screen.zone_boxes["0.lane1"]) == [("7♥", False), ("9♠", False), ("3♦", False)]
    assert screen.counter_boxes["vp.0"].value == 1 and screen.counter_boxes["vp.1"].value == 0
    harness.tap(harness.button("Back to the table"))
    harness.tap(harness.button("Next round"))          # the confirm for the next round, either player's
    assert session.state["round"] == 2 and "South plays card 1 of 3" in screen.phase_label
    assert screen.zone_boxes["0.lane1"].cards == []    # the simulated table was cleared like a real one


def test_a_rejected_scan_says_why_and_where(home):
    app = home
    start(app, "sams")
    place(app, "1.lane1", "sams.7h")                   # South's lane, but North plays first
    banner = table_screen(app).ids.banner
    assert banner.shown and "it is North's turn" in banner.text and "7♥" in banner.text
    assert app.controller.session.actions == []


def test_counters_are_adjustable_by_touch_and_undo_redo_work(home):
    app = home
    session = start(app, "sams")
    screen = table_screen(app)
    vp = screen.counter_boxes["vp.1"]
    harness.tap(vp)                                    # opens the adjuster
    assert "Correct South's VP" in harness.texts()
    harness.tap(harness.button("+"))
    assert session.state["vp"] == [0, 1] and vp.value == 1
    harness.tap(harness.button("Done"))
    harness.tap(harness.button("Undo"))
    assert session.state["vp"] == [0, 0] and vp.value == 0
    harness.tap(harness.button("Redo"))
    assert vp.value == 1


def battle_decided(app):
    return result_open(app)


@pytest.mark.parametrize("game, seed", [("lifeforce", 3), ("vitaluna", 5), ("territory", 2), ("arcmage", 4)])
def test_each_game_plays_a_battle_through_the_screen(home, game, seed):
    """Random legal play through pad events and touches until the first battle is decided; the
    result view shows the engine's explanation, and nothing face down is ever on screen."""
    app = home
    session = start(app, game)
    seen = []
    session.subscribe(lambda s, events: seen.extend(redact_event(e, None) for e in events))
    play_until(app, seed, lambda a: result_open(a) or session.rules.is_over(session.state))
    decided = [e for e in seen if e["type"] in ("battle_result", "game_over")]
    assert decided, "no battle was decided"
    shown = harness.texts()
    assert decided[-1]["text"] in shown
    view = session.view(None)
    screen = table_screen(app)
    for c in view["counters"]:
        if c["id"].startswith("rest."):
            continue          # Territory's rest counters open from the resting pile's button
        assert screen.counter_boxes[c["id"]].value == c["value"]
    assert screen.phase_label == view["phase_label"]


def test_a_card_seen_on_a_reader_thread_wakes_the_main_loop_and_shows_in_the_next_frame(home):
    """A real reader sees cards on its own thread.  Its PadEvent goes onto the input road, and the
    change it makes is handed to the main loop, which stops sleeping for it (Kivy's free clock, ui.app.configure_kivy): with the default
    clock the card waited out the rest of the frame's 33 ms before anything happened."""
    import threading
    from kivy.clock import Clock
    app = home
    session = start(app, "sams")
    screen = table_screen(app)
    action = next(a for a in session.rules.legal_actions(session.state) if session.rules.scan_for(session.state, a))
    zone, card = session.rules.scan_for(session.state, action)
    harness.frames(1)                                       # a frame just ended: the loop is about to sleep
    reader = threading.Thread(target=app.controller.sim_place, args=(zone, card))
    reader.start()
    reader.join()
    assert app.controller.road.join()                       # the input road applied it, on its own thread
    assert screen.zone_boxes[zone].cards == [], "the reader's or the road's thread touched a widget"
    assert Clock._event.is_set(), "the main loop will sleep out the frame before it sees the card"
    harness.frames(1)
    assert faces(screen.zone_boxes[zone]) == [(app.controller.card_text(card), False)]
