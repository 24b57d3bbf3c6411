"""Touches per battle on the simulated table (issue 25): Lifeforce ≤ 11, Vita Luna ≤ 12.

Half of what a battle cost before the whole steps (Lifeforce 22, Vita Luna 25),
counted as :mod:`tests.ui.tapcount` plays — the plain plan of a first-time
player, every action a touch through the real window.  The counts are of
touches, never of time.  The whole steps are made of the engine's own actions,
one in the log each: Lifeforce's counter's Done resolves the duel (nothing else
is left to do then), the result offers the winner's call or check; Vita Luna's
"Attack every turn" and "Both take their rewards".
"""
from __future__ import annotations

import pytest

from ui import harness
from companion.games.vitaluna.orders import movers

from .driver import result_open, table_screen
from .player_words import problems
from .tapcount import play_game

def start(app, game: str, seed: int = 3):
    """The game on the simulated table with a known shuffle (as the tap count plays it)."""
    app.controller.start_game(game, {"players": ["North", "South"]}, seed=seed)
    harness.frames(3)
    return app.controller.session


AIM = {"lifeforce": 11, "vitaluna": 12}
#: the whole-step buttons the walk must have met, in players' words
NEW_WORDS = {"lifeforce": ("Done and resolve: South", "Call: South attacks next"),
             "vitaluna": ("Attack every turn: North", "Attack every turn: South", "Both take their rewards")}


@pytest.mark.parametrize("game", ["lifeforce", "vitaluna"])
def test_a_battle_costs_half_the_touches_it_did(home, game):
    """Each battle within the aim (Lifeforce's first has all its steps, the winner's call on the
    result too; Vita Luna's second has all between battles: the result, rewards, exchanges,
    placement), and every button met on the way in players' words."""
    units = {"lifeforce": 1, "vitaluna": 2}[game]
    report = play_game(home, game, seed=3, units=units)
    assert len(report["per_battle"]) == units
    assert all(n <= AIM[game] for n in report["per_battle"]), report
    words = report["words"]
    for label in NEW_WORDS[game]:
        assert label in words, f"{label!r} not offered; the buttons were {words}"
    assert problems(words, words) == []


def test_lifeforce_whole_steps_are_the_engines_actions_one_undo_each(home):
    """A card touched while the attacker pad is empty goes there (touching the support pad first
    lays it as support); the counter's Done logs done and resolve, and an undo takes back only
    the duel; the result view's call is the winner's."""
    app = home
    session = start(app, "lifeforce")
    screen = table_screen(app)
    screen.send(next(a for a in session.rules.legal_actions(session.state) if a["type"] == "first_attacker"
                     and a["seat"] == 0))
    app.controller.road.join()
    harness.frames(1)
    screen.open_sim_panel()
    panel = screen._sim_panel
    harness.frames(2)
    card = panel.hand()[0].id
    assert set(panel.zones_for(card)) == {"0.attacker", "0.support"}
    screen.sim_zones = {0: "0.support"}                  # the player chose the support pad first
    panel.pick(card)
    app.controller.road.join()
    harness.frames(1)
    assert session.actions[-1]["type"] == "support"
    screen.sim_zones = {}
    panel.pick(panel.hand()[0].id)                       # nothing chosen: the empty attacker pad
    app.controller.road.join()
    harness.frames(1)
    assert session.actions[-1]["type"] == "play_animal"
    for duel in range(4):                                # equal strengths: another duel, as the rules say
        for seat in (0, 1):
            while screen.primary_action() is None or screen.primary_action()["type"] != "done":
                before = len(session.actions)
                panel.pick(panel.hand()[0].id)
                app.controller.road.join()
                harness.frames(1)
                assert len(session.actions) == before + 1
            if seat == 0:
                assert screen.ids.primary.text.startswith("Done")
                harness.tap(screen.ids.primary)
                app.controller.road.join()
                harness.frames(1)
        assert screen.action_label(screen.primary_action()) == "Done and resolve: South"
        before = len(session.actions)
        harness.tap(screen.ids.primary)
        app.controller.road.join()
        harness.frames(3)
        assert [a["type"] for a in session.actions[before:]] == ["done", "resolve"]
        if session.state["phase"] == "call":
            break
    assert result_open(app)
    offered = [b for b in screen.result_view.ids.back_row.children if getattr(b, "action", None)]
    winner = session.state["battle_winner"]
    assert {b.action["type"] for b in offered} == {"call", "check"}
    assert all(b.action["seat"] == winner for b in offered)
    screen.result_view.dismiss()
    screen.undo()
    app.controller.road.join()
    harness.frames(1)
    assert session.actions[-1]["type"] == "done" and session.state["phase"] == "resolve"


def test_vita_luna_attack_every_turn_stops_for_a_new_move_undo_and_stop(home):
    """Attack every turn is the player's own standing choice, the engine's move, followed by plain
    attacks, one in the log each: with one side's only, the other side's attack is one action; a
    creature of theirs that may newly move ends it (said on the banner), so do Stop, an undo of the
    choice and the battle's end; a confirm button pressed at the table is followed as a touch is;
    with both sides' the battle is fought with no touch between, to its end or a stop."""
    app = home
    session = start(app, "vitaluna")
    screen = table_screen(app)
    rules = session.rules

    def touch(action):
        screen.send(action)
        app.controller.road.join()
        harness.frames(2)

    def buttons(kind: str) -> list:
        return [b for b in screen.ids.actions.children if b.action and b.action["type"] == kind]

    def standing() -> list[int]:
        return [s for s, mine in enumerate(session.state["orders"]) if mine is not None]

    touch({"type": "attack_first", "seat": 0})
    for seat in (0, 1):
        for zone in (f"{seat}.white{n}" for n in range(1, 5)):
            touch(next(a for a in rules.legal_actions(session.state) if a["type"] == "place" and a["zone"] == zone))
        touch({"type": "done", "seat": seat})
    every = buttons("attack_every_turn")
    assert [b.action["seat"] for b in every] == [0] and every[0].text == "Attack every turn: North"

    def made_by(touch) -> list:
        before = len(session.actions)
        touch()
        app.controller.road.join()
        harness.frames(2)
        return [(a["type"], a["seat"]) for a in session.actions[before:]]

    # the choice and North's attack, two actions; South chose nothing yet
    assert made_by(lambda: harness.tap(every[0])) == [("attack_every_turn", 0), ("attack", 0)]
    assert [b.text for b in buttons("stop_attacking")] == ["Stop attacking every turn: North"]
    # South attacks by the confirm button.  Its attack kills one of North's creatures, which frees a
    # position a creature of North's may now move to: North's choice ends there, said on the banner
    baseline = session.state["orders"][0]
    assert made_by(lambda: harness.tap(screen.ids.primary)) == [("attack", 1)]
    assert movers(rules.legal_actions(session.state), session.state, 0) - set(baseline) and standing() == []
    assert screen.ids.banner.text == "A creature of North's can move now: attacking every turn stops here"
    assert not buttons("stop_attacking")

    def every_turn():
        harness.tap(buttons("attack_every_turn")[0])

    assert made_by(every_turn) == [("attack_every_turn", 0), ("attack", 0)]
    screen.undo()                                           # one undo takes back one action: the attack
    harness.frames(2)
    assert session.actions[-1]["type"] == "attack_every_turn" and standing() == [0]
    assert screen.ids.banner.text.startswith("Undone: ") and buttons("stop_attacking")
    screen.undo()                                           # and the choice: the players choose again
    harness.frames(2)
    assert standing() == [] and session.actions[-1] == {"type": "attack", "seat": 1}
    assert made_by(every_turn) == [("attack_every_turn", 0), ("attack", 0)]
    assert made_by(lambda: harness.tap(buttons("stop_attacking")[0])) == [("stop_attacking", 0)]
    assert standing() == []                                 # Stop: South's attack is one action again
    assert made_by(lambda: harness.tap(screen.ids.primary)) == [("attack", 1)]
    every_turn()                                            # North again: one attack, South's turn
    harness.frames(2)
    # South's confirm button at the table (not a touch): North's attack follows it too
    assert made_by(lambda: app.controller.road.confirm(1)) == [("attack", 1), ("attack", 0)]
    made = made_by(every_turn)                              # South too: both attack, no touch between
    assert made[0] == ("attack_every_turn", 1)
    assert len(made) >= 3 and made[1:] == [("attack", (1 + n) % 2) for n in range(len(made) - 1)]
    touches = 1
    while session.state["phase"] == "battle":              # a stop: the seat to act chooses again
        assert session.state["turn"]["seat"] not in standing()
        every_turn()
        app.controller.road.join()
        harness.frames(2)
        touches += 1
    assert touches <= 3 and session.state["phase"] == "rewards" and standing() == []


def test_lifeforce_counters_confirm_button_at_the_table_resolves_the_duel_and_the_window_shows_it(home):
    """South's physical confirm button (the input road's ``confirm``, as the buttons' thread presses
    it) logs done and resolve, like the screen's Done and resolve; the window shows the duel
    scored; the screen's Undo takes back the duel alone and says so."""
    from tests.core.test_follow_ups import to_lifeforce_counter
    app = home
    session = start(app, "lifeforce")
    to_lifeforce_counter(session)
    harness.frames(2)
    screen = table_screen(app)
    assert screen.ids.primary.text == "Done and resolve: South"
    before = len(session.actions)
    events = app.controller.road.confirm(1)
    harness.frames(3)
    assert [(a["type"], a["seat"]) for a in session.actions[before:]] == [("done", 1), ("resolve", 1)]
    said = [e["text"] for e in session.public_events(events) if e.get("text")]
    shown = harness.texts()
    assert said and said[-1] in " ".join(shown), (said, shown)       # the duel's last sentence is on screen
    if result_open(app):
        screen.result_view.dismiss()
        harness.frames(2)
    harness.tap(next(w for w in harness.walk(screen.ids.top) if getattr(w, "text", "") == "Undo"))
    assert [a["type"] for a in session.actions[before:]] == ["done"] and session.state["phase"] == "resolve"
    assert screen.ids.banner.text.startswith("Undone: ") and screen.ids.primary.text == "Resolve"


def test_attack_every_turn_survives_resume(home):
    """Vita Luna's standing choice is a move in the log: the game closed and resumed from Home's
    button, the screen offers to stop it again, and South's attack is followed by North's."""
    from tests.core.test_follow_ups import to_vita_luna_battle
    app = home
    session = start(app, "vitaluna")
    to_vita_luna_battle(session)
    session.act({"type": "attack_every_turn", "seat": 0})
    session.act({"type": "attack", "seat": 0})
    session.act({"type": "attack", "seat": 1})              # this first attack of South's stops it
    assert session.state["orders"] == [None, None]
    screen = table_screen(app)
    harness.frames(2)
    harness.tap(next(b for b in screen.ids.actions.children if b.action and b.text == "Attack every turn: North"))
    assert [a["type"] for a in session.actions[-2:]] == ["attack_every_turn", "attack"]
    game = session.id
    app.controller.close_session()                          # the app closed; the game is in SQLite only
    app.root.current = "home"
    harness.frames(3)
    resume = harness.button(next(t for t in harness.texts() if t.startswith(("Resume Vita Luna", "Back to Vita Luna"))))
    harness.tap(resume)
    harness.frames(3)
    session = app.controller.session
    assert session is not None and session.id == game
    screen = table_screen(app)
    shown = [b.text for b in screen.ids.actions.children if b.action]
    assert "Stop attacking every turn: North" in shown and "Attack every turn: North" not in shown
    before = len(session.actions)
    harness.tap(screen.ids.primary)                         # South attacks: North's attack follows
    app.controller.road.join()
    harness.frames(2)
    assert [(a["type"], a["seat"]) for a in session.actions[before:]] == [("attack", 1), ("attack", 0)]
