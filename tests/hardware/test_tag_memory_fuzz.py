"""Nothing a tag holds stops reading (issue 12): random tag memories, seeded and bounded, through the real code.

Hypothesis draws seeds; each seed makes a batch of tag memories (a capability
container and a data area: TLV chains with NDEF messages written by ndeflib,
Lock Control TLVs as NTAG213s ship with, then bytes flipped or cut, or plain
noise), because one Hypothesis example costs about a millisecond of its own
and 10,000 of them would take the suite's time for nothing.

* 10,000 memories go through :meth:`NdefCache.card_id` (the call the polling
  loop makes: the TLV walk page by page, ndeflib) over a stand-in for the
  driver that serves READs from the memory; then every pad of a three-pad
  table still reads;
* 300 more lie, one after the other, on the middle pad of a three-pad table
  of emulated RC522s read by the real driver, :class:`NdefCache` and the
  polling loop; after each, every pad still reads.
"""
import random

import ndef
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hardware.debounce import Debouncer
from hardware.emulator import EmulatedRC522, ModelClock, VirtualTag
from hardware.ndef import NdefCache, Unreadable, encode_card_id, read_card_id
from hardware.polling import PolledTable
from hardware.rc522.transport import Mfrc522Transport
from hardware.readers import PadReader, ReaderSpec

FUZZ = dict(derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck))
SEEDS = st.integers(0, 2**32 - 1)

MESSAGES = [b"".join(ndef.message_encoder(records)) for records in (
    [ndef.Record("urn:nfc:ext:tabletop-companion.org:card", "", b"sams/042")],
    [ndef.Record("urn:nfc:wkt:U", "", b"\x04example.org/card")],
    [ndef.Record("urn:nfc:wkt:T", "", b"\x02enhello"),
     ndef.Record("urn:nfc:ext:tabletop-companion.org:card", "id", "vitaluna/é".encode())],
    [ndef.Record("application/octet-stream", "", bytes(range(40)))],
)]
CONTROL_TLVS = [bytes.fromhex(h) for h in ("0103A00C34", "0203000000", "00", "FE", "FD0212", "0300")]


def random_memory(rng: random.Random) -> bytes:
    """Pages 3 onwards of one tag: a CC (usually valid) and a data area of up to 144 bytes."""
    cc = rng.choice([bytes.fromhex("E1101200"), bytes.fromhex("E1103E00"), bytes.fromhex("E110FF0F"),
                     rng.randbytes(4)])
    if rng.random() < 0.2:
        return cc + rng.randbytes(rng.randrange(145))
    area = bytearray()
    for _ in range(rng.randrange(5)):
        pick = rng.random()
        if pick < 0.4:
            message = rng.choice(MESSAGES)
            area += (bytes((3, len(message))) if rng.random() < 0.8 else bytes((3, 0xFF, 0, len(message)))) + message
        elif pick < 0.8:
            area += rng.choice(CONTROL_TLVS)
        else:
            area += rng.randbytes(rng.randrange(1, 7))
    for _ in range(rng.randrange(4)):
        if area:
            area[rng.randrange(len(area))] = rng.randrange(256)
    if rng.random() < 0.3:
        del area[rng.randrange(len(area) + 1):]
    return cc + bytes(area[:144])


class MemoryPcd:
    """Serves NTAG READs (4 pages, wrapping round the end) from a memory; the code under test is the caller."""

    def __init__(self, memory: bytes):
        self.memory = bytes(12) + memory + bytes(max(0, 180 - 12 - len(memory)))

    def activate(self, uid):
        pass

    def halt(self):
        pass

    def read_pages(self, page):
        n = len(self.memory) // 4
        return b"".join(self.memory[((page + i) % n) * 4:((page + i) % n) * 4 + 4] for i in range(4))


def test_ten_thousand_tag_memories_give_a_card_id_none_or_unreadable_and_every_pad_still_reads():
    t = ThreePads()
    read = []

    @settings(max_examples=110, **FUZZ)
    @given(seed=SEEDS)
    def batch(seed):
        rng = random.Random(seed)
        for _ in range(100):
            uid = (0x04_0000_0000_0000 + len(read)).to_bytes(7, "big")
            value = t.cache.card_id(MemoryPcd(random_memory(rng)), uid)     # the call the polling loop makes
            assert value is None or isinstance(value, str)
            read.append(value)

    batch()
    assert len(read) >= 10_000 and len(t.cache.unreadable) > 1000
    last = VirtualTag("04C0FFEE000002")
    last.memory[16:21] = bytes.fromhex("0303DC0000")
    t.chips[1].place(last)
    for _ in range(2):
        t.table.poll_cycle()
    assert all(r.ok for r in t.table.readers)
    assert [t.on_pad(p) for p in ("p0", "p1", "p2")] == [["04000000000A01"], ["04C0FFEE000002"], ["04000000000A02"]]


def test_the_memories_reach_every_outcome():
    """The generator is worth its examples: card ids, blank tags and unreadable memories all come up."""
    rng = random.Random(12)
    kinds = {type(read_card_id(MemoryPcd(random_memory(rng)), b"\x04" * 7)) for _ in range(500)}
    assert kinds == {str, type(None), Unreadable}
    assert read_card_id(MemoryPcd(bytes.fromhex("E1101200") + encode_card_id("sams/1")), b"\x04" * 7) == "sams/1"


class ThreePads:
    """Three emulated RC522s read by the real driver through a PolledTable, card ids through one NdefCache."""

    def __init__(self):
        self.model = ModelClock()
        self.cache = NdefCache()
        self.chips, readers = [], []
        for n in range(3):
            chip = EmulatedRC522(self.model)
            spec = ReaderSpec(f"r{n}", "rc522", (f"p{n}",), bus=0, cs=n)
            readers.append(PadReader(spec, Mfrc522Transport(chip, sleep=self.model.sleep), ndef=self.cache,
                                     clock=lambda: self.model.now))
            self.chips.append(chip)
        # about tag memories, not hands: one read is a placement, 10 ms (3 cycles) without one a removal
        self.table = PolledTable(readers, debouncer=Debouncer(settle_s=0, lift_s=0.01), clock=lambda: self.model.now)
        self.table.start(lambda ev: None, background=False)
        self.chips[0].place(VirtualTag("04000000000A01"))
        self.chips[2].place(VirtualTag("04000000000A02"))
        self.placed = 0

    def on_pad(self, pad):
        return self.table.debouncer.on_pad(pad)


def test_three_hundred_tags_with_any_memory_never_stop_the_table():
    t = ThreePads()

    @settings(max_examples=11, **FUZZ)
    @given(seed=SEEDS)
    def batch(seed):
        lay_tags(t, random.Random(seed), 30)

    batch()
    assert t.placed >= 300


def lay_tags(t, rng, count):
    for _ in range(count):
        t.placed += 1
        tag = VirtualTag("04%012X" % (0xB00000 + t.placed))       # a new UID each time: no cached answer
        memory = random_memory(rng)
        tag.memory[12:12 + len(memory)] = memory
        t.chips[1].place(tag)
        t.table.poll_cycle()
        if not t.cache.known(tag.uid):
            t.table.poll_cycle()                # a READ the tag refused (past its last page): one more try
        t.chips[1].remove(tag)
        assert all(r.ok for r in t.table.readers)
        assert t.on_pad("p0") == ["04000000000A01"] and t.on_pad("p2") == ["04000000000A02"]
        assert tag.uid_hex in t.on_pad("p1")
        assert t.cache.known(tag.uid)                              # read: a card id, none, or unreadable
    for _ in range(4):
        t.table.poll_cycle()
    assert t.on_pad("p1") == []
