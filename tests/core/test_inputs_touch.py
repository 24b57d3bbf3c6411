"""Issue 26: a touch is handed to the input road and never waited for; its verdict reaches the listeners."""
import threading

import pytest

from companion.engine import IllegalAction
from companion.inputs import InputRoad
from companion.session import Session, Store


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "companion.sqlite3") as s:
        yield s


def test_a_refused_touch_reaches_the_listeners_as_a_rejected_event_with_the_rules_sentence(store):
    session = Session.start(store, "sams", seed=3)
    action = {"type": "next_round", "seat": 0}
    with pytest.raises(IllegalAction) as refused:
        session.rules.apply(session.state, action)
    heard = []
    session.subscribe(lambda _s, events: heard.append(events))
    with InputRoad(session) as road:
        gate = threading.Event()
        road.submit(lambda _s: gate.wait(10))           # busy: the touch must not wait for this
        road.touch(action)
        assert heard == [] and not road.join(0)
        gate.set()
        assert road.join()
    assert heard == [[{"type": "rejected", "text": str(refused.value), "seat": 0}]]
    assert session.actions == []


def test_a_touch_is_for_the_game_open_when_it_was_made(store):
    """A touch still on the road when its game is replaced is dropped, never applied to the new game."""
    old, new = Session.start(store, "sams", seed=3), Session.start(store, "sams", seed=4)
    heard = []
    new.subscribe(lambda _s, events: heard.append(events))
    with InputRoad(old) as road:
        gate = threading.Event()
        road.submit(lambda _s: gate.wait(10))
        road.touch(new.rules.legal_actions(new.state)[0])        # one the new game would take
        road.attach(new)
        gate.set()
        assert road.join()
    assert old.actions == [] and new.actions == [] and heard == []
