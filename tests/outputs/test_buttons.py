"""Confirm buttons on gpiozero mock pins: short press confirms, long press undoes, nothing kills them."""
import threading
import time

import pytest

from companion.engine import Rng
from companion.session import Session, Store
from hardware.buttons import ButtonPanel, ConfirmButton
from hardware.outputs import TableOutputs
from hardware.pins import ButtonSpec

from .conftest import pin_values

NORTH_BUTTON, SOUTH_BUTTON = 26, 27
# A short press lasts ~0.03 s of sleep, which a busy machine may stretch; gpiozero's hold thread
# turns any press longer than hold_time into a long one.  So the buttons are made with a hold time
# no press here can reach, and a test that holds a button shortens it first (`quick_holds`): a
# hold waits for its effect (`hold`), so a short hold time costs no determinism there.
NEVER_HELD = 600.0
QUICK_HOLD = 0.05


def press(pin_factory, gpio, seconds=0.03):
    pin = pin_factory.pin(gpio)
    pin.drive_low()
    time.sleep(seconds)
    pin.drive_high()


def hold(pin_factory, gpio, until, timeout=30.0):
    """Keep the button down until ``until()`` is true (the hold fired), then let go (``timeout``
    only bounds a hold that never fires)."""
    pin = pin_factory.pin(gpio)
    pin.drive_low()
    deadline = time.monotonic() + timeout
    while not until() and time.monotonic() < deadline:
        time.sleep(0.005)
    pin.drive_high()


def quick_holds(panel: ButtonPanel) -> None:
    """From now on a hold of ``QUICK_HOLD`` is a long press on every button of ``panel``."""
    for button in panel.buttons:
        button.device.hold_time = QUICK_HOLD


def to_round_over(session):
    """Play Sam's round 1 with seeded random plays (no redraws) until it is scored."""
    rng = Rng(4)
    while session.state["phase"] == "play":
        action = session.rules.random_action(session.state, rng)
        if action["type"] == "play":
            session.act(action)


@pytest.fixture
def panel(pin_factory):
    specs = [ButtonSpec("north-confirm", 0, NORTH_BUTTON), ButtonSpec("south-confirm", 1, SOUTH_BUTTON)]
    with ButtonPanel(specs, pin_factory=pin_factory, bounce_time=0.02, hold_time=NEVER_HELD) as p:
        yield p


@pytest.fixture
def reports():
    return []


def test_a_short_press_is_the_same_action_as_the_touch(store, panel, pin_factory, reports):
    """Sam's, a scored round: the confirm button means "next round" (Rules.confirm_action)."""
    session = Session.start(store, "sams", seed=3)
    panel.attach(session, reports.append)
    to_round_over(session)
    logged = len(session.actions)
    press(pin_factory, SOUTH_BUTTON)
    assert session.actions[logged:] == [{"type": "next_round", "seat": 1}]
    assert session.state["phase"] == "play" and session.state["round"] == 2
    assert reports == []


def test_a_press_that_means_nothing_now_is_reported_not_logged(store, panel, pin_factory, reports):
    session = Session.start(store, "sams", seed=3)
    panel.attach(session, reports.append)
    press(pin_factory, NORTH_BUTTON)
    assert session.actions == []
    assert reports == [{"type": "button_idle", "seat": 0,
                        "text": "North's button: nothing to confirm right now"}]


def test_a_long_press_undoes_and_does_not_also_confirm(store, panel, pin_factory, reports):
    session = Session.start(store, "sams", seed=3)
    panel.attach(session, reports.append)
    to_round_over(session)
    session.act({"type": "next_round", "seat": 0})
    quick_holds(panel)
    hold(pin_factory, NORTH_BUTTON, until=lambda: session.state["phase"] == "round_over")
    time.sleep(0.03)
    assert session.state["phase"] == "round_over"            # undone, and the release confirmed nothing
    assert session.can_redo() and reports == []


def test_a_refused_long_press_is_reported_and_the_button_keeps_working(store, panel, pin_factory, reports):
    """IllegalAction ("nothing to undo") must not kill the button thread."""
    session = Session.start(store, "sams", seed=3)
    panel.attach(session, reports.append)
    quick_holds(panel)
    hold(pin_factory, SOUTH_BUTTON, until=lambda: reports)
    assert reports == [{"type": "button_rejected", "seat": 1,
                        "text": "South's button (long press): nothing to undo"}]
    session.act({"type": "play", "seat": 0, "lane": 2, "card": "sams.9h"})
    hold(pin_factory, SOUTH_BUTTON, until=lambda: not session.actions)
    assert session.actions == [] and len(reports) == 1


def test_a_broken_session_is_reported_and_the_buttons_keep_working(tmp_path, panel, pin_factory, reports):
    """Any error (here: the database is gone) is reported in words; the next game's presses work."""
    broken_store = Store(tmp_path / "broken.sqlite3")
    broken = Session.start(broken_store, "sams", seed=3)
    to_round_over(broken)
    panel.attach(broken, reports.append)
    broken_store.close()
    press(pin_factory, NORTH_BUTTON)
    assert len(reports) == 1 and reports[0]["type"] == "button_rejected"
    assert reports[0]["text"].startswith("North's button (press) failed: ")
    assert reports[0]["text"].endswith("the game is unchanged")

    with Store(tmp_path / "fine.sqlite3") as store:
        fine = Session.start(store, "sams", seed=3)
        to_round_over(fine)
        panel.attach(fine, reports.append)
        press(pin_factory, NORTH_BUTTON)
        assert fine.actions[-1] == {"type": "next_round", "seat": 0}


def test_contact_bounce_is_not_a_press(pin_factory):
    presses = []
    # A generous bounce time, so that a busy test machine cannot stretch a contact into a press.
    with ConfirmButton(ButtonSpec("b", 0, NORTH_BUTTON), on_press=lambda: presses.append("press"),
                       on_hold=lambda: presses.append("hold"), pin_factory=pin_factory,
                       bounce_time=0.3, hold_time=5.0):
        pin = pin_factory.pin(NORTH_BUTTON)
        for _ in range(3):                  # three contacts within microseconds
            pin.drive_low()
            pin.drive_high()
        assert presses == []
        press(pin_factory, NORTH_BUTTON, seconds=0.35)
        assert presses == ["press"]


def test_presses_from_two_threads_at_once_are_applied_one_after_the_other(store, panel, pin_factory):
    """Both players press Next at the same moment: one next_round is applied, the other finds nothing to do."""
    session = Session.start(store, "sams", seed=3)
    reports = []
    panel.attach(session, reports.append)
    to_round_over(session)
    logged = len(session.actions)
    threads = [threading.Thread(target=press, args=(pin_factory, gpio)) for gpio in (NORTH_BUTTON, SOUTH_BUTTON)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [a["type"] for a in session.actions[logged:]] == ["next_round"]
    assert [r["type"] for r in reports] == ["button_idle"]


def test_a_refused_button_beeps_the_buzzer_and_reaches_the_screen(store, pin_factory, clock, table_pins):
    shown = []
    with TableOutputs(table_pins, pin_factory=pin_factory, clock=clock, animate=False,
                      hold_time=QUICK_HOLD) as outputs:      # only held here
        session = Session.start(store, "sams", seed=3)
        outputs.attach(session, report=shown.append)
        hold(pin_factory, NORTH_BUTTON, until=lambda: shown)
        assert shown[0]["text"] == "North's button (long press): nothing to undo"
        assert pin_values(pin_factory, 12) == (1.0,)


def test_with_the_table_wired_a_press_takes_the_input_road_like_a_scan(store, pin_factory, clock, table_pins):
    """The app's wiring (ui.app.make_app): presses go to the input road, not to the session, and are
    applied on the road's thread, after a scan handed over before them; a refusal still beeps and
    reaches the screen."""
    from companion.inputs import InputRoad
    from companion.simulate import register_virtual_tags
    from companion.table import SEEN, PadEvent
    from companion.tags import virtual_uid
    shown = []
    with InputRoad() as road, TableOutputs(table_pins, pin_factory=pin_factory, clock=clock, animate=False,
                                           hold_time=NEVER_HELD) as outputs:
        outputs.send_presses_to(road)
        register_virtual_tags(store, "sams")
        session = Session.start(store, "sams", seed=3)
        outputs.attach(session, report=shown.append)
        road.attach(session)
        threads = []
        session.subscribe(lambda s, events: threads.append(threading.current_thread()))
        to_round_over(session)
        session.undo()
        last = session._redo[-1]
        threads.clear()
        gate = threading.Event()
        road.submit(lambda _s: gate.wait(5))
        road.submit(PadEvent(f"{last['seat']}.lane{last['lane'] + 1}", virtual_uid(last["card"]), SEEN, 0.0))
        presser = threading.Thread(target=press, args=(pin_factory, SOUTH_BUTTON))
        presser.start()
        gate.set()
        presser.join()
        assert road.join()
        assert [a["type"] for a in session.actions[-2:]] == ["play", "next_round"]
        assert threads and set(threads) == {road.thread}
        quick_holds(outputs.buttons)
        hold(pin_factory, NORTH_BUTTON, until=lambda: session.actions[-1]["type"] == "play")   # long: undo
        assert road.join() and session.can_redo() and set(threads) == {road.thread} and shown == []
