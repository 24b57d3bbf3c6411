"""Issue 25, items 2 and 4: nothing lost by one tap, nobody's colour on the other side.

* a won lane is framed in its winner's own colour (never North's blue on South's side);
* Redraw throws a hand away only on a second tap;
* leaving a game in progress (Menu, then another game) says so and offers to keep or abandon it.
"""
from kivy.graphics import Color, Line

from companion.engine import Rng
from ui import harness, theme

from .driver import result_open, table_screen
from .test_tables import start


def frame_colour(box) -> tuple:
    """The colour the zone's frame is drawn in: the Color instruction before its Line."""
    colour = None
    for instruction in box.canvas.before.children:
        if isinstance(instruction, Color):
            colour = tuple(round(c, 3) for c in instruction.rgba)
        elif isinstance(instruction, Line):
            return colour
    raise AssertionError("the zone draws no frame")


def test_a_won_lane_is_framed_in_its_winners_own_colour(home):
    app = home
    session = start(app, "sams")
    screen = table_screen(app)
    rng = Rng(5)
    seen = set()
    decided = []
    session.subscribe(lambda _s, events: decided.extend(e for e in events if e.get("type") == "battle_result"))
    for _ in range(400):
        session.act(session.rules.random_action(session.state, rng))
        if decided and result_open(app):
            decided.clear()
            screen.result_view.dismiss()
            harness.frames(2)
            for box in screen.zone_boxes.values():
                if box.outcome == "won":
                    seen.add(box.seat)
                    assert frame_colour(box) == tuple(round(c, 3) for c in theme.SEAT_COLOURS[box.seat]), box.zone_id
                    other = theme.SEAT_COLOURS[1 - box.seat]
                    assert frame_colour(box) != tuple(round(c, 3) for c in other)
        if seen == {0, 1} or session.rules.is_over(session.state):
            break
    assert seen == {0, 1}, f"lanes won only by seat(s) {seen}"


def test_redraw_throws_a_hand_away_only_on_a_second_tap(home):
    app = home
    session = start(app, "sams")
    screen = table_screen(app)
    redraw = next(b for b in screen.ids.actions.children if b.text == "Redraw: North")
    harness.tap(redraw)
    assert session.actions == [], "one tap threw the hand away"
    assert redraw.text.startswith("Tap again")
    harness.tap(redraw)
    assert session.actions == [{"type": "redraw", "seat": 0}]


def test_leaving_a_game_in_progress_says_so_and_offers_to_keep_or_abandon_it(home):
    from ui.screens.home import LeaveGame
    app = home
    session = start(app, "sams")
    session.act(session.rules.random_action(session.state, Rng(1)))
    kept = session.id
    harness.tap(harness.button("Menu"))
    assert app.root.current == "home"
    home_screen = app.root.get_screen("home")
    assert "Sam's Battle Game is not finished: it is kept" in home_screen.ids.banner.text
    harness.tap(harness.button("Lifeforce Battle"))
    assert app.root.current == "home", "another game's setup opened without a word"
    modal = next(w for w in harness.walk() if isinstance(w, LeaveGame))
    assert "Sam's Battle Game (game #%d, 1 action) is not finished" % kept in modal.question
    harness.tap(harness.button("Back to the game"))
    assert app.root.current == "table" and app.controller.session.id == kept
    # keep it: Lifeforce's setup, and Home offers the Sam's game again
    harness.tap(harness.button("Menu"))
    harness.tap(harness.button("Lifeforce Battle"))
    harness.tap(harness.button("Keep it, set up Lifeforce Battle"))
    assert app.root.current == "setup"
    harness.tap(harness.button("Start the game"))
    from companion.session import unfinished_games
    assert app.controller.session.id != kept
    assert kept in [u.info.id for u in unfinished_games(app.controller.store)]
    # abandon it: two taps, and Home offers to restore it
    lifeforce = app.controller.session.id
    harness.tap(harness.button("Menu"))
    harness.tap(harness.button("Vita Luna"))
    harness.tap(harness.button("Abandon it"))
    assert app.root.current == "home" and app.controller.session.id == lifeforce, "one tap abandoned the game"
    harness.tap(harness.button("Tap again to abandon it"))
    assert app.root.current == "setup" and app.controller.session is None
    assert any(g.id == lifeforce for g in app.controller.store.games("abandoned"))
    app.root.current = "home"
    harness.frames(2)
    assert harness.button("Restore the abandoned Lifeforce Battle (game #%d, 0 actions)" % lifeforce)


def test_the_card_search_opens_the_on_screen_keyboard_and_its_keys_find_the_card(home):
    """Issue 25, item 6: a touchscreen has no keys; touching the drawer's search brings the docked
    keyboard (digits too: "10h"), whose keys type into the search; Done docks it away."""
    from ui.keyboard import DockedKeyboard
    from ui.simtable import open_panel
    app = home
    start(app, "sams")
    screen = table_screen(app)
    panel = open_panel(screen)
    try:
        harness.frames(2)
        harness.tap(panel.ids.query)
        board = next(w for w in harness.walk() if isinstance(w, DockedKeyboard))
        assert board.shown and board.height > 0 and board.target is panel.ids.query
        field = panel.ids.query
        fx, fy = field.to_window(field.x, field.y)
        assert not (board.y < fy + field.height and fy < board.top), "the keyboard covers the search field"
        for key in ("1", "0", "h"):
            harness.tap(harness.button(key, root=board))
        assert panel.ids.query.text == "10h"
        assert [c.card_id for c in panel.ids.grid.children] == ["sams.10h"]
        harness.tap(harness.button("⌫", root=board))
        assert panel.ids.query.text == "10"
        harness.tap(harness.button("Done", root=board))
        assert not any(isinstance(w, DockedKeyboard) for w in harness.walk())
    finally:
        panel.ids.query.text = ""
        panel.dismiss()
