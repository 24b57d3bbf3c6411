"""The realistic emulator: stacked tags, cross-talk, power-up, factory memory, per pad mode (issue 12).

Every test drives the real driver (PadReader on Mfrc522Transport) against the
emulator; the numbers they check come from docs/hardware/emulator.md.
"""
import pytest

from companion.table import GONE, SEEN, Layout, PadEvent, TableState, parse_profile
from hardware.emulator import EmulatedRC522, ModelClock, VirtualTag
from hardware.emulator.physics import Physics
from hardware.emulator.table import EmulatedTable
from hardware.readers import GUARD_S, ReaderSpec, reading_plan
from hardware.rc522.pcd import Pcd
from hardware.rc522.transport import Mfrc522Transport

from .conftest import poll_for, settle

A, B, C = "04A1B2C3D4E5F6", "04112233445566", "04778899AABBCC"


def _row(pads, spacing, fields=None, seed=1):
    """An emulated table of ``pads`` pads in a row ``spacing`` cm apart (a profile, as a builder writes it)."""
    doc = {"readers": [{"id": f"r-{p}", "kind": "rc522", "bus": 0, "cs": 0, "reset_gpio": 25, "pads": [p]}
                       for p in pads],
           "reading": {"positions": {p: [i * spacing, 0] for i, p in enumerate(pads)}}}
    if fields:
        doc["reading"]["fields"] = fields
    plan = reading_plan(parse_profile(doc, "test"))
    specs = [ReaderSpec(f"r-{p}", "rc522", (p,), bus=0, cs=0, reset_gpio=25) for p in pads]
    model = ModelClock(seed=seed)
    return EmulatedTable(specs=specs, plan=plan, model=model, clock=lambda: model.now, physics=Physics(seed=seed))


def _reads(table, pad, polls=20):
    """How often each UID was read by ``pad``'s reader in ``polls`` polls."""
    reader = next(r for r in table.readers if r.pad == pad)
    counts = {}
    for _ in range(polls):
        for uid in reader.poll() or []:
            counts[uid] = counts.get(uid, 0) + 1
        reader.rest()
    return counts


# ---- stacked tags -------------------------------------------------------------------------

def test_two_stacked_cards_select_fine():
    """PiicoDev (MFRC522) users: "Selecting one card from 2 cards on the reader (either one) - no problem"."""
    table = _row(["p"], 9)
    table.start(lambda ev: None, background=False)
    table.chips["p"].place(table.tag(A), (0, 0))
    table.chips["p"].place(table.tag(B), (0.5, 0))                 # on top of each other
    reads = _reads(table, "p", 40)
    assert reads.get(A, 0) >= 36 and reads.get(B, 0) >= 36


def test_three_stacked_tags_time_out_and_the_reader_says_something_is_there():
    """PiicoDev users: "When 3 or more tags are on the reader, I get nothing" — a time out after the ATQA,
    which the driver reports as unresolved (the player is then told to lay the cards one at a time)."""
    table = _row(["p"], 9)
    table.start(lambda ev: None, background=False)
    for uid in (A, B, C):
        table.chips["p"].place(table.tag(uid), (0, 0))
    reader = table.readers[0]
    unresolved = 0
    for _ in range(40):
        assert not reader.poll()
        unresolved += reader.pcd.unresolved
        reader.rest()
    assert unresolved == 40


def test_with_the_field_on_a_pile_is_unreadable_in_every_poll_and_each_poll_is_short():
    """Fields on, three cards slapped down before any was read: a failed anticollision leaves them READY, and
    READY tags fall back to IDLE at the next request without answering (ISO/IEC 14443-3).  The driver asks
    again, so no poll passes for an empty pad; and it stops at the first silent anticollision, so a pile
    costs a few transactions, not three full tries (it slowed every other pad of the cycle)."""
    table = _row(["p"], 9, fields="on")
    table.start(lambda ev: None, background=False)
    for uid in (A, B, C):
        table.chips["p"].place(table.tag(uid), (0, 0))
    reader, model = table.readers[0], table.model
    table.model.sleep(0.006)                           # past the tags' power-up
    costs = []
    for _ in range(20):
        before = model.transactions
        assert not reader.poll()
        assert reader.pcd.unresolved
        costs.append(model.transactions - before)
        reader.rest()
    assert max(costs) <= 25


def test_with_the_field_on_the_cards_under_a_long_pile_are_read_again_when_it_comes_apart():
    """Fields always on: the two cards read before a third made a pile were HALTed, and only a WUPA wakes them.
    Every poll of the pile must say so (none may pass for an empty pad), so the reader keeps confirming them
    and reads both again at once when the third card is taken off (the Lifeforce slap that counted twice)."""
    table = _row(["p"], 9, fields="on")
    table.start(lambda ev: None, background=False)
    reader = table.readers[0]
    for uid in (A, B):
        table.chips["p"].place(table.tag(uid), (0, 0))
    assert _reads(table, "p", 5).keys() == {A, B}
    table.chips["p"].place(table.tag(C), (0, 0))
    unresolved = 0
    for _ in range(30):
        assert not reader.poll()
        unresolved += reader.pcd.unresolved
    assert unresolved == 30
    table.chips["p"].remove(table.tag(C))
    assert _reads(table, "p", 2).keys() == {A, B}


def test_the_ideal_world_still_reads_any_stack():
    table = EmulatedTable(["p"], physics=Physics(ideal=True))
    table.start(lambda ev: None, background=False)
    for uid in (A, B, C):
        table.chips["p"].place(table.tag(uid))
    assert _reads(table, "p", 5) == {A: 5, B: 5, C: 5}


# ---- cross-talk ---------------------------------------------------------------------------

def test_cross_talk_falls_smoothly_with_distance_and_matches_the_public_report():
    """#589: about 100 false reads an hour at 80 mm with fields on; no cliff at 10 cm."""
    from hardware.emulator.physics import crosstalk_p
    ps = [crosstalk_p(d) for d in (4, 6, 8, 9.9, 10.0, 10.1, 12, 20)]
    assert all(a > b for a, b in zip(ps, ps[1:]))                      # falling, no step
    assert 1.0 < crosstalk_p(9.99) / crosstalk_p(10.01) < 1.02
    per_hour_at_80mm = crosstalk_p(8) * 40 * 3600 * 1.5                # #589: ~40 polls/s, 1-2 free readers
    assert 50 <= per_hour_at_80mm <= 200


def test_neighbours_4_cm_apart_with_fields_on_read_each_others_tags():
    """Closer than #589's pads the false reads become frequent enough to see in a few thousand polls."""
    table = _row(["a", "b"], 4, fields="on")
    table.start(lambda ev: None, background=False)
    table.chips["b"].place(table.tag(A))
    assert table.plan.fields == "on"
    heard = _reads(table, "a", 2000)
    assert 0 < sum(heard.values()) < 200                               # ghosts of b's card on pad a, now and then


def test_switched_fields_hear_nothing_from_the_neighbour():
    table = _row(["a", "b"], 8)
    assert table.plan.fields == "switched" and "closer than" in table.plan.why
    events = []
    table.start(events.append, background=False)
    table.chips["b"].place(table.tag(A))
    for _ in range(200):
        table.poll_cycle()
    assert [(e.pad, e.kind) for e in events] == [("b", SEEN)] and not table.conflicts()


def test_no_cross_talk_when_the_neighbours_field_is_off():
    """Reader a with its field on, b's off: b's tag has no power, a (too far to power it) hears nothing."""
    table = _row(["a", "b"], 8, fields="on")
    table.start(lambda ev: None, background=False)
    table.chips["b"].place(table.tag(A))
    next(r for r in table.readers if r.pad == "b").pcd.antenna(False)
    assert _reads(table, "a", 100) == {}


def test_pads_far_apart_keep_their_fields_on_and_do_not_cross_talk():
    table = _row(["a", "b"], 12)
    assert table.plan.fields == "on"
    table.start(lambda ev: None, background=False)
    table.chips["b"].place(table.tag(A))
    assert _reads(table, "a", 100) == {}


def test_a_card_across_two_pads_is_a_conflict_with_switched_fields_too():
    table = _row(["a", "b"], 8)
    table.start(lambda ev: None, background=False)
    tag = table.tag(A)
    table.chips["a"].place(tag)
    table.chips["b"].place(tag)
    settle(table, table.model)
    assert [c.pads for c in table.conflicts()] == [("a", "b")]


# ---- power-up -----------------------------------------------------------------------------

def _bare_reader(physics):
    clock = ModelClock()
    chip = EmulatedRC522(clock, physics=physics)
    pcd = Pcd(Mfrc522Transport(chip, sleep=clock.sleep))
    pcd.init()
    return clock, chip, pcd


def test_a_tag_answers_only_after_its_power_up_time():
    """ISO/IEC 14443-3: a PICC must accept REQA within 5 ms of field-on, so the PCD waits 5.1 ms."""
    clock, chip, pcd = _bare_reader(Physics(seed=4))
    chip.place(VirtualTag(A))
    answered_at_once = 0
    for _ in range(50):
        pcd.antenna(False)
        pcd.antenna(True)
        answered_at_once += pcd.request() is not None          # no wait after field-on
    assert answered_at_once == 0
    for _ in range(50):
        pcd.antenna(False)
        pcd.antenna(True)
        clock.sleep(GUARD_S)
        assert pcd.request() is not None


def test_a_switched_reader_waits_the_guard_time_and_never_misses_a_lone_card():
    table = _row(["a", "b", "c"], 9)
    events = []
    table.start(events.append, background=False)
    table.chips["c"].place(table.tag(A))
    for _ in range(300):
        table.poll_cycle()
    assert [(e.pad, e.kind) for e in events] == [("c", SEEN)]


def test_sleep_overshoots_like_linux_and_the_ideal_clock_does_not():
    clock, ideal = ModelClock(), ModelClock(overshoot=None)
    for c in (clock, ideal):
        c.sleep(300e-6)
    assert 375e-6 <= clock.now <= 400e-6 and ideal.now == pytest.approx(300e-6)


def test_the_same_seed_gives_the_same_world():
    runs = []
    for _ in range(2):
        table = _row(["p"], 9, seed=9)
        table.start(lambda ev: None, background=False)
        table.chips["p"].place(table.tag(A), (0, 0))
        table.chips["p"].place(table.tag(B), (0, 0))
        runs.append((_reads(table, "p", 30), table.model.now))
    assert runs[0] == runs[1]


# ---- factory memory ------------------------------------------------------------------------

@pytest.mark.parametrize("kind, cc_size, data", [
    ("ntag213", 0x12, "0103A00C340300FE"), ("ntag215", 0x3E, "0300FE00"), ("ntag216", 0x6D, "0300FE00")])
def test_factory_memory_as_nxp_ships_it(bench, kind, cc_size, data):
    """NTAG213/215/216 datasheet, memory content at delivery: CC, (Lock Control TLV,) empty NDEF TLV."""
    tag, = bench.put(A, kind=kind)
    uid = bytes.fromhex(A)
    bench.pcd.activate(uid)
    first = bench.pcd.read_pages(3)
    assert first[:4] == bytes((0xE1, 0x10, cc_size, 0x00))
    assert first[4:4 + len(data) // 2] == bytes.fromhex(data)
    pages = len(tag.memory) // 4
    assert tag.memory[(pages - 5) * 4:(pages - 4) * 4] == bytes.fromhex("000000BD")   # dynamic lock bytes
    assert tag.memory[9] == 0x48


# ---- per pad mode --------------------------------------------------------------------------

def _sams_table(mode):
    pads = ["n1", "n2"]
    table = _row(pads, 9)
    layout = Layout("sams", {"n1": "0.lane1", "n2": "0.lane2"}, {p: mode for p in pads})
    state = TableState(layout, lambda uid: {A: "sams.7h", B: "sams.8h", C: "sams.9h"}.get(uid, f"sams.{uid}"))
    changes = []
    table.start(lambda ev: changes.extend(state.feed(ev)), background=False)
    table.set_modes(layout.modes)
    return table, changes


def test_tap_pad_five_cards_in_a_row_are_five_plays_and_their_pile_means_nothing():
    table, changes = _sams_table("tap")
    uids = [f"04{n:012X}" for n in range(1, 6)]
    for uid in uids:
        table.place("n1", uid, offset=(0, 0))
    assert [(c.zone, c.present) for c in changes] == [("0.lane1", True)] * 5
    assert table.on_pad["n1"] == set()                            # every card went onto its pile


def test_tap_pad_a_stack_would_not_be_read_so_cards_are_tapped_one_by_one():
    """The reason for tap mode: the same five cards left on the pad as a stack are not read at all."""
    table, _ = _sams_table("hold")
    for n in range(1, 6):
        table.chips["n1"].place(table.tag(f"04{n:012X}"), (0, 0))
    assert sum(_reads(table, "n1", 20).values()) == 0


def test_hold_pad_one_card_and_an_offset_second_are_its_contents():
    table, changes = _sams_table("hold")
    table.place("n2", A, offset=(0, 0))
    table.place("n2", B, offset=(0, 3))
    table.lift("n2", A)
    assert [(c.card_id, c.present) for c in changes] == [("sams.7h", True), ("sams.8h", True), ("sams.7h", False)]


def test_tap_pad_ignores_the_lift_a_hold_pad_reports_it():
    layout = Layout("sams", {"t": "0.lane1", "h": "0.lane2"}, {"t": "tap", "h": "hold"})
    state = TableState(layout, lambda uid: "sams.7h")
    assert state.feed(PadEvent("t", A, SEEN))[0].present
    assert state.feed(PadEvent("t", A, GONE)) == []
    assert state.feed(PadEvent("t", A, SEEN))[0].present            # tapped again: a new card entering
    assert state.taps == {"t": 2}
    state.feed(PadEvent("h", B, SEEN))
    assert state.feed(PadEvent("h", B, GONE))[0].present is False


def test_profile_modes_and_reading_section_are_checked():
    doc = {"readers": [{"id": "r", "kind": "rc522", "bus": 0, "cs": 0, "pads": ["p"]}],
           "layouts": {"sams": {"p": {"zone": "0.lane1", "mode": "slide"}}}}
    with pytest.raises(ValueError, match="layouts.sams.p.mode: 'slide' is not one of"):
        parse_profile(doc, "t.toml")
    doc["layouts"]["sams"]["p"]["mode"] = "tap"
    doc["reading"] = {"fields": "sometimes"}
    with pytest.raises(ValueError, match="reading.fields: 'sometimes' is not one of"):
        reading_plan(parse_profile(doc, "t.toml"))


def test_a_sams_round_tapped_on_the_realistic_table_reaches_the_engine_as_before(store):
    """Tap pads end to end: the real driver, the realistic emulator, the session; each tap is one play and
    the lane keeps its cards though nothing lies on its pad (they are on the lane's pile)."""
    from companion.engine import Rng
    from companion.session import Session
    from companion.simulate import register_virtual_tags
    from companion.tags import virtual_uid
    register_virtual_tags(store, "sams")
    session = Session.start(store, "sams", {}, seed=3)
    table = EmulatedTable(list(session.table.layout.pad_to_zone))
    table.set_modes(session.table.layout.modes)
    table.start(session.handle_pad_event)
    rng = Rng(5)
    for _ in range(6):
        action = session.rules.random_action(session.state, rng)
        zone, card = session.rules.scan_for(session.state, action)
        table.place(session.table.layout.pads_of(zone)[0], virtual_uid(card))
        assert session.actions[-1] == action
    assert all(not uids for uids in table.on_pad.values())
    for action in session.actions:                  # each card is in its lane, seen by its owner
        zone = f"{action['seat']}.lane{action['lane'] + 1}"
        assert action["card"] in session.view(action["seat"])["zones"][zone]["cards"]
    table.close()


@pytest.mark.parametrize("mode", ["hold", "tap"])
def test_per_mode_a_neighbour_holding_a_card_8_cm_away_is_never_heard_with_switched_fields(mode):
    """Cross-talk per pad mode: pad n1 (the mode under test) next to n2 holding a card, fields switched."""
    table, changes = _sams_table(mode)
    table.set_modes({"n1": mode, "n2": "hold"})
    table.place("n2", C)
    for n in range(1, 6):
        table.place("n1", f"04{n:012X}")
        if mode == "hold":
            table.lift("n1", f"04{n:012X}")
        for _ in range(5):
            table.poll_cycle()
    ones = [(c.card_id, c.present) for c in changes if c.pad == "n1"]
    expected = [(f"sams.04{n:012X}", True) for n in range(1, 6)]
    if mode == "hold":
        expected = [x for n in range(1, 6) for x in ((f"sams.04{n:012X}", True), (f"sams.04{n:012X}", False))]
    assert ones == expected and [c.pad for c in changes if c.card_id == "sams.9h"] == ["n2"]
    assert not table.conflicts()


@pytest.mark.parametrize("mode", ["hold", "tap"])
def test_per_mode_a_card_laid_down_as_the_field_comes_on_is_read_once(mode):
    """Power-up per pad mode: whenever in the cycle a card lands, it is reported once, never missed."""
    table, changes = _sams_table(mode)
    reader = next(r for r in table.readers if r.pad == "n1")
    for n in range(1, 21):
        uid = f"04{n:012X}"
        reader.warm()                                   # the field has just come on …
        table.chips["n1"].place(table.tag(uid), (0, 0))  # … and the card lands: it needs up to 5 ms
        poll_for(table, lambda: table.model.now, 0.15)    # a card lies 150 ms, the hands model's shortest rest
        table.chips["n1"].remove(table.tag(uid))
        settle(table, table.model)
    entered = [c.card_id for c in changes if c.present]
    assert entered == [f"sams.04{n:012X}" for n in range(1, 21)]
    assert len([c for c in changes if not c.present]) == (20 if mode == "hold" else 0)
