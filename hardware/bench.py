"""`companion bench rfid`: the reader stack's speed, in the emulator's modelled time and SPI transactions.

Everything runs the real driver (``hardware.rc522``), the real debouncer and
the real polling loop against :mod:`hardware.emulator`, whose time model
charges each SPI transaction a host overhead representative of a Raspberry
Pi 4 (:data:`hardware.emulator.chip.HOST_OVERHEAD_S`) plus the bytes at 4 MHz,
and every RF frame its duration at 106 kbit/s.  Figures are therefore what a
Pi 4 would see with real RC522s, to the accuracy of that model; transaction
counts are exact and let anyone recompute the time for another overhead.
``seconds`` bounds the wall-clock time of the repeatable measurements.
"""
from __future__ import annotations

import platform
import random
import time

from hardware.emulator.chip import HOST_OVERHEAD_S, SPI_HZ, EmulatedRC522, ModelClock
from hardware.emulator.table import EmulatedTable
from hardware.emulator.tags import VirtualTag
from hardware.readers import ReaderSpec
from hardware.rc522.pcd import Pcd
from hardware.rc522.transport import Mfrc522Transport


def _uid7(n: int) -> str:
    return "04%012X" % (0x5A3B00000000 + n * 7919)


def _one_reader(tags=(), faults=None):
    clock = ModelClock()
    chip = EmulatedRC522(clock, faults=faults)
    pcd = Pcd(Mfrc522Transport(chip, sleep=clock.sleep))
    pcd.init()
    for tag in tags:
        chip.place(tag)
    return clock, chip, pcd


def _measure(clock, fn, repeat):
    t0, n0 = clock.now, clock.transactions
    for _ in range(repeat):
        fn()
    return round((clock.now - t0) / repeat * 1000, 4), round((clock.transactions - n0) / repeat, 2)


def empty_pad_poll(repeat: int = 200) -> dict:
    clock, chip, pcd = _one_reader()
    pcd.inventory([])
    ms, tx = _measure(clock, lambda: pcd.inventory([]), repeat)
    return {"ms": ms, "transactions": tx, "aim": "<= 2 ms and <= 15 transactions"}


def tags_on_a_pad(max_tags: int = 8, repeat: int = 20) -> dict:
    """A pad with 1…8 stacked 7-byte tags: the steady-state poll, and the first poll that discovers them."""
    rows = {}
    for n in range(1, max_tags + 1):
        tags = [VirtualTag(_uid7(i)) for i in range(n)]
        clock, chip, pcd = _one_reader(tags)
        t0, n0 = clock.now, clock.transactions
        known = pcd.inventory([])
        discover = (round((clock.now - t0) * 1000, 3), clock.transactions - n0)
        assert len(known) == n, f"inventory found {len(known)} of {n} tags"
        ms, tx = _measure(clock, lambda: pcd.inventory(known), repeat)
        rows[str(n)] = {"steady_ms": ms, "steady_transactions": tx,
                        "discovery_ms": discover[0], "discovery_transactions": discover[1]}
    one, many = rows["1"], rows[str(max_tags)]
    per_tag = round((many["steady_ms"] - one["steady_ms"]) / (max_tags - 1), 3)
    per_tag_tx = round((many["steady_transactions"] - one["steady_transactions"]) / (max_tags - 1), 2)
    return {"per_extra_tag_ms": per_tag, "per_extra_tag_transactions": per_tag_tx, "by_count": rows}


def _sixteen_pad_table() -> EmulatedTable:
    specs = [ReaderSpec(f"r{i}", "rc522", (f"pad{i}",), bus=0, cs=0, reset_gpio=25) for i in range(16)]
    model = ModelClock()
    table = EmulatedTable(specs=specs, model=model, clock=lambda: model.now)
    table.start(lambda ev: None)
    return table


def full_cycle_16_pads(repeat: int = 20) -> dict:
    table = _sixteen_pad_table()
    for i in range(16):
        table.chips[f"pad{i}"].place(table.tag(_uid7(i)))
    table.poll_cycle()
    ms, tx = _measure(table.model, table.poll_cycle, repeat)
    table.close()
    return {"ms": ms, "transactions": tx, "cards": 16, "aim": "<= 80 ms"}


def latency(trials: int = 40, seed: int = 7) -> dict:
    """Placement → ``seen`` and removal → ``gone`` on a 16-pad table with a card on every other pad.

    The card is put down or lifted at a random moment of the polling cycle.
    """
    rng = random.Random(seed)
    table = _sixteen_pad_table()
    for i in range(1, 16):
        table.chips[f"pad{i}"].place(table.tag(_uid7(i)))
    for _ in range(3):
        table.poll_cycle()
    moving = table.tag(_uid7(99))
    place, lift = [], []
    for _ in range(trials):
        for kind, samples in (("seen", place), ("gone", lift)):
            start_at = rng.randrange(16)
            for r in table.readers[:start_at]:
                table.poll_reader(r)
            began = table.model.now
            if kind == "seen":
                table.chips["pad0"].place(moving)
            else:
                table.chips["pad0"].remove(moving)
            events = []
            order = table.readers[start_at:] + table.readers * 20
            for r in order:
                events += [e for e in table.poll_reader(r) if e.uid == moving.uid_hex and e.kind == kind]
                if events:
                    break
            samples.append(events[0].t - began)
            # finish the cycle so the next trial starts at pad 0 again
            for r in table.readers[table.readers.index(r) + 1:]:
                table.poll_reader(r)
    table.close()

    def summary(xs):
        xs = sorted(xs)
        return {"mean_ms": round(sum(xs) / len(xs) * 1000, 2), "max_ms": round(xs[-1] * 1000, 2)}

    return {"placement_to_event": {**summary(place), "aim": "<= 150 ms"},
            "removal_to_event": {**summary(lift), "aim": "<= 400 ms"},
            "misses_to_remove": table.debouncer.misses_to_remove, "trials": trials}


def spurious_events(polls: int = 10_000, miss_rate: float = 0.2, seed: int = 3) -> dict:
    """Four pads (a 4-, a 7-, a 10-byte tag, and three stacked tags) never touched, 20 % of reads missed."""
    model = ModelClock()
    specs = [ReaderSpec(f"r{i}", "rc522", (f"pad{i}",), bus=0, cs=0, reset_gpio=25) for i in range(4)]
    table = EmulatedTable(specs=specs, model=model, clock=lambda: model.now)
    events = []
    table.start(events.append)
    layout = {"pad0": ["A1B2C3D4"], "pad1": [_uid7(1)], "pad2": ["0411223344556677889A"],
              "pad3": [_uid7(2), _uid7(3), "C0FFEE01"]}
    for pad, uids in layout.items():
        for uid in uids:
            table.chips[pad].place(table.tag(uid))
    table.poll_cycle()
    settled = len(events)
    for i, chip in enumerate(table.chips.values()):
        chip.faults.miss_rate = miss_rate
        chip.faults.rng.seed(seed + i)
    cycles = polls // len(specs)
    for _ in range(cycles):
        table.poll_cycle()
    table.close()
    spurious = events[settled:]
    return {"polls": cycles * len(specs), "tags": sum(len(u) for u in layout.values()), "miss_rate": miss_rate,
            "miss_means": "a tag stays silent for one REQA/WUPA round; the driver retries a known tag "
                          "up to 3 times per poll",
            "placements_at_start": settled, "spurious_events": len(spurious), "aim": 0}


def bench_rfid(seconds: float = 2.0) -> dict:
    began = time.perf_counter()
    result = {
        "machine": {"python": platform.python_version(), "cpu": platform.processor() or platform.machine()},
        "model": {"host_overhead_us_per_transaction": HOST_OVERHEAD_S * 1e6, "spi_hz": SPI_HZ,
                  "rf": "106 kbit/s, FDT 86.4 us, timer 25 us ticks", "time": "modelled (emulator), not wall clock"},
        "empty_pad_poll": empty_pad_poll(),
        "tags_on_one_pad": tags_on_a_pad(),
        "full_cycle_16_pads_one_card_each": full_cycle_16_pads(),
    }
    result.update(latency(trials=max(10, int(20 * seconds))))
    result["spurious_with_missed_reads"] = spurious_events()
    result["wall_clock_s"] = round(time.perf_counter() - began, 2)
    return result
