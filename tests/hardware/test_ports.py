"""Issue 24, Deliver 1: a profile's ``port`` is a serial device path, never a URL pyserial would act on.

The attack that lost every game: ``port = "spy://loop://?file=<data dir>/companion.sqlite3"`` reached
``serial_for_url``, whose ``spy`` handler opened the database for writing and truncated it.
"""
import io
import socket
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from serial.tools.list_ports_common import ListPortInfo

from companion.app_config import AppConfig
from ui.main import main          # the composition root: run and doctor need hardware
from companion.session import Store
from companion.table import SERIAL_DEVICE, ProfileError, is_serial_device, load_profile, parse_profile
from hardware.bridge.host import BridgeReader, open_serial_device
from hardware.doctor import doctor
from hardware.readers import reader_specs
from hardware.sources import open_table_source


def _bridge_profile(tmp_path, port_line: str) -> Path:
    path = tmp_path / "evil.toml"
    path.write_text(f'name = "evil"\n[[readers]]\nid = "pico"\nkind = "bridge"\n{port_line}\npads = ["p0"]\n',
                    encoding="utf-8")
    return path


@pytest.fixture
def database(tmp_path):
    """A real games database in a data directory, and its bytes before the attack."""
    data = tmp_path / "data"
    data.mkdir()
    path = data / "companion.sqlite3"
    Store(path).close()
    return data, path, path.read_bytes()


def test_a_spy_url_port_cannot_touch_the_database_through_doctor(tmp_path, database, capsys):
    data, db, before = database
    prof = _bridge_profile(tmp_path, f'port = "spy://loop://?file={db}"')
    assert main(["--data-dir", str(data), "doctor", "--profile", str(prof)]) == 2     # `companion doctor --profile`
    said = capsys.readouterr().out
    assert "line 5: readers[0].port = 'spy://loop://?file=" in said and "is not a serial device" in said
    refusal = [line for line in said.splitlines() if not line.startswith("Club:")]   # doctor's club line first
    assert len(refusal) == 1                           # one sentence
    assert db.read_bytes() == before


def test_a_spy_url_port_cannot_touch_the_database_through_run(tmp_path, database, capsys):
    data, db, before = database
    prof = _bridge_profile(tmp_path, f'port = "spy://loop://?file={db}"')
    assert main(["--data-dir", str(data), "run", "--profile", str(prof)]) == 2
    assert "readers[0].port" in capsys.readouterr().err
    # and the loader `companion run` builds its table source with refuses it too, before any port is opened
    config = AppConfig(data_dir=data, profile_path=prof, sim=False, fullscreen=False, size=(800, 480))
    with pytest.raises(ProfileError, match=r"readers\[0\]\.port"):
        open_table_source(config)
    assert db.read_bytes() == before


def test_a_socket_url_port_opens_no_connection(tmp_path):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0.3)
    try:
        prof = _bridge_profile(tmp_path, f'port = "socket://127.0.0.1:{listener.getsockname()[1]}"')
        assert doctor(profile=prof, out=io.StringIO()) == 2
        with pytest.raises(socket.timeout):
            listener.accept()
    finally:
        listener.close()


@pytest.mark.parametrize("port", [
    "loop://", "rfc2217://localhost:7000", "hwgrep://.*", "alt:///dev/ttyACM0?class=PosixPollSerial",
    "ttyACM0", "dev/ttyACM0", "/dev/ttyACM0/../../tmp/x", "/dev/serial/by-id/..", "/dev/serial/by-id/../x",
    "/dev/ttyACM0\x00", "/dev/ttyACM0\n", "/dev/ttyACM0\x1b[2J", "/dev/sda", "/tmp/ttyACM0",
    "/dev/serial/by-id/" + "a" * 250,
])
def test_anything_but_a_serial_device_is_refused_at_load_naming_the_key(tmp_path, port):
    prof = tmp_path / "t.toml"
    prof.write_text('[[readers]]\nid = "pico"\nkind = "bridge"\npads = ["p0"]\nport = ' + _toml_string(port) + "\n",
                    encoding="utf-8")
    with pytest.raises(ProfileError) as exc:
        load_profile(prof)
    message = str(exc.value)
    assert "readers[0].port" in message and "\n" not in message and "\x00" not in message


@pytest.mark.parametrize("port", ["/dev/ttyACM0", "/dev/ttyUSB12", "/dev/ttyAMA0", "/dev/serial0",
                                  "/dev/serial/by-id/usb-Raspberry_Pi_Pico_E660583883265F2A-if00",
                                  "/dev/serial/by-path/platform-xhci-hcd.0-usb-0:1:1.0"])
def test_serial_devices_are_accepted(port):
    spec, = reader_specs(parse_profile({"readers": [{"id": "b", "kind": "bridge", "port": port, "pads": ["p"]}]},
                                       "t.toml"))
    assert spec.port == port


def test_a_bridge_named_by_its_usb_serial_number_is_found_with_list_ports(tmp_path):
    spec, = reader_specs(parse_profile({"readers": [{"id": "b", "kind": "bridge", "usb_serial": "E660583883265F2A",
                                                     "pads": ["p"]}]}, "t.toml"))
    other, pico = ListPortInfo("/dev/ttyACM0"), ListPortInfo("/dev/ttyACM1")
    other.serial_number, pico.serial_number = "0001", "E660583883265F2A"
    opened = []
    reader = BridgeReader(spec, comports=lambda: [other, pico], open_port=lambda dev, **kw: opened.append(dev))
    assert reader.probe() and opened == ["/dev/ttyACM1"]
    gone = BridgeReader(spec, comports=lambda: [other], open_port=lambda dev, **kw: opened.append(dev))
    assert not gone.probe() and opened == ["/dev/ttyACM1"]
    assert "no USB serial device with serial number E660583883265F2A is plugged in" in gone.status()["detail"]


def test_the_default_opener_opens_only_device_paths(tmp_path):
    with pytest.raises(ValueError, match="not a serial device path"):
        open_serial_device("loop://", timeout=0)
    with pytest.raises(FileNotFoundError):
        open_serial_device("/dev/ttyACM250", timeout=0)


def _toml_string(value: str) -> str:
    return '"' + "".join(c if c.isprintable() and c not in '"\\' else f"\\u{ord(c):04x}" for c in value) + '"'


_SCHEMES = st.sampled_from(["", "spy://", "loop://", "socket://", "rfc2217://", "hwgrep://", "alt://", "file://",
                            "/dev/", "/dev/serial/by-id/", "/dev/ttyACM", "../", "./", "~/", "/"])
_HOSTILE = st.text(st.characters(codec="utf-8"), max_size=60) | st.from_regex(SERIAL_DEVICE, fullmatch=True)
PORTS = st.builds(lambda a, b, c: a + b + c, _SCHEMES, _HOSTILE, st.sampled_from(["", "?file=x", "/..", "\x00"]))


def _is_device_path(value: str) -> bool:
    """The oracle, written apart from SERIAL_DEVICE: an absolute, normalised, printable ASCII path under /dev."""
    import os
    return (value.startswith("/dev/") and value.isascii() and value.isprintable() and len(value) <= 220
            and os.path.normpath(value) == value and "//" not in value and ":/" not in value.split("/dev/", 1)[0]
            and not any(part in ("", ".", "..") for part in value.split("/")[1:]))


@settings(max_examples=150, deadline=None)
@given(port=PORTS, usb=st.one_of(st.none(), st.text(max_size=80)))
def test_any_profile_string_that_reaches_a_port_is_a_device_path_or_refused(port, usb):
    raw = {"id": "b", "kind": "bridge", "pads": ["p"], "port": port}
    if usb is not None:
        raw = {"id": "b", "kind": "bridge", "pads": ["p"], "usb_serial": usb}
    try:
        specs = reader_specs(parse_profile({"readers": [raw]}, "t.toml"))
    except ProfileError as exc:
        assert "\n" not in str(exc)
        return
    (spec,) = specs
    if usb is None:
        assert _is_device_path(spec.port) and is_serial_device(spec.port)
    else:
        # a usb_serial is never a path: it is compared with what list_ports reports, and the device
        # list_ports gives for it is checked as a path again before it is opened
        assert spec.port is None and "/" not in spec.usb_serial and spec.usb_serial.isascii()
