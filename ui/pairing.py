"""The table's pairing screen at a club event: "Round 2 · Table 5: Ana (North) vs Ben (South)".

Shown at the table's start screen while the hub has sent the table a pairing
(:class:`companion.club.eventtable.EventTable`).  Each seat's half shows the
name the pairing puts there, in the seat's colour; the player sitting there
presses their seat's button to say "that's me" (the physical buttons arrive as
presses — :meth:`PairingView.press` is what the app calls with the seat of a
press while this view is up; on the simulated table, the on-screen button of
each half is the same press).  *Swap seats* when they sit the other way round
(both press again).  Once both have pressed, ``on_start(event_table)`` starts
the game with those names (the app's ``Session.start`` through
``EventTable.start``).

Only names, the round and the table number are shown: a pairing carries
nothing else.
"""
from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label

from ui import theme
from ui.confirm import ConfirmButton

DROP = "I drop from the event"


def _fscale() -> float:
    app = App.get_running_app()
    return getattr(app, "fscale", 1.0) if app is not None else 1.0


class _SeatHalf(BoxLayout):
    """One seat's half: its colour, the name the pairing puts there, whether it has pressed."""

    def __init__(self, seat: int, seat_name: str, press, **kwargs):
        super().__init__(orientation="vertical", padding=12, spacing=8, **kwargs)
        self.seat = seat
        with self.canvas.before:
            Color(*theme.SEAT_COLOURS[seat])
            self._bg = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=lambda *a: setattr(self._bg, "pos", self.pos), size=lambda *a: setattr(self._bg, "size", self.size))
        ink = theme.SEAT_TEXT[seat]
        f = _fscale()
        self.where = Label(text=seat_name, color=ink, font_size=theme.FONT_BODY * f, size_hint_y=None,
                           height=theme.TOUCH * f * 0.7)
        self.name = Label(text="", color=ink, font_size=theme.FONT_COUNTER * f, bold=True, halign="center",
                          valign="middle")
        self.name.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.state = Label(text="", color=ink, font_size=theme.FONT_BODY * f, size_hint_y=None,
                           height=theme.TOUCH * f * 0.8)
        self.button = Button(text="", font_size=theme.FONT_LARGE * f, size_hint_y=None, height=theme.TOUCH * f * 1.4,
                             background_normal="", background_color=theme.PANEL, color=theme.TEXT)
        self.button.bind(on_release=lambda *_: press(seat))
        for w in (self.where, self.name, self.state, self.button):
            self.add_widget(w)

    def show(self, name: str, pressed: bool) -> None:
        self.name.text = name
        self.state.text = "Confirmed: ready to play" if pressed else "Press your seat's button"
        self.button.text = f"I am {name}"
        self.button.disabled = pressed


class PairingView(BoxLayout):
    """The pairing, the two seats, *Swap seats*; ``on_start(event_table)`` once both have pressed."""

    def __init__(self, event_table, on_start, seat_names=("North", "South"), on_deck_check=None, **kwargs):
        super().__init__(orientation="vertical", padding=14, spacing=12, **kwargs)
        self.event_table, self.on_start, self.seat_names = event_table, on_start, tuple(seat_names)
        self.on_deck_check = on_deck_check          # f(player index in the pairing): a seat's *Deck check*
        with self.canvas.before:
            Color(*theme.BACKGROUND)
            self._bg = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=lambda *a: setattr(self._bg, "pos", self.pos), size=lambda *a: setattr(self._bg, "size", self.size))
        f = _fscale()
        self.headline = Label(text="", font_size=theme.FONT_LARGE * f, bold=True, color=theme.TEXT,
                              size_hint_y=None, height=theme.TOUCH * f * 1.2, halign="center", valign="middle")
        self.headline.bind(size=lambda w, s: setattr(w, "text_size", s))
        seats = BoxLayout(orientation="horizontal", spacing=12)
        self.halves = [_SeatHalf(s, self.seat_names[s], self.press) for s in (0, 1)]
        for half in self.halves:
            seats.add_widget(half)
        self.deck_buttons = []
        if on_deck_check is not None:           # a judge's deck check of the player at that seat, before the game
            for seat, half in enumerate(self.halves):
                b = Button(text="Deck check", font_size=theme.FONT_BODY * f, size_hint_y=None, height=theme.TOUCH * f,
                           background_normal="", background_color=theme.PANEL_LIGHT, color=theme.TEXT)
                b.bind(on_release=lambda *_, s=seat: self.deck_check(s))
                half.add_widget(b)
                self.deck_buttons.append(b)
        self.swap_button = Button(text="Swap seats", font_size=theme.FONT_LARGE * f, size_hint_y=None,
                                  height=theme.TOUCH * f * 1.2, background_normal="",
                                  background_color=theme.PANEL_LIGHT, color=theme.TEXT)
        self.swap_button.bind(on_release=lambda *_: self.swap())
        for w in (self.headline, seats, self.swap_button):
            self.add_widget(w)
        event_table.listeners.append(lambda pairing: Clock.schedule_once(lambda dt: self.refresh()))
        self.refresh()

    def refresh(self) -> None:
        table = self.event_table
        if table.pairing is None:
            self.headline.text = "Waiting for the organiser's pairing…"
            for half in self.halves:
                half.show("—", False)
                half.state.text = ""
                half.button.disabled = True
            for b in self.deck_buttons:
                b.disabled, b.text = True, "Deck check"
            self.swap_button.disabled = True
            return
        self.headline.text = table.line(self.seat_names)
        for seat, name in enumerate(table.names()):
            self.halves[seat].show(name, seat in table.pressed)
            if self.deck_buttons:
                self.deck_buttons[seat].disabled, self.deck_buttons[seat].text = False, f"Deck check: {name}"
        self.swap_button.disabled = False

    def deck_check(self, seat: int) -> None:
        """The *Deck check* button of ``seat``: the deck of the player the pairing puts there."""
        if self.event_table.pairing is not None and self.on_deck_check is not None:
            self.on_deck_check(self.event_table.order[seat])

    def press(self, seat: int) -> None:
        """A seat's button (physical or on screen): that player confirms where they sit."""
        if self.event_table.pairing is None:
            return
        both = self.event_table.press(seat)
        self.refresh()
        if both:
            self.on_start(self.event_table)

    def swap(self) -> None:
        self.event_table.swap()
        self.refresh()


class _AnswerHalf(_SeatHalf):
    """One seat's answer to the result: *Agree* (the seat's button) or *Dispute*; and *I drop from
    the event*, which asks twice ("Drop Ana from Friday Club Night? Tap again to drop")."""

    def __init__(self, seat: int, seat_name: str, answer, drop, **kwargs):
        super().__init__(seat, seat_name, lambda s: answer(s, True), **kwargs)
        f = _fscale()
        self.dispute = Button(text="Dispute", font_size=theme.FONT_BODY * f, size_hint_y=None,
                              height=theme.TOUCH * f, background_normal="", background_color=theme.WARNING,
                              color=theme.TEXT)
        self.dispute.bind(on_release=lambda *_: answer(seat, False))
        self.add_widget(self.dispute)
        self.drop = ConfirmButton(text=DROP, font_size=theme.FONT_BODY * f, size_hint_y=None, height=theme.TOUCH * f)
        self.drop.bind(on_confirm=lambda *_: drop(seat))
        self.add_widget(self.drop)

    def answered(self, name: str, agreed: bool | None) -> None:
        self.name.text = name
        self.state.text = ("Agreed" if agreed else "Disputed: the organiser decides") if agreed is not None \
            else "Is this the result?"
        self.button.text = "Agree"
        self.button.disabled = self.dispute.disabled = agreed is not None


class AnswerView(BoxLayout):
    """After an event's game: each player agrees with the result (their seat's button) or disputes it.

    ``on_done()`` once both have answered.  The answers go to the hub through the table's outbox
    (:meth:`companion.club.eventtable.EventTable.answer`)."""

    def __init__(self, event_table, session, result_text: str, on_done, seat_names=("North", "South"), **kwargs):
        super().__init__(orientation="vertical", padding=14, spacing=12, **kwargs)
        self.event_table, self.session, self.on_done = event_table, session, on_done
        with self.canvas.before:
            Color(*theme.BACKGROUND)
            self._bg = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=lambda *a: setattr(self._bg, "pos", self.pos), size=lambda *a: setattr(self._bg, "size", self.size))
        f = _fscale()
        self.headline = Label(text=result_text, font_size=theme.FONT_LARGE * f, bold=True, color=theme.TEXT,
                              size_hint_y=None, height=theme.TOUCH * f * 1.2, halign="center", valign="middle")
        self.headline.bind(size=lambda w, s: setattr(w, "text_size", s))
        seats = BoxLayout(orientation="horizontal", spacing=12)
        self.halves = [_AnswerHalf(s, seat_names[s], self.answer, self.drop) for s in (0, 1)]
        for half in self.halves:
            seats.add_widget(half)
        self.add_widget(self.headline)
        self.add_widget(seats)
        self.refresh()

    def refresh(self) -> None:
        names = self.session.options.get("players") or ["North", "South"]
        for seat, half in enumerate(self.halves):
            half.answered(names[seat], self.event_table.answered.get((self.session.id, seat)))
            half.drop.confirm_text = self.event_table.drop_question(self.session, seat)
            if self.event_table.has_dropped(self.session, seat):
                half.drop.disarm()
                half.drop.text, half.drop.disabled = f"{names[seat]} has dropped: the organiser can undo it", True

    def drop(self, seat: int) -> None:
        """A seat's *I drop from the event*, tapped twice: that player is not paired again."""
        self.event_table.drop(self.session, seat)
        self.refresh()

    def answer(self, seat: int, agree: bool) -> None:
        """A seat's answer (its button: agree; or the Dispute button)."""
        self.event_table.answer(self.session, seat, agree, None if agree else "disputed at the table")
        self.refresh()
        if all((self.session.id, s) in self.event_table.answered for s in (0, 1)):
            self.on_done()


__all__ = ["AnswerView", "PairingView"]
