"""The `companion` command line, and the composition root.

This is the one module that knows all three packages: ``companion`` (the core),
``hardware`` (readers, LEDs, buttons) and ``ui`` (the Kivy app).  It wires a
table source, a session, the outputs and the app together; nothing else in
``companion/`` imports ``hardware`` or ``ui``.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion import games, paths


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def _json(data) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


def cmd_games(args) -> int:
    for name in games.available():
        print(f"{name:10s} {games.get(name).title}")
    broken = games.broken()
    for name in games.coming():
        why = f" — engine fails to load: {broken[name]}" if name in broken else ""
        print(f"{name:10s} {games.KNOWN_GAMES[name]} (coming){why}")
    return 0


def cmd_replay(args) -> int:
    from companion.records import RecordError, read_record, replay
    try:
        rules, state = replay(read_record(args.file))
    except RecordError as exc:
        print(f"companion replay: {_naming(args.file, exc)}", file=sys.stderr)
        return 2
    _json(rules.summary(state))
    return 0


def cmd_simulate(args) -> int:
    from companion.engine import IllegalAction
    from companion.session import StoreError
    from companion.simulate import SimulationError, simulate
    try:
        outcome = simulate(game=args.game, record_path=args.record, seed=args.seed,
                           options=_parse_options(args.option), data_dir=args.data_dir,
                           export_path=args.export)
    except (SimulationError, StoreError, IllegalAction) as exc:
        print(f"companion simulate: {exc}", file=sys.stderr)
        return 2
    _json(outcome)
    return 0


def cmd_price(args) -> int:
    """Creature Combat Territory's card designer: what a creature costs, and why."""
    from companion.games.territory.cards import Biomes, CardError
    from companion.games.territory.pricing import price_entry
    from companion import validate
    from companion.cards import MAX_CARD_FILE_BYTES
    try:                                      # the same bounds as every card file: size, UTF-8, nesting
        text = validate.read_text(args.file, MAX_CARD_FILE_BYTES, "card file")
        doc = validate.parse_json(text, args.file)
        validate.check(doc, {"type": "object", "properties": {"cards": {"type": "array", "items": {
            "type": "object", "properties": {"attrs": {"type": "object"}}}}}}, args.file, text)
    except validate.InputError as exc:
        print(f"companion price: {exc}", file=sys.stderr)
        return 2
    entries = doc.get("cards", [doc])
    status = 0
    try:
        biomes = Biomes(doc.get("biomes") or [], args.file) if isinstance(doc, dict) else Biomes()
    except CardError as exc:
        print(f"companion price: {exc}", file=sys.stderr)
        return 2
    for entry in entries:
        if (entry.get("attrs") or {}).get("kind", "creature") != "creature":
            continue
        name = entry.get("name") or entry.get("id") or "New creature"
        try:
            print(f"{name}\n" + "\n".join("  " + line for line in price_entry(entry, biomes).text().splitlines()))
        except CardError as exc:
            print(f"{name}: cannot be priced: {exc}", file=sys.stderr)
            status = 2
    return status


def _read_store(args):
    """The database for a command that only reads: a snapshot (``mode=ro``), no lock, never a write."""
    from companion.session import Store
    return Store(paths.database_path(paths.data_dir(args.data_dir, create=False)), readonly=True)


def cmd_export(args) -> int:
    from companion.session import NotSaved, RecordError, Session, StoreError
    try:
        with _read_store(args) as store:
            session = Session.resume(store, args.game_id)
            text = json.dumps(session.record(), indent=1, ensure_ascii=False)
    except KeyError as exc:
        print(f"companion export: {exc.args[0]}", file=sys.stderr)
        return 2
    except (StoreError, RecordError, NotSaved) as exc:
        print(f"companion export: {exc}", file=sys.stderr)
        return 2
    if args.output == "-":
        print(text)
    else:
        try:
            Path(args.output).write_text(text + "\n", encoding="utf-8")
        except OSError as exc:
            print(f"companion export: {args.output} cannot be written ({exc.strerror or exc})", file=sys.stderr)
            return 2
        print(f"game #{args.game_id} written to {args.output}")
    return 0


def cmd_list(args) -> int:
    from companion.session import NotSaved, StoreError
    if not paths.database_path(paths.data_dir(args.data_dir, create=False)).exists():
        print("no games yet")
        return 0
    try:
        with _read_store(args) as store:
            rows = store.games()
    except (StoreError, NotSaved) as exc:
        print(f"companion list: {exc}", file=sys.stderr)
        return 2
    if not rows:
        print("no games yet")
    for g in rows:
        winner = ""
        if g.result:
            winner = f"  {g.result.get('reason', '')}"
        print(f"#{g.id:<4d} {g.game:10s} {g.status:9s} {g.actions:4d} actions  {g.updated}{winner}")
    return 0


def cmd_repair(args) -> int:
    """Check the database; with --move-aside, move an unusable one aside (kept) so the next start begins afresh."""
    from companion.session import Store, StoreError, move_aside
    path = paths.database_path(paths.data_dir(args.data_dir))
    try:
        with Store(path):
            print(f"{path} is healthy; nothing to repair")
            return 0
    except StoreError as exc:
        if not exc.move_aside:
            print(f"companion repair: {exc}", file=sys.stderr)
            return 2
        problem = str(exc).split("; run 'companion repair'")[0]
    if not args.move_aside:
        print(f"{problem}.\nRun 'companion repair --move-aside' to move it aside and start with an empty "
              f"database (the old file is kept beside it).")
        return 2
    lock = paths.DataDirLock(path.parent)
    try:
        with lock:
            kept = move_aside(path)
    except paths.DirectoryBusy as exc:
        print(f"companion repair: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"companion repair: {path} cannot be moved ({exc.strerror or exc})", file=sys.stderr)
        return 2
    print(f"{path} moved aside to {kept.name}; the next start begins with an empty database")
    return 0


def cmd_bench(args) -> int:
    if args.what == "engines":
        from companion.bench import bench_engines
        _json(bench_engines(seconds=args.seconds, only=args.game))
        return 0
    if args.what == "solo":
        from companion.solo.bench import bench_solo
        _json(bench_solo(game=args.game or "sams", games=args.games, think=args.think))
        return 0
    if args.what == "rfid":
        from hardware.bench import bench_rfid
        _json(bench_rfid(seconds=args.seconds, plays=args.plays))
        return 0
    if args.what == "hands":
        from hardware.hands_bench import GAMES, bench_hands
        _json(bench_hands(gestures=args.plays, games=[args.game] if args.game else GAMES))
        return 0
    if args.what == "leds":
        from hardware.led_bench import bench_leds
        _json(bench_leds(seconds=args.seconds))
        return 0
    if args.what == "ui":
        from ui.bench import bench_ui
        _json(bench_ui(seconds=args.seconds))
        return 0
    if args.what == "ui-child":                       # the app side of `bench ui`, wired like `run --sim`
        import tempfile
        from companion.app_config import AppConfig
        from hardware.outputs import open_outputs
        from hardware.sources import open_table_source
        from ui.bench import run_child
        config = AppConfig(data_dir=Path(tempfile.mkdtemp(prefix="bench-ui-")), profile_path=None, sim=True,
                           fullscreen=False, size=(800, 480))
        run_child(config, open_table_source(config), open_outputs(config), args.seconds)
        return 0
    return 2


def cmd_doctor(args) -> int:
    if args.walkthrough:
        from hardware.doctor import run_walkthrough
        return run_walkthrough(args.profile, emulate=args.emulate, report=args.report)
    from hardware.doctor import doctor
    return doctor(profile=args.profile, seconds=args.seconds, out=sys.stdout, emulate=args.emulate)


def cmd_run(args) -> int:
    """Start the touchscreen app: readers from the table profile, or the simulated table."""
    from companion.app_config import AppConfig, SettingsError
    from companion.session import Store, StoreError
    from companion.table import ProfileError
    try:
        config = AppConfig.from_args(args)
    except SettingsError as exc:
        print(f"companion run: {exc}", file=sys.stderr)
        return 2
    if config.profile_path is not None:
        from hardware.doctor import check_profile
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
    from hardware.outputs import open_outputs
    from hardware.pins import use_pin_factory
    from hardware.sources import open_table_source
    if not config.sim:
        use_pin_factory()                              # lgpio on every Pi (see `companion doctor`)
    try:
        source = open_table_source(config)             # falls back to the simulated table
        outputs = open_outputs(config)
    except ProfileError as exc:                        # a broken profile (TOML, readers, pins): say what to fix
        store.close()
        print(f"companion run: the table profile cannot be used: {exc}", file=sys.stderr)
        return 2
    from ui.app import run_app
    return run_app(config, source, outputs, store=store)


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


def _naming(path, exc) -> str:
    """The message, starting with the file's name once."""
    from companion.validate import printable
    text = printable(str(exc))                 # an engine may quote the file's text: keep it one line
    return text if text.startswith(str(path)) else f"{path}: {text}"


def _parse_options(pairs: list[str] | None) -> dict:
    options = {}
    for pair in pairs or []:
        key, _, value = pair.partition("=")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion", description="Tabletop companion for RFID card battle games")
    p.add_argument("--data-dir", help="where games and tags are kept (default: XDG data dir)")
    sub = p.add_subparsers(dest="command", required=True)

    r = sub.add_parser("run", help="start the touchscreen app")
    r.add_argument("--sim", action="store_true", help="use the simulated table even if readers are present")
    r.add_argument("--profile", help="table profile TOML (default: the one in the config dir, else simulated)")
    r.add_argument("--windowed", action="store_true", help="a window instead of full screen")
    r.add_argument("--size", default=None, help="window size WxH, e.g. 800x480")
    r.set_defaults(func=cmd_run)

    s = sub.add_parser("simulate", help="play a record or a random legal game headless and print the outcome")
    s.add_argument("--game", default="sams", help="game for a random game (default: sams)")
    s.add_argument("--record", help="a record file to play through the simulated table")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--option", action="append", help="setup option KEY=VALUE (JSON value)")
    s.add_argument("--export", help="write the played game's record to this file")
    s.set_defaults(func=cmd_simulate)

    rp = sub.add_parser("replay", help="replay a game record and print the final state summary as JSON")
    rp.add_argument("file")
    rp.set_defaults(func=cmd_replay)

    pr = sub.add_parser("price", help="Creature Combat Territory: price creatures from a card file (cards.json shape)")
    pr.add_argument("file")
    pr.set_defaults(func=cmd_price)

    e = sub.add_parser("export", help="export a stored game as a JSON record")
    e.add_argument("game_id", type=int)
    e.add_argument("-o", "--output", default="-")
    e.set_defaults(func=cmd_export)

    ls = sub.add_parser("list", help="past and unfinished games")
    ls.set_defaults(func=cmd_list)

    rep = sub.add_parser("repair", help="check the games database; --move-aside a damaged one (it is kept)")
    rep.add_argument("--move-aside", action="store_true",
                     help="move an unusable database aside and start with an empty one")
    rep.set_defaults(func=cmd_repair)

    g = sub.add_parser("games", help="the games this companion knows")
    g.set_defaults(func=cmd_games)

    b = sub.add_parser("bench", help="benchmarks that print JSON figures")
    b.add_argument("what", choices=["engines", "rfid", "hands", "leds", "ui", "ui-child", "solo"])
    b.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    b.add_argument("--game", help="only this engine (bench engines); the game (bench solo, bench hands)")
    b.add_argument("--games", type=_positive_int, default=200, help="games per opponent (bench solo)")
    b.add_argument("--plays", type=_positive_int, default=1000,
                   help="simulated plays per game table and spidev overhead (bench rfid); "
                        "gestures of each kind per game table (bench hands)")
    b.add_argument("--think", type=float, default=None,
                   help="seconds of thought per move (bench solo; default 0.03 for sams, 0.02 for lifeforce)")
    b.set_defaults(func=cmd_bench)

    d = sub.add_parser("doctor", help="check readers and pads and say what is wrong")
    d.add_argument("--profile", help="table profile TOML")
    d.add_argument("--seconds", type=float, default=2.0, help="how long to watch live reads")
    d.add_argument("--emulate", action="store_true", help="check the profile against emulated readers (no hardware needed)")
    d.add_argument("--walkthrough", action="store_true",
                   help="lead the builder pad by pad and measure read rate, cross-talk, stacks and latency")
    d.add_argument("--report", help="walk-through report file (.json or .md; default table-walkthrough.json and .md)")
    d.set_defaults(func=cmd_doctor)

    sub.add_parser("test", help="run the test suite on a virtual display; further arguments go to pytest")
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["test"]:
        # Everything after "test" belongs to pytest (-x, -k …), which argparse would refuse.
        from companion.bootstrap import run_tests
        return run_tests(argv[1:])
    args = build_parser().parse_args(argv)
    if args.command in ("run", "simulate", "replay", "export"):
        from companion import cards
        cards.use_user_dir(paths.data_dir(args.data_dir))     # players' own printed cards
    return args.func(args) or 0


if __name__ == "__main__":
    sys.exit(main())
