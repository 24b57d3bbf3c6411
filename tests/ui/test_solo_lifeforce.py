"""Issue 17: solo Lifeforce Battle in the real window, chosen on the setup screen by touch.

The test is the person at the table (as ``tests/solo/test_lifeforce_solo_game.py``, headless):
it keeps the physical cards in the fast model (who holds what, each deck), plays its own seat with
pad events from the simulated table and touches, taps each card it draws for the companion on the
companion's hand pad, and lays the cards of the slots the screen names on the pads it names.  The
companion thinks on its own thread (the controller attaches :class:`companion.solo.seat.SoloSeat`).

After every step it reads every widget's text in the window: no text may name a card lying in the
companion's holder unless the table saw it face up earlier (a card back from the discard pile).
"""
import random

from companion.games.lifeforce import solo
from companion.games.lifeforce import playout as model
from ui import harness

from .driver import do, option_button, put, result_open, table_screen

SOLO, HUMAN = 1, 0
BATTLES = 4                  # enough for attacks, counters, calls or checks and draws; seconds, not minutes


def assert_no_secret_shown(app, seen: set[str]) -> None:
    session = app.controller.session
    held = set(solo.solo_hand(session.state)) - seen
    names = {app.controller.card_name(c) for c in held}
    shown = harness.texts()
    leaks = [(n, t) for n in names for t in shown if n in t]
    assert not leaks, f"the companion's cards named on the screen: {leaks[:3]}"


def test_solo_lifeforce_in_the_window(home):
    app = home
    app.root.current = "home"
    harness.frames(2)
    harness.tap(harness.button("Lifeforce Battle"))
    setup = app.root.get_screen("setup")
    assert app.root.current == "setup"
    harness.tap(option_button(setup, "Companion plays", "South"))
    harness.tap(option_button(setup, "Companion's strength", "Easy"))
    harness.tap(harness.button("Start the game"))
    assert app.root.current == "table", harness.texts()
    session = app.controller.session
    assert session.options["solo_seat"] == SOLO and app.controller.solo is not None
    screen = table_screen(app)
    labels: list[str] = [screen.phase_label]
    screen.bind(phase_label=lambda _screen, text: labels.append(text))
    deal = model.new_game(session.seed, session.options["decks"])
    rng = random.Random(session.seed)
    seen: set[str] = set()                     # cards the table saw face up
    followed = 0
    for _step in range(400):
        if result_open(app):                 # a battle's result: read, then back to the table
            harness.tap(harness.button("Back to the table"))
        state = session.state
        if state["phase"] == "over" or state["battle"] > BATTLES:
            break
        held = solo.solo_hand(state)
        drawn = [model.card_id(c) for c in deal.hand[SOLO] if model.card_id(c) not in held]
        for card in drawn[:solo.missing(state)]:            # as many as the screen asks for
            put(app, solo.hand_zone(SOLO), card)
            assert_no_secret_shown(app, seen)
        app.controller.solo.wait()
        harness.frames(1)
        assert_no_secret_shown(app, seen)
        mulligan = False
        for action in session.actions[followed:]:
            if action["type"] == "solo_decide" and action["choice"] == "mulligan":
                deal.mulligan(SOLO)
                mulligan = True
            elif action["type"] == "solo_decide" and action["choice"] in ("call", "check"):
                deal.call(action["choice"] == "call")
            elif action["type"] in ("play_animal", "support"):
                seen.add(action["card"])
        followed = len(session.actions)
        state = session.state
        if mulligan:
            continue
        if state["phase"] == "setup":
            if not solo.undecided_at_setup(state):
                do(app, {"type": "first_attacker", "seat": HUMAN})
                deal.start(HUMAN)
        elif state["phase"] == "resolve":
            do(app, {"type": "resolve", "seat": HUMAN})
        elif state["phase"] == "call" and state["battle_winner"] == HUMAN:
            call = rng.random() < 0.5
            do(app, {"type": "call" if call else "check", "seat": HUMAN})
            deal.call(call)
        elif state["phase"] in ("attack", "counter") and state["turn"] == SOLO:
            decision = state["solo"]["decision"]
            assert decision is not None, app.controller.solo.errors
            assert f"slot {decision['animal'] + 1} on South's attacker pad" in screen.phase_label
            slots = state["solo"]["slots"]
            animal, support = slots[decision["animal"]], [slots[s] for s in decision["support"]]
            put(app, f"{SOLO}.attacker", animal)
            for card in support:
                assert_no_secret_shown(app, seen | {animal})
                put(app, f"{SOLO}.support", card)
            deal.apply((model.INDEX[animal], int(decision["mode"] == "low"),
                        tuple(model.INDEX[c] for c in support)))
        elif state["phase"] in ("attack", "counter"):
            animal, low, support = model.random_build(deal.hand[HUMAN], rng.random)
            put(app, f"{HUMAN}.attacker", model.card_id(animal))
            if model.LOW[animal]:
                do(app, {"type": "declare", "seat": HUMAN, "mode": "low" if low else "max"})
            for card in support:
                put(app, f"{HUMAN}.support", model.card_id(card))
            do(app, {"type": "done", "seat": HUMAN})
            assert {"type": "done", "seat": HUMAN} in session.actions[-2:], (screen.ids.banner.text, session.actions[-8:])
            deal.apply((animal, low, tuple(support)))
        assert_no_secret_shown(app, seen)
    assert session.state["battle"] > BATTLES or session.state["phase"] == "over"
    assert not app.controller.solo.errors
    assert "Draw 5 cards for South: tap each face down on South's hand pad, then put it in the slot shown" in labels
    assert any(t.endswith("South is thinking…") for t in labels)
    assert any("on South's attacker pad" in t for t in labels)
    app.controller.close_session()               # the companion stops thinking before the next test
