"""Sam's Battle Game as the solo player's search sees it: small, fast, complete.

The rules engine (:mod:`companion.games.sams`) never needs a hand: the table
tells it everything.  A player that *thinks* does need hands, so this module
keeps a second, full-information model of one game — every hand, the draw
pile in order, the discard pile — as flat lists of small ints, cheap to copy
and fast to play out.  :func:`replay_in_engine` in the tests feeds the moves
it makes back through the engine and checks that both agree on every round's
lanes, VP and the winner, so the two can never drift apart silently.

Cards are indices into :data:`companion.games.sams.DECK` (0–35).  A *move* is a
tuple: ``("play", lane, card)`` or ``("redraw",)``; moves are always made by
:meth:`Game.to_move`.

How the solo player uses it: :func:`determinize` builds a ``Game`` from what
its seat may know (its own hand, the shared screen's view of the table, public
counts) and a random guess of everything else, consistent with those counts.
"""
from __future__ import annotations

import itertools
import math
import random

from companion.games.sams import rules as engine

N = len(engine.DECK)
LANES = engine.LANES
RANK = tuple(engine._INFO[c][0] for c in engine.DECK)
RED = tuple(engine._INFO[c][1] for c in engine.DECK)
INDEX = {card_id: i for i, card_id in enumerate(engine.DECK)}
# a card's contribution to a lane as one int: red rank, black rank << 8, one card << 16
PACKED = tuple((r if red else r << 8) | 1 << 16 for r, red in zip(RANK, RED))

PLAY, REDRAW = "play", "redraw"


def _uniform(options: list, bits: int) -> list:
    """A table for picking one of ``options`` uniformly with one ``getrandbits(bits)``.

    Each option fills the same number of the ``2**bits`` entries and the few left
    over are None, which means "draw again" (rejection sampling, as CPython's own
    ``randrange`` does): exactly uniform, and a lookup instead of
    ``int(random() * n)``, whose float-to-int call is the slowest part of that.
    """
    share = (1 << bits) // len(options)
    return [options[r // share] for r in range(share * len(options))] + [None] * ((1 << bits) % len(options))


# DRAWS[n][p]: for n cards from a pile of p, a getrandbits(30) below it (others are drawn again)
# read in mixed radix (r % p, then r // p % (p - 1), ...) is one of the p * (p - 1) * ... equally
# likely orders of drawing them; n is at most an opening hand, so the product fits in 30 bits.
MAX_TAKE = engine.OPENING_HAND
DRAWS = [[n and math.perm(p, n) * ((1 << 30) // math.perm(p, n)) if p >= n else 0 for p in range(N + 1)]
         for n in range(MAX_TAKE + 1)]
assert engine.DRAW_PER_TURN == engine.CARDS_PER_TURN == 3 and LANES == 5, "Game._play_randomly unrolls them"


def _turn(h: int, n: int) -> tuple[int, list]:
    """(bits, table) for a hand of ``h`` playing its next ``n`` cards: every sequence of
    plays ``((position, lane), ...)``, each position counted in the hand as it is after
    the plays before it (pop them in order), so each option is one order of ``n`` of the
    ``h`` cards, each onto one lane."""
    steps = [[(k, lane) for k in range(h - i) for lane in range(LANES)] for i in range(n)]
    return _bits_for(list(itertools.product(*steps)))


def _bits_for(options: list) -> tuple[int, list]:
    """(bits, table): the fewest bits whose :func:`_uniform` table draws again at most one time in ten."""
    bits = (len(options) - 1).bit_length()
    while (1 << bits) % len(options) > (1 << bits) // 10:
        bits += 1
    return bits, _uniform(options, bits)


# TURN[h][n]: the rest of a seat's turn, n cards from a hand of h (a hand never holds more than 5)
TURN = [[None] * (engine.CARDS_PER_TURN + 1)] + [
    [None] + [_turn(h, n) if n <= h else None for n in range(1, engine.CARDS_PER_TURN + 1)]
    for h in range(1, engine.OPENING_HAND + 1)]


def _full_turn(h: int) -> tuple[int, list]:
    """(bits, table) for a whole turn of a hand of ``h``: every order of 3 of its cards, each
    onto a lane, as ``(k1, l1, k2, l2, k3, l3, d1, d2, d3)``: the positions in the hand as it
    is, played in that order onto those lanes, and the same positions from the highest (to
    delete them one after another)."""
    options = [(k1, l1, k2, l2, k3, l3, *sorted((k1, k2, k3), reverse=True))
               for k1, k2, k3 in itertools.permutations(range(h), 3)
               for l1, l2, l3 in itertools.product(range(LANES), repeat=3)]
    return _bits_for(options)


# FULL_TURN[h]: a seat's whole turn from a hand of h (3 to 5 cards: 5, or 3 after a swap)
FULL_TURN = [None] * engine.CARDS_PER_TURN + [_full_turn(h) for h in range(3, engine.OPENING_HAND + 1)]


def _take(cards: list, n: int, bits, into: list) -> None:
    """Move ``n`` uniformly random cards of ``cards`` (``n <= len(cards)``) to ``into``,
    up to 5 of them from one ``bits(30)`` (``getrandbits``) through :data:`DRAWS`."""
    while n > 0:
        p = len(cards)
        m = n if n < MAX_TAKE else MAX_TAKE
        limit = DRAWS[m][p]
        r = bits(30)
        while r >= limit:
            r = bits(30)
        for _ in range(m):
            into.append(cards.pop(r % p))
            r //= p
            p -= 1
        n -= m


class Game:
    """One whole game of Sam's with every card's place known.

    ``atk``/``dfn``/``count`` are per seat, per lane: red sum, black sum and
    number of cards (the engine's ``lane_strength`` without the list).  The
    phase is "play", "round_over" or "over"; :meth:`next_round` leaves
    "round_over" the way the engine's ``next_round`` does.
    """

    __slots__ = ("hands", "pile", "discard", "aside", "atk", "dfn", "count", "lanes", "vp", "round", "turn",
                 "first", "played", "redrawn", "phase", "winner", "strict_retaliation", "strict_majority",
                 "rng", "last_round")

    def copy(self) -> "Game":
        g = Game.__new__(Game)
        g.hands = [self.hands[0][:], self.hands[1][:]]
        g.pile = self.pile[:]
        g.discard = self.discard[:]
        g.aside = self.aside[:]
        g.atk = [self.atk[0][:], self.atk[1][:]]
        g.dfn = [self.dfn[0][:], self.dfn[1][:]]
        g.count = [self.count[0][:], self.count[1][:]]
        g.lanes = [[lane[:] for lane in self.lanes[0]], [lane[:] for lane in self.lanes[1]]]
        g.vp = self.vp[:]
        g.played = self.played[:]
        g.redrawn = self.redrawn[:]
        for name in ("round", "turn", "first", "phase", "winner", "strict_retaliation", "strict_majority",
                     "rng", "last_round"):
            setattr(g, name, getattr(self, name))
        return g

    # ---- whose move and what it may be ------------------------------------------
    def to_move(self) -> int | None:
        if self.phase != "play":
            return None
        return self.first if (self.played[0] + self.played[1]) % 2 == 0 else 1 - self.first

    def may_redraw(self, seat: int) -> bool:
        """The engine's rule: a hand of 5, before the seat's first card of the turn, once a round."""
        return len(self.hands[seat]) == engine.OPENING_HAND and self.played[seat] == 0 and not self.redrawn[seat]

    def moves(self) -> list[tuple]:
        seat = self.to_move()
        out = [(PLAY, lane, card) for card in self.hands[seat] for lane in range(LANES)]
        if self.may_redraw(seat):
            out.append((REDRAW,))
        return out

    # ---- making them ---------------------------------------------------------------
    def apply(self, move: tuple) -> None:
        """Make ``move`` for the seat to move (mutates; copy first to keep the old game)."""
        seat = self.to_move()
        if move[0] == REDRAW:
            self.aside += self.hands[seat]
            self.hands[seat] = []
            self.redrawn[seat] = True
            self._draw(seat, engine.DRAW_PER_TURN)
            return
        _, lane, card = move
        self.hands[seat].remove(card)
        self._place(seat, lane, card)

    def _place(self, seat: int, lane: int, card: int) -> None:
        if RED[card]:
            self.atk[seat][lane] += RANK[card]
        else:
            self.dfn[seat][lane] += RANK[card]
        self.count[seat][lane] += 1
        self.lanes[seat][lane].append(card)
        played = self.played
        played[seat] += 1
        if played[0] == engine.CARDS_PER_TURN and played[1] == engine.CARDS_PER_TURN:
            if self.turn == engine.TURNS:
                self._resolve()
            else:
                self.turn += 1
                played[0] = played[1] = 0
                self._draw(self.first, engine.DRAW_PER_TURN)
                self._draw(1 - self.first, engine.DRAW_PER_TURN)

    def _draw(self, seat: int, n: int) -> None:
        """Draw ``n`` cards; the draw pile is kept as an unordered bag and each draw takes a
        uniformly random card of it, which is what the top card of a shuffled pile is.

        An empty draw pile takes the discard pile; the separate pile of swapped hands sits
        that shuffle out and becomes the discard pile (or is all there is, when the discard
        pile is empty), as the engine's ``_draw_one_seat``."""
        hand, pile = self.hands[seat], self.pile
        while n:
            if not pile:
                discard, aside = self.discard, self.aside
                if not discard and not aside:
                    return
                if not discard:
                    discard, aside = aside, []
                pile = self.pile = discard
                self.discard, self.aside = aside, []
            if n < len(pile):
                _take(pile, n, self.rng.getrandbits, hand)
                return
            n -= len(pile)              # the rest of the pile, whichever way it is drawn
            hand += pile
            pile.clear()

    def lane_results(self) -> tuple[list[int], list]:
        """(lanes won per seat, per lane the winner or None or "empty"), as the engine's ``fight``."""
        won = [0, 0]
        results = []
        strict = self.strict_retaliation
        (a_0, a_1), (d_0, d_1), (c_0, c_1) = self.atk, self.dfn, self.count
        for a0, a1, d0, d1, c0, c1 in zip(a_0, a_1, d_0, d_1, c_0, c_1):
            if not c0 and not c1:
                results.append("empty")
                continue
            a0, a1 = a0 or 1, a1 or 1
            if a0 != a1:
                if a0 > a1:
                    w = 0 if a0 >= d1 else (1 if (a1 > d0 if strict else a1 >= d0) else None)
                else:
                    w = 1 if a1 >= d0 else (0 if (a0 > d1 if strict else a0 >= d1) else None)
            else:
                k0, k1 = a0 >= d1, a1 >= d0
                w = (0 if k0 else 1) if k0 != k1 else None
            if w is not None:
                won[w] += 1
            results.append(w)
        return won, results

    def _resolve(self) -> None:
        won, results = self.lane_results()
        gain, winner = engine.round_points(won, self.vp, self.strict_majority)
        self.vp = [self.vp[0] + gain[0], self.vp[1] + gain[1]]
        self.last_round = (won, results, gain, winner)
        self.phase = "round_over"
        for seat in (0, 1):
            if self.vp[seat] >= engine.VP_TO_WIN:
                self.phase, self.winner = "over", seat
                break

    def next_round(self) -> None:
        """The table and both hands go to the discard pile; the other player opens; both draw 5."""
        discard = self.discard
        for side in self.lanes:
            for lane in side:
                discard += lane
                lane.clear()
        for hand in self.hands:
            discard += hand
        self.hands = [[], []]
        self.atk = [[0] * LANES, [0] * LANES]
        self.dfn = [[0] * LANES, [0] * LANES]
        self.count = [[0] * LANES, [0] * LANES]
        self.round += 1
        self.turn = 1
        self.first = 1 - self.first
        self.played = [0, 0]
        self.redrawn = [False, False]
        self.phase = "play"
        self._draw(self.first, engine.OPENING_HAND)
        self._draw(1 - self.first, engine.OPENING_HAND)

    # ---- random play, fast -------------------------------------------------------------
    def play_round_randomly(self, redraw_one_in: int = 20, record: list | None = None) -> None:
        """Random moves until the round is scored (the playout of the search).

        Each card is a uniformly random card of the hand onto a uniformly random
        lane; at the start of a turn a hand of 5 is swapped for 3 one time in
        ``redraw_one_in``, as the engine's ``random_action`` does.  ``record``
        collects the moves as ``(seat, move)``.  See :meth:`_play_randomly`.
        """
        self._play_randomly(False, record, None, 1 / redraw_one_in)

    def play_game_randomly(self, record: list | None = None, rounds: list | None = None) -> int:
        """Random rounds to the end of the game; return the winner (what ``bench engines``
        times).  ``record`` collects every move as ``(seat, move)``, and ``(None,
        ("next_round",))`` between rounds; ``rounds`` each round's ``(lanes won, VP after)``."""
        self._play_randomly(True, record, rounds, 1 / 20)
        return self.winner

    def _play_randomly(self, whole: bool, record: list | None, rounds: list | None, chance: float) -> None:
        """Random play to the end of the round, or with ``whole`` of the game: :meth:`apply`,
        :meth:`_resolve` and :meth:`next_round` unrolled into one loop for speed (see "The
        fast model" in docs/solo.md):

        - A seat's cards of a turn are dealt at once, by one random number: one of the
          equally likely ways to play its remaining cards in order onto lanes
          (:data:`FULL_TURN`, or :data:`TURN` for the rest of a turn begun elsewhere).
          Three uniform picks in a row are exactly one uniform pick of the sequence, and a
          random player's cards do not depend on what the other seat plays, so dealing one
          seat's turn before the other's changes no probability; ``record`` still lists the
          plays alternating, as made.  The cards drawn for the next turn take the places
          of the cards played (a hand is a bag: its order means nothing).
        - Random numbers come from ``getrandbits`` through lookup tables (no float).
        - A lane's attack, defence and size are added as one int (:data:`PACKED`), and the
          rounds before the last are scored from those ints in the loop.
        """
        if self.phase != "play":
            return
        rnd, bits = self.rng.random, self.rng.getrandbits
        hands, lanes, vp = self.hands, self.lanes, self.vp
        per_turn, turns, draw3, win = engine.CARDS_PER_TURN, engine.TURNS, DRAWS[3], engine.VP_TO_WIN
        strict, majority = self.strict_retaliation, self.strict_majority
        full_turn, packed_of = FULL_TURN, PACKED
        # one seat or both swap: u < chance is the first seat's one time in 20, and u < chance**2
        # or chance <= u < either is the other's, independent of it (see the turn loop)
        either, both = 2 * chance - chance * chance, chance * chance
        # the cards played from here on, packed; ``base``: atk/dfn/count hold the cards played
        # before (the search's playouts start in the middle of a round)
        packed = [[0] * LANES, [0] * LANES]
        base = self.turn > 1 or self.played[0] or self.played[1]
        while True:                                             # a round
            played, redrawn, first, turn = self.played, self.redrawn, self.first, self.turn
            second = 1 - first
            seats = ((first, hands[first], packed[first], lanes[first]),
                     (second, hands[second], packed[second], lanes[second]))
            made = ([], []) if record is not None else None
            if played[0] or played[1]:                          # the rest of a turn begun in the search's tree
                start = played[0] + played[1]
                for seat, hand, side, stacks in seats:
                    if played[seat] < per_turn:
                        size, table = TURN[len(hand)][per_turn - played[seat]]
                        pick = table[bits(size)]
                        while pick is None:
                            pick = table[bits(size)]
                        for k, lane in pick:
                            card = hand.pop(k)
                            side[lane] += packed_of[card]
                            stacks[lane].append(card)
                            if made is not None:
                                made[seat].append((PLAY, lane, card))
                    if turn < turns:
                        pile = self.pile
                        p = len(pile)
                        if p >= 3:
                            r = bits(30)
                            while r >= draw3[p]:
                                r = bits(30)
                            hand.append(pile.pop(r % p))
                            r //= p
                            hand.append(pile.pop(r % (p - 1)))
                            hand.append(pile.pop(r // (p - 1) % (p - 2)))
                        else:
                            self._draw(seat, engine.DRAW_PER_TURN)
                if made is not None:
                    for n in range(start, 2 * per_turn):
                        seat = second if n % 2 else first
                        record.append((seat, made[seat].pop(0)))
                turn += 1
            while turn <= turns:                                # a whole turn
                # a hand of 5 is swapped one time in 20 (one random number for both seats)
                u = rnd()
                if u < either:
                    for seat, hand, _, _ in seats:
                        if (u < chance if seat == first else u < both or u >= chance) \
                                and not redrawn[seat] and len(hand) == 5:
                            if record is not None:
                                record.append((seat, (REDRAW,)))
                            self.aside += hand
                            hand.clear()
                            redrawn[seat] = True
                            self._draw(seat, engine.DRAW_PER_TURN)
                more = turn < turns
                for seat, hand, side, stacks in seats:
                    # a hand holds at least 3 cards here: after a turn's draw the other cards
                    # (at most 18 on the table, 7 in hands) leave at least 11 to draw from
                    size, table = full_turn[len(hand)]
                    pick = table[bits(size)]
                    while pick is None:
                        pick = table[bits(size)]
                    k1, l1, k2, l2, k3, l3, d1, d2, d3 = pick
                    c1, c2, c3 = hand[k1], hand[k2], hand[k3]
                    side[l1] += packed_of[c1]
                    side[l2] += packed_of[c2]
                    side[l3] += packed_of[c3]
                    stacks[l1].append(c1)
                    stacks[l2].append(c2)
                    stacks[l3].append(c3)
                    if made is not None:
                        made[seat].extend(((PLAY, l1, c1), (PLAY, l2, c2), (PLAY, l3, c3)))
                    pile = self.pile
                    p = len(pile)
                    if more and p >= 3:
                        # the draw for the next turn now: only the pile changes, so the other
                        # seat's cards need not be played first; _take unrolled for 3 cards
                        r = bits(30)
                        while r >= draw3[p]:
                            r = bits(30)
                        hand[k1] = pile.pop(r % p)
                        r //= p
                        hand[k2] = pile.pop(r % (p - 1))
                        hand[k3] = pile.pop(r // (p - 1) % (p - 2))
                    else:
                        del hand[d1], hand[d2], hand[d3]
                        if more:
                            self._draw(seat, engine.DRAW_PER_TURN)
                if made is not None:
                    for n in range(2 * per_turn):
                        seat = second if n % 2 else first
                        record.append((seat, made[seat].pop(0)))
                turn += 1
            played[0] = played[1] = per_turn
            self.turn = turns
            if whole:
                # score the round here (the engine's fight and round_points; _resolve for the last)
                if base:
                    packed = [[v + (a | d << 8 | c << 16) for v, a, d, c in zip(*sums)]
                              for sums in zip(packed, self.atk, self.dfn, self.count)]
                    base = False
                w0 = w1 = 0
                for v0, v1 in zip(*packed):
                    if v0 or v1:
                        a0 = v0 & 0xFF or 1
                        a1 = v1 & 0xFF or 1
                        if a0 > a1:
                            if a0 >= v1 >> 8 & 0xFF:
                                w0 += 1
                            elif a1 > v0 >> 8 & 0xFF if strict else a1 >= v0 >> 8 & 0xFF:
                                w1 += 1
                        elif a0 < a1:
                            if a1 >= v0 >> 8 & 0xFF:
                                w1 += 1
                            elif a0 > v1 >> 8 & 0xFF if strict else a0 >= v1 >> 8 & 0xFF:
                                w0 += 1
                        elif (a0 >= v1 >> 8 & 0xFF) != (a1 >= v0 >> 8 & 0xFF):
                            if a0 >= v1 >> 8 & 0xFF:
                                w0 += 1
                            else:
                                w1 += 1
                if (w0 >= 3 or w1 >= 3) if majority else w0 != w1:
                    gain0, gain1 = (1, 0) if w0 > w1 else (0, 1)
                else:
                    gain0, gain1 = vp[0] != win - 1, vp[1] != win - 1
                if vp[0] + gain0 < win and vp[1] + gain1 < win:
                    vp[0] += gain0
                    vp[1] += gain1
                    if rounds is not None:
                        rounds.append(([w0, w1], vp[:]))
                    if record is not None:
                        record.append((None, ("next_round",)))
                    # next_round: the table and both hands to the discard pile, the other seat opens
                    (a, b, c, d, e), (f, g, h, i, j) = lanes
                    self.discard += [*a, *b, *c, *d, *e, *f, *g, *h, *i, *j, *hands[0], *hands[1]]
                    lanes[0], lanes[1] = [[], [], [], [], []], [[], [], [], [], []]
                    hands[0].clear()
                    hands[1].clear()
                    packed = [[0] * LANES, [0] * LANES]
                    self.round += 1
                    self.turn = 1
                    self.first = first = 1 - first
                    played[0] = played[1] = 0
                    redrawn[0] = redrawn[1] = False
                    for seat in (first, 1 - first):
                        # both draw 5 (_draw inlined): an emptied pile takes the discard pile
                        hand, pile, n = hands[seat], self.pile, engine.OPENING_HAND
                        p = len(pile)
                        if p < n and self.discard:
                            hand += pile
                            n -= p
                            self.pile = pile = self.discard
                            self.discard, self.aside = self.aside, []
                            p = len(pile)
                        if n < p:
                            limit = DRAWS[n][p]
                            r = bits(30)
                            while r >= limit:
                                r = bits(30)
                            for p in range(p, p - n, -1):
                                hand.append(pile.pop(r % p))
                                r //= p
                        else:
                            self._draw(seat, n)
                    continue
            break
        for seat in (0, 1):
            atk, dfn, count = self.atk[seat], self.dfn[seat], self.count[seat]
            if base:
                for lane, v in enumerate(packed[seat]):
                    if v:
                        atk[lane] += v & 0xFF
                        dfn[lane] += v >> 8 & 0xFF
                        count[lane] += v >> 16
            else:
                for lane, v in enumerate(packed[seat]):
                    atk[lane], dfn[lane], count[lane] = v & 0xFF, v >> 8 & 0xFF, v >> 16
        self._resolve()
        if rounds is not None:
            rounds.append((self.last_round[0], self.vp[:]))


def new_game(seed: int | random.Random, strict_retaliation: bool = False, strict_majority: bool = False,
             first_seat: int = 0) -> Game:
    """A fresh game: the 36 cards shuffled into the draw pile, both players draw 5.  ``seed``
    may be a ``random.Random`` to draw from (many games from one stream, as the bench plays)."""
    g = Game.__new__(Game)
    g.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    g.pile = list(range(N))
    g.discard, g.aside = [], []
    g.hands = [[], []]
    g.lanes = [[[], [], [], [], []], [[], [], [], [], []]]
    g.atk = [[0] * LANES, [0] * LANES]
    g.dfn = [[0] * LANES, [0] * LANES]
    g.count = [[0] * LANES, [0] * LANES]
    g.vp = [0, 0]
    g.round, g.turn, g.first = 1, 1, first_seat
    g.played, g.redrawn = [0, 0], [False, False]
    g.phase, g.winner, g.last_round = "play", None, None
    g.strict_retaliation, g.strict_majority = strict_retaliation, strict_majority
    _take(g.pile, engine.OPENING_HAND, g.rng.getrandbits, g.hands[first_seat])
    _take(g.pile, engine.OPENING_HAND, g.rng.getrandbits, g.hands[1 - first_seat])
    return g


def random_games(n: int, seed: int = 1) -> int:
    """Play ``n`` whole random games on the fast path (what ``bench engines`` times), all
    from one random stream (seeding a Mersenne Twister for each would cost some 3 % of a game)."""
    rng = random.Random(seed)
    for _ in range(n):
        new_game(rng).play_game_randomly()
    return n


# ---- what one seat may know ---------------------------------------------------------------
class InfoSet:
    """Everything ``seat`` may know of a game, and :meth:`sample` to guess the rest.

    Known to the seat: its own ``hand`` (card ids), every card the shared
    screen shows, its own face-down buffs, the cards publicly known to lie in
    the discard pile (``state["discarded"]``, all of them revealed at a round's
    end), the cards it knows it threw away itself (``known_discards``) and the
    counts in the view.  Unknown, and dealt by :meth:`sample` from the cards the
    seat has not seen: the opponent's hand and face-down buffs, the draw pile's
    order, and the unseen part of the discard pile.

    It is built from ``rules.view(state, seat)`` — never from the hidden parts
    of the state — so two games that differ only in what the seat cannot see
    give the same information set.
    """

    def __init__(self, state: dict, seat: int, hand: list[str], known_discards=frozenset(),
                 known_aside=frozenset()):
        view = engine.RULES.view(state, seat)
        opts = state["options"]
        self.seat = seat
        self.header = (bool(opts["strict_retaliation"]), bool(opts["strict_majority"]), list(state["vp"]),
                       state["round"], state["turn"], state["first"], list(state["played"]),
                       list(state["redrawn"]), state["phase"], state["winner"])
        self.hand = [INDEX[c] for c in hand]
        seen = set(self.hand)
        self.lanes = [[[] for _ in range(LANES)] for _ in (0, 1)]
        for s in (0, 1):
            for lane in range(LANES):
                for shown in view["zones"][engine.lane_zone(s, lane)]["cards"]:
                    card = INDEX[shown] if isinstance(shown, str) else -1
                    self.lanes[s][lane].append(card)
                    seen.add(card)
        # public: every card in it lay face up on the table when its round was scored
        self.known_discard = [i for i in range(N) if engine.BIT[engine.DECK[i]] & state["discarded"]]
        seen.update(self.known_discard)
        own = [INDEX[c] for c in sorted(known_discards) if INDEX[c] not in seen]
        self.known_discard += own
        seen.update(own)
        self.known_aside = [INDEX[c] for c in sorted(known_aside) if INDEX[c] not in seen]
        seen.update(self.known_aside)
        self.unseen = [i for i in range(N) if i not in seen]
        counters = {c["id"]: c["value"] for c in view["counters"]}
        self.opponent_hand = counters[f"hand.{1 - seat}"]
        self.pile = counters["pile"]
        self.aside = counters["set_aside"]
        # what every deal shares: the lanes' sums without their face-down unknown cards, and where those lie
        self.hidden = [(s, lane, pos) for s in (0, 1) for lane in range(LANES)
                       for pos, card in enumerate(self.lanes[s][lane]) if card < 0]
        self.atk = [[sum(RANK[c] for c in lane if c >= 0 and RED[c]) for lane in side] for side in self.lanes]
        self.dfn = [[sum(RANK[c] for c in lane if c >= 0 and not RED[c]) for lane in side] for side in self.lanes]
        self.count = [[len(lane) for lane in side] for side in self.lanes]

    def sample(self, rng: random.Random) -> Game:
        """One full game consistent with this information set: the unseen cards dealt at
        random to the face-down cards it cannot see, the opponent's hand, the swapped hands
        it does not know, the draw pile and the discard pile.  Every such deal is equally
        likely (each group a uniformly random set of what is left; the larger of draw and
        discard pile simply keeps the rest)."""
        g = Game.__new__(Game)
        g.rng, bits = rng, rng.getrandbits
        (g.strict_retaliation, g.strict_majority, vp, g.round, g.turn, g.first, played, redrawn,
         g.phase, g.winner) = self.header
        g.vp, g.played, g.redrawn, g.last_round = vp[:], played[:], redrawn[:], None
        unseen = self.unseen[:]
        (side_0, side_1), (atk_0, atk_1), (dfn_0, dfn_1), (count_0, count_1) = (self.lanes, self.atk, self.dfn,
                                                                                self.count)
        g.lanes = lanes = [list(map(list.copy, side_0)), list(map(list.copy, side_1))]
        g.atk, g.dfn, g.count = [atk_0[:], atk_1[:]], [dfn_0[:], dfn_1[:]], [count_0[:], count_1[:]]
        if self.hidden:
            cards: list[int] = []
            _take(unseen, len(self.hidden), bits, cards)
            for (s, lane, pos), card in zip(self.hidden, cards):
                lanes[s][lane][pos] = card
                (g.atk if RED[card] else g.dfn)[s][lane] += RANK[card]
        g.hands = [[], []]
        g.hands[self.seat] = self.hand[:]
        _take(unseen, min(self.opponent_hand, len(unseen)), bits, g.hands[1 - self.seat])
        g.aside = self.known_aside[:]
        _take(unseen, min(self.aside - len(self.known_aside), len(unseen)), bits, g.aside)
        pile = min(self.pile, len(unseen))
        if pile <= len(unseen) - pile:
            g.pile = []
            _take(unseen, pile, bits, g.pile)
            g.discard = self.known_discard + unseen          # whatever is left lies unseen in the discard
        else:
            g.discard = self.known_discard[:]
            _take(unseen, len(unseen) - pile, bits, g.discard)
            g.pile = unseen
        return g


def to_action(seat: int, move: tuple) -> dict:
    """The engine action for a move of the fast model."""
    if move[0] == REDRAW:
        return {"type": "redraw", "seat": seat}
    return {"type": "play", "seat": seat, "lane": move[1], "card": engine.DECK[move[2]]}


def round_value(g: Game, seat: int, vp_before: list[int]) -> float:
    """What a scored round is worth to ``seat``: 1 for the game or the round, 0 for losing
    them, a tie in between (worth less to a seat on 4 VP, which gains nothing from it)."""
    if g.phase == "over":
        return 1.0 if g.winner == seat else 0.0
    mine = g.vp[seat] - vp_before[seat]
    theirs = g.vp[1 - seat] - vp_before[1 - seat]
    return 0.5 + 0.5 * (mine - theirs)


# ---- a heuristic opponent for the benchmark ---------------------------------------------------
def greedy_move(g: Game, rng: random.Random) -> tuple:
    """The greedy player: the card and lane that win the most lanes *as the table looks now*
    (the opponent's face-down buffs count as unknown: nothing), ties broken toward keeping
    high cards and opening lanes; it swaps a hand only when it holds no card above 5.

    It sees only what its seat may see: its hand and the visible table.
    """
    seat = g.to_move()
    hand = g.hands[seat]
    if g.may_redraw(seat) and max(RANK[c] for c in hand) <= 5:
        return (REDRAW,)
    other = 1 - seat
    best, best_score = None, None
    visible = _visible_strengths(g, other)
    for card in hand:
        for lane in range(LANES):
            score = _score_after(g, seat, lane, card, visible) * 100 - RANK[card] + rng.random()
            if best_score is None or score > best_score:
                best, best_score = (PLAY, lane, card), score
    return best


def _visible_strengths(g: Game, seat: int) -> list[tuple[int, int, int]]:
    """(attack, defence, cards) of ``seat``'s lanes counting only face-up cards."""
    out = []
    for lane in g.lanes[seat]:
        a = sum(RANK[c] for pos, c in enumerate(lane) if pos % 2 == 0 and RED[c])
        d = sum(RANK[c] for pos, c in enumerate(lane) if pos % 2 == 0 and not RED[c])
        out.append((a, d, len(lane)))
    return out


def _score_after(g: Game, seat: int, lane: int, card: int, visible) -> int:
    won = 0
    for n in range(LANES):
        a, d, c = g.atk[seat][n], g.dfn[seat][n], g.count[seat][n]
        if n == lane:
            if RED[card]:
                a += RANK[card]
            else:
                d += RANK[card]
            c += 1
        oa, od, oc = visible[n]
        if not c and not oc:
            continue
        w = _fight(a or 1, d, oa or 1, od)
        won += 1 if w == 0 else -1 if w == 1 else 0
    return won


def _fight(a0: int, d0: int, a1: int, d1: int) -> int | None:
    if a0 != a1:
        if a0 > a1:
            return 0 if a0 >= d1 else (1 if a1 >= d0 else None)
        return 1 if a1 >= d0 else (0 if a0 >= d1 else None)
    k0, k1 = a0 >= d1, a1 >= d0
    return (0 if k0 else 1) if k0 != k1 else None
