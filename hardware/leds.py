"""Lights and a buzzer that show a *look*: a colour, a rhythm and a brightness.

A :class:`Look` is what one LED should be doing ("blue, pulsing", "orange,
dim", "off").  An :class:`Indicator` wraps one gpiozero device and shows a
steady look, with an optional *flash* on top: a look whose pattern runs once
(three quick blinks for a won battle) before the steady look returns::

    from gpiozero.pins.mock import MockFactory, MockPWMPin
    pins = MockFactory(pin_class=MockPWMPin)
    with RgbLight("north", {"red": 5, "green": 6, "blue": 13}, pin_factory=pins) as north:
        north.show(Look("blue", "pulse"), now=0.0)     # the LED changes at once
        north.render(now=0.4)                           # one animation frame, 0.4 s in

Patterns are plain step lists (brightness, seconds), so one small
:class:`Animator` thread renders every indicator at ``fps`` frames a second
and a test can render any instant by hand with an injected clock.  Every
device writes only when its value changes.

Colours are chosen so that colour-blind players can tell them apart (blue and
orange, never red against green) and every meaning is also carried by rhythm
and brightness: see ``docs/leds.md``.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Callable

log = logging.getLogger(__name__)

# RGB mixes for common 5 mm RGB LEDs (the green die is far brighter than the blue one).
COLOURS: dict[str, tuple[float, float, float]] = {
    "off": (0.0, 0.0, 0.0),
    "blue": (0.0, 0.15, 1.0),      # seat 0
    "orange": (1.0, 0.25, 0.0),    # seat 1
    "white": (1.0, 1.0, 1.0),      # both seats: a tie
}
SEAT_COLOURS = ("blue", "orange")
DIM = 0.15                         # the waiting player's light, a drawn lane


@dataclass(frozen=True)
class Pattern:
    """A rhythm as ``(brightness, seconds)`` steps.

    ``smooth`` glides linearly from each step's brightness to the next one's
    (a breathing pulse); otherwise each step holds its brightness.  A pattern
    that does not ``repeat`` ends after its last step (a flash).
    """

    name: str
    steps: tuple[tuple[float, float], ...]
    smooth: bool = False
    repeat: bool = True

    @property
    def duration(self) -> float:
        return sum(seconds for _, seconds in self.steps)

    def level(self, t: float) -> float | None:
        """Brightness ``t`` seconds after the pattern started; None once a flash is over."""
        total = self.duration
        if t < 0:
            t = 0.0
        if not self.repeat and t >= total:
            return None
        t = t % total
        for i, (brightness, seconds) in enumerate(self.steps):
            if t < seconds:
                if not self.smooth:
                    return brightness
                following = self.steps[(i + 1) % len(self.steps)][0]
                return brightness + (following - brightness) * (t / seconds)
            t -= seconds
        return self.steps[-1][0]


PATTERNS: dict[str, Pattern] = {p.name: p for p in (
    Pattern("solid", ((1.0, 1.0),)),
    # Waiting for a card on a pad: breathe, starting bright so the change shows at once.
    Pattern("pulse", ((1.0, 0.8), (0.15, 0.8)), smooth=True),
    # Waiting for a button: two short blinks, a pause.
    Pattern("double_blink", ((1.0, 0.12), (0.0, 0.12), (1.0, 0.12), (0.0, 0.84))),
    # The game is over: the winner's light blinks slowly.
    Pattern("blink", ((1.0, 0.5), (0.0, 0.5))),
    # Battle flashes (once each, then the steady look returns).
    Pattern("win", ((1.0, 0.15), (0.0, 0.15)) * 3, repeat=False),
    Pattern("loss", ((0.0, 0.9),), repeat=False),
    Pattern("tie", ((1.0, 0.4), (0.0, 0.2)) * 2, repeat=False),
    Pattern("draw", ((DIM, 0.9),), repeat=False),
    # A refused scan or button: two short beeps.
    Pattern("beep", ((1.0, 0.08), (0.0, 0.08), (1.0, 0.08)), repeat=False),
)}


@dataclass(frozen=True)
class Look:
    """What one light shows: a colour name, a pattern name and a brightness (0–1)."""

    colour: str = "off"
    pattern: str = "solid"
    brightness: float = 1.0

    def __post_init__(self):
        if self.colour not in COLOURS:
            raise ValueError(f"unknown LED colour {self.colour!r}; known: {', '.join(COLOURS)}")
        if self.pattern not in PATTERNS:
            raise ValueError(f"unknown LED pattern {self.pattern!r}; known: {', '.join(PATTERNS)}")

    def __str__(self) -> str:
        if self.colour == "off" or self.brightness == 0:
            return "off"
        dim = "" if self.brightness == 1.0 else f" {self.brightness:g}"
        return f"{self.colour} {self.pattern}{dim}"

    def level(self, t: float) -> float | None:
        level = PATTERNS[self.pattern].level(t)
        return None if level is None else level * self.brightness


OFF = Look()


class Indicator:
    """One output device showing a steady look and, now and then, a flash.

    Subclasses say how a brightness and a colour become a device value
    (:meth:`_value`) and write it (:meth:`_write`).  ``show`` and ``flash``
    render at once, so the LED changes in the caller's thread without waiting
    for the next animation frame.
    """

    def __init__(self, id: str, clock: Callable[[], float] = time.monotonic):
        self.id = id
        self._clock = clock
        self._lock = threading.Lock()
        self._steady = OFF
        self._steady_since = 0.0
        self._flash: list[tuple[Look, float]] = []      # queued flashes; the first runs from its start time
        self._written = None
        self._closed = False

    @property
    def look(self) -> Look:
        """The steady look (what the light returns to after any flash)."""
        return self._steady

    @property
    def flashing(self) -> Look | None:
        with self._lock:
            return self._flash[0][0] if self._flash else None

    def show(self, look: Look, now: float | None = None) -> None:
        """Make ``look`` the steady look; an unchanged look keeps its rhythm."""
        now = self._clock() if now is None else now
        with self._lock:
            if look != self._steady:
                self._steady, self._steady_since = look, now
        self.render(now)

    def flash(self, look: Look, now: float | None = None) -> None:
        """Play ``look`` (a non-repeating pattern) once, after any flash already playing."""
        if PATTERNS[look.pattern].repeat:
            raise ValueError(f"a flash needs a pattern that ends, not {look.pattern!r}")
        now = self._clock() if now is None else now
        with self._lock:
            start = now
            if self._flash:
                last_look, last_start = self._flash[-1]
                start = max(now, last_start + PATTERNS[last_look.pattern].duration)
            self._flash.append((look, start))
        self.render(now)

    def render(self, now: float | None = None) -> None:
        """Write the device value for the instant ``now`` (one animation frame)."""
        now = self._clock() if now is None else now
        with self._lock:
            if self._closed:
                return
            look, level = self._current(now)
            value = self._value(look, level)
            if value != self._written:
                self._write(value)
                self._written = value

    def _current(self, now: float) -> tuple[Look, float]:
        while self._flash:
            look, start = self._flash[0]
            if now < start:
                break
            level = look.level(now - start)
            if level is not None:
                return look, level
            self._flash.pop(0)
            # The steady rhythm starts afresh (bright) when the flash ends, so it shows at once.
            self._steady_since = max(self._steady_since, start + PATTERNS[look.pattern].duration)
        level = self._steady.level(now - self._steady_since)
        return self._steady, 0.0 if level is None else level

    @property
    def animated(self) -> bool:
        """True when the device value may change without a new look (a rhythm or a flash)."""
        with self._lock:
            return bool(self._flash) or self._steady.pattern != "solid"

    def _value(self, look: Look, level: float):
        raise NotImplementedError

    def _write(self, value) -> None:
        raise NotImplementedError

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._close_device()

    def _close_device(self) -> None:
        raise NotImplementedError

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id} {self._steady}>"


class RgbLight(Indicator):
    """An RGB LED (gpiozero ``RGBLED``, PWM on all three legs).

    ``pins`` is ``{"red": gpio, "green": gpio, "blue": gpio}``;
    ``common_anode`` for LEDs whose shared leg goes to 3.3 V.
    """

    def __init__(self, id: str, pins: dict, common_anode: bool = False, pin_factory=None,
                 clock: Callable[[], float] = time.monotonic):
        super().__init__(id, clock)
        from gpiozero import RGBLED
        self.device = RGBLED(pins["red"], pins["green"], pins["blue"], active_high=not common_anode,
                             pwm=True, pin_factory=pin_factory)

    def _value(self, look: Look, level: float):
        r, g, b = COLOURS[look.colour]
        # Rounded so that a pulse does not rewrite the pins for invisible changes.
        return (round(r * level, 3), round(g * level, 3), round(b * level, 3))

    def _write(self, value) -> None:
        self.device.value = value

    def _close_device(self) -> None:
        self.device.close()


class PlainLight(Indicator):
    """A single-colour LED (gpiozero ``PWMLED``): the rhythm and brightness carry the meaning."""

    def __init__(self, id: str, gpio: int, pin_factory=None, clock: Callable[[], float] = time.monotonic):
        super().__init__(id, clock)
        from gpiozero import PWMLED
        self.device = PWMLED(gpio, pin_factory=pin_factory)

    def _value(self, look: Look, level: float):
        return 0.0 if look.colour == "off" else round(level, 3)

    def _write(self, value) -> None:
        self.device.value = value

    def _close_device(self) -> None:
        self.device.close()


class BuzzerIndicator(Indicator):
    """An active buzzer (gpiozero ``Buzzer``): sounds while the pattern's brightness is above half."""

    def __init__(self, id: str, gpio: int, active_high: bool = True, pin_factory=None,
                 clock: Callable[[], float] = time.monotonic):
        super().__init__(id, clock)
        from gpiozero import Buzzer
        self.device = Buzzer(gpio, active_high=active_high, pin_factory=pin_factory)

    def _value(self, look: Look, level: float):
        return look.colour != "off" and level > 0.5

    def _write(self, value) -> None:
        self.device.value = value

    def _close_device(self) -> None:
        self.device.close()


class Animator:
    """Renders a set of indicators ``fps`` times a second on one daemon thread.

    Only indicators with a rhythm or a flash are rendered each frame; steady
    ones changed already when their look was set.
    """

    def __init__(self, indicators: list[Indicator], fps: float = 50.0):
        self.indicators = list(indicators)
        self.period = 1.0 / fps
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None and self.indicators:
            self._thread = threading.Thread(target=self._run, name="led-animator", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.period):
            for indicator in self.indicators:
                if indicator.animated:
                    try:
                        indicator.render()
                    except Exception:          # a flaky pin must not stop every other light
                        log.exception("LED %s could not be updated", indicator.id)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)
            self._thread = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.close()
