"""The reader bridge: its line protocol and the pyserial host (on a pseudo-terminal, unplugged and plugged back),
fed by the firmware running on MicroPython (``test_bridge_firmware.py`` tests the firmware itself)."""
import os
import time

import pytest

from hardware.bridge.host import BridgeReader
from hardware.bridge.protocol import ProtocolError, checksum, decode, encode, parse_uids
from hardware.debounce import Debouncer
from hardware.emulator import VirtualTag
from hardware.emulator.pico import MicroPythonBoard, micropython_available
from hardware.polling import PolledTable
from hardware.ndef import encode_card_id
from hardware.readers import ReaderSpec


def test_a_line_round_trips_with_its_sequence_number_and_checksum():
    line = encode(41, "POLL", [3, "04A1B2C3D4E5F6,A1B2C3D4"])
    assert line.endswith("\n") and " *" in line
    assert decode(line) == (41, "POLL", ["3", "04A1B2C3D4E5F6,A1B2C3D4"])


@pytest.mark.parametrize("damage", [
    lambda l: l.replace("POLL 3", "POLL 5"),     # one character changed
    lambda l: l[:10] + l[11:],                     # one character lost
    lambda l: l.split(" *")[0] + "\n",             # checksum cut off
    lambda l: l.encode()[:-8] + b"\xff\xfe*0000\n",
])
def test_a_garbled_line_is_detected(damage):
    line = encode(7, "POLL", [3, "04A1B2C3D4E5F6"])
    with pytest.raises(ProtocolError):
        decode(damage(line))


def test_uid_lists_are_checked():
    assert parse_uids("-") == []
    with pytest.raises(ProtocolError):
        parse_uids("04A1B2")


def test_a_poll_marked_unreadable_reaches_the_table_as_such_and_anything_else_there_is_refused():
    """bridge-4's ``POLL <ch> <uids> ?``: the pad answered but could not be read (a pile)."""
    fed = []
    reader = BridgeReader(ReaderSpec("pico", "bridge", ("p0", "p1"), port="/dev/null"))
    reader.start(lambda pad, uids, card_ids=None, unresolved=False: fed.append((pad, uids, unresolved)),
                 background=False)
    reader.handle_line(encode(0, "POLL", [1, "-", "?"]).encode())
    reader.handle_line(encode(1, "POLL", [1, "A1B2C3D4"]).encode())
    reader.handle_line(encode(2, "POLL", [1, "-", "!"]).encode())
    reader.handle_line(encode(3, "POLL", [1, "-", "?", "?"]).encode())
    assert fed == [("p1", [], True), ("p1", ["A1B2C3D4"], False)] and reader.garbled == 2


class PtyBridge:
    """A pseudo-terminal pair behind a stable path (a symlink), like /dev/ttyACM0 that can be unplugged."""

    def __init__(self, tmp_path):
        self.path = str(tmp_path / "ttyBRIDGE")
        self.master = None
        self.plug()

    def plug(self):
        self.master, slave = os.openpty()
        name = os.ttyname(slave)
        self._slave = slave
        if os.path.lexists(self.path):
            os.remove(self.path)
        os.symlink(name, self.path)

    def unplug(self):
        os.remove(self.path)
        os.close(self.master)
        os.close(self._slave)
        self.master = None

    def send(self, text):
        os.write(self.master, text.encode() if isinstance(text, str) else text)

    def close(self):
        if self.master is not None:
            self.unplug()


def wait_for(predicate, timeout=3.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.01)
    return False


def _open_pty(path, **kwargs):
    """The test seam: a pseudo-terminal in tmp_path is no device a profile may name, so tests open it directly."""
    import serial
    return serial.Serial(path, **kwargs)


@pytest.fixture
def pty_bridge(tmp_path):
    pty = PtyBridge(tmp_path)
    yield pty
    pty.close()


def _table(pty, pads=("p0", "p1", "p2", "p3")):
    spec = ReaderSpec("pico", "bridge", tuple(pads), port=pty.path)
    bridge = BridgeReader(spec, reconnect_s=0.05, open_port=_open_pty)
    # these tests are about the line protocol: one read is a placement, half a second without one a removal
    table = PolledTable([], [bridge], debouncer=Debouncer(settle_s=0, lift_s=0.5))
    events = []
    table.start(events.append)
    assert wait_for(lambda: bridge.connected)    # pyserial flushes what arrived before it opened the port
    return table, bridge, events


@pytest.mark.skipif(bool(micropython_available()), reason=micropython_available() or "")
def test_the_host_turns_firmware_lines_into_pad_events_over_a_serial_port(pty_bridge):
    pads = tuple(f"p{n}" for n in range(16))
    with MicroPythonBoard(16) as board:
        board.chips[2].place(VirtualTag("04A1B2C3D4E5F6"))
        table, bridge, events = _table(pty_bridge, pads)
        for line in board.run_lines(16, "POLL"):
            pty_bridge.send(line)
        assert wait_for(lambda: len(events) == 1)
        assert (events[0].pad, events[0].uid, events[0].kind) == ("p2", "04A1B2C3D4E5F6", "seen")
        board.chips[2].remove(board.chips[2].tags[0])
        for line in board.run_lines(16, "POLL"):
            pty_bridge.send(line)
        time.sleep(0.6)                                     # the debouncer's lift window, in real time here
        for line in board.run_lines(16, "POLL"):
            pty_bridge.send(line)
        assert wait_for(lambda: len(events) == 2) and events[1].kind == "gone"
        assert bridge.status()["ok"] and bridge.lost == 0 and bridge.garbled == 0
        table.close()


def test_lost_and_garbled_lines_are_counted_and_never_become_reads(pty_bridge):
    table, bridge, events = _table(pty_bridge)
    pty_bridge.send(encode(0, "HELLO", ["bridge-2", 4]))
    pty_bridge.send(encode(1, "POLL", [0, "A1B2C3D4"]))
    pty_bridge.send(encode(2, "POLL", [0, "-"]))
    pty_bridge.send(encode(3, "POLL", [0, "-"]).replace("POLL 0", "POLL 1"))    # garbled
    # line 4 lost on the way
    pty_bridge.send(encode(5, "POLL", [0, "-"]))
    pty_bridge.send(encode(6, "POLL", [0, "A1B2C3D4"]))
    assert wait_for(lambda: bridge.lines == 5)
    assert bridge.garbled == 1 and bridge.lost == 2           # lines 3 (garbled) and 4 never counted
    assert [(e.pad, e.kind) for e in events] == [("p0", "seen")]   # two good misses only: not gone
    table.close()


def test_the_host_reconnects_after_the_bridge_is_unplugged(pty_bridge):
    table, bridge, events = _table(pty_bridge)
    pty_bridge.send(encode(0, "HELLO", ["bridge-2", 4]))
    pty_bridge.send(encode(1, "POLL", [1, "A1B2C3D4"]))
    assert wait_for(lambda: len(events) == 1)
    pty_bridge.unplug()
    assert wait_for(lambda: not bridge.connected)
    assert "unplugged" in bridge.status()["detail"] or "not there" in bridge.status()["detail"]
    pty_bridge.plug()
    assert wait_for(lambda: bridge.connected)
    pty_bridge.send(encode(0, "HELLO", ["bridge-2", 4]))      # the board restarted: sequence from 0
    pty_bridge.send(encode(1, "POLL", [3, "04A1B2C3D4E5F6"]))
    assert wait_for(lambda: len(events) == 2)
    assert (events[1].pad, events[1].kind) == ("p3", "seen")
    assert bridge.reconnects >= 1 and bridge.lost == 0
    table.close()


# -- what the host survives ---------------------------------------------------------------------------

def _host(pads=("p0", "p1", "p2", "p3"), clock=None):
    reader = BridgeReader(ReaderSpec("pico", "bridge", tuple(pads), port="/dev/null"), clock=clock or time.monotonic)
    fed = []
    reader.start(lambda pad, uids, card_ids=None: fed.append((pad, uids, card_ids)), background=False)
    return reader, fed


@pytest.mark.parametrize("line, why", [
    (encode(0, "POLL", [0, "-"]).replace("0 POLL", "9" * 1900 + " POLL", 1), "sequence"),   # CRC fixed below
    (encode(1, "POLL", [-1, "A1B2C3D4"]), "channel"),
    (encode(1, "POLL", [16, "A1B2C3D4"]), "channel"),
    (encode(1, "POLL", ["٣", "A1B2C3D4"]), "channel"),           # a digit, but not an ASCII one
    (encode(70000, "POLL", [0, "-"]).replace("4464 POLL", "70000 POLL"), "sequence"),
])
def test_an_absurd_sequence_number_or_channel_is_a_protocol_error_not_a_crash(line, why):
    body = line.rsplit(" *", 1)[0]
    line = f"{body} *{checksum(body)}\n"                        # CRC-valid: only the numbers are wrong
    with pytest.raises(ProtocolError, match=why):
        decode(line)
    reader, fed = _host()
    reader.handle_line(line.encode())
    assert reader.garbled == 1 and fed == [] and why in reader.last_garbled
    reader.handle_line(encode(2, "POLL", [3, "A1B2C3D4"]).encode())
    assert fed == [("p3", ["A1B2C3D4"], None)]                   # and it goes on reading


def test_a_channel_beyond_this_bridges_pads_feeds_nothing():
    reader, fed = _host(pads=("p0", "p1"))
    reader.handle_line(encode(0, "POLL", [3, "A1B2C3D4"]).encode())
    assert fed == [] and reader.garbled == 1


def test_a_fault_line_with_non_ascii_text_is_kept_not_dropped():
    """An older firmware wrote "µs" into FAULT lines; its CRC still proves the line intact."""
    reader, fed = _host()
    body = "0 FAULT 2 no interrupt from the chip after 412 µs"
    reader.handle_line(f"{body} *{checksum(body)}\n".encode("utf-8"))
    assert reader.garbled == 0
    assert reader.channel_faults[2] == "no interrupt from the chip after 412 ??s"
    assert "412 ??s" in reader.status()["detail"] and not reader.status()["ok"]


def test_any_bytes_on_the_line_never_stop_the_host():
    import random
    rng = random.Random(7)
    reader, fed = _host()
    good = [encode(n, "POLL", [n % 4, "A1B2C3D4"]).encode() for n in range(50)]
    for n in range(2000):
        line = bytearray(rng.choice(good))
        for _ in range(rng.randrange(1, 4)):
            line[rng.randrange(len(line))] = rng.randrange(256)
        reader.handle_line(bytes(line) if n % 3 else rng.randbytes(rng.randrange(80)))
    assert reader.garbled >= 1900
    reader.handle_line(encode(0, "HELLO", ["bridge-2", 4]).encode())
    reader.handle_line(encode(1, "POLL", [1, "04A1B2C3D4E5F6"]).encode())
    assert fed[-1] == ("p1", ["04A1B2C3D4E5F6"], None)


def test_a_bridge_silent_for_two_seconds_is_not_ok_and_recovers_with_its_next_line():
    now = [100.0]
    reader, fed = _host(clock=lambda: now[0])
    reader.connected_at = now[0]
    reader.handle_line(encode(0, "HELLO", ["bridge-2", 4]).encode())
    reader.handle_line(encode(1, "POLL", [0, "-"]).encode())
    now[0] += 1.9
    assert reader.status()["ok"]
    now[0] += 0.2
    status = reader.status()
    assert not status["ok"] and "no line for 2.1 s" in status["detail"]
    reader.handle_line(encode(2, "POLL", [0, "-"]).encode())
    assert reader.status()["ok"]


def test_ndef_lines_give_the_next_poll_its_card_ids():
    reader, fed = _host()
    message = encode_card_id("sams/042")[2:-2].rstrip(b"\0").hex().upper()
    reader.handle_line(encode(0, "NDEF", [1, "04A1B2C3D4E5F6", message]).encode())
    reader.handle_line(encode(1, "NDEF", [1, "04A1B2C3D4E5F7", "?", "unknown TLV 0x07 at byte 0"]).encode())
    reader.handle_line(encode(2, "NDEF", [1, "04A1B2C3D4E5F8", "03DC0000"]).encode())
    reader.handle_line(encode(3, "POLL", [1, "04A1B2C3D4E5F6,04A1B2C3D4E5F7,04A1B2C3D4E5F8"]).encode())
    assert fed[-1][2] == {"04A1B2C3D4E5F6": "sams/042", "04A1B2C3D4E5F7": None, "04A1B2C3D4E5F8": None}
    assert set(reader.unreadable) == {"04A1B2C3D4E5F7", "04A1B2C3D4E5F8"} and reader.garbled == 0


def test_the_firmware_warms_a_channel_coming_due_so_its_read_out_of_turn_starts_at_once():
    """bridge-5 (the firmware itself, here under CPython on the emulated board): a channel whose new card's
    repoll comes within DUE_WARM_US has its field on while the channel before it is read, so the repoll does
    not wait out the 5.1 ms guard — as the Pi's reader loop does (hardware/polling.py)."""
    from hardware.emulator.pico import EmulatedBridgeBoard
    board = EmulatedBridgeBoard(16, fields="switched")
    bridge = board.bridge
    bridge.start()
    for ch in range(16):
        if ch != 9:
            board.chips[ch].place(VirtualTag("04A1B2C3D4E5%02X" % ch))   # busy channels: a round lasts ~90 ms
    for _ in range(2):
        bridge.poll_once()
    out_of_turn = []
    poll, repoll = bridge._poll, bridge._repoll
    state = {"repolling": False}

    def spy_poll(ch):
        if state["repolling"] and ch == 9:
            out_of_turn.append((board.chips[9].field_on, bridge._guard_left(9)))
        return poll(ch)

    def spy_repoll():
        state["repolling"] = True
        try:
            return repoll()
        finally:
            state["repolling"] = False
    bridge._poll, bridge._repoll = spy_poll, spy_repoll
    board.chips[9].place(VirtualTag("04A1B2C3D4E5F6"))
    for _ in range(3):
        bridge.poll_once()
    assert out_of_turn and all(on and left == 0 for on, left in out_of_turn)
