"""A keyboard docked at the bottom of the screen, for players' names and the card search on a
touchscreen (the table screen docks one with digits for the card drawer's search, in the
drawer at 1280×800 and under the lifted tray at 800×480:
:meth:`ui.tables.generic.TableScreen.search_keyboard`).  It is solid: nothing under it shows
between its keys.

The Pi's touchscreen has no keys, and Kivy's own VKeyboard floats over the
form and loads a dozen layouts; names need letters, a space, a hyphen and
an apostrophe.  ``DockedKeyboard`` takes the room below the form (the form
shrinks, nothing is covered), types into the text field that last had the
focus, capitalises the first letter of each word, and *Done* docks it away.
A physical keyboard keeps working as well.
"""
from __future__ import annotations

from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty
from kivy.uix.boxlayout import BoxLayout

from ui import theme
from ui.kv import load_kv
from ui.widgets import BigButton

ROWS = ("qwertyuiop", "asdfghjkl'", "zxcvbnm-")
#: the simulated table's card search: values as well as names ("10h", "7 of hearts")
SEARCH_ROWS = ("1234567890",) + ROWS


class DockedKeyboard(BoxLayout):
    """Letters for ``target`` (a TextInput); ``shown`` docks it in or out."""

    target = ObjectProperty(None, allownone=True)
    shown = BooleanProperty(False)
    shift = BooleanProperty(True)
    #: names: each word begins with a capital (a search does not)
    capitals = BooleanProperty(True)
    #: rows of keys, the space bar's included
    rows = NumericProperty(4)

    def __init__(self, rows: tuple[str, ...] = ROWS, **kwargs):
        super().__init__(**kwargs)
        self.rows = len(rows) + 1
        self._letters: list[BigButton] = []
        for row in rows:
            line = BoxLayout(spacing=self.spacing * 2 / 3)
            for ch in row:
                # at least a touch target of the small screen: ten keys fit the 1280×800 card drawer
                key = BigButton(text=ch, size_hint_min_x=theme.TOUCH)
                key.bind(on_release=lambda b: self.type(b.text))
                self._letters.append(key)
                line.add_widget(key)
            if row == rows[-1]:
                back = BigButton(text="⌫", size_hint_x=2)
                back.bind(on_release=lambda _b: self.backspace())
                line.add_widget(back)
            self.add_widget(line)
        line = BoxLayout(spacing=self.spacing)
        for text, action, width in (("⇧", self.toggle_shift, 1.5), ("Space", lambda: self.type(" "), 5),
                                    ("Done", self.done, 2.5)):
            key = BigButton(text=text, size_hint_x=width,
                            tone=theme.HIGHLIGHT if text == "Done" else theme.PANEL_LIGHT,
                            color=theme.CARD_TEXT if text == "Done" else theme.TEXT)
            key.bind(on_release=lambda _b, a=action: a())
            line.add_widget(key)
        self.add_widget(line)
        self.on_shift(self, self.shift)

    def watch(self, *inputs) -> None:
        """Dock in for whichever of ``inputs`` gets the focus."""
        for text_input in inputs:
            text_input.bind(focus=self._focused)

    def _focused(self, text_input, focus) -> None:
        if focus:
            self.dock_for(text_input)

    def dock_for(self, text_input) -> None:
        """Dock in now, typing into ``text_input`` (a field that already has the focus)."""
        self.target = text_input
        self.shown = True
        self.shift = self.capitals and (not text_input.text or text_input.text.endswith((" ", "-")))

    def type(self, text: str) -> None:
        if self.target is None:
            return
        if text == " ":
            self.target.insert_text(" ")
        else:
            self.target.insert_text(text.upper() if self.shift else text)
        self.shift = self.capitals and text in (" ", "-")

    def backspace(self) -> None:
        if self.target is not None:
            self.target.do_backspace()
            self.shift = self.capitals and not self.target.text

    def toggle_shift(self) -> None:
        self.shift = not self.shift

    def on_shift(self, _instance, shift) -> None:
        for key in self._letters:
            key.text = key.text.upper() if shift else key.text.lower()

    def done(self) -> None:
        self.shown = False
        if self.target is not None:
            self.target.focus = False


load_kv(__file__)
