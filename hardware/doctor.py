"""`companion doctor`: check a table's readers and pads and say what is wrong, in words a tinkerer can act on.

It reads the table profile, opens every reader, shows its chip version (and
checks the chip's CRC coprocessor), lists the pads, watches live reads for a
few seconds and ends with what to fix.  It never crashes on missing hardware:
a machine without SPI gets told so.  ``emulate=True`` runs the same checks on
emulated readers (with a virtual tag on the first pad), to see what a healthy
table looks like.

Exit code: 0 all readers answer, 1 some do not, 2 the profile itself is wrong.
"""
from __future__ import annotations

import time
from pathlib import Path

from companion.table import ProfileError, TableProfile, check_layouts, load_profile
from hardware.debounce import Debouncer
from hardware.pins import PinProfile, parse_pins
from hardware.readers import (build_rc522, link_reset_lines, no_spi_message, reader_specs, reading_plan, shared_pins,
                              spi_hz, spidev_node)


def check_profile(path) -> tuple[TableProfile, list, PinProfile]:
    """Everything ``companion run`` and ``companion doctor`` both check before a pin or reader is touched.

    The file against the profile schema (:func:`companion.table.load_profile`),
    the readers (:func:`hardware.readers.reader_specs`), LEDs, buttons and
    buzzer (:func:`hardware.pins.parse_pins`), each layout against its
    game's zones and the ``[reading]`` section (:func:`hardware.readers.reading_plan`).  One :class:`ProfileError` names every problem, so both
    commands refuse the same files with the same sentence.
    """
    prof = load_profile(path)
    problems: list[str] = []
    specs: list = []
    pins = PinProfile()
    prefix = f"{prof.source}: "
    try:
        specs = reader_specs(prof)
    except ProfileError as exc:
        problems.append(str(exc).removeprefix(prefix))
    try:
        pins = parse_pins(prof.raw, prof.source, prof.pads or None)
    except ProfileError as exc:
        problems.append(str(exc).removeprefix(prefix))
    problems += check_layouts(prof)
    try:
        reading_plan(prof)
    except ProfileError as exc:
        problems.append(str(exc).removeprefix(prefix))
    if problems:
        raise ProfileError(prefix + "; ".join(problems))
    return prof, specs, pins


def _default_profile() -> Path | None:
    from companion import paths
    candidate = paths.config_dir() / "table.toml"
    return candidate if candidate.exists() else None


def run_walkthrough(profile=None, *, emulate: bool = False, report=None, out=None, ask=input) -> int:
    """``companion doctor --walkthrough``: see :mod:`hardware.walkthrough`."""
    import sys
    from hardware.walkthrough import walkthrough
    out = out or sys.stdout
    path = Path(profile) if profile else _default_profile()
    if path is None:
        print("No table profile: give one with --profile", file=out)
        return 2
    return walkthrough(path, emulate=emulate, out=out, report_path=report, ask=ask)


def reader_process_line(data_dir=None) -> str | None:
    """What the running companion's reader-process supervisor last recorded, in one line (or None)."""
    report = reader_process_report(data_dir)
    return report[0] if report else None


def reader_process_report(data_dir=None) -> tuple[str, bool] | None:
    """The supervisor's last word (:data:`hardware.sources.STATUS_FILE`) and whether it is healthy, or None.

    A recorded ``not answering`` (no heartbeat for longer than the stated
    silence) is not healthy; nor is a recorded process that this machine's
    ``/proc`` shows stopped (state ``T``: SIGSTOP, or a debugger).
    """
    import json
    from companion import paths
    from hardware.sources import STATUS_FILE
    try:
        info = json.loads((paths.data_dir(data_dir) / STATUS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(info, dict):
        return None
    state, pid = info.get("state"), info.get("pid")
    line = f"reader process of the companion: {state} (pid {pid}, at {info.get('at')})"
    ok = state in ("running", "stopped")
    if state == "not answering":
        line += (f": no heartbeat for {info.get('silent_s')} s (the limit is {info.get('silence_limit_s')} s) — "
                 f"stopped or stuck; the companion kills and restarts it if it stays silent")
    if info.get("restarts"):
        line += f"; restarted {info['restarts']} time{'' if info['restarts'] == 1 else 's'}, last because: {info.get('last_failure')}"
    if state == "restarting" and info.get("next_restart_s") is not None:
        line += f"; next start after {info['next_restart_s']:g} s"
    if state in ("running", "not answering") and isinstance(pid, int) and pid > 0:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
            if stat.rpartition(")")[2].split()[:1] == ["T"]:
                line += f"; process {pid} is stopped right now (SIGSTOP or a debugger): send it SIGCONT"
                ok = False
        except OSError:
            pass
    return line, ok


def doctor(profile=None, seconds: float = 2.0, out=None, emulate: bool = False, table=None) -> int:
    import sys
    out = out or sys.stdout

    def say(line: str = "") -> None:
        print(line, file=out)

    path = Path(profile) if profile else _default_profile()
    if path is None:
        say("No table profile: give one with --profile, e.g.")
        say("  companion doctor --profile firmware_config/tables/table-2pad.toml")
        return 2
    try:
        prof, specs, _pins = check_profile(path)
    except ProfileError as exc:
        say(f"The table profile cannot be used: {exc}")
        return 2
    say(f"Table {prof.name!r} from {path}" + ("  [emulated readers]" if emulate or table else ""))
    if not (emulate or table):
        from hardware.pins import use_pin_factory
        say(use_pin_factory())         # which pin factory drives the reset lines, LEDs and buttons, and why
    if not specs:
        say("The profile lists no readers, so the companion will use the simulated table.")
        return 1

    problems: list[str] = []
    missing_spi: list = []
    readers, bridges, owned = [], [], []
    if table is None and emulate:
        from hardware.emulator.table import EmulatedTable
        table = EmulatedTable.from_profile(prof)
        if table.readers:
            table.chips[table.readers[0].pad].place(table.tag("04D0C70A11E501"))
    if table is not None:
        readers = list(table.readers)
        owned = [table]
    else:
        reset_lines: dict = {}
        for spec in specs:
            if spec.kind != "rc522":
                continue
            try:
                readers.append(build_rc522(spec, specs, reset_lines, spi_speed_hz=spi_hz(prof)))
            except FileNotFoundError:
                missing_spi.append(spec)
            except (OSError, ImportError) as exc:
                problems.append(no_spi_message(spec, exc, specs))
        link_reset_lines(readers)
        owned = shared_pins(reset_lines)
    emulated_boards = []
    for spec in specs:
        if spec.kind == "bridge":
            from hardware.bridge.host import BridgeReader
            bridges.append(BridgeReader(spec))
            if emulate:
                from hardware.emulator.pico import EmulatedBridgeBoard
                from hardware.emulator.tags import VirtualTag
                board = EmulatedBridgeBoard(len(spec.pads), write=bridges[-1].handle_line)
                board.chips[0].place(VirtualTag("04D0C70A11E502"))
                emulated_boards.append(board)

    say("")
    say("Readers:")
    for spec in specs:
        reset = f", reset on GPIO {spec.reset_gpio}" if spec.reset_gpio is not None else ""
        kind = "RC522 on " if spec.kind == "rc522" else ""
        say(f"  {spec.id}: {kind}{spec.where()}{reset}; pads {', '.join(spec.pads)}")
        if spec in missing_spi:
            say(f"    {spec.id}: cannot be reached, {spidev_node(spec, specs)} does not exist")
    if missing_spi:
        buses = sorted({s.bus for s in missing_spi})
        overlay = ", dtoverlay=spi1-3cs" if 1 in buses else ""
        problems.append(
            f"this machine has no SPI bus {' or '.join(map(str, buses))} (no /dev/spidev* device), so "
            f"{len(missing_spi)} RC522 {'reader' if len(missing_spi) == 1 else 'readers'} cannot be reached. On the Pi: add dtparam=spi=on{overlay} to "
            f"/boot/firmware/config.txt (see firmware_config/pi/) and reboot; elsewhere, try "
            f"'companion doctor --emulate' to see a healthy table")
    for r in readers:
        if r.open():
            crc = "CRC coprocessor OK" if r.pcd.crc_self_test() else "CRC coprocessor gives wrong results"
            say(f"    {r.spec.id}: {r.detail}, {crc}")
            if "wrong" in crc:
                problems.append(f"reader {r.spec.id} on {r.spec.where()}: its CRC coprocessor computes wrong "
                                f"results — the chip may be damaged or a counterfeit; replace the module")
        else:
            say(f"    {r.spec.id}: does not answer")
            problems.append(r.detail)
    bridge_debouncer = Debouncer()
    bridge_events: list = []

    def bridge_now() -> float:
        """The time the bridge's reads happen at: the emulated board's modelled clock, or the host's."""
        return emulated_boards[0].clock.now if emulated_boards else time.monotonic()

    def bridge_feed(pad, uids, card_ids=None):
        bridge_events.extend(bridge_debouncer.feed(pad, uids, bridge_now(), card_ids))

    for b in bridges:
        if emulate:
            b.start(bridge_feed, background=False)
        elif b.probe():
            b.start(bridge_feed)
        else:
            problems.append(b.detail)
    for board in emulated_boards:
        board.bridge.start()
        until = board.clock.now + bridge_debouncer.lift_s        # long enough for a card to count
        while board.clock.now < until:
            board.bridge.poll_once()
    for b in bridges:
        if b.connected and b.versions:
            say(f"    {b.spec.id}: firmware {b.firmware}; chip versions by channel: "
                + ", ".join(f"{ch}={v}" for ch, v in sorted(b.versions.items())))

    say("")
    say(f"Pads: {', '.join(prof.pads)}")
    plan = reading_plan(prof)
    say(f"Fields: {plan.fields} ({plan.why}); see docs/hardware/tables.md")
    for b in bridges:
        if b.fields is None:
            continue
        # what the bridge firmware really does, from its own HELLO line
        say(f"    {b.spec.id}: the firmware's fields are {b.fields}")
        if b.fields == "update":
            problems.append(f"the reader bridge {b.spec.id} booted in update mode (GP22 held to GND), so it reads "
                            f"no cards: take the jumper off and press RUN (or unplug and plug its USB cable)")
        elif b.fields != plan.fields:
            problems.append(f"the reader bridge {b.spec.id} keeps its fields {b.fields} but the profile asks for "
                            f"{plan.fields}: set FIELDS = \"{plan.fields}\" in pinmap.py and update the firmware "
                            f"(docs/hardware/bridge.md, \"Updating the firmware\")")
    working = [r for r in readers if r.ok]
    if working or any(b.connected for b in bridges):
        say("")
        say(f"Live reads for {seconds:g} s (put a card on each pad):")
        debouncer = Debouncer()
        now = (lambda: table.model.now) if getattr(table, "model", None) is not None else time.monotonic
        last: dict[str, list[str]] = {}
        end = time.monotonic() + seconds
        modelled_end = now() + debouncer.lift_s + 0.1
        polls = 0
        while True:
            for r in working:
                uids = r.poll()
                r.rest()                   # a switched reader's field goes off again (docs/hardware/tables.md)
                polls += 1
                if uids is None:
                    continue
                for ev in debouncer.feed(r.pad, uids, now()):
                    say(f"    pad {ev.pad}: card {ev.uid} {'put down' if ev.kind == 'seen' else 'lifted'}")
                last[r.pad] = uids
            if not working:
                break
            if table is not None:
                if now() >= modelled_end:
                    break                  # emulated: modelled time, no point in waiting for hands
                continue
            if time.monotonic() >= end:
                break
            time.sleep(0.02)
        for r in working:
            on = last.get(r.pad, [])
            say(f"    pad {r.pad}: {', '.join(on) if on else 'empty'}"
                + (f"  ({r.faults} faults, {r.recoveries} resets)" if r.faults else ""))
        if bridges and not emulate:
            time.sleep(min(seconds, 1.0))
        for ev in bridge_events:
            say(f"    pad {ev.pad}: card {ev.uid} {'put down' if ev.kind == 'seen' else 'lifted'}")
        for b in bridges:
            status = b.status()
            say(f"    bridge {b.spec.id}: {status['detail']}")
            if b.connected and not status["ok"]:
                problems.append(status["detail"])
        for c in debouncer.conflicts():
            problems.append(c.message())
    for r in readers:
        if not r.ok and r.detail not in problems:
            problems.append(r.detail)

    process = reader_process_report()
    if process is not None:
        say("")
        say(process[0][0].upper() + process[0][1:])
        if not process[1]:
            problems.append(process[0])
    say("")
    if problems:
        say("What to fix:")
        for p in dict.fromkeys(problems):
            say(f"  - {p}")
    else:
        say("All readers answer.")
    for b in bridges:
        b.close()
    for r in readers:
        r.close()
    for device in owned:
        device.close()
    return 1 if problems else 0
