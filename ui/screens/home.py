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
from ui.confirm import ConfirmButton  # noqa: F401  (used by home.kv)
from ui.kv import load_kv
from ui.widgets import BigButton, Modal
from ui.words import counted


class HomeScreen(Screen):
    resume_text = StringProperty("")
    restore_text = StringProperty("")
    table_text = StringProperty("")
    _resume_id = None
    _restore_id = None

    def on_pre_enter(self, *args):
        self.refresh()
        app = App.get_running_app()
        left = self.game_in_progress()
        if left is not None and getattr(app, "came_from", None) == "table":
            # Menu during a game: the game is kept, and Home says so and how to go on or set it aside
            self.ids.banner.show(f"{left.rules.title} is not finished: it is kept. “Back to "
                                 f"{left.rules.title}” goes on with it; Abandon sets it aside",
                                 tone=theme.NEUTRAL, seconds=8)

    @staticmethod
    def game_in_progress():
        """The open game when it is not over (Menu leaves it open; Home's first row goes back)."""
        session = App.get_running_app().controller.session
        return session if session is not None and not session.rules.is_over(session.state) else None

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
            self.resume_text = f"Back to {current.rules.title} (game #{current.id}, {counted(len(current.actions), 'action')})"
        elif resumable:
            unfinished = resumable[0]
            self._resume_id = unfinished.id
            self.resume_text = (f"Resume {games.KNOWN_GAMES.get(unfinished.game, unfinished.game)} "
                                f"(game #{unfinished.id}, {counted(unfinished.actions, 'action')}, {unfinished.updated})" + more)
        elif listed:
            broken = listed[0]
            self._resume_id = broken.info.id
            why = f"Game #{broken.info.id} cannot be resumed yet: {broken.problem}"
            self.resume_text = (why if len(why) <= 160 else why[:159] + "…") + more
        else:
            self._resume_id = None
            self.resume_text = ""
        self._restore_id, self.restore_text = None, ""
        # The last game set aside can come back: always when nothing else waits, else if it is newer.
        abandoned = next((g for g in controller.store.games("abandoned") if g.game in playable_games()), None)
        if abandoned is not None and (self._resume_id is None or abandoned.id > self._resume_id):
            self._restore_id = abandoned.id
            self.restore_text = (f"Restore the abandoned {games.KNOWN_GAMES.get(abandoned.game, abandoned.game)} "
                                 f"(game #{abandoned.id}, {counted(abandoned.actions, 'action')})")
        grid = self.ids.games
        grid.clear_widgets()
        playable = playable_games()
        for name in playable:
            button = BigButton(text=games.KNOWN_GAMES.get(name, name), tone=theme.PANEL_LIGHT,
                               font_size=theme.FONT_BODY * App.get_running_app().fscale)
            button.bind(on_release=lambda _b, n=name: self.open_game(n))
            grid.add_widget(button)
        for name in [n for n in games.KNOWN_GAMES if n not in playable]:
            grid.add_widget(BigButton(text=f"{games.KNOWN_GAMES[name]}\n(coming)", disabled=True,
                                      font_size=theme.FONT_BODY * App.get_running_app().fscale))

    def open_game(self, name: str) -> None:
        """The game's Setup; an engine that does not load is one sentence here, not a traceback.
        With a game in progress, first the question: keep it for later or abandon it (never left
        behind without a word)."""
        try:
            games.get(name)
        except Exception as exc:
            self.refresh()
            self.ids.banner.show(f"{games.KNOWN_GAMES.get(name, name)} cannot start: {exc}")
            return
        left = self.game_in_progress()
        if left is not None:
            LeaveGame(home=self, game=name, session=left).open()
            return
        App.get_running_app().go("setup", game=name)

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
        """Second tap of Abandon: the game is set aside, not deleted; Restore brings it back."""
        if self._resume_id is not None:
            App.get_running_app().controller.abandon(self._resume_id)
        self.refresh()

    def restore(self) -> None:
        controller = App.get_running_app().controller
        game_id = self._restore_id
        if game_id is None:
            return
        controller.store.restore(game_id)
        try:
            controller.resume(game_id)
        except Exception as exc:                     # a record that no longer replays: say so, lose nothing
            self.refresh()
            self.ids.banner.show(f"Game #{game_id} cannot be resumed: {exc}")

    def open_settings(self) -> None:
        App.get_running_app().go("settings")


class LeaveGame(Modal):
    """Another game chosen while one is in progress: keep it (Home offers it again) or abandon it
    (two taps; Restore brings it back), or go back to it."""

    question = StringProperty("")
    title = StringProperty("")

    def __init__(self, home: HomeScreen, game: str, session, **kwargs):
        self.home, self.game, self.session_id = home, game, session.id
        super().__init__(**kwargs)
        self.title = games.KNOWN_GAMES.get(game, game)
        self.question = (f"{session.rules.title} (game #{session.id}, {counted(len(session.actions), 'action')}) "
                         f"is not finished. Keep it for later, or abandon it?")

    def keep(self) -> None:
        self.dismiss()
        App.get_running_app().go("setup", game=self.game)

    def abandon(self) -> None:
        self.dismiss()
        App.get_running_app().controller.abandon(self.session_id)
        App.get_running_app().go("setup", game=self.game)

    def back(self) -> None:
        self.dismiss()
        App.get_running_app().root.current = "table"


def describe_table(controller) -> str:
    if controller.simulated:
        return "Simulated table (no readers)"
    statuses = controller.reader_status()
    ok = sum(1 for s in statuses if s.get("ok"))
    return f"{ok} of {len(statuses)} readers working"


def playable_games() -> list[str]:
    """Games whose engine is there, without importing them: an engine costs memory only once it
    is played (each is a few MB).  One that turns out not to load is listed as coming from then on,
    and its Setup says why — never a broken screen."""
    import pkgutil
    present = {m.name for m in pkgutil.iter_modules(games.__path__)}
    failed = getattr(games, "_broken", {})
    return [name for name in games.KNOWN_GAMES if name in present and name not in failed] + \
        sorted(name for name in present - set(games.KNOWN_GAMES) if name not in failed)


def _scale() -> float:
    app = App.get_running_app()
    return app.scale if app else 1.0


load_kv(__file__)
