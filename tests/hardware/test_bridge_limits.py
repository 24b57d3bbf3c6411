"""Issue 24, Deliver 3 (bridge half): bounded work per bridge line, whatever the line.

Each attack is a CRC-valid line (or a stream of them) a broken or hostile bridge could send; the
host must refuse it as one counted protocol error, keep reading, and keep its memory bounded.
"""
import os
import threading
import time
import tracemalloc

from hardware.bridge.host import MAX_KNOWN_TAGS, NONSENSE_AT, SEQ_WINDOW, BridgeReader
from hardware.bridge.protocol import MAX_LINE_BYTES, MAX_UIDS_PER_POLL, checksum, encode
from hardware.debounce import Debouncer
from hardware.ndef import encode_card_id
from hardware.polling import PolledTable
from hardware.readers import ReaderSpec
from tests.hardware.test_bridge import PtyBridge, _host, _open_pty, wait_for


def _uids(n):
    return [f"04{i:012X}" for i in range(n)]


def _poll(seq, channel, uids):
    return encode(seq, "POLL", [channel, ",".join(uids) if uids else "-"]).encode()


def test_a_poll_line_with_more_uids_than_a_pad_can_report_is_refused_naming_the_channel():
    reader, fed = _host()
    reader.handle_line(_poll(0, 2, _uids(MAX_UIDS_PER_POLL)))           # the most the firmware can send
    assert len(fed) == 1 and len(fed[0][1]) == MAX_UIDS_PER_POLL
    reader.handle_line(_poll(1, 2, _uids(MAX_UIDS_PER_POLL + 1)))
    assert len(fed) == 1 and reader.garbled == 1
    assert reader.last_garbled.startswith("channel 2 (pad p2): 65 UIDs in one line, more than the 64")
    reader.handle_line(_poll(2, 2, ["A1B2C3D4"]))
    assert fed[-1] == ("p2", ["A1B2C3D4"], None)


def test_twenty_thousand_uids_in_one_poll_are_refused_not_fed():
    """The line the issue timed at 5.1 s: 20,000 UIDs, CRC-valid.  Its 300 kB are over the line limit too."""
    reader, fed = _host()
    reader.handle_line(_poll(0, 1, _uids(20_000)))
    assert fed == [] and reader.garbled == 1 and f"longer than {MAX_LINE_BYTES:,} bytes" in reader.last_garbled
    assert "claiming channel 1" in reader.last_garbled


def test_a_ten_megabyte_line_without_newline_is_never_kept_whole_and_reading_resyncs(tmp_path):
    pty = PtyBridge(tmp_path)
    bridge = BridgeReader(ReaderSpec("pico", "bridge", ("p0", "p1", "p2", "p3"), port=pty.path),
                          reconnect_s=0.05, open_port=_open_pty)
    # about the line protocol: one read is a placement (no settle window to wait out)
    table = PolledTable([], [bridge], debouncer=Debouncer(settle_s=0, lift_s=0.5))
    events = []
    table.start(events.append)
    try:
        assert wait_for(lambda: bridge.connected)
        junk = b"7 POLL 3 " + b"A" * (10 * 1024 * 1024)
        after = b"\n" + _poll(8, 1, ["A1B2C3D4"])
        writer = threading.Thread(target=lambda: (pty.send(junk), pty.send(after)))
        tracemalloc.start()                       # what is allocated while the 10 MB go through the host
        writer.start()
        assert wait_for(lambda: events, timeout=30)
        writer.join()
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert (events[0].pad, events[0].uid) == ("p1", "A1B2C3D4")
        assert bridge.garbled == 1 and "claiming channel 3" in bridge.last_garbled
        assert peak < 1_000_000, f"peak {peak:,} bytes while 10 MB went by"
    finally:
        tracemalloc.stop()
        table.close()
        pty.close()


def test_a_line_split_anywhere_is_put_back_together_and_an_overlong_one_dropped_to_its_end():
    reader, fed = _host()
    stream = _poll(0, 0, ["A1B2C3D4"]) + b"x" * (MAX_LINE_BYTES + 1) + b"\n" + _poll(1, 1, ["A1B2C3D5"])
    for cut in range(0, len(stream), 97):
        reader.handle_bytes(stream[cut:cut + 97])
        assert len(reader._framer._buf) <= MAX_LINE_BYTES
    assert [f[:2] for f in fed] == [("p0", ["A1B2C3D4"]), ("p1", ["A1B2C3D5"])] and reader.garbled == 1


def test_a_thousand_repeated_sequence_numbers_are_repeats_not_sixty_five_million_lost_lines():
    reader, fed = _host()
    reader.handle_line(encode(0, "HELLO", ["bridge-2", 4]).encode())
    for _ in range(1000):
        reader.handle_line(_poll(5, 0, ["A1B2C3D4"]))
    status = reader.status()
    assert reader.lost == 4 and reader.repeated == 999 and len(fed) == 1    # a repeat is a duplicate: dropped
    assert not status["ok"] and "sequence numbers make no sense" in status["detail"]
    for seq in range(6, 6 + SEQ_WINDOW):                                     # a sane stream again
        reader.handle_line(_poll(seq, 0, ["A1B2C3D4"]))
    assert reader.status()["ok"] and reader.lost == 4


def test_sequence_numbers_that_jump_about_make_the_bridge_not_ok_and_are_not_counted_lost():
    reader, fed = _host()
    for seq in [0, 40_000, 3_000, 60_000, 17, 50_000, 9_000, 30_000, 1_000, 45_000]:
        reader.handle_line(_poll(seq, 0, ["A1B2C3D4"]))
    assert reader.lost == 0 and reader.out_of_order >= NONSENSE_AT and not reader.status()["ok"]


def test_a_bridge_that_restarted_without_its_hello_is_a_restart_not_lost_lines():
    reader, fed = _host()
    for seq in range(100, 110):
        reader.handle_line(_poll(seq, 0, ["A1B2C3D4"]))
    reader.handle_line(_poll(3, 0, ["A1B2C3D4"]))            # counted from 0 again; HELLO and 0-2 lost
    reader.handle_line(_poll(5, 0, ["A1B2C3D4"]))            # a real gap: line 4 lost
    assert reader.restarts == 1 and reader.lost == 1 and reader.out_of_order == 0 and reader.status()["ok"]
    reader.handle_line(_poll(65535, 0, ["A1B2C3D4"]).replace(b"65535", b"65535"))
    assert reader.out_of_order == 1                           # 5 → 65535 is a step back, not 65,529 lost


def test_the_card_ids_a_bridge_remembers_are_bounded_and_the_recent_ones_kept():
    reader, fed = _host()
    message = encode_card_id("sams/042")[2:-2].rstrip(b"\0").hex().upper()
    uids = _uids(MAX_KNOWN_TAGS + 500)
    for seq, uid in enumerate(uids):
        reader.handle_line(encode(seq % 65536, "NDEF", [0, uid, message]).encode())
    assert len(reader.card_ids) == MAX_KNOWN_TAGS
    assert uids[-1] in reader.card_ids and uids[0] not in reader.card_ids
    reader.handle_line(_poll(len(uids) % 65536, 0, [uids[-1]]))
    assert fed[-1][2] == {uids[-1]: "sams/042"}


class _CountingUid(str):
    """A UID that counts how often it is compared: list membership compares, a set looks up by hash."""

    compared = 0

    def __eq__(self, other):
        _CountingUid.compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def test_the_debouncer_does_work_linear_in_the_uids_of_a_poll():
    """The old list membership made n²/2 comparisons per poll (20,000 UIDs: 200 million, 5.1 s)."""
    debouncer = Debouncer(settle_s=0.07, lift_s=0.35)
    n = 3_000                                # enough to tell n from n² (4.5 million), quick on the old code too
    uids = [_CountingUid(u) for u in _uids(n)]
    _CountingUid.compared = 0
    events = debouncer.feed("p0", uids, 0.0) + debouncer.feed("p0", uids, 0.1)     # read across the settle window
    assert len(events) == n and {e.kind for e in events} == {"seen"}
    fewer = [_CountingUid(u) for u in _uids(n)[1:]]
    events = []
    for t in (0.5, 0.9):
        events += debouncer.feed("p0", fewer, t)
    assert [(e.uid, e.kind) for e in events] == [(_uids(1)[0], "gone")]
    assert _CountingUid.compared < 10 * 4 * n, f"{_CountingUid.compared:,} comparisons for 4 polls of {n:,} UIDs"


def test_the_firmware_cuts_a_long_fault_so_its_line_stays_under_the_hosts_limit():
    """A driver bug with a 5,000-character message must reach the host as a FAULT, not as an over-long line."""
    from hardware.emulator.pico import EmulatedBridgeBoard
    reader, fed = _host()
    board = EmulatedBridgeBoard(4, write=lambda line: (lines.append(line), reader.handle_line(line.encode())))
    lines = []

    def broken(*args, **kwargs):
        raise ValueError("x" * 5000)

    board.bridge.start()
    board.bridge.pcds[1].inventory = broken
    board.bridge.poll_once()
    assert max(len(line) for line in lines) <= MAX_LINE_BYTES
    assert reader.garbled == 0 and reader.channel_faults[1].startswith("ValueError: xxx")
