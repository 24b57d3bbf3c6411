"""Home: the games, the unfinished game to resume after a power cut, and settings.

A game whose engine is not there yet is listed as "coming" and cannot be
started — never a broken screen.
"""
from __future__ import annotations

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion import games
from companion.session import unfinished_games
from ui import theme
from ui.kv import load_kv
from ui.widgets import BigButton, Modal


class HomeScreen(Screen):
    resume_text = StringProperty("")
    table_text = StringProperty("")
    _resume_id = None

    def on_pre_enter(self, *args):
        self.refresh()

    def refresh(self) -> None:
        controller = App.get_running_app().controller
        self.table_text = describe_table(controller)
        current = controller.session
        # Every unfinished game, each with the reason it cannot be resumed (a broken card file, an
        # engine that does not load): none is ever hidden.
        listed = unfinished_games(controller.store)
        resumable = [u.info for u in listed if u.problem is None]
        more = f" · {len(listed) - 1} more unfinished in History" if len(listed) > 1 else ""
        if current is not None and not current.rules.is_over(current.state):
            self._resume_id = current.id
            self.resume_text = f"Back to {current.rules.title} (game #{current.id}, {len(current.actions)} actions)"
        elif resumable:
            unfinished = resumable[0]
            self._resume_id = unfinished.id
            self.resume_text = (f"Resume {games.KNOWN_GAMES.get(unfinished.game, unfinished.game)} "
                                f"(game #{unfinished.id}, {unfinished.actions} actions, {unfinished.updated})" + more)
        elif listed:
            broken = listed[0]
            self._resume_id = broken.info.id
            why = f"Game #{broken.info.id} cannot be resumed yet: {broken.problem}"
            self.resume_text = (why if len(why) <= 160 else why[:159] + "…") + more
        else:
            self._resume_id = None
            self.resume_text = ""
        grid = self.ids.games
        grid.clear_widgets()
        playable = playable_games()
        for name in playable:
            button = BigButton(text=games.get(name).title, tone=theme.PANEL_LIGHT, font_size=theme.FONT_BODY * _scale())
            button.bind(on_release=lambda _b, n=name: App.get_running_app().go("setup", game=n))
            grid.add_widget(button)
        for name in [n for n in games.KNOWN_GAMES if n not in playable]:
            grid.add_widget(BigButton(text=f"{games.KNOWN_GAMES[name]}\n(coming)", disabled=True,
                                      font_size=theme.FONT_BODY * _scale()))

    def resume(self) -> None:
        app = App.get_running_app()
        controller = app.controller
        if self._resume_id is None:
            return
        if controller.session is not None and controller.session.id == self._resume_id:
            app.root.current = "table"
            return
        try:
            controller.resume(self._resume_id)
        except Exception as exc:                     # a record that no longer replays: say so, lose nothing
            self.ids.banner.show(f"Game #{self._resume_id} cannot be resumed: {exc}")

    def abandon(self) -> None:
        if self._resume_id is not None:
            App.get_running_app().controller.abandon(self._resume_id)
        self.refresh()

    def open_settings(self) -> None:
        SettingsView().open()


class SettingsView(Modal):
    """What the app runs with, and the window controls."""

    info = StringProperty("")

    def on_open(self):
        app = App.get_running_app()
        c = app.controller
        from kivy.core.window import Window
        self.info = "\n".join([
            f"Table: {describe_table(c)}",
            f"Games and tags are kept in: {c.store.path}",
            f"Screen: {Window.width}×{Window.height}",
            "Table profile: " + (str(c.config.profile_path) if c.config.profile_path else "none (simulated table)"),
        ])

    def toggle_fullscreen(self):
        from kivy.core.window import Window
        Window.fullscreen = False if Window.fullscreen else "auto"


def describe_table(controller) -> str:
    if controller.simulated:
        return "Simulated table (no readers)"
    statuses = controller.reader_status()
    ok = sum(1 for s in statuses if s.get("ok"))
    return f"{ok} of {len(statuses)} readers working"


def playable_games() -> list[str]:
    """Games whose engine loads; one still being written counts as coming, never a broken screen."""
    names = []
    for name in games.available():
        try:
            games.get(name)
        except Exception:
            continue
        names.append(name)
    return names


def _scale() -> float:
    app = App.get_running_app()
    return app.scale if app else 1.0


load_kv(__file__)
