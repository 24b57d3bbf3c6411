"""`companion bench leds`: from a session event to the LED pin changing.

A real :class:`~companion.session.Session` (SQLite log in a temporary
directory) plays random legal games of each rules engine; the real outputs
(:class:`~hardware.outputs.TableOutputs` with two RGB turn lights, five plain
lane lights, a buzzer and two buttons) follow it on gpiozero mock PWM pins.
The pins are the only stand-in: they note ``perf_counter()`` whenever their
value changes.  The lights' clock moves on two seconds per action, as if the
players took two seconds a move, so a battle flash (0.9 s) never hides the
next turn signal; the animation thread is off because it would write the
same value a frame later and only blur what is measured.

Measured per action: from the moment the session notifies its listeners to
the first pin written by that notification (``event_to_led_ms``), and the
whole time the outputs' listener takes (``listener_ms``).  The engine and the
SQLite commit come before the notification and are not counted.
"""
from __future__ import annotations

import platform
import tempfile
import time
from pathlib import Path

from companion import games
from companion.bench import _percentile
from companion.engine import Rng
from companion.session import Session, Store
from hardware.outputs import TableOutputs
from hardware.pins import parse_pins

BENCH_PINS = {
    "leds": [
        {"id": "north", "kind": "rgb", "seat": 0, "red": 5, "green": 6, "blue": 13},
        {"id": "south", "kind": "rgb", "seat": 1, "red": 22, "green": 23, "blue": 24},
        *({"id": f"lane{n}", "kind": "plain", "seat": 0, "pads": [f"0.lane{n}", f"1.lane{n}"], "gpio": gpio}
          for n, gpio in zip(range(1, 6), (2, 3, 4, 14, 15))),
    ],
    "buttons": [{"id": "north-confirm", "seat": 0, "gpio": 26}, {"id": "south-confirm", "seat": 1, "gpio": 27}],
    "buzzer": {"gpio": 12},
}


def _timed_pin_class():
    from gpiozero.pins.mock import MockPWMPin

    class TimedPin(MockPWMPin):
        """A mock PWM pin that notes when its value changed."""

        changes: list[float] = []

        def _change_state(self, value):
            changed = super()._change_state(value)
            if changed:
                TimedPin.changes.append(time.perf_counter())
            return changed

    return TimedPin


def bench_game(name: str, seconds: float, store: Store) -> dict:
    from gpiozero.pins.mock import MockFactory
    pin_class = _timed_pin_class()
    factory = MockFactory(pin_class=pin_class)
    pins = parse_pins(BENCH_PINS, "led bench")
    latencies: list[float] = []
    listener: list[float] = []
    actions = games_played = 0
    seed = 1
    notified: list[float] = []

    def stamp(session, events):
        notified.append(time.perf_counter())

    table_time = [0.0]
    start = time.perf_counter()
    with TableOutputs(pins, pin_factory=factory, clock=lambda: table_time[0], animate=False) as outputs:
        while time.perf_counter() - start < seconds:
            session = Session.start(store, name, seed=seed)
            session.subscribe(stamp)               # before the outputs: it runs first
            outputs.attach(session)
            rng = Rng(seed)
            while not session.rules.is_over(session.state) and time.perf_counter() - start < seconds:
                action = session.rules.random_action(session.state, rng)
                table_time[0] += 2.0
                notified.clear()
                pin_class.changes.clear()
                session.act(action)
                done = time.perf_counter()
                actions += 1
                if notified and pin_class.changes:
                    latencies.append(pin_class.changes[0] - notified[0])
                    listener.append(done - notified[0])
            games_played += 1
            seed += 1
    latencies.sort()
    listener.sort()
    return {
        "actions": actions,
        "games_started": games_played,
        "actions_changing_a_led": len(latencies),
        "event_to_led_ms_p50": round(_percentile(latencies, 50) * 1000, 4),
        "event_to_led_ms_p99": round(_percentile(latencies, 99) * 1000, 4),
        "event_to_led_ms_max": round(latencies[-1] * 1000, 4) if latencies else None,
        "listener_ms_p50": round(_percentile(listener, 50) * 1000, 4),
        "listener_ms_p99": round(_percentile(listener, 99) * 1000, 4),
    }


def bench_leds(seconds: float = 2.0) -> dict:
    """Per rules engine, the time from a session event to the LED change (JSON-ready)."""
    names = games.available()
    with tempfile.TemporaryDirectory(prefix="led-bench-") as tmp:
        with Store(Path(tmp) / "bench.sqlite3") as store:
            per_game = {name: bench_game(name, seconds / max(1, len(names)), store) for name in names}
    return {
        "machine": {"python": platform.python_version(), "cpu": platform.processor() or platform.machine()},
        "pins": "gpiozero MockFactory, MockPWMPin noting perf_counter() on every change",
        "goal_ms": 5.0,
        "games": per_game,
    }
