"""The table's deck-check view at a club event: "Pass Ana's deck over the deck-check pad one card at a time".

Opened from the pairing screen's *Deck check* button of a player
(:class:`ui.pairing.PairingView`).  While it is up, every pad event comes here
instead of the game (the controller's ``pad_taker``, through the input road's
``take_pads``, as on the Cards screen); each new card is counted on the screen
and sent to the hub, which holds the registered list and judges
(:class:`companion.club.eventtable.DeckCheck`).  The verdict — "Ana's deck: 50
cards, as registered", or "See the organiser: 1 missing, 1 extra" — comes at
the card that completes the list, or 1.5 s after the last card (*Done* says
so at once).  The screen shows counts, never card names: the table is shared,
and the names are on the organiser's page.  Nothing here blocks: pad events
arrive on the main thread, the hub's answer is stored by paho's thread and
read by a 10 Hz tick.

:func:`deck_check_pad` is which pad reads: the pad the game's layout gives its
``deck_check`` zone, or any pad when the game has none.
"""
from __future__ import annotations

from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label

from ui import theme
from ui.pairing import _fscale

DECK_CHECK_ZONE = "deck_check"


def deck_check_pad(game: str, options: dict, profile=None) -> str | None:
    """The pad of the game's deck-check zone on this table; None: the game has none (any pad reads)."""
    from companion import games
    from companion.engine import IllegalAction
    from companion.table import ProfileError, layout_for
    try:
        rules = games.get(game)
        options = rules.normalise_options(options)
        pads = layout_for(rules, options, profile).pads_of(DECK_CHECK_ZONE)
    except (KeyError, ValueError, ProfileError, IllegalAction):
        return None
    return pads[0] if pads else None


def where_line(name: str, pad: str | None, game_title: str) -> str:
    if pad is not None:
        return f"Pass {name}'s deck over the deck-check pad one card at a time"
    return f"Pass {name}'s deck over any pad one card at a time ({game_title} has no deck-check pad)"


class DeckCheckView(BoxLayout):
    """One player's deck check: what to do, the cards read, the hub's verdict; ``on_close()`` to leave."""

    def __init__(self, check, game_title: str, on_close, **kwargs):
        super().__init__(orientation="vertical", padding=14, spacing=10, **kwargs)
        self.check, self.on_close = check, on_close
        with self.canvas.before:
            Color(*theme.BACKGROUND)
            self._bg = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=lambda *a: setattr(self._bg, "pos", self.pos), size=lambda *a: setattr(self._bg, "size", self.size))
        f = _fscale()

        def label(text="", size=theme.FONT_BODY, **kw):
            w = Label(text=text, font_size=size * f, color=theme.TEXT, halign="center", valign="middle", **kw)
            w.bind(size=lambda w, s: setattr(w, "text_size", s))
            return w
        self.headline = label(where_line(check.name, check.pad, game_title), theme.FONT_LARGE, bold=True,
                              size_hint_y=None, height=theme.TOUCH * f * 1.6)
        self.count = label("", theme.FONT_COUNTER, bold=True)
        self.status = label("", theme.FONT_LARGE, bold=True, size_hint_y=None, height=theme.TOUCH * f * 1.6)
        buttons = BoxLayout(orientation="horizontal", spacing=12, size_hint_y=None, height=theme.TOUCH * f * 1.2)
        self.done_button = Button(text="Done: that was the last card", font_size=theme.FONT_BODY * f,
                                  background_normal="", background_color=theme.PANEL_LIGHT, color=theme.TEXT)
        self.done_button.bind(on_release=lambda *_: self.finish())
        self.again_button = Button(text="Send again", font_size=theme.FONT_BODY * f, background_normal="",
                                   background_color=theme.PANEL_LIGHT, color=theme.TEXT)
        self.again_button.bind(on_release=lambda *_: self.send_again())
        self.close_button = Button(text="Back to the pairing", font_size=theme.FONT_BODY * f, background_normal="",
                                   background_color=theme.PANEL, color=theme.TEXT)
        self.close_button.bind(on_release=lambda *_: self.close())
        for b in (self.done_button, self.again_button, self.close_button):
            buttons.add_widget(b)
        for w in (self.headline, self.count, self.status, buttons):
            self.add_widget(w)
        self._tick = Clock.schedule_interval(lambda dt: self.refresh(), 0.1)
        self.refresh()

    def take_pad_event(self, ev) -> bool:
        """The controller's ``pad_taker`` (main thread): every pad event while the view is up."""
        if self.check.feed(ev):
            self.refresh()
        return True

    def refresh(self) -> None:
        check = self.check
        check.poll()
        n = len(check.cards)
        self.count.text = f"{n} card{'s' if n != 1 else ''} read"
        self.status.text = check.status
        waiting = check.sent_final is not None and not check.done
        self.done_button.disabled = check.done or waiting or not check.cards
        self.again_button.disabled = not (waiting and check.status.startswith("The hub did not answer"))

    def finish(self) -> None:
        self.check.finish()
        self.refresh()

    def send_again(self) -> None:
        self.check.send_again()
        self.refresh()

    def close(self) -> None:
        self._tick.cancel()
        self.on_close()


__all__ = ["DeckCheckView", "deck_check_pad", "where_line"]
