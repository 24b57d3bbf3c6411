"""Widgets every screen uses: buttons, seat badges, counters, zones, cards, banners.

They only show what they are given and report touches; what a touch means is
decided by the screen (usually: an action sent through ``app.controller``).
"""
from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import (BooleanProperty, ListProperty, NumericProperty, ObjectProperty,
                             StringProperty)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.stacklayout import StackLayout

from ui import theme
from ui.kv import load_kv


class BigButton(Button):
    """A flat button at least 48 px high; ``tone`` is its background colour."""

    tone = ListProperty(theme.PANEL_LIGHT)


class Panel(BoxLayout):
    """A box with a flat background colour."""

    tone = ListProperty(theme.PANEL)


class SeatBadge(Label):
    """A player's name on their seat colour (seat None: neutral)."""

    seat = ObjectProperty(None, allownone=True)


class Banner(ButtonBehavior, Label):
    """A message across the screen: a rejected scan, an error, an undo.

    ``show(text)`` displays it for ``seconds`` (one Clock event, not a
    per-frame callback); touching it hides it at once.
    """

    tone = ListProperty(theme.WARNING)
    shown = BooleanProperty(False)
    _hide_event = None

    def show(self, text: str, tone=None, seconds: float = 8.0) -> None:
        self.text = text
        self.tone = tone or theme.WARNING
        self.shown = True
        if self._hide_event is not None:
            self._hide_event.cancel()
        self._hide_event = Clock.schedule_once(lambda _dt: self.hide(), seconds)

    def hide(self) -> None:
        self.shown = False
        self.text = ""
        if self._hide_event is not None:
            self._hide_event.cancel()
            self._hide_event = None

    def on_press(self):
        self.hide()


class CounterBox(ButtonBehavior, BoxLayout):
    """One counter: its label and a big value.  Touching a counter players may correct
    opens :class:`CounterAdjust` with − and + (each touch is one logged ``adjust``)."""

    counter_id = StringProperty("")
    seat = ObjectProperty(None, allownone=True)
    title = StringProperty("")
    owner = StringProperty("")          # the player's name, for the adjuster's title
    value = NumericProperty(0)
    adjustable = BooleanProperty(False)

    __events__ = ("on_adjust",)

    def on_release(self):
        if self.adjustable:
            CounterAdjust(counter=self).open()

    def on_adjust(self, delta):
        pass


class Modal(ModalView):
    """A view over the screen that opens and closes at once: no fade, so no idle
    animation frames and no touch lost to a view that is still closing."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._anim_duration = 0


class CounterAdjust(Modal):
    """− / + for one counter, big enough for a finger; the value shown is the session's."""

    counter = ObjectProperty(None)
    title = StringProperty("")
    value = NumericProperty(0)

    def __init__(self, counter: CounterBox, **kwargs):
        super().__init__(counter=counter, **kwargs)
        self.title = f"Correct {counter.owner}'s {counter.title}" if counter.owner else f"Correct {counter.title}"
        self.value = counter.value
        self._follow = self.setter("value")
        counter.bind(value=self._follow)

    def adjust(self, delta: int) -> None:
        self.counter.dispatch("on_adjust", delta)

    def on_dismiss(self):
        self.counter.unbind(value=self._follow)


class CardChip(Label):
    """One card in a zone: its face, or a card back when it lies face down."""

    hidden = BooleanProperty(False)
    compact = BooleanProperty(False)       # smaller, in a short zone


class ZoneBox(ButtonBehavior, BoxLayout):
    """A zone of the table: its name, its cards (hidden ones as backs) and the engine's summary."""

    zone_id = StringProperty("")
    title = StringProperty("")
    seat = ObjectProperty(None, allownone=True)
    summary = StringProperty("")
    highlight = BooleanProperty(False)
    cards = ListProperty()          # [(text, hidden)]
    #: a short zone (two rows per player): cards beside the summary, smaller
    compact = BooleanProperty(False)

    def on_size(self, _instance, size):
        app = App.get_running_app()
        self.compact = size[1] < 100 * (app.scale if app else 1.0)

    #: more cards than this on one zone are drawn small, so a tall stack stays inside its box
    FULL_SIZE_CARDS = 3

    def on_compact(self, _instance, _compact):
        self.on_cards(self, self.cards)

    def on_cards(self, _instance, cards):
        box: StackLayout = self.ids.chips
        chips = box.children[::-1]
        small = self.compact or len(cards) > self.FULL_SIZE_CARDS
        for n, (text, hidden) in enumerate(cards):
            if n < len(chips):
                chips[n].text, chips[n].hidden, chips[n].compact = text, hidden, small
            else:
                box.add_widget(CardChip(text=text, hidden=hidden, compact=small))
        for chip in chips[len(cards):]:
            box.remove_widget(chip)


load_kv(__file__)
