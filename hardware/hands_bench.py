"""``companion bench hands``: every gesture of the hands model on every game's default table.

For each game's default profile (``firmware_config/tables/<game>.toml``) the
pads are emulated RC522s in the realistic physics, polled by the real driver
in modelled Pi 4 time — a bridge's pads (``bridge_pads`` in the output) on a
bus and clock of their own at the RP2040's cost per transfer, side by side
with the Pi's, each re-reading a pad whose new card's settle window ran out —
and :class:`~hardware.emulator.hands.Hands` makes gestures on them — as two
players taking turns do (:class:`_Players`: the active player's main hand, now
and then their other hand or the waiting player) — until each kind has been
made ``gestures`` times.  The debounced events go through the game's
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
  ``missed_split`` divides ``missed`` into those (``never_readable``), cards
  readable only for moments shorter than one read round of the host polling
  their pad (``readable_too_briefly``: REQA, anticollision and SELECT of a
  7-byte UID, :func:`read_round_s` — 5.8 ms on the modelled Pi 4, 6.3 ms on
  the RP2040, about 4.1 ms of it air time — so no poll, whenever it began,
  had the card for a whole round), and cards readable for a round or longer
  that no poll of their pad read then (``readable_not_polled``: what a
  faster reader loop could still save);
* ``placement_to_event_ms``: from the card coming to rest on its pad (or, for
  a card under a pile, from when the pile above it came off; for a pile's card
  laid again after its notice, from that lay) to its zone entry (mean, p99, max).

* ``read_when_laid_again``: cards that entered their zone only when the
  player laid them again as a notice asked (below) — counted as played, not
  missed, and their placement → event timed from that lay; ``laid_again_split``
  says why the first lay did not count them, the three ways of ``missed_split``.

A pile or a slap on a tap pad is followed up as its notice asks (the hands
model's ``pile`` and ``slap``: the cards lifted off and laid again one at a
time), but only if a notice was shown on that pad in time (while the pile lay
there; for a slap, a reaction time before the player starts): a follow-up
move (``Move.after_notice``) is dropped from its gesture otherwise, so an
unannounced card stays missed.

Slaps are made on tap pads only: a tap pad's zone is a stack, where cards
come quickly one after another; a hold pad's zone takes one card (a position,
an attacker, the play pad), so three cards there at once is a pile left on
it — the ``pile`` gesture, which is made on every pad (docs/hardware/emulator.md,
"Slaps laid again after their notice").
"""
from __future__ import annotations

import functools
import math
import random
from pathlib import Path

from companion.table import TAP, UNREAD, TableState, ZoneChange, load_profile
from hardware.emulator.hands import GESTURES, Hands, fitts_s, made_by_player, neighbours
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
    """The readers one host polls in turn (the Pi's, or a bridge's), on that host's modelled clock.

    ``min_cycle_s``: a cycle through the readers lasts at least this long, the
    rest waited out as the Pi's reader loop does (:data:`hardware.polling.MIN_CYCLE_S`);
    the bridge firmware polls on without a pause (0).
    """

    def __init__(self, table, readers, model, min_cycle_s: float = 0.0):
        self.table, self.model, self.min_cycle_s = table, model, min_cycle_s
        self.order = [r for r in table.poll_order() if r in readers]
        self.k = 0
        self.began: float | None = None       # when the current cycle began
        self.waited = False

    def step(self) -> None:
        """Poll the next reader in turn (warming the one after), then any pad whose settle window ran out.

        At the end of a cycle shorter than ``min_cycle_s`` a step only waits out the rest (so that the
        hands' moves in that time are applied before the next poll)."""
        order, k = self.order, self.k
        if k % len(order) == 0:
            spare = self.min_cycle_s - (self.model.now - self.began) if self.began is not None else 0.0
            if spare > 0 and not self.waited:
                self.model.sleep(spare)
                self.waited = True
                return
            self.began, self.waited = self.model.now, False
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
    from hardware.polling import MIN_CYCLE_S
    return [_Bus(table, readers, model, MIN_CYCLE_S if model is table.model else 0.0)
            for model, readers in groups.values()]


# Two players, turn by turn (every game of the companion is played in turns: docs/hardware/emulator.md,
# "Who acts when").  Guesses, marked as such: no published figure for card-game players fits.
TURN_GESTURES = (1, 6)      # guess: gestures the active player makes before the turn passes
SECOND_HAND_P = 0.25        # guess: the active player's other hand starts a gesture at the same time
OPPONENT_P = 0.1            # guess: the waiting player acts meanwhile (a counter, a ready pad, a fumble)


def seat_of(pad: str) -> str | None:
    """The seat whose side of the table ``pad`` lies on (the profiles name them ``n-…``/``s-…``, ``n1``/``s1``);
    None for a pad both players use (a shared pad, a deck, the hand pad)."""
    if pad[:1] in ("n", "s") and (pad[1:2] == "-" or pad[1:2].isdigit()):
        return pad[0]
    return None


class _Players:
    """Who starts a gesture when: two players taking turns, each with two hands (:data:`TURN_GESTURES` …).

    The active player's main hand makes one gesture after another, its next
    starting when the last is over plus the reach to the next pad (Fitts's
    law, :func:`~hardware.emulator.hands.fitts_s`; no thinking time — a hurried
    player, the reader's worst case).  When it starts one, the same player's
    other hand joins with probability :data:`SECOND_HAND_P` and the waiting
    player with :data:`OPPONENT_P`, each on a free pad of their own side or a
    shared one.  So one gesture is in progress most of the time, two now and
    then, and never more than four hands'.
    """

    def __init__(self, pads: list[str], rng: random.Random):
        self.rng = rng
        self.sides = {seat: [p for p in pads if seat_of(p) in (seat, None)] for seat in ("n", "s")}
        self.active = "n"
        self.turn_left = rng.randint(*TURN_GESTURES)
        self.free_at = {(seat, h): 0.0 for seat in ("n", "s") for h in (0, 1)}   # (seat, hand) → free again
        self.last_pad: dict[tuple, str] = {}

    def starters(self, now: float) -> list[tuple[tuple, str]]:
        """The hands that start a gesture now, each with its seat's pad list (main hand first)."""
        main = (self.active, 0)
        if self.free_at[main] > now:
            return []
        self.turn_left -= 1
        out = [(main, self.sides[self.active])]
        other = "s" if self.active == "n" else "n"
        if self.free_at[(self.active, 1)] <= now and self.rng.random() < SECOND_HAND_P:
            out.append(((self.active, 1), self.sides[self.active]))
        for h in (0, 1):
            if self.free_at[(other, h)] <= now and self.rng.random() < OPPONENT_P:
                out.append(((other, h), self.sides[other]))
                break
        if self.turn_left <= 0:
            self.active, self.turn_left = other, self.rng.randint(*TURN_GESTURES)
        return out

    def done(self, hand: tuple, pad: str, end: float, positions: dict) -> None:
        """``hand`` is busy until ``end``, then reaches from ``pad`` towards its next one."""
        last = self.last_pad.get(hand)
        self.last_pad[hand] = pad
        reach = fitts_s(max(1.0, math.dist(positions[last], positions[pad]))) if last else fitts_s(1.0)
        self.free_at[hand] = end + reach


def run_gestures(table, layout, gestures: int = 1000, seed: int = 1, kinds=GESTURES, progress=None,
                 crowd: str = "players") -> dict:
    """Make ``gestures`` of each kind on ``table`` (pads of ``layout``) while it polls; the counts per kind.

    ``crowd``: ``"players"`` — two players taking turns, as :class:`_Players`
    (the default: what a table meets); ``"every_pad"`` — a gesture on every
    free pad at once (more hands than two players have: a stress test).
    ``progress(counts)``, if given, gets the counts of the gestures over so far after every ten of each kind.
    """
    rng = random.Random(seed)
    pads = [p for p in layout.pad_to_zone if p in table.chips]
    positions = {p: table.plan.positions.get(p, (9.0 * i, -50.0)) for i, p in enumerate(table.pads)}
    hands = Hands(positions, {p: layout.mode_of(p) for p in pads}, seed=seed)
    rounds = {p: read_round_s(table.chips[p].host_overhead) for p in pads}   # the Pi's, or the bridge's, cost
    players = _Players(pads, rng) if crowd == "players" else None
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
    owner: dict[int, object] = {}                  # a follow-up move → its gesture
    settle = table.debouncer.lift_s + 0.2
    told = 0

    def make(pad: str, now: float):
        """Start the kind of gesture made least so far on ``pad`` (None if it needs a free neighbour it lacks)."""
        other = next((p for p in neighbours(positions, pad) if p in pads and busy.get(p, 0.0) <= now), None)
        near = other is not None and math.dist(positions[pad], positions[other]) <= 15
        # a card lies across, or is slid over, a pad next to this one; cards are slapped onto a stack's pad
        can = {"drag": near, "across": near, "slap": layout.mode_of(pad) == TAP}
        open_kinds = [k2 for k2 in kinds if made[k2] < gestures and can.get(k2, True)]
        if not open_kinds:
            return None
        kind = min(open_kinds, key=lambda k2: (made[k2], rng.random()))
        start = now + rng.uniform(0.0, 0.05)
        g = {"lay": lambda: hands.lay(pad, start), "fumble": lambda: hands.fumble(pad, start),
             "drag": lambda: hands.drag(other, pad, start), "slap": lambda: hands.slap(pad, start),
             "pile": lambda: hands.pile(pad, start), "across": lambda: hands.across(other, pad, start)}[kind]()
        g.kind = kind
        made[kind] += 1
        done.append(g)
        for p in {pad, other} if kind in ("drag", "across") else {pad}:
            busy[p] = g.end + settle
        pending.extend(g.moves)
        owner.update((id(m), g) for m in g.moves if m.after_notice is not None)
        return g

    while min(made.values()) < gestures or pending:
        if progress is not None and min(made.values()) >= told + 10:
            told += 10
            over = max(b.model.now for b in buses) - settle - 1.0
            progress(_count([g for g in done if g.end < over], entries, notices, rounds))
        bus = min(buses, key=lambda b: b.model.now)   # the host that is behind polls next
        now = bus.model.now
        if min(made.values()) < gestures:
            if players is None:
                free = [p for p in pads if busy.get(p, 0.0) <= now]
                rng.shuffle(free)
                for pad in free:
                    if min(made.values()) >= gestures:
                        break
                    if busy.get(pad, 0.0) <= now:
                        make(pad, now)
            else:
                for hand, side in players.starters(now):
                    free = [p for p in side if busy.get(p, 0.0) <= now]
                    rng.shuffle(free)
                    g = next((g for g in (make(p, now) for p in free[:4]) if g is not None), None) \
                        if min(made.values()) < gestures else None
                    if g is not None:
                        players.done(hand, g.plays[-1][1], g.end, positions)
                    else:
                        players.free_at[hand] = now + 0.05       # no free pad: look again shortly
            pending.sort(key=lambda m: m.t)
        # apply every move due by now, then poll one reader of the host that is behind
        while pending and pending[0].t <= now:
            m = pending.pop(0)
            if not made_by_player(m, notices):
                owner[id(m)].moves.remove(m)
                continue
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
    return _count(done, entries, notices, rounds)


def read_round_s(host_overhead: float) -> float:
    """The shortest time a card must lie readable for any poll to read it: one REQA, then anticollision
    and SELECT at both cascade levels of a 7-byte UID (the NTAG21x stickers, the hands model's UIDs), up to
    the last SAK — measured on one emulated RC522 at ``host_overhead`` a transaction, with ideal sleeps.

    About 4.1 ms of it is air time at 106 kbit/s (REQA and ATQA 0.36 ms; per cascade level anticollision
    0.72 ms and SELECT with its SAK 1.14 ms, each with the 86 µs reply delay), which no reader can shorten;
    the rest is the host's SPI transactions (38).  A card readable for less than this was not there for
    a whole round, whenever a poll began.
    """
    return _read_round_s(round(host_overhead, 9))


@functools.lru_cache(maxsize=None)
def _read_round_s(host_overhead: float) -> float:
    from hardware.emulator.chip import EmulatedRC522, ModelClock
    from hardware.emulator.tags import VirtualTag
    from hardware.rc522.pcd import Pcd
    from hardware.rc522.transport import Mfrc522Transport
    clock = ModelClock(overshoot=None)
    chip = EmulatedRC522(clock, host_overhead=host_overhead)
    pcd = Pcd(Mfrc522Transport(chip, sleep=clock.sleep))
    pcd.init()
    chip.place(VirtualTag("04A0B1C2D3E4F5"))
    clock.sleep(0.01)                        # powered up
    began = clock.now
    if pcd.request() is None or len(pcd.select_new()) != 7:
        raise RuntimeError("the emulated RC522 did not read a lone 7-byte tag")
    return clock.now - began


def _readable_windows(g, uid: str, pad: str, placed: float, first_lay: bool = False) -> list[tuple[float, float]]:
    """The stretches ``(from, to)`` in which ``uid`` lay on ``pad`` (from ``placed``) with too few cards there
    to make a pile (three stacked tags time out whatever the reader does: physics.PILE_TAGS); ``first_lay``:
    before any card was laid again after a notice (the gesture's own moves only)."""
    on: set[str] = set()
    out, since = [], None
    moves = [m for m in g.moves if m.pad == pad and not (first_lay and m.after_notice is not None)]
    for m in sorted(moves, key=lambda m: (m.t, m.on)):
        (on.add if m.on else on.discard)(m.uid)
        readable = uid in on and len(on) < PILE_TAGS
        if readable and since is None:
            since = m.t
        elif not readable and since is not None:
            out.append((since, m.t))
            since = None
    if since is not None:
        out.append((since, float("inf")))
    return [(max(a, placed), b) for a, b in out if b > max(a, placed)]


UNREAD_WHY = ("never_readable", "readable_too_briefly", "readable_not_polled")


def _why_unread(windows: list[tuple[float, float]], read_round: float) -> str:
    """Why a card was not read while it lay in ``windows`` (:func:`_readable_windows`): it never lay readable
    (only on a pile of three), only for moments shorter than one read round of its host, or for a round or
    longer with no poll of its pad reading it then."""
    if not windows:
        return "never_readable"
    if all(b - a < read_round for a, b in windows):
        return "readable_too_briefly"
    return "readable_not_polled"


def _count(done, entries, notices, read_round=None) -> dict:
    """The counts per gesture kind; ``read_round``: pad → :func:`read_round_s` of the host polling it."""
    read_round = read_round or {}
    out = {}
    for kind in {g.kind for g in done}:
        gs = [g for g in done if g.kind == kind]
        played = missed = doubled = wrong = unread = announced = never = 0
        missed_split = dict.fromkeys(UNREAD_WHY, 0)
        again_split = dict.fromkeys(UNREAD_WHY, 0)
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
                # a card that only ever lay on a pile cannot be read by any table, nor one readable only
                # for moments shorter than a read round: either can only be announced
                windows = _readable_windows(g, uid, pad, placed)
                readable = windows[0][0] if windows else None
                never += readable is None
                if not got:
                    missed_split[_why_unread(windows, read_round.get(pad, 0.0))] += 1
                if right:
                    rest_at = max((m.t for m in g.moves if m.uid == uid and m.pad == pad and m.on and m.t <= right[0]),
                                  default=placed)
                    latency.append(right[0] - max(rest_at, placed, readable or placed))
                    if any(m.uid == uid and m.on and m.after_notice is not None and m.t <= right[0] for m in g.moves):
                        first = _readable_windows(g, uid, pad, placed, first_lay=True)
                        again_split[_why_unread(first, read_round.get(pad, 0.0))] += 1
                if not got:
                    unread += 1
                    if any(g.start <= t <= g.end + 1.0 for t in notices.get(pad, [])):
                        announced += 1
        out[kind] = {"gestures": len(gs), "played": played, "missed": missed, "missed_split": missed_split,
                     "read_when_laid_again": sum(again_split.values()), "laid_again_split": again_split,
                     "doubled": doubled,
                     "wrong_zone": wrong, "unread": unread, "announced": announced, "never_readable": never,
                     "placement_to_event_ms": _ms(latency)}
    return out


def bench_game(game: str, gestures: int = 1000, seed: int = 1, kinds=GESTURES) -> dict:
    """One game's default table: every gesture kind ``gestures`` times, counted (and the wall time it took).

    With ``COMPANION_BENCH_PARTIAL`` set to a directory, the counts so far are written there as
    ``hands-<game>.json`` every ten gestures of each kind (a long run that is stopped still says something).
    """
    import json
    import os
    import time

    from hardware.emulator.pico import pinmap_fields
    began = time.perf_counter()
    table, layout, bridge_pads = game_table(game, seed)
    debouncer = table.debouncer
    partial = os.environ.get("COMPANION_BENCH_PARTIAL")
    if partial:
        Path(partial).mkdir(parents=True, exist_ok=True)   # a folder it names is made, not a traceback

    def progress(counts):
        path = Path(partial) / f"hands-{game}.json"
        path.write_text(json.dumps({"game": game, "partial": True, "modelled_s": round(_modelled(table), 1),
                                    "wall_s": round(time.perf_counter() - began, 1), "by_gesture": counts}, indent=1))
    result = run_gestures(table, layout, gestures, seed, kinds=kinds, progress=progress if partial else None)
    table.close()
    return {"pads": len(table.pads), "fields": table.plan.fields, "bridge_pads": bridge_pads,
            "bridge_fields": pinmap_fields() if bridge_pads else None,
            "settle_ms": debouncer.settle_s * 1000, "lift_ms": debouncer.lift_s * 1000,
            "read_round_ms": {host: round(read_round_s(cost) * 1000, 2) for host, cost in _hosts(table.pads, bridge_pads).items()},
            "modelled_s": round(_modelled(table), 1), "wall_s": round(time.perf_counter() - began, 1),
            "by_gesture": result}


def _hosts(pads, bridge_pads) -> dict:
    """Each host polling some of ``pads``, and its cost per SPI transaction (the Pi 4's; a bridge's RP2040)."""
    from hardware.emulator.chip import HOST_OVERHEAD_S, RP2040_TRANSFER_S
    return {**({"pi": HOST_OVERHEAD_S} if set(pads) - set(bridge_pads) else {}),
            **({"bridge": RP2040_TRANSFER_S} if bridge_pads else {})}


def _modelled(table) -> float:
    """Modelled seconds the table ran for (the latest of the Pi's clock and a bridge's)."""
    return max([table.model.now, *(m.now for m in table.bridged.values())])


def bench_hands(gestures: int = 1000, games=GAMES, seed: int = 1, processes: int | None = None,
                kinds=GESTURES) -> dict:
    """Every game's default table: the gestures, counted; the aims beside them.

    The games run in separate processes, as many at once as there are cores
    (each game's table is its own modelled world, so they share nothing).
    """
    import multiprocessing
    import os

    from hardware.bench import switched_row
    out = {"model": {"pi": "Raspberry Pi 4, modelled (hardware/emulator/chip.py)",
                     "bridge": "RP2040 cost per SPI transfer, its own bus polled beside the Pi's",
                     "hands": "two players taking turns: the active player's main hand, now and then their "
                              "other hand (p 0.25) or the waiting player (p 0.1); guesses, emulator.md",
                     "gestures_per_kind": gestures, "kinds": list(kinds),
                     "aims": {"fumble": "0 doubled", "drag": "0 wrong_zone", "slap": "0 missed, 0 doubled",
                              "pile": "0 doubled, announced == unread", "placement_to_event_p99_ms": "<= 150",
                              "switched_10_pad_row_cycle_ms": "<= 100"}},
           "games": {}}
    games = list(games)
    processes = processes or min(len(games), os.cpu_count() or 1)
    if processes > 1:
        with multiprocessing.get_context("spawn").Pool(processes) as pool:
            results = pool.starmap(bench_game, [(g, gestures, seed, kinds) for g in games])
    else:
        results = [bench_game(g, gestures, seed, kinds) for g in games]
    out["games"] = dict(zip(games, results))
    out["switched_10_pad_row"] = switched_row(10)
    return out
