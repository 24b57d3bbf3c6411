"""``run_app(config, source, outputs)``: the touchscreen app, as ``companion run`` starts it.

Kivy reads its window settings and the command line when it is first
imported, so this module imports nothing from Kivy at the top: ``run_app``
sets the window up first, then imports the app.
"""
from __future__ import annotations

import os
from typing import Callable

from ui.theme import DESIGN_SIZE

#: Called with the app once its first frame is on screen.  The benchmark and the
#: screenshot script drive the real ``companion run`` through this; the app
#: itself adds nothing here.
on_first_frame: list[Callable] = []


def configure_kivy(size: tuple[int, int] | None = None, fullscreen: bool = False) -> None:
    """Window size, full screen and input settings; must run before Kivy is imported."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")          # our argv belongs to `companion`, not Kivy
    # A kiosk needs no system clipboard; Kivy's probing for xclip/xsel only fills the log with tracebacks.
    os.environ.setdefault("KIVY_CLIPBOARD", "dummy")
    from kivy.config import Config
    width, height = size or DESIGN_SIZE
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("graphics", "maxfps", "30")              # a card game: 30 fps is plenty, and cheaper on a Pi
    Config.set("kivy", "exit_on_escape", "0")
    # Touchscreen and mouse: no red multitouch-emulation dots on right click.
    Config.set("input", "mouse", "mouse,multitouch_on_demand")


def make_app(config, source, outputs, store=None):
    """The app object, wired to the table source and outputs (the window opens on run)."""
    from ui.controller import AppController
    from ui.root import CompanionApp
    return CompanionApp(AppController(config, source, outputs, store=store), on_first_frame=on_first_frame)


def run_app(config, source, outputs, store=None) -> int:
    """Open the app (full screen unless ``--windowed`` or ``--size``) and run until it is closed."""
    configure_kivy(config.size, config.fullscreen)
    app = make_app(config, source, outputs, store=store)
    try:
        app.run()
    finally:
        app.controller.store.close()
    return 0
