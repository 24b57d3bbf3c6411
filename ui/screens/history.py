"""History: the current game's actions, with undo and redo, and the games played before.

Every line is made of the action's events as the shared screen may see them
(:func:`ui.controller.public_history`), so the history never names a card
that still lies face down.
"""
from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion import games
from ui import story as stories
from ui import theme
from ui.controller import public_history
from ui.kv import load_kv
from ui.screens.home import playable_games
from ui.widgets import BigButton
from ui.words import counted

MAX_LINES = 200          # the newest actions; older ones stay in the record (`companion export`)
MAX_GAMES = 30
#: result keys that hold each side's score, best first ("VP 5–2")
SCORE_KEYS = (("vp", "VP"), ("track", "track"), ("lands", "lands"), ("regions_left", "regions left"),
              ("graveyard", "in graveyard"))


def score_text(result: dict | None) -> str:
    """"VP 5–2" from a stored result, or "" when the game's result has no score per side."""
    for key, label in SCORE_KEYS:
        value = (result or {}).get(key)
        if isinstance(value, list) and len(value) == 2:
            return f"{label} {value[0]}–{value[1]}" if label == "VP" else f"{value[0]}–{value[1]} {label}"
    return ""


def game_line(store, g) -> str:
    """One earlier game in words: number, game, players, winner and score, date."""
    try:
        _game, options, *_ = store.load_game(g.id)
    except KeyError:
        options = {}
    players = list(options.get("players") or ["North", "South"])
    title = games.short_name(g.game) if g.game in games.KNOWN_GAMES else g.game
    if g.status == "over":
        winner = (g.result or {}).get("winner")
        outcome = f"{players[winner]} won" if winner in (0, 1) else "no winner"
        score = score_text(g.result)
        outcome += f", {score}" if score else ""
    else:
        outcome = {"playing": "unfinished", "abandoned": "abandoned"}.get(g.status, g.status)
    return f"#{g.id} {title}: {players[0]} v {players[1]} — {outcome} — {counted(g.actions, 'action')} — {g.updated[:16]}"


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
            self.heading = f"{games.short_name(session.rules.name)} #{session.id}: {counted(len(lines), 'action')}"
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
        live = session is not None and not session.rules.is_over(session.state)
        self._past_games(box, skip=session.id if live else None)

    def _past_games(self, box, skip) -> None:
        """Every earlier game as a row to open (players, winner, score, date) and, if unfinished, resume."""
        controller = App.get_running_app().controller
        rows = [g for g in controller.store.games() if g.id != skip][:MAX_GAMES]
        if not rows:
            return
        box.add_widget(HistoryLine(text="Earlier games — touch one to step through it", bold=True,
                                   color=theme.MUTED))
        s = _scale()
        for g in rows:
            line = BoxLayout(size_hint_y=None, height=theme.TOUCH * 1.3 * s, spacing=6 * s)
            opener = BigButton(text=game_line(controller.store, g), halign="left")
            opener.bind(on_release=lambda _b, gid=g.id: App.get_running_app().go("replay", game_id=gid))
            line.add_widget(opener)
            if g.status == "playing" and g.game in playable_games():
                resume = BigButton(text="Resume", size_hint_x=None, width=110 * s, tone=theme.HIGHLIGHT,
                                   color=theme.CARD_TEXT)
                resume.bind(on_release=lambda _b, gid=g.id: controller.resume(gid))
                line.add_widget(resume)
            box.add_widget(line)

    def export(self) -> None:
        app = App.get_running_app()
        session = app.controller.session
        if session is None:
            return
        try:
            path = stories.export(session.record(), app.controller.config.data_dir / "exports", session.id)
        except OSError as exc:
            self.ids.banner.show(f"Could not write the record: {exc.strerror or exc}")
            return
        self.ids.banner.show(f"Record written to {path}", tone=theme.NEUTRAL, seconds=6)

    def undo(self) -> None:
        App.get_running_app().controller.undo(self._went_back)     # on the road; never waits for it

    def redo(self) -> None:
        App.get_running_app().controller.redo(self._went_back)

    def _went_back(self, text: str) -> None:
        self.refresh()
        self.ids.banner.show(text, tone=theme.NEUTRAL, seconds=4)

    origin = "home"

    def prepare(self) -> None:
        """Remember where History was opened from (a past game's replay is History's own child)."""
        current = App.get_running_app().root.current
        if current not in ("replay", "history"):
            self.origin = current

    def back(self) -> None:
        """Back where History was opened from: the table only if it was opened from the table."""
        app = App.get_running_app()
        target = self.origin if self.origin != "table" or app.root.has_screen("table") else "home"
        app.root.current = target


class HistoryLine(Label):
    pass


def _scale() -> float:
    app = App.get_running_app()
    return app.scale if app else 1.0


load_kv(__file__)
