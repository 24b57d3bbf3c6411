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
    order = table.poll_order()
    n = len(order)

    def poll(k):                                 # as PolledTable.poll_cycle: each reader, then any pad due
        return table.poll_reader(order[k % n], after=order[(k + 1) % n]) + table.poll_due()
    place, lift = [], []
    for _ in range(trials):
        for kind, samples in (("seen", place), ("gone", lift)):
            start_at = rng.randrange(n)
            for k in range(start_at):
                poll(k)
            began = table.model.now
            if kind == "seen":
                table.chips["pad0"].place(moving)
            else:
                table.chips["pad0"].remove(moving)
            events = []
            k = start_at
            while not events and k < start_at + 20 * n:
                events += [e for e in poll(k) if e.uid == moving.uid_hex and e.kind == kind]
                k += 1
            samples.append(events[0].t - began)
            while k % n:                         # finish the cycle so the next trial starts at its beginning
                poll(k)
                k += 1
    table.close()

    def summary(xs):
        xs = sorted(xs)
        return {"mean_ms": round(sum(xs) / len(xs) * 1000, 2), "max_ms": round(xs[-1] * 1000, 2)}

    return {"placement_to_event": {**summary(place), "aim": "<= 150 ms"},
            "removal_to_event": {**summary(lift), "aim": "<= 450 ms (the 350 ms lift window that lets a fumble "
                                                         "pass, and a cycle)"},
            "settle_ms": table.debouncer.settle_s * 1000, "lift_ms": table.debouncer.lift_s * 1000,
            "trials": trials}


def spurious_events(polls: int = 10_000, miss_rate: float = 0.2, seed: int = 3) -> dict:
    """Four pads (a 4-, a 7-, a 10-byte tag, and three stacked tags) never touched, 20 % of reads missed."""
    model = ModelClock()
    specs = [ReaderSpec(f"r{i}", "rc522", (f"pad{i}",), bus=0, cs=0, reset_gpio=25) for i in range(4)]
    from hardware.emulator.physics import Physics
    # the debouncer's figure: an ideal world in which three stacked tags couple (the realistic one is below)
    table = EmulatedTable(specs=specs, model=model, clock=lambda: model.now, physics=Physics(ideal=True))
    events = []
    table.start(events.append)
    layout = {"pad0": ["A1B2C3D4"], "pad1": [_uid7(1)], "pad2": ["0411223344556677889A"],
              "pad3": [_uid7(2), _uid7(3), "C0FFEE01"]}
    for pad, uids in layout.items():
        for uid in uids:
            table.chips[pad].place(table.tag(uid))
    settle_until = model.now + table.debouncer.lift_s     # every card laid has counted by then
    while model.now < settle_until:
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


def bench_rfid(seconds: float = 2.0, plays: int = 1000) -> dict:
    """The driver's figures (ideal emulator), then every game's default table in the realistic model."""
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
    result["busy_ui_beside_polling"] = busy_ui()
    result["game_tables_realistic"] = bench_tables(plays)
    result["wall_clock_s"] = round(time.perf_counter() - began, 2)
    return result


# ---- the realistic model, per game's default table -------------------------------------------------

GAMES = ("sams", "lifeforce", "vitaluna", "territory", "arcmage")
# One spidev.xfer2 from CPython on a Pi 4: 10.7–19.3 µs in the kernel between back-to-back transfers
# (raspberrypi/linux#4567), plus about 20 µs of interpreter and driver work (see chip.HOST_OVERHEAD_S).
SPIDEV_OVERHEAD_S = {"low": 10.7e-6 + 20e-6, "high": 19.3e-6 + 20e-6}
TAP_DWELL_S = (0.3, 0.8)         # a card laid on a tap pad before it goes onto its pile (assumed, see tables.md)
HOLD_DWELL_S = (1.0, 4.0)        # a card left on a hold pad
PLAY_GAP_S = (0.05, 0.4)         # between the starts of two plays (both players, fast play)


def profile_table(profile, *, overhead: float, seed: int = 1, ideal: bool = False, fields: str | None = None
                  ) -> EmulatedTable:
    """Every pad of ``profile`` (bridge channels too) as an emulated RC522, in the realistic world.

    A bridge's readers are driven by the same ISO 14443-3 code on the Pico; they
    are modelled here with the Pico's per-transaction cost (``RP2040_TRANSFER_S``),
    polled in turn with the Pi's own readers.
    """
    from hardware.emulator.physics import Physics
    from hardware.readers import ReadingPlan, reading_plan
    specs = [ReaderSpec(f"r-{pad}", "rc522", (pad,), bus=0, cs=0, reset_gpio=25) for pad in profile.pads]
    model = ModelClock(seed=seed, overshoot=None if ideal else (75e-6, 100e-6))
    plan = reading_plan(profile)
    if fields is not None:
        plan = ReadingPlan(fields, plan.positions, "forced by the benchmark")
    table = EmulatedTable(specs=specs, model=model, clock=lambda: model.now, plan=plan,
                          physics=Physics(ideal=ideal, seed=seed), host_overhead=overhead)
    from hardware.emulator.chip import RP2040_TRANSFER_S
    from hardware.emulator.pico import pinmap_fields
    bridge_switched = pinmap_fields() == "switched"      # what the shipped firmware does, whatever the profile says
    from hardware.readers import spi_hz
    for chip in table.chips.values():
        chip.spi_hz = spi_hz(profile)                    # [reading] spi_hz, honoured as on the Pi
    for reader in profile.raw.get("readers", []):
        if reader.get("kind") == "bridge":
            for pad in reader.get("pads", []):
                # the Pico's MicroPython pays its own per-transaction cost; polled in turn with the Pi's
                # readers on one modelled clock, which overstates a cycle (the two poll side by side)
                table.chips[pad].host_overhead = RP2040_TRANSFER_S
                next(r for r in table.readers if r.pad == pad).switched = bridge_switched
    return table


def _cycle_ms(table, cards_on: list[str], repeat: int = 5) -> float:
    for i, pad in enumerate(cards_on):
        table.chips[pad].place(table.tag(_uid7(500 + i)))
    table.poll_cycle()
    ms, _ = _measure(table.model, table.poll_cycle, repeat)
    for i, pad in enumerate(cards_on):
        table.chips[pad].remove(table.tag(_uid7(500 + i)))
    until = table.model.now + table.debouncer.lift_s
    while table.model.now <= until:
        table.poll_cycle()
    return ms


def simulated_plays(game: str, plays: int = 1000, overhead: float = HOST_OVERHEAD_S, seed: int = 11,
                    fields: str | None = None, piles_on_pads: bool = False) -> dict:
    """``plays`` cards played on the game's default table while the poll loop runs, in modelled time.

    A play lays a fresh card on a random pad of the layout at a random moment;
    on a ``tap`` pad it goes onto its pile after ``TAP_DWELL_S``, on a ``hold``
    pad it is lifted after ``HOLD_DWELL_S``.  Missed: no ``seen`` event for it;
    doubled: more than one; ghosts: ``seen`` on another pad than the card's.
    Placement → event and removal → event are the modelled times from the hand
    to the debounced event.  ``fields`` and ``piles_on_pads`` (tapped cards
    left on the pad as a stack) show what the table would do without its rules.
    """
    from pathlib import Path

    from companion.table import load_profile
    root = Path(__file__).resolve().parents[1]
    profile = load_profile(root / "firmware_config" / "tables" / f"{game}.toml")
    layout = profile.layout(game)
    from companion import games as registry
    rules = registry.get(game)
    layout.validate(rules.zones(rules.normalise_options({})), profile.source)
    table = profile_table(profile, overhead=overhead, seed=seed, fields=fields)
    seen: dict[str, list] = {}
    gone: dict[str, list] = {}
    ghosts = []

    def sink(ev):
        if ev.uid in kinds and ev.pad != kinds[ev.uid][0]:
            ghosts.append(ev)
            return
        (seen if ev.kind == "seen" else gone).setdefault(ev.uid, []).append(ev.t)

    kinds: dict = {}
    table.start(sink, background=False)
    full_cycle_empty = _cycle_ms(table, [])
    full_cycle_full = _cycle_ms(table, list(table.pads))
    rng = random.Random(seed)
    pads = list(layout.pad_to_zone)
    schedule = []                      # (t, action, pad, uid)
    busy_until: dict[str, float] = {}
    t = table.model.now + 0.05
    kinds.clear()
    for n in range(plays):
        t += rng.uniform(*PLAY_GAP_S)
        pad = rng.choice(pads)
        start = max(t, busy_until.get(pad, 0.0))
        mode = layout.mode_of(pad)
        dwell = rng.uniform(*(TAP_DWELL_S if mode == "tap" else HOLD_DWELL_S))
        uid = _uid7(10_000 + n)
        kinds[uid] = (pad, mode, start, start + dwell)
        schedule.append((start, 0, pad, uid))
        if not (piles_on_pads and mode == "tap"):
            schedule.append((start + dwell, 1, pad, uid))
        busy_until[pad] = start + dwell + 0.2          # the next card comes after the hand has left
    schedule.sort()
    order = table.poll_order()
    i = 0
    end = schedule[-1][0] + 1.0
    while table.model.now < end:
        for k, r in enumerate(order):
            while i < len(schedule) and schedule[i][0] <= table.model.now:
                _, action, pad, uid = schedule[i]
                if action == 0:
                    table.chips[pad].place(table.tag(uid), (rng.uniform(-1, 1), rng.uniform(-1, 1)))
                else:
                    table.chips[pad].remove(table.tag(uid))
                i += 1
            table.poll_reader(r, after=order[(k + 1) % len(order)])
            table.poll_due()                    # as PolledTable.poll_cycle
    result = {}
    for mode in ("tap", "hold"):
        uids = [u for u, k in kinds.items() if k[1] == mode]
        if not uids:
            continue
        place = [seen[u][0] - kinds[u][2] for u in uids if u in seen]
        lift = [gone[u][-1] - kinds[u][3] for u in uids if u in gone and gone[u][-1] >= kinds[u][3]]
        result[mode] = {
            "plays": len(uids),
            "missed": sum(1 for u in uids if u not in seen),
            "doubled": sum(1 for u in uids if len(seen.get(u, [])) > 1),
            "placement_to_event_ms": _summary(place),
            "removal_to_event_ms": _summary(lift),
        }
    stack = table.physics
    table.close()
    return {"pads": len(table.pads), "fields": table.plan.fields, "fields_why": table.plan.why,
            "ghost_events_on_other_pads": len(ghosts),
            "full_cycle_ms": {"empty_table": full_cycle_empty, "a_card_on_every_pad": full_cycle_full},
            "by_mode": result, "sleep_calls": table.model.sleeps,
            "stack_rounds_rolled": stack.stack_reads}


def _summary(xs) -> dict:
    if not xs:
        return {"mean": None, "max": None}
    return {"mean": round(sum(xs) / len(xs) * 1000, 1), "max": round(max(xs) * 1000, 1)}


def switched_row(pads: int = 10, overhead: float = HOST_OVERHEAD_S, spacing_cm: float = 9.0) -> dict:
    """A row of ``pads`` pads ``spacing_cm`` apart, fields switched, a card on every pad: one cycle."""
    from companion.table import parse_profile
    doc = {"readers": [{"id": f"r{i}", "kind": "rc522", "bus": 0, "cs": 0, "pads": [f"p{i}"]} for i in range(pads)],
           "reading": {"positions": {f"p{i}": [i * spacing_cm, 0] for i in range(pads)}}}
    profile = parse_profile(doc, "row")
    table = profile_table(profile, overhead=overhead)
    table.start(lambda ev: None, background=False)
    ms = _cycle_ms(table, list(table.pads))
    table.close()
    return {"pads": pads, "spacing_cm": spacing_cm, "fields": table.plan.fields, "cycle_ms_card_on_every_pad": ms,
            "aim": "<= 100 ms"}


def bench_tables(plays: int = 1000) -> dict:
    """Every game's default table at the low and the high end of the spidev overhead range."""
    out = {"model": {"spidev_overhead_us": {k: round(v * 1e6, 1) for k, v in SPIDEV_OVERHEAD_S.items()},
                     "sleep_overshoot_us": [75, 100], "tag_power_up_ms": [0.5, 5.0], "guard_ms": 5.1,
                     "tap_dwell_s": list(TAP_DWELL_S), "hold_dwell_s": list(HOLD_DWELL_S),
                     "aims": {"tap": "0 missed, 0 doubled in 1,000", "placement_to_event_max_ms": 150,
                              "switched_10_pad_cycle_ms": 100}}}
    out["switched_10_pad_row"] = {k: switched_row(overhead=v) for k, v in SPIDEV_OVERHEAD_S.items()}
    for game in GAMES:
        out[game] = {k: simulated_plays(game, plays, overhead=v) for k, v in SPIDEV_OVERHEAD_S.items()}
    few = max(50, plays // 5)
    out["sams_without_the_rules"] = {
        "fields_on_pads_9_cm_apart": simulated_plays("sams", few, fields="on"),
        "cards_left_on_the_lane_pads_as_a_stack": simulated_plays("sams", few, piles_on_pads=True),
    }
    return out


# ---- a busy UI beside the poll loop (wall clock, this machine) ----------------------------------

def _late_sleeps(n: int = 400, want: float = 300e-6) -> dict:
    """How late ``n`` sleeps of ``want`` s come back (what a poll's waits suffer), in ms."""
    lates = []
    for _ in range(n):
        t0 = time.perf_counter()
        time.sleep(want)
        lates.append(time.perf_counter() - t0 - want)
    lates.sort()
    return {"median_ms": round(lates[len(lates) // 2] * 1000, 3), "p99_ms": round(lates[int(len(lates) * .99)] * 1000, 3),
            "max_ms": round(lates[-1] * 1000, 3)}


def _child_late_sleeps(conn) -> None:
    conn.send(_late_sleeps())
    conn.close()


def busy_ui() -> dict:
    """A 300 µs sleep of the poll loop while a Python thread (a busy UI) spins: same process vs reader process."""
    import multiprocessing
    import threading
    stop = threading.Event()

    def spin():
        x = 0
        while not stop.is_set():
            x += 1
    alone = _late_sleeps()
    busy = threading.Thread(target=spin, daemon=True)
    busy.start()
    try:
        same = _late_sleeps()
        ctx = multiprocessing.get_context("forkserver")
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_child_late_sleeps, args=(child,), daemon=True)
        proc.start()
        other = parent.recv() if parent.poll(30) else None
        proc.join(5)
    finally:
        stop.set()
        busy.join()
    return {"what": "lateness of a 300 us time.sleep, wall clock on this machine", "idle": alone,
            "busy_thread_same_process": same, "busy_thread_other_process (the reader process)": other,
            "aim": "reader process: a busy UI adds <= 1 ms"}
