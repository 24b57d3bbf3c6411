"""The club's names, topics and settings files: what a table knows of its club, and what the hub knows.

Topics (one tree per table; the broker's ACL lets table ``t`` write only ``club/t/…``
and read only its own acknowledgements)::

    club/<table>/log      table → hub   the outbox, QoS 1, in order
    club/<table>/live     table → all   what the shared screen shows now (retained)
    club/<table>/status   table → all   "online" / "offline" (retained; "offline" is the last will)
    club/<table>/ack      hub → table   {"game": id, "n": highest n stored without a gap}
    club/<table>/pairing  hub → table   an event's open pairing for the table (retained; empty: none)
    club/<table>/deckscan hub ← table   a deck check's cards so far (companion.event.hub answers it)
    club/<table>/deckverdict hub → table  the deck check's verdict (counts only: the card names stay on the hub)

A table's settings are ``<config dir>/club.toml`` (written by ``companion club join``);
the hub's are ``hub.toml`` (written by ``companion hub setup``).
"""
from __future__ import annotations

import json
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from companion import paths

PREFIX = "club"
HUB_USER = "hub"
#: A table's name is its MQTT user name and a topic level: no '/', '+', '#', spaces or capitals.
NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")
MAX_MESSAGE_BYTES = 1_000_000         # a message bigger than this is refused, not parsed
MAX_SETTINGS_BYTES = 64_000


class ClubError(ValueError):
    """A club setting that cannot be used; the message is one sentence."""


def check_name(name: str, what: str = "table name") -> str:
    if not isinstance(name, str) or not NAME.match(name) or name == HUB_USER:
        raise ClubError(f"{what} {name!r} cannot be used: write 1-32 lower-case letters, digits and '-' "
                        f"(starting with a letter or digit), and not {HUB_USER!r}")
    return name


def topic(table: str, leaf: str) -> str:
    return f"{PREFIX}/{table}/{leaf}"


def table_of(topic_name: str) -> tuple[str, str] | None:
    """``club/<table>/<leaf>`` → (table, leaf); anything else None (never trusted further)."""
    parts = topic_name.split("/")
    if len(parts) != 3 or parts[0] != PREFIX or not NAME.match(parts[1]):
        return None
    return parts[1], parts[2]


# ---- the organiser's password ---------------------------------------------------------------------
PBKDF2_ROUNDS = 200_000     # OWASP's 2023 cheat sheet asks 600,000 for SHA-256; a Pi 4 checks 200,000 in ~0.3 s (estimate)


def hash_password(password: str, salt: bytes | None = None, rounds: int = PBKDF2_ROUNDS) -> str:
    """``pbkdf2_sha256$rounds$salt$hash`` (hex): what hub.toml keeps instead of the password."""
    # hashlib, hmac and secrets here, not at the top: every table imports this module (the command
    # line's parser, the app's start) and only the hub checks a password; they start OpenSSL's
    # digests, ~0.7 MB of the app's memory (docs/ui.md)
    import hashlib
    import secrets
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, rounds)
    return f"pbkdf2_sha256${rounds}${salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str) -> bool:
    import hashlib
    import hmac
    try:
        kind, rounds, salt, digest = stored.split("$")
        if kind != "pbkdf2_sha256":
            return False
        mine = hashlib.pbkdf2_hmac("sha256", password.encode(), bytes.fromhex(salt), int(rounds))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(mine.hex(), digest)


# ---- settings files -------------------------------------------------------------------------------
def read_toml(path: Path, what: str) -> dict:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ClubError(f"{path} cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_SETTINGS_BYTES:
        raise ClubError(f"{path} is too big for a {what} ({len(data)} bytes)")
    try:
        return tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ClubError(f"{path} is not a valid {what}: {exc}") from None


def write_private(path: Path, text: str) -> None:
    """Write a file holding a password: 0600 from its first byte, replaced atomically."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".new")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_NOFOLLOW, paths.FILE_MODE)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def toml_lines(values: dict) -> str:
    """``key = value`` lines; JSON strings and numbers are valid TOML basic strings and numbers."""
    return "".join(f"{k} = {json.dumps(v)}\n" for k, v in values.items() if v is not None)


def _field(data: dict, key: str, kind, source: str, default=None):
    value = data.get(key, default)
    if value is None and default is None and kind is not type(None):
        raise ClubError(f"{source}: '{key}' is missing")
    if value is not None and (not isinstance(value, kind) or isinstance(value, bool) and kind is int):
        raise ClubError(f"{source}: '{key}' must be a {kind.__name__}")
    return value


def _port(value: int, source: str, key: str) -> int:
    if not 1 <= value <= 65535:
        raise ClubError(f"{source}: '{key}' {value} is not a port (1-65535)")
    return value


@dataclass(frozen=True)
class Broker:
    """Where a client finds the broker, and how it proves who it is."""
    host: str
    port: int
    username: str
    password: str
    ca_file: Path | None = None          # the club certificate: TLS when set

    def client_kwargs(self) -> dict:
        return {"host": self.host, "port": self.port}


@dataclass(frozen=True)
class ClubConfig:
    """A table's membership of a club (``<config dir>/club.toml``)."""
    table: str
    broker: Broker

    @classmethod
    def load(cls, path: Path) -> "ClubConfig":
        data = read_toml(path, "club file")
        src = str(path)
        table = check_name(_field(data, "table", str, src))
        ca = _field(data, "ca_file", str, src, "") or None
        return cls(table, Broker(host=_field(data, "broker", str, src),
                                 port=_port(_field(data, "port", int, src, 1883), src, "port"),
                                 username=table, password=_field(data, "password", str, src),
                                 ca_file=Path(ca) if ca else None))

    def save(self, path: Path) -> None:
        write_private(path, "# This table's club (companion club join); the password is this table's own.\n" +
                      toml_lines({"table": self.table, "broker": self.broker.host, "port": self.broker.port,
                                  "password": self.broker.password,
                                  "ca_file": str(self.broker.ca_file) if self.broker.ca_file else None}))


def club_path() -> Path:
    return paths.config_dir() / "club.toml"


def joined_club(path: Path | None = None) -> ClubConfig | None:
    """This table's club, or None when it has joined none (then nothing of the club runs)."""
    path = path or club_path()
    return ClubConfig.load(path) if path.exists() else None


@dataclass(frozen=True)
class HubConfig:
    """The hub's settings (``hub.toml``, written by ``companion hub setup``)."""
    broker: Broker
    database: Path
    http_host: str = "0.0.0.0"
    http_port: int = 8080
    organiser_hash: str | None = None      # None: no POST route accepts anything

    @classmethod
    def load(cls, path: Path) -> "HubConfig":
        data = read_toml(path, "hub settings file")
        src = str(path)
        ca = _field(data, "ca_file", str, src, "") or None
        return cls(broker=Broker(host=_field(data, "broker", str, src, "127.0.0.1"),
                                 port=_port(_field(data, "port", int, src, 1883), src, "port"),
                                 username=HUB_USER, password=_field(data, "password", str, src),
                                 ca_file=Path(ca) if ca else None),
                   database=Path(_field(data, "database", str, src)),
                   http_host=_field(data, "http_host", str, src, "0.0.0.0"),
                   http_port=_port(_field(data, "http_port", int, src, 8080), src, "http_port"),
                   organiser_hash=_field(data, "organiser_hash", str, src, "") or None)

    def save(self, path: Path) -> None:
        write_private(path, "# The club's hub (companion hub setup). The organiser's password is kept as a hash.\n" +
                      toml_lines({"broker": self.broker.host, "port": self.broker.port,
                                  "password": self.broker.password,
                                  "ca_file": str(self.broker.ca_file) if self.broker.ca_file else None,
                                  "database": str(self.database), "http_host": self.http_host,
                                  "http_port": self.http_port, "organiser_hash": self.organiser_hash}))
