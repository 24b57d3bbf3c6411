"""A button that needs a second tap: nothing is lost by one touch.

Forfeit, abandon and clear act only when touched twice within a few seconds;
the first touch turns the button vermillion and says what the second one will
do ("Tap again to abandon").  Left alone, it goes back as it was.
"""
from __future__ import annotations

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

from ui import theme
from ui.widgets import BigButton

#: what times the second-tap window: Kivy's clock (``schedule_once(callback, seconds)`` → an event
#: with ``cancel()``).  A test puts a clock it moves itself here, so that whether the second tap came
#: in time never depends on how fast the machine drew the frames between the two taps.
clock = Clock


class ConfirmButton(BigButton):
    """``on_confirm`` fires on the second tap; ``confirm_text`` is what the armed button says."""

    confirm_text = StringProperty("")
    armed = BooleanProperty(False)
    seconds = NumericProperty(4.0)
    _rest = ListProperty()              # text, tone and colour to go back to

    __events__ = ("on_confirm",)
    _disarm_event = None

    def on_release(self):
        if not self.armed:
            self._rest = [self.text, list(self.tone), list(self.color)]
            self.armed = True
            self.text = self.confirm_text or f"Tap again: {self.text}"
            self.tone, self.color = theme.WARNING, theme.TEXT
            self._disarm_event = clock.schedule_once(lambda _dt: self.disarm(), self.seconds)
            return
        self.disarm()
        self.dispatch("on_confirm")

    def disarm(self) -> None:
        if self._disarm_event is not None:
            self._disarm_event.cancel()
            self._disarm_event = None
        if self.armed:
            self.armed = False
            self.text, tone, color = self._rest
            self.tone, self.color = tone, color

    def on_confirm(self):
        pass


def second_tap(button, seconds: float = 4.0) -> bool:
    """For a button made elsewhere (the table's action buttons): True on the second tap within
    ``seconds``; the first tap only arms it ("Tap again: Forfeit: South", vermillion)."""
    if getattr(button, "armed", False):
        _restore(button)
        return True
    saved = {"tone": list(getattr(button, "tone", theme.PANEL_LIGHT))}
    if hasattr(button, "choices"):
        saved["choices"] = list(button.choices)
        button.choices = [f"Tap again: {c}" for c in button.choices if c] + ["Tap again"]
    else:
        saved["text"] = button.text
        button.text = f"Tap again: {button.text}"
    button._confirm_saved = saved
    button.armed = True
    if hasattr(button, "tone"):
        button.tone = theme.WARNING
    button._confirm_event = clock.schedule_once(lambda _dt: _restore(button), seconds)
    return False


def _restore(button) -> None:
    saved = getattr(button, "_confirm_saved", None) or {}
    forget(button)
    for key, value in saved.items():
        setattr(button, key, value)


def forget(button) -> None:
    """The button is about to stand for another action: a pending first tap no longer counts
    (and will not put its old words back)."""
    event = getattr(button, "_confirm_event", None)
    if event is not None:
        event.cancel()
    button._confirm_event = None
    button._confirm_saved = None
    button.armed = False
