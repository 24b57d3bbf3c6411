"""The mfrc522-based transport: the package's register map, injectable SPI, and only its own pins released."""
import sys

import pytest
from gpiozero import LED, DigitalOutputDevice
from gpiozero.pins.mock import MockFactory

from hardware.emulator import EmulatedRC522, ModelClock
from hardware.rc522.transport import Mfrc522Transport, mfrc522_class


class CountingSpi:
    """An SPI device that records transfers and whether it was closed (wrapping the emulator)."""

    def __init__(self, chip):
        self.chip = chip
        self.transfers = []
        self.closed = False

    def xfer2(self, data):
        self.transfers.append(list(data))
        return self.chip.xfer2(data)

    def close(self):
        self.closed = True


def test_the_transport_is_the_mfrc522_package_class_with_its_register_map():
    cls = mfrc522_class()
    assert cls.__module__ == "mfrc522.MFRC522"
    assert issubclass(Mfrc522Transport, cls)
    assert Mfrc522Transport.VersionReg == 0x37 and Mfrc522Transport.PCD_TRANSCEIVE == 0x0C
    assert sys.modules.get("RPi.GPIO") is not sys.modules["mfrc522.MFRC522"].GPIO   # stand-in not left behind


def test_the_packages_own_register_access_works_over_the_injected_device():
    clock = ModelClock()
    spi = CountingSpi(EmulatedRC522(clock))
    t = Mfrc522Transport(spi, sleep=clock.sleep)
    assert t.Read_MFRC522(t.VersionReg) == 0x92                 # the package's method, our device
    t.SetBitMask(t.TxControlReg, 0x03)                           # inherited from mfrc522, unchanged
    assert t.Read_MFRC522(t.TxControlReg) & 0x03 == 0x03
    assert spi.transfers[0] == [(0x37 << 1) | 0x80, 0]


def test_several_registers_are_read_in_one_transaction():
    clock = ModelClock()
    spi = CountingSpi(EmulatedRC522(clock))
    t = Mfrc522Transport(spi, sleep=clock.sleep)
    assert t.read_regs([t.VersionReg, t.WaterLevelReg, t.ModeReg]) == [0x92, 0x08, 0x3F]
    assert len(spi.transfers) == 1


def test_closing_releases_only_this_readers_own_pins():
    """The package's Close_MFRC522 calls GPIO.cleanup() (every pin of the process); ours releases its own."""
    factory = MockFactory()
    led = LED(17, pin_factory=factory)                       # somebody else's pin
    other_reset = DigitalOutputDevice(24, initial_value=True, pin_factory=factory)
    own_reset = DigitalOutputDevice(25, initial_value=True, pin_factory=factory)
    own_cs = DigitalOutputDevice(5, active_high=False, initial_value=False, pin_factory=factory)
    clock = ModelClock()
    spi = CountingSpi(EmulatedRC522(clock))
    t = Mfrc522Transport(spi, reset=own_reset, own_reset=True, chip_select=own_cs, sleep=clock.sleep)
    t.Close_MFRC522()                                         # the package's name for closing
    assert spi.closed
    assert own_reset.closed and own_cs.closed
    assert not led.closed and not other_reset.closed
    led.on()
    assert factory.pin(17).state
    assert factory.pin(24).state                            # still driven high: not reset, not released
    DigitalOutputDevice(25, pin_factory=factory).close()    # pin 25 is free again
    led.close()
    other_reset.close()


def test_a_shared_reset_line_is_not_closed_by_one_reader():
    factory = MockFactory()
    shared = DigitalOutputDevice(25, initial_value=True, pin_factory=factory)
    clock = ModelClock()
    t = Mfrc522Transport(CountingSpi(EmulatedRC522(clock)), reset=shared, own_reset=False, sleep=clock.sleep)
    t.close()
    assert not shared.closed
    shared.close()


def test_the_packages_gpio_code_can_never_run():
    """mfrc522 was imported with a stand-in RPi.GPIO that refuses every call (no global cleanup possible)."""
    module = sys.modules["mfrc522.MFRC522"]
    with pytest.raises(RuntimeError, match="gpiozero"):
        module.GPIO.cleanup()


def test_a_gpio_chip_select_frames_every_transfer():
    factory = MockFactory()
    cs = DigitalOutputDevice(5, active_high=False, initial_value=False, pin_factory=factory)
    clock = ModelClock()
    t = Mfrc522Transport(CountingSpi(EmulatedRC522(clock)), chip_select=cs, sleep=clock.sleep)
    factory.pin(5).clear_states()
    t.read_regs([t.VersionReg])
    assert [s.state for s in factory.pin(5).states] == [True, False, True]    # idle high, low during transfer
    t.close()
