"""The club's Mosquitto: its configuration (listener, password file, ACL), the hub's settings and unit.

``companion hub setup`` calls :func:`setup`; the tests and ``companion bench club``
call :func:`write_broker_files` and :class:`RunningBroker` to run the same
configuration on a loopback port.

What the ACL says (Mosquitto's ``pattern`` lines; ``%u`` is the user name, which
for a table is its name)::

    pattern write club/%u/log         a table writes only under its own name
    pattern write club/%u/live
    pattern write club/%u/status
    pattern read  club/%u/ack         and reads only its own acknowledgements
    pattern read  club/%u/pairing     and the event's pairing for it
    pattern write club/%u/deckscan    a deck check's scan, to the hub only
    pattern read  club/%u/deckverdict and its verdict
    user hub
    topic read  club/+/log            the hub reads every table
    topic read  club/+/live
    topic read  club/+/status
    topic write club/+/ack            and acknowledges to each
    topic write club/+/pairing        and sends each table its pairing (retained)
    topic read  club/+/deckscan       reads every table's deck-check scan
    topic write club/+/deckverdict    and answers it

Anonymous clients are refused (``allow_anonymous false``); every table has its own
password, hashed by ``mosquitto_passwd`` (PBKDF2-SHA512 in Mosquitto 2).
"""
from __future__ import annotations

import getpass
import secrets
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from companion.club.config import HUB_USER, PREFIX, Broker, ClubConfig, ClubError, HubConfig, check_name, \
    hash_password, write_private

ACL = f"""# Written by `companion hub setup`: each table may write only under its own name.
pattern write {PREFIX}/%u/log
pattern write {PREFIX}/%u/live
pattern write {PREFIX}/%u/status
pattern read {PREFIX}/%u/ack
pattern read {PREFIX}/%u/pairing
pattern write {PREFIX}/%u/deckscan
pattern read {PREFIX}/%u/deckverdict

user {HUB_USER}
topic read {PREFIX}/+/log
topic read {PREFIX}/+/live
topic read {PREFIX}/+/status
topic write {PREFIX}/+/ack
topic write {PREFIX}/+/pairing
topic read {PREFIX}/+/deckscan
topic write {PREFIX}/+/deckverdict
"""


@dataclass(frozen=True)
class Tls:
    """The club certificate: the broker's certificate and key, and the CA that signed it (given to tables)."""
    cafile: Path
    certfile: Path
    keyfile: Path
    port: int = 8883


def broker_conf(directory: Path, port: int, bind: str, tls: Tls | None = None, user: str | None = None,
                persistence: bool = True) -> str:
    lines = ["# Written by `companion hub setup` (docs/club.md).",
             "per_listener_settings false",
             "allow_anonymous false",
             f"password_file {directory / 'passwords'}",
             f"acl_file {directory / 'acl'}",
             "max_queued_messages 100000",        # a table offline for hours queues its acknowledgements
             "max_inflight_messages 100",
             "max_packet_size 2000000",             # a finished game's record is ~100 kB; the hub takes up to 1 MB
             "persistent_client_expiration 7d"]
    if persistence:
        lines += ["persistence true", f"persistence_location {directory}/", "autosave_interval 30"]
    if user:
        lines.append(f"user {user}")
    if tls is None:
        lines.append(f"listener {port} {bind}")
    else:
        lines += [f"listener {tls.port} {bind}", f"cafile {tls.cafile}", f"certfile {tls.certfile}",
                  f"keyfile {tls.keyfile}", "tls_version tlsv1.2"]
        if port:                                  # plain MQTT only on loopback, for the hub on the same machine
            lines.append(f"listener {port} 127.0.0.1")
    return "\n".join(lines) + "\n"


def new_password() -> str:
    return secrets.token_urlsafe(18)


def write_broker_files(directory: Path, tables: list[str], port: int, bind: str = "127.0.0.1",
                       tls: Tls | None = None, user: str | None = None,
                       passwords: dict[str, str] | None = None, persistence: bool = True) -> dict[str, str]:
    """mosquitto.conf, acl and the hashed password file in ``directory``; returns user → password
    (the tables' and the hub's), which exist in plain text only in the join files."""
    if shutil.which("mosquitto_passwd") is None:
        raise ClubError("mosquitto_passwd is not installed; install Debian's mosquitto package "
                        "(sudo apt-get install mosquitto)")
    names = [check_name(t) for t in tables]
    if len(set(names)) != len(names):
        raise ClubError("a table name is given twice")
    directory.mkdir(parents=True, exist_ok=True)
    passwords = dict(passwords or {})
    for name in [*names, HUB_USER]:
        passwords.setdefault(name, new_password())
    plain = directory / "passwords"
    write_private(plain, "".join(f"{u}:{p}\n" for u, p in passwords.items()))
    done = subprocess.run(["mosquitto_passwd", "-U", str(plain)], capture_output=True, text=True)
    if done.returncode != 0:
        plain.unlink(missing_ok=True)
        raise ClubError(f"mosquitto_passwd could not hash the passwords: {done.stderr.strip() or done.stdout.strip()}")
    (directory / "acl").write_text(ACL)
    (directory / "mosquitto.conf").write_text(broker_conf(directory, port, bind, tls, user, persistence))
    return passwords


def mosquitto_path() -> str | None:
    """The broker's program (Debian puts it in /usr/sbin, outside a normal user's PATH)."""
    found = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RunningBroker:
    """A real ``mosquitto`` on a loopback port with a generated configuration (tests, bench)."""

    def __init__(self, directory: Path, tables: list[str], port: int | None = None, tls: Tls | None = None):
        self.directory = Path(directory)
        self.tls = tls
        self.port = tls.port if tls else (port or free_port())
        self.passwords = write_broker_files(self.directory, tables, 0 if tls else self.port,
                                            tls=tls, user=getpass.getuser())
        self.proc: subprocess.Popen | None = None

    def broker(self, user: str) -> Broker:
        return Broker("127.0.0.1", self.port, user, self.passwords[user], self.tls.cafile if self.tls else None)

    def club(self, table: str) -> ClubConfig:
        return ClubConfig(table, self.broker(table))

    def start(self) -> "RunningBroker":
        log = open(self.directory / "mosquitto.log", "ab")
        self.proc = subprocess.Popen([mosquitto_path() or "mosquitto", "-c", str(self.directory / "mosquitto.conf")],
                                     stdout=log, stderr=log, start_new_session=True)
        log.close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"mosquitto exited: {(self.directory / 'mosquitto.log').read_text()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not start listening")

    def kill(self) -> None:
        """SIGKILL: the broker dies without saving anything (its last autosave is what it has)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


# ---- `companion hub setup` -----------------------------------------------------------------------
UNIT = """[Unit]
Description=Tabletop companion club hub (games from every table, spectator pages)
After=network-online.target mosquitto.service
Wants=network-online.target
Requires=mosquitto.service

[Service]
User={user}
ExecStart={companion} hub --config {config}
Restart=on-failure
RestartSec=2
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=read-only
ReadWritePaths={data}
PrivateTmp=yes
PrivateDevices=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectControlGroups=yes
RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX
RestrictNamespaces=yes
LockPersonality=yes
MemoryDenyWriteExecute=yes
SystemCallArchitectures=native
UMask=0077

[Install]
WantedBy=multi-user.target
"""


def setup(tables: list[str], *, root: Path = Path("/"), broker_host: str, port: int = 1883, bind: str = "0.0.0.0",
          http_port: int = 8080, organiser_password: str, user: str = "companion-hub",
          companion: str = "/usr/local/bin/companion", tls: Tls | None = None, dry_run: bool = False,
          say=print) -> list[str]:
    """Set a hub up: the mosquitto package, its config, the hub's settings and unit, one join file per table.

    ``root`` (``--dir``) writes everything under another directory and runs no
    apt-get or systemctl (tests, or a look before doing it).  ``dry_run``
    prints the steps and changes nothing.  Returns the steps, as said.
    """
    names = [check_name(t) for t in tables]
    etc = root / "etc"
    conf_dir = etc / "mosquitto" / "conf.d"
    club_dir = etc / "mosquitto" / "club"
    hub_dir = etc / "tabletop-companion"
    data = root / "var" / "lib" / "tabletop-companion-hub"
    unit = etc / "systemd" / "system" / "tabletop-companion-hub.service"
    real = root == Path("/")
    steps = []
    if real:
        steps.append("apt-get install -y mosquitto mosquitto-clients")
    steps += [f"write {club_dir}/passwords (hashed with mosquitto_passwd), {club_dir}/acl",
              f"write {conf_dir}/club.conf (listener {tls.port if tls else port} on {bind}; "
              f"{'TLS with the club certificate' if tls else 'no TLS'}; no anonymous clients)",
              f"write {hub_dir}/hub.toml (the hub's broker password, the organiser's password hash) and "
              f"{hub_dir}/join/<table>.toml for each of {len(names)} tables",
              f"write {unit}"]
    if real:
        steps += [f"useradd --system {user}", "systemctl daemon-reload",
                  "systemctl enable --now mosquitto tabletop-companion-hub", "systemctl restart mosquitto"]
    for step in steps:
        say(("would: " if dry_run else "") + step)
    if dry_run:
        return steps
    if real:
        _run(["apt-get", "install", "-y", "-q", "mosquitto", "mosquitto-clients"])
    # Debian's own mosquitto.conf already keeps persistence in /var/lib/mosquitto and runs as mosquitto.
    passwords = write_broker_files(club_dir, names, port, bind, tls, persistence=not real,
                                   user=None if real else getpass.getuser())    # --dir: runs as whoever set it up
    if real:
        _run(["chown", "mosquitto:", str(club_dir / "passwords")])
    conf_dir.mkdir(parents=True, exist_ok=True)
    (club_dir / "mosquitto.conf").replace(conf_dir / "club.conf")
    listen_port = tls.port if tls else port
    hub = HubConfig(broker=Broker("127.0.0.1", port if (port or not tls) else listen_port, HUB_USER,
                                  passwords[HUB_USER], tls.cafile if tls and not port else None),
                    database=data / "hub.sqlite3", http_port=http_port,
                    organiser_hash=hash_password(organiser_password))
    hub.save(hub_dir / "hub.toml")
    for name in names:
        ClubConfig(name, Broker(broker_host, listen_port, name, passwords[name],
                                Path("/etc/tabletop-companion/club-ca.crt") if tls else None)) \
            .save(hub_dir / "join" / f"{name}.toml")
    if tls:
        shutil.copyfile(tls.cafile, hub_dir / "join" / "club-ca.crt")
    data.mkdir(parents=True, exist_ok=True)
    unit.parent.mkdir(parents=True, exist_ok=True)
    unit.write_text(UNIT.format(user=user, companion=companion, config=hub_dir / "hub.toml", data=data))
    if real:
        if subprocess.run(["id", user], capture_output=True).returncode != 0:
            _run(["useradd", "--system", "--home-dir", str(data), "--shell", "/usr/sbin/nologin", user])
        _run(["chown", "-R", f"{user}:", str(data)])
        _run(["chown", f"{user}:", str(hub_dir / "hub.toml")])
        _run(["systemctl", "daemon-reload"])
        _run(["systemctl", "enable", "--now", "mosquitto", "tabletop-companion-hub"])
        _run(["systemctl", "restart", "mosquitto"])
    return steps


def _run(cmd: list[str]) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise ClubError(f"{' '.join(cmd)} failed: {(done.stderr or done.stdout).strip()[:300]}")


__all__ = ["ACL", "RunningBroker", "Tls", "broker_conf", "free_port", "mosquitto_path", "setup", "write_broker_files"]
