"""The result view: a battle, a round or the whole game decided, with the engine's reasons.

It opens over the table screen when the session reports a ``battle_result``
or ``game_over`` event and lists every event of that change as the shared
screen may see it ("Lane 3: North attack 7 ≥ South defence 5 — North wins"),
so players can check the scoring against the cards on the table.
"""
from __future__ import annotations

from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.label import Label

from ui.kv import load_kv
from ui.widgets import Modal


class ResultView(Modal):
    title = StringProperty("")
    winner = ObjectProperty(None, allownone=True)
    game_over = BooleanProperty(False)
    lines = ListProperty()

    def __init__(self, screen, **kwargs):
        super().__init__(**kwargs)
        self.screen = screen

    def show(self, events: list[dict]) -> None:
        """Fill the view with ``events`` (already redacted for the shared screen) and open it.

        The table screen keeps one view and refills it: building a modal and its
        labels anew for every scored battle costs more than a frame.
        """
        over = [e for e in events if e.get("type") == "game_over"]
        decided = [e for e in events if e.get("type") in ("battle_result", "round_result", "game_over")]
        headline = over[-1] if over else decided[-1] if decided else events[-1]
        self.game_over = bool(over)
        self.title = headline.get("text", "")
        self.winner = headline.get("winner")
        self.lines = [e["text"] for e in events if e.get("text") and e is not headline]
        box = self.ids.lines
        shown = box.children[::-1]
        for n, text in enumerate(self.lines):
            bold = text.startswith(("Round", "Battle"))
            if n < len(shown):
                shown[n].text, shown[n].bold = text, bold
            else:
                box.add_widget(ResultLine(text=text, bold=bold))
        for line in shown[len(self.lines):]:
            box.remove_widget(line)
        if self.parent is None:
            self.open()

    def new_game(self):
        from kivy.app import App
        app = App.get_running_app()
        game = self.screen.session.rules.name
        self.dismiss()
        app.go("setup", game=game)


class ResultLine(Label):
    pass


load_kv(__file__)
