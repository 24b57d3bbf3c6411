"""The RC522 driver (hardware.rc522) against the register-level emulator: ISO/IEC 14443-3 behaviour."""
import random

import pytest

from hardware.rc522.pcd import Collision, Garbled, NoReply, ReaderFault, cascade_parts, crc_a


def test_crc_a_matches_the_iso_14443_3_example():
    """ISO/IEC 14443-3 Annex B: CRC_A of 00 00 is 0x1EA0, of 12 34 is 0xCF26 (sent low byte first)."""
    assert crc_a(b"\x00\x00") == bytes((0xA0, 0x1E))
    assert crc_a(b"\x12\x34") == bytes((0x26, 0xCF))


def test_cascade_parts_for_each_uid_length():
    assert cascade_parts(bytes.fromhex("A1B2C3D4")) == [bytes.fromhex("A1B2C3D4")]
    assert cascade_parts(bytes.fromhex("04112233445566")) == [bytes.fromhex("88041122"), bytes.fromhex("33445566")]
    assert cascade_parts(bytes.fromhex("0411223344556677889A")) == [
        bytes.fromhex("88041122"), bytes.fromhex("88334455"), bytes.fromhex("6677889A")]


@pytest.mark.parametrize("uid", ["A1B2C3D4", "04A1B2C3D4E5F6", "0411223344556677889A"])
def test_every_uid_length_is_read_whole(bench, uid):
    """4-, 7- and 10-byte UIDs come back whole (the mfrc522 package returns 88 + three bytes for a 7-byte one)."""
    bench.put(uid)
    assert bench.inventory() == [uid]
    assert bench.inventory([uid]) == [uid]          # confirmed by a direct SELECT on the next poll


def test_the_chip_reports_its_version_and_its_crc_coprocessor_works(bench):
    assert bench.pcd.version == 0x92
    assert bench.pcd.crc_self_test()


@pytest.mark.parametrize("count", range(1, 9))
def test_inventory_finds_every_stacked_tag(make_bench, count):
    """1 to 8 cards stacked on one pad (Sam's lanes, Territory piles): all found, then all confirmed."""
    rng = random.Random(count)
    uids = sorted({("04%012X" % rng.getrandbits(48)) if rng.random() < 0.7 else "%08X" % rng.getrandbits(32)
                   for _ in range(count)})
    b = make_bench()
    b.put(*uids)
    assert b.inventory() == uids
    assert b.inventory(uids) == uids


def test_collisions_are_resolved_bit_by_bit_at_every_cascade_level(make_bench):
    """Tags sharing their first UID bytes collide late in CL1, or only in CL2/CL3: all are separated."""
    uids = ["04A1B2C3D4E5F6", "04A1B2C3D4E5F7", "04A1B2C3000000", "04A1B2FF000000",   # same CL1 part
            "0411223344556677889A", "0411223344556677889B",                           # differ in CL3 only
            "A1B2C3D4", "A1B2C3D5"]                                                   # differ in the last bit
    b = make_bench()
    b.put(*uids)
    assert b.inventory() == sorted(uids)


def test_anticollision_reports_the_colliding_bit(make_bench):
    """Two tags differing first in bit 3 of their first byte: the chip's CollReg says so."""
    b = make_bench()
    b.put("A0000000", "A8000000")
    assert b.pcd.request(wake_up=False) is not None
    with pytest.raises(Collision) as exc:
        b.pcd.transceive(bytes((0x93, 0x20)), reply_bits=40)
    assert exc.value.bit == 3


def test_halted_tags_stay_quiet_until_woken(bench):
    """ISO 14443-3: a tag in HALT ignores REQA and answers WUPA."""
    (tag,) = bench.put("04A1B2C3D4E5F6")
    assert bench.pcd.request(wake_up=False) is not None
    bench.pcd.select_new()
    bench.pcd.halt()
    bench.pcd.read_version()         # the emulator applies what happened on the air at the next access
    assert tag.state == "HALT"
    assert bench.pcd.request(wake_up=False) is None
    assert bench.pcd.request(wake_up=True) is not None


def test_an_empty_pad_poll_is_short(bench):
    """Timer-bounded: an empty pad costs one REQA, a handful of transactions and well under 2 ms."""
    bench.inventory()
    t0, n0 = bench.clock.now, bench.clock.transactions
    assert bench.inventory() == []
    assert bench.clock.transactions - n0 <= 15
    assert bench.clock.now - t0 <= 0.002


def test_no_reply_is_detected_by_the_chips_timer(bench):
    with pytest.raises(NoReply):
        bench.pcd.transceive(bytes((0x26,)), tx_bits=7)


def test_a_corrupted_reply_fails_its_crc_or_bcc_and_is_never_reported(make_bench):
    """With every reply corrupted by one flipped bit, no UID ever comes out (CRC_A and BCC catch it)."""
    b = make_bench()
    b.put("04A1B2C3D4E5F6", "A1B2C3D4")
    b.chip.faults.crc_error_rate = 1.0
    for _ in range(50):
        assert b.inventory() == []
    b.chip.faults.crc_error_rate = 0.0
    assert b.inventory() == ["04A1B2C3D4E5F6", "A1B2C3D4"]


def test_occasional_crc_errors_only_cost_a_retry(make_bench):
    b = make_bench()
    uids = ["04A1B2C3D4E5F6", "A1B2C3D4", "0411223344556677889A"]
    b.put(*uids)
    b.chip.faults.crc_error_rate = 0.1
    seen = [b.inventory(uids) for _ in range(200)]
    assert all(set(s) <= set(uids) for s in seen)
    assert sum(s == sorted(uids) for s in seen) > 150


def test_missed_reads_are_retried_within_a_poll(make_bench):
    """A tag that stays silent for one WUPA (20 % of the time) is still confirmed by a retry."""
    b = make_bench()
    b.put("04A1B2C3D4E5F6")
    b.chip.faults.miss_rate = 0.2
    polls = [b.inventory(["04A1B2C3D4E5F6"]) for _ in range(1000)]
    misses = sum(p == [] for p in polls)
    assert misses < 25           # 0.2³ = 0.8 % expected: 8 of 1000


def test_a_dead_reader_is_a_reader_fault_not_an_empty_pad(bench):
    bench.put("A1B2C3D4")
    bench.chip.faults.dead = True
    with pytest.raises(ReaderFault, match="reads 0x00"):
        bench.pcd.inventory([])
    with pytest.raises(ReaderFault):
        bench.pcd.init()


def test_a_wedged_reader_answers_garbage_until_its_reset_line_is_pulsed(make_bench):
    from gpiozero import DigitalOutputDevice
    from gpiozero.pins.mock import MockFactory
    factory = MockFactory()
    reset = DigitalOutputDevice(25, initial_value=True, pin_factory=factory)
    b = make_bench(reset_pin=reset.pin)
    b.transport.reset = reset
    b.put("04A1B2C3D4E5F6")
    b.chip.faults.wedged = True
    with pytest.raises(ReaderFault):
        b.pcd.inventory([])
    assert b.pcd.recover() == 0x92
    assert b.chip.hard_resets == 1
    assert b.inventory() == ["04A1B2C3D4E5F6"]
    reset.close()


def test_garbage_in_the_version_register_mid_poll_is_caught(bench):
    bench.put("A1B2C3D4")
    bench.chip.version = 0x12
    with pytest.raises(ReaderFault, match="0x12"):
        bench.pcd.inventory([])


def test_antenna_off_resets_tags(bench):
    (tag,) = bench.put("A1B2C3D4")
    bench.inventory()
    assert tag.state == "HALT"
    bench.pcd.antenna(False)
    bench.transport.read_regs([bench.transport.VersionReg])    # the chip applies writes as they come
    assert tag.state == "IDLE"


def test_garbled_sak_is_rejected(bench):
    bench.put("A1B2C3D4")
    bench.pcd.request(wake_up=True)
    with pytest.raises((Garbled, NoReply)):
        bench.pcd._select_level(0, bytes.fromhex("A1B2C3D5"))   # another UID: nobody answers


def _frames(pcd):
    """The command byte of every frame ``pcd`` sends from now on (a spy: each frame still goes to the chip)."""
    sent = []
    transceive = pcd.transceive

    def spy(data, *args, **kwargs):
        sent.append(data[0])
        return transceive(data, *args, **kwargs)
    pcd.transceive = spy
    return sent


def test_a_switched_field_poll_asks_each_card_of_the_last_poll_once_and_finds_the_rest_by_reqa(make_bench):
    """With the field just switched on every tag lies in IDLE: a departed card costs one WUPA round, not three,
    and a card missed once is found again by REQA; the cards just confirmed are not woken and read twice."""
    from hardware.rc522.pcd import KnownTags, REQA, WUPA
    b = make_bench()
    stay, leave = b.put("04A1B2C3D4E5F6", "04C1D2E3F40516")
    known = KnownTags()

    def poll():
        b.pcd.antenna(False)
        b.pcd.antenna(True)
        b.clock.sleep(5.1e-3)                          # the guard time a switched reader gives its tags
        found = b.pcd.inventory(known.read_last(), powered_up=True)
        known.update(found)
        return sorted(u.hex().upper() for u in found)

    assert poll() == ["04A1B2C3D4E5F6", "04C1D2E3F40516"]
    b.chip.remove(leave)
    sent = _frames(b.pcd)
    assert poll() == ["04A1B2C3D4E5F6"]
    assert sent.count(WUPA) == 2 and sent[-1] == REQA and 0x20 not in sent   # one WUPA each, no anticollision
    sent.clear()
    assert poll() == ["04A1B2C3D4E5F6"]
    assert sent.count(WUPA) == 1                       # the departed card is not asked about again
    b.chip.place(leave)
    assert poll() == ["04A1B2C3D4E5F6", "04C1D2E3F40516"]   # back, found by REQA


def test_a_field_left_on_still_retries_a_known_card_and_wakes_halted_ones(make_bench):
    """Fields on: tags stay in HALT between polls, so a known card gets its three WUPA rounds and a pad whose
    known card did not answer is searched with WUPA (a card gone quiet under others is still there)."""
    from hardware.rc522.pcd import WUPA
    b = make_bench()
    b.put("04A1B2C3D4E5F6")
    assert b.inventory() == ["04A1B2C3D4E5F6"]
    sent = _frames(b.pcd)
    assert b.inventory(["04A1B2C3D4E5F6", "04C1D2E3F40516"]) == ["04A1B2C3D4E5F6"]
    assert sent.count(WUPA) >= 1 + 3 + 1               # the card there, three tries for the other, discovery


def test_a_second_stacked_card_that_sits_out_one_request_is_still_found_in_the_same_poll(make_bench):
    """Beside one card, a detuned second one now and then stays deaf for a REQA round (physics.TWO_STACK_ANSWER):
    while cards arrive (``ask_twice``) the poll asks once more.  Each tag deaf in 20 % of rounds: the new card
    is missed in ~4 % of such polls, and in ~20 % of those that ask once."""
    b = make_bench()
    there, new = "04A1B2C3D4E5F6", "04C1D2E3F40516"
    b.put(there, new)
    b.chip.faults.miss_rate = 0.2

    def missed(ask_twice):
        count = 0
        for _ in range(150):
            b.pcd.antenna(False)
            b.pcd.antenna(True)
            b.clock.sleep(5.1e-3)
            found = b.pcd.inventory([bytes.fromhex(there)], powered_up=True, ask_twice=ask_twice)
            count += new not in [u.hex().upper() for u in found]
        return count
    assert missed(ask_twice=True) < 16                 # ~6 expected (0.2 × 0.2, and a deaf confirm now and then)
    assert missed(ask_twice=False) > 20                # ~30 expected


def test_a_card_that_answers_every_other_request_does_not_keep_the_poll_going(make_bench):
    """A tag whose HLTA is lost answers the REQA after next; the discovery loop counts a card it already has as
    a silence, so the poll ends."""
    from hardware.rc522.pcd import Pcd
    b = make_bench()
    b.put("04A1B2C3D4E5F6")
    b.pcd.halt = lambda: None                          # every HLTA lost: the ACTIVE tag drops to IDLE at the next REQA
    t0 = b.clock.now
    found = Pcd.inventory(b.pcd, [], powered_up=True, ask_twice=True)
    assert [u.hex().upper() for u in found] == ["04A1B2C3D4E5F6"]
    assert b.clock.now - t0 < 0.05


def test_a_pad_asks_a_silent_request_twice_only_while_cards_arrive_on_it():
    """PadReader: for ARRIVALS_S after a poll found a card arriving, a poll that has read one card asks a silent
    REQA once more (a slap's next card may be sitting out a round); a card resting alone longer costs one REQA."""
    from hardware.emulator import ModelClock
    from hardware.emulator.physics import Physics
    from hardware.emulator.table import EmulatedTable
    from hardware.rc522.pcd import REQA
    from hardware.readers import ARRIVALS_S
    model = ModelClock(overshoot=None)
    table = EmulatedTable(["a"], model=model, physics=Physics(ideal=True))
    table.start(lambda ev: None)
    (reader,) = table.readers
    table.chips["a"].place(table.tag("04A1B2C3D4E5F6"))
    assert reader.poll() == ["04A1B2C3D4E5F6"]         # it arrives
    sent = _frames(reader.pcd)
    model.sleep(0.1)
    reader.poll()
    assert sent.count(REQA) == 2
    model.sleep(ARRIVALS_S)
    sent.clear()
    reader.poll()
    assert sent.count(REQA) == 1


def test_a_field_left_on_asks_a_card_gone_since_an_earlier_poll_once_and_does_not_read_the_others_again():
    """PadReader, fields on (Lifeforce's table): a card that left is tried three times in the first poll that
    misses it, as ever; in the polls after (KnownTags keeps it for eight) it is asked once, and its silence
    wakes nobody — a WUPA would wake the card still lying there, to be read through anticollision again in
    every poll (issue 23: a slapped pad's polls took 25-35 ms, the six-pad cycle up to 135 ms, and slapped
    cards readable for 70-190 ms were missed).  A card that comes back is still found by that one WUPA."""
    from hardware.emulator import ModelClock
    from hardware.emulator.physics import Physics
    from hardware.emulator.table import EmulatedTable
    from hardware.rc522.pcd import REQA, WUPA
    from hardware.readers import ReadingPlan
    model = ModelClock(overshoot=None)
    table = EmulatedTable(["a"], model=model, physics=Physics(ideal=True), plan=ReadingPlan("on", {}, "test"))
    table.start(lambda ev: None)
    (reader,) = table.readers
    assert not reader.switched
    stay, leave = table.tag("04A1B2C3D4E5F6"), table.tag("04A1B2C3D4E5F7")   # one CL1 part, as off one roll
    table.chips["a"].place(stay)
    table.chips["a"].place(leave)
    assert sorted(reader.poll()) == [stay.uid_hex, leave.uid_hex]
    table.chips["a"].remove(leave)
    sent = []
    transceive = reader.pcd.transceive

    def spy(data, *args, **kwargs):
        sent.append((data[0], data[1] if len(data) > 1 else None))
        return transceive(data, *args, **kwargs)
    reader.pcd.transceive = spy
    assert reader.poll() == [stay.uid_hex]
    assert [f for f, _ in sent].count(WUPA) == 1 + 3 + 1            # the card there, three tries, discovery
    for _ in range(3):
        sent.clear()
        assert reader.poll() == [stay.uid_hex]
        assert [f for f, _ in sent].count(WUPA) == 2                # the card there, one try for the one gone
        assert sent[-1] == (REQA, None)                             # discovery by REQA
        assert not [f for f in sent if f[1] == 0x20]                # no anticollision: nobody read twice
    table.chips["a"].place(leave)
    assert sorted(reader.poll()) == [stay.uid_hex, leave.uid_hex]   # back: its one WUPA finds it
    table.close()
