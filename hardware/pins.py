"""The table's LEDs, buttons and buzzer, as the table profile lists them.

The table profile (see :mod:`companion.table`) that lists the readers and their
pads also lists what else is wired to the Pi's GPIO header, by BCM GPIO
number::

    [[leds]]                 # a player's turn light
    id = "north"
    kind = "rgb"             # rgb (three legs + common) | plain (one leg)
    seat = 0
    red = 5
    green = 6
    blue = 13
    common_anode = false     # true when the common leg goes to 3.3 V

    [[leds]]                 # a lane light: shows who won the battle on these pads
    id = "lane1"
    kind = "rgb"
    pads = ["n1", "s1"]
    red = 22
    green = 23
    blue = 24

    [[leds]]                 # a plain lane light lights when *its* seat wins there
    id = "north-lane2"
    kind = "plain"
    seat = 0
    pads = ["n2", "s2"]
    gpio = 25

    [[buttons]]              # short press: confirm; long press: undo
    id = "north-confirm"
    seat = 0
    gpio = 26

    [buzzer]                 # an active buzzer: beeps when a scan is refused
    gpio = 12

:func:`parse_pins` checks the lot before anything touches a pin.  Every GPIO
may have one user only, counting the readers' own pins (any ``…_gpio`` key of
a ``[[readers]]`` entry, such as ``reset_gpio`` or ``cs_gpio``; readers may
share a reset line), and none may be a pin of the SPI buses
(``firmware_config/pi/config.txt`` turns on SPI0 and SPI1 with three chip
selects for the readers, so all eleven pins are taken even when a table uses
one bus).  A bad profile is refused
with every problem named, the pin and both of its users included::

    >>> parse_pins({"leds": [{"id": "north", "kind": "plain", "seat": 0, "gpio": 10}]}, "table.toml")
    Traceback (most recent call last):
    ...
    hardware.pins.PinProfileError: table.toml: GPIO 10 is SPI0 MOSI, which the card readers' SPI bus uses; LED 'north' cannot use it too
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.table import ProfileError

# BCM numbers of the SPI pins enabled by firmware_config/pi/config.txt.
SPI_PINS = {
    7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK",
    16: "SPI1 CE2", 17: "SPI1 CE1", 18: "SPI1 CE0", 19: "SPI1 MISO", 20: "SPI1 MOSI", 21: "SPI1 SCLK",
}
# GPIO 0 and 1 belong to the HAT identification EEPROM on every 40-pin Pi.
RESERVED_PINS = {0: "the HAT ID EEPROM's ID_SD", 1: "the HAT ID EEPROM's ID_SC"}
HEADER_GPIOS = range(0, 28)
SEATS = (0, 1)

RGB_LEGS = ("red", "green", "blue")
_LED_KEYS = {"id", "kind", "seat", "pads", "gpio", "common_anode", *RGB_LEGS}
_BUTTON_KEYS = {"id", "seat", "gpio", "pull_up"}
_BUZZER_KEYS = {"gpio", "active_high"}


class PinProfileError(ProfileError):
    """LEDs, buttons or a buzzer that cannot be wired as listed; the message names every problem."""


@dataclass(frozen=True)
class LedSpec:
    """One LED.  ``pins`` maps a leg to its GPIO: ``{"red", "green", "blue"}``
    for an RGB LED, ``{"gpio"}`` for a plain one.  A seat light has a
    ``seat`` and no ``pads``; a lane light has ``pads`` (and, when plain, the
    ``seat`` whose wins it shows)."""

    id: str
    kind: str
    seat: int | None
    pins: dict
    pads: tuple[str, ...] = ()
    common_anode: bool = False

    @property
    def is_lane(self) -> bool:
        return bool(self.pads)


@dataclass(frozen=True)
class ButtonSpec:
    """A player's confirm button between ``gpio`` and ground (``pull_up``) or 3.3 V."""

    id: str
    seat: int
    gpio: int
    pull_up: bool = True


@dataclass(frozen=True)
class BuzzerSpec:
    gpio: int
    active_high: bool = True


@dataclass(frozen=True)
class PinProfile:
    """Everything on the GPIO header apart from the readers."""

    leds: tuple[LedSpec, ...] = ()
    buttons: tuple[ButtonSpec, ...] = ()
    buzzer: BuzzerSpec | None = None

    @property
    def empty(self) -> bool:
        return not (self.leds or self.buttons or self.buzzer)

    def seat_leds(self) -> list[LedSpec]:
        return [led for led in self.leds if not led.is_lane]


def parse_pins(doc: dict, source: str, pads: list[str] | None = None) -> PinProfile:
    """The LEDs, buttons and buzzer of a table profile document (``TableProfile.raw``).

    ``pads`` are the pads the profile's readers have; lane lights must name
    some of them.  Raises :class:`PinProfileError` listing every problem.
    """
    problems: list[str] = []
    users = _PinUsers(problems)
    for n, reader in enumerate(_tables(doc, "readers", problems), start=1):
        name = f"reader {reader.get('id', n)!r}"
        for key, value in reader.items():
            if key.endswith("_gpio"):
                for gpio in value if isinstance(value, list) else [value]:
                    users.claim(gpio, f"{name} ({key})", shared_by_readers=True)

    leds = []
    seen_ids: set[str] = set()
    for n, raw in enumerate(_tables(doc, "leds", problems), start=1):
        led = _parse_led(raw, n, problems, users, pads)
        if led is not None:
            if led.id in seen_ids:
                problems.append(f"two LEDs are called {led.id!r}; give each its own id")
            seen_ids.add(led.id)
            leds.append(led)

    buttons = []
    for n, raw in enumerate(_tables(doc, "buttons", problems), start=1):
        name = f"button {raw.get('id', n)!r}"
        _unknown_keys(raw, _BUTTON_KEYS, name, problems)
        seat = raw.get("seat")
        if seat not in SEATS:
            problems.append(f"{name}: 'seat' must be 0 or 1 (the player whose confirm button it is)")
        gpio = users.claim(raw.get("gpio"), name, key="gpio")
        pull_up = raw.get("pull_up", True)
        if not isinstance(pull_up, bool):
            problems.append(f"{name}: 'pull_up' must be true or false")
        if seat in SEATS and gpio is not None:
            buttons.append(ButtonSpec(str(raw.get("id", f"button{n}")), seat, gpio, bool(pull_up)))

    buzzer = None
    raw_buzzer = doc.get("buzzer")
    if raw_buzzer is not None:
        if not isinstance(raw_buzzer, dict):
            problems.append("[buzzer] must be a table with a 'gpio' key")
        else:
            _unknown_keys(raw_buzzer, _BUZZER_KEYS, "the buzzer", problems)
            gpio = users.claim(raw_buzzer.get("gpio"), "the buzzer", key="gpio")
            active_high = raw_buzzer.get("active_high", True)
            if not isinstance(active_high, bool):
                problems.append("the buzzer: 'active_high' must be true or false")
            if gpio is not None:
                buzzer = BuzzerSpec(gpio, bool(active_high))

    if problems:
        raise PinProfileError(f"{source}: " + "; ".join(problems))
    return PinProfile(tuple(leds), tuple(buttons), buzzer)


def _parse_led(raw: dict, n: int, problems: list[str], users: "_PinUsers", pads) -> LedSpec | None:
    led_id = raw.get("id")
    name = f"LED {led_id!r}" if led_id is not None else f"LED {n}"
    _unknown_keys(raw, _LED_KEYS, name, problems)
    kind = raw.get("kind", "rgb")
    seat = raw.get("seat")
    lane_pads = raw.get("pads", [])
    ok = True
    if not isinstance(led_id, str) or not led_id:
        problems.append(f"LED {n}: give it an 'id' such as \"north\" or \"lane1\"")
        ok = False
    if not isinstance(lane_pads, list) or not all(isinstance(p, str) for p in lane_pads):
        problems.append(f"{name}: 'pads' must be a list of pad names, e.g. [\"n1\", \"s1\"]")
        lane_pads, ok = [], False
    if seat is not None and seat not in SEATS:
        problems.append(f"{name}: 'seat' must be 0 or 1")
        ok = False
    if not lane_pads and seat is None:
        problems.append(f"{name}: say whose turn light it is ('seat' = 0 or 1) "
                        "or which pads it sits beside ('pads' = [...])")
        ok = False
    if lane_pads and kind == "plain" and seat is None:
        problems.append(f"{name}: a plain lane LED can only show one player's wins; add 'seat' = 0 or 1")
        ok = False
    if pads:
        unknown = [p for p in lane_pads if p not in pads]
        if unknown:
            problems.append(f"{name}: no reader has {'pad' if len(unknown) == 1 else 'pads'} {', '.join(unknown)}")
            ok = False
    common_anode = raw.get("common_anode", False)
    if not isinstance(common_anode, bool):
        problems.append(f"{name}: 'common_anode' must be true or false")
        ok = False
    if kind == "rgb":
        legs = {leg: users.claim(raw.get(leg), f"{name} ({leg})", key=leg) for leg in RGB_LEGS}
        if "gpio" in raw:
            problems.append(f"{name}: an RGB LED has 'red', 'green' and 'blue' pins, not 'gpio'")
            ok = False
    elif kind == "plain":
        legs = {"gpio": users.claim(raw.get("gpio"), name, key="gpio")}
        stray = [leg for leg in RGB_LEGS if leg in raw]
        if stray:
            problems.append(f"{name}: a plain LED has one 'gpio' pin, not {', '.join(stray)}")
            ok = False
    else:
        problems.append(f"{name}: 'kind' must be \"rgb\" or \"plain\", not {kind!r}")
        return None
    if not ok or None in legs.values():
        return None
    return LedSpec(led_id, kind, seat, legs, tuple(lane_pads), common_anode)


class _PinUsers:
    """Who claimed which GPIO; every clash becomes a sentence naming both users."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        self.by_pin: dict[int, str] = {}
        self.reader_pins: set[int] = set()

    def claim(self, gpio, user: str, key: str | None = None, shared_by_readers: bool = False) -> int | None:
        """Claim ``gpio`` for ``user``.  Readers may share a pin among themselves (one
        reset line for several readers); :mod:`hardware.readers` checks their chip selects."""
        if shared_by_readers and gpio in self.reader_pins:
            return gpio
        if gpio is None and key is not None:
            self.problems.append(f"{user}: no '{key}' pin given")
            return None
        if isinstance(gpio, bool) or not isinstance(gpio, int):
            self.problems.append(f"{user}: {gpio!r} is not a GPIO number (use the BCM number, e.g. 26)")
            return None
        if gpio not in HEADER_GPIOS:
            self.problems.append(f"{user}: GPIO {gpio} is not on the header (BCM numbers 0–27)")
            return None
        if gpio in SPI_PINS:
            self.problems.append(f"GPIO {gpio} is {SPI_PINS[gpio]}, which the card readers' SPI bus uses; "
                                 f"{user} cannot use it too")
            return None
        if gpio in RESERVED_PINS:
            self.problems.append(f"GPIO {gpio} is reserved for {RESERVED_PINS[gpio]}; {user} cannot use it")
            return None
        if gpio in self.by_pin:
            self.problems.append(f"GPIO {gpio} is used twice: by {self.by_pin[gpio]} and by {user}")
            return None
        self.by_pin[gpio] = user
        if shared_by_readers:
            self.reader_pins.add(gpio)
        return gpio


def _tables(doc: dict, key: str, problems: list[str]) -> list[dict]:
    entries = doc.get(key, [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        problems.append(f"'{key}' must be a list of [[{key}]] tables")
        return []
    return entries


def _unknown_keys(raw: dict, known: set[str], name: str, problems: list[str]) -> None:
    unknown = sorted(set(raw) - known)
    if unknown:
        problems.append(f"{name}: unknown {'key' if len(unknown) == 1 else 'keys'} {', '.join(unknown)} (known: {', '.join(sorted(known))})")


def board_model(path: str = "/proc/device-tree/model") -> str:
    """The board's name as its firmware gives it ("Raspberry Pi 5 Model B Rev 1.0"), or ""."""
    try:
        with open(path, "rb") as f:
            return f.read().rstrip(b"\0").decode("ascii", "replace")
    except OSError:
        return ""


def choose_pin_factory(model: str | None = None):
    """gpiozero's pin factory for this board, and one line saying which and why.

    ``GPIOZERO_PIN_FACTORY`` wins when set (``mock`` in tests).  Otherwise lgpio,
    which drives the GPIO through the kernel's gpiochip interface on every Pi,
    the Pi 5 (whose header hangs off the RP1 chip) included; then RPi.GPIO,
    which only knows the older Pis' SoC registers and on a Pi 5 fails with
    "Cannot determine SOC peripheral base address" (gpiozero#1172), so it is
    not tried there.  Returns ``(factory, report)``; ``factory`` is None when no
    factory opens, and ``report`` then says what to do.
    """
    import os
    model = board_model() if model is None else model
    board = model or "this machine"
    asked = os.environ.get("GPIOZERO_PIN_FACTORY")
    if asked:
        from gpiozero import Device
        try:
            return Device._default_pin_factory(), f"GPIO: the {asked} pin factory (GPIOZERO_PIN_FACTORY)"
        except Exception as exc:           # gpiozero raises BadPinFactory, ImportError, OSError…
            return None, f"GPIO: none: GPIOZERO_PIN_FACTORY={asked} cannot be used ({exc})"
    try:
        from gpiozero.pins.lgpio import LGPIOFactory
        factory = LGPIOFactory()
        return factory, f"GPIO: lgpio on /dev/gpiochip{factory.chip} of {board}"
    except ImportError:
        why = "lgpio is not installed in this Python (python3 -m companion.bootstrap installs it on a Pi)"
    except Exception as exc:
        hint = "; is the user in the gpio group?" if "Raspberry Pi" in model else ""
        why = f"lgpio cannot open the GPIO chip ({exc}{hint})"
    if "Raspberry Pi 5" in model:
        return None, f"GPIO: none: {why}; a Raspberry Pi 5 needs lgpio"
    try:
        from gpiozero.pins.rpigpio import RPiGPIOFactory
        return RPiGPIOFactory(), f"GPIO: RPi.GPIO on {board} ({why})"
    except Exception as exc:
        return None, f"GPIO: none on {board}: {why}; RPi.GPIO: {exc}"


def use_pin_factory():
    """Make :func:`choose_pin_factory`'s choice gpiozero's default for every device
    (LEDs, buttons, the readers' reset lines); returns its report line."""
    from gpiozero import Device
    if Device.pin_factory is not None:
        return f"GPIO: the {type(Device.pin_factory).__name__} already in use"
    factory, report = choose_pin_factory()
    if factory is not None:
        Device.pin_factory = factory
    return report
