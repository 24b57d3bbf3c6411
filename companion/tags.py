"""The tag registry: which RFID tag UID carries which card.

UIDs are written as upper-case hex without separators ("04A2B3C4D5E680");
ISO/IEC 14443-3 tags have 4, 7 or 10 byte UIDs.  The registry lives in the same
SQLite file as the game log.
"""
from __future__ import annotations

import re
import sqlite3

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


class TagRegistry:
    """Maps tag UIDs to card ids, stored in SQLite."""

    def __init__(self, connection: sqlite3.Connection):
        self._db = connection
        with self._db:
            self._db.executescript(SCHEMA)
        self._cache: dict[str, str | None] = {}

    def register(self, uid: str | bytes, card_id: str) -> str:
        """Remember that ``uid`` carries ``card_id`` (re-registering moves the tag)."""
        key = normalise_uid(uid)
        if not CARD_ID.match(card_id):
            raise ValueError(f"{card_id!r} is not a card id")
        with self._db:
            self._db.execute("INSERT OR REPLACE INTO tags(uid, card_id) VALUES (?, ?)", (key, card_id))
        self._cache[key] = card_id
        return key

    def register_many(self, pairs) -> None:
        rows = [(normalise_uid(u), c) for u, c in pairs]
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO tags(uid, card_id) VALUES (?, ?)", rows)
        self._cache.update(dict(rows))

    def forget(self, uid: str | bytes) -> None:
        key = normalise_uid(uid)
        with self._db:
            self._db.execute("DELETE FROM tags WHERE uid = ?", (key,))
        self._cache.pop(key, None)

    def lookup(self, uid: str | bytes) -> str | None:
        """The card id on ``uid``, or None for a tag nobody registered."""
        key = normalise_uid(uid)
        if key not in self._cache:
            row = self._db.execute("SELECT card_id FROM tags WHERE uid = ?", (key,)).fetchone()
            self._cache[key] = row[0] if row else None
        return self._cache[key]

    def uids_of(self, card_id: str) -> list[str]:
        return [r[0] for r in self._db.execute("SELECT uid FROM tags WHERE card_id = ? ORDER BY uid", (card_id,))]

    def all(self) -> list[tuple[str, str]]:
        return list(self._db.execute("SELECT uid, card_id FROM tags ORDER BY card_id, uid"))


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
