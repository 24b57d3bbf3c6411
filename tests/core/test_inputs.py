"""The input road: pad events, presses, touches and the companion's seat enter the game one way, in turn."""
import threading

import pytest

from companion.engine import IllegalAction, Rng
from companion.inputs import InputRoad
from companion.session import Session
from companion.simulate import register_virtual_tags
from companion.table import GONE, SEEN, PadEvent
from companion.tags import virtual_uid


@pytest.fixture
def sams(store):
    register_virtual_tags(store, "sams")
    return Session.start(store, "sams", {}, seed=5)


@pytest.fixture
def road():
    with InputRoad() as r:
        yield r


def to_round_over(session):
    """Sam's round 1 played by seeded random plays until it is scored (the confirm button then means
    "next round")."""
    rng = Rng(4)
    while session.state["phase"] == "play":
        action = session.rules.random_action(session.state, rng)
        if action["type"] == "play":
            session.act(action)


def test_a_scan_and_a_press_from_two_threads_are_applied_on_the_road_in_the_order_handed_over(sams, road):
    to_round_over(sams)
    sams.undo()                                  # the round's last card comes off the log: a scan lays it again
    last = sams._redo[-1]
    road.attach(sams)
    applied = []                                 # (what, thread) in the order the session changed
    sams.subscribe(lambda s, events: applied.append(([e["type"] for e in events], threading.current_thread())))
    gate = threading.Event()
    road.submit(lambda _s: gate.wait(5))         # hold the road so both inputs queue behind it
    zone = f"{last['seat']}.lane{last['lane'] + 1}"
    scan = threading.Thread(target=road.submit, args=(PadEvent(zone, virtual_uid(last["card"]), SEEN, 0.0),))
    scan.start()
    scan.join()
    pressed = []
    press = threading.Thread(target=lambda: pressed.append(road.confirm(1)))   # a button's thread waits
    press.start()
    gate.set()
    press.join(5)
    assert road.join()
    assert sams.actions[-2:] == [last, {"type": "next_round", "seat": 1}]
    assert len(applied) == 2 and {thread for _, thread in applied} == {road.thread}   # neither the reader's nor the button's thread
    assert pressed and pressed[0] and sams.state["round"] == 2


def test_a_decision_waits_for_its_refusal_and_the_game_is_unchanged(sams, road):
    """``act``: the companion's seat, on its own thread, waits for its answer (a touch does not, below)."""
    road.attach(sams)
    with pytest.raises(IllegalAction):
        road.act({"type": "play", "seat": 1, "lane": 0, "card": "sams.7h"})
    assert sams.actions == []
    road.act({"type": "play", "seat": 0, "lane": 0, "card": "sams.7h"})
    assert road.undo() and sams.actions == [] and road.redo() and len(sams.actions) == 1


def test_with_no_game_open_a_press_is_refused_in_words_and_a_scan_only_watched(road):
    seen = []
    road.watch_pads(seen.append)
    with pytest.raises(IllegalAction, match="no game is running"):
        road.confirm(0)
    ev = PadEvent("0.lane1", "04AABBCC", SEEN, 0.0)
    road.submit(ev)
    assert road.join() and seen == [ev]


def test_a_screen_that_scans_takes_the_pad_events_and_the_game_gets_none(sams, road):
    road.attach(sams)
    taken = []
    road.take_pads(taken.append)
    uid = virtual_uid("sams.7h")
    road.submit(PadEvent("0.lane1", uid, SEEN, 0.0))
    road.submit(PadEvent("0.lane1", uid, GONE, 0.0))
    assert road.join()
    assert [e.kind for e in taken] == [SEEN, GONE] and sams.actions == []
    road.take_pads(None)
    road.submit(PadEvent("0.lane1", uid, SEEN, 0.0))
    assert road.join() and sams.actions == [{"type": "play", "seat": 0, "lane": 0, "card": "sams.7h"}]


def test_an_input_that_fails_does_not_stop_the_road(sams, road):
    road.attach(sams)
    failed = road.submit(lambda _s: 1 / 0)
    assert isinstance(failed.exception(5), ZeroDivisionError)
    road.act({"type": "play", "seat": 0, "lane": 0, "card": "sams.7h"})
    assert len(sams.actions) == 1


def test_a_touch_never_waits_and_its_refusal_reaches_the_listeners_with_the_rules_sentence(sams, road):
    action = {"type": "next_round", "seat": 0}
    with pytest.raises(IllegalAction) as refused:
        sams.rules.apply(sams.state, action)
    heard = []
    sams.subscribe(lambda _s, events: heard.append(events))
    road.attach(sams)
    gate = threading.Event()
    road.submit(lambda _s: gate.wait(10))                  # busy: the touch must not wait for this
    road.touch(action)
    assert heard == [] and not road.join(0)
    gate.set()
    assert road.join()
    assert heard == [[{"type": "rejected", "text": str(refused.value), "seat": 0}]]
    assert sams.actions == []


def test_a_touch_is_for_the_game_open_when_it_was_made(store, road):
    """A touch still on the road when its game is replaced is dropped, never applied to the new game."""
    old, new = Session.start(store, "sams", seed=3), Session.start(store, "sams", seed=4)
    heard = []
    new.subscribe(lambda _s, events: heard.append(events))
    road.attach(old)
    gate = threading.Event()
    road.submit(lambda _s: gate.wait(10))
    road.touch(new.rules.legal_actions(new.state)[0])       # one the new game would take
    road.attach(new)
    gate.set()
    assert road.join()
    assert old.actions == [] and new.actions == [] and heard == []


def test_a_whole_step_is_its_actions_in_turn_each_logged_and_a_refusal_stops_it(sams, road):
    """``touch_steps``: the step names each next action from the state it is given; each is applied
    as its own touch (one in the log each), until it names none; a refused one ends the step with
    its ``rejected`` event and nothing after it is tried."""
    road.attach(sams)
    rng = Rng(2)
    plays = []

    def three_plays(state):
        if len(plays) == 3:
            return None
        action = next(a for a in iter(lambda: sams.rules.random_action(state, rng), None) if a["type"] == "play")
        plays.append(action)
        return action
    road.touch_steps(three_plays)
    assert road.join()
    assert sams.actions == plays and len(plays) == 3

    heard, tried = [], []
    sams.subscribe(lambda _s, events: heard.extend(events))

    def refused_then_more(state):
        tried.append(len(tried))
        return {"type": "next_round", "seat": 0}           # not now: the round is not over
    road.touch_steps(refused_then_more)
    assert road.join()
    assert tried == [0] and sams.actions == plays
    assert [e["type"] for e in heard] == ["rejected"]


def test_a_long_press_in_a_solo_game_goes_back_past_the_companions_choice_to_the_persons_move(store, road):
    """The solo rule is the road's, so a button's long press keeps it as the screen's Undo does: the
    companion's own choice (which its seat would make again at once) is undone with the person's move."""
    from companion.inputs import undo_to_a_person
    session = Session.start(store, "sams", {"solo_seat": 1}, seed=5)
    road.attach(session)
    rng = Rng(3)
    while not any(a["type"] == "solo_decide" for a in session.actions[-1:]):
        legal = session.rules.legal_actions(session.state)
        decide = [a for a in legal if a["type"] == "solo_decide"]
        session.act(decide[0] if decide else session.rules.random_action(session.state, rng))
    person = max(n for n, a in enumerate(session.actions) if a["type"] != "solo_decide"
                 and not (a.get("seat") == 1 and a["type"] == "redraw"))
    road.undo()
    assert len(session.actions) == person
    with pytest.raises(IllegalAction):
        undo_to_a_person(Session.start(store, "sams", {}, seed=1))     # nothing to undo: said, as before
