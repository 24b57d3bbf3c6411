"""Debouncing raw polls into PadEvents: placements at once, removals only when sure, conflicts reported."""
import random

from companion.table import GONE, SEEN
from hardware.debounce import Debouncer
from hardware.emulator import ModelClock
from hardware.emulator.physics import Physics
from hardware.emulator.table import EmulatedTable
from hardware.readers import ReaderSpec

A, B = "04A1B2C3D4E5F6", "A1B2C3D4"


def kinds(events):
    return [(e.pad, e.uid, e.kind) for e in events]


def test_a_placement_is_reported_after_one_clean_read():
    d = Debouncer()
    assert kinds(d.feed("p1", [A], 1.0)) == [("p1", A, SEEN)]
    assert d.feed("p1", [A], 1.1) == []


def test_a_removal_needs_consecutive_misses():
    d = Debouncer(misses_to_remove=3)
    d.feed("p1", [A], 0.0)
    assert d.feed("p1", [], 0.1) == [] and d.feed("p1", [], 0.2) == []
    assert kinds(d.feed("p1", [], 0.3)) == [("p1", A, GONE)]


def test_flicker_shorter_than_the_threshold_is_invisible():
    d = Debouncer(misses_to_remove=3)
    d.feed("p1", [A], 0.0)
    for t, uids in enumerate([[], [], [A], [], [A], [], []]):
        assert d.feed("p1", uids, t) == []


def test_a_card_on_two_pads_at_once_is_a_conflict_not_two_cards():
    reports = []
    d = Debouncer(on_conflict=reports.append)
    d.feed("p1", [A], 0.0)
    assert d.feed("p2", [A], 0.1) == []                  # no second 'seen'
    assert [c.pads for c in d.conflicts()] == [("p1", "p2")]
    assert "p1 and p2" in reports[0].message() and not reports[0].resolved
    # it comes off p1: resolved, and it moves to p2
    events = d.feed("p1", [], 0.2)
    assert kinds(events) == [("p1", A, GONE), ("p2", A, SEEN)]
    assert reports[-1].resolved and d.conflicts() == []


def test_a_card_slid_to_the_next_pad_moves_at_once():
    d = Debouncer()
    d.feed("p1", [A], 0.0)
    d.feed("p1", [], 0.1)                                # p1 lost it ...
    assert kinds(d.feed("p2", [A], 0.2)) == [("p1", A, GONE), ("p2", A, SEEN)]   # ... p2 has it


def test_card_ids_travel_with_the_events():
    d = Debouncer()
    (ev,) = d.feed("p1", [A], 0.0, {A: "sams/042"})
    assert ev.card_id == "sams/042"


def test_with_half_the_polls_missed_every_run_of_three_misses_is_a_removal():
    """Hand-checked: with 50 % of polls missing, a run of 3 misses happens; the debouncer reports exactly those."""
    rng = random.Random(5)
    d = Debouncer(misses_to_remove=3)
    present, run, expected, reported = False, 0, 0, 0
    for t in range(2000):
        hit = rng.random() < 0.5
        events = d.feed("p1", [A] if hit else [], t)
        reported += len(events)
        if hit:
            run = 0
            if not present:
                expected += 1
                present = True
        else:
            run += 1
            if present and run == 3:
                expected += 1
                present = False
        assert len(events) in (0, 1)
    assert expected > 10 and reported == expected


def test_ten_thousand_polls_with_a_fifth_of_reads_missed_give_no_spurious_event():
    """The issue's figure, through the real driver and the emulator: 20 % missed reads, 10,000 polls, 0 events."""
    model = ModelClock()
    specs = [ReaderSpec(f"r{i}", "rc522", (f"pad{i}",), bus=0, cs=0, reset_gpio=25) for i in range(2)]
    # the debouncer's figure, in the ideal world: stacked tags that always couple (test_physics has the real one)
    table = EmulatedTable(specs=specs, model=model, clock=lambda: model.now, physics=Physics(ideal=True))
    events = []
    table.start(events.append)
    table.chips["pad0"].place(table.tag(A))
    for uid in (B, "0411223344556677889A"):
        table.chips["pad1"].place(table.tag(uid))
    table.poll_cycle()
    assert len(events) == 3
    for i, chip in enumerate(table.chips.values()):
        chip.faults.miss_rate = 0.2
        chip.faults.rng.seed(11 + i)
    for _ in range(5000):
        table.poll_cycle()
    assert events[3:] == []
    table.close()
