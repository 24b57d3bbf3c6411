"""The tag registry: which RFID tag UID carries which card.

UIDs are written as upper-case hex without separators ("04A2B3C4D5E680");
ISO/IEC 14443-3 tags have 4, 7 or 10 byte UIDs.  The registry lives in the same
SQLite file as the game log.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from companion.cards import CARD_ID

UID_LENGTHS = (4, 7, 10)
_SEPARATORS = re.compile(r"[\s:\-]")


class BadUid(ValueError):
    pass


def normalise_uid(uid: str | bytes) -> str:
    """``"04:a2:b3:c4"``, ``b"\\x04\\xa2\\xb3\\xc4"`` → ``"04A2B3C4"``; wrong lengths refused."""
    if isinstance(uid, (bytes, bytearray)):
        text = bytes(uid).hex()
    else:
        text = _SEPARATORS.sub("", str(uid))
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raise BadUid(f"{uid!r} is not a hex UID") from None
    if len(raw) not in UID_LENGTHS:
        raise BadUid(f"UID {text.upper()} has {len(raw)} bytes; tags have 4, 7 or 10")
    return raw.hex().upper()


SCHEMA = """
CREATE TABLE IF NOT EXISTS tags (
    uid      TEXT PRIMARY KEY,
    card_id  TEXT NOT NULL,
    added    TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE INDEX IF NOT EXISTS tags_by_card ON tags(card_id);
"""

#: Database version 2: a card id a tag claims (its NDEF record) that differs from the registry's,
#: kept until the players confirm or dismiss it.
RELABEL_SCHEMA = """
CREATE TABLE IF NOT EXISTS relabels (
    uid         TEXT PRIMARY KEY,
    registered  TEXT NOT NULL,
    claimed     TEXT NOT NULL,
    seen        TEXT NOT NULL DEFAULT (datetime('now'))
);
"""


@dataclass(frozen=True)
class Relabel:
    """Tag ``uid`` is registered as ``registered`` but its own memory says ``claimed``."""

    uid: str
    registered: str
    claimed: str
    seen: str


class TagRegistry:
    """Maps tag UIDs to card ids, stored in the :class:`~companion.session.Store`.

    Every read and write goes through the store's one connection and lock
    (``store.tx()`` / ``store.read()``): the registry never opens a transaction
    of its own, so a tag registered from the Cards screen cannot commit or roll
    back a game action another thread is writing.

    The registry is this table's truth.  A card id read from a tag (an NDEF
    record anyone with a phone can write) never replaces it silently:
    :meth:`resolve` keeps the registered card and records a :class:`Relabel`
    that the players :meth:`confirm_relabel` or :meth:`dismiss_relabel`.
    """

    def __init__(self, store):
        self._store = store
        self._cache: dict[str, str | None] = {}

    def register(self, uid: str | bytes, card_id: str) -> str:
        """Remember that ``uid`` carries ``card_id`` (re-registering moves the tag)."""
        key = normalise_uid(uid)
        if not isinstance(card_id, str) or not CARD_ID.match(card_id):
            raise ValueError(f"{card_id!r} is not a card id")
        with self._store.lock:                   # the cache changes only once the commit succeeded
            with self._store.tx() as db:
                db.execute("INSERT OR REPLACE INTO tags(uid, card_id) VALUES (?, ?)", (key, card_id))
                db.execute("DELETE FROM relabels WHERE uid = ?", (key,))
            self._cache[key] = card_id
        return key

    def register_many(self, pairs) -> None:
        rows = [(normalise_uid(u), c) for u, c in pairs]
        with self._store.lock:
            with self._store.tx() as db:
                db.executemany("INSERT OR REPLACE INTO tags(uid, card_id) VALUES (?, ?)", rows)
            self._cache.update(dict(rows))

    def forget(self, uid: str | bytes) -> None:
        key = normalise_uid(uid)
        with self._store.lock:
            with self._store.tx() as db:
                db.execute("DELETE FROM tags WHERE uid = ?", (key,))
                db.execute("DELETE FROM relabels WHERE uid = ?", (key,))
            self._cache.pop(key, None)

    def lookup(self, uid: str | bytes) -> str | None:
        """The card id on ``uid``, or None for a tag nobody registered."""
        key = normalise_uid(uid)
        with self._store.read() as db:
            if key not in self._cache:
                row = db.execute("SELECT card_id FROM tags WHERE uid = ?", (key,)).fetchone()
                self._cache[key] = row[0] if row else None
            return self._cache[key]

    def resolve(self, uid: str | bytes, claimed: str | None) -> tuple[str | None, bool]:
        """The card to use for a tag whose memory says ``claimed``, and whether a relabel was newly recorded.

        Unregistered tag: what it claims (nothing is overridden).  Registered
        tag claiming another card: the registered card, and the claim is kept
        as a pending :class:`Relabel` for the players to confirm.
        """
        registered = self.lookup(uid)
        if claimed is None or registered is None or registered == claimed:
            return (registered if registered is not None else claimed), False
        key = normalise_uid(uid)
        with self._store.tx() as db:
            row = db.execute("SELECT claimed FROM relabels WHERE uid = ?", (key,)).fetchone()
            if row is not None and row[0] == claimed:
                return registered, False
            db.execute("INSERT OR REPLACE INTO relabels(uid, registered, claimed) VALUES (?, ?, ?)",
                       (key, registered, claimed))
        return registered, True

    def pending(self) -> list[Relabel]:
        """Relabels waiting for the players, oldest first."""
        with self._store.read() as db:
            return [Relabel(*r) for r in db.execute(
                "SELECT uid, registered, claimed, seen FROM relabels ORDER BY seen, uid")]

    def confirm_relabel(self, uid: str | bytes) -> str:
        """The players agree: the tag now carries the card it claims.  Returns that card id."""
        key = normalise_uid(uid)
        with self._store.lock:
            with self._store.tx() as db:
                row = db.execute("SELECT claimed FROM relabels WHERE uid = ?", (key,)).fetchone()
                if row is None:
                    raise KeyError(f"no relabel is waiting for tag {key}")
                db.execute("INSERT OR REPLACE INTO tags(uid, card_id) VALUES (?, ?)", (key, row[0]))
                db.execute("DELETE FROM relabels WHERE uid = ?", (key,))
            self._cache[key] = row[0]
        return row[0]

    def dismiss_relabel(self, uid: str | bytes) -> None:
        """The players refuse: the registry stays as it is."""
        key = normalise_uid(uid)
        with self._store.tx() as db:
            db.execute("DELETE FROM relabels WHERE uid = ?", (key,))

    def uids_of(self, card_id: str) -> list[str]:
        with self._store.read() as db:
            return [r[0] for r in db.execute("SELECT uid FROM tags WHERE card_id = ? ORDER BY uid", (card_id,))]

    def all(self) -> list[tuple[str, str]]:
        with self._store.read() as db:
            return list(db.execute("SELECT uid, card_id FROM tags ORDER BY card_id, uid"))


VIRTUAL_COPIES = 4          # Arcmage allows 4 copies of a card; Territory's land deck repeats lands


def virtual_uid(card_id: str, copy: int = 0) -> str:
    """The 7-byte UID of the simulated table's tag on copy ``copy`` of ``card_id``.

    Stable across runs (a hash of the id) and starting with 04, NXP's
    manufacturer byte, like the NTAG21x stickers people put on cards.
    Copy 0 is the card's first (often only) copy.
    """
    import hashlib
    key = card_id if copy == 0 else f"{card_id}#{copy}"
    return "04" + hashlib.sha1(key.encode()).hexdigest()[:12].upper()
