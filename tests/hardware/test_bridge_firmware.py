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
    assert d[0][1:] == ("HELLO", ["bridge-5", "16", "switched"])
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
        assert polls(lines) and 1 not in polls(lines)


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
    assert ("HELLO", ["bridge-5", "16", "switched"]) in [(k, f) for _, k, f in d]
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


# -- issue 23: fields switched, a host that stops reading, updating without BOOTSEL ---------------------

def small_board(tmp_path, channels):
    """A bridge wired with ``channels`` readers: the shipped firmware with a pin map of that many chip selects."""
    pinmap = Path(FIRMWARE_FILES[4]).read_text().replace(
        "CS_PINS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)", f"CS_PINS = tuple(range({channels}))")
    assert f"range({channels})" in pinmap
    (tmp_path / "pinmap.py").write_text(pinmap)
    files = [tmp_path / "pinmap.py" if f.name == "pinmap.py" else f for f in FIRMWARE_FILES]
    return MicroPythonBoard(channels, files=files)


def test_the_firmware_switches_fields_and_says_so(tmp_path):
    """pinmap.FIELDS = "switched": a reader's field is on only while its pad is read (and the next ones', none
    of them neighbours, while they warm up); HELLO tells the host, which reports what the firmware really does."""
    with small_board(tmp_path, 6) as board:
        board.chips[2].place(VirtualTag("04A1B2C3D4E5F6"))
        reader = BridgeReader(ReaderSpec("pico", "bridge", tuple(f"p{n}" for n in range(6)), port="/dev/null"))
        reader.start(lambda pad, uids, card_ids=None: None, background=False)
        on_at_once, switched_off = [], 0
        was_on = [False] * 6

        def watch():
            nonlocal switched_off
            now_on = [c.field_on for c in board.chips]
            switched_off += sum(1 for a, b in zip(was_on, now_on) if a and not b)
            was_on[:] = now_on
            on_at_once.append(sum(now_on))
            return False
        for line in board.run_lines(6 * 10, "POLL"):
            reader.handle_line(line.encode())
        for _ in range(3000):                          # between SPI transfers: which fields are on now
            board._step()
            watch()
        assert reader.fields == "switched" and reader.status()["fields"] == "switched"
        assert max(on_at_once) <= 3 and switched_off >= 6 * 5     # one read, the next two warming (0: 2, 4)
        assert polls(board.run_lines(6, "POLL"))[2] == ["04A1B2C3D4E5F6"]
        assert board.boots == 1


STOPPED_READING_S = float(os.environ.get("COMPANION_BRIDGE_STOPPED_S", "10"))


def test_a_host_that_stops_reading_costs_lines_not_the_board(tmp_path):
    """The port stays open, nobody reads: MicroPython would wait its CDC TX timeout in every write and starve
    the 2 s watchdog.  The firmware writes only when USB can take bytes: 0 reboots while the host is away, and
    when it reads again the latest POLL arrives (with the card laid meanwhile); skipped lines show as lost.
    The test stops reading for 10 s of modelled time (five watchdog periods: a starved watchdog fires within
    the first; real time is about the same, one SPI transfer being a round trip to node):
    COMPANION_BRIDGE_STOPPED_S=60 runs the issue's minute."""
    with small_board(tmp_path, 1) as board:
        reader = BridgeReader(ReaderSpec("pico", "bridge", ("p0",), port="/dev/null"))
        fed = []
        reader.start(lambda pad, uids, card_ids=None: fed.append((pad, uids)), background=False)
        for line in board.run_lines(2, "POLL"):
            reader.handle_line(line.encode())
        board.stop_reading()
        board.run_for(STOPPED_READING_S / 2)
        board.chips[0].place(VirtualTag("04A1B2C3D4E5F6"))
        board.run_for(STOPPED_READING_S / 2)
        assert board.boots == 1 and board.cdc_timeouts <= 1
        start = len(board.lines)
        board.resume_reading()
        board.run_lines(2, "POLL")
        for line in board.lines[start:]:
            reader.handle_line(line.encode())
        assert fed[-1] == ("p0", ["04A1B2C3D4E5F6"])
        assert reader.lost > 50 * STOPPED_READING_S and reader.garbled <= 1 and board.boots == 1


def test_the_update_pin_held_low_at_boot_leaves_the_board_at_the_repl_for_mpremote(tmp_path):
    """rp2's watchdog cannot be stopped once started (micropython#8600): with GP22 to GND at boot the firmware
    arms none and returns to the REPL; new files copied, jumper off, reset: the new firmware runs."""
    with small_board(tmp_path, 2) as board:
        board.run_lines(2, "POLL")
        board.hold_update_pin()
        board.press_run()
        board.run_until_repl()
        assert decode(board.lines[-1])[1:] == ("HELLO", ["bridge-5", "2", "update"])
        assert board.wdt_timeout_s is None                 # no watchdog: a copy may take as long as it takes
        boots = board.boots
        board.clock.sleep(60.0)
        assert not board._watchdog_fired() and board.boots == boots
        new = tmp_path / "new" / "bridge.py"               # `mpremote cp bridge.py :` of a newer firmware
        new.parent.mkdir()
        new.write_text(Path(FIRMWARE_FILES[3]).read_text().replace('FIRMWARE = "bridge-5"', 'FIRMWARE = "bridge-6"'))
        board.files = [new if f.name == "bridge.py" else f for f in board.files]
        board.hold_update_pin(False)
        board.press_run()
        lines = board.run_lines(2, "POLL")
        assert ("HELLO", ["bridge-6", "2", "switched"]) in [(k, f) for _, k, f in decoded(lines)]
        assert board.wdt_timeout_s is not None


def test_a_pile_the_bridge_cannot_read_is_a_poll_with_a_question_mark_and_the_table_says_so(tmp_path):
    """bridge-4: three stacked cards answer REQA but time out after it (the PiicoDev report, in the realistic
    physics): the firmware's POLL ends in ``?``, and the host hands the debouncer an unreadable poll, which tells
    the player once, as for a pad on the Pi."""
    from hardware.emulator.physics import Physics
    with small_board(tmp_path, 4) as board:
        physics = Physics(seed=3)
        for i, chip in enumerate(board.chips):
            chip.physics = physics
            physics.put(chip, (30.0 * i, 0.0))
        for uid in ("04A1B2C3D4E5F6", "04A1B2C3D4E5F7", "04A1B2C3D4E5F8"):
            board.chips[1].place(VirtualTag(uid), (0.0, 0.0))
        lines = board.run_lines(4 * 4, "POLL")
        pile = [f for _, k, f in decoded(lines) if k == "POLL" and f[0] == "1"]
        assert len(pile) >= 3 and all(f[1:] == ["-", "?"] for f in pile)
        assert all(f[1:] == ["-"] for _, k, f in decoded(lines) if k == "POLL" and f[0] != "1")
        debouncer, events, now = Debouncer(), [], [0.0]

        def feed(pad, uids, card_ids=None, unresolved=False):
            now[0] += 0.02
            events.extend(debouncer.feed(pad, uids, now[0], card_ids, unresolved))
        reader = BridgeReader(ReaderSpec("pico", "bridge", ("p0", "p1", "p2", "p3"), port="/dev/null"))
        reader.start(feed, background=False)
        for line in lines:
            reader.handle_line(line.encode())
        assert [(e.pad, e.kind) for e in events] == [("p1", "unread")] and reader.garbled == 0


def test_a_channel_that_finds_a_new_card_reads_it_again_out_of_turn(board):
    """REPOLL_US after it first read the card, not at its next turn: the host's settle window (70 ms) is met
    without waiting for the round after (with a card on every other pad a round takes about 90 ms)."""
    for ch in range(16):
        if ch != 9:
            board.chips[ch].place(VirtualTag("04A1B2C3D4E5%02X" % ch))
    board.run_lines(2 * 16, "POLL")
    board.chips[9].place(VirtualTag("04A1B2C3D4E5F6"))
    lines = board.run_lines(4 * 16, "POLL")
    found = [f for _, k, f in decoded(lines) if k == "POLL"]
    first = next(i for i, f in enumerate(found) if f[0] == "9" and f[1] != "-")
    channels = [int(f[0]) for f in found[first + 1:first + 34]]
    assert channels.count(9) == 3                      # its two turns, and once out of turn
    from hardware.debounce import SETTLE_S
    from hardware.emulator.pico import load_firmware
    assert load_firmware().REPOLL_US == round(SETTLE_S * 1e6)      # the host's window, in the firmware's units
