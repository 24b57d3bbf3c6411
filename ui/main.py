"""The composition root: ``companion`` (console script) and ``python3 -m companion`` start here.

The one module that knows all three packages: ``companion`` (the core),
``hardware`` (readers, LEDs, buttons) and ``ui`` (the Kivy app).  It wires a
table source, the input road, the outputs and the app together for ``run``, and
starts ``doctor`` and the hardware and screen benchmarks; every other command is
the core's own (:mod:`companion.cli`).  The imports sit in the handlers so that
``companion games`` or ``replay`` load neither Kivy nor a driver.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from companion import cli, paths


def cmd_run(args) -> int:
    """Start the touchscreen app: readers from the table profile, or the simulated table."""
    from companion.app_config import AppConfig, SettingsError
    from companion.session import Store, StoreError
    from companion.table import ProfileError
    from hardware.doctor import check_profile
    from hardware.outputs import open_outputs
    from hardware.pins import use_pin_factory
    from hardware.sources import open_table_source
    try:
        config = AppConfig.from_args(args)
    except SettingsError as exc:
        print(f"companion run: {exc}", file=sys.stderr)
        return 2
    if config.profile_path is not None:
        try:
            check_profile(config.profile_path)         # what doctor checks, run refuses too
        except ProfileError as exc:
            print(f"companion run: the table profile cannot be used: {exc}", file=sys.stderr)
            return 2
    try:
        store = Store(config.database)                 # takes the data directory's lock
    except StoreError as exc:
        print(f"companion run: {exc}", file=sys.stderr)
        return _show_fault(config, exc)
    if not config.sim:
        use_pin_factory()                              # lgpio on every Pi (see `companion doctor`)
    try:
        source = open_table_source(config)             # falls back to the simulated table
        outputs = open_outputs(config)
    except ProfileError as exc:                        # a broken profile (TOML, readers, pins): say what to fix
        store.close()
        print(f"companion run: the table profile cannot be used: {exc}", file=sys.stderr)
        return 2
    from companion.club.commands import start_publisher
    from companion.club.config import ClubError
    try:
        publisher = start_publisher(store)             # None unless this table joined a club
    except ClubError as exc:                           # the club file is broken: play on, say why
        print(f"companion run: not sending games to the club: {exc}", file=sys.stderr)
        publisher = None
    from companion.club.eventtable import EventTable
    from ui.app import run_app
    try:
        with open_road(outputs) as road:               # closed (what was handed over applied) before the store
            return run_app(config, source, outputs, road, store,
                           event_table=EventTable(store, publisher) if publisher is not None else None)
    finally:
        if publisher is not None:
            publisher.close()
        store.close()


def open_road(outputs):
    """The one input road (:class:`companion.inputs.InputRoad`) with the table's button presses on it.

    Built here, the composition root, and owned by whoever calls this: close it (``with
    open_road(outputs) as road:``) before the store, so that what was handed over is applied
    first.  The app only uses it (:func:`ui.app.make_app`)."""
    from companion.inputs import InputRoad
    road = InputRoad()
    outputs.send_presses_to(road)
    return road


def _show_fault(config, error) -> int:
    """A kiosk has no terminal: say it on the screen and wait for an answer (never a restart loop).
    0 when the file was moved aside (the next start begins afresh), 2 otherwise."""
    from companion.session import move_aside

    def move(path):
        with paths.DataDirLock(path.parent):
            return move_aside(path).name

    try:
        from ui.fault import show_fault
        return 0 if show_fault(config, error, move) == "moved" else 2
    except Exception:                                  # no display: the sentence above is all we can do
        return 2


def cmd_doctor(args) -> int:
    from hardware.doctor import doctor, run_walkthrough
    if args.walkthrough:
        return run_walkthrough(args.profile, emulate=args.emulate, report=args.report)
    from companion.club.commands import club_status
    print(club_status(paths.data_dir(args.data_dir, create=False)))
    return doctor(profile=args.profile, seconds=args.seconds, out=sys.stdout, emulate=args.emulate)


def bench_rfid(args) -> int:
    from hardware.bench import bench_rfid
    cli._json(bench_rfid(seconds=args.seconds, plays=args.plays))
    return 0


def bench_leds(args) -> int:
    from hardware.led_bench import bench_leds
    cli._json(bench_leds(seconds=args.seconds))
    return 0


def bench_hostile(args) -> int:
    """Issue 24's hardware-side attacks: ports, bridge lines, reader-process liveness."""
    from hardware.hostile_bench import bench_hostile
    cli._json(bench_hostile())
    return 0


def bench_deckcheck(args) -> int:
    """Issue 28: a 50-card deck check on the emulated table (hardware/deck_bench.py)."""
    from hardware.deck_bench import bench_deck_check
    cli._json(bench_deck_check(checks=args.plays))
    return 0


def bench_hands(args) -> int:
    """Issue 23: what hands do on each game's default table (hardware/hands_bench.py)."""
    from hardware.emulator.hands import GESTURES
    from hardware.hands_bench import GAMES, bench_hands
    unknown = sorted(set(args.kind or ()) - set(GESTURES))
    if unknown:
        print(f"no gesture kind {', '.join(unknown)}: the kinds are {', '.join(GESTURES)}")
        return 2
    cli._json(bench_hands(gestures=args.plays, games=[args.game] if args.game else GAMES,
                          kinds=tuple(args.kind) if args.kind else GESTURES))
    return 0


def bench_ui(args) -> int:
    from ui.bench import bench_ui
    cli._json(bench_ui(seconds=args.seconds))
    return 0


def bench_ui_child(args) -> int:
    """The app side of `bench ui`, wired like `run --sim`."""
    from companion.app_config import AppConfig
    from hardware.outputs import open_outputs
    from hardware.sources import open_table_source
    from ui.bench import run_child
    config = AppConfig(data_dir=Path(tempfile.mkdtemp(prefix="bench-ui-")), profile_path=None, sim=True,
                       fullscreen=False, size=(800, 480))
    outputs = open_outputs(config)
    with open_road(outputs) as road:
        run_child(config, open_table_source(config), outputs, road, args.seconds)
    return 0


WIRING = {"run": cmd_run, "doctor": cmd_doctor, "bench rfid": bench_rfid, "bench leds": bench_leds,
          "bench hostile": bench_hostile,
          "bench deckcheck": bench_deckcheck, "bench hands": bench_hands, "bench ui": bench_ui, "bench ui-child": bench_ui_child}


def main(argv: list[str] | None = None) -> int:
    return cli.main(argv, wiring=WIRING)


if __name__ == "__main__":
    sys.exit(main())
