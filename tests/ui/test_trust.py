"""Issue 25, items 2 and 4: nothing lost by one tap, nobody's colour on the other side.

* a won lane is framed in its winner's own colour (never North's blue on South's side);
* Redraw throws a hand away only on a second tap;
* leaving a game in progress (Menu, then another game) says so and offers to keep or abandon it.

The second-tap windows run on a clock the tests move (``confirm_clock``): whether a second tap
came within four seconds never depends on how fast the machine drew the frames between the taps.
"""
from kivy.core.window import Window
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


def test_redraw_throws_a_hand_away_only_on_a_second_tap(home, confirm_clock):
    app = home
    session = start(app, "sams")
    screen = table_screen(app)
    redraw = next(b for b in screen.ids.actions.children if b.text == "Redraw: North")
    harness.tap(redraw)
    assert session.actions == [], "one tap threw the hand away"
    assert redraw.text.startswith("Tap again")
    confirm_clock.advance(4.0)                       # left alone, it goes back as it was
    assert redraw.text == "Redraw: North" and not redraw.armed
    harness.tap(redraw)
    assert session.actions == [], "a tap after the window closed threw the hand away"
    harness.tap(redraw)
    assert session.actions == [{"type": "redraw", "seat": 0}]


def test_leaving_a_game_in_progress_says_so_and_offers_to_keep_or_abandon_it(home, confirm_clock):
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
    confirm_clock.advance(4.0)                       # the second-tap window closes: the button as it was
    harness.tap(harness.button("Abandon it"))
    assert app.root.current == "home" and app.controller.session.id == lifeforce, "one tap abandoned the game"
    confirm_clock.advance(3.9)                       # a second tap within the window abandons it
    harness.tap(harness.button("Tap again to abandon it"))
    assert app.root.current == "setup" and app.controller.session is None
    assert any(g.id == lifeforce for g in app.controller.store.games("abandoned"))
    app.root.current = "home"
    harness.frames(2)
    assert harness.button("Restore the abandoned Lifeforce Battle (game #%d, 0 actions)" % lifeforce)


def window_rect(w) -> tuple:
    x, y = w.to_window(w.x, w.y)
    return x, y, x + w.width, y + w.height


def covers(a, b) -> bool:
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


def gaps_between_keys(board, picture) -> set:
    """The colours seen in the gaps between the keyboard's first two rows, across its width."""
    rows = [line for line in reversed(board.children)]
    upper, lower = rows[0], rows[1]
    y = round((lower.to_window(lower.x, lower.top)[1] + upper.to_window(upper.x, upper.y)[1]) / 2)
    x0, _y, x1, _t = window_rect(board)
    return {picture.getpixel((x, picture.height - 1 - y))[:3] for x in range(int(x0) + 1, int(x1) - 1)}


def test_the_card_search_opens_the_on_screen_keyboard_and_its_keys_find_the_card(home, tmp_path):
    """Issue 25, item 6: a touchscreen has no keys; touching the drawer's search brings the docked
    keyboard (digits too: "10h"), whose keys type into the search; Done docks it away.  The keyboard
    is solid (nothing of the board shows between its keys) and hides nothing the search needs: at
    800×480 it lies along the window's bottom with the tray lifted onto it (the field and the match
    above the keys, the turn badge and Undo in sight), at 1280×800 in the drawer's lower part (no
    zone, no bar covered); touching the match docks it away, the lanes it may go on back in sight."""
    from PIL import Image
    from ui.keyboard import DockedKeyboard
    from ui.simtable import open_panel
    app = home
    session = start(app, "sams")
    screen = table_screen(app)
    panel = open_panel(screen)
    try:
        harness.frames(2)
        tray = window_rect(panel)
        harness.tap(panel.ids.query)
        board = next(w for w in harness.walk() if isinstance(w, DockedKeyboard))
        assert board.shown and board.height > 0 and board.target is panel.ids.query
        for key in ("1", "0", "h"):
            harness.tap(harness.button(key, root=board))
        assert panel.ids.query.text == "10h"
        assert [c.card_id for c in panel.ids.grid.children] == ["sams.10h"]
        harness.frames(2)
        keys, match = window_rect(board), window_rect(panel.ids.grid.children[0])
        undo = next(w for w in harness.walk(screen.ids.top) if getattr(w, "text", "") == "Undo")
        needed = {"search field": panel.ids.query, "turn badge": screen.ids.active, "Undo": undo}
        hidden = [name for name, w in needed.items() if covers(keys, window_rect(w))]
        assert not hidden and not covers(keys, match), hidden
        assert keys[1] == 0 and window_rect(panel)[1] >= keys[3] - 1      # the tray rides on the keys
        harness.screenshot(tmp_path / "keyboard.png")
        seen = gaps_between_keys(board, Image.open(tmp_path / "keyboard.png").convert("RGB"))
        background = tuple(round(c * 255) for c in theme.BACKGROUND[:3])
        assert all(max(abs(a - b) for a, b in zip(colour, background)) <= 2 for colour in seen), seen
        harness.tap(harness.button("⌫", root=board))
        assert panel.ids.query.text == "10"
        harness.tap(harness.button("Done", root=board))
        assert not any(isinstance(w, DockedKeyboard) for w in harness.walk())
        harness.frames(2)
        assert window_rect(panel) == tray                    # the tray back under the board
        panel.ids.query.text = ""
        Window.size = (1280, 800)                            # the drawer: the keyboard in its lower part
        harness.frames(4)
        harness.tap(panel.ids.query)
        for key in ("1", "0", "h"):
            harness.tap(harness.button(key, root=board))
        harness.frames(2)
        keys, drawer = window_rect(board), window_rect(panel)
        assert drawer[0] - 1 <= keys[0] and keys[2] <= drawer[2] + 1 and drawer[1] - 1 <= keys[1]
        hidden = [z for z, box in screen.zone_boxes.items() if covers(keys, window_rect(box))]
        hidden += [n for n in ("top", "bottom", "active") if covers(keys, window_rect(screen.ids[n]))]
        assert not hidden and not covers(keys, window_rect(panel.ids.query)), hidden
        match = next(c for c in panel.ids.grid.children if c.card_id == "sams.10h")
        assert not covers(keys, window_rect(match))
        harness.tap(match)                                   # the card found: the keyboard docks away
        assert not board.shown and not any(isinstance(w, DockedKeyboard) for w in harness.walk())
    finally:
        Window.size = (800, 480)
        harness.frames(3)
        panel.ids.query.text = ""
        panel.dismiss()


def test_a_long_press_undo_says_what_it_took_back(home):
    """Issue 25: a confirm button held down undoes the last thing a person did (hardware.buttons, on
    gpiozero's mock pins, through the app's input road as at the table).  The screen says what it
    took back, in the log's words, as its own Undo does; the feed and the status line no longer
    tell it, and its note is gone from the lane."""
    import time
    from gpiozero.pins.mock import MockFactory
    from hardware.buttons import ButtonPanel
    from hardware.pins import ButtonSpec
    from .driver import place
    app = home
    session = start(app, "sams")
    screen = table_screen(app)
    place(app, "0.lane3", "sams.7h")
    place(app, "1.lane1", "sams.6s")
    assert len(session.actions) == 2 and screen.zone_boxes["1.lane1"].note
    factory = MockFactory()
    with ButtonPanel([ButtonSpec("south-confirm", 1, 27)], pin_factory=factory, bounce_time=0.02,
                     hold_time=0.05) as panel:
        panel.attach(app.controller.road)
        pin = factory.pin(27)
        pin.drive_low()                                  # held until the undo is applied
        deadline = time.monotonic() + 30
        while len(session.actions) == 2 and time.monotonic() < deadline:
            time.sleep(0.005)
        pin.drive_high()
    assert len(session.actions) == 1, "the long press undid nothing"
    harness.frames(2)
    said = "Undone: South opens lane 1 with 6♠"
    assert screen.ids.banner.shown and screen.ids.banner.text == said
    assert said in harness.texts()
    assert screen.last_event == "North opens lane 3 with 7♥"
    assert not any("South opens lane 1" in line for line in screen.ids.feed.lines), screen.ids.feed.lines
    assert screen.zone_boxes["1.lane1"].note == [] and screen.zone_boxes["1.lane1"].cards == []


def test_a_pile_a_pad_cannot_read_is_told_in_the_banner_by_the_zones_name_and_what_to_do(home):
    """Issue 23, deliverable 2, as the player reads it: a pad that answers but cannot be read (three cards on
    top of each other) puts one sentence in the banner naming the pad as the board does — the player's name
    and the zone, not a pad id — and what to do there: on Sam's lanes (tap pads) the cards go onto their pile
    afterwards; on Vita Luna's board positions (hold pads, one card each) only the card that belongs stays."""
    import time

    from companion.table import UNREAD, PadEvent
    app = home
    for game, zone, then in (("sams", "1.lane3", "then onto its pile"),
                             ("vitaluna", "0.white2", "then leave only the card that belongs there")):
        controller = app.controller
        controller.start_game(game, {"players": ["Alex", "Sam"]}, seed=1)
        harness.frames(2)
        label = next(z.label for z in controller.session.rules.zones(controller.session.options) if z.id == zone)
        assert label.startswith("Sam " if zone.startswith("1.") else "Alex ")
        controller.handle_pad_event(PadEvent(controller._pad_of(zone), "", UNREAD, time.monotonic()))
        harness.frames(2)
        banner = table_screen(app).ids.banner
        assert banner.shown and banner.text == (
            f"{label}: a card could not be read (cards on top of each other). Lift them off and lay the cards "
            f"one at a time, each until it is read, {then}"), banner.text
        assert len(controller.session.actions) == 0              # nothing entered the game
        harness.tap(banner)
