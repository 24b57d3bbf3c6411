"""One real Kivy window for every UI test (Kivy opens one window per process).

The app is built exactly as `companion run --sim` builds it: the composition
root's input road, table source (the simulated table made of emulated RC522 readers, read
by the real driver) and outputs, a real SQLite store, the real screens.  Tests
drive it with touches through the window and pad events from the simulated
table, and read what it shows.
"""
import os
import tempfile

import pytest

# Kivy reads its home (config.ini, logs) when it is first imported, during collection: one of its
# own per process, so two xdist workers never write one config.ini at once (on a fresh machine
# Kivy creates it at first import, and a reader meeting it half written fails).
os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix="kivy-home-")

import ui.app as uiapp  # noqa: E402

# The test modules import Kivy's window and clock when they are collected, before the app
# fixture configures Kivy: the clock has to be chosen before that (the window's settings are
# read later, when the app opens it).
os.environ["KIVY_CLOCK"] = uiapp.KIVY_CLOCK


def _require_display():
    if os.environ.get("DISPLAY"):
        return
    if os.environ.get("COMPANION_REQUIRE_UI"):
        pytest.fail("no DISPLAY for the UI tests (Xvfb did not start)")
    pytest.skip("no DISPLAY: run the suite with `python3 -m companion test`, which starts Xvfb")


@pytest.fixture(scope="session")
def app(tmp_path_factory):
    _require_display()
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    from companion.app_config import AppConfig
    from hardware.outputs import open_outputs
    from hardware.sources import open_table_source
    data = tmp_path_factory.mktemp("data")
    config = AppConfig(data_dir=data, profile_path=None, sim=True, fullscreen=False, size=(800, 480))
    uiapp.configure_kivy((800, 480), False)
    from ui.main import open_road
    outputs = open_outputs(config)
    with open_road(outputs) as road:      # the composition root's road, as `companion run` opens it
        application = uiapp.make_app(config, open_table_source(config), outputs, road)
        application._run_prepare()        # App.run() without the blocking loop: tests drive the frames
        # The test modules import Kivy's window when they are collected, before configure_kivy: it
        # opened at Kivy's default 800×600, and a test run alone ran at that size (in file order an
        # earlier test's resize had set 800×480: territory-2-90 at text size 1.3 failed only alone).
        from kivy.core.window import Window
        Window.size = (800, 480)
        from ui import harness
        harness.frames(3)
        yield application
        application.stop()


@pytest.fixture
def home(app):
    """The app on its home screen with no game open."""
    from ui import harness
    app.controller.close_session()
    app.root.current = "home"
    harness.frames(2)
    return app


class ManualClock:
    """A clock a test moves itself, with the part of Kivy's clock that ``ui.confirm`` uses:
    ``schedule_once(callback, seconds)`` gives an event with ``cancel()``; :meth:`advance` runs
    what has come due.  Nothing it times depends on how fast the machine draws."""

    class Event:
        def __init__(self, at: float, callback):
            self.at, self.callback, self.cancelled = at, callback, False

        def cancel(self) -> None:
            self.cancelled = True

    def __init__(self):
        self.now = 0.0
        self.events: list = []

    def schedule_once(self, callback, seconds: float = 0):
        event = self.Event(self.now + seconds, callback)
        self.events.append(event)
        return event

    def advance(self, seconds: float) -> None:
        self.now += seconds
        for event in sorted(self.events, key=lambda e: e.at):
            if event.at <= self.now and not event.cancelled:
                event.cancelled = True
                event.callback(seconds)
        self.events = [e for e in self.events if not e.cancelled]
        from ui import harness
        harness.frames(1)


@pytest.fixture
def confirm_clock(monkeypatch):
    """The second-tap window (``ui.confirm``) on a clock the test moves: a second tap comes in time
    however slowly the frames between the taps were drawn, and the window closes when told."""
    import ui.confirm
    clock = ManualClock()
    monkeypatch.setattr(ui.confirm, "clock", clock)
    return clock


@pytest.fixture
def notes_clock(monkeypatch):
    """The zones' notes (``ui.widgets._NOTES``) on a clock the test moves: a note goes only when
    the game makes it go, or when the test moves the clock past its four seconds."""
    from ui.widgets import _NOTES
    clock = ManualClock()
    monkeypatch.setattr(_NOTES, "clock", clock)
    return clock
