"""Turning raw reads into `PadEvent`s by time, the way hands move cards.

A reader's poll of a pad says which UIDs answered *this time*.  Hands do not
lay cards the way a script does: a card is slid across a neighbouring pad on
its way, lifted and put back (a fumble), laid across two pads, slapped onto a
pad while the last one is still there.  :class:`Debouncer` keeps, per pad and
UID, the *run* of reads — the first and the latest read with no gap longer
than ``lift_s`` — and decides by time alone, so every table (fields on or
switched, 2 pads or 17, RC522s on the Pi or a bridge) behaves the same:

* **a card counts where it comes to rest**: ``seen`` once its run on a pad
  spans ``settle_s`` (at least two reads that far apart, with no stay on another
  pad between them: :class:`_Run`'s stretch).  A card dragged over
  a pad is over it for less than that (docs/hardware/emulator.md, "Hands"), so
  a drag is played where it stops, not on every pad it crosses;
* **a fumble is the same card staying**: a run survives gaps shorter than
  ``lift_s``, so a card lifted and put back within it changes nothing, on a
  hold pad (no ``gone``/``seen``) and on a tap pad (no second ``seen``);
* **removal** (``gone``) once a pad has not read the card for ``lift_s``, or
  at once when it has come to rest on another pad (moved);
* **a hurried tap** — read on a pad, gone before ``settle_s``, and at rest on
  no other pad ``lift_s`` later (so it did not cross this pad on its way to
  another) — counts there once, late, if it was read twice; read once, the pad
  announces a card it could not read (``unread``) rather than lose it silently;
* **a card across two pads** (its runs on two pads overlap by ``settle_s``) is
  a :class:`Conflict`, reported, and counts nowhere until it rests on one pad
  (until the other pad has missed it in two polls and for ``settle_s``);
* **a pad that answers but cannot be read** (``unresolved``: a REQA was
  answered but no UID could be selected — three or more stacked cards, a
  collision that did not resolve, a half-read; from its second such poll) is told once
  as an ``unread`` `PadEvent` (the player is asked to lay the cards one at a
  time), and while it lasts the cards under it are not reported gone;
* **a card hidden by a pile, or uncovered from one, counts where it lay**: a
  card read on a pad (even once) that then turns unreadable did not cross it —
  more cards landed on it — and a card first read on a pad that was unreadable
  a moment ago (within ``lift_s``) lay under that pile; either counts there at
  once (the second and third cards of a slap).  A card that only ever lay on a
  pile cannot be read by any reader: it is announced, never counted.

A poll that could not happen (reader fault, lost bridge line) is simply not fed:
no information is not a miss.

The windows, and why (docs/hardware/emulator.md, "Reading hands"): the hands
model's drags cross a pad in at most 55 ms (pads 9 cm apart; 41 ms at 14 cm),
its quickest taps rest 150 ms, so ``settle_s`` = 70 ms lies between; placement
→ event is then the first read (≤ one cycle) + 70 ms + one pad's poll (the
table re-reads a pad whose window has run out at once: :meth:`due`), under the
150 ms p99 aim on cycles up to ~70 ms.  A fumble is lifted for at
most 250 ms (the issue's aim) and read again within a cycle and a tag's
power-up, so ``lift_s`` = 350 ms.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable, Iterable

from companion.table import GONE, SEEN, UNREAD, PadEvent

SETTLE_S = 0.07
LIFT_S = 0.35
NOTICE_S = 0.0           # two unreadable polls are evidence enough (a stray read spoils one)
NOTICE_AGAIN_S = 1.0      # one notice for one pile or slap, however it comes apart (a slap lasts < 0.7 s)


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


class _Run:
    """Reads of one UID on one pad with no gap longer than ``lift_s``.

    ``since``/``steady``: where the latest stretch of it began and how many reads it holds — a new
    stretch begins when the card is read again after the pad had missed it in two polls and for
    ``settle_s`` (it left the pad, :meth:`Debouncer._left`) *and* it was reported on another pad
    meanwhile.  Only a stretch can make a card rest: a card read while it crossed the pad, then at
    rest on the next pad, then heard once more here (a neighbour's tag through cross-talk, a nudge)
    was not lying here in between, though the run survives the gap.  A fumble on one pad keeps its
    stretch (nothing else held the card), so it counts as soon as before.
    """

    __slots__ = ("first", "last", "reads", "missed", "since", "steady", "elsewhere")

    def __init__(self, t: float, elsewhere: bool = False):
        self.first = self.last = self.since = t
        self.reads = self.steady = 1
        self.missed = 0          # polls of its pad since its last read that did not read it
        self.elsewhere = elsewhere   # the stretch began while the card was reported on another pad

    def span(self) -> float:
        """How long the latest stretch of reads lasts."""
        return self.last - self.since


class _Pile:
    """A pad that answers but cannot be read: since when, its latest such poll, whether the player was told,
    how many such polls, and the pad's latest empty poll before it began (``empty_before``)."""

    __slots__ = ("since", "latest", "told", "polls", "empty_before")

    def __init__(self, t: float, empty_before: float):
        self.since = self.latest = t
        self.told = False
        self.polls = 0
        self.empty_before = empty_before

    def is_a_pile(self, runs: dict) -> bool:
        """Not one stray reply: unreadable in two polls, or a card lay on the pad when it turned unreadable —
        read before, and the pad not seen empty since (more cards landed on that one)."""
        return self.polls >= 2 or any(r.first < self.since and r.last > self.empty_before for r in runs.values())


class Debouncer:
    """Raw polls in, debounced `PadEvent`s and conflict reports out.  Thread-safe."""

    def __init__(self, settle_s: float = SETTLE_S, lift_s: float = LIFT_S, notice_s: float = NOTICE_S,
                 on_conflict: Callable[[Conflict], None] | None = None):
        if not 0 <= settle_s < lift_s:
            raise ValueError("settle_s must be at least 0 and shorter than lift_s")
        self.settle_s, self.lift_s, self.notice_s = settle_s, lift_s, notice_s
        self.on_conflict = on_conflict
        self._runs: dict[str, dict[str, _Run]] = {}       # pad → uid → its current run of reads
        self._owner: dict[str, str] = {}                   # uid → pad it was reported on
        self._card_ids: dict[str, str | None] = {}
        self._conflicts: dict[str, Conflict] = {}
        self._unresolved: dict[str, _Pile] = {}            # pad → what it could not read lately
        self._told: dict[str, float] = {}                  # pad → when it last announced an unread card
        self._pile_seen: dict[str, float] = {}             # pad → the last time it could not read a pile
        self._empty: dict[str, float] = {}                 # pad → its latest poll that nothing answered
        self._lock = threading.Lock()

    def feed(self, pad: str, uids: Iterable[str], t: float,
             card_ids: dict[str, str | None] | None = None, unresolved: bool = False) -> list[PadEvent]:
        """One poll of ``pad`` read ``uids`` at time ``t``; returns the events it settles.

        ``unresolved``: the pad answered a REQA/WUPA but a card there could not be read.
        """
        uids = set(uids)
        with self._lock:
            if card_ids:
                self._card_ids.update(card_ids)
            events: list[PadEvent] = []
            piled = self._pile(pad, unresolved, t, events)
            if not uids and not unresolved:
                self._empty[pad] = t
            runs = self._runs.setdefault(pad, {})
            for uid in uids:
                run = runs.get(uid)
                elsewhere = self._owner.get(uid, pad) != pad
                if run is None or t - run.last > self.lift_s:
                    runs[uid] = _Run(t, elsewhere)
                else:
                    if elsewhere and self._left(run, t):
                        run.since, run.steady, run.elsewhere = t, 0, True
                    run.last = t
                    run.reads += 1
                    run.steady += 1
                    run.missed = 0
            for uid, run in runs.items():
                if uid not in uids:
                    run.missed += 1
            touched = set(uids)
            if piled:
                events.extend(self._rested_under_pile(pad, runs, unresolved, t))
            brief = []
            if not piled:
                for uid, run in list(runs.items()):
                    if t - run.last > self.lift_s:
                        del runs[uid]
                        touched.add(uid)
                        if uid not in self._owner and uid not in self._conflicts:
                            brief.append((uid, run))
            for uid, owner in self._owner.items():
                if owner == pad and uid not in runs:
                    touched.add(uid)
            for uid in sorted(touched):
                events.extend(self._settle(uid, t))
            for uid, run in brief:
                events.extend(self._brief_stay(pad, uid, run, t))
            return events

    def _rested_under_pile(self, pad: str, runs: dict, unresolved: bool, t: float) -> list[PadEvent]:
        """Cards read on ``pad`` (even once) that a pile there has just hidden, or that just came out of one.

        A card does not turn a pad unreadable by crossing it: more cards landed on
        it, so it lay there — it has come to rest, and counts now.  Unless a poll
        of the pad found nothing at all after its last read: then it had left
        (slid over the pad), and what answered unreadably later — a neighbour's
        tag heard through cross-talk — did not land on it.  A card first
        read on a pad that could not be read a moment ago (within ``lift_s``) lay
        under that pile, only lifting the cards above it lets it be read: it too
        rested there, and counts at once — it may be swept off before a settle
        window could pass.  If it was a pile (:meth:`_Pile.is_a_pile`): a card slid over
        a pad just after one stray reply there is read once on its way, and
        counts where it comes to rest.
        """
        events = []
        for uid, run in list(runs.items()):
            if uid in self._owner or uid in self._conflicts or t - run.last > self.lift_s:
                continue
            pile = self._unresolved[pad]
            if not unresolved and run.first < pile.latest:
                continue                          # read before the pile and not under it: the usual rules
            if pile.empty_before > run.last:
                continue                          # the pad was empty after its last read: it had left before
            if not unresolved and not pile.is_a_pile(runs):
                continue                          # after one stray reply on an empty pad: nothing lay under it
            if any(uid in other for p, other in self._runs.items() if p != pad):
                continue                          # read on another pad too: let the usual rules decide
            self._owner[uid] = pad
            events.append(PadEvent(pad, uid, SEEN, t, self._card_ids.get(uid)))
        return events

    def _brief_stay(self, pad: str, uid: str, run: _Run, t: float) -> list[PadEvent]:
        """A card read on ``pad`` but gone before its settle window ran out, and at rest nowhere else since.

        It did not cross the pad on its way to another (it would rest there by
        now): it was laid and taken off again quickly, a hurried tap.  Read
        twice, it counts on this pad, late but once; read once (too quick to
        tell from a stray read), the player is told the pad could not read a card.
        """
        if uid in self._owner or any(uid in runs for runs in self._runs.values()):
            return []
        if run.steady >= 2:
            card_id = self._card_ids.get(uid)
            return [PadEvent(pad, uid, SEEN, t, card_id), PadEvent(pad, uid, GONE, t, card_id)]
        if (t - self._told.get(pad, float("-inf")) < NOTICE_AGAIN_S
                or pad in self._unresolved or run.first - self._pile_seen.get(pad, float("-inf")) <= self.lift_s):
            return []                           # a card coming out of a pile or slap already told
        if run.elsewhere:
            return []                           # a lone read of a card lying on another pad: cross-talk, no tap
        self._told[pad] = t
        return [PadEvent(pad, "", UNREAD, t)]

    def _pile(self, pad: str, unresolved: bool, t: float, events: list) -> bool:
        """Track a pad that answers but cannot be read; True while the cards under it are kept."""
        pile = self._unresolved.get(pad)
        if unresolved:
            if pile is None:
                pile = self._unresolved[pad] = _Pile(t, self._empty.get(pad, float("-inf")))
            pile.latest = t
            pile.polls += 1
            if not pile.told and pile.polls >= 2 and t - pile.since >= self.notice_s:
                pile.told = True
                if t - self._told.get(pad, float("-inf")) >= NOTICE_AGAIN_S:
                    self._told[pad] = t
                    events.append(PadEvent(pad, "", UNREAD, t))
            return True
        if pile is not None and t - pile.latest > self.lift_s:
            del self._unresolved[pad]
            runs = self._runs.get(pad, {})
            if not pile.told and self._pile_came_off_unread(pile, runs) \
                    and t - self._told.get(pad, float("-inf")) >= NOTICE_AGAIN_S:
                pile.told = True
                self._told[pad] = t
                events.append(PadEvent(pad, "", UNREAD, t))
            for run in runs.values():
                run.last = max(run.last, pile.latest)  # kept under the pile until it came apart: from then on
            if pile.told:
                self._pile_seen[pad] = pile.latest     # told: the cards coming out of it need no second word
            return False
        return pile is not None

    @staticmethod
    def _pile_came_off_unread(pile: _Pile, runs: dict) -> bool:
        """A pile seen in one poll only (too short-lived for a second), then gone without a card read out of it.

        One unreadable poll alone is not told (a neighbour's stray reply spoils one
        poll now and then); but after a card had been read on the pad it is
        corroborated (:meth:`_Pile.is_a_pile`) — more cards landed on that one, a slap — and if no card was
        read there since, the cards that made it unreadable left unread: tell the player.
        """
        return pile.is_a_pile(runs) and not any(r.last > pile.latest for r in runs.values())

    def _left(self, run: _Run, t: float) -> bool:
        """Not read for ``settle_s`` and by at least two polls of its pad since: for deciding where a card lies
        now (across two pads, or pushed onto one of them), it has left that pad — only its removal, which a
        fumble must not trigger, waits for ``lift_s``."""
        return run.missed >= 2 and t - run.last >= self.settle_s

    def _settle(self, uid: str, t: float) -> list[PadEvent]:
        alive = [(p, runs[uid]) for p, runs in self._runs.items() if uid in runs]
        if len(alive) > 1:
            # on several pads: one it has left (a card across two pads pushed onto one) no longer holds it there
            gone_from = [(p, r) for p, r in alive if self._left(r, t)]
            if len(gone_from) < len(alive):
                alive = [(p, r) for p, r in alive if (p, r) not in gone_from]
        resting = [(p, r) for p, r in alive if (r.steady >= 2 or not self.settle_s) and r.span() >= self.settle_s]
        across = self._across(resting)
        if not across and resting:
            # read on another pad over the same time: it may lie across them, so wait until it rests on one
            # (a stray cross-talk read there delays the card by lift_s at most)
            if any(p != q and min(r.last, s.last) >= max(r.first, s.first)
                   for p, r in alive for q, s in resting):
                return []
        if across:
            if uid not in self._conflicts:
                conflict = Conflict(uid, tuple(sorted(across)), t)
                self._conflicts[uid] = conflict
                self._tell(conflict)
            return []
        if uid in self._conflicts:
            old = self._conflicts.pop(uid)
            self._tell(Conflict(uid, old.pads, t, resolved=True))
        card_id = self._card_ids.get(uid)
        owner = self._owner.get(uid)
        owner_run = self._runs.get(owner, {}).get(uid) if owner is not None else None
        # where it came to rest last: the resting run that began latest, after the owner's run ended
        newer = [(r.first, p) for p, r in resting if p != owner and (owner_run is None or r.first > owner_run.last)]
        if newer:
            pad = max(newer)[1]
            events = []
            if owner is not None:
                events.append(PadEvent(owner, uid, GONE, t, card_id))
                self._runs.get(owner, {}).pop(uid, None)
            self._owner[uid] = pad
            events.append(PadEvent(pad, uid, SEEN, t, card_id))
            return events
        if owner is not None and owner_run is None:
            del self._owner[uid]
            return [PadEvent(owner, uid, GONE, t, card_id)]
        return []

    def due(self, t: float) -> list[str]:
        """Pads holding a card whose settle window has run out: read them now, not a cycle later.

        Only a card read again within its settle window is asked for: one read once
        may have lain across two pads, and reading its pad again out of turn — before
        the other pad was asked — would count it on the first (see the issue 23 note).
        """
        with self._lock:
            return sorted({p for p, runs in self._runs.items() for uid, r in runs.items()
                           if self._owner.get(uid) != p and r.since + self.settle_s <= t
                           and r.span() < self.settle_s and t - r.last <= self.settle_s})

    def _across(self, resting: list) -> list[str]:
        """Pads whose resting runs of one card overlap for ``settle_s``: it lies across them."""
        pads = set()
        for i, (p, a) in enumerate(resting):
            for q, b in resting[i + 1:]:
                if min(a.last, b.last) - max(a.first, b.first) >= self.settle_s:
                    pads |= {p, q}
        return sorted(pads)

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

    def unread_pads(self) -> list[str]:
        """Pads where a card answers but cannot be read right now."""
        with self._lock:
            return sorted(self._unresolved)
