"""Players' confirm buttons: a short press confirms, a long press undoes.

Each button is a gpiozero ``Button`` (to ground, internal pull-up, unless the
profile says ``pull_up = false``).  A press enters the game exactly like a
touch on the screen: the panel is attached to the app's input road
(``companion.inputs.InputRoad``, which applies it on its own thread in turn
with pad events and touches) or, where nothing else plays, to a session:

* short press → ``confirm(seat)``: whatever the rules say the button
  means now (``Rules.confirm_action``: "done", "resolve", "next round"…);
* long press (``hold_time``, 1 s) → ``undo()``.

A press is counted on release, so a long press never also confirms; a press
shorter than ``bounce_time`` is contact bounce, not a press.  gpiozero's own
``bounce_time`` filters edges in the pin driver as well; the release test
also holds where the driver does not debounce (gpiozero's mock pins).

What the session refuses (``IllegalAction``: "nothing to undo") or any other
error never stops the buttons: it becomes an event for ``report`` (the screen
shows it, the buzzer beeps) and the next press works as usual::

    panel = ButtonPanel([ButtonSpec("north-confirm", 0, 26)], pin_factory=pins)
    panel.attach(session, report=lambda event: print(event["text"]))
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable

from companion.engine import IllegalAction
from hardware.pins import ButtonSpec

log = logging.getLogger(__name__)

BOUNCE_TIME = 0.02     # s: mechanical bounce lasts a few ms; a real tap lasts ≥ 50 ms
HOLD_TIME = 1.0        # s: a long press (undo)

Report = Callable[[dict], None]


class ConfirmButton:
    """One physical button: ``on_press()`` on a short press, ``on_hold()`` on a long one."""

    def __init__(self, spec: ButtonSpec, on_press: Callable[[], None], on_hold: Callable[[], None],
                 pin_factory=None, bounce_time: float = BOUNCE_TIME, hold_time: float = HOLD_TIME,
                 clock: Callable[[], float] = time.monotonic):
        from gpiozero import Button
        self.spec = spec
        self.bounce_time = bounce_time
        self._on_press = on_press
        self._on_hold = on_hold
        self._clock = clock
        self._pressed_at: float | None = None
        self._held = False
        self.device = Button(spec.gpio, pull_up=spec.pull_up, bounce_time=bounce_time, hold_time=hold_time,
                             pin_factory=pin_factory)
        self.device.when_pressed = self._pressed
        self.device.when_held = self._hold
        self.device.when_released = self._released

    def _pressed(self) -> None:
        self._pressed_at = self._clock()
        self._held = False

    def _hold(self) -> None:
        self._held = True
        self._on_hold()

    def _released(self) -> None:
        pressed_at, self._pressed_at = self._pressed_at, None
        if self._held or pressed_at is None:
            return
        if self._clock() - pressed_at < self.bounce_time:
            return                               # contact bounce
        self._on_press()

    def close(self) -> None:
        self.device.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class ButtonPanel:
    """Every confirm button of the table, routed to the session being played."""

    def __init__(self, specs: list[ButtonSpec] | tuple[ButtonSpec, ...], pin_factory=None,
                 bounce_time: float = BOUNCE_TIME, hold_time: float = HOLD_TIME):
        self._session = None
        self._report: Report | None = None
        self._lock = threading.Lock()
        self.buttons: list[ConfirmButton] = []
        try:
            for spec in specs:
                self.buttons.append(ConfirmButton(
                    spec, on_press=lambda seat=spec.seat: self._confirm(seat),
                    on_hold=lambda seat=spec.seat: self._undo(seat),
                    pin_factory=pin_factory, bounce_time=bounce_time, hold_time=hold_time))
        except Exception:
            self.close()
            raise

    def attach(self, session, report: Report | None = None) -> None:
        """Send presses to ``session`` (a Session, or the input road) from now on; refusals and
        errors go to ``report``."""
        with self._lock:
            self._session, self._report = session, report

    def _confirm(self, seat: int) -> None:
        self._run(seat, "press", lambda s: s.confirm(seat))

    def _undo(self, seat: int) -> None:
        self._run(seat, "long press", lambda s: s.undo())

    def _run(self, seat: int, what: str, call) -> None:
        with self._lock:
            session, report = self._session, self._report
        if session is None:
            return
        player = _player(session, seat)
        try:
            events = call(session)
        except IllegalAction as exc:
            self._tell(report, seat, f"{player}'s button ({what}): {exc}")
            return
        except Exception as exc:                 # never let a press kill the button thread
            log.exception("%s's button (%s) failed", player, what)
            self._tell(report, seat, f"{player}'s button ({what}) failed: {exc}; the game is unchanged")
            return
        if what == "press" and not events:
            self._tell(report, seat, f"{player}'s button: nothing to confirm right now", refused=False)

    @staticmethod
    def _tell(report: Report | None, seat: int, text: str, refused: bool = True) -> None:
        event = {"type": "button_rejected" if refused else "button_idle", "seat": seat, "text": text}
        log.info(text)
        if report is not None:
            try:
                report(event)
            except Exception:
                log.exception("the screen could not be told: %s", text)

    def close(self) -> None:
        for button in self.buttons:
            button.close()
        self.buttons = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _player(session, seat: int) -> str:
    players = session.options.get("players") or ["North", "South"]
    return players[seat] if seat < len(players) else f"Seat {seat}"
