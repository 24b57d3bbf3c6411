"""The `companion` command line: its parser and the commands the core answers alone.

The commands that need readers, LEDs or a screen (``run``, ``doctor``, ``bench
rfid|leds|ui``) are wired by the composition root, :mod:`ui.main`, which hands
:func:`main` their handlers (``wiring``); the ``companion`` console script and
``python3 -m companion`` start there.  So nothing in ``companion/`` imports
``hardware`` or ``ui`` (pyproject.toml's import-linter contracts check it).
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
                           export_path=args.export, include_hidden=args.include_hidden)
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
    from companion.outfiles import OutputError, write_text
    from companion.records import HiddenCards, shareable
    from companion.session import NotSaved, RecordError, Session, StoreError
    try:
        with _read_store(args) as store:
            session = Session.resume(store, args.game_id)
            record = shareable(session, args.include_hidden)
        text = json.dumps(record, indent=1, ensure_ascii=False)
        if args.output != "-":
            write_text(args.output, text + "\n", "record")
    except KeyError as exc:
        print(f"companion export: {exc.args[0]}", file=sys.stderr)
        return 2
    except (StoreError, RecordError, NotSaved, HiddenCards, OutputError) as exc:
        print(f"companion export: {exc}", file=sys.stderr)
        return 2
    print(text if args.output == "-" else f"game #{args.game_id} written to {args.output}")
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
        from companion.bench import AgainstError, bench_against, bench_engines
        try:
            _json(bench_against(args.against, seconds=args.seconds, only=args.game) if args.against
                  else bench_engines(seconds=args.seconds, only=args.game))
        except AgainstError as exc:
            print(f"companion bench engines: {exc}", file=sys.stderr)
            return 2
        return 0
    if args.what == "solo":
        from companion.solo.bench import bench_solo
        _json(bench_solo(game=args.game or "sams", games=args.games, think=args.think))
        return 0
    if args.what == "files":
        from companion.filebench import bench_files
        _json(bench_files())
        return 0
    if args.what == "club":
        from companion.club.bench import bench_club
        _json(bench_club(tables=args.tables, seconds=args.seconds if args.seconds != 2.0 else 120.0,
                         speedup=args.speedup))
        return 0
    if args.what == "event":                           # companion/event/bench.py
        if args.full:                                  # companion/event/fullbench.py
            from companion.event.fullbench import full_event
            _json(full_event(tables=args.tables, rounds=args.rounds))
            return 0
        from companion.event.bench import bench_event
        _json(bench_event(args.property))
        return 0
    return _wired(args)


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
    r.set_defaults(func=_wired)

    s = sub.add_parser("simulate", help="play a record or a random legal game headless and print the outcome")
    s.add_argument("--game", default="sams", help="game for a random game (default: sams)")
    s.add_argument("--record", help="a record file to play through the simulated table")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--option", action="append", help="setup option KEY=VALUE (JSON value)")
    s.add_argument("--export", help="write the played game's record to this file")
    s.add_argument("--include-hidden", action="store_true",
                   help="--export a game the record leaves unfinished, face-down cards included")
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
    e.add_argument("--include-hidden", action="store_true",
                   help="export a game still being played, face-down cards and the deck order included")
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
    b.add_argument("what", choices=["engines", "rfid", "leds", "ui", "ui-child", "solo", "hands", "hostile", "files", "club",
                                      "event", "deckcheck"])
    b.add_argument("--tables", type=_positive_int, default=32, help="tables playing at once (bench club)")
    b.add_argument("--speedup", type=float, default=10.0,
                   help="modelled club time per real second (bench club; default 10; --seconds defaults to 120)")
    b.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    b.add_argument("--game", help="only this engine (bench engines); the game (bench solo, bench hands)")
    b.add_argument("--against", action="append", metavar="COMMIT",
                   help="bench engines: this checkout and COMMIT side by side, in CPU seconds (repeatable)")
    b.add_argument("--games", type=_positive_int, default=200, help="games per opponent (bench solo)")
    b.add_argument("--plays", type=_positive_int, default=1000,
                   help="simulated plays per game table and spidev overhead (bench rfid); "
                        "gestures of each kind per game table (bench hands)")
    b.add_argument("--think", type=float, default=None,
                   help="seconds of thought per move (bench solo; default 0.03 for sams, 0.02 for lifeforce)")
    b.add_argument("--kind", action="append", metavar="GESTURE",
                   help="bench hands: only this gesture kind (lay, fumble, drag, slap, pile, across; repeatable)")
    b.add_argument("--property", type=int, default=0, help="random events to check (bench event)")
    b.add_argument("--full", action="store_true",
                   help="bench event: a whole event played by --tables tables over the real broker and hub")
    b.add_argument("--rounds", type=_positive_int, default=6, help="rounds of the full event (bench event --full)")
    b.set_defaults(func=cmd_bench)

    d = sub.add_parser("doctor", help="check readers and pads and say what is wrong")
    d.add_argument("--profile", help="table profile TOML")
    d.add_argument("--seconds", type=float, default=2.0, help="how long to watch live reads")
    d.add_argument("--emulate", action="store_true", help="check the profile against emulated readers (no hardware needed)")
    d.add_argument("--walkthrough", action="store_true",
                   help="lead the builder pad by pad and measure read rate, cross-talk, stacks and latency")
    d.add_argument("--report", help="walk-through report file (.json or .md; default table-walkthrough.json and .md)")
    d.set_defaults(func=_wired)

    from companion.club.commands import add_commands
    add_commands(sub)                                  # hub, hub setup, club join/leave/status

    from companion.event.cli import add_event_parser
    add_event_parser(sub)

    sub.add_parser("test", help="run the test suite on a virtual display; further arguments go to pytest")
    return p


def _wired(args) -> int:
    """A command that needs the hardware or the app: the composition root's handler for it."""
    key = f"bench {args.what}" if args.command == "bench" else args.command
    handler = args.wiring.get(key)
    if handler is None:
        print(f"companion {key}: start it as `companion {key}` or `python3 -m companion {key}` "
              "(the composition root, ui/main.py, wires readers and screen)", file=sys.stderr)
        return 2
    return handler(args)


def main(argv: list[str] | None = None, wiring: dict | None = None) -> int:
    """Run one command.  ``wiring``: command → handler for the commands the core cannot answer
    alone (``"run"``, ``"doctor"``, ``"bench rfid"`` …), given by :mod:`ui.main`."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["test"]:
        # Everything after "test" belongs to pytest (-x, -k …), which argparse would refuse.
        from companion.bootstrap import run_tests
        return run_tests(argv[1:])
    args = build_parser().parse_args(argv)
    args.wiring = wiring or {}
    if args.command in ("run", "simulate", "replay", "export"):
        from companion import cards
        cards.use_user_dir(paths.data_dir(args.data_dir))     # players' own printed cards
    return args.func(args) or 0


if __name__ == "__main__":
    sys.exit(main())
