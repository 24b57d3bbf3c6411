"""Table profiles with readers, the table sources built from them, and recovery on a real polling loop."""
from pathlib import Path

import pytest

from companion.app_config import AppConfig
from companion.table import GONE, SEEN, ProfileError, load_profile, parse_profile
from hardware.emulator.table import EmulatedTable
from hardware.readers import gpio_cs_node, reader_specs
from hardware.simulated import SimulatedTable
from hardware.sources import open_table_source
from .conftest import settle

TABLES = Path(__file__).resolve().parents[2] / "firmware_config" / "tables"


def profile(readers, source="my-table.toml"):
    return parse_profile({"readers": readers}, source)


def rc522(id, pad, **kw):
    return {"id": id, "kind": "rc522", "pads": [pad], **kw}


@pytest.mark.parametrize("name, pads", [("table-2pad.toml", 2), ("table-10pad.toml", 10), ("table-16pad.toml", 16)])
def test_the_shipped_wiring_profiles_are_valid(name, pads):
    prof = load_profile(TABLES / name)
    specs = reader_specs(prof)
    assert len(prof.pads) == pads
    assert all(s.kind in ("rc522", "bridge") for s in specs)


def test_every_shipped_profile_with_readers_passes_the_hardware_checks():
    for path in TABLES.glob("*.toml"):
        reader_specs(load_profile(path))


def test_the_ten_pad_table_borrows_spidev1_2_for_its_gpio_chip_selects():
    specs = reader_specs(load_profile(TABLES / "table-10pad.toml"))
    assert gpio_cs_node(specs, 1) == 2
    assert {s.where() for s in specs} >= {"SPI0 CE0", "SPI1 CE1", "SPI1 with chip select on GPIO 22"}


@pytest.mark.parametrize("reader, words", [
    (rc522("a", "p", bus=2, cs=0), "bus must be 0 or 1"),
    (rc522("a", "p", bus=0, cs=2), "SPI0 has chip selects 0, 1"),
    (rc522("a", "p", bus=0), "either cs"),
    (rc522("a", "p", bus=0, cs=0, cs_gpio=5), "either cs"),
    (rc522("a", "p", bus=0, cs_gpio=9), "pin of an SPI bus"),
    (rc522("a", "p", bus=0, cs=0, reset_gpio=40), "reset_gpio must be a BCM pin"),
    (rc522("a", "p", bus=0, cs=0, speed=3), "unknown setting speed"),
    ({"id": "a", "kind": "rc522", "bus": 0, "cs": 0, "pads": ["p", "q"]}, "exactly one pad"),
    ({"id": "a", "kind": "nfc", "pads": ["p"]}, 'kind must be "rc522" or "bridge"'),
    ({"id": "a", "kind": "bridge", "pads": ["p"]}, "needs port"),
    ({"kind": "rc522", "pads": ["p"]}, "needs an id"),
])
def test_bad_reader_entries_are_explained_naming_file_and_reader(reader, words):
    with pytest.raises(ProfileError) as exc:
        reader_specs(profile([reader]))
    assert "my-table.toml" in str(exc.value) and words in str(exc.value)


def test_two_readers_on_one_chip_select_are_refused():
    with pytest.raises(ProfileError, match="readers a and b both use SPI0 CE0"):
        reader_specs(profile([rc522("a", "p", bus=0, cs=0), rc522("b", "q", bus=0, cs=0)]))


def test_gpio_chip_selects_share_the_last_node_when_every_hardware_one_is_taken():
    readers = [rc522(f"r{i}", f"p{i}", bus=0, cs=i) for i in range(2)] + [rc522("g", "pg", bus=0, cs_gpio=5)]
    assert gpio_cs_node(reader_specs(profile(readers)), 0) == 1


class EmulatedSpiBus:
    """Stand-in for the kernel's SPI0: spidev nodes whose transfers reach the emulated chip whose
    chip select is active (hardware CE of the node unless ``no_cs``; else the GPIO pin held low)."""

    def __init__(self, factory, model):
        from hardware.emulator import EmulatedRC522
        self.factory, self.model = factory, model
        self.by_ce = {cs: EmulatedRC522(model) for cs in (0, 1)}
        self.by_gpio = {}
        self.mode_switches = 0
        self.opened = []

    def gpio_chip(self, pin):
        from hardware.emulator import EmulatedRC522
        return self.by_gpio.setdefault(pin, EmulatedRC522(self.model))

    def open(self, bus, cs, speed_hz=0, no_cs=False):
        bus_ = self

        class Node:
            def __init__(self):
                self._no_cs = no_cs
                self.closed = False

            @property
            def no_cs(self):
                return self._no_cs

            @no_cs.setter
            def no_cs(self, value):
                bus_.mode_switches += 1
                self._no_cs = value

            def xfer2(self, data):
                if not self._no_cs:
                    return bus_.by_ce[cs].xfer2(data)
                low = [p for p, chip in bus_.by_gpio.items() if bus_.factory.pin(p).state is False
                       and bus_.factory.pin(p).function == "output"]
                assert len(low) == 1, "exactly one GPIO chip select must be active"
                return bus_.by_gpio[low[0]].xfer2(data)

            def close(self):
                self.closed = True

        node = Node()
        self.opened.append(node)
        return node


def test_hardware_and_gpio_chip_selects_on_one_bus_reach_the_right_readers(monkeypatch):
    """SPI0 CE0, CE1 and a GPIO chip select on the same bus (as Sam's 10-pad table wires it)."""
    from gpiozero.pins.mock import MockFactory
    import hardware.readers as readers
    from hardware.emulator import ModelClock, VirtualTag
    factory, model = MockFactory(), ModelClock()
    bus = EmulatedSpiBus(factory, model)
    monkeypatch.setattr(readers, "open_spidev", bus.open)
    prof = profile([rc522("a", "pa", bus=0, cs=0, reset_gpio=25), rc522("b", "pb", bus=0, cs=1, reset_gpio=25),
                    rc522("g", "pg", bus=0, cs_gpio=22, reset_gpio=25)])
    bus.gpio_chip(22)
    for chip, uid in ((bus.by_ce[0], "A1B2C3D4"), (bus.by_ce[1], "04A1B2C3D4E5F6"), (bus.by_gpio[22], "C0FFEE01")):
        chip.place(VirtualTag(uid))
    table, problems = readers.open_profile_table(prof, pin_factory=factory)
    assert problems == [] and len(bus.opened) == 2            # spidev0.0 and spidev0.1, the latter shared
    for r in table.readers:
        r.transport._sleep = model.sleep
    events = []
    table.clock = lambda: model.now                           # the debouncer's windows in modelled time
    table.start(events.append, background=False)
    settle(table, model)
    assert sorted((e.pad, e.uid) for e in events) == [("pa", "A1B2C3D4"), ("pb", "04A1B2C3D4E5F6"), ("pg", "C0FFEE01")]
    assert bus.mode_switches >= 2
    table.close()
    assert all(node.closed for node in bus.opened)


def test_no_spi_here_falls_back_to_the_simulated_table_and_says_why(tmp_path):
    config = AppConfig(data_dir=tmp_path, profile_path=TABLES / "table-2pad.toml", sim=False)
    source = open_table_source(config)
    assert source.simulated and source.pads == ["n-attacker", "s-attacker"]
    (line,) = source.status()
    assert "/dev/spidev0.0 does not exist" in line["detail"] and "dtparam=spi=on" in line["detail"]
    source.close()


def test_sim_and_no_profile_give_the_emulated_simulated_table(tmp_path):
    for config in (AppConfig(tmp_path, TABLES / "table-2pad.toml", sim=True), AppConfig(tmp_path, None, sim=False)):
        source = open_table_source(config)
        assert isinstance(source, EmulatedTable)
        assert "simulated table" in source.status()[0]["detail"]
        source.close()


def test_the_emulated_table_keeps_the_simulated_table_interface():
    """place/lift/start/status/close as SimulatedTable, events before place/lift return, same PadEvents."""
    for table in (SimulatedTable(["p1", "p2"]), EmulatedTable(["p1", "p2"])):
        events = []
        table.start(events.append)
        table.place("p1", "04A1B2C3D4E5F6")
        table.place("p1", "04A1B2C3D4E5F6")       # already there: nothing new
        table.lift("p1", "04A1B2C3D4E5F6")
        table.lift("p1", "04A1B2C3D4E5F6")
        assert [(e.pad, e.uid, e.kind) for e in events] == [
            ("p1", "04A1B2C3D4E5F6", SEEN), ("p1", "04A1B2C3D4E5F6", GONE)]
        assert table.status()[0]["ok"]
        table.close()


def test_the_emulated_table_reports_a_card_across_two_pads_as_a_conflict():
    table = EmulatedTable(["p1", "p2"])
    events = []
    table.start(events.append)
    table.place("p1", "04A1B2C3D4E5F6")
    table.place("p2", "04A1B2C3D4E5F6")
    assert len(events) == 1
    assert [c.pads for c in table.conflicts()] == [("p1", "p2")]
    assert any(s["kind"] == "conflict" and "p1 and p2" in s["detail"] for s in table.status())
    table.lift("p1", "04A1B2C3D4E5F6")
    assert [(e.pad, e.kind) for e in events[1:]] == [("p1", GONE), ("p2", SEEN)]
    table.close()


def _two_reader_table():
    from hardware.emulator import ModelClock
    model = ModelClock()
    prof = profile([rc522("one", "p1", bus=0, cs=0, reset_gpio=25), rc522("two", "p2", bus=0, cs=1, reset_gpio=25)])
    table = EmulatedTable.from_profile(prof, model=model, clock=lambda: model.now)
    events = []
    table.start(events.append)
    table.chips["p1"].place(table.tag("04A1B2C3D4E5F6"))
    table.chips["p2"].place(table.tag("A1B2C3D4"))
    settle(table, model)
    assert len(events) == 2
    return table, model, events


def test_a_wedged_reader_is_reset_through_the_shared_line_and_nobody_sees_a_card_leave():
    """Reader two answers garbage: it is pulsed on its reset line at once, and reader one, on the same
    line, is initialised again; both pads keep their cards."""
    table, model, events = _two_reader_table()
    one, two = table.readers
    table.chips["p2"].faults.wedged = True
    for _ in range(5):
        table.poll_cycle()
    assert two.faults == 1 and two.recoveries == 1 and two.ok and one.ok
    assert table.chips["p1"].hard_resets == 1 and table.chips["p2"].hard_resets == 1
    assert events[2:] == []
    table.close()


def test_a_dead_reader_stays_reported_and_is_retried_once_a_second():
    """A reader that reads 0x00 (power or MISO) gives no information: its card is not reported gone."""
    table, model, events = _two_reader_table()
    one, two = table.readers
    table.chips["p2"].faults.dead = True
    for _ in range(20):
        table.poll_cycle()
    assert not two.ok and "version register reads 0x00" in two.detail
    assert two.recoveries == 1                       # modelled time is short: one attempt so far
    model.sleep(1.0)
    table.poll_cycle()
    assert two.recoveries == 2
    assert any(s["id"] == "two" and not s["ok"] for s in table.reader_status())
    table.chips["p2"].faults.dead = False            # the wire is fixed
    model.sleep(1.0)
    table.poll_cycle()
    assert two.ok and events[2:] == []
    table.close()


def test_a_reader_that_never_answers_says_what_to_check():
    specs_profile = profile([rc522("north-attacker", "p1", bus=0, cs=0, reset_gpio=25)])
    table = EmulatedTable.from_profile(specs_profile)
    table.chips["p1"].faults.dead = True
    table.start(lambda e: None)
    detail = table.readers[0].detail
    assert detail == ("reader north-attacker on SPI0 CE0 does not answer: version register reads 0x00 — "
                      "check 3.3 V, GND and the MISO wire")
    table.close()


def test_a_simulated_pile_holds_more_cards_than_a_real_field():
    """In the ideal world a pile of 20 virtual tags on one pad is reported whole (the realistic one needs
    a tap pad: tests/hardware/test_physics.py)."""
    from companion.tags import virtual_uid
    from hardware.emulator.physics import Physics
    table = EmulatedTable(["discard"], physics=Physics(ideal=True))
    events = []
    table.start(events.append)
    uids = [virtual_uid(f"sams/{n:03d}") for n in range(20)]
    for uid in uids:
        table.place("discard", uid)
    assert sorted(e.uid for e in events) == sorted(uids) and table.on_pad["discard"] == set(uids)
    table.close()


def test_a_malformed_uid_is_refused_in_words():
    from companion.tags import BadUid
    table = EmulatedTable(["p1"])
    with pytest.raises(BadUid, match="tags have 4, 7 or 10"):
        table.place("p1", "0102")
    table.close()


def test_a_profile_whose_readers_answer_gives_a_polled_table_that_runs_in_the_background(monkeypatch, tmp_path):
    """open_table_source → PolledTable on (stand-in) spidev; its worker thread turns a placement into an event."""
    import threading
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory
    import hardware.readers as readers
    from hardware.emulator import ModelClock, VirtualTag
    from hardware.polling import PolledTable
    factory, model = MockFactory(), ModelClock()
    bus = EmulatedSpiBus(factory, model)
    monkeypatch.setattr(readers, "open_spidev", bus.open)
    monkeypatch.setattr(Device, "pin_factory", factory)
    config = AppConfig(data_dir=tmp_path, profile_path=TABLES / "table-2pad.toml", sim=False)
    source = open_table_source(config)
    assert isinstance(source, PolledTable) and not source.simulated
    assert [s["ok"] for s in source.status()] == [True, True]
    got = threading.Event()
    events = []
    source.start(lambda ev: (events.append(ev), got.set()))
    bus.by_ce[1].place(VirtualTag("04A1B2C3D4E5F6"))
    assert got.wait(5)
    assert (events[0].pad, events[0].kind) == ("s-attacker", SEEN)
    source.close()
    assert factory.pin(25).function == "input"        # the reset line was released on close


def test_the_profile_sets_the_spi_clock_and_the_driver_opens_the_bus_at_it(monkeypatch):
    """[reading] spi_hz (issue 23): long ribbons want a slower clock; a value the RC522 cannot take is refused."""
    from gpiozero.pins.mock import MockFactory
    import hardware.readers as readers
    from hardware.emulator import ModelClock
    factory, model = MockFactory(), ModelClock()
    bus = EmulatedSpiBus(factory, model)
    speeds = []
    monkeypatch.setattr(readers, "open_spidev", lambda b, cs, hz: speeds.append(hz) or bus.open(b, cs, hz))
    doc = {"readers": [rc522("a", "pa", bus=0, cs=0, reset_gpio=25)], "reading": {"spi_hz": 1_000_000}}
    prof = parse_profile(doc, "t.toml")
    table, problems = readers.open_profile_table(prof, pin_factory=factory)
    assert problems == [] and speeds == [1_000_000]
    table.close()
    doc["reading"]["spi_hz"] = 20_000_000
    with pytest.raises(ProfileError, match="spi_hz must be a whole number of Hz from 100_000 to 10_000_000"):
        readers.reading_plan(parse_profile(doc, "t.toml"))


def test_a_pad_coming_due_is_warmed_while_the_one_before_it_is_read_so_its_read_out_of_turn_starts_at_once():
    """Switched fields: when a card's settle window is about to run out, its pad's field goes on while another
    pad is read, so the out-of-turn read (poll_due) that counts the card does not wait out the 5.1 ms guard."""
    from hardware.debounce import SETTLE_S
    from hardware.emulator import ModelClock
    from hardware.emulator.physics import Physics
    from hardware.readers import GUARD_S, ReadingPlan
    model = ModelClock(overshoot=None)
    plan = ReadingPlan("switched", {p: (20.0 * i, 0.0) for i, p in enumerate("abcdefgh")}, "20 cm apart")
    table = EmulatedTable(list("abcdefgh"), model=model, physics=Physics(ideal=True), plan=plan)
    table.start(lambda ev: None)
    a, b, h = (next(r for r in table.readers if r.pad == p) for p in "abh")    # h: beyond the warm-ahead of a
    table.chips["h"].place(table.tag("04A1B2C3D4E5F6"))
    table.poll_reader(h)
    first = model.now
    model.sleep(0.01)
    began = model.now
    table.poll_reader(h)                                   # read again within its window: it will come due
    cold = model.now - began                               # its field off until now: the guard, then the frames
    model.sleep(first + SETTLE_S - 0.005 - model.now)
    assert not table.chips["h"].field_on
    table.poll_reader(a, after=b)                          # h comes due during this read: its field goes on
    assert table.chips["h"].field_on
    model.sleep(max(0.0, first + SETTLE_S - model.now))
    began = model.now
    events = table.poll_due()
    assert model.now - began < cold - 0.8 * GUARD_S         # the same frames, without the guard
    assert [(e.pad, e.kind) for e in events] == [("h", SEEN)]
