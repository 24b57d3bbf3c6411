"""History: the current game's actions, with undo and redo, and the games played before.

Every line is made of the action's events as the shared screen may see them
(:func:`ui.controller.public_history`), so the history never names a card
that still lies face down.
"""
from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion import games
from ui import theme
from ui.controller import public_history
from ui.kv import load_kv
from ui.screens.home import playable_games
from ui.widgets import BigButton

MAX_LINES = 200          # the newest actions; older ones stay in the record (`companion export`)


class HistoryScreen(Screen):
    heading = StringProperty("")
    in_game = BooleanProperty(False)
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)

    def on_pre_enter(self, *args):
        self.refresh()

    def refresh(self) -> None:
        controller = App.get_running_app().controller
        session = controller.session
        self.in_game = session is not None
        box = self.ids.lines
        box.clear_widgets()
        if session is not None:
            lines = public_history(session)
            self.heading = f"{session.rules.title}, game #{session.id}: {len(lines)} actions"
            first = max(0, len(lines) - MAX_LINES)
            for n, (_action, text) in enumerate(lines[first:], start=first + 1):
                box.add_widget(HistoryLine(text=f"{n}. {text}"))
            if not lines:
                box.add_widget(HistoryLine(text="Nothing has happened yet.", color=theme.MUTED))
            self.can_undo, self.can_redo = session.can_undo(), session.can_redo()
            self.ids.scroll.scroll_y = 0
        else:
            self.heading = "Games played on this companion"
            self.can_undo = self.can_redo = False
        self._past_games(box, skip=session.id if session is not None else None)

    def _past_games(self, box, skip) -> None:
        controller = App.get_running_app().controller
        rows = [g for g in controller.store.games() if g.id != skip][:30]
        if not rows:
            return
        box.add_widget(HistoryLine(text="Earlier games", bold=True, color=theme.MUTED))
        for g in rows:
            title = games.KNOWN_GAMES.get(g.game, g.game)
            outcome = (g.result or {}).get("reason", "") if g.status == "over" else g.status
            text = f"#{g.id} {title} — {g.actions} actions — {outcome} — {g.updated}"
            if g.status == "playing" and g.game in playable_games():
                button = BigButton(text=f"Resume {text}", size_hint_y=None, height=theme.TOUCH * _scale())
                button.bind(on_release=lambda _b, gid=g.id: controller.resume(gid))
                box.add_widget(button)
            else:
                box.add_widget(HistoryLine(text=text))

    def undo(self) -> None:
        text = App.get_running_app().controller.undo()
        self.refresh()
        if text:
            self.ids.banner.show(text, tone=theme.NEUTRAL, seconds=4)

    def redo(self) -> None:
        text = App.get_running_app().controller.redo()
        self.refresh()
        if text:
            self.ids.banner.show(text, tone=theme.NEUTRAL, seconds=4)

    def back(self) -> None:
        app = App.get_running_app()
        app.root.current = "table" if app.root.has_screen("table") else "home"


class HistoryLine(Label):
    pass


def _scale() -> float:
    app = App.get_running_app()
    return app.scale if app else 1.0


load_kv(__file__)
