"""What the Cards and Decks screens share: a tab per game, and the pads while they are shown.

While such a screen is shown, every pad event goes to its ``take_pad_event``
instead of the game (``controller.pad_taker``), so a card scanned to be
registered or counted into a deck is never played by accident.
"""
from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion import games
from ui import theme
from ui.screens.home import playable_games
from ui.widgets import BigButton


class ScanningScreen(Screen):
    game = StringProperty("")
    simulated = BooleanProperty(False)

    def prepare(self, game: str | None = None) -> None:
        names = playable_games()
        chosen = game or (self.game if self.game in names else (names[0] if names else ""))
        if chosen != self.game:
            self.game_changed()
        self.game = chosen
        if self.manager is not None and self.manager.current == self.name:
            self._game_buttons()             # asked for another game while shown: no on_pre_enter comes
            self.refresh()

    def game_changed(self) -> None:
        """Hook: forget what was scanned for the previous game."""

    def on_pre_enter(self, *args):
        controller = App.get_running_app().controller
        self.simulated = controller.simulated
        if not self.game:
            self.prepare()
        controller.pad_taker = self.take_pad_event
        self._game_buttons()
        self.refresh()

    def on_leave(self, *args):
        controller = App.get_running_app().controller
        if controller.pad_taker == self.take_pad_event:
            controller.pad_taker = None

    def _game_buttons(self) -> None:
        box = self.ids.game_buttons
        box.clear_widgets()
        scale = App.get_running_app().scale
        for name in playable_games():
            b = BigButton(text=games.short_name(name), font_size=theme.FONT_BODY * App.get_running_app().fscale,
                          tone=theme.HIGHLIGHT if name == self.game else theme.PANEL_LIGHT,
                          color=theme.CARD_TEXT if name == self.game else theme.TEXT)
            b.bind(on_release=lambda _b, n=name: self.pick_game(n))
            box.add_widget(b)

    def pick_game(self, name: str) -> None:
        self.prepare(name)

    def take_pad_event(self, ev) -> bool:
        raise NotImplementedError

    def refresh(self) -> None:
        raise NotImplementedError
