"""Deck check by RFID: a deck passed over a pad one card at a time, compared with its registered list.

:func:`compare` is the whole rule, pure: the registered list and the scanned
cards are multisets of card ids; what the list has more of is **missing**,
what the scan has more of is **extra**, and a tag the registry does not know is
**unregistered** (it cannot be counted either way, so the deck is not right).
Every tag is counted once however often it is read — a card passed twice, or
read, lost and read again as it slides off the pad, is one card: a deck's
copies of the same card carry different tags, so a second sighting of the
same UID is never a second copy.

:class:`DeckChecker` turns pad events into that verdict.  It listens to one
pad's ``seen`` events and gives the verdict

* at once, when the scan matches the list (the usual case: the verdict comes
  with the last card's read), or
* ``settle_s`` after the last sighting when it does not (a card may still be
  coming; the player can also press Done, :meth:`DeckChecker.finish`).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from companion.words import counted

SETTLE_S = 1.5        # quiet time after the last card before a deck that does not match is judged


@dataclass(frozen=True)
class Verdict:
    missing: dict[str, int]
    extra: dict[str, int]
    unregistered: tuple[str, ...]        # tag UIDs the registry does not know
    cards: int                           # distinct tags read

    @property
    def ok(self) -> bool:
        return not (self.missing or self.extra or self.unregistered)

    def sentence(self) -> str:
        if self.ok:
            return f"Deck check passed: all {self.cards} cards are the registered list."
        parts = []
        if self.missing:
            parts.append("missing " + ", ".join(f"{n}× {c}" for c, n in sorted(self.missing.items())))
        if self.extra:
            parts.append("not on the list " + ", ".join(f"{n}× {c}" for c, n in sorted(self.extra.items())))
        if self.unregistered:
            parts.append(f"{counted(len(self.unregistered), 'card')} with a tag this companion does not know")
        return "Deck check: " + "; ".join(parts) + "."

    def as_dict(self) -> dict:
        """What the event logs (the organiser's view; public pages show only ``ok``)."""
        return {"ok": self.ok, "missing": dict(self.missing), "extra": dict(self.extra),
                "unregistered": len(self.unregistered), "cards": self.cards}


def compare(registered: list[str], scanned: list[tuple[str, str | None]]) -> Verdict:
    """``scanned``: (tag UID, card id or None if the tag is unknown), in order; repeats of a UID count once."""
    by_uid: dict[str, str | None] = {}
    for uid, card in scanned:
        by_uid.setdefault(uid, card)
    have = Counter(card for card in by_uid.values() if card is not None)
    want = Counter(registered)
    return Verdict(missing=dict(want - have), extra=dict(have - want),
                   unregistered=tuple(uid for uid, card in by_uid.items() if card is None), cards=len(by_uid))


@dataclass
class DeckChecker:
    """Pad events in, a verdict out.  ``lookup(uid)`` is the tag registry (card id or None)."""
    registered: list[str]
    lookup: object
    pad: str
    settle_s: float = SETTLE_S
    scanned: list = field(default_factory=list)
    last_seen: float | None = None
    verdict: Verdict | None = None
    verdict_at: float | None = None

    def feed(self, event) -> Verdict | None:
        """A :class:`~companion.table.PadEvent`; the verdict if this card completes the list."""
        if self.verdict is not None or event.pad != self.pad or event.kind != "seen":
            return self.verdict
        if all(uid != event.uid for uid, _ in self.scanned):
            self.scanned.append((event.uid, event.card_id or self.lookup(event.uid)))
        self.last_seen = event.t
        found = compare(self.registered, self.scanned)
        if found.ok:
            self.verdict, self.verdict_at = found, event.t
        return self.verdict

    def poll(self, now: float) -> Verdict | None:
        """The verdict once ``settle_s`` have passed without a new card (None before)."""
        if self.verdict is None and self.last_seen is not None and now - self.last_seen >= self.settle_s:
            self.verdict, self.verdict_at = compare(self.registered, self.scanned), now
        return self.verdict

    def finish(self, now: float) -> Verdict:
        """The player says the deck is done: the verdict now."""
        if self.verdict is None:
            self.verdict, self.verdict_at = compare(self.registered, self.scanned), now
        return self.verdict
