"""``run_app(config, source, outputs, road, store)``: the touchscreen app, as ``companion run`` starts it.

Kivy reads its window settings and the command line when it is first
imported, so this module imports nothing from Kivy at the top: ``run_app``
sets the window up first, then imports the app.
"""
from __future__ import annotations

import os
import sys
from typing import Callable

from ui.theme import DESIGN_SIZE

#: Called with the app once its first frame is on screen.  The benchmark and the
#: screenshot script drive the real ``companion run`` through this; the app
#: itself adds nothing here.
on_first_frame: list[Callable] = []


def video_driver(environ=os.environ) -> str:
    """SDL's video driver: the one asked for; else the desktop's (X11, Wayland) when a
    session is there; else KMSDRM, straight onto the screen, as on a Pi's console.

    Always a single name: left to choose by itself, SDL falls back to its offscreen
    driver, and the app then runs in a window nobody can see."""
    if environ.get("SDL_VIDEODRIVER"):
        return environ["SDL_VIDEODRIVER"]
    if environ.get("DISPLAY"):
        return "x11"
    if environ.get("WAYLAND_DISPLAY"):
        return "wayland"
    return "kmsdrm"


def input_providers(driver: str) -> dict[str, str]:
    """Kivy's ``[input]`` section: one provider per device, so one touch is one touch.

    On the console (KMSDRM) the app reads the touch panel itself, through mtdev
    (multitouch), one provider per panel: ``probesysfs`` with ``select_all=0``
    takes only devices that report multitouch positions (Kivy's Raspberry Pi
    default takes every input device, the keyboard and mouse included).  SDL
    must then not turn those touches into mouse clicks as well:
    ``SDL_TOUCH_MOUSE_EVENTS=0``, which :func:`configure_kivy` sets.  A real
    mouse comes through SDL, ignored while a finger is down.  Under a desktop the
    desktop owns the panel and hands its touches on as the pointer: the mouse
    provider alone."""
    providers = {"mouse": "mouse,multitouch_on_demand,disable_on_activity"}
    if driver == "kmsdrm":
        providers["%(name)s"] = "probesysfs,provider=mtdev,select_all=0"
    return providers


#: Kivy's clock (see configure_kivy)
KIVY_CLOCK = "free_all"


def configure_kivy(size: tuple[int, int] | None = None, fullscreen: bool = False) -> None:
    """Window size, full screen, video driver and input settings; must run before Kivy is imported.

    The rotation is Kivy's own ``graphics.rotation`` (the kiosk unit sets it with
    ``KCFG_GRAPHICS_ROTATION``): Kivy turns the picture and the touches together."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")          # our argv belongs to `companion`, not Kivy
    # A kiosk needs no system clipboard; Kivy's probing for xclip/xsel only fills the log with tracebacks.
    os.environ.setdefault("KIVY_CLIPBOARD", "dummy")
    # SDL2 only: Kivy's fallback X11 window ends the process with "Couldn't connect to X server".
    os.environ.setdefault("KIVY_WINDOW", "sdl2")
    driver = os.environ["SDL_VIDEODRIVER"] = video_driver()
    os.environ["SDL_TOUCH_MOUSE_EVENTS"] = "0"          # a touch is a touch, not also a click
    from kivy.config import Config
    width, height = size or DESIGN_SIZE
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("graphics", "maxfps", "30")              # a card game: 30 fps is plenty, and cheaper on a Pi
    # Kivy's free clock: frames stay paced at 30 fps, but what a reader's thread hands over
    # (ui.controller.on_main_thread) wakes the main loop at once instead of after the rest of the
    # frame's sleep.  Kivy's docs ("Interruptible Clock") measure a 0-timeout event at 24.9 ms
    # mean with the default clock at 30 fps and 0.12 ms with a free one; `companion bench ui`
    # here, PadEvent -> drawn p50 32-35 ms -> 11-12 ms, p99 54-68 -> 33-41, idle CPU unchanged.
    os.environ["KIVY_CLOCK"] = KIVY_CLOCK               # read when kivy.clock is first imported
    Config.set("kivy", "kivy_clock", KIVY_CLOCK)
    Config.set("kivy", "exit_on_escape", "0")
    if driver == "kmsdrm":
        Config.set("graphics", "show_cursor", "0")      # a touch table: no arrow on the console
    # Exactly our providers: whatever an older install or Kivy's defaults left in
    # KIVY_HOME's config.ini could otherwise read the same panel a second time.
    for key in Config.options("input"):
        Config.remove_option("input", key)
    for key, value in input_providers(driver).items():
        Config.set("input", key, value)


class ScreenError(Exception):
    """The window cannot open; the message says why, in one sentence."""


def _why_no_screen(driver: str, sdl_error: str) -> str:
    detail = f" (SDL: {sdl_error})" if sdl_error else ""
    if driver == "x11":
        return f"the X display {os.environ.get('DISPLAY', '')} does not answer{detail}"
    if driver == "wayland":
        return f"the Wayland display {os.environ.get('WAYLAND_DISPLAY', '')} does not answer{detail}"
    if driver != "kmsdrm":
        return f"SDL's {driver} video driver cannot open a window{detail}"
    import glob
    cards = sorted(glob.glob("/dev/dri/card*"))
    if not cards:
        return ("there is no desktop session and no graphics device (/dev/dri/card*) to draw on: on a "
                "Raspberry Pi, config.txt needs dtoverlay=vc4-kms-v3d (firmware_config/pi/install.sh adds it); "
                "elsewhere, run it inside a desktop session")
    if not any(os.access(card, os.R_OK | os.W_OK) for card in cards):
        return (f"this user may not use the graphics device {cards[0]}: add it to the video and render "
                f"groups (sudo usermod -aG video,render $USER) and log in again{detail}")
    return ("the screen is held by another program, such as a desktop or another companion: stop it, "
            f"or boot to the console (docs/deploy.md){detail}")


def open_window():
    """Kivy's window on the driver :func:`configure_kivy` chose, or :class:`ScreenError`.

    Kivy logs a failed window as a critical message with a traceback; that stays
    in Kivy's log file and the user gets the one sentence instead."""
    import logging
    from kivy.logger import FileHandler
    root = logging.getLogger()
    kivy_handlers = root.handlers[:]
    held: list[logging.LogRecord] = []

    class Hold(logging.Handler):
        def emit(self, record):
            held.append(record)

    root.handlers = [Hold()]
    try:
        from kivy.core.window import Window
    finally:
        root.handlers = kivy_handlers
    for record in held:
        for handler in kivy_handlers:
            if Window is not None or isinstance(handler, FileHandler):
                if record.levelno >= handler.level:
                    handler.handle(record)
    if Window is None:
        sdl_error = ""
        for record in held:
            text = record.getMessage()
            if "RuntimeError: " in text:
                sdl_error = text.split("RuntimeError: ", 1)[1].splitlines()[0].strip()
                if sdl_error[:2] in ("b'", 'b"'):           # SDL's message as Kivy logs it: b'…'
                    sdl_error = sdl_error[2:-1]
        raise ScreenError(_why_no_screen(os.environ.get("SDL_VIDEODRIVER", ""), sdl_error))
    return Window


def make_app(config, source, outputs, road, store=None):
    """The app object, wired to the table source, the outputs and the input road (the window opens on run).

    ``road`` (:class:`companion.inputs.InputRoad`, built by the composition root,
    :func:`ui.main.open_road`) takes every input into the game: the table's pad events
    when the app starts (``AppController.start_source``), the buttons' presses, the
    screens' touches and the companion's seat.  Its owner closes it, not the app."""
    from ui.controller import AppController
    from ui.root import CompanionApp
    return CompanionApp(AppController(config, source, outputs, road, store=store),
                        on_first_frame=on_first_frame)


def run_app(config, source, outputs, road, store, event_table=None) -> int:
    """Open the app (full screen unless ``--windowed`` or ``--size``) and run until it is closed.

    The caller owns ``road`` and ``store`` and closes them (the road first: what was handed
    over is applied before the store closes).  ``event_table``: a club table's part in events
    (ui.eventwiring shows the pairings over the app).  No screen to draw on: one sentence on
    stderr and exit 2 (never a window nobody sees)."""
    configure_kivy(config.size, config.fullscreen)
    try:
        open_window()
    except ScreenError as exc:
        # Kivy has put its own stream in sys.stderr; the sentence goes straight to the terminal.
        print(f"companion run: cannot open the screen: {exc}.", file=sys.__stderr__, flush=True)
        for part in (outputs, source):
            getattr(part, "close", lambda: None)()
        return 2
    app = make_app(config, source, outputs, road, store=store)
    if event_table is not None:
        from ui.eventwiring import EventOverlay
        app.bind(on_start=lambda *_: setattr(app, "event_overlay", EventOverlay(app, event_table)))
    app.run()
    return 0
