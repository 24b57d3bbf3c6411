"""`companion event …`: the organiser's commands on a local event database (no hub needed).

The database is ``<data dir>/events.sqlite3`` (or ``--db``); commands act on
the newest event unless ``--event ID`` says otherwise.  Every change is an
action in the event's log, so ``undo`` takes any of them back.  Refusals are
one sentence on stderr and exit status 2; nothing is written then.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from companion import paths
from companion.event import DECKS_PUBLIC, FORMATS

if TYPE_CHECKING:
    from companion.event.store import EventStore

SCORE = re.compile(r"^\s*(\d)\s*[-–:]\s*(\d)(?:\s*[-–:]\s*(\d))?\s*$")
MAX_DECK_FILE = 64_000


def add_event_parser(sub) -> None:
    """The ``event`` command and its subcommands (called by companion.cli)."""
    e = sub.add_parser("event", help="run a club event: create, register, pair, result, standings, slips")
    e.add_argument("--db", help="event database (default: events.sqlite3 in the data dir)")
    e.add_argument("--event", type=int, help="event id (default: the newest)")
    es = e.add_subparsers(dest="event_command", required=True)
    c = es.add_parser("create", help="a new event")
    c.add_argument("name")
    c.add_argument("--game", required=True)
    c.add_argument("--format", choices=list(FORMATS), default="bo3")
    c.add_argument("--rounds", type=int, help="number of rounds (default: until one player is undefeated)")
    c.add_argument("--minutes", type=int, default=50, help="time per round")
    c.add_argument("--seed", type=int, default=None, help="pairing seed (default: from the clock)")
    c.add_argument("--decks", choices=list(DECKS_PUBLIC), default="after",
                   help="when registered deck lists are public")
    es.add_parser("list", help="the events in the database")
    r = es.add_parser("register", help="a player (after round 1: a late entry)")
    r.add_argument("name")
    r.add_argument("--deck", help="deck list file: one card id a line (or a JSON list)")
    d = es.add_parser("drop", help="a player leaves the event")
    d.add_argument("player", help="name or id (p3)")
    d.add_argument("--self", action="store_true", help="the player's own 'I drop'")
    es.add_parser("pair", help="start the next round: pairings and tables")
    res = es.add_parser("result", help="type a result by hand (a table offline): TABLE 2-1[-0]")
    res.add_argument("table", type=int)
    res.add_argument("score")
    res.add_argument("--round", type=int, help="default: the current round")
    res.add_argument("--correct", metavar="NOTE", help="correct a settled or disputed result, with a note")
    es.add_parser("undo", help="take back the event's last action")
    es.add_parser("redo", help="do again the last action taken back")
    s = es.add_parser("standings", help="standings with tiebreakers")
    s.add_argument("--json", action="store_true")
    sl = es.add_parser("slips", help="this round's match slips (and the standings) as PDF")
    sl.add_argument("-o", "--output", default="slips.pdf")
    sl.add_argument("--standings", help="also write the standings PDF here")
    pg = es.add_parser("pages", help="write the TV page and every player's page as HTML files")
    pg.add_argument("--out", default="event-pages")
    rt = es.add_parser("ratings", help="players' ratings from every event in the database")
    rt.add_argument("--game")
    e.set_defaults(func=cmd_event)


def _db_path(args) -> Path:
    return Path(args.db) if args.db else paths.data_dir(args.data_dir) / "events.sqlite3"


def _event_id(store: EventStore, args) -> int:
    if args.event is not None:
        store.log(args.event)                            # KeyError in words when there is none
        return args.event
    events = store.events()
    if not events:
        raise KeyError("there is no event yet; start one with 'companion event create NAME --game GAME'")
    return events[-1]["id"]


def _read_deck(path: str) -> list[str]:
    from companion import validate
    from companion.event import moves
    text = validate.read_text(path, MAX_DECK_FILE, "deck list")
    if text.lstrip().startswith("["):
        doc = validate.parse_json(text, path)
        validate.check(doc, {"type": "array", "items": {"type": "string"}, "maxItems": moves.MAX_DECK}, path, text)
        return doc
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _print_round(state: dict) -> None:
    rnd = state["rounds"][-1]
    names = {p["id"]: p["name"] for p in state["players"]}
    print(f"Round {rnd['number']}")
    for p in rnd["pairings"]:
        where = "bye     " if p["b"] is None else f"table {p['table']:<3d}"
        who = names[p["a"]] if p["b"] is None else f"{names[p['a']]} vs {names[p['b']]}"
        print(f"  {where} {who}\n            {p['why']}")


def _print_standings(state: dict) -> None:
    from companion.event import standings
    print(f"{'#':>3}  {'player':24s} {'pts':>4} {'W-L-D':>7} {'OMW%':>6} {'GW%':>6} {'OGW%':>6}")
    for r in standings.compute(state):
        name = r.name + (" (dropped)" if r.dropped else "")
        print(f"{r.rank:>3}  {name[:24]:24s} {r.points:>4} {r.record:>7} {float(r.omw) * 100:6.2f} "
              f"{float(r.gw) * 100:6.2f} {float(r.ogw) * 100:6.2f}")


def cmd_event(args) -> int:
    # the event's modules are imported here, not at the top: every `companion` command (the app's
    # start too) builds this parser, and they cost ~1 MB and ~0.1 s there (docs/ui.md, start and memory)
    from companion import validate
    from companion.event import moves
    from companion.event.store import EventStore
    try:
        with EventStore.open(_db_path(args)) as store:
            return _run(store, args)
    except (moves.EventError, validate.InputError) as exc:
        print(f"companion event: {exc}", file=sys.stderr)
    except KeyError as exc:
        print(f"companion event: {exc.args[0]}", file=sys.stderr)
    except OSError as exc:
        print(f"companion event: {getattr(exc, 'filename', '') or ''} {exc.strerror or exc}".strip(), file=sys.stderr)
    except Exception as exc:                    # sqlite3.DatabaseError and the like: one sentence, no traceback
        print(f"companion event: the event database cannot be used ({exc})", file=sys.stderr)
    return 2


def _run(store: EventStore, args) -> int:
    # fpdf and openskill are imported here, not at the top: every `companion` command builds this parser
    from companion.event import moves, pages, ratings, slips, standings

    cmd = args.event_command
    if cmd == "create":
        import time
        seed = args.seed if args.seed is not None else int(time.time())
        event_id = store.create(name=args.name, game=args.game, format=args.format, rounds=args.rounds,
                                round_minutes=args.minutes, seed=seed, decks_public=args.decks)
        print(f"event #{event_id} created: {args.name} (seed {seed})")
        return 0
    if cmd == "list":
        for e in store.events():
            state = store.state(e["id"])
            print(f"#{e['id']:<3d} {e['name']}  {state['game']}  {len(state['players'])} players, "
                  f"round {moves.current_round(state)}{' (over)' if moves.is_over(state) else ''}")
        return 0
    event_id = _event_id(store, args)
    state = store.state(event_id)
    if cmd == "register":
        deck = _read_deck(args.deck) if args.deck else None
        state = store.act(event_id, {"type": "register", "name": args.name, "deck": deck})
        p = state["players"][-1]
        late = " (late entry)" if p["joined"] > 1 else ""
        print(f"{p['name']} registered as {p['id']}{late}" + (f" with {len(deck)} cards" if deck else ""))
    elif cmd == "drop":
        player = moves.find_player(state, args.player)
        store.act(event_id, {"type": "drop", "player": player["id"], "by": "player" if args.self else "organiser"})
        print(f"{player['name']} dropped after round {moves.current_round(state)}")
    elif cmd == "pair":
        _print_round(store.act(event_id, {"type": "start_round"}))
    elif cmd == "result":
        m = SCORE.match(args.score)
        if not m:
            raise moves.EventError(f"{args.score[:20]!r} is not a score: write it as 2-1 or 2-1-0 (wins, wins, draws)")
        games = [int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)]
        where = {"round": args.round or moves.current_round(state), "table": args.table}
        if args.correct:
            store.act(event_id, {"type": "correct", **where, "games": games, "note": args.correct})
        else:
            store.act(event_id, {"type": "report", **where, "games": games, "source": "organiser"})
        print(f"round {where['round']} table {args.table}: {games[0]}-{games[1]}-{games[2]} (entered by organiser)")
    elif cmd == "undo":
        store.undo(event_id)
        print("undone")
    elif cmd == "redo":
        store.redo(event_id)
        print("redone")
    elif cmd == "standings":
        if args.json:
            print(json.dumps([r.as_dict() for r in standings.compute(state)], indent=1, ensure_ascii=False))
        else:
            _print_standings(state)
    elif cmd == "slips":
        Path(args.output).write_bytes(slips.slips_pdf(state))
        print(f"slips written to {args.output}")
        if args.standings:
            Path(args.standings).write_bytes(slips.standings_pdf(state))
            print(f"standings written to {args.standings}")
    elif cmd == "pages":
        out = Path(args.out)
        (out / "players").mkdir(parents=True, exist_ok=True)
        states = [store.state(e["id"]) for e in store.events()]
        rated = ratings.rate_events(states)
        (out / "tv.html").write_text(pages.tv_page(state), encoding="utf-8")
        for p in state["players"]:          # file names from ids (p3), never from a typed name
            (out / "players" / f"{p['id']}.html").write_text(pages.player_page(states, p["name"], rated),
                                                              encoding="utf-8")
        print(f"TV page and {len(state['players'])} player pages written to {out}")
    elif cmd == "ratings":
        rated = ratings.rate_events([store.state(e["id"]) for e in store.events()])
        for game, board in sorted(rated.items()):
            if args.game and game != args.game:
                continue
            print(game)
            for entry in sorted(board.values(), key=lambda e: -e["rating"]):
                print(f"  {entry['rating']:7.2f}  {entry['name']}  ({entry['games']} games)")
    return 0
