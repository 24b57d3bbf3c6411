"""Turning raw reads into `PadEvent`s: placements at once, removals only when sure.

A reader's poll of a pad says which UIDs answered *this time*.  Tags at the
edge of a field, or under a hand, miss reads now and then; a game must not see
a card leave and come back because of that.  :class:`Debouncer` therefore

* reports a placement (``seen``) after one clean read: the driver only returns
  UIDs that passed their BCC and CRC_A checks, so one read is trustworthy;
* reports a removal (``gone``) after ``misses_to_remove`` consecutive polls of
  that pad without the tag (the driver already retries a missed tag within a
  poll, so with 20 % of read attempts missed a poll misses a present tag with
  probability 0.2³ = 0.008, and three such polls in a row happen once in about
  two million polls);
* reports a tag read in the latest polls of *two* pads as a :class:`Conflict`
  (a card lying across two pads), not as two cards: no event is emitted for the
  second pad, and the card stays where it was until only one pad sees it;
* treats a tag read on a new pad while its old pad missed it in its latest poll
  as moved: ``gone`` from the old pad, ``seen`` on the new one, at once.

A poll that could not happen (reader fault, lost bridge line) is simply not fed:
no information is not a miss.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable, Iterable

from companion.table import GONE, SEEN, PadEvent


@dataclass(frozen=True)
class Conflict:
    """Tag ``uid`` is read on several ``pads`` at once (``resolved`` once only one pad sees it again)."""

    uid: str
    pads: tuple[str, ...]
    t: float
    resolved: bool = False

    def message(self) -> str:
        if self.resolved:
            return f"card {self.uid} is on one pad again"
        pads = " and ".join(self.pads)
        return (f"card {self.uid} is seen on pads {pads} at once: it lies across them; "
                f"move it onto one pad")


class Debouncer:
    """Raw polls in, debounced `PadEvent`s and conflict reports out.  Thread-safe."""

    def __init__(self, misses_to_remove: int = 3, on_conflict: Callable[[Conflict], None] | None = None):
        if misses_to_remove < 1:
            raise ValueError("misses_to_remove must be at least 1")
        self.misses_to_remove = misses_to_remove
        self.on_conflict = on_conflict
        self._misses: dict[str, dict[str, int]] = {}      # pad → uid → consecutive misses
        self._owner: dict[str, str] = {}                   # uid → pad it was reported on
        self._card_ids: dict[str, str | None] = {}
        self._conflicts: dict[str, Conflict] = {}
        self._lock = threading.Lock()

    def feed(self, pad: str, uids: Iterable[str], t: float,
             card_ids: dict[str, str | None] | None = None) -> list[PadEvent]:
        """One poll of ``pad`` read ``uids`` at time ``t``; returns the events it settles."""
        uids = list(dict.fromkeys(uids))
        with self._lock:
            if card_ids:
                self._card_ids.update(card_ids)
            track = self._misses.setdefault(pad, {})
            read = set(uids)                # membership in a set: a poll's cost stays linear in its UIDs
            touched = read | set(track)
            for uid in uids:
                track[uid] = 0
            for uid in list(track):
                if uid not in read:
                    track[uid] += 1
                    if track[uid] >= self.misses_to_remove:
                        del track[uid]
            events: list[PadEvent] = []
            for uid in sorted(touched):
                events.extend(self._settle(uid, t))
            return events

    def _settle(self, uid: str, t: float) -> list[PadEvent]:
        read_now = [p for p, track in self._misses.items() if track.get(uid) == 0]
        owner = self._owner.get(uid)
        if len(read_now) > 1:
            if uid not in self._conflicts:
                conflict = Conflict(uid, tuple(sorted(read_now)), t)
                self._conflicts[uid] = conflict
                self._tell(conflict)
            return []
        if uid in self._conflicts:
            old = self._conflicts.pop(uid)
            self._tell(Conflict(uid, old.pads, t, resolved=True))
        card_id = self._card_ids.get(uid)
        if read_now:
            pad = read_now[0]
            if owner == pad:
                return []
            events = []
            if owner is not None:
                events.append(PadEvent(owner, uid, GONE, t, card_id))
            self._owner[uid] = pad
            events.append(PadEvent(pad, uid, SEEN, t, card_id))
            return events
        if owner is not None and uid not in self._misses.get(owner, {}):
            del self._owner[uid]
            return [PadEvent(owner, uid, GONE, t, card_id)]
        return []

    def _tell(self, conflict: Conflict) -> None:
        if self.on_conflict is not None:
            self.on_conflict(conflict)

    def conflicts(self) -> list[Conflict]:
        with self._lock:
            return list(self._conflicts.values())

    def on_pad(self, pad: str) -> list[str]:
        """UIDs reported (``seen`` and not yet ``gone``) on ``pad``."""
        with self._lock:
            return sorted(u for u, p in self._owner.items() if p == pad)

    def forget_pad(self, pad: str, t: float) -> list[PadEvent]:
        """Everything on ``pad`` gone at once (its reader was removed from the table)."""
        with self._lock:
            self._misses.pop(pad, None)
            events = []
            for uid in [u for u, p in self._owner.items() if p == pad]:
                events.extend(self._settle(uid, t))
            return events
