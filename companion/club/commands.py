"""``companion hub``, ``companion hub setup``, ``companion club join``/``leave``/``status`` and the
club's line in ``companion doctor``; the composition root (companion.cli) adds these to its parser."""
from __future__ import annotations

import getpass
import os
import socket
import sys
from pathlib import Path

from companion import paths
from companion.club.config import ClubConfig, ClubError, HubConfig, club_path, joined_club
from companion.words import counted


def add_commands(sub) -> None:
    h = sub.add_parser("hub", help="the club's hub: store every table's games and serve the spectator pages")
    h.add_argument("--config", default="/etc/tabletop-companion/hub.toml", help="hub settings (hub setup writes it)")
    hs = h.add_subparsers(dest="hub_command")
    s = hs.add_parser("setup", help="set this machine up as the club's hub: mosquitto, its config, the hub's unit")
    s.add_argument("--tables", required=True, help="the club's table names, comma-separated (e.g. t1,t2,t3)")
    s.add_argument("--broker-host", required=True, help="the address tables reach this machine at (name or IP)")
    s.add_argument("--port", type=int, default=1883, help="MQTT port (default 1883; with TLS, plain MQTT "
                   "stays on loopback for the hub, 0 turns it off)")
    s.add_argument("--bind", default="0.0.0.0", help="address the broker listens on (default all)")
    s.add_argument("--http-port", type=int, default=8080, help="the spectator pages' port (default 8080)")
    s.add_argument("--organiser-password-file", help="a file holding the organiser's password "
                   "(default: asked for, or a new one printed once)")
    s.add_argument("--tls-ca", help="the club's CA certificate (TLS on port 8883; docs/club.md shows how to make it)")
    s.add_argument("--tls-cert", help="the broker's certificate, signed by the club's CA")
    s.add_argument("--tls-key", help="the broker's private key")
    s.add_argument("--dir", help="write everything under this directory; no apt-get, no systemctl")
    s.add_argument("--dry-run", action="store_true", help="print what would be done and change nothing")
    h.set_defaults(func=cmd_hub)

    c = sub.add_parser("club", help="this table's club: join, leave, status")
    cs = c.add_subparsers(dest="club_command", required=True)
    j = cs.add_parser("join", help="join a club: its join file (from hub setup), or the broker and credentials")
    j.add_argument("file", nargs="?", help="the table's join file, e.g. t3.toml from the organiser")
    j.add_argument("--broker", help="the hub's address (instead of a join file)")
    j.add_argument("--port", type=int, default=1883)
    j.add_argument("--table", help="this table's name at the club")
    j.add_argument("--password-file", help="a file holding this table's password")
    j.add_argument("--ca-file", help="the club's CA certificate (TLS)")
    cs.add_parser("leave", help="stop publishing to the club (the games stay on this table)")
    cs.add_parser("status", help="the club this table has joined, and what waits for the hub")
    c.set_defaults(func=cmd_club)


def cmd_hub(args) -> int:
    try:
        if args.hub_command == "setup":
            return _setup(args)
        from companion.club.hub import run_hub
        from companion.event.hub import EventHub
        config = HubConfig.load(Path(args.config))
        print(f"club hub: pages on http://{config.http_host}:{config.http_port}/ (the event: /event), broker "
              f"{config.broker.host}:{config.broker.port}, games in {config.database}", flush=True)
        run_hub(config, mounts=(EventHub,))
    except (ClubError, OSError) as exc:
        print(f"companion hub: {exc}", file=sys.stderr)
        return 2
    return 0


def _setup(args) -> int:
    from companion.club.broker import Tls, setup
    tables = [t.strip() for t in args.tables.split(",") if t.strip()]
    if not tables:
        raise ClubError("--tables names no table")
    tls = None
    if args.tls_ca or args.tls_cert or args.tls_key:
        if not (args.tls_ca and args.tls_cert and args.tls_key):
            raise ClubError("TLS needs all three: --tls-ca, --tls-cert and --tls-key")
        tls = Tls(Path(args.tls_ca), Path(args.tls_cert), Path(args.tls_key))
    shown = None
    if args.organiser_password_file:
        password = Path(args.organiser_password_file).read_text(encoding="utf-8").strip()
    elif args.dry_run:
        password = "-"
    elif sys.stdin.isatty():
        password = getpass.getpass("The organiser's password (to change an event from the pages): ")
    else:
        from companion.club.broker import new_password
        password = shown = new_password()
    if len(password) < 8 and not args.dry_run:
        raise ClubError("the organiser's password needs at least 8 characters")
    root = Path(args.dir) if args.dir else Path("/")
    if root == Path("/") and not args.dry_run and os.geteuid() != 0:
        raise ClubError("setting a hub up needs root (sudo), or --dir to write the files elsewhere")
    setup(tables, root=root, broker_host=args.broker_host, port=args.port, bind=args.bind,
          http_port=args.http_port, organiser_password=password, tls=tls, dry_run=args.dry_run,
          companion=os.path.abspath(sys.argv[0]) if sys.argv[0].endswith("companion") else "/usr/local/bin/companion")
    if not args.dry_run:
        join = root / "etc" / "tabletop-companion" / "join"
        print(f"Done. Give each table its join file from {join}/ and run on it: companion club join <file>")
        if shown:
            print(f"The organiser's password (shown once, keep it): {shown}")
    return 0


def cmd_club(args) -> int:
    path = club_path()
    try:
        if args.club_command == "join":
            club = _join_settings(args)
            club.save(path)
            print(f"This table is {club.table!r} at the club's broker {club.broker.host}:{club.broker.port}"
                  f"{' (TLS)' if club.broker.ca_file else ''}; settings in {path}. "
                  f"'companion run' now sends every game to the hub.")
            return 0
        if args.club_command == "leave":
            if path.exists():
                path.unlink()
                print(f"Left the club ({path} removed); games waiting for the hub stay on this table.")
            else:
                print("This table has joined no club.")
            return 0
        print(club_status(paths.data_dir(args.data_dir, create=False)))
        return 0
    except (ClubError, OSError) as exc:
        print(f"companion club: {exc}", file=sys.stderr)
        return 2


def _join_settings(args) -> ClubConfig:
    if args.file:
        return ClubConfig.load(Path(args.file))
    if not (args.broker and args.table and args.password_file):
        raise ClubError("give the join file, or --broker, --table and --password-file")
    from companion.club.config import Broker, check_name
    password = Path(args.password_file).read_text(encoding="utf-8").strip()
    return ClubConfig(check_name(args.table), Broker(args.broker, args.port, args.table, password,
                                                     Path(args.ca_file) if args.ca_file else None))


def club_status(data_dir: Path | None = None, timeout: float = 2.0) -> str:
    """One paragraph for ``companion doctor`` and ``club status``: the club, the broker, what waits."""
    try:
        club = joined_club()
    except ClubError as exc:
        return f"Club: {exc}"
    if club is None:
        return "Club: none joined (this table plays on its own; 'companion club join FILE' joins one)"
    b = club.broker
    try:
        socket.create_connection((b.host, b.port), timeout=timeout).close()
        reach = "reachable"
    except OSError as exc:
        reach = f"not reachable now ({exc.strerror or exc}); games wait on this table and go when it is back"
    waiting = ""
    if data_dir is not None and paths.database_path(data_dir).exists():
        from companion.session import Store, StoreError
        try:
            with Store(paths.database_path(data_dir), readonly=True) as store, store.read() as db:
                n = db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0]
            waiting = f"; {counted(n, 'change')} {'waits' if n == 1 else 'wait'} for the hub's acknowledgement"
        except (StoreError, Exception) as exc:          # an older file has no outbox: nothing waits
            waiting = "" if "outbox" in str(exc) else f"; the games database cannot be read ({exc})"
    return (f"Club: table {club.table!r} at broker {b.host}:{b.port} "
            f"({'TLS, CA ' + str(b.ca_file) if b.ca_file else 'no TLS'}), {reach}{waiting}")


def start_publisher(store):
    """``companion run``: the publisher for this table's club, or None when it has joined none."""
    club = joined_club()
    if club is None:
        return None
    from companion.club.outbox import Publisher
    return Publisher(store, club).start()
