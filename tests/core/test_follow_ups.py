"""What the rules make follow a person's input (``Rules.follow_up``), applied by the input road with no screen.

Lifeforce: the counter's confirm button at the table logs ``done`` and then ``resolve`` (resolving is
the one thing left to do), each its own action, so one undo takes back one.  Vita Luna: a player's
standing choice to attack every turn is a logged move: it survives closing the store and resuming the
game from SQLite, and the other side's confirm press is followed by the chooser's attack.
"""
from companion.engine import IllegalAction
from companion.games.vitaluna.orders import movers
from companion.inputs import InputRoad
from companion.session import Session, Store


def kinds(session, since: int) -> list[tuple[str, int]]:
    return [(a["type"], a.get("seat")) for a in session.actions[since:]]


def to_lifeforce_counter(session):
    """Battle 1 to the counter's last step: North attacked, South's animal and support stand."""
    rules = session.rules
    session.act({"type": "first_attacker", "seat": 0})
    for seat in (0, 1):
        while rules.confirm_action(session.state, seat) is None or not _may_be_done(session, seat):
            play = next(a for a in rules.legal_actions(session.state)
                        if a.get("seat") == seat and a["type"] in ("play_animal", "support"))
            session.act(play)
        if seat == 0:
            session.act({"type": "done", "seat": 0})


def _may_be_done(session, seat) -> bool:
    try:
        session.rules.apply(session.state, {"type": "done", "seat": seat})
        return True
    except IllegalAction:
        return False


def test_the_counters_confirm_button_resolves_the_duel_too_one_undo_each(store):
    session = Session.start(store, "lifeforce", {}, seed=3)
    to_lifeforce_counter(session)
    assert session.state["phase"] == "counter"
    with InputRoad(session) as road:
        before = len(session.actions)
        road.confirm(1)                                     # South's physical confirm button
        assert kinds(session, before) == [("done", 1), ("resolve", 1)]
        assert session.state["phase"] != "resolve"          # the duel is scored
        road.undo()                                         # one undo: the duel only
        assert kinds(session, before) == [("done", 1)] and session.state["phase"] == "resolve"
        road.confirm(0)                                     # a duel left unresolved: either confirm resolves it
        assert kinds(session, before) == [("done", 1), ("resolve", 0)]


def to_vita_luna_battle(session):
    rules = session.rules
    session.act({"type": "attack_first", "seat": 0})
    for seat in (0, 1):
        for zone in (f"{seat}.white{n}" for n in range(1, 5)):
            session.act(next(a for a in rules.legal_actions(session.state)
                             if a["type"] == "place" and a["zone"] == zone))
        session.act({"type": "done", "seat": seat})
    assert session.state["phase"] == "battle"


def test_attack_every_turn_is_kept_in_the_log_and_followed_after_resume_with_no_screen(tmp_path):
    path = tmp_path / "companion.sqlite3"
    with Store(path) as store:
        session = Session.start(store, "vitaluna", {"players": ["North", "South"]}, seed=3)
        to_vita_luna_battle(session)
        with InputRoad(session) as road:
            before = len(session.actions)
            road.touch({"type": "attack_every_turn", "seat": 0})
            road.join()
            assert kinds(session, before) == [("attack_every_turn", 0), ("attack", 0)]
            chosen = session.state["orders"][0]
            # South's attack kills a creature of North's: a position comes free that one of North's
            # may now move to, which North could not when choosing; the choice ends, said in an event
            stopped = road.confirm(1)
            assert session.state["orders"] == [None, None]
            assert movers(session.rules.legal_actions(session.state), session.state, 0) - set(chosen)
            assert [e["text"] for e in stopped if e["type"] == "orders_stopped"] == [
                "A creature of North's can move now: attacking every turn stops here"]
            before = len(session.actions)
            road.touch({"type": "attack_every_turn", "seat": 0})   # North chooses again
            road.join()
            assert kinds(session, before) == [("attack_every_turn", 0), ("attack", 0)]
        game, chosen = session.id, session.state["orders"]
    with Store(path) as store:                              # the app closed (or killed) and started again
        session = Session.resume(store, game)
        assert session.state["orders"] == chosen and session.view(None)["detail"]["attacking_every_turn"] == [0]
        assert {"type": "stop_attacking", "seat": 0} in session.rules.legal_actions(session.state)
        with InputRoad(session) as road:
            before = len(session.actions)
            road.confirm(1)                                 # South's button; North's attack follows
            assert kinds(session, before) == [("attack", 1), ("attack", 0)]


def test_a_standing_choice_is_undone_by_its_own_undo_and_ends_with_the_battle(store):
    session = Session.start(store, "vitaluna", {}, seed=3)
    to_vita_luna_battle(session)
    with InputRoad(session) as road:
        road.touch({"type": "attack_every_turn", "seat": 0})
        road.join()
        road.undo()                                         # the attack it made
        assert session.actions[-1]["type"] == "attack_every_turn" and session.state["orders"][0] is not None
        road.undo()                                         # the choice
        assert session.state["orders"] == [None, None]
        assert session.state["turn"]["seat"] == 0 and session.actions[-1]["type"] == "done"
        road.touch({"type": "attack_every_turn", "seat": 0})
        road.touch({"type": "attack_every_turn", "seat": 1})  # both: fought to a stop with no touch between
        road.join()
        for _ in range(20):
            if session.state["phase"] != "battle":
                break
            seat = session.state["turn"]["seat"]
            road.touch({"type": "attack_every_turn", "seat": seat})
            road.join()
        assert session.state["phase"] != "battle" and session.state["orders"] == [None, None]
