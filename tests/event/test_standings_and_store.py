"""Standings (MTR Appendix C, reached through the event's moves) and the event log in SQLite."""
import sqlite3
import threading
from fractions import Fraction

import pytest

from companion.event import moves, standings
from companion.event.store import EventStore
from tests.event.helpers import enter, new_event, start


def _row(state, name):
    return next(r for r in standings.compute(state) if r.name == name)


def _four_player_event():
    """Round 1 pairs Ann–Bob and Cid–Dee (the first seed that does); Ann wins 2–0, Cid 2–1."""
    for seed in range(1, 100):
        state = start(new_event(["Ann", "Bob", "Cid", "Dee"], seed=seed))
        names = {x["id"]: x["name"] for x in state["players"]}
        pairs = {frozenset((names[p["a"]], names[p["b"]])) for p in state["rounds"][0]["pairings"]}
        if pairs == {frozenset(("Ann", "Bob")), frozenset(("Cid", "Dee"))}:
            return enter(state, {("Ann", "Bob"): [2, 0, 0], ("Cid", "Dee"): [2, 1, 0]})
    raise AssertionError("no seed pairs Ann with Bob")


def test_match_points_record_and_the_33_percent_floor():
    state = _four_player_event()
    ann, bob, cid, dee = (_row(state, n) for n in ("Ann", "Bob", "Cid", "Dee"))
    assert (ann.points, ann.record) == (3, "1–0–0") and (bob.points, bob.record) == (0, "0–1–0")
    # MW%: Bob 0/3 → the floor, 0.33; GW%: Ann 6/6 = 1, Cid 6/9, Dee 3/9 = 0.333…, Bob 0 → 0.33
    assert ann.gw == 1 and cid.gw == Fraction(2, 3) and dee.gw == Fraction(1, 3) and bob.gw == Fraction(33, 100)
    # OMW%: Ann's only opponent Bob has the floor; Bob's only opponent Ann has 1
    assert ann.omw == Fraction(33, 100) and bob.omw == 1
    # OGW%: Cid's opponent Dee has GW% 1/3 (above the floor), Dee's opponent Cid 2/3
    assert cid.ogw == Fraction(1, 3) and dee.ogw == Fraction(2, 3)
    # Cid ranks above Ann? No: equal points, OMW% decides — Cid's opponent Dee (0.33) = Ann's Bob (0.33),
    # then GW% 1 > 2/3: Ann first.
    assert [r.name for r in standings.compute(state)][:2] == ["Ann", "Cid"]


def test_the_mtr_examples_a_bye_is_a_win_in_own_percentages_but_not_an_opponent():
    # MTR Appendix C: "3-2-0, including a first-round bye … 9/(5*3) = 0.60".
    state = new_event(["Ann", "Bob", "Cid"], rounds=6, seed=4)
    state = start(state)
    bye = next(p["a"] for p in state["rounds"][0]["pairings"] if p["b"] is None)
    name = next(p["name"] for p in state["players"] if p["id"] == bye)
    row = _row(state, name)
    assert (row.points, row.byes, row.record, row.gw) == (3, 1, "1–0–0", 1)
    assert row.opponents == () and row.omw == Fraction(33, 100)   # the bye is no opponent: OMW% stays the floor
    assert row.mw == 1


def test_only_settled_results_count_and_a_disputed_one_waits_for_the_organiser():
    state = start(new_event(["Ann", "Bob"], seed=1))
    p = state["rounds"][0]["pairings"][0]
    where = {"round": 1, "table": p["table"]}
    state = moves.apply(state, {"type": "report", **where, "games": [2, 0, 0], "source": "table",
                                "game_ref": {"table": "t1", "game_id": 7}})
    assert standings.compute(state)[0].points == 0                          # reported, not confirmed
    state = moves.apply(state, {"type": "confirm", **where, "player": p["a"]})
    assert standings.compute(state)[0].points == 0                          # one confirmation is not enough
    disputed = moves.apply(state, {"type": "dispute", **where, "player": p["b"], "reason": "it was 2-1"})
    with pytest.raises(moves.EventError, match="disputed: the organiser decides"):
        moves.apply(disputed, {"type": "confirm", **where, "player": p["b"]})
    with pytest.raises(moves.EventError, match="round 1 is not finished: no settled result at table 1"):
        moves.prepare(disputed, {"type": "start_round"})
    decided = moves.apply(disputed, {"type": "correct", **where, "games": [2, 1, 0], "note": "judge: 2-1"})
    result = decided["rounds"][0]["pairings"][0]["result"]
    assert result["hand_entered"] and result["status"] == "final" and result["game_ref"]["game_id"] == 7
    confirmed = moves.apply(state, {"type": "confirm", **where, "player": p["b"]})
    assert confirmed["rounds"][0]["pairings"][0]["result"]["status"] == "confirmed"
    assert not confirmed["rounds"][0]["pairings"][0]["result"]["hand_entered"]
    assert standings.compute(confirmed)[0].points == 3


def test_refusals_are_one_sentence_and_change_nothing():
    state = start(new_event(["Ann", "Bob", "Cid", "Dee"], fmt="bo1"))
    before = repr(state)
    for action, words in [
        ({"type": "report", "round": 1, "table": 1, "games": [2, 0, 0], "source": "organiser"}, "single-game"),
        ({"type": "report", "round": 1, "table": 9, "games": [1, 0, 0], "source": "organiser"}, "no table 9"),
        ({"type": "report", "round": 3, "table": 1, "games": [1, 0, 0], "source": "organiser"}, "no round 3"),
        ({"type": "report", "round": 1, "table": 1, "games": [1, 0, 0], "source": "table"}, "names its game"),
        ({"type": "register", "name": "ann"}, "already a player called"),
        ({"type": "register", "name": "x" * 200}, "at most 60 characters"),
        ({"type": "confirm", "round": 1, "table": 1, "player": "p9"}, "only the two players"),
        ({"type": "deck_check", "player": "p1", "verdict": {"ok": True}}, "no registered deck list"),
        ({"type": "launch"}, "no action 'launch'"),
    ]:
        with pytest.raises(moves.EventError, match=words):
            moves.apply(state, action)
    assert repr(state) == before


def test_until_one_undefeated_ends_when_one_perfect_record_is_left():
    state = new_event([f"P{i}" for i in range(8)], rounds=None, seed=2)
    rounds = 0
    while not moves.is_over(state):
        state = start(state)
        rounds += 1
        for p in state["rounds"][-1]["pairings"]:
            if p["b"] is not None:
                state = moves.apply(state, {"type": "report", "round": rounds, "table": p["table"],
                                            "games": [2, 0, 0], "source": "organiser"})
    assert rounds == 3                                     # 8 → 4 → 2 → 1 undefeated
    with pytest.raises(moves.EventError, match="the event is over"):
        moves.prepare(state, {"type": "start_round"})


def test_the_store_logs_undoes_redoes_and_replays_on_a_shared_connection(tmp_path):
    conn = sqlite3.connect(tmp_path / "hub.sqlite3", isolation_level=None, check_same_thread=False)
    lock = threading.RLock()                      # the hub's: one connection, one lock, one writer
    clock = iter(range(1000, 2000)).__next__
    store = EventStore(conn, lock, clock=clock)
    eid = store.create(name="Friday", game="sams", rounds=3, seed=5)
    for name in ("Ann", "Bob", "Cid"):
        store.act(eid, {"type": "register", "name": name})
    paired = store.act(eid, {"type": "start_round"})
    assert paired["rounds"][0]["started_at"] == 1004
    store.undo(eid)
    assert store.state(eid)["rounds"] == []
    redone = store.redo(eid)
    assert redone["rounds"] == paired["rounds"]                   # the same pairings, the same time
    with pytest.raises(moves.EventError, match="nothing to redo"):
        store.redo(eid)
    with pytest.raises(moves.EventError, match="already a player"):
        store.act(eid, {"type": "register", "name": "ANN"})
    assert len(store.log(eid)) == 5                               # the refusal wrote nothing
    again = EventStore(sqlite3.connect(tmp_path / "hub.sqlite3", isolation_level=None), threading.RLock())
    assert again.state(eid) == store.state(eid)                   # replay rebuilds the state
    assert [e["name"] for e in again.events()] == ["Friday"]
    with pytest.raises(moves.EventError, match="nothing to undo"):
        for _ in range(10):
            store.undo(eid)
    assert store.log(eid)[0]["type"] == "create"
