"""``companion bench hands``: every gesture of the hands model on every game's default table.

For each game's default profile (``firmware_config/tables/<game>.toml``) the
pads are emulated RC522s in the realistic physics, polled by the real driver
in modelled Pi 4 time — a bridge's pads (``bridge_pads`` in the output) on a
bus and clock of their own at the RP2040's cost per transfer, side by side
with the Pi's, each re-reading a pad whose new card's settle window ran out —
and :class:`~hardware.emulator.hands.Hands` makes gestures on them — on every
pad at once, as several hands do (more than two players' four hands: a busy
table's worst case) — until each kind has been made ``gestures`` times.  The debounced events go through the game's
:class:`~companion.table.TableState`, so what is counted is what the engine
would receive:

* ``played``: cards the gesture meant to play; ``missed``: no zone entry for
  one; ``doubled``: more than one entry; ``wrong_zone``: an entry on a pad it
  only crossed (or lay across);
* ``unread`` / ``announced``: cards that never entered their zone and, of
  those, how many were announced on their pad (an ``unread`` notice) while
  the gesture lasted or within a second after it — a card silently lost is
  ``unread - announced``;
* ``never_readable``: cards that never lay on their pad with fewer than two
  others (three stacked tags time out: physics.PILE_TAGS) — no reader can read
  them, so they can only be announced: the ceiling physics sets on ``missed``;
* ``placement_to_event_ms``: from the card coming to rest on its pad (or, for
  a card under a pile, from when the pile above it came off) to its zone
  entry (mean, p99, max).
"""
from __future__ import annotations

import math
import random
from pathlib import Path

from companion.table import SEEN, UNREAD, TableState, ZoneChange, load_profile
from hardware.emulator.hands import GESTURES, Hands, neighbours
from hardware.emulator.physics import PILE_TAGS

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("lifeforce", "vitaluna", "territory", "arcmage", "sams")


def _percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def _ms(xs: list[float]) -> dict:
    if not xs:
        return {"mean": None, "p99": None, "max": None}
    return {"mean": round(sum(xs) / len(xs) * 1000, 1), "p99": round(_percentile(xs, 0.99) * 1000, 1),
            "max": round(max(xs) * 1000, 1)}


def game_table(game: str, seed: int = 1):
    """The game's default table, emulated in the realistic world on modelled Pi 4 time; and its layout.

    A bridge's pads are polled on a bus and clock of their own (the Pico's, at
    the RP2040's cost per transfer), side by side with the Pi's: see
    :meth:`~hardware.emulator.table.EmulatedTable.own_bus`.
    """
    from companion import games as registry
    from hardware.bench import profile_table
    from hardware.emulator.chip import HOST_OVERHEAD_S, ModelClock
    profile = load_profile(ROOT / "firmware_config" / "tables" / f"{game}.toml")
    rules = registry.get(game)
    layout = profile.layout(game)
    layout.validate(rules.zones(rules.normalise_options({})), profile.source)
    table = profile_table(profile, overhead=HOST_OVERHEAD_S, seed=seed)
    bridge_pads = [p for r in profile.raw.get("readers", []) if r.get("kind") == "bridge" for p in r.get("pads", [])]
    if bridge_pads:
        # MicroPython's sleep_us on the RP2040 busy-waits on the microsecond timer: no Linux timer slack
        table.own_bus(bridge_pads, ModelClock(seed=seed + 1, overshoot=None))
    return table, layout, bridge_pads


class _Bus:
    """The readers one host polls in turn (the Pi's, or a bridge's), on that host's modelled clock."""

    def __init__(self, table, readers, model):
        self.table, self.model = table, model
        self.order = [r for r in table.poll_order() if r in readers]
        self.k = 0

    def step(self) -> None:
        """Poll the next reader in turn (warming the one after), then any pad whose settle window ran out."""
        order, k = self.order, self.k
        self.table.poll_reader(order[k % len(order)], after=order[(k + 1) % len(order)])
        self.k += 1
        due = set(self.table.debouncer.due(self.model.now))
        for r in order:
            if r.pad in due:
                self.table.poll_reader(r)


def _buses(table) -> list[_Bus]:
    """The Pi's readers on the table's clock; each other clock's readers (a bridge) as a bus of their own."""
    groups: dict[int, tuple] = {}
    for r in table.readers:
        model = table.bridged.get(r.pad, table.model)
        groups.setdefault(id(model), (model, []))[1].append(r)
    return [_Bus(table, readers, model) for model, readers in groups.values()]


def run_gestures(table, layout, gestures: int = 1000, seed: int = 1, kinds=GESTURES, progress=None) -> dict:
    """Make ``gestures`` of each kind on ``table`` (pads of ``layout``) while it polls; the counts per kind.

    ``progress(counts)``, if given, gets the counts of the gestures over so far after each hundred of every kind.
    """
    rng = random.Random(seed)
    pads = [p for p in layout.pad_to_zone if p in table.chips]
    positions = {p: table.plan.positions.get(p, (9.0 * i, -50.0)) for i, p in enumerate(table.pads)}
    hands = Hands(positions, {p: layout.mode_of(p) for p in pads}, seed=seed)
    state = TableState(layout, lambda uid: uid)
    entries: dict[str, list] = {}                  # uid → [(pad, t)] zone entries
    notices: dict[str, list[float]] = {}           # pad → times of unread notices

    def sink(ev):
        if ev.kind == UNREAD:
            notices.setdefault(ev.pad, []).append(ev.t)
        for s in state.feed(ev):
            if isinstance(s, ZoneChange) and s.present:
                entries.setdefault(s.uid, []).append((s.pad, ev.t))
    table.start(sink, background=False)
    for _ in range(3):
        table.poll_cycle()
    buses = _buses(table)
    for bus in buses:                              # both hosts start polling now
        bus.model.now = max(b.model.now for b in buses)
    made = {k: 0 for k in kinds}
    done: list = []
    busy: dict[str, float] = {}                    # pad → modelled time it is free again
    pending: list = []                             # moves not yet applied, sorted by time
    settle = table.debouncer.lift_s + 0.2
    told = 0
    while min(made.values()) < gestures or pending:
        if progress is not None and min(made.values()) >= told + 100:
            told += 100
            over = max(b.model.now for b in buses) - settle - 1.0
            progress(_count([g for g in done if g.end < over], entries, notices))
        bus = min(buses, key=lambda b: b.model.now)   # the host that is behind polls next
        now = bus.model.now
        if min(made.values()) < gestures:
            free = [p for p in pads if busy.get(p, 0.0) <= now]
            rng.shuffle(free)
            for pad in free:
                if busy.get(pad, 0.0) > now:
                    continue
                if min(made.values()) >= gestures:
                    break
                kind = min((k2 for k2 in kinds if made[k2] < gestures), key=lambda k2: (made[k2], rng.random()))
                other = next((p for p in neighbours(positions, pad) if p in pads and busy.get(p, 0.0) <= now), None)
                if kind in ("drag", "across") and (other is None or math.dist(positions[pad], positions[other]) > 15):
                    continue                   # a card lies across, or is slid over, a pad next to this one
                start = now + rng.uniform(0.0, 0.05)
                if kind == "lay":
                    g = hands.lay(pad, start)
                elif kind == "fumble":
                    g = hands.fumble(pad, start)
                elif kind == "drag":
                    g = hands.drag(other, pad, start)
                elif kind == "slap":
                    g = hands.slap(pad, start)
                elif kind == "pile":
                    g = hands.pile(pad, start)
                else:
                    g = hands.across(other, pad, start)
                g.kind = kind
                made[kind] += 1
                done.append(g)
                for p in {pad, other} if kind in ("drag", "across") else {pad}:
                    busy[p] = g.end + settle
                pending.extend(g.moves)
            pending.sort(key=lambda m: m.t)
        # apply every move due by now, then poll one reader of the host that is behind
        while pending and pending[0].t <= now:
            m = pending.pop(0)
            chip = table.chips[m.pad]
            tag = table.tag(m.uid)
            if m.on:
                chip.place(tag, m.offset)
            else:
                chip.remove(tag)
        bus.step()
    end = max(b.model.now for b in buses) + settle
    while min(b.model.now for b in buses) < end:
        min(buses, key=lambda b: b.model.now).step()
    return _count(done, entries, notices)


def _readable_from(g, uid: str, pad: str, placed: float) -> float | None:
    """When ``uid`` first lay on ``pad`` (from ``placed``) with too few cards there to make a pile; None: never.

    Three stacked tags time out whatever the reader does (physics.PILE_TAGS):
    a card that only ever lay on a pile cannot be read by any table — it can
    only be announced.
    """
    on: set[str] = set()
    moves = sorted((m for m in g.moves if m.pad == pad), key=lambda m: (m.t, m.on))
    for i, m in enumerate(moves):
        (on.add if m.on else on.discard)(m.uid)
        until = moves[i + 1].t if i + 1 < len(moves) else float("inf")
        if uid in on and len(on) < PILE_TAGS and until > max(m.t, placed):
            return max(m.t, placed)
    return None


def _count(done, entries, notices) -> dict:
    out = {}
    for kind in {g.kind for g in done}:
        gs = [g for g in done if g.kind == kind]
        played = missed = doubled = wrong = unread = announced = never = 0
        latency = []
        for g in gs:
            for uid, pad, placed in g.plays:
                played += 1
                got = entries.get(uid, [])
                right = [t for p, t in got if p == pad]
                wrong += sum(1 for p, _ in got if p != pad)
                if not got:
                    missed += 1
                if len(got) > 1:
                    doubled += 1
                readable = _readable_from(g, uid, pad, placed)
                if readable is None:
                    never += 1
                if right:
                    rest_at = max((m.t for m in g.moves if m.uid == uid and m.pad == pad and m.on and m.t <= right[0]),
                                  default=placed)
                    latency.append(right[0] - max(rest_at, placed, readable or placed))
                if not got:
                    unread += 1
                    if any(g.start <= t <= g.end + 1.0 for t in notices.get(pad, [])):
                        announced += 1
        out[kind] = {"gestures": len(gs), "played": played, "missed": missed, "doubled": doubled,
                     "wrong_zone": wrong, "unread": unread, "announced": announced, "never_readable": never,
                     "placement_to_event_ms": _ms(latency)}
    return out


def bench_game(game: str, gestures: int = 1000, seed: int = 1) -> dict:
    """One game's default table: every gesture kind ``gestures`` times, counted (and the wall time it took).

    With ``COMPANION_BENCH_PARTIAL`` set to a directory, the counts so far are written there as
    ``hands-<game>.json`` every hundred gestures of each kind (a long run that is stopped still says something).
    """
    import json
    import os
    import time

    from hardware.emulator.pico import pinmap_fields
    began = time.perf_counter()
    table, layout, bridge_pads = game_table(game, seed)
    debouncer = table.debouncer
    partial = os.environ.get("COMPANION_BENCH_PARTIAL")

    def progress(counts):
        path = Path(partial) / f"hands-{game}.json"
        path.write_text(json.dumps({"game": game, "partial": True, "modelled_s": round(_modelled(table), 1),
                                    "wall_s": round(time.perf_counter() - began, 1), "by_gesture": counts}, indent=1))
    result = run_gestures(table, layout, gestures, seed, progress=progress if partial else None)
    table.close()
    return {"pads": len(table.pads), "fields": table.plan.fields, "bridge_pads": bridge_pads,
            "bridge_fields": pinmap_fields() if bridge_pads else None,
            "settle_ms": debouncer.settle_s * 1000, "lift_ms": debouncer.lift_s * 1000,
            "modelled_s": round(_modelled(table), 1), "wall_s": round(time.perf_counter() - began, 1),
            "by_gesture": result}


def _modelled(table) -> float:
    """Modelled seconds the table ran for (the latest of the Pi's clock and a bridge's)."""
    return max([table.model.now, *(m.now for m in table.bridged.values())])


def bench_hands(gestures: int = 1000, games=GAMES, seed: int = 1, processes: int | None = None) -> dict:
    """Every game's default table: the gestures, counted; the aims beside them.

    The games run in separate processes, as many at once as there are cores
    (each game's table is its own modelled world, so they share nothing).
    """
    import multiprocessing
    import os

    from hardware.bench import switched_row
    out = {"model": {"pi": "Raspberry Pi 4, modelled (hardware/emulator/chip.py)",
                     "bridge": "RP2040 cost per SPI transfer, its own bus polled beside the Pi's",
                     "gestures_per_kind": gestures,
                     "aims": {"fumble": "0 doubled", "drag": "0 wrong_zone", "slap": "0 missed, 0 doubled",
                              "pile": "0 doubled, announced == unread", "placement_to_event_p99_ms": "<= 150",
                              "switched_10_pad_row_cycle_ms": "<= 100"}},
           "games": {}}
    games = list(games)
    processes = processes or min(len(games), os.cpu_count() or 1)
    if processes > 1:
        with multiprocessing.get_context("spawn").Pool(processes) as pool:
            results = pool.starmap(bench_game, [(g, gestures, seed) for g in games])
    else:
        results = [bench_game(g, gestures, seed) for g in games]
    out["games"] = dict(zip(games, results))
    out["switched_10_pad_row"] = switched_row(10)
    return out
