"""The reader bridge firmware on a real MicroPython (issue 12): MicroPython's WebAssembly port, run by node.

``hardware/emulator/pico.py``'s :class:`MicroPythonBoard` copies the firmware
files onto the board as ``mpremote`` would, runs ``main.py``, and answers every
SPI transfer from the emulated RC522 whose chip select is low.  The firmware
therefore meets MicroPython's own exceptions, string formatting and ``time``
and ``machine`` APIs, not CPython's.  ``companion test`` installs node and the
npm package (``companion/bootstrap.py``); elsewhere the tests skip when either
is missing.
"""
import os
import random
from pathlib import Path

import pytest

from hardware.bridge.host import BridgeReader
from hardware.bridge.protocol import decode, parse_uids
from hardware.debounce import Debouncer
from hardware.emulator import VirtualTag
from hardware.emulator.pico import FIRMWARE_FILES, MicroPythonBoard, micropython_available
from hardware.ndef import encode_card_id
from hardware.readers import ReaderSpec

from .test_tag_memory_fuzz import random_memory

missing = micropython_available()
if missing and os.environ.get("COMPANION_REQUIRE_MICROPYTHON"):
    raise RuntimeError(missing)
pytestmark = pytest.mark.skipif(bool(missing), reason=missing or "")


@pytest.fixture
def board():
    with MicroPythonBoard(16) as b:
        yield b


def decoded(lines):
    return [decode(l) for l in lines]


def polls(lines):
    """The UID lists of the POLL lines, by channel (the last one of each)."""
    return {int(f[0]): parse_uids(f[1]) for _, k, f in decoded(lines) if k == "POLL"}


def faults(lines):
    return {int(f[0]): " ".join(f[1:]) for _, k, f in decoded(lines) if k == "FAULT"}


def test_the_firmware_reports_every_channel_with_every_uid_length_and_stacks(board):
    board.chips[0].place(VirtualTag("A1B2C3D4"))
    board.chips[5].place(VirtualTag("04A1B2C3D4E5F6"))
    for uid in ("0411223344556677889A", "04A1B2C3D4E5F7", "04A1B2C3D4E5F8", "C0FFEE01"):
        board.chips[15].place(VirtualTag(uid))         # stacked, two UIDs differing in their last bits: collisions
    lines = board.run_lines(16, "POLL")
    d = decoded(lines)
    assert [s for s, _, _ in d] == list(range(len(d)))
    assert d[0][1:] == ("HELLO", ["bridge-2", "16"])
    assert sum(k == "READER" and f[1] == "92" for _, k, f in d) == 16
    found = polls(lines)
    assert found[0] == ["A1B2C3D4"] and found[5] == ["04A1B2C3D4E5F6"]
    assert sorted(found[15]) == ["0411223344556677889A", "04A1B2C3D4E5F7", "04A1B2C3D4E5F8", "C0FFEE01"]
    assert all(found[ch] == [] for ch in range(1, 15) if ch != 5)
    assert faults(lines) == {} and board.boots == 1 and board.exits == []


def test_micropython_is_what_runs_it(tmp_path):
    """The old ``RfidError.__init__(self, …)`` is fine on CPython and an AttributeError on MicroPython, whose
    exception classes have no ``__init__`` (its documented differences from CPython): run that firmware on the
    board and the first collision is a FAULT naming it, where the fixed driver reads the stack."""
    pcd = Path(FIRMWARE_FILES[0]).read_text().replace("super().__init__(", "RfidError.__init__(self, ")
    (tmp_path / "pcd.py").write_text(pcd)
    files = [tmp_path / "pcd.py"] + list(FIRMWARE_FILES[1:])
    with MicroPythonBoard(16, files=files) as old:
        for uid in ("04A1B2C3D4E5F7", "04A1B2C3D4E5F8"):
            old.chips[1].place(VirtualTag(uid))
        lines = old.run_lines(1, "FAULT")
        assert "AttributeError" in faults(lines)[1]
        lines = old.run_lines(2, "POLL")                # and the other channels keep reading
        assert 0 in polls(lines) or 2 in polls(lines)


def test_an_unplugged_reader_is_a_fault_the_others_keep_reading_and_it_comes_back(board):
    board.chips[3].place(VirtualTag("04A1B2C3D4E5F6"))
    board.chips[7].place(VirtualTag("04000000000007"))
    board.run_lines(16, "POLL")
    board.chips[3].faults.dead = True                  # its cable pulled: MISO reads 0x00
    lines = board.run_lines(48, "POLL")
    assert "version register reads 0x00" in faults(lines)[3]
    assert polls(lines)[7] == ["04000000000007"] and 3 not in polls(lines[-20:])
    board.chips[3].faults.dead = False                 # plugged back: the next reset attempt (50 polls) finds it
    start = len(board.raw_lines)
    board.run_until(lambda: any(" POLL 3 " in l for l in board.lines[start:]))
    lines = board.lines[start:]
    assert ("READER", ["3", "92"]) in [(k, f) for _, k, f in decoded(lines)]
    assert polls(lines)[3] == ["04A1B2C3D4E5F6"]
    assert board.boots == 1


def test_garbled_spi_is_a_fault_then_a_reset_and_every_line_stays_plain_ascii(board):
    board.chips[2].place(VirtualTag("A1B2C3D4"))
    board.chips[4].place(VirtualTag("04A1B2C3D4E5F6"))
    board.chips[4].faults.crc_error_rate = 0.1         # one reply in ten with a flipped bit
    board.run_lines(16, "POLL")
    board.chips[2].faults.wedged = True                # answers random bytes until its RST line is pulsed
    lines = board.run_lines(5 * 16, "POLL")
    assert 2 in faults(lines) and board.chips[2].hard_resets >= 1
    assert polls(lines)[2] == ["A1B2C3D4"]
    assert sum(f[0] == "4" and f[1] == "04A1B2C3D4E5F6" for _, k, f in decoded(lines) if k == "POLL") >= 3
    assert all(raw.isascii() for raw in board.raw_lines)
    assert board.boots == 1


def test_any_exception_in_a_poll_is_a_fault_line_and_the_channel_is_reset(board):
    board.chips[6].place(VirtualTag("04A1B2C3D4E5F6"))
    board.run_lines(16, "POLL")
    board.bus_error()                                  # SPI.write_readinto raises OSError(EIO), not an RfidError
    lines = board.run_lines(1, "FAULT")
    (why,) = faults(lines).values()
    assert why.startswith("OSError") and "EIO" in why
    start = len(board.raw_lines)
    board.run_until(lambda: any(" POLL 6 " in l for l in board.lines[start:]))
    board.run_lines(16, "POLL")
    lines = board.lines[start:]
    assert polls(lines) == {ch: (["04A1B2C3D4E5F6"] if ch == 6 else []) for ch in range(16)}


def test_a_fault_with_micro_in_it_goes_out_in_plain_ascii(board):
    """The driver says "after 412 µs"; the line protocol is ASCII, so the firmware says "us"."""
    board.run_lines(16, "POLL")
    chip = board.chips[9]
    real_read = chip._read
    chip._read = lambda reg: 0x00 if reg == 0x04 else real_read(reg)    # CommIrqReg: no interrupt ever comes
    lines = board.run_lines(1, "FAULT")
    raw = [r for r in board.raw_lines[-len(lines):] if b" FAULT " in r]
    assert raw and all(r.isascii() for r in raw)
    assert "us (CommIrqReg 0x00)" in faults(lines)[9]


def test_the_watchdog_restarts_a_hung_pico(board):
    board.chips[1].place(VirtualTag("04A1B2C3D4E5F6"))
    board.run_lines(16 * 8, "POLL")                    # running normally feeds the watchdog: no restart
    assert board.boots == 1 and 0 < board.wdt_timeout_s <= 8.388
    board.stall(board.wdt_timeout_s + 0.5)             # the SPI block wedges inside a transfer
    lines = board.run_lines(16, "POLL")
    assert board.boots == 2
    d = decoded(lines)
    assert ("HELLO", ["bridge-2", "16"]) in [(k, f) for _, k, f in d]
    assert polls(lines)[1] == ["04A1B2C3D4E5F6"]
    assert board.chips[1].hard_resets >= 1             # the RST line fell with the Pico's pins, and rose again


def test_card_ids_are_read_on_bridge_pads_whatever_the_tags_hold(board):
    tags = {
        0: ("04000000000001", encode_card_id("sams/042")),
        1: ("04000000000002", bytes.fromhex("0103A00C34") + encode_card_id("territory/ranger")),   # factory NTAG213
        2: ("04000000000003", bytes.fromhex("0303DC0000FE")),                                      # crafted
        3: ("04000000000004", bytes.fromhex("0103A00C340300FE")),                                  # blank
        4: ("A1B2C3D4", None),                                                                     # no NTAG memory
    }
    for ch, (uid, memory) in tags.items():
        tag = VirtualTag(uid)
        if memory is not None:
            tag.memory[16:16 + len(memory)] = memory
        board.chips[ch].place(tag)
    reader = BridgeReader(ReaderSpec("pico", "bridge", tuple(f"p{n}" for n in range(16)), port="/dev/null"))
    debouncer, events = Debouncer(settle_s=0), []    # fed at one instant: a read is a placement
    reader.start(lambda pad, uids, card_ids=None: events.extend(debouncer.feed(pad, uids, 0.0, card_ids)),
                 background=False)
    for line in board.run_lines(3 * 16, "POLL"):
        reader.handle_line(line.encode())
    seen = {e.pad: e.card_id for e in events if e.kind == "seen"}
    assert seen == {"p0": "sams/042", "p1": "territory/ranger", "p2": None, "p3": None, "p4": None}
    assert "NDEF" in reader.unreadable["04000000000003"]
    assert "04000000000003: unreadable card id" in reader.status()["detail"]
    assert reader.garbled == 0 and reader.lost == 0


def test_a_reader_holding_miso_spoils_its_neighbours_until_it_is_buffered():
    """The RC522's MISO problem: a deselected reader that keeps driving MISO makes every other reader on the
    bus read 0xFF; the firmware reports it; with the buffer fitted, the channels come back after a reset."""
    with MicroPythonBoard(16) as board:
        board.chips[0].place(VirtualTag("A1B2C3D4"))
        board.chips[15].faults.holds_miso = True
        lines = board.run_lines(15, "FAULT")
        assert set(faults(lines)) == set(range(15)) and all("0xFF" in why for why in faults(lines).values())
        board.chips[15].faults.holds_miso = False      # a 74HC125 gate fitted on its MISO
        lines = board.run_lines(60 * 16, "POLL")        # faulty channels are reset every 50 polls
        assert polls(lines) == {ch: (["A1B2C3D4"] if ch == 0 else []) for ch in range(16)}


def test_tags_holding_random_memories_never_stop_the_firmware(board):
    """ntag.py on MicroPython: 45 tags with random memories (the fuzz's generator, seeded), 15 at a time."""
    board.chips[0].place(VirtualTag("04000000000A00"))
    rng = random.Random(2024)
    for batch in range(3):
        tags = {}
        for ch in range(1, 16):
            for old in list(board.chips[ch].tags):
                board.chips[ch].remove(old)
            tag = VirtualTag("04%012X" % (0xC00000 + 16 * batch + ch))
            memory = random_memory(rng)
            tag.memory[12:12 + len(memory)] = memory
            board.chips[ch].place(tag)
            tags[ch] = tag.uid_hex
        lines = board.run_lines(3 * 16, "POLL")
        assert faults(lines) == {}
        assert polls(lines) == {0: ["04000000000A00"], **{ch: [uid] for ch, uid in tags.items()}}
        reported = {f[1] for _, k, f in decoded(lines) if k == "NDEF"}
        assert set(tags.values()) <= reported
    assert board.boots == 1 and board.exits == []
