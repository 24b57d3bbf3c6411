"""The pin profile: LEDs, buttons and a buzzer listed by BCM GPIO in the table profile."""
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from companion.app_config import AppConfig
from hardware.outputs import NoOutputs, TableOutputs, open_outputs
from hardware.pins import SPI_PINS, PinProfileError, parse_pins

from .conftest import TABLE

PROFILE_TOML = '''
name = "LED demo table"

[[readers]]
id = "north-1"
kind = "rc522"
bus = 0
device = 0
reset_gpio = 25
pads = ["n1"]

[[readers]]
id = "south-1"
kind = "rc522"
bus = 0
device = 1
reset_gpio = 4
pads = ["s1"]

[layouts.sams]
n1 = "0.lane1"
s1 = "1.lane1"

[[leds]]
id = "north"
kind = "rgb"
seat = 0
red = 5
green = 6
blue = 13

[[leds]]
id = "lane1"
kind = "rgb"
pads = ["n1", "s1"]
red = 2
green = 3
blue = 14

[[buttons]]
id = "north-confirm"
seat = 0
gpio = 26

[buzzer]
gpio = 12
'''


def refusal(doc) -> str:
    with pytest.raises(PinProfileError) as caught:
        parse_pins(doc, "table.toml")
    return str(caught.value)


def test_the_example_table_is_accepted():
    pins = parse_pins(TABLE, "test table")
    assert [led.id for led in pins.seat_leds()] == ["north", "south"]
    assert pins.leds[0].pins == {"red": 5, "green": 6, "blue": 13}
    assert [(b.id, b.seat, b.gpio) for b in pins.buttons] == [("north-confirm", 0, 26), ("south-confirm", 1, 27)]
    assert pins.buzzer.gpio == 12


def test_a_pin_named_twice_is_refused_naming_the_pin_and_both_users():
    doc = {"leds": [{"id": "north", "kind": "rgb", "seat": 0, "red": 5, "green": 6, "blue": 13}],
           "buttons": [{"id": "north-confirm", "seat": 0, "gpio": 6}]}
    assert refusal(doc) == ("table.toml: GPIO 6 is used twice: by LED 'north' (green) "
                            "and by button 'north-confirm'")


def test_a_pin_a_reader_already_uses_is_refused():
    doc = {"readers": [{"id": "north-1", "pads": ["n1"], "reset_gpio": 25, "cs_gpio": 24}],
           "leds": [{"id": "lane1", "kind": "plain", "seat": 0, "pads": ["n1"], "gpio": 24}]}
    assert "GPIO 24 is used twice: by reader 'north-1' (cs_gpio) and by LED 'lane1'" in refusal(doc)


@pytest.mark.parametrize("gpio", sorted(SPI_PINS))
def test_every_spi_pin_is_refused(gpio):
    """SPI0 (7–11) and SPI1 with three chip selects (16–21) belong to the card readers."""
    message = refusal({"buzzer": {"gpio": gpio}})
    assert f"GPIO {gpio} is {SPI_PINS[gpio]}, which the card readers' SPI bus uses; the buzzer cannot use it too" \
        in message


def test_a_reader_pin_on_the_spi_bus_is_refused_too():
    message = refusal({"readers": [{"id": "south-2", "pads": ["s2"], "cs_gpio": 8}]})
    assert "GPIO 8 is SPI0 CE0" in message and "reader 'south-2' (cs_gpio)" in message


def test_every_problem_is_named_at_once():
    doc = {"leds": [{"id": "north", "kind": "rgb", "seat": 0, "red": 5, "green": 40, "blue": "13"},
                    {"id": "lane", "kind": "plain", "pads": ["n1"], "gpio": 2},
                    {"id": "x", "kind": "rgbw", "seat": 1}],
           "buttons": [{"id": "b", "seat": 2, "gpoi": 26}]}
    message = refusal(doc)
    assert "LED 'north' (green): GPIO 40 is not on the header (BCM numbers 0–27)" in message
    assert "LED 'north' (blue): '13' is not a GPIO number" in message
    assert "LED 'lane': a plain lane LED can only show one player's wins; add 'seat'" in message
    assert "LED 'x': 'kind' must be \"rgb\" or \"plain\", not 'rgbw'" in message
    assert "button 'b': unknown key gpoi" in message
    assert "button 'b': 'seat' must be 0 or 1" in message
    assert "button 'b': no 'gpio' pin given" in message


def test_a_light_must_say_whose_it_is_or_where_it_sits():
    assert "say whose turn light it is" in refusal({"leds": [{"id": "n", "kind": "plain", "gpio": 4}]})


def test_hat_eeprom_pins_are_refused():
    assert "GPIO 0 is reserved for the HAT ID EEPROM's ID_SD" in refusal({"buzzer": {"gpio": 0}})


def test_a_lane_light_must_sit_beside_pads_the_readers_have(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text(PROFILE_TOML.replace('pads = ["n1", "s1"]\nred = 2', 'pads = ["n1", "s9"]\nred = 2'))
    config = AppConfig(data_dir=tmp_path, profile_path=path, sim=False)
    with pytest.raises(PinProfileError, match=r"LED 'lane1': no reader has pad s9"):
        open_outputs(config, pin_factory=MockFactory())


def test_open_outputs_reads_the_table_profile(tmp_path, pin_factory):
    path = tmp_path / "table.toml"
    path.write_text(PROFILE_TOML)
    config = AppConfig(data_dir=tmp_path, profile_path=path, sim=False)
    with open_outputs(config, pin_factory=pin_factory) as outputs:
        assert isinstance(outputs, TableOutputs)
        assert [spec.id for spec, _ in outputs.seat_lights] == ["north"]
        assert [spec.pads for spec, _ in outputs.lane_lights] == [("n1", "s1")]


def test_a_reader_pin_in_the_profile_file_clashes_with_an_led(tmp_path, pin_factory):
    path = tmp_path / "table.toml"
    path.write_text(PROFILE_TOML.replace("blue = 14", "blue = 4"))
    config = AppConfig(data_dir=tmp_path, profile_path=path, sim=False)
    with pytest.raises(PinProfileError, match=r"GPIO 4 is used twice: by reader 'south-1' \(reset_gpio\) "
                                              r"and by LED 'lane1' \(blue\)"):
        open_outputs(config, pin_factory=pin_factory)


def test_no_profile_means_no_outputs(tmp_path):
    outputs = open_outputs(AppConfig(data_dir=tmp_path, profile_path=None, sim=True))
    assert isinstance(outputs, NoOutputs)


def test_gpio_that_cannot_be_opened_leaves_the_game_running_without_lights(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text(PROFILE_TOML)
    config = AppConfig(data_dir=tmp_path, profile_path=path, sim=False)
    # Plain mock pins cannot do PWM, as an RGB LED needs: opening fails like missing GPIO would.
    outputs = open_outputs(config, pin_factory=MockFactory(pin_class=MockPin))
    assert isinstance(outputs, NoOutputs)
    assert "the LEDs and buttons could not be opened" in outputs.problem
    assert "the game runs without them" in outputs.problem


def test_readers_may_share_a_reset_line_but_an_led_may_not_take_it():
    readers = [{"id": f"r{n}", "pads": [f"p{n}"], "reset_gpio": 25} for n in range(3)]
    assert parse_pins({"readers": readers}, "table.toml").empty
    message = refusal({"readers": readers, "buzzer": {"gpio": 25}})
    assert message == "table.toml: GPIO 25 is used twice: by reader 'r0' (reset_gpio) and by the buzzer"


SHIPPED = sorted((Path(__file__).resolve().parents[2] / "firmware_config" / "tables").glob("*.toml"))


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_the_shipped_table_profiles_pass(path):
    from companion.table import load_profile
    profile = load_profile(path)
    parse_pins(profile.raw, profile.source, profile.pads)


def test_the_led_demo_table_opens_on_mock_pins(pin_factory, tmp_path):
    path = Path(__file__).resolve().parents[2] / "firmware_config" / "tables" / "led-demo.toml"
    config = AppConfig(data_dir=tmp_path, profile_path=path, sim=False)
    with open_outputs(config, pin_factory=pin_factory) as outputs:
        assert [spec.id for spec, _ in outputs.seat_lights + outputs.lane_lights] == ["north", "south", "battle"]
        assert len(outputs.buttons.buttons) == 2 and outputs.buzzer is not None
