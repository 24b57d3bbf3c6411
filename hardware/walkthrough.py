"""`companion doctor --walkthrough`: lead the builder of a table pad by pad and measure what the pads do.

Real tables are what this project cannot test itself; this is how their truth
comes back.  For every pad the builder is asked to

1. place one card: its **read rate** (polls that saw it) and **cross-talk**
   (how often the other pads read it) over ``POLLS`` poll cycles, the pad's
   poll time, and **placement → event**, measured: from the placement (the
   scripted builder knows it; for a person, from the card's first read, which
   comes at most one cycle after it lands) to the ``seen`` event;
   then **lift it and put it back at once** (a fumble): any event is wrong;
2. stack two cards: **stack reliability** (polls that saw both);
3. tap five cards in a row (lay each down, then onto a pile beside the pad):
   how many of the five became a ``seen`` event (a tap pad needs all five);
4. lay one card across this pad and its neighbour: whether the table reports
   it as a card lying across two pads;
5. slide a card across this pad onto its neighbour: it must count on the
   neighbour only (a card counts where it comes to rest).

The table's **latency** is measured per pad (step 1), not computed.  The report (JSON and Markdown, fit to
attach to a bug report) ends with what to change.

The builder is a :class:`ConsoleBuilder` (a person at the table, answering
with Enter) or a :class:`ScriptedBuilder` (the emulated table, for tests and
``--emulate``): both get the same :class:`Step` s.
"""
from __future__ import annotations

import json
import math
import platform
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from companion.outfiles import OutputError, write_text
from hardware.emulator.physics import crosstalk_p
from hardware.readers import CROSSTALK_CM

POLLS = 20
TAP_CYCLES = 60                 # poll cycles a tap step watches (a person gets TAP_SECONDS)
TAP_SECONDS = 15.0
GESTURE_SECONDS = 8.0
CARD = "04D0C70A11E5{:02X}"


@dataclass
class Step:
    kind: str                   # "one", "stack", "tap5", "across", "clear"
    pad: str
    other: str | None = None
    text: str = ""


@dataclass
class PadReport:
    pad: str
    poll_ms: float | None = None
    read_rate: float | None = None
    crosstalk: dict = field(default_factory=dict)       # other pad → polls that read this pad's card
    stack_both_rate: float | None = None
    stack_each: dict = field(default_factory=dict)
    pile_all_rate: float | None = None                   # polls that read all of three stacked cards
    pile_announced: bool | None = None                   # did the table tell the players it cannot read them
    taps_seen: int | None = None
    across: str | None = None
    placement_to_event_ms: float | None = None           # measured (see the module's docstring)
    latency_from: str | None = None                      # "placement" or "first read"
    fumble_events: int | None = None                     # events a lift-and-replace gave (should be 0)
    drag: str | None = None                              # where a card slid across this pad counted
    skipped: bool = False


class ConsoleBuilder:
    """A person at the table: each step is printed and they press Enter when done (s: skip the pad)."""

    def __init__(self, out=None, ask=input):
        self.out = out or sys.stdout
        self.ask = ask

    def prepare(self, step: Step) -> bool:
        try:
            answer = self.ask("  Enter when done (s to skip this pad): ")
        except EOFError:
            return False
        return answer.strip().lower() != "s"

    def during(self, step: Step, cycle: int) -> None:
        pass

    def finish(self, step: Step) -> None:
        pass

    def tap_window(self) -> tuple[int, float]:
        return 10_000, TAP_SECONDS

    def gesture_window(self) -> tuple[int, float]:
        """A person does the fumble or the drag after Enter, while the table is read for this long."""
        return 10_000, GESTURE_SECONDS

    def placed_at(self):
        return None                     # when a person's card landed is not known: its first read is


class ScriptedBuilder:
    """The emulated table's builder: does each step with virtual tags, the way a person would.

    ``stack_offset``: how far (cm) the second sticker of a stack lies from the
    first (0: exactly aligned, the usual case for a squared-up pile).
    """

    def __init__(self, table, stack_offset: float = 0.0):
        self.table = table
        self.stack_offset = stack_offset
        self._n = 0
        self._tapping: list[str] = []

    def _card(self) -> str:
        self._n += 1
        return CARD.format(self._n)

    def prepare(self, step: Step) -> bool:
        chips = self.table.chips
        if step.kind == "one":
            chips[step.pad].place(self.table.tag(self._card()), (0, 0))
        elif step.kind == "stack":
            chips[step.pad].place(self.table.tag(self._card()), (0, 0))
            chips[step.pad].place(self.table.tag(self._card()), (0, self.stack_offset))
        elif step.kind == "pile3":
            for n in range(3):
                chips[step.pad].place(self.table.tag(CARD.format(0xF0 + n)), (0, n * self.stack_offset))
        elif step.kind == "across":
            tag = self.table.tag(self._card())
            chips[step.pad].place(tag, (0, 0))
            chips[step.other].place(tag, (0, 0))
        elif step.kind == "tap5":
            self._tapping = [self._card() for _ in range(5)]
        elif step.kind == "fumble":
            self._fumble(step.pad)
        elif step.kind == "drag":
            from hardware.emulator.hands import Hands, play
            hands = Hands(self.table.plan.positions, self.table.modes, uids=[self._card()])
            gesture = hands.drag(step.pad, step.other, self.table.model.now)
            gesture.moves = [m for m in gesture.moves if m.on or m.pad != step.other]   # it stays where it rests
            play(self.table, [gesture])
        elif step.kind == "clear":
            self.finish(step)
        if step.kind == "one":
            self._placed = self.table.model.now
        return True

    def _fumble(self, pad: str) -> None:
        """Lift the card on ``pad`` for 150 ms (a fumble, well inside the hands model's 60-250 ms) and put it back."""
        chip = self.table.chips[pad]
        for tag in list(chip.tags):
            chip.remove(tag)
            until = self.table.model.now + 0.15
            while self.table.model.now < until:
                self.table.poll_cycle()
            chip.place(tag, (0, 0))

    def placed_at(self):
        return getattr(self, "_placed", None)

    def gesture_window(self) -> tuple[int, float]:
        return 0, 0.0                    # the scripted hand has done it already, while the table polled

    def during(self, step: Step, cycle: int) -> None:
        """Tap step: each card lies on the pad for 6 cycles (a few hundred ms), then goes onto its pile."""
        if step.kind != "tap5" or not self._tapping:
            return
        n, phase = divmod(cycle, 10)
        if n >= len(self._tapping):
            return
        tag = self.table.tag(self._tapping[n])
        if phase == 0:
            self.table.chips[step.pad].place(tag, (0, 0))
        elif phase == 6:
            self.table.chips[step.pad].remove(tag)

    def finish(self, step: Step) -> None:
        for chip in self.table.chips.values():
            for tag in list(chip.tags):
                chip.remove(tag)

    def tap_window(self) -> tuple[int, float]:
        return TAP_CYCLES, 1e9


class _Announcing:
    """Says each step's instruction before the builder does it (the scripted builder's output shows them too)."""

    def __init__(self, builder, say):
        self._builder, self._say = builder, say

    def prepare(self, step: Step) -> bool:
        self._say(step.text)
        return self._builder.prepare(step)

    def __getattr__(self, name):
        return getattr(self._builder, name)


class Walkthrough:
    """Runs the steps on a :class:`~hardware.polling.PolledTable` and builds the report."""

    def __init__(self, table, profile, builder, out=None, clock=time.monotonic):
        self.table = table
        self.profile = profile
        self.out = out or sys.stdout
        self.builder = _Announcing(builder, self.say)
        self.clock = clock
        self.raw: list[tuple[str, list[str]]] = []
        self.read_at: list[tuple[str, list[str], float]] = []
        self.events: list = []
        original = table.feed

        def feed(pad, uids, card_ids=None, unresolved=False):
            self.raw.append((pad, list(uids)))
            self.read_at.append((pad, list(uids), self.clock()))
            return original(pad, uids, card_ids, unresolved)
        table.feed = feed

    def say(self, line: str = "") -> None:
        print(line, file=self.out)

    def neighbours(self, pad: str) -> list[str]:
        pads = list(self.table.pads)
        plan = getattr(self.table, "plan", None)
        if plan is not None and plan.positions.get(pad) is not None:
            return [p for p in pads if p != pad and p in plan.positions and plan.near(pad, p)]
        i = pads.index(pad)
        return [pads[j] for j in (i - 1, i + 1) if 0 <= j < len(pads)]

    def nearest(self, pad: str) -> list[str]:
        """The pad closest to ``pad`` (by position, else the next in the list): where a card lies across."""
        pads = [p for p in self.table.pads if p != pad]
        plan = getattr(self.table, "plan", None)
        here = plan.positions.get(pad) if plan is not None else None
        placed = [p for p in pads if here is not None and plan.positions.get(p) is not None]
        if placed:
            return [min(placed, key=lambda p: (plan.positions[p][0] - here[0]) ** 2
                                              + (plan.positions[p][1] - here[1]) ** 2)]
        return self.neighbours(pad)[-1:]

    def _cycles(self, n: int, step: Step | None = None, seconds: float = 1e9) -> float:
        """Poll ``n`` cycles (or for ``seconds``); returns the mean cycle time in ms."""
        began, end = self.clock(), time.monotonic() + seconds
        done = 0
        for cycle in range(n):
            if step is not None:
                self.builder.during(step, cycle)
            self.table.poll_cycle()
            done += 1
            if time.monotonic() > end:
                break
        return (self.clock() - began) / max(1, done) * 1000

    def run(self) -> dict:
        self.table.start(self.events.append, background=False)
        self.table.poll_cycle()
        empty_cycle = self._cycles(5)
        pads = [p for p in self.table.pads]
        reports = {}
        for pad in pads:
            rep = reports[pad] = PadReport(pad)
            self.say("")
            self.say(f"Pad {pad} ({len(reports)} of {len(pads)})")
            step = Step("one", pad, text=f"  1. Put ONE card flat on pad {pad}, sticker over the antenna.")
            if not self.builder.prepare(step):
                rep.skipped = True
                continue
            placed = self.builder.placed_at()
            before = len(self.events)
            self.read_at.clear()
            self.raw.clear()
            self.table.poll_cycle()
            self.raw.clear()
            self._cycles(POLLS)
            until = self.clock() + 1.0
            while self.clock() < until and not any(e.pad == pad and e.kind == "seen" for e in self.events[before:]):
                self.table.poll_cycle()                          # a fast table: 20 cycles can be shorter than settling
            seen = next((e for e in self.events[before:] if e.pad == pad and e.kind == "seen"), None)
            first = next((t for p, u, t in self.read_at if p == pad and u), None)
            start = placed if placed is not None else first
            if seen is not None and start is not None:
                rep.placement_to_event_ms = round((seen.t - start) * 1000, 1)
                rep.latency_from = "placement" if placed is not None else "first read"
            reader = next((r for r in self.table.readers if r.pad == pad), None)
            if reader is not None:
                began = self.clock()
                for _ in range(5):
                    self.table.poll_reader(reader)
                rep.poll_ms = round((self.clock() - began) / 5 * 1000, 2)
            mine = [set(u) for p, u in self.raw if p == pad]
            card = next(iter(set().union(*mine)), None) if mine else None
            rep.read_rate = round(sum(1 for u in mine if card in u) / max(1, len(mine)), 2) if card else 0.0
            if card:
                for p, uids in self.raw:
                    if p != pad and card in uids:
                        rep.crosstalk[p] = rep.crosstalk.get(p, 0) + 1
            if card:
                fumble = Step("fumble", pad, text=f"  1b. Lift that card and put it straight back (a quarter "
                                                  f"of a second), as a fumbling hand does.")
                before = len(self.events)
                if self.builder.prepare(fumble):
                    cycles, seconds = self.builder.gesture_window()
                    self._cycles(cycles, fumble, seconds)
                    until = self.clock() + self.table.debouncer.lift_s + 0.05
                    while self.clock() < until:
                        self.table.poll_cycle()
                    rep.fumble_events = sum(1 for e in self.events[before:] if e.pad == pad)
            self._clear(step)

            step = Step("stack", pad, text=f"  2. Put TWO cards on pad {pad}, one on top of the other.")
            if self.builder.prepare(step):
                self.table.poll_cycle()
                self.raw.clear()
                self._cycles(POLLS)
                mine = [set(u) for p, u in self.raw if p == pad]
                seen = set().union(*mine) if mine else set()
                rep.stack_each = {u: round(sum(1 for m in mine if u in m) / max(1, len(mine)), 2) for u in sorted(seen)}
                rep.stack_both_rate = round(sum(1 for m in mine if len(m) >= 2) / max(1, len(mine)), 2)
                self._clear(step)

            step = Step("pile3", pad, text=f"  2b. Put THREE cards on pad {pad}, one on top of the other.")
            if self.builder.prepare(step):
                before = len(self.events)
                self.raw.clear()
                self._cycles(POLLS)
                mine = [set(u) for p, u in self.raw if p == pad]
                rep.pile_all_rate = round(sum(1 for m in mine if len(m) >= 3) / max(1, len(mine)), 2)
                rep.pile_announced = any(e.pad == pad and e.kind == "unread" for e in self.events[before:])
                self._clear(step)

            step = Step("tap5", pad, text=f"  3. Tap FIVE cards on pad {pad}, one after another: lay each down "
                                          f"for a moment, then onto a pile beside the pad.")
            if self.builder.prepare(step):
                before = len(self.events)
                cycles, seconds = self.builder.tap_window()
                self._cycles(cycles, step, seconds)
                rep.taps_seen = sum(1 for e in self.events[before:] if e.pad == pad and e.kind == "seen")
                self._clear(step)

            others = self.nearest(pad)
            if others:
                step = Step("across", pad, others[0], text=f"  4. Lay one card ACROSS pads {pad} and {others[0]}.")
                if self.builder.prepare(step):
                    until = self.clock() + self.table.debouncer.lift_s
                    while self.clock() < until and not self.table.conflicts():
                        self.table.poll_cycle()
                    conflicts = [c for c in self.table.conflicts() if set(c.pads) >= {pad, others[0]}]
                    seen_on = {p for p, u in self.raw[-2 * len(pads):] if u}
                    rep.across = ("reported as lying across two pads" if conflicts else
                                  f"read only on {', '.join(sorted(seen_on & {pad, others[0]})) or 'neither pad'}")
                    self._clear(step)
            if others:
                step = Step("drag", pad, others[0], text=f"  5. Slide a card across pad {pad} onto pad {others[0]} "
                                                         f"in one movement, and leave it there.")
                before = len(self.events)
                if self.builder.prepare(step):
                    cycles, seconds = self.builder.gesture_window()
                    self._cycles(cycles, step, seconds)
                    until = self.clock() + (self.table.debouncer.lift_s if cycles else 0.0)
                    while self.clock() < until:
                        self.table.poll_cycle()           # a person's slide: until it has settled
                    counted = sorted({e.pad for e in self.events[before:] if e.kind == "seen"})
                    rep.drag = ", ".join(counted) if counted else "nowhere"
                    self._clear(step)
        return self._report(reports, empty_cycle)

    def _clear(self, step: Step) -> None:
        self.builder.finish(step)
        until = self.clock() + self.table.debouncer.lift_s + 0.05     # the debouncer's removal window
        while self.clock() < until:
            self.table.poll_cycle()

    def _report(self, reports: dict, empty_cycle: float) -> dict:
        plan = getattr(self.table, "plan", None)
        advice = []
        for r in reports.values():
            if r.skipped:
                continue
            if r.read_rate is not None and r.read_rate < 0.95:
                advice.append(f"pad {r.pad}: a lone card is read in only {r.read_rate:.0%} of polls — move the "
                              f"antenna closer to the mat surface or the sticker over the antenna's centre")
            for other, n in r.crosstalk.items():
                advice.append(f"pad {r.pad}: its card was read {n} times by pad {other} — put the pads at least "
                              f"10 cm apart or switch fields ([reading] fields = \"switched\")")
            if plan is not None and not plan.switched:
                for other in self.neighbours(r.pad):
                    at = math.dist(plan.positions[r.pad], plan.positions[other])
                    if at < CROSSTALK_CM and other not in r.crosstalk:
                        per_hour = crosstalk_p(at) * 3600 / max(1e-3, empty_cycle / 1000)
                        advice.append(f"pad {r.pad}: pad {other} lies {at:g} cm away with fields on — too few polls "
                                      f"here to see it, but expect about {per_hour:.0f} false reads an hour "
                                      f"(miguelbalboa/rfid#589); put the pads at least 10 cm apart or switch "
                                      f"fields ([reading] fields = \"switched\")")
            modes = {layout.mode_of(r.pad) for layout in self.profile.layouts.values()
                     if r.pad in layout.pad_to_zone}
            if r.stack_both_rate is not None and r.stack_both_rate < 0.9 and "tap" in modes and "hold" not in modes:
                pass                      # a tap pad never has to read a stack
            elif r.stack_both_rate is not None and r.stack_both_rate < 0.9:
                advice.append(f"pad {r.pad}: two stacked cards are both read in only {r.stack_both_rate:.0%} of "
                              f"polls — use it as a tap pad, or hold at most two cards with stickers offset")
            if r.pile_all_rate is not None:
                # MFRC522s read two stacked cards and time out on three (the PiicoDev report): explain per mode
                if r.pile_all_rate >= 0.9:
                    pass                  # a reader that reads piles: nothing to say
                elif not r.pile_announced:
                    advice.append(f"pad {r.pad}: three stacked cards were neither read nor announced — check the "
                                  f"reader's wiring (a pile must at least answer REQA) and report it")
                elif "hold" in modes:
                    advice.append(f"pad {r.pad} (hold): three stacked cards cannot be read (all three in "
                                  f"{r.pile_all_rate:.0%} of polls); the companion asks the players to lay "
                                  f"them one at a time — hold at most two cards here")
            if r.taps_seen is not None and r.taps_seen < 5:
                advice.append(f"pad {r.pad}: {r.taps_seen} of 5 taps seen — hold each card on the pad a moment "
                              f"longer, and keep the pile off the antenna")
            if r.fumble_events:
                advice.append(f"pad {r.pad}: lifting a card and putting it back gave {r.fumble_events} {'event' if r.fumble_events == 1 else 'events'} — the "
                              f"card was out of the field longer than {self.table.debouncer.lift_s * 1000:.0f} ms, or "
                              f"this pad misses reads: check its read rate and the sticker's place")
            if r.drag and r.drag != self.nearest(r.pad)[0]:
                advice.append(f"pad {r.pad}: a card slid across it onto pad {self.nearest(r.pad)[0]} counted on "
                              f"{r.drag} — slide in one movement; if it still counts here, report it with this file")
            if r.placement_to_event_ms is not None and r.placement_to_event_ms > 150:
                advice.append(f"pad {r.pad}: {r.placement_to_event_ms:.0f} ms from {r.latency_from} to the event "
                              f"(aim 150 ms) — fewer pads per SPI bus, or a reader bridge for some of them")
            if r.across and "across" not in r.across:
                advice.append(f"pad {r.pad}: a card across two pads is {r.across}")
        return {
            "table": self.profile.name, "profile": self.profile.source,
            "when": time.strftime("%Y-%m-%d %H:%M:%S"),
            "machine": {"python": platform.python_version(), "platform": platform.platform()},
            "fields": plan.fields if plan else None, "fields_why": plan.why if plan else None,
            "latency": {"cycle_ms_empty_table": round(empty_cycle, 2),
                        "placement_to_event_ms_worst_pad": max(
                            (r.placement_to_event_ms for r in reports.values() if r.placement_to_event_ms is not None),
                            default=None)},
            "pads": {p: r.__dict__ for p, r in reports.items()},
            "advice": advice or ["every pad read its cards and no neighbour heard them"],
        }


def markdown(report: dict) -> str:
    lines = [f"# Table walkthrough: {report['table']}", "",
             f"Profile `{report['profile']}`, {report['when']}, {report['machine']['platform']}.",
             f"Fields: {report['fields']} ({report['fields_why']}). Poll cycle (empty table): "
             f"{report['latency']['cycle_ms_empty_table']} ms.", "",
             "| pad | poll ms | one card read | placement → event | fumble events | cross-talk | two stacked both read "
             "| three stacked | taps seen | across two pads | slid across, counted on |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for pad, r in report["pads"].items():
        if r["skipped"]:
            lines.append(f"| {pad} | skipped | | | | | | | | | |")
            continue
        xt = ", ".join(f"{k}: {v}" for k, v in r["crosstalk"].items()) or "none"
        rate = lambda v: "—" if v is None else f"{v:.0%}"
        latency = "—" if r["placement_to_event_ms"] is None else f"{r['placement_to_event_ms']} ms ({r['latency_from']})"
        pile = "—" if r["pile_all_rate"] is None else (
            f"all read {r['pile_all_rate']:.0%}, " + ("announced" if r["pile_announced"] else "NOT announced"))
        lines.append(f"| {pad} | {r['poll_ms']} | {rate(r['read_rate'])} | {latency} | "
                     f"{'—' if r['fumble_events'] is None else r['fumble_events']} | {xt} | "
                     f"{rate(r['stack_both_rate'])} | {pile} | "
                     f"{'—' if r['taps_seen'] is None else str(r['taps_seen']) + ' of 5'} | {r['across'] or '—'} | "
                     f"{r['drag'] or '—'} |")
    lines += ["", "## What to change", ""] + [f"- {a}" for a in report["advice"]]
    return "\n".join(lines) + "\n"


def walkthrough(profile_path, *, emulate: bool = False, out=None, report_path=None, ask=input,
                stack_offset: float = 0.0) -> int:
    """Run the walk-through; writes ``report_path`` (.json or .md, default both beside each other)."""
    from companion.table import ProfileError, load_profile
    out = out or sys.stdout
    try:
        profile = load_profile(profile_path)
    except ProfileError as exc:
        print(f"The table profile cannot be used: {exc}", file=out)
        return 2
    if emulate:
        from hardware.bench import profile_table
        from hardware.emulator.chip import HOST_OVERHEAD_S
        table = profile_table(profile, overhead=HOST_OVERHEAD_S)
        builder = ScriptedBuilder(table, stack_offset)
        clock = lambda: table.model.now  # noqa: E731 (modelled time)
    else:
        from hardware.readers import open_profile_table
        table, problems = open_profile_table(profile)
        if table is None:
            print("No reader answers, so there is nothing to walk through:", file=out)
            for p in problems:
                print(f"  - {p}", file=out)
            print("Run 'companion doctor' first (or add --emulate to see a walk-through on emulated readers).",
                  file=out)
            return 1
        builder = ConsoleBuilder(out, ask)
        clock = time.monotonic
    print(f"Walk-through of {profile.name!r}: {len(table.pads)} pads. Have seven tagged cards at hand.", file=out)
    try:
        report = Walkthrough(table, profile, builder, out, clock).run()
    finally:
        table.close()
    base = Path(report_path) if report_path else Path.cwd() / "table-walkthrough.json"
    paths = [base] if base.suffix in (".json", ".md") and report_path else [base.with_suffix(".json"),
                                                                             base.with_suffix(".md")]
    for path in paths:
        try:
            write_text(path, json.dumps(report, indent=2) + "\n" if path.suffix == ".json" else markdown(report),
                       "walk-through report")
        except OutputError as exc:
            print(f"companion doctor: {exc}", file=sys.stderr)
            return 2
    print("", file=out)
    for line in report["advice"]:
        print(f"  - {line}", file=out)
    print(f"Report written to {', '.join(str(p) for p in paths)}: attach it to a bug report.", file=out)
    return 0
