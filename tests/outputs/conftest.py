"""Fixtures for the LED, button and buzzer tests: gpiozero mock pins and a hand-driven clock."""
import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.pins import parse_pins

# Two RGB turn lights, two confirm buttons and a buzzer: the table in docs/leds.md.
TABLE = {
    "leds": [
        {"id": "north", "kind": "rgb", "seat": 0, "red": 5, "green": 6, "blue": 13},
        {"id": "south", "kind": "rgb", "seat": 1, "red": 22, "green": 23, "blue": 24},
    ],
    "buttons": [
        {"id": "north-confirm", "seat": 0, "gpio": 26},
        {"id": "south-confirm", "seat": 1, "gpio": 27},
    ],
    "buzzer": {"gpio": 12},
}


class HandClock:
    """A clock the test moves: LED rhythms are rendered at exactly the instants asked for."""

    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


@pytest.fixture
def pin_factory():
    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()


@pytest.fixture
def clock():
    return HandClock()


@pytest.fixture
def table_pins():
    return parse_pins(TABLE, "test table")


def pin_values(factory, *gpios) -> tuple:
    """What the LED legs on ``gpios`` are driven to now (0.0–1.0 each)."""
    return tuple(round(float(factory.pin(g).state), 3) for g in gpios)


NORTH = (5, 6, 13)
SOUTH = (22, 23, 24)
BLUE = (0.0, 0.15, 1.0)
ORANGE = (1.0, 0.25, 0.0)
DARK = (0.0, 0.0, 0.0)
