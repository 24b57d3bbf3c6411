"""Self-describing cards: a card id as an NDEF record in NTAG21x user memory, read back once per UID."""
import pytest

from hardware.emulator import VirtualTag
from hardware.emulator.table import EmulatedTable
from hardware.ndef import (NdefCache, NdefError, Unreadable, decode_card_id, encode_card_id, read_card_id,
                           write_card_id)


def test_the_record_layout_is_an_ndef_tlv_with_an_external_type():
    data = encode_card_id("sams/042")
    assert data[0] == 0x03 and data[2] == 0xD4            # NDEF message TLV; MB|ME|SR, TNF 4
    assert b"tabletop-companion.org:card" in data and b"sams/042" in data
    assert len(data) % 4 == 0 and 0xFE in data
    assert decode_card_id(data) == "sams/042"


def test_a_blank_or_foreign_tag_carries_no_card_id():
    assert decode_card_id(bytes((0x03, 0x00, 0xFE, 0x00))) is None
    uri = bytes((0x03, 0x0B, 0xD1, 0x01, 0x07, 0x55, 0x04)) + b"a.b/cd" + b"\xFE"
    assert decode_card_id(uri) is None


@pytest.mark.parametrize("kind", ["ntag213", "ntag215", "ntag216"])
def test_write_then_read_back_on_every_ntag21x(bench, kind):
    (tag,) = bench.put("04A1B2C3D4E5F6", kind=kind)
    bench.inventory()
    write_card_id(bench.pcd, tag.uid, "territory/ranger-07")
    assert read_card_id(bench.pcd, tag.uid) == "territory/ranger-07"
    written = encode_card_id("territory/ranger-07")
    assert bytes(tag.memory[16:16 + len(written)]) == written      # page 4 onwards, byte for byte


def test_write_then_read_back_survives_other_tags_on_the_pad(bench):
    tags = bench.put("04A1B2C3D4E5F6", "04A1B2C3D4E5F7", "04000000000001")
    bench.inventory()
    write_card_id(bench.pcd, tags[1].uid, "sams/007")
    assert [read_card_id(bench.pcd, t.uid) for t in tags] == [None, "sams/007", None]
    assert bench.inventory([t.uid.hex() for t in tags]) == sorted(t.uid_hex for t in tags)


def test_a_card_id_too_long_for_the_tag_is_refused_in_words(bench):
    with pytest.raises(NdefError, match="too long"):
        encode_card_id("x" * 300)


def test_a_tag_without_ndef_memory_is_refused(bench):
    (tag,) = bench.put("A1B2C3D4")                       # MIFARE Classic-like: no NTAG READ
    bench.inventory()
    with pytest.raises(Exception):
        write_card_id(bench.pcd, tag.uid, "sams/001")


def test_the_cache_reads_each_uid_once(bench):
    (tag,) = bench.put("04A1B2C3D4E5F6")
    bench.inventory()
    write_card_id(bench.pcd, tag.uid, "sams/042")
    cache = NdefCache()
    n0 = bench.clock.transactions
    assert cache.card_id(bench.pcd, tag.uid) == "sams/042"
    first = bench.clock.transactions - n0
    n1 = bench.clock.transactions
    assert cache.card_id(bench.pcd, tag.uid) == "sams/042"
    assert cache.reads == 1 and bench.clock.transactions == n1 and first > 0


def test_the_pad_event_carries_the_card_id_written_on_the_tag():
    cache = NdefCache()
    table = EmulatedTable(["p1"], ndef=cache)
    events = []
    table.start(events.append)
    tag = table.tag("04A1B2C3D4E5F6")
    # write it with the table's own reader, as the companion's "register card" screen would
    table.chips["p1"].place(tag)
    reader = table.readers[0]
    reader.poll()
    write_card_id(reader.pcd, tag.uid, "lifeforce/spark")
    table.chips["p1"].remove(tag)
    for _ in range(10):
        reader.poll()
    table.place("p1", tag.uid_hex)
    assert events[-1].card_id == "lifeforce/spark"
    assert cache.reads == 1
    table.close()


def test_a_card_registered_on_one_table_is_known_on_another():
    """Written through one companion's table, read by a different companion (fresh cache, fresh readers)."""
    from companion.table import parse_profile
    prof = parse_profile({"readers": [{"id": "r", "kind": "rc522", "bus": 0, "cs": 0, "pads": ["p1"]}]}, "t.toml")
    first = EmulatedTable.from_profile(prof, ndef=NdefCache())
    first.start(lambda e: None)
    first.place("p1", "04A1B2C3D4E5F6")
    first.write_card_id("p1", "04A1B2C3D4E5F6", "vitaluna/dawn")
    tag = first.virtual_tags["04A1B2C3D4E5F6"]
    first.close()
    second = EmulatedTable.from_profile(prof, ndef=NdefCache())
    second.virtual_tags[tag.uid_hex] = tag             # the same physical card, carried to the other table
    events = []
    second.start(events.append)
    second.place("p1", tag.uid_hex)
    assert events[-1].card_id == "vitaluna/dawn"
    second.close()


def test_writing_to_a_pad_without_an_rc522_is_refused_in_words():
    table = EmulatedTable(["p1"])
    with pytest.raises(KeyError, match="not read by an RC522"):
        table.write_card_id("p9", "04A1B2C3D4E5F6", "sams/001")
    table.close()


# -- what real tags hold, and what a crafted one may hold --------------------------------------------------

FACTORY_NTAG213 = bytes.fromhex("0103A00C34" "0300FE")      # NXP NTAG213 at delivery: Lock Control TLV, empty NDEF


def test_a_factory_fresh_ntag213_carries_no_card_id_and_one_written_behind_its_lock_control_tlv_reads(bench):
    """NTAG213s ship with a Lock Control TLV (`01 03 A0 0C 34`) before the NDEF TLV (NXP datasheet, memory at
    delivery); another tool keeps it and writes the message behind it."""
    (tag,) = bench.put("04A1B2C3D4E5F6", kind="ntag213")
    tag.memory[16:16 + len(FACTORY_NTAG213)] = FACTORY_NTAG213
    bench.inventory()
    assert read_card_id(bench.pcd, tag.uid) is None
    behind = bytes.fromhex("0103A00C34") + encode_card_id("arcmage/seer")
    tag.memory[16:16 + len(behind)] = behind
    assert read_card_id(bench.pcd, tag.uid) == "arcmage/seer"
    assert decode_card_id(bytes.fromhex("000001030000000200FD01AA") + encode_card_id("sams/9")) == "sams/9"


def test_a_long_tlv_length_and_a_message_across_many_pages_read(bench):
    (tag,) = bench.put("04A1B2C3D4E5F6", kind="ntag215")
    record = encode_card_id("territory/" + "x" * 150)[2:-2].rstrip(b"\0")   # message alone
    data = bytes((0x03, 0xFF, 0x00, len(record))) + record + b"\xFE"
    tag.memory[16:16 + len(data)] = data
    bench.inventory()
    assert read_card_id(bench.pcd, tag.uid) == "territory/" + "x" * 150


@pytest.mark.parametrize("memory, why", [
    ("0303DC0000FE", "NDEF"),                  # the crafted record of issue 12: ID flag set, no ID length
    ("03FF0400", "message of 1024 bytes"),     # longer than any card id record
    ("01FF0FFF", "past the end"),              # a TLV whose length runs off the data area
    ("07", "unknown TLV"),
    ("0305D40B00616263FE", "NDEF"),            # type length beyond the record
])
def test_crafted_memory_is_an_unreadable_card_id_never_an_exception(memory, why):
    value = decode_card_id(bytes.fromhex(memory) + bytes(140))
    assert isinstance(value, Unreadable) and why in value.why


def test_a_crafted_tag_is_unreadable_and_every_pad_keeps_reading():
    """Issue 12: `03 03 DC 00 00` in page 4 (a record with its ID flag set and no ID length) raised IndexError
    in the poll thread, which died.  Now it is an unreadable card id, and the pads beside it read on."""
    from .test_tag_memory_fuzz import ThreePads
    t = ThreePads()
    crafted = VirtualTag("04C0FFEE000001")
    crafted.memory[16:21] = bytes.fromhex("0303DC0000")
    t.chips[1].place(crafted)
    t.table.poll_cycle()
    assert t.on_pad("p1") == ["04C0FFEE000001"] and "NDEF" in t.cache.unreadable[crafted.uid]
    t.chips[2].remove(t.chips[2].tags[0])
    for _ in range(4):
        t.table.poll_cycle()
    assert all(r.ok for r in t.table.readers)
    assert t.on_pad("p0") == ["04000000000A01"] and t.on_pad("p1") == ["04C0FFEE000001"] and t.on_pad("p2") == []
