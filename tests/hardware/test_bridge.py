"""The reader bridge: its line protocol, its firmware (under CPython, on the emulator) and the pyserial host
(on a pseudo-terminal, unplugged and plugged back)."""
import os
import time

import pytest

from hardware.bridge.host import BridgeReader
from hardware.bridge.protocol import ProtocolError, decode, encode, parse_uids
from hardware.debounce import Debouncer
from hardware.emulator import VirtualTag
from hardware.emulator.pico import EmulatedBridgeBoard
from hardware.polling import PolledTable
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


def test_the_firmware_reports_every_channel_with_every_uid_length_and_stacks():
    board = EmulatedBridgeBoard(16)
    board.chips[0].place(VirtualTag("A1B2C3D4"))
    board.chips[5].place(VirtualTag("04A1B2C3D4E5F6"))
    for uid in ("0411223344556677889A", "04A1B2C3D4E5F7", "C0FFEE01"):
        board.chips[15].place(VirtualTag(uid))
    board.bridge.start()
    board.bridge.poll_once()
    decoded = [decode(l) for l in board.lines]
    assert [s for s, _, _ in decoded] == list(range(len(decoded)))
    assert decoded[0][1:] == ("HELLO", ["bridge-2", "16"])
    assert sum(k == "READER" and f[1] == "92" for _, k, f in decoded) == 16
    polls = {int(f[0]): parse_uids(f[1]) for _, k, f in decoded if k == "POLL"}
    assert len(polls) == 16
    assert polls[0] == ["A1B2C3D4"] and polls[5] == ["04A1B2C3D4E5F6"]
    assert sorted(polls[15]) == ["0411223344556677889A", "04A1B2C3D4E5F7", "C0FFEE01"]
    assert all(polls[ch] == [] for ch in range(1, 15) if ch != 5)


def test_the_firmware_reports_a_dead_channel_and_resets_a_wedged_one():
    board = EmulatedBridgeBoard(4)
    board.chips[1].faults.dead = True
    board.chips[2].place(VirtualTag("A1B2C3D4"))
    board.bridge.start()
    board.bridge.poll_once()
    decoded = [decode(l) for l in board.lines]
    assert ("READER", ["1", "00"]) in [(k, f) for _, k, f in decoded]
    assert any(k == "FAULT" and f[0] == "1" and "0x00" in " ".join(f) for _, k, f in decoded)
    board.lines.clear()
    board.chips[2].faults.wedged = True
    board.bridge.poll_once()                # channel 2 answers garbage: FAULT
    board.bridge.poll_once()                # reset on the shared line, everyone re-initialised
    decoded = [decode(l) for l in board.lines]
    kinds = [(k, f[0]) for _, k, f in decoded]
    assert ("FAULT", "2") in kinds and ("READER", "2") in kinds and ("READER", "0") in kinds
    assert board.chips[2].hard_resets >= 1
    last_polls = {f[0]: f[1] for _, k, f in decoded if k == "POLL"}
    assert last_polls["2"] == "A1B2C3D4"


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


@pytest.fixture
def pty_bridge(tmp_path):
    pty = PtyBridge(tmp_path)
    yield pty
    pty.close()


def _table(pty, pads=("p0", "p1", "p2", "p3")):
    spec = ReaderSpec("pico", "bridge", tuple(pads), port=pty.path)
    bridge = BridgeReader(spec, reconnect_s=0.05)
    table = PolledTable([], [bridge], debouncer=Debouncer())
    events = []
    table.start(events.append)
    assert wait_for(lambda: bridge.connected)    # pyserial flushes what arrived before it opened the port
    return table, bridge, events


def test_the_host_turns_firmware_lines_into_pad_events_over_a_serial_port(pty_bridge):
    board = EmulatedBridgeBoard(4, write=pty_bridge.send)
    board.chips[2].place(VirtualTag("04A1B2C3D4E5F6"))
    table, bridge, events = _table(pty_bridge)
    board.bridge.start()
    board.bridge.poll_once()
    assert wait_for(lambda: len(events) == 1)
    assert (events[0].pad, events[0].uid, events[0].kind) == ("p2", "04A1B2C3D4E5F6", "seen")
    board.chips[2].tags[0].fields.clear()
    board.chips[2].tags.clear()
    for _ in range(3):
        board.bridge.poll_once()
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


def test_a_reader_holding_miso_spoils_its_neighbours_until_it_is_buffered():
    """The RC522's MISO problem: a deselected reader that keeps driving MISO makes every other reader on the
    bus read 0xFF; the firmware reports it; with the buffer fitted, the channels come back after a reset."""
    board = EmulatedBridgeBoard(3)
    board.chips[0].place(VirtualTag("A1B2C3D4"))
    board.chips[2].faults.holds_miso = True
    board.bridge.start()
    faults = [f for _, k, f in map(decode, board.lines) if k == "FAULT"]
    assert {f[0] for f in faults} == {"0", "1"} and all("0xFF" in " ".join(f) for f in faults)
    board.chips[2].faults.holds_miso = False            # a 74HC125 gate fitted on its MISO
    board.lines.clear()
    for _ in range(60):                                 # faulty channels are reset every 50 polls
        board.bridge.poll_once()
    polls = {f[0]: f[1] for _, k, f in map(decode, board.lines) if k == "POLL"}
    assert polls == {"0": "A1B2C3D4", "1": "-", "2": "-"}
