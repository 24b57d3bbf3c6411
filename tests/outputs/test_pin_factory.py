"""Which gpiozero pin factory drives the table's GPIO, and `companion doctor` saying so."""
import io
import subprocess
import sys
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from hardware.doctor import doctor
from hardware.pins import board_model, choose_pin_factory, use_pin_factory

REPO = Path(__file__).resolve().parents[2]
PROFILE = REPO / "firmware_config" / "tables" / "table-2pad.toml"


@pytest.fixture
def default_factory():
    """gpiozero's default factory is process-wide: give it back as it was."""
    before = Device.pin_factory
    Device.pin_factory = None
    yield
    if Device.pin_factory is not None and Device.pin_factory is not before:
        Device.pin_factory.close()
    Device.pin_factory = before


def has_lgpio() -> bool:
    try:
        import lgpio  # noqa: F401
    except ImportError:
        return False
    return True


def test_the_board_model_is_read_as_the_firmware_writes_it(tmp_path):
    (tmp_path / "model").write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    assert board_model(str(tmp_path / "model")) == "Raspberry Pi 5 Model B Rev 1.0"
    assert board_model(str(tmp_path / "absent")) == ""


def test_gpiozero_pin_factory_wins(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    factory, report = choose_pin_factory("Raspberry Pi 4 Model B Rev 1.5")
    assert isinstance(factory, MockFactory)
    assert report == "GPIO: the mock pin factory (GPIOZERO_PIN_FACTORY)"
    factory.close()
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "nonsense")
    factory, report = choose_pin_factory("Raspberry Pi 4 Model B Rev 1.5")
    assert factory is None and report.startswith("GPIO: none: GPIOZERO_PIN_FACTORY=nonsense cannot be used (")


@pytest.mark.skipif(Path("/dev/gpiochip0").exists(), reason="a machine with a GPIO chip: lgpio may open it")
def test_a_pi_5_without_working_lgpio_is_told_it_needs_lgpio_not_sent_to_rpi_gpio(monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    factory, report = choose_pin_factory("Raspberry Pi 5 Model B Rev 1.0")
    assert factory is None
    assert report.endswith("; a Raspberry Pi 5 needs lgpio")
    assert "RPi.GPIO" not in report           # its "Cannot determine SOC peripheral base address" misleads
    if not has_lgpio():
        assert "lgpio is not installed in this Python" in report


@pytest.mark.skipif(Path("/dev/gpiochip0").exists(), reason="a machine with a GPIO chip: lgpio may open it")
def test_elsewhere_both_libraries_are_tried_and_named(monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    factory, report = choose_pin_factory("")
    assert factory is None
    assert report.startswith("GPIO: none on this machine: lgpio ") and "; RPi.GPIO: " in report


def test_the_choice_becomes_gpiozeros_default(monkeypatch, default_factory):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert use_pin_factory() == "GPIO: the mock pin factory (GPIOZERO_PIN_FACTORY)"
    assert isinstance(Device.pin_factory, MockFactory)
    assert use_pin_factory() == "GPIO: the MockFactory already in use"


def test_doctor_reports_the_pin_factory(monkeypatch, default_factory):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    out = io.StringIO()
    doctor(profile=str(PROFILE), seconds=0.1, out=out)
    lines = out.getvalue().splitlines()
    assert lines[1] == "GPIO: the mock pin factory (GPIOZERO_PIN_FACTORY)"


def test_the_bootstrap_lists_the_kiosk_packages_and_refuses_other_words():
    listed = subprocess.run([sys.executable, str(REPO / "companion" / "bootstrap.py"), "--debian-packages"],
                            capture_output=True, text=True, check=True).stdout.split()
    assert {"python3-venv", "libgbm1", "libdrm2", "libegl1", "libgles2", "libgl1-mesa-dri", "libmtdev1"} <= set(listed)
    done = subprocess.run([sys.executable, str(REPO / "companion" / "bootstrap.py"), "--colour"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.startswith("usage: python3 -m companion.bootstrap")
