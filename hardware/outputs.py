"""The table's LEDs, buttons and buzzer, driven by the session and nothing else.

The composition root (``companion run``) opens them from the table profile and
attaches them to the session being played::

    outputs = open_outputs(config)        # NoOutputs when the profile lists none
    outputs.attach(session, report=screen_message)
    ...
    outputs.close()

After every change of the session (an action, an undo, a refused scan) the
outputs read the shared view and the change's events and set each light's
look (:mod:`hardware.signals` says which); the light changes in that same
thread, before the session call returns.  Button presses go into the session
(:mod:`hardware.buttons`).  Nothing here knows a game or a screen.
"""
from __future__ import annotations

import logging
import time
from typing import Callable

from hardware import signals
from hardware.buttons import BOUNCE_TIME, HOLD_TIME, ButtonPanel, Report
from hardware.leds import SEAT_COLOURS, Animator, BuzzerIndicator, Indicator, Look, PlainLight, RgbLight
from hardware.pins import LedSpec, PinProfile, parse_pins

log = logging.getLogger(__name__)


class NoOutputs:
    """A table without LEDs, buttons or buzzer."""

    problem: str | None = None
    sound = True

    def self_test(self, what: str = "lights") -> list[str]:
        """Nothing to light or sound: the ids of what was tested, none."""
        return []

    def attach(self, session, report: Report | None = None) -> None:
        pass

    def send_presses_to(self, road) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class TableOutputs:
    """Turn lights, lane lights, a buzzer and confirm buttons for one table.

    ``pin_factory`` is gpiozero's (None: the Pi's own pins; tests and the
    benchmark pass a ``MockFactory``).  ``clock`` and ``animate`` exist for
    tests that render chosen instants instead of running the animation thread.
    """

    def __init__(self, pins: PinProfile, pin_factory=None, clock: Callable[[], float] = time.monotonic,
                 animate: bool = True, bounce_time: float = BOUNCE_TIME, hold_time: float = HOLD_TIME):
        self.pins = pins
        self._clock = clock
        self.seat_lights: list[tuple[LedSpec, Indicator]] = []
        self.lane_lights: list[tuple[LedSpec, Indicator]] = []
        self.buzzer: Indicator | None = None
        self.buttons: ButtonPanel | None = None
        self._session = None
        self._road = None
        self._unsubscribe: Callable[[], None] | None = None
        self._report: Report | None = None
        self._lanes = signals.LaneMemory()
        try:
            for spec in pins.leds:
                light = _open_light(spec, pin_factory, clock)
                (self.lane_lights if spec.is_lane else self.seat_lights).append((spec, light))
            if pins.buzzer is not None:
                self.buzzer = BuzzerIndicator("buzzer", pins.buzzer.gpio, pins.buzzer.active_high,
                                              pin_factory=pin_factory, clock=clock)
            self.buttons = ButtonPanel(pins.buttons, pin_factory=pin_factory, bounce_time=bounce_time,
                                       hold_time=hold_time)
        except Exception:
            self.close()
            raise
        self.animator = Animator(self.indicators())
        if animate:
            self.animator.start()

    def indicators(self) -> list[Indicator]:
        return ([light for _, light in self.seat_lights] + [light for _, light in self.lane_lights]
                + ([self.buzzer] if self.buzzer else []))

    def light(self, id: str) -> Indicator:
        """The light with profile id ``id``."""
        for spec, light in self.seat_lights + self.lane_lights:
            if spec.id == id:
                return light
        raise KeyError(f"no LED called {id!r}")

    # ---- the session -------------------------------------------------------
    def attach(self, session, report: Report | None = None) -> None:
        """Follow ``session`` (replacing any earlier one) and send button presses to it.

        ``report(event)`` receives what the buttons could not do (an
        ``IllegalAction`` as ``{"type": "button_rejected", "seat", "text"}``)
        so the screen can show it; it may be called from a button's thread.
        Without ``report`` the event goes to every session listener through
        ``session.report`` (the screen and these lights among them).
        """
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._session, self._report = session, report
        self._lanes = signals.LaneMemory()
        self._unsubscribe = session.subscribe(self._changed)
        if self.buttons is not None and self._road is None:
            self.buttons.attach(session, self._button_report)
        self._changed(session, [])

    def send_presses_to(self, road) -> None:
        """Hand every button press to ``road`` (companion.inputs.InputRoad), the one way in that pad
        events and touches take too, whichever game it feeds; :meth:`attach` then only follows the
        game with the lights."""
        self._road = road
        if self.buttons is not None:
            self.buttons.attach(road, self._button_report)

    def _button_report(self, event: dict) -> None:
        if self._report is None:
            if self._session is not None:
                self._session.report([event])      # our own listener beeps for it
            return
        if self.buzzer is not None and signals.is_refusal(event):
            self.buzzer.flash(Look("white", "beep"))
        self._report(event)

    def _changed(self, session, events: list) -> None:
        """The session listener: set every light from the view after this change."""
        try:
            self._show(session.view(None), events, len(session.actions))
        except Exception:          # the lights must never break a game
            log.exception("the LEDs could not follow the game")

    def _show(self, view: dict, events: list, action_count: int) -> None:
        now = self._clock()
        outcome = signals.battle_outcome(events)
        for spec, light in self.seat_lights:
            if outcome is not None:
                light.flash(signals.seat_flash(outcome, spec.seat), now)
            light.show(signals.seat_look(view, spec.seat), now)
        if self.lane_lights:
            self._lanes.update(view, events, action_count)
            layout = self._session.table.layout
            target = signals.solo_target(view)
            for spec, light in self.lane_lights:
                zones = {layout.zone_of(pad) for pad in spec.pads} - {None}
                if target is not None and target[0] in zones:
                    light.show(Look(SEAT_COLOURS[target[1]], "pulse"), now)
                    continue
                light.show(signals.lane_look(self._lanes.result_for(zones), spec.kind, spec.seat), now)
        if self.buzzer is not None and self.sound and any(signals.is_refusal(e) for e in events):
            self.buzzer.flash(Look("white", "beep"), now)

    #: the buzzer beeps on refused scans (Settings → Sound turns it off; the test still beeps)
    sound = True

    def self_test(self, what: str = "lights") -> list[str]:
        """Settings' test: flash every light white three times ("lights"), or beep ("sound").

        Returns the ids of what was flashed; the steady looks come back after the flash.
        """
        if what == "sound":
            if self.buzzer is None:
                return []
            self.buzzer.flash(Look("white", "beep"))
            return [self.buzzer.id]
        lights = [(spec, light) for spec, light in self.seat_lights + self.lane_lights]
        for _spec, light in lights:
            light.flash(Look("white", "win"))
        return [spec.id for spec, _light in lights]

    def close(self) -> None:
        """Stop following the session, turn every light off and free the pins."""
        if self._unsubscribe is not None:
            try:
                self._unsubscribe()
            except ValueError:
                pass
            self._unsubscribe = None
        animator = getattr(self, "animator", None)
        if animator is not None:
            animator.close()
        if self.buttons is not None:
            self.buttons.close()
        for indicator in self.indicators():
            indicator.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _open_light(spec: LedSpec, pin_factory, clock) -> Indicator:
    if spec.kind == "rgb":
        return RgbLight(spec.id, spec.pins, spec.common_anode, pin_factory=pin_factory, clock=clock)
    return PlainLight(spec.id, spec.pins["gpio"], pin_factory=pin_factory, clock=clock)


def open_outputs(config, pin_factory=None):
    """The outputs the table profile of ``config`` (an ``AppConfig``) lists.

    No profile, or a profile without LEDs, buttons or buzzer: :class:`NoOutputs`.
    A profile whose pins clash raises :class:`hardware.pins.PinProfileError`
    with every problem named.  When the GPIO cannot be opened (not a Pi, no
    permission) the game still runs: :class:`NoOutputs` with ``problem`` saying why.
    """
    profile = config.profile()
    if profile is None:
        return NoOutputs()
    pins = parse_pins(profile.raw, profile.source, profile.pads or None)
    if pins.empty:
        return NoOutputs()
    try:
        return TableOutputs(pins, pin_factory=pin_factory)
    except Exception as exc:      # gpiozero raises several kinds (BadPinFactory, GPIOPinInUse, OSError…)
        outputs = NoOutputs()
        outputs.problem = (f"{profile.source}: the LEDs and buttons could not be opened ({exc}); "
                           "the game runs without them")
        log.warning(outputs.problem)
        return outputs
