"""How `companion run` sets Kivy up before the window opens: which video driver, which input
providers, and what it says when there is no screen.

Each case runs in a fresh Python (Kivy reads its settings once per process), with
Kivy's real configuration, its real provider factory and its real ``probesysfs``
probe; the only stand-in is the sysfs tree the probe reads, a copy of what a Pi
with the touch panel, a USB keyboard and a USB mouse shows under /sys/class/input.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# linux/input-event-codes.h
ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0, 1, 0x2F, 0x35, 0x36, 0x39
TOUCH_ABS = format(sum(1 << bit for bit in (ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y,
                                            ABS_MT_TRACKING_ID)), "x")
# event0: the original 7-inch display's touch (ft5x06); event3: Touch Display 2's (Goodix).
DEVICES = {"event0": ("generic ft5x06 (79)", TOUCH_ABS), "event1": ("Logitech USB Keyboard", "0"),
           "event2": ("Logitech USB Optical Mouse", "0"), "event3": ("Goodix Capacitive TouchScreen", TOUCH_ABS)}
TOUCH_PANELS = {"/dev/input/event0", "/dev/input/event3"}

# What Kivy's runTouchApp does with the [input] section (kivy/base.py), after the app's set-up.
PROBE = r"""
import json, os, sys
from ui.app import configure_kivy
configure_kivy((800, 480), True)
from kivy.config import Config
from kivy.base import EventLoop
from kivy.input.factory import MotionEventFactory
from kivy.input.providers import probesysfs
probesysfs._is_rpi = True            # as Kivy sees a Pi: its probesysfs then takes every device by default
real_get_inputs = probesysfs.get_inputs
probesysfs.get_inputs = lambda path: real_get_inputs(os.environ["FAKE_SYSFS"])
for key, value in Config.items("input"):
    provider_id, _, args = str(value).partition(",")
    provider = MotionEventFactory.get(provider_id)
    made = provider(key, args)
    if made:
        EventLoop.add_input_provider(made, True)
print(json.dumps({
    "providers": [[type(p).__name__, getattr(p, "input_fn", None)] for p in EventLoop.input_providers],
    "env": {k: os.environ.get(k) for k in ("SDL_VIDEODRIVER", "SDL_TOUCH_MOUSE_EVENTS", "KIVY_WINDOW")},
    "show_cursor": Config.get("graphics", "show_cursor"),
}))
"""


def fake_sysfs(path: Path) -> Path:
    for event, (name, abs_caps) in DEVICES.items():
        device = path / event / "device"
        (device / "capabilities").mkdir(parents=True)
        (device / "name").write_text(name + "\n")
        (device / "capabilities" / "abs").write_text(abs_caps + "\n")
    return path


def start_up(tmp_path: Path, **env) -> dict:
    kivy_home = tmp_path / "kivy"
    kivy_home.mkdir(exist_ok=True)
    base = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    run_env = dict(base, PYTHONPATH=str(REPO), KIVY_HOME=str(kivy_home), KIVY_NO_CONSOLELOG="1",
                   KIVY_NO_FILELOG="1", FAKE_SYSFS=str(fake_sysfs(tmp_path / "sys-class-input")), **env)
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=run_env, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def providers_by_device(result: dict) -> dict:
    found: dict = {}
    for kind, device in result["providers"]:
        found.setdefault(device, []).append(kind)
    return found


def test_on_the_console_each_touch_panel_has_exactly_one_provider(tmp_path):
    result = start_up(tmp_path)
    assert result["env"] == {"SDL_VIDEODRIVER": "kmsdrm", "SDL_TOUCH_MOUSE_EVENTS": "0", "KIVY_WINDOW": "sdl2"}
    by_device = providers_by_device(result)
    for panel in TOUCH_PANELS:
        assert by_device[panel] == ["MTDMotionEventProvider"], panel   # read once, multitouch
    # The keyboard and the mouse are not read as touch devices; the mouse comes once, through SDL,
    # which does not turn touches into clicks (SDL_TOUCH_MOUSE_EVENTS=0).
    assert "/dev/input/event1" not in by_device and "/dev/input/event2" not in by_device
    assert by_device[None] == ["MouseMotionEventProvider"]
    assert result["show_cursor"] == "0"


def test_an_old_kivy_config_cannot_add_a_second_reader_of_the_panel(tmp_path):
    """The previous installer wrote [input] lines into KIVY_HOME; Kivy's Pi default is hidinput."""
    (tmp_path / "kivy").mkdir()
    (tmp_path / "kivy" / "config.ini").write_text(
        "[input]\n%(name)s = probesysfs,provider=hidinput\nmtdev_%(name)s = probesysfs,provider=mtdev\n"
        "mouse = mouse,disable_on_activity\n")
    by_device = providers_by_device(start_up(tmp_path))
    assert all(kinds == ["MTDMotionEventProvider"] for device, kinds in by_device.items() if device), by_device
    assert set(by_device) == TOUCH_PANELS | {None}


def test_under_a_desktop_the_desktop_hands_touches_on_once(tmp_path):
    result = start_up(tmp_path, DISPLAY=":97")
    assert result["env"]["SDL_VIDEODRIVER"] == "x11"
    assert providers_by_device(result) == {None: ["MouseMotionEventProvider"]}


@pytest.mark.parametrize("env, driver", [
    ({}, "kmsdrm"), ({"DISPLAY": ":0"}, "x11"), ({"WAYLAND_DISPLAY": "wayland-0"}, "wayland"),
    ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, "x11"), ({"SDL_VIDEODRIVER": "wayland"}, "wayland"),
])
def test_the_video_driver_is_always_one_named_driver(env, driver):
    """Never left to SDL: its last resort is the offscreen driver, a window nobody sees."""
    from ui.app import video_driver
    assert video_driver(env) == driver


def run_without_screen(tmp_path, **env):
    base = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    run_env = dict(base, PYTHONPATH=str(REPO), KIVY_HOME=str(tmp_path / "kivy"), **env)
    return subprocess.run([sys.executable, "-m", "ui.main", "--data-dir", str(tmp_path / "data"),
                           "run", "--sim"], capture_output=True, text=True, env=run_env, timeout=120)


def test_no_display_is_one_sentence_and_exit_2(tmp_path):
    done = run_without_screen(tmp_path, DISPLAY=":97")          # nothing listens there
    assert done.returncode == 2
    last = done.stderr.strip().splitlines()[-1]
    assert last == "companion run: cannot open the screen: the X display :97 does not answer (SDL: x11 not available)."
    assert "Traceback" not in done.stderr and "File \"" not in done.stderr


@pytest.mark.skipif(bool(list(Path("/dev").glob("dri/card*"))), reason="this machine has a screen KMSDRM could use")
def test_no_desktop_and_no_graphics_device_says_so(tmp_path):
    done = run_without_screen(tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].startswith(
        "companion run: cannot open the screen: there is no desktop session and no graphics device (/dev/dri/card*)")
    assert "Traceback" not in done.stderr


def test_the_services_rotation_turns_the_window_and_its_touches(tmp_path):
    """td2-landscape: the unit sets KCFG_GRAPHICS_ROTATION=90; Kivy's window turns, and every
    touch is scaled with the window's rotation (MotionEvent.scale_for_screen)."""
    if not os.environ.get("DISPLAY"):
        if os.environ.get("COMPANION_REQUIRE_UI"):
            pytest.fail("no DISPLAY for the UI tests (Xvfb did not start)")
        pytest.skip("no DISPLAY: run the suite with `python3 -m companion test`, which starts Xvfb")
    probe = (
        "import json\n"
        "from ui.app import configure_kivy, open_window\n"
        "configure_kivy((800, 480), False)\n"
        "Window = open_window()\n"
        "from kivy.input.providers.mtdev import MTDMotionEvent\n"
        "touch = MTDMotionEvent('panel', 1, {'x': 0.25, 'y': 0.75})   # a finger as the panel reports it\n"
        "Window.transform_motion_event_2d(touch)                       # what the window does to every touch\n"
        "print(json.dumps({'rotation': Window.rotation, 'size': list(Window.size),\n"
        "                  'system_size': list(Window.system_size), 'touch': [touch.x, touch.y]}))\n")
    env = dict(os.environ, PYTHONPATH=str(REPO), KIVY_HOME=str(tmp_path / "kivy"), KIVY_NO_CONSOLELOG="1",
               KCFG_GRAPHICS_ROTATION="90")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout.strip().splitlines()[-1])
    assert shown["rotation"] == 90
    assert shown["system_size"] == [800, 480] and shown["size"] == [480, 800]   # the app lays out turned
    # Turned by 90°, the panel's x runs down the app's y and its y across the app's x
    # (kivy.input.motionevent.to_absolute_pos), so the finger lands where the turned picture shows.
    assert shown["touch"] == [pytest.approx(0.75 * 479), pytest.approx((1 - 0.25) * 799)]
