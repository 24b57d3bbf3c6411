"""The Kivy application: one window, a screen manager, the controller.

``CompanionApp(controller)`` builds every screen once, except the table
screen, which is made when a session opens (each game may have its own table
layout, see :mod:`ui.tables`) and kept for the next game of the same kind.
Screens switch without transitions: nothing animates, so an idle screen costs
no CPU.
"""
from __future__ import annotations

from kivy.animation import Animation
from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import NumericProperty, ObjectProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager

from ui import memory, theme
from ui.controller import AppController


class CompanionApp(App):
    title = "Tabletop companion"
    scale = NumericProperty(1.0)
    #: the players' text-size setting (see :func:`ui.theme.set_text_scale`)
    text_scale = NumericProperty(1.0)
    #: what text sizes are multiplied by: the setting times min(scale, 1) (see :mod:`ui.theme`)
    fscale = NumericProperty(1.0)
    #: what fixed widths, bars and touch targets are multiplied by: fscale, but never more than
    #: the window has room for (min(fscale, scale)), so a larger text size on the 800×480 screen
    #: picks shorter words instead of pushing buttons off the edge
    bscale = NumericProperty(1.0)
    controller: AppController = ObjectProperty(None)

    def __init__(self, controller: AppController, on_first_frame=(), **kwargs):
        super().__init__(**kwargs)
        self.controller = controller
        self._on_first_frame = list(on_first_frame)

    def build(self):
        memory.release_text_surfaces()
        theme.register_fonts()
        Window.clearcolor = theme.BACKGROUND
        Window.bind(size=self._rescale)
        self.text_scale = theme.text_scale()
        self.bind(text_scale=lambda *_a: self._rescale(Window, Window.size))
        self._rescale(Window, Window.size)
        from ui.screens.settings import apply_saved_settings
        apply_saved_settings(self)
        manager = ScreenManager(transition=NoTransition())
        manager.add_widget(self._make_screen("home"))
        self.controller.bind(session=self._session_changed)
        # A screen change (a game opened or closed included) leaves the last screen's garbage
        # and glibc's freed heap: collected and given back once the table is still (ui.memory)
        manager.bind(current=lambda *_a: memory.tidy_soon())
        self.controller.bind(on_pad_event=lambda *_a: memory.postpone(),
                             on_session_events=lambda *_a: memory.postpone())
        return manager

    #: screen name → "module:Class"; a screen is built the first time it is shown (memory, start time)
    SCREENS = {
        "home": "ui.screens.home:HomeScreen",
        "setup": "ui.screens.setup:SetupScreen",
        "history": "ui.screens.history:HistoryScreen",
        "replay": "ui.screens.replay:ReplayScreen",
        "cards": "ui.screens.cards:CardsScreen",
        "decks": "ui.screens.decks:DecksScreen",
        "hardware": "ui.screens.hardware:HardwareScreen",
        "settings": "ui.screens.settings:SettingsScreen",
    }

    def _make_screen(self, name: str):
        # Imported here: their .kv rules refer to ``app``, which must exist.
        import importlib
        module, cls = self.SCREENS[name].split(":")
        return getattr(importlib.import_module(module), cls)(name=name)

    def screen(self, name: str):
        """Screen ``name``, built now if it has not been shown yet."""
        if not self.root.has_screen(name):
            self.root.add_widget(self._make_screen(name))
        return self.root.get_screen(name)

    def on_start(self):
        self.controller.start_source()
        Window.bind(on_flip=self._first_frame)

    def _first_frame(self, *_args):
        Window.unbind(on_flip=self._first_frame)
        Clock.schedule_once(self._settle_startup, 0)      # the next tick: the first frame is out
        for hook in self._on_first_frame:
            hook(self)

    def _settle_startup(self, _dt=None):
        # What every game's start needs and the first frame does not: jsonschema, which checks a
        # game's options and cards (~0.1 s and 3 MB; docs/ui.md).  Loaded before the startup is
        # frozen, its objects are frozen with it and never walked by a collection during play.
        import companion.validate  # noqa: F401
        memory.settle_startup()          # what loading left is collected; the rest is kept for good
        memory.tidy_soon()               # and its freed heap given back (ui.memory)

    def on_stop(self):
        try:
            self.controller.source.close()
        finally:
            self.controller.outputs.close()

    def _rescale(self, _window, size):
        w, h = size
        self.scale = max(0.6, min(w / theme.DESIGN_SIZE[0], h / theme.DESIGN_SIZE[1]))
        self.fscale = theme.font_scale(self.scale, self.text_scale)
        self.bscale = min(self.fscale, self.scale)

    # ---- navigation --------------------------------------------------------------
    def go(self, name: str, **kwargs) -> None:
        """Show screen ``name``; keyword arguments are handed to its ``prepare``."""
        screen = self.screen(name)
        prepare = getattr(screen, "prepare", None)
        if prepare is not None:
            prepare(**kwargs)
        if self.root.current != name:
            self.came_from = self.root.current
        self.root.current = name

    #: the screen shown before the last ``go`` (History's Back returns there, not to a live table)
    came_from = "home"

    def back(self, default: str = "home") -> None:
        """Return to the screen shown before; the table only while its game is open."""
        target = self.came_from or default
        if target == "table" and not self.root.has_screen("table"):
            target = default
        if target == self.root.current:
            target = default
        self.root.current = target

    def _session_changed(self, _controller, session) -> None:
        manager = self.root
        if session is not None and manager.has_screen("table") and manager.get_screen("table").fits(session):
            table = manager.get_screen("table")         # a rematch: the same board shows the new game
            table.detach()
            table.attach(self.controller, session)
            manager.current = "table"
            return
        if manager.has_screen("table"):
            old = manager.get_screen("table")
            if manager.current == "table":
                manager.current = "home"
            old.detach()
            manager.remove_widget(old)
            _stop_animations(old)
            # The transition away from the old table ends at the next frame and then still keeps it
            # (screen_out): it would live on while the new one is built, and the heap would keep
            # room for both (docs/ui.md, memory).  End it now and let go of the old table.
            manager.transition.stop()
            if manager.transition.screen_out is old:
                manager.transition.screen_out = manager.current_screen
            del old
            memory.collect_now()
        if session is not None:
            from ui.tables import table_screen_for
            screen = table_screen_for(session.rules.name)(name="table")
            manager.add_widget(screen)
            screen.attach(self.controller, session)
            manager.current = "table"


def _stop_animations(screen) -> None:
    """Stop what animates in ``screen``: a running animation holds its widget until it ends (a
    scroll bar fades for 0.5 s after a scroll), and with it the screen a closed game left."""
    for widget in screen.walk(restrict=True):
        Animation.cancel_all(widget)
