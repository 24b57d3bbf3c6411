"""Enrolling a whole deck: the next card named, its tag read, checked, registered, next.

Pure logic (no Kivy), driven by the Cards screen with each tag seen on a pad.
For every sighting :meth:`Enrolment.saw` decides one of:

* ``enrolled`` — a blank tag: it now carries the card (and the screen may
  write the card id onto the tag); the next card is named;
* ``known`` — the tag already carries this very card: nothing to do, next;
* ``duplicate`` — this tag was enrolled a moment ago for another card of this
  deck (the same sticker twice): flagged, the card waits for its own tag;
* ``conflict`` — the tag carries a different card: flagged, the card waits;
  :meth:`reassign` makes it this card if the player says so.

The tag enrolled last, seen again (lifted and put back, or a reader's second
sighting), is ``repeat`` and changes nothing; any other tag of this run seen
again is a ``duplicate``.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Outcome:
    kind: str               # enrolled | known | repeat | duplicate | conflict | done
    card_id: str | None
    uid: str
    other: str | None = None   # the card the tag carries already (conflict, duplicate)


@dataclass
class Enrolment:
    cards: list[str]
    position: int = 0
    #: uid → card id, for the tags enrolled in this run
    enrolled: dict[str, str] = field(default_factory=dict)
    flags: list[Outcome] = field(default_factory=list)
    last_uid: str | None = None

    @property
    def current(self) -> str | None:
        return self.cards[self.position] if self.position < len(self.cards) else None

    @property
    def done(self) -> bool:
        return self.position >= len(self.cards)

    def saw(self, uid: str, carries: str | None) -> Outcome:
        """A tag seen on a pad; ``carries`` is the card the registry (or the tag itself) says it carries."""
        card = self.current
        if card is None:
            return Outcome("done", None, uid)
        if uid in self.enrolled:
            if uid == self.last_uid:                 # the last tag, put down again: nothing new
                return Outcome("repeat", card, uid, other=self.enrolled[uid])
            outcome = Outcome("duplicate", card, uid, other=self.enrolled[uid])
            self.flags.append(outcome)
            return outcome
        if carries == card:
            self._take(uid, card)
            return Outcome("known", card, uid)
        if carries is not None:
            outcome = Outcome("conflict", card, uid, other=carries)
            self.flags.append(outcome)
            return outcome
        self._take(uid, card)
        return Outcome("enrolled", card, uid)

    def _take(self, uid: str, card: str) -> None:
        self.enrolled[uid] = card
        self.last_uid = uid
        self.position += 1

    def reassign(self, uid: str) -> Outcome:
        """The player says this tag is the current card after all (a sticker reused)."""
        card = self.current
        self._take(uid, card)
        return Outcome("enrolled", card, uid)

    def skip(self) -> None:
        self.position = min(len(self.cards), self.position + 1)

    def back(self) -> None:
        self.position = max(0, self.position - 1)
