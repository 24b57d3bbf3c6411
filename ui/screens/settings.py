"""Settings: text size, screen brightness, sound, and tests of the lights and the readers.

Each setting acts at once and is kept in ``<data dir>/settings.json``, read
when the app starts.  Lights and sound are tested through the outputs the
app was given (``outputs.self_test``), readers through the table source
(``controller.reader_status()`` and the pad events while this screen is
shown); ``ui/`` never opens a device of its own.  The one file written
directly is the display's backlight in ``/sys/class/backlight``, which is the
kernel's interface for it, not a driver; a display without one is said so.
"""
from __future__ import annotations

import json
from pathlib import Path

from kivy.app import App
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.outfiles import write_text
from companion.table import SEEN
from ui import theme
from ui.kv import load_kv

BACKLIGHT_DIR = Path("/sys/class/backlight")
TEXT_SIZES = (("Normal", 1.0), ("Large", 1.15), ("Larger", 1.3))


class Backlight:
    """The display's backlight as the kernel offers it (``brightness`` out of ``max_brightness``)."""

    def __init__(self, root: Path = BACKLIGHT_DIR):
        devices = sorted(p for p in Path(root).glob("*") if (p / "max_brightness").exists()) \
            if Path(root).is_dir() else []
        self.device = devices[0] if devices else None

    @property
    def available(self) -> bool:
        return self.device is not None

    def percent(self) -> int:
        top = int((self.device / "max_brightness").read_text().strip() or 0)
        now = int((self.device / "brightness").read_text().strip() or 0)
        return round(100 * now / top) if top else 0

    def set_percent(self, percent: int) -> int:
        """Set the brightness (kept between 10 % and 100 %, never dark); returns what was set."""
        percent = max(10, min(100, int(percent)))
        top = int((self.device / "max_brightness").read_text().strip() or 0)
        (self.device / "brightness").write_text(str(max(1, round(top * percent / 100))))
        return percent


def settings_path(app) -> Path:
    return Path(app.controller.config.data_dir) / "settings.json"


def load_settings(app) -> dict:
    try:
        data = json.loads(settings_path(app).read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def apply_saved_settings(app) -> None:
    """At start: the players' text size and sound setting from last time."""
    saved = load_settings(app)
    scale = saved.get("text_scale")
    if isinstance(scale, (int, float)) and 0.8 <= scale <= 1.6:
        theme.set_text_scale(scale)
    if "sound" in saved and hasattr(app.controller.outputs, "sound"):
        app.controller.outputs.sound = bool(saved["sound"])
    from ui.speech import SPEAKER
    SPEAKER.enabled = saved.get("speech") is True          # off unless the players turned it on


class SettingsScreen(Screen):
    brightness_text = StringProperty("")
    has_backlight = BooleanProperty(False)
    brightness = NumericProperty(100)
    sound = BooleanProperty(True)
    #: battle and round results and whose turn, said aloud by espeak-ng (ui.speech); off by default
    speech = BooleanProperty(False)
    lights_text = StringProperty("")
    readers_text = StringProperty("")
    info = StringProperty("")
    backlight_root = BACKLIGHT_DIR
    _sightings = 0

    def on_pre_enter(self, *args):
        app = App.get_running_app()
        controller = app.controller
        self.backlight = Backlight(self.backlight_root)
        self.has_backlight = self.backlight.available
        if self.has_backlight:
            try:
                self.brightness = self.backlight.percent()
                self.brightness_text = f"{self.brightness} %"
            except (OSError, ValueError) as exc:
                self.has_backlight = False
                self.brightness_text = f"The backlight cannot be read: {exc}"
        else:
            self.brightness_text = "This display has no brightness control (nothing in /sys/class/backlight)"
        self.sound = bool(getattr(controller.outputs, "sound", True))
        from ui.speech import SPEAKER
        self.speech = SPEAKER.enabled
        self.lights_text = ""
        self._sightings = 0
        self.readers_text = self._reader_lines() + "\nPut a card on any pad to test its reader."
        controller.pad_taker = self.take_pad_event        # a test card must not be played
        from kivy.core.window import Window
        from ui.screens.home import describe_table
        self.info = (f"{describe_table(controller)} · screen {Window.width}×{Window.height} · "
                     f"games kept in {home_relative(controller.store.path)}")
        self._paint_text_sizes()

    def on_leave(self, *args):
        controller = App.get_running_app().controller
        if controller.pad_taker == self.take_pad_event:
            controller.pad_taker = None

    def _save(self, **values) -> None:
        app = App.get_running_app()
        data = load_settings(app)
        data.update(values)
        try:
            write_text(settings_path(app), json.dumps(data, indent=1) + "\n", "settings file")
        except OSError:
            pass                                          # the setting still applies until the app closes

    # ---- text size -------------------------------------------------------------------
    def set_text_size(self, scale: float) -> None:
        theme.set_text_scale(scale)
        self._save(text_scale=scale)
        self._paint_text_sizes()

    def _paint_text_sizes(self) -> None:
        for name, scale in TEXT_SIZES:
            button = self.ids[f"size_{name.lower()}"]
            chosen = abs(theme.text_scale() - scale) < 0.01
            button.tone = theme.HIGHLIGHT if chosen else theme.PANEL_LIGHT
            button.color = theme.CARD_TEXT if chosen else theme.TEXT

    # ---- brightness ------------------------------------------------------------------------
    def change_brightness(self, delta: int) -> None:
        if not self.has_backlight:
            return
        try:
            self.brightness = self.backlight.set_percent(self.brightness + delta)
            self.brightness_text = f"{self.brightness} %"
        except PermissionError:
            self.brightness_text = ("Not allowed to change the backlight: the kiosk user needs write access "
                                    "to /sys/class/backlight (see docs/ui.md)")
        except (OSError, ValueError) as exc:
            self.brightness_text = f"The backlight did not change: {exc}"

    # ---- sound and lights -------------------------------------------------------------------
    def toggle_sound(self) -> None:
        outputs = App.get_running_app().controller.outputs
        self.sound = not self.sound
        if hasattr(outputs, "sound"):
            outputs.sound = self.sound
        self._save(sound=self.sound)

    def toggle_speech(self) -> None:
        from ui.speech import SPEAKER
        self.speech = SPEAKER.enabled = not self.speech
        self._save(speech=self.speech)

    def test(self, what: str) -> None:
        outputs = App.get_running_app().controller.outputs
        test = getattr(outputs, "self_test", None)
        done = test(what) if callable(test) else []
        if what == "sound":
            self.lights_text = ("The buzzer beeps now." if done else
                                "This table has no buzzer in its profile: nothing to sound.")
        else:
            self.lights_text = (f"Flashing {len(done)} lights white three times: {', '.join(done)}" if done else
                                "This table has no LEDs in its profile: nothing to light.")

    # ---- readers ---------------------------------------------------------------------------
    def _reader_lines(self) -> str:
        statuses = App.get_running_app().controller.reader_status()
        return "\n".join(f"{'OK' if s.get('ok') else 'FAULT'} {s.get('id', '?')}: {s.get('detail', '')}"
                         for s in statuses) or "No readers reported."

    def take_pad_event(self, ev) -> bool:
        """Every sighting while Settings is shown: proof that the pad's reader works."""
        if ev.kind == SEEN:
            self._sightings += 1
            self.readers_text = (self._reader_lines() +
                                 f"\nPad {ev.pad} read tag {ev.uid} ({self._sightings} sighting"
                                 f"{'s' if self._sightings != 1 else ''} since this screen opened).")
        return True

    def toggle_fullscreen(self) -> None:
        from kivy.core.window import Window
        Window.fullscreen = False if Window.fullscreen else "auto"



def home_relative(path) -> str:
    """``path`` as its owner writes it: "~/.local/share/tabletop-companion/companion.sqlite3"
    (the home directory is the reader's own; its name says nothing more)."""
    path = Path(path)
    try:
        return "~/" + str(path.relative_to(Path.home()))
    except ValueError:                   # a --data-dir elsewhere: written whole
        return str(path)

load_kv(__file__)
