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
