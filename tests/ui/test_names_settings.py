"""Issue 14 item 11 in the real window: the docked keyboard, names on buttons, Settings that act."""
from ui import harness, theme

from .driver import option_button, table_screen


def test_docked_keyboard_types_names_and_buttons_follow_them(home):
    app = home
    harness.tap(harness.button("Sam's Battle Game"))
    setup = app.root.get_screen("setup")
    keyboard = setup.ids.keyboard
    setup.ids.player0.text = ""
    assert not keyboard.shown and keyboard.height == 0
    harness.tap(setup.ids.player0)
    harness.frames(2)
    assert keyboard.shown and keyboard.height >= 4 * 48
    assert setup.ids.player0.y >= keyboard.top                 # docked below the form, not over it
    for key in ("A", "l", "e", "x"):
        harness.tap(harness.button(key))
    assert setup.ids.player0.text == "Alex"
    harness.tap(harness.button("⌫"))
    harness.tap(harness.button("x"))
    harness.tap(harness.button("Done"))
    assert not keyboard.shown
    assert "Alex" in harness.texts() and "North" not in harness.texts(setup.ids.options)
    harness.tap(option_button(setup, "First player", "Alex"))  # first player, by name
    harness.tap(harness.button("Start the game"))
    assert app.controller.session.options["players"][0] == "Alex"
    assert app.controller.session.options["first_seat"] == 0
    assert "Alex plays card 1 of 3" in table_screen(app).phase_label
    setup.ids.player0.text = "North"


def test_settings_text_size_brightness_sound_lights_and_readers(home, tmp_path):
    app = home
    device = tmp_path / "backlight" / "rpi_backlight"
    device.mkdir(parents=True)
    (device / "max_brightness").write_text("255\n")
    (device / "brightness").write_text("255\n")
    harness.tap(harness.button("Settings"))
    settings = app.root.get_screen("settings")
    assert "no brightness control" in settings.brightness_text or settings.has_backlight
    settings.backlight_root = tmp_path / "backlight"           # the kernel's files, in a folder of ours
    settings.on_pre_enter()
    assert settings.brightness_text == "100 %"
    harness.tap(harness.button("−"))
    assert (device / "brightness").read_text() == str(round(255 * 0.9))
    harness.tap(harness.button("Larger"))
    assert app.text_scale == 1.3 and theme.text_scale() == 1.3
    assert settings.ids.size_larger.font_size == settings.ids.size_normal.font_size
    harness.tap(harness.button("Normal"))
    assert app.text_scale == 1.0
    harness.tap(harness.button("Test lights"))
    assert "no LEDs" in settings.lights_text                  # the simulated table has none
    sound = settings.ids.sound_switch
    assert sound.text == "On"
    harness.tap(sound)
    assert not settings.sound and sound.text == "Off"
    harness.tap(sound)
    assert settings.sound and sound.text == "On"
    app.controller.source.place("scan", "04A1B2C3D4E5F6")
    harness.frames(1)
    assert "Pad scan read tag 04A1B2C3D4E5F6" in settings.readers_text
    assert app.controller.session is None                       # a test card is never played
    app.controller.source.lift("scan", "04A1B2C3D4E5F6")
    settings.backlight_root = settings.__class__.backlight_root
    harness.tap(harness.button("Back"))


def test_settings_names_the_games_file_as_its_owner_writes_it(monkeypatch, tmp_path):
    """Settings says where the games are kept as a newcomer's Pi has it, "~/.local/share/…", not
    the home directory's whole path; a --data-dir elsewhere is written whole."""
    from companion import paths
    from ui.screens.settings import home_relative
    monkeypatch.setenv("HOME", str(tmp_path / "home" / "pi"))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    default = paths.database_path(paths.data_dir(create=False))
    assert home_relative(default) == "~/.local/share/tabletop-companion/companion.sqlite3"
    assert home_relative("/srv/club/companion.sqlite3") == "/srv/club/companion.sqlite3"
