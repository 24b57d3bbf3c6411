"""Game setup: the players' names, the variants from the rulings, a deck check, Start.

Options come from ``rules.options`` (see :class:`companion.engine.Option`): a
yes/no option is a toggle, an option with choices is a row of buttons, a free
number has − and +.  Each shows its help sentence, so players know what the
variant changes before they pick it.
"""
from __future__ import annotations

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion import games
from companion.engine import IllegalAction, Option
from companion.table import ProfileError
from ui import theme
from ui.keyboard import DockedKeyboard  # noqa: F401  (used by setup.kv)
from ui.kv import load_kv
from ui.widgets import BigButton

DEFAULT_PLAYERS = ("North", "South")


class SetupScreen(Screen):
    game = StringProperty("")
    game_title = StringProperty("")
    can_check_decks = False

    def on_kv_post(self, base_widget):
        self.ids.keyboard.watch(self.ids.player0, self.ids.player1)
        # A renamed player is renamed on every button that names them ("First player: Alex").
        self.ids.player0.bind(text=lambda *_a: self._rename())
        self.ids.player1.bind(text=lambda *_a: self._rename())

    def _rename(self) -> None:
        for option, choice, button in getattr(self, "_named_buttons", []):
            button.text = self._choice_label(option, choice)

    def prepare(self, game: str) -> None:
        rules = games.get(game)
        self._named_buttons = []
        self.ids.keyboard.done()
        self.game = game
        self.game_title = rules.title
        self.values = rules.default_options()
        self.ids.player0.text = self.ids.player0.text or DEFAULT_PLAYERS[0]
        self.ids.player1.text = self.ids.player1.text or DEFAULT_PLAYERS[1]
        self.ids.banner.hide()
        self.can_check_decks = hasattr(rules, "validate_deck")
        self.ids.deck_button.disabled = not self.can_check_decks
        self.ids.deck_button.text = "Check a deck" if self.can_check_decks else "No deck rules to check"
        box = self.ids.options
        box.clear_widgets()
        for option in rules.options:
            if option.choices or isinstance(option.default, (bool, int)):
                box.add_widget(self._option_row(option))
            # else an option the screen has no control for (Lifeforce's list of 50 card ids per
            # deck): its default stands, and a row with a sentence and no control only puzzles
        if not rules.options:
            box.add_widget(Label(text="This game has no variants.", color=theme.MUTED, size_hint_y=None,
                                 height=40 * _scale()))

    def players(self) -> list[str]:
        names = [self.ids.player0.text.strip() or DEFAULT_PLAYERS[0], self.ids.player1.text.strip() or DEFAULT_PLAYERS[1]]
        if names[0] == names[1]:
            names[1] += " 2"
        return names

    def _option_row(self, option: Option) -> BoxLayout:
        s = _scale()
        row = BoxLayout(orientation="vertical", size_hint_y=None, height=(theme.TOUCH + 30) * s, spacing=2 * s)
        line = BoxLayout(spacing=6 * s)
        line.add_widget(Label(text=option.label, bold=True, halign="left", valign="middle",
                              text_size=(230 * s, None), size_hint_x=None, width=230 * s))
        controls = BoxLayout(spacing=4 * s)
        if option.choices:
            buttons = []
            for choice in option.choices:
                b = BigButton(text=self._choice_label(option, choice))
                self._named_buttons.append((option, choice, b))
                b.bind(on_release=lambda _b, c=choice, o=option, bs=buttons: self._set(o, c, bs))
                buttons.append((choice, b))
                controls.add_widget(b)
            self._paint(option, buttons)
        elif isinstance(option.default, bool):
            b = BigButton()
            b.bind(on_release=lambda _b, o=option: self._toggle(o, _b))
            self._paint_toggle(option, b)
            controls.add_widget(b)
        elif isinstance(option.default, int):
            value = Label(text=str(self.values[option.id]), font_size=theme.FONT_LARGE * App.get_running_app().fscale, bold=True)
            minus, plus = BigButton(text="−", size_hint_x=None, width=theme.TOUCH * s), BigButton(
                text="+", size_hint_x=None, width=theme.TOUCH * s)
            minus.bind(on_release=lambda _b, o=option, v=value: self._step(o, -1, v))
            plus.bind(on_release=lambda _b, o=option, v=value: self._step(o, 1, v))
            controls.add_widget(minus)
            controls.add_widget(value)
            controls.add_widget(plus)
        line.add_widget(controls)
        row.add_widget(line)
        # The help sentence wraps; the row grows with it (no sentence cut off).
        help_text = Label(text=self._help(option), color=theme.MUTED, font_size=theme.FONT_BODY * App.get_running_app().fscale, halign="left",
                          size_hint_y=None, height=26 * s)
        help_text.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
                       texture_size=lambda w, size: (setattr(w, "height", size[1] + 4 * s),
                                                     setattr(row, "height", (theme.TOUCH + 6) * s + size[1] + 4 * s)))
        row.add_widget(help_text)
        return row

    def _choice_label(self, option: Option, choice) -> str:
        seats = set(option.choices) - {None}
        if seats == {0, 1} and ("seat" in option.id or "player" in option.label.lower()):
            # A seat option names the players; "nobody" is the choice of no seat (two humans).
            return "Nobody" if choice is None else self.players()[choice]
        return str(choice).replace("_", " ").capitalize() if isinstance(choice, str) else str(choice)

    def _help(self, option: Option) -> str:
        """The option's help sentence with each choice called by its button's words: the engine's
        help names them by their keys ("like_black: the blue cards start like the black ones")."""
        import re
        text = option.help
        for choice in option.choices:
            if isinstance(choice, str):
                text = re.sub(rf"(?<![\w.]){re.escape(choice)}(?=:)", self._choice_label(option, choice), text)
        return text

    def _set(self, option, choice, buttons):
        self.values[option.id] = choice
        self._paint(option, buttons)

    def _paint(self, option, buttons):
        for choice, b in buttons:
            b.tone = theme.HIGHLIGHT if self.values[option.id] == choice else theme.PANEL_LIGHT
            b.color = theme.CARD_TEXT if self.values[option.id] == choice else theme.TEXT

    def _toggle(self, option, button):
        self.values[option.id] = not self.values[option.id]
        self._paint_toggle(option, button)

    def _paint_toggle(self, option, button):
        on = bool(self.values[option.id])
        button.text = "On" if on else "Off"
        button.tone = theme.HIGHLIGHT if on else theme.PANEL_LIGHT
        button.color = theme.CARD_TEXT if on else theme.TEXT

    def _step(self, option, delta, label):
        self.values[option.id] = int(self.values[option.id]) + delta
        label.text = str(self.values[option.id])

    def start(self) -> None:
        controller = App.get_running_app().controller
        options = dict(self.values, players=self.players())
        try:
            controller.start_game(self.game, options)
        except (IllegalAction, ProfileError) as exc:
            self.ids.banner.show(str(exc))

    def check_deck(self) -> None:
        App.get_running_app().go("decks", game=self.game)


def _scale() -> float:
    app = App.get_running_app()
    return app.scale if app else 1.0


load_kv(__file__)
