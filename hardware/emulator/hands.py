"""A model of hands: how people actually put cards on pads, beside the physics of the pads.

A script lays a card, waits, lifts it.  Hands lay it, slide it across the
neighbouring pad on the way, lift it and put it back, slap three onto a pad,
leave a pile, sweep it off, lay a card across two pads.  :class:`Hands` turns
each such *gesture* into timed *moves* — a tag entering or leaving a reader's
field at a modelled time — that :func:`run` applies to the emulated chips
while the real table polls, so every layer from the RC522 to the debouncer
meets the hand.

Timing, from published measurements of human movement where they exist
(docs/hardware/emulator.md, "Hands", gives each source and marks each guess):

* **aimed movements** (a card slid or carried to a pad) last Fitts's law's
  ``MT = a + b·log2(D/W + 1)``: a = 12.8 ms, b = 94.7 ms/bit, MacKenzie (1992)
  §3.5, the Shannon-form refit of Fitts's (1954) stylus tapping; W = 3 cm, the
  tolerance within which a sticker must land on an antenna (our figure).
  Dragging is slower than pointing (MacKenzie, Sellen & Buxton 1991: larger
  slope for the drag task) — a factor drawn from ``DRAG_SLOWDOWN`` (a guess).
* **speed along the way** follows the minimum-jerk profile of point-to-point
  hand movements (Flash & Hogan 1985): ``x(τ) = 10τ³ − 15τ⁴ + 6τ⁵``, peak
  speed 1.875 × mean, so a card is fastest half-way, over the pad it crosses.
* **between plays** a person thinks and reaches: the keystroke-level model's
  M = 1.35 s and H = 0.4 s (Card, Moran & Newell 1980) set ``THINK_S``.
* **a notice on the screen** is acted on no sooner than a simple reaction
  after it appears: the Model Human Processor's perceive, decide and move
  cycles, 100 + 70 + 70 ms (Card, Moran & Newell 1983), ``REACTION_S``; how
  long reading it and starting to do what it says takes is a guess
  (``READ_NOTICE_S``).
* **how long a card rests** on a tap pad before it goes onto its pile, how long
  a fumble lifts it, how far off a slapped card lands: no published figure
  fits; they are guesses (``TAP_REST_S``, ``FUMBLE_LIFT_S``, ``SLAP_GAP_S``),
  chosen to be harder than the careful play a script does, and the bench
  reports each gesture separately so a measured figure can replace a guess.

A tag is readable by a pad while its sticker lies within ``READ_REACH_CM`` of
the pad's centre (an RC522's 4 × 3 cm antenna loop and a 25 mm sticker: our
figure, measured per table by ``companion doctor --walkthrough``).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

FITTS_A_S = 0.0128
FITTS_B_S = 0.0947
TARGET_W_CM = 3.0
DRAG_SLOWDOWN = (1.0, 1.3)        # guess
READ_REACH_CM = 2.5               # our figure: half the span over which a moving sticker is read
THINK_S = (0.4, 1.75)             # KLM H .. H + M
TAP_REST_S = (0.15, 0.45)         # guess: a card laid on a tap pad, then slid onto its pile
HOLD_REST_S = (1.0, 4.0)          # guess: a card on a hold pad before it is taken back
FUMBLE_REST_S = (0.03, 0.12)      # guess: touched down, then lifted again at once
FUMBLE_LIFT_S = (0.06, 0.25)      # the aim: lift and replace within 250 ms
SLAP_GAP_S = 0.12                 # the aim: three cards 120 ms apart
READ_NOTICE_S = (1.0, 2.0)        # guess: a player reads a notice and starts doing what it says
REACTION_S = 0.24                 # Card, Moran & Newell 1983: τP + τC + τM, a simple reaction to what is seen
SWEEP_S = (0.05, 0.15)            # guess: a swept pile leaves the field within this, card by card
RELAY_REACH_CM = 5.0              # guess: from the lifted pile in hand to the pad (and from the pad to its pile)

GESTURES = ("lay", "fumble", "drag", "slap", "pile", "across")


def fitts_s(distance_cm: float, width_cm: float = TARGET_W_CM) -> float:
    """Movement time of an aimed hand movement (MacKenzie 1992's refit of Fitts 1954), in seconds."""
    return FITTS_A_S + FITTS_B_S * math.log2(distance_cm / width_cm + 1)


def min_jerk_time(fraction: float) -> float:
    """τ in [0, 1] at which a minimum-jerk movement has covered ``fraction`` of its distance."""
    lo, hi = 0.0, 1.0
    for _ in range(40):
        mid = (lo + hi) / 2
        if 10 * mid ** 3 - 15 * mid ** 4 + 6 * mid ** 5 < fraction:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


@dataclass
class Move:
    """At modelled time ``t`` the tag ``uid`` enters (``on``) or leaves a reader's field on ``pad``."""

    t: float
    pad: str
    uid: str
    on: bool
    offset: tuple[float, float] = (0.0, 0.0)
    # a move a player makes only after reading a notice on ``pad`` shown between these two times (None: always)
    after_notice: tuple[float, float] | None = None


@dataclass
class Gesture:
    """One thing a hand does, and what it means: the cards it plays, and where each comes to rest."""

    kind: str
    start: float
    end: float
    moves: list[Move]
    plays: list[tuple[str, str, float]] = field(default_factory=list)   # (uid, pad it rests on, placed at)
    pile_uids: list[str] = field(default_factory=list)                  # cards the physics cannot read (pile)
    crossed: list[str] = field(default_factory=list)                    # pads only passed over


class Hands:
    """Gestures on a table whose pads lie at ``positions`` (cm); seeded, so a run repeats."""

    def __init__(self, positions: dict[str, tuple[float, float]], modes: dict[str, str], seed: int = 1,
                 uids=None):
        self.positions = dict(positions)
        self.modes = dict(modes)
        self.rng = random.Random(seed)
        self._uids = iter(uids) if uids is not None else None     # the cards' tags, if they must be real ones
        self._n = 0

    def uid(self) -> str:
        if self._uids is not None:
            return next(self._uids)
        self._n += 1
        return "04%012X" % (0xA00000000 + self._n)

    def _u(self, span) -> float:
        return self.rng.uniform(*span)

    def _offset(self) -> tuple[float, float]:
        return (self.rng.uniform(-1, 1), self.rng.uniform(-1, 1))

    def _rest(self, pad: str) -> float:
        return self._u(TAP_REST_S if self.modes.get(pad) == "tap" else HOLD_REST_S)

    # -- the gestures ------------------------------------------------------------------------------
    def lay(self, pad: str, t: float) -> Gesture:
        """Lay a card on ``pad``; on a tap pad slide it onto its pile after a moment, on a hold pad take it back later."""
        uid, rest = self.uid(), self._rest(pad)
        moves = [Move(t, pad, uid, True, self._offset()), Move(t + rest, pad, uid, False)]
        return Gesture("lay" if self.modes.get(pad) != "tap" else "tap", t, t + rest, moves, [(uid, pad, t)])

    def fumble(self, pad: str, t: float) -> Gesture:
        """Touch the card down, lift it (60–250 ms), put it back, then carry on as a lay."""
        uid = self.uid()
        down = self._u(FUMBLE_REST_S)
        lift = self._u(FUMBLE_LIFT_S)
        rest = self._rest(pad)
        back = t + down + lift
        moves = [Move(t, pad, uid, True, self._offset()), Move(t + down, pad, uid, False),
                 Move(back, pad, uid, True, self._offset()), Move(back + rest, pad, uid, False)]
        return Gesture("fumble", t, back + rest, moves, [(uid, pad, t)])

    def drag(self, over: str, to: str, t: float) -> Gesture:
        """Slide a card across pad ``over`` onto pad ``to`` (starting as far before ``over`` as ``to`` lies beyond)."""
        uid = self.uid()
        a, b = self.positions[over], self.positions[to]
        gap = math.dist(a, b)
        distance = 2 * gap
        duration = fitts_s(distance) * self._u(DRAG_SLOWDOWN)
        # where along the path the sticker is within reach of ``over`` (half-way) and of ``to`` (the end)
        enter = t + duration * min_jerk_time(max(0.0, (gap - READ_REACH_CM) / distance))
        leave = t + duration * min_jerk_time(min(1.0, (gap + READ_REACH_CM) / distance))
        arrive = t + duration * min_jerk_time((distance - READ_REACH_CM) / distance)
        rest = self._rest(to)
        moves = [Move(enter, over, uid, True, self._offset()), Move(leave, over, uid, False),
                 Move(arrive, to, uid, True, self._offset()), Move(t + duration + rest, to, uid, False)]
        return Gesture("drag", t, t + duration + rest, moves, [(uid, to, t + duration)], crossed=[over])

    def slap(self, pad: str, t: float, cards: int = 3, relay: bool | None = None) -> Gesture:
        """Slap ``cards`` cards onto a pad ``SLAP_GAP_S`` apart, each slid on onto the pile after its rest.

        ``relay`` (on a tap pad by default): if the screen said this pad could
        not read a card, the player does what the notice says once it has been
        read (``READ_NOTICE_S`` after the slap, and at least ``REACTION_S`` after
        the notice): lifts the slapped cards off the top of the pile beside the
        pad and lays them on the pad one at a time (:meth:`_lay_again`).  These
        moves carry ``after_notice``: with no notice, they are not made.
        """
        moves, plays, slid = [], [], []
        end = t
        for k in range(cards):
            uid, at = self.uid(), t + k * SLAP_GAP_S
            rest = self._rest(pad)
            moves += [Move(at, pad, uid, True, self._offset()), Move(at + rest, pad, uid, False)]
            plays.append((uid, pad, at))
            slid.append((at + rest, uid))
            end = max(end, at + rest)
        if self._follows_up(pad, relay):
            at = end + self._u(READ_NOTICE_S)
            top_first = [uid for _, uid in sorted(slid, reverse=True)]      # the last slid off lies on top
            again, end = self._lay_again(pad, top_first, at, (t, at - REACTION_S))
            moves += again
        return Gesture("slap", t, end, moves, plays)

    def _follows_up(self, pad: str, relay: bool | None) -> bool:
        """Whether the player lays a gesture's cards again after its notice: ``relay``, or by default on a tap
        pad (a hold pad's notice asks to leave only the card that belongs there)."""
        return relay if relay is not None else self.modes.get(pad) == "tap"

    def _lay_again(self, pad: str, uids: list[str], at: float,
                   notice: tuple[float, float]) -> tuple[list[Move], float]:
        """Lay ``uids`` on ``pad`` one at a time from ``at``, as a notice shown within ``notice`` asks: each for a
        tap's rest, then onto the pile beside the pad and back (Fitts's law over ``RELAY_REACH_CM``) for the next.

        The player cannot tell which of them were read, so every one is laid again.  Returns the moves and
        when the last card left the pad."""
        moves, end = [], at
        for uid in uids:
            rest = self._u(TAP_REST_S)
            moves += [Move(at, pad, uid, True, self._offset(), after_notice=notice),
                      Move(at + rest, pad, uid, False, after_notice=notice)]
            end = at + rest
            at = end + 2 * fitts_s(RELAY_REACH_CM)
        return moves, end

    def pile(self, pad: str, t: float, cards: int = 3, relay: bool | None = None) -> Gesture:
        """Lay ``cards`` cards on one pad and leave them there as a pile, then sweep the pile off.

        Each card is laid a think-and-reach apart; the pile lies until a
        moment after the last card, then leaves the field card by card within
        ``SWEEP_S``.  From the third card on the pad's reader cannot read the
        pile (the physics' PiicoDev report): the reading must say so.

        ``relay`` (on a tap pad by default): the player does what the notice
        says — the sweep is the pile lifted off, then its cards are laid on the
        pad one at a time, each for a tap's rest and then onto the pile, a
        reach (Fitts's law over ``RELAY_REACH_CM``) to the pad and one back
        between them; the player cannot tell which were read, so every card of
        the pile is laid again.  These moves carry ``after_notice``: a player
        who saw no notice does not make them (the bench checks).
        """
        moves, plays = [], []
        at = t
        uids = []
        for k in range(cards):
            uid = self.uid()
            uids.append(uid)
            moves.append(Move(at, pad, uid, True, self._offset()))
            plays.append((uid, pad, at))
            at += self._u(TAP_REST_S) + self._u(THINK_S) / 2
        sweep = at + self._u(HOLD_REST_S)
        leave = sorted(self.rng.uniform(0, self._u(SWEEP_S)) for _ in uids)
        order = list(uids)
        self.rng.shuffle(order)
        for uid, dt in zip(order, leave):
            moves.append(Move(sweep + dt, pad, uid, False))
        end = sweep + leave[-1]
        if self._follows_up(pad, relay):
            # the top card of the lifted pile first
            again, end = self._lay_again(pad, list(reversed(order)), end + fitts_s(RELAY_REACH_CM), (t, sweep))
            moves += again
        return Gesture("pile", t, end, moves, plays, pile_uids=uids[2:])

    def across(self, a: str, b: str, t: float) -> Gesture:
        """Lay a card across pads ``a`` and ``b``; read the notice, push it onto ``b``."""
        uid = self.uid()
        fix = t + self._u(READ_NOTICE_S)
        rest = self._rest(b)
        moves = [Move(t, a, uid, True, self._offset()), Move(t, b, uid, True, self._offset()),
                 Move(fix, a, uid, False), Move(fix + rest, b, uid, False)]
        return Gesture("across", t, fix + rest, moves, [(uid, b, fix)], crossed=[a])


def neighbours(positions: dict[str, tuple[float, float]], pad: str) -> list[str]:
    """The other pads, nearest first."""
    here = positions[pad]
    return sorted((p for p in positions if p != pad), key=lambda p: (math.dist(here, positions[p]), p))


def made_by_player(move: Move, notices: dict[str, list[float]]) -> bool:
    """Whether a player makes ``move``: any move but a follow-up, and a follow-up only if the table announced a
    card it could not read on its pad (``notices``: pad → times) within its window — with no notice seen, a
    player does not follow one up."""
    if move.after_notice is None:
        return True
    since, until = move.after_notice
    return any(since <= t <= until for t in notices.get(move.pad, []))


def play(table, gestures: list[Gesture], notices: dict[str, list[float]] | None = None) -> None:
    """Make ``gestures`` on an :class:`~hardware.emulator.table.EmulatedTable` while it polls, in modelled time.

    Every move is applied when the modelled clock reaches it (between two polls
    of one reader, as a hand moves between two SPI conversations); the table
    polls on until the debouncer's lift window after the last move, so every
    event has been emitted when this returns.

    ``notices`` (pad → times the table announced a card it could not read there,
    filled by the caller's event sink as the table runs): a follow-up move
    (``Move.after_notice``) is made only if such a notice lay in its window, and
    is dropped from its gesture otherwise.  Without it every follow-up is made.
    """
    moves = sorted((m for g in gestures for m in g.moves), key=lambda m: m.t)
    owner = {id(m): g for g in gestures for m in g.moves}
    order = table.poll_order()
    end = (moves[-1].t if moves else table.model.now) + table.debouncer.lift_s + 0.1
    k = 0
    while moves or table.model.now < end:
        while moves and moves[0].t <= table.model.now:
            m = moves.pop(0)
            if notices is not None and not made_by_player(m, notices):
                owner[id(m)].moves.remove(m)
                continue
            tag = table.tag(m.uid)
            if m.on:
                table.chips[m.pad].place(tag, m.offset)
            else:
                table.chips[m.pad].remove(tag)
        table.poll_reader(order[k % len(order)], after=order[(k + 1) % len(order)])
        table.poll_due()
        k += 1
