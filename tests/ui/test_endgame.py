"""Issue 14 items 6–8 in the real window: the end-of-game summary, History you can open, two taps.

Games are played to their end by the session (random legal actions, seeded) and
the last action through the screen, as a player's last card would come.
"""
import json

from companion.engine import Rng
from companion.records import replay
from ui import harness

from .driver import do, opens_a_result, result_open, table_screen
from .test_tables import start


def play_to_the_end(app, seed, keep_last=1):
    """Random legal actions until the game is over; the last ``keep_last`` go through the screen."""
    session = app.controller.session
    rules = session.rules
    rng = Rng(seed)
    history = []
    while not rules.is_over(session.state):
        action = rules.random_action(session.state, rng)
        history.append(action)
        session.act(action)
    while len(session.actions) and keep_last:
        session.undo()
        keep_last -= 1
    harness.frames(2)
    table_screen(app).result_view.dismiss()
    banner = table_screen(app).ids.banner
    assert banner.text.startswith("Undone: ")
    harness.tap(banner)                       # "Undone: …" lies over the top lanes; a touch puts it away
    assert not banner.shown
    for action in history[len(session.actions):]:
        do(app, action)
    return session


def test_end_of_game_summary_chart_rematch_and_export(home):
    app = home
    session = start(app, "sams")
    session.options["players"] = session.options["players"]
    play_to_the_end(app, seed=11)
    assert session.rules.is_over(session.state) and result_open(app)
    view = table_screen(app).result_view
    winner = session.rules.result(session.state)["winner"]
    names = session.options["players"]
    shown = harness.texts()
    assert f"{names[winner]} wins Sam's Battle Game" in shown
    assert "Results" in shown and any(t.strip().startswith("Round 1:") for t in shown)
    chart = view.ids.chart
    a, b = chart.story.series
    assert chart.story.metric == "VP" and len(a) == len(session.actions) + 1
    assert max(a[-1], b[-1]) == 5 and (a[-1], b[-1]) == tuple(session.state["vp"])
    assert chart.width > 150 and len(chart.canvas.children) > 4          # drawn, not just computed
    assert f"VP {a[-1]}–{b[-1]}" in view.subtitle
    # Export: the record on disk replays to the same winner.
    harness.tap(harness.button("Export record"))
    path = view.subtitle.split("Record written to ", 1)[1]
    _rules, state = replay(json.load(open(path, encoding="utf-8")))
    assert session.rules.result(state)["winner"] == winner
    # Rematch: same game, players and options, a fresh game with no actions.
    old_id, old_options = session.id, dict(session.options)
    harness.tap(harness.button("Rematch"))
    new = app.controller.session
    assert new.id != old_id and new.rules.name == "sams" and new.actions == []
    assert new.options == old_options and app.root.current == "table"


def test_lifeforce_summary_keeps_the_decks_for_a_rematch(home):
    app = home
    session = start(app, "lifeforce")
    decks = session.options["decks"]
    # A random Lifeforce game runs to ~2,500 actions (minutes of screen refreshes); a few battles
    # and then a forfeit, by two touches as at the table, end it just the same.
    rng, battles = Rng(5), 0
    while battles < 3:
        action = session.rules.random_action(session.state, rng)
        if action["type"] != "forfeit":
            battles += sum(e.get("type") == "battle_result" for e in session.act(action))
    harness.frames(2)
    table_screen(app).result_view.dismiss()              # the last battle's result, read and closed
    do(app, {"type": "forfeit", "seat": 1})
    assert session.rules.is_over(session.state)
    assert result_open(app)
    story = table_screen(app).result_view.story
    assert story.metric == "Graveyard" and story.result is not None
    harness.tap(harness.button("Rematch"))
    assert app.controller.session.options["decks"] == decks


def test_history_opens_a_past_game_and_steps_through_it_without_showing_face_down_cards(home):
    app = home
    session = start(app, "sams")
    play_to_the_end(app, seed=11)
    game_id, players = session.id, session.options["players"]
    winner = session.rules.result(session.state)["winner"]
    harness.tap(harness.button("Home"))
    harness.tap(harness.button("History"))
    row = [t for t in harness.texts() if t.startswith(f"#{game_id} ")]
    assert row and f"{players[winner]} won, VP " in row[0] and "North v South" in row[0]
    opener = harness.button(row[0])
    app.root.get_screen("history").ids.scroll.scroll_to(opener, animate=False)
    harness.frames(3)
    opener.dispatch("on_release")                      # (a touch here can land on the scroll bar after many games)
    harness.frames(2)
    replay_screen = app.root.get_screen("replay")
    assert app.root.current == "replay"
    steps = replay_screen.story.steps
    assert replay_screen.position == f"{len(steps)} / {len(steps)}"
    harness.tap(harness.button("|◀"))
    assert replay_screen.position == f"0 / {len(steps)}"
    assert all(box.cards == [] for box in replay_screen.zone_boxes.values())
    for n in range(1, 4):                               # North 7♥-style plays: step by step
        harness.tap(harness.button("▶"))
        assert replay_screen.step == n and replay_screen.step_text.startswith(f"{n}. ")
    # Every step shows what the shared screen showed then: a face-down buff is a card back.
    backs = 0
    for n in range(len(steps)):
        replay_screen.show(n)
        view = replay_screen.story.start_view if n == 0 else steps[n - 1].view
        for zone_id, box in replay_screen.zone_boxes.items():
            cards = view["zones"][zone_id]["cards"]
            assert [hidden for _t, hidden in box.cards] == [isinstance(c, dict) for c in cards[-3:]]
            backs += sum(1 for c in cards if isinstance(c, dict))
        if backs and n > 40:
            break
    assert backs, "no face-down card in a whole game of Sam's"
    harness.tap(harness.button("battle ▶"))
    assert steps[replay_screen.step - 1].decided
    harness.tap(harness.button("Export"))
    assert "Record written to" in replay_screen.ids.banner.text
    harness.tap(harness.button("Back"))                 # → History
    assert app.root.current == "history"
    harness.tap(harness.button("Back"))                 # → Home, not a live table
    assert app.root.current == "home"


def test_history_back_returns_to_the_table_it_was_opened_from(home):
    app = home
    start(app, "sams")
    harness.tap(harness.button("Log"))
    assert app.root.current == "history"
    harness.tap(harness.button("Back"))
    assert app.root.current == "table"


def test_abandon_takes_two_taps_and_an_abandoned_game_can_be_restored(home):
    from .driver import place
    app = home
    session = start(app, "sams")
    place(app, "0.lane1", "sams.7h")
    game_id = session.id
    app.controller.close_session()
    app.root.current = "home"
    harness.frames(2)
    home_screen = app.root.get_screen("home")
    home_screen.refresh()
    def status():
        return next(g.status for g in app.controller.store.games() if g.id == game_id)

    harness.tap(harness.button("Abandon"))
    assert status() == "playing", "one tap abandoned the game"
    harness.tap(harness.button("Tap again to abandon"))
    assert status() == "abandoned"
    restore = [t for t in harness.texts() if t.startswith("Restore the abandoned Sam's")]
    assert restore and f"game #{game_id}, 1 action)" in restore[0]
    harness.tap(harness.button(restore[0]))
    assert app.root.current == "table" and app.controller.session.id == game_id
    assert [(faces[0], hidden) for faces, hidden in table_screen(app).zone_boxes["0.lane1"].cards] == [("7♥", False)]


def test_forfeit_takes_a_second_tap(home, confirm_clock):
    app = home
    session = start(app, "lifeforce")
    screen = table_screen(app)
    forfeit = {"type": "forfeit", "seat": 1}
    assert forfeit in session.rules.legal_actions(session.state)
    from ui.widgets import FitButton
    button = FitButton()                              # the button the screen makes for it
    screen._style(button, forfeit)
    screen.ids.actions.add_widget(button)
    harness.frames(2)
    harness.tap(button)
    assert not session.rules.is_over(session.state), "one tap forfeited the game"
    assert button.armed and button.choices[0].startswith("Tap again")
    harness.tap(button)
    assert session.rules.is_over(session.state)
    assert session.rules.result(session.state)["winner"] == 0
    table_screen(app).result_view.dismiss()


def test_an_action_button_made_over_for_another_action_forgets_a_first_tap(home, confirm_clock):
    """The table restyles its action buttons when the actions change instead of making new ones
    (speed); a first tap on the old action must not confirm the new one with a single tap."""
    from ui.confirm import second_tap
    from .driver import place
    app = home
    session = start(app, "sams")
    screen = table_screen(app)
    buttons = screen.ids.actions.children[::-1]
    assert [b.text for b in buttons] == ["Redraw: North", "Redraw: South"]
    for button in buttons:
        assert not second_tap(button) and button.armed    # a first tap, as on a forfeit
    action = session.rules.random_action(session.state, Rng(3))
    zone, card = session.rules.scan_for(session.state, action)
    place(app, zone, card)                                # North has played: only South may redraw
    harness.frames(2)
    now = screen.ids.actions.children
    assert [b.text for b in now] == ["Redraw: South"]
    assert now[0] in buttons, "the button was made again, not restyled"
    assert not now[0].armed and not any(c.startswith("Tap again") for c in now[0].choices)
    confirm_clock.advance(5.0)                            # past the old first tap's few seconds
    assert now[0].text == "Redraw: South"


def test_a_whole_game_makes_no_more_action_buttons_than_it_shows_at_once(home):
    """Buttons not needed for the present actions are kept for the next ones: made again each
    time the actions came back, some 65 a game of Sam's were garbage that spread the app's memory."""
    from ui.tables.generic import MAX_ACTION_BUTTONS
    app = home
    session = start(app, "sams")
    screen = table_screen(app)
    rules, rng = session.rules, Rng(7)
    seen = {}                                             # held, so that no id is used twice
    while not rules.is_over(session.state):
        events = session.act(rules.random_action(session.state, rng))
        harness.frames(1)
        # only a move that decides something opens the result view: only then is it waited for
        if opens_a_result(events) and result_open(app) and not rules.is_over(session.state):
            screen.result_view.dismiss()
        seen.update((id(button), button) for button in screen.ids.actions.children)
    assert 0 < len(seen) <= MAX_ACTION_BUTTONS
    screen.result_view.dismiss()
