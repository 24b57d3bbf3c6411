"""Issue 17, must show: a whole solo game of Sam's Battle Game in the real window.

The test is the person at the table.  It starts the game by touch (home →
Sam's → "Companion plays: South" → "Start the game"), keeps the physical
cards in a model of the deck (:func:`companion.games.sams.playout.new_game`: who holds
what, the draw pile), and plays with pad events from the simulated table
(``app.controller.source.place``): its own cards on its lanes, each card it
draws for the companion tapped on the companion's hand pad, and the card in
the slot the screen names laid on the lane the screen names.  The companion
decides on its own thread (:class:`companion.solo.seat.SoloSeat`, attached by
the controller) at strength "easy".  "Next round" is touched.

After every step it reads every widget's text in the window: no text may name
a card lying in the companion's holder (or face down on the table), unless the
table saw that card face up earlier in the game (a card played face up in
round 1, shuffled back and drawn again later is history, not a secret).
"""
import random

from companion.games import sams
from companion.games.sams import playout as model
from ui import harness

from .driver import assert_nothing_hidden_shown, option_button, put, result_open, seen_face_up, table_screen
from .layout_checks import all_problems

SOLO = 1                     # South, the near seat
HUMAN = 0


def start_solo(app, seat_name: str = "South", strength: str = "Easy"):
    app.root.current = "home"
    harness.frames(2)
    harness.tap(harness.button("Sam's Battle Game"))
    setup = app.root.get_screen("setup")
    assert app.root.current == "setup"
    harness.tap(option_button(setup, "Companion plays", seat_name))
    harness.tap(option_button(setup, "Companion's strength", strength))
    harness.tap(harness.button("Start the game"))
    assert app.root.current == "table", harness.texts()
    return app.controller.session


def secrets(app) -> set[str]:
    """Names and faces of the cards in the companion's holder the table has never seen face up."""
    session = app.controller.session
    held = set(sams.solo_hand(session.state)) - seen_face_up(app)
    return {t for c in held for t in (app.controller.card_name(c), app.controller.card_text(c))}


def assert_no_secret_shown(app) -> None:
    hidden = secrets(app)
    shown = harness.texts()
    leaks = [(s, t) for s in hidden for t in shown if s in t]
    assert not leaks, f"the companion's cards named on the screen: {leaks[:3]}"
    assert not [t for t in shown if t.startswith("Solo")], "a note speaks of the companion's choice in code words"
    screen = table_screen(app)
    buttons = [screen.ids.primary, *screen.ids.actions.children]
    assert not [b.text for b in buttons if (getattr(b, "action", None) or {}).get("seat") == SOLO
                and b.action["type"] != "next_round"], "a button decides for the companion"
    assert_nothing_hidden_shown(app)


def wait_for_companion(app) -> None:
    """The companion thinks on its own thread; its decision reaches the screen on the next frames."""
    app.controller.solo.wait()
    harness.frames(1)


def test_a_whole_solo_game_of_sams_in_the_window(home):
    app = home
    session = start_solo(app)
    assert session.options["solo_seat"] == SOLO and session.options["solo_strength"] == "easy"
    screen = table_screen(app)
    deck = model.new_game(session.seed)          # the physical cards, in the model's order
    rng = random.Random(session.seed)
    labels: list[str] = []                       # every instruction line the table screen showed
    screen.bind(phase_label=lambda _screen, text: labels.append(text))
    synced = laid_out = 0
    for _step in range(3000):
        # The companion swaps a hand of 5 by itself (on its thread, whenever its turn comes):
        # the person then empties the slots the screen names and draws 3 for it.
        for action in session.actions[synced:]:
            if action["type"] == "redraw":
                deck.apply((model.REDRAW,))
        synced = len(session.actions)
        state = session.state
        if state["phase"] == "over":
            break
        if state["phase"] == "round_over":
            assert result_open(app)
            assert_no_secret_shown(app)
            harness.tap(harness.button("Back to the table"))
            harness.tap(harness.button("Next round"))
            assert session.state["phase"] != "round_over", screen.ids.banner.text
            deck.next_round()
            continue
        # Draw for the companion: each card it drew, face down onto its hand pad.
        held = sams.solo_hand(state)
        for card in [sams.DECK[c] for c in deck.hands[SOLO] if sams.DECK[c] not in held]:
            before = len(session.actions)
            put(app, sams.hand_zone(SOLO), card)
            assert session.actions[before:before + 1] == [{"type": "solo_hand", "seat": SOLO, "card": card}], \
                screen.ids.banner.text
            assert_no_secret_shown(app)
        if not session.state["rounds"] and sams.solo_hand(session.state):
            assert secrets(app), "in round 1 no card in the holder has been seen: the scan checks them all"
        seat = sams.RULES.to_play(session.state)
        if seat == SOLO:
            wait_for_companion(app)
            state = session.state
            if session.actions[-1]["type"] == "redraw":
                continue
            decision = state["solo"]["decision"]
            assert decision is not None, app.controller.solo.errors
            said = screen.phase_label
            assert said.startswith(f"South plays the card in slot {decision['slot'] + 1} face ") \
                and said.endswith(f" on lane {decision['lane'] + 1}"), said
            if laid_out < 3:                     # the instruction fits its bar whole, nothing overlaps
                harness.frames(2)
                assert not all_problems(screen, 1.0), all_problems(screen, 1.0)[:5]
                laid_out += 1
            assert_no_secret_shown(app)
            card = state["solo"]["slots"][decision["slot"]]
            before = len(session.actions)
            put(app, sams.lane_zone(SOLO, decision["lane"]), card)
            assert session.actions[before:before + 1] == [
                {"type": "play", "seat": SOLO, "lane": decision["lane"], "card": card}], screen.ids.banner.text
            deck.apply((model.PLAY, decision["lane"], model.INDEX[card]))
        else:
            card, lane = rng.choice(deck.hands[HUMAN]), rng.randrange(sams.LANES)
            before = len(session.actions)
            put(app, sams.lane_zone(HUMAN, lane), sams.DECK[card])
            # (the companion may already have decided its answer on its own thread: a second action)
            assert session.actions[before:before + 1] == [
                {"type": "play", "seat": HUMAN, "lane": lane, "card": sams.DECK[card]}], screen.ids.banner.text
            deck.apply((model.PLAY, lane, card))
        assert_no_secret_shown(app)
    assert session.state["phase"] == "over"
    assert result_open(app)
    shown = harness.texts()
    winner = session.options["players"][session.state["winner"]]
    assert any(f"{winner} wins the game" in t for t in shown), shown
    # what the person read: the draws, the thinking and the plays, in the companion's words
    assert "Draw 5 cards for South: tap each face down on South's hand pad, then put it in the slot shown" \
        in labels
    assert "South is thinking…" in labels
    plays = [t for t in labels if t.startswith("South plays the card in slot")]
    assert len(plays) >= 12 * len(session.state["rounds"]), "one instruction per card the companion played"
    assert not app.controller.solo.errors
    # The log tells the game as the shared screen may: a card that left the holder for a discard or
    # separate pile without ever being played or shown is named nowhere, not even afterwards.
    played = {a["card"] for a in session.actions if a["type"] == "play"}
    unseen = {a["card"] for a in session.actions if a["type"] == "solo_hand"} - played - seen_face_up(app)
    faces = {t for c in unseen for t in (app.controller.card_name(c), app.controller.card_text(c))}
    harness.tap(harness.button("Table"))                    # from the end summary
    harness.tap(harness.button("Log"))
    assert app.root.current == "history"
    log = harness.texts()
    assert any("plays the card in slot" in t for t in log), log[:20]
    assert not [(f, t) for f in faces for t in log if f in t], "the log names a card nobody saw"
    app.root.current = "home"
