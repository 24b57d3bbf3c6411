"""Lifeforce Battle as the solo player's search sees it: small, fast, complete.

The rules engine (:mod:`companion.games.lifeforce.rules`) knows a hand only as a
count.  A player that thinks needs the cards, so this module keeps a second,
full-information model of one game — per seat the deck (an unordered bag: a
draw takes a uniformly random card of it, which is what the top card of a
shuffled deck is), the hand, the discard pile, the graveyard and the cards in
the current battle — as flat lists of small ints.  ``tests/solo/
test_lifeforce_model.py`` feeds its random games back through the engine,
which must accept every action and agree on every battle, every pile and the
winner, so the two cannot drift apart silently.

Cards are indices into :data:`companion.games.lifeforce.animals.ORDER`.

Moves are *macro moves*, one decision of the search each:

* building (attack or counter): ``(animal, low, support)`` — the animal, 1 if
  it declares "low" (0: "max", or a single lifespan), and the support cards as
  a sorted tuple.  The engine's actions for it are play_animal, declare (for a
  ranged animal), one support per card, done (:func:`to_actions`).  For each
  animal and mode :meth:`Game.moves` offers at most two support sets, the
  *fewest* cards (then the lowest total) and the *cheapest* (lowest total of
  maximum lifespans, then fewest cards) that reach the declared lifespan:
  support adds no strength, it only costs cards, so no other set is worth
  searching.
* the battle's winner: ``("call",)`` (attack next) or ``("check",)``.

``phase`` is what the search looks at: "play" while the game goes on up to
its ``horizon`` (a battle number), "done" once that battle is decided, "over"
at the end of the game.  A whole game has no horizon.  Resolving a duel needs
no decision, so it happens inside :meth:`Game.apply` (the engine's "resolve").
"""
from __future__ import annotations

import math
import random
from itertools import permutations
from operator import itemgetter

from companion.games.lifeforce import animals as catalogue
from companion.games.lifeforce.decks import DECK_SIZE, HAND_SIZE, sample_decks

COLOUR_INDEX = {c: i for i, c in enumerate(catalogue.COLOURS)}          # red … green; purple, green ≥ 4
PG = frozenset(COLOUR_INDEX[c] for c in catalogue.STALEMATE_COLOURS)
# STRONG[a][b]: colour a doubles against colour b
STRONG = [[catalogue.STRONG_AGAINST.get(a) == b for b in catalogue.COLOURS] for a in catalogue.COLOURS]

# per card index: maximum lifespan, low lifespan (0: no range), colour; grown by _catalogue()
MAX: list[int] = []
LOW: list[int] = []
COLOUR: list[int] = []
INDEX: dict[str, int] = {}
CALL, CHECK = ("call",), ("check",)
NO_HORIZON = 1 << 30


def _catalogue() -> None:
    """Bring the per-card tables up to the catalogue (players' own cards are registered at setup)."""
    for card_id in catalogue.ORDER[len(MAX):]:
        beast = catalogue.ANIMALS[card_id]
        INDEX[card_id] = len(MAX)
        MAX.append(beast.lifespan_max)
        LOW.append(beast.lifespan_low or 0)
        COLOUR.append(COLOUR_INDEX[beast.colour])


_catalogue()

# Random numbers: one ``getrandbits(30)`` read in mixed radix (r % n, then r // n % (n - 1), …)
# is one of n·(n-1)·… equally likely orders, provided r lies below a multiple of that product
# (others are drawn again, as CPython's ``randrange`` does); a float to int per pick costs more.
BITS = 30
#   a build from a hand of n: one of the n! orders of the hand (the animal first, then the support
#   in the order it is tried), PERMS[n][r % n!], each an itemgetter that returns the hand in that
#   order, and low or max (r // n! & 1); BUILD_LIMIT[n] is below 2^30 and a multiple of 2·n!
PERMS: list[list] = [[] for _ in range(HAND_SIZE + 1)]
BUILD_LIMIT = [0] * (HAND_SIZE + 1)
for _n in range(2, HAND_SIZE + 1):
    PERMS[_n] = [itemgetter(*order) for order in permutations(range(_n))]
    _p = 2 * math.factorial(_n)
    BUILD_LIMIT[_n] = (1 << BITS) // _p * _p
#   a draw of k cards from a pile of n: DRAW_LIMIT[k][n], for piles of up to 64 cards (64·63·…·60
#   < 2^30; a pile holds at most a deck, 50 cards)
PILE_MAX = 64
DRAW_LIMIT = [[0] * (PILE_MAX + 1) for _ in range(HAND_SIZE + 1)]
for _k in range(1, HAND_SIZE + 1):
    for _n in range(_k, PILE_MAX + 1):
        _p = math.perm(_n, _k)
        DRAW_LIMIT[_k][_n] = (1 << BITS) // _p * _p
# DUEL[colour][colour]: the first's and the second's multiplier, and whether it is a stalemate pair
DUEL = [[(2 if STRONG[a][b] else 1, 2 if STRONG[b][a] else 1, a in PG and b in PG)
         for b in range(len(catalogue.COLOURS))] for a in range(len(catalogue.COLOURS))]


def _take(hand: list[int], deck: list[int], k: int, getrandbits) -> None:
    """Move ``k`` uniformly random cards of ``deck`` (at least ``k``) to ``hand``."""
    n = len(deck)
    lim = DRAW_LIMIT[k][n]
    r = getrandbits(BITS)
    while r >= lim:
        r = getrandbits(BITS)
    while k:
        hand.append(deck.pop(r % n))
        r //= n
        n -= 1
        k -= 1


def _pick_build(hand: list[int], getrandbits) -> tuple[tuple, int, int, int]:
    """:func:`random_build`'s kind of build from ``hand``: a random animal, low or max at random
    if it has a range, then support in random order until the lifespan is reached; up to four
    tries (another animal when the rest cannot reach it), then the weakest animal said low with
    the strongest card.  Returns the hand in a new order, the build its first ``k`` cards, and
    ``k``, low, the declared lifespan.  (:meth:`Game.play_game_randomly` unrolls it for a hand of
    5, with the same random numbers.)"""
    n = len(hand)
    lim, perms, f = BUILD_LIMIT[n], PERMS[n], len(PERMS[n])
    tries = 4
    while tries:
        r = getrandbits(BITS)
        if r >= lim:
            continue
        tries -= 1
        h = perms[r % f](hand)
        animal = h[0]
        need = LOW[animal]
        if need and r // f & 1:
            low = 1
        else:
            need, low = MAX[animal], 0
        total = 0
        k = 1
        while k < n:
            total += MAX[h[k]]
            k += 1
            if total >= need:
                return h, k, low, need
    return _weakest_build(hand)


def _weakest_build(hand: list[int]) -> tuple[tuple, int, int, int]:
    """:func:`_pick_build` after four tries: the weakest animal (low if it has a range) with the
    strongest card, which always reaches it (the engine's ``_can_support``)."""
    ordered = sorted(hand, key=MAX.__getitem__)
    animal = ordered[0]
    return (animal, ordered[-1], *ordered[1:-1]), 2, 1 if LOW[animal] else 0, LOW[animal] or MAX[animal]


def card_id(card: int) -> str:
    return catalogue.ORDER[card]


def lifespan(card: int, low: int) -> int:
    return LOW[card] if low and LOW[card] else MAX[card]


class Game:
    """One whole game of Lifeforce Battle with every card's place known.

    ``stage`` is the engine's phase: "setup", "attack", "counter", "call" or
    "over" ("resolve" never lasts).  ``tot`` is the battle's running sum of
    effective strengths per seat; ``cur`` the animal (or -1) and ``life`` its
    declared lifespan per seat in the current duel; ``table`` every card of the
    battle per seat.
    """

    __slots__ = ("deck", "hand", "discard", "grave", "table", "cur", "life", "tot", "stage", "phase", "turn",
                 "starter", "battle", "battle_winner", "winner", "horizon", "mulliganed", "rng", "record",
                 "duels", "last_battle", "searcher")

    def copy(self) -> "Game":
        g = Game.__new__(Game)
        g.deck = [self.deck[0][:], self.deck[1][:]]
        g.hand = [self.hand[0][:], self.hand[1][:]]
        g.discard = [self.discard[0][:], self.discard[1][:]]
        g.grave = [self.grave[0][:], self.grave[1][:]]
        g.table = [self.table[0][:], self.table[1][:]]
        g.cur, g.life, g.tot, g.mulliganed = self.cur[:], self.life[:], self.tot[:], self.mulliganed[:]
        for name in ("stage", "phase", "turn", "starter", "battle", "battle_winner", "winner", "horizon",
                     "rng", "duels", "last_battle", "searcher"):
            setattr(g, name, getattr(self, name))
        g.record = None
        return g

    # ---- whose move and what it may be ------------------------------------------
    def to_move(self) -> int | None:
        if self.stage == "call":
            return self.battle_winner
        return self.turn if self.stage in ("attack", "counter") else None

    def moves(self) -> list[tuple]:
        """The moves of the seat to move.  In a game dealt for the search (``searcher`` set),
        the other seat has one: its playout policy's, for it knows its hand and the search
        does not (a tree of its every reply, shared over deals of different hands, would
        make it play as if it could not see its own cards)."""
        seat = self.to_move()
        if self.searcher is not None and seat != self.searcher:
            return [policy_move(self, self.rng.random)]
        if self.stage == "call":
            return [CALL, CHECK]
        return builds(self.hand[seat])

    # ---- making them ---------------------------------------------------------------
    def apply(self, move: tuple) -> None:
        """Make ``move`` for the seat to move (mutates; copy first to keep the old game)."""
        if self.stage == "call":
            self.call(move == CALL)
            return
        animal, low, support = move
        self._build(self.turn, animal, low, support)

    def call(self, call: bool) -> None:
        seat = self.battle_winner
        if self.record is not None:
            self.record.append((seat, "call" if call else "check"))
        self.starter = self.turn = seat if call else 1 - seat
        self.battle += 1
        self.battle_winner = None
        self.stage = "attack"

    def start(self, first_attacker: int) -> None:
        """Rock-paper-scissors is over: ``first_attacker`` begins battle 1."""
        if self.record is not None:
            self.record.append((first_attacker, "first_attacker"))
        self.starter = self.turn = first_attacker
        self.battle, self.stage = 1, "attack"

    def mulligan(self, seat: int) -> None:
        """The hand goes back into the deck and 5 new cards are drawn (once, before battle 1)."""
        if self.record is not None:
            self.record.append((seat, "mulligan"))
        self.deck[seat] += self.hand[seat]
        self.hand[seat] = []
        self.mulliganed[seat] = True
        self._draw(seat)

    def _build(self, seat: int, animal: int, low: int, support) -> None:
        hand, table = self.hand[seat], self.table[seat]
        hand.remove(animal)
        table.append(animal)
        for c in support:
            hand.remove(c)
            table.append(c)
        if self.record is not None:
            self.record.append((seat, (animal, low, tuple(support))))
        self.cur[seat] = animal
        self.life[seat] = LOW[animal] if low and LOW[animal] else MAX[animal]
        if self.stage == "attack":
            self.stage, self.turn = "counter", 1 - seat
        else:
            self._resolve()

    def build_randomly(self) -> None:
        """The seat to move makes :func:`random_build`'s kind of build (:func:`_pick_build`, each
        try one random number)."""
        seat = self.turn
        hand = self.hand[seat]
        h, k, low, need = _pick_build(hand, self.rng.getrandbits)
        animal = h[0]
        if self.record is not None:
            self.record.append((seat, (animal, low, h[1:k])))
        self.table[seat] += h[:k]
        hand[:] = h[k:]
        self.cur[seat] = animal
        self.life[seat] = need
        if self.stage == "attack":
            self.stage, self.turn = "counter", 1 - seat
        else:
            self._resolve()

    def _draw(self, seat: int) -> None:
        """Draw up to 5; an empty deck takes the (shuffled) discard pile first, as the engine's
        ``_draw_both``."""
        hand = self.hand[seat]
        need = HAND_SIZE - len(hand)
        if need <= 0:
            return
        deck = self.deck[seat]
        if len(deck) < need:                       # all of it, then the discard pile is the deck
            hand += deck
            need -= len(deck)
            deck = self.deck[seat] = self.discard[seat]
            self.discard[seat] = []
            if len(deck) <= need:
                hand += deck
                deck.clear()
                return
        _take(hand, deck, need, self.rng.getrandbits)

    def _resolve(self) -> None:
        """The engine's ``_resolve``: score the duel, then a stalemate duel or the battle's end."""
        a0, a1 = self.cur
        c0, c1 = COLOUR[a0], COLOUR[a1]
        life = self.life
        tot = self.tot
        tot[0] += life[0] * 2 if STRONG[c0][c1] else life[0]
        tot[1] += life[1] * 2 if STRONG[c1][c0] else life[1]
        self.duels += 1
        self.cur = [-1, -1]
        hand = self.hand
        if (c0 in PG and c1 in PG) or tot[0] == tot[1]:
            if self.record is not None:
                self.record.append((None, "stalemate", tot[:]))
            self.stage, self.turn = "attack", self.starter
        else:
            winner = 0 if tot[0] > tot[1] else 1
            loser = 1 - winner
            table = self.table
            self.last_battle = (winner, tot[:], len(table[loser]), len(table[winner]))
            if self.record is not None:
                self.record.append((None, "battle", self.last_battle))
            self.grave[loser] += table[loser]
            self.discard[winner] += table[winner]
            self.table = [[], []]
            self.tot = [0, 0]
            self.duels = 0
            self.stage, self.turn, self.battle_winner = "call", None, winner
        if len(hand[0]) < HAND_SIZE:
            self._draw(0)
        if len(hand[1]) < HAND_SIZE:
            self._draw(1)
        if len(hand[0]) < 2 or len(hand[1]) < 2:
            self._out_of_cards()
        elif self.stage == "call" and self.battle >= self.horizon:
            self.phase = "done"

    def _out_of_cards(self) -> bool:
        """After drawing: fewer than 2 cards in hand (an animal needs support) loses; both: a draw."""
        short0, short1 = len(self.hand[0]) < 2, len(self.hand[1]) < 2
        if not (short0 or short1):
            return False
        self.winner = None if short0 and short1 else (1 if short0 else 0)
        self.stage = self.phase = "over"
        self.turn = self.battle_winner = None
        return True

    # ---- random play, fast -------------------------------------------------------------
    def play_round_randomly(self) -> None:
        """Play the current battle to its end with the playout policy (:func:`policy_move`),
        stalemate duels included, a call or check first when the decision is one: the
        search's playout."""
        if self.phase != "play":
            return
        rnd = self.rng.random
        started = self.stage != "call"
        while self.phase == "play":
            if self.stage == "call":
                if started:
                    return
                started = True
                self.call(rnd() < 0.5)
            else:
                self._build(self.turn, *policy_move(self, rnd))

    def play_game_randomly(self, record: list | None = None, mulligan_one_in: int = 10) -> int | None:
        """A whole random game from setup; returns the winner (None: a draw).

        ``record`` collects ``(seat, what)``: "mulligan", "first_attacker", a
        build ``(animal, low, support)``, "call"/"check", and ``(None,
        "stalemate", totals)`` / ``(None, "battle", (winner, totals, to
        graveyard, to discard))`` when a duel is resolved; :func:`to_actions`
        turns the seat's entries into the engine's actions.

        This is what ``bench engines`` times, so it is one loop over duels with
        the game in local variables: :meth:`build_randomly`, :meth:`_resolve`,
        :meth:`_draw` and :meth:`call` written out (the same random numbers in
        the same order: ``tests/solo/test_lifeforce_model.py`` plays the game
        through those methods too and asserts the same record).
        """
        self.record = record
        self.horizon = NO_HORIZON
        rng = self.rng
        rnd, getrandbits = rng.random, rng.getrandbits
        if self.stage == "setup":
            for seat in (0, 1):
                if rnd() * mulligan_one_in < 1:
                    self.mulligan(seat)
            self.start(int(rnd() * 2))
        elif self.stage == "counter":              # finish the duel under way
            self.build_randomly()
        hands, decks, discards, graves, table = self.hand, self.deck, self.discard, self.grave, self.table
        hand0, hand1 = hands
        cur, life = self.cur, self.life
        tot0, tot1 = self.tot
        stage, starter, battle, duels = self.stage, self.starter, self.battle, self.duels
        winner, last = self.battle_winner, None
        max_, low_, colour, duel = MAX, LOW, COLOUR, DUEL
        bits, draw_limit, hand_size = BITS, DRAW_LIMIT, HAND_SIZE
        limit5, perms5, orders5 = BUILD_LIMIT[5], PERMS[5], len(PERMS[5])
        while stage != "over":
            if stage == "call":
                call = rnd() < 0.5
                if record is not None:
                    record.append((winner, "call" if call else "check"))
                starter = winner if call else 1 - winner
                battle += 1
                winner = None
            # one duel: the attack, the counter (build_randomly) …
            for seat in (starter, 1 - starter):
                hand = hands[seat]
                if len(hand) == 5:                 # _pick_build, its running sum unrolled
                    tries = 4
                    while tries:
                        r = getrandbits(bits)
                        if r >= limit5:
                            continue
                        tries -= 1
                        h = perms5[r % orders5](hand)
                        animal = h[0]
                        need = low_[animal]
                        if need and r // orders5 & 1:
                            low = 1
                        else:
                            need, low = max_[animal], 0
                        total = max_[h[1]]
                        if total >= need:
                            k = 2
                        else:
                            total += max_[h[2]]
                            if total >= need:
                                k = 3
                            else:
                                total += max_[h[3]]
                                if total >= need:
                                    k = 4
                                elif total + max_[h[4]] >= need:
                                    k = 5
                                else:
                                    continue
                        break
                    else:
                        h, k, low, need = _weakest_build(hand)
                        animal = h[0]
                else:
                    h, k, low, need = _pick_build(hand, getrandbits)
                    animal = h[0]
                if record is not None:
                    record.append((seat, (animal, low, h[1:k])))
                table[seat] += h[:k]
                hand[:] = h[k:]
                cur[seat] = animal
                life[seat] = need
            # … its score (_resolve) …
            animal0, animal1 = cur
            double0, double1, pg = duel[colour[animal0]][colour[animal1]]
            tot0 += life[0] * double0
            tot1 += life[1] * double1
            duels += 1
            if pg or tot0 == tot1:
                if record is not None:
                    record.append((None, "stalemate", [tot0, tot1]))
                stage = "attack"
            else:
                winner = 0 if tot0 > tot1 else 1
                loser = 1 - winner
                lost, kept = table[loser], table[winner]
                last = (winner, tot0, tot1, lost, kept)   # last_battle, once the game is over
                if record is not None:
                    record.append((None, "battle", (winner, [tot0, tot1], len(lost), len(kept))))
                graves[loser] += lost
                discards[winner] += kept
                table[0], table[1] = [], []
                tot0 = tot1 = duels = 0
                stage = "call"
            # … and both draw to 5 (_draw; at least 2 cards each, for each has just built)
            for seat in (0, 1):
                hand = hands[seat]
                need = hand_size - len(hand)
                deck = decks[seat]
                n = len(deck)
                if n < need:                       # the discard pile becomes the deck
                    self._draw(seat)
                    if len(hand) < 2:              # _out_of_cards
                        stage = "over"
                    continue
                lim = draw_limit[need][n]          # _take, unrolled
                r = getrandbits(bits)
                while r >= lim:
                    r = getrandbits(bits)
                hand.append(deck.pop(r % n))
                r //= n
                n -= 1
                hand.append(deck.pop(r % n))
                if need > 2:
                    r //= n
                    n -= 1
                    hand.append(deck.pop(r % n))
                    if need > 3:
                        r //= n
                        n -= 1
                        hand.append(deck.pop(r % n))
                        if need > 4:
                            hand.append(deck.pop(r // n % (n - 1)))
        short0, short1 = len(hand0) < 2, len(hand1) < 2
        self.winner = None if short0 == short1 else (1 if short0 else 0)
        self.stage = self.phase = "over"
        self.turn = self.battle_winner = None
        self.starter, self.battle, self.duels = starter, battle, duels
        self.cur, self.tot = [-1, -1], [tot0, tot1]
        if last is not None:
            winner, tot0, tot1, lost, kept = last
            self.last_battle = (winner, [tot0, tot1], len(lost), len(kept))
        self.record = None
        return self.winner


_BUILDS: dict[tuple, list[tuple]] = {}
#: hands remembered at most (~0.9 KB each).  A game at Normal strength meets ~35,000 hands and
#: the old bound of 100,000 held ~90 MB on a Pi after three games; at this bound a search asks
#: for the same hands often enough that two solo games at 400 deals a decision took 2.5 s of
#: CPU against 2.4 s.
BUILDS_REMEMBERED = 8192


def builds(hand: list[int]) -> list[tuple]:
    """The macro moves of a seat building with ``hand``: per animal and mode the fewest and the
    cheapest support that reach its lifespan.  (Remembered per hand: the search asks often.)"""
    key = tuple(sorted(hand))
    found = _BUILDS.get(key)
    if found is None:
        if len(_BUILDS) >= BUILDS_REMEMBERED:
            _BUILDS.clear()
        found = _BUILDS[key] = _builds(list(key))
    return found


_SUBSETS: dict[int, tuple] = {}


def _subsets(n: int) -> tuple:
    """For a hand of ``n``: per position, the masks of the non-empty subsets of the other
    positions in increasing order; per mask its size and its positions."""
    found = _SUBSETS.get(n)
    if found is None:
        found = _SUBSETS[n] = (
            [[mask for mask in range(1, 1 << n) if not mask >> i & 1] for i in range(n)],
            [mask.bit_count() for mask in range(1 << n)],
            [tuple(j for j in range(n) if mask >> j & 1) for mask in range(1 << n)])
    return found


def _builds(hand: list[int]) -> list[tuple]:
    """:func:`builds` for a sorted hand, worked out: the total of every subset of the hand (one
    addition each), then per animal and mode the subsets of the other cards
    that reach the lifespan, the fewest (then the lowest total) and the cheapest (then the
    fewest), the first in mask order on a tie — each a minimum of integers that hold the
    order's keys and the mask in their bits."""
    n = len(hand)
    others, sizes, positions = _subsets(n)
    total = [0]
    for card in hand:                        # the subsets with this card: bit j is hand[j]
        lifespan_max = MAX[card]
        total += [t + lifespan_max for t in total]
    # 20 bits for a total (a sum of at most 4 lifespans), 4 for a size, n for the mask
    fewest = [(sizes[mask] << 20 | total[mask]) << n | mask for mask in range(1 << n)]
    cheapest = [(total[mask] << 4 | sizes[mask]) << n | mask for mask in range(1 << n)]
    low_bits = (1 << n) - 1
    get = hand.__getitem__
    out = []
    seen = set()
    for i in range(n):
        animal = hand[i]
        for low in ((0, 1) if LOW[animal] else (0,)):
            need = LOW[animal] if low else MAX[animal]
            fit = [mask for mask in others[i] if total[mask] >= need]
            if not fit:
                continue
            for key in (fewest, cheapest):
                move = (animal, low, tuple(map(get, positions[min(map(key.__getitem__, fit)) & low_bits])))
                if move not in seen:
                    seen.add(move)
                    out.append(move)
    return out


def random_build(hand: list[int], rnd) -> tuple[int, int, tuple]:
    """A random player's build: a random animal, a random mode if it has a range, then random
    support cards until the lifespan is reached (another animal when the rest cannot reach it).

    With two cards a build always exists: the one with the lower maximum (said low) attacks
    and the other supports it (the engine's ``_can_support``)."""
    n = len(hand)
    for _ in range(4):
        i = int(rnd() * n)
        animal = hand[i]
        low = 1 if LOW[animal] and rnd() < 0.5 else 0
        need = LOW[animal] if low else MAX[animal]
        others = hand[:i] + hand[i + 1:]
        total = 0
        support = []
        while others and total < need:
            k = int(rnd() * len(others))
            c = others[k]
            others[k] = others[-1]
            others.pop()
            support.append(c)
            total += MAX[c]
        if total >= need:
            return animal, low, tuple(support)
    ordered = sorted(hand, key=MAX.__getitem__)
    return ordered[0], 1 if LOW[ordered[0]] else 0, (ordered[-1],)


def new_game(seed: int, decks: list[list[str]] | None = None) -> Game:
    """A fresh game in setup: each seat's 50 cards in its deck, 5 of them drawn."""
    _catalogue()
    decks = decks or sample_decks()
    return _deal(random.Random(seed), [INDEX[c] for c in decks[0]], [INDEX[c] for c in decks[1]])


def _deal(rng: random.Random, deck0: list[int], deck1: list[int]) -> Game:
    g = Game.__new__(Game)
    g.rng = rng
    g.deck = [deck0[:], deck1[:]]
    g.hand = [[], []]
    g.discard, g.grave, g.table = [[], []], [[], []], [[], []]
    g.cur, g.life, g.tot = [-1, -1], [0, 0], [0, 0]
    g.stage, g.phase, g.turn, g.starter = "setup", "play", None, None
    g.battle, g.battle_winner, g.winner, g.horizon = 0, None, None, NO_HORIZON
    g.mulliganed, g.record, g.duels, g.last_battle, g.searcher = [False, False], None, 0, None, None
    g._draw(0)
    g._draw(1)
    return g


def random_games(n: int, seed: int = 1) -> int:
    """Play ``n`` whole random games on the fast path (what ``bench engines`` times), one after
    another from one random stream (seeding a generator per game would cost a few per cent)."""
    _catalogue()
    decks = sample_decks()
    deck0, deck1 = [INDEX[c] for c in decks[0]], [INDEX[c] for c in decks[1]]
    rng = random.Random(seed)
    for _ in range(n):
        _deal(rng, deck0, deck1).play_game_randomly()
    return n


def to_actions(seat: int | None, what) -> list[dict]:
    """The engine's actions for one entry of a record (or a move of seat ``seat``)."""
    if seat is None:                               # a duel resolved: the engine needs the resolve
        return [{"type": "resolve", "seat": 0}]
    if isinstance(what, str):
        return [{"type": what, "seat": seat}]
    if what in (CALL, CHECK):
        return [{"type": what[0], "seat": seat}]
    animal, low, support = what
    actions = [{"type": "play_animal", "seat": seat, "card": card_id(animal)}]
    if LOW[animal]:
        actions.append({"type": "declare", "seat": seat, "mode": "low" if low else "max"})
    actions += [{"type": "support", "seat": seat, "card": card_id(c)} for c in support]
    actions.append({"type": "done", "seat": seat})
    return actions


def from_actions(actions: list[dict]) -> tuple:
    """The macro move of :func:`to_actions`' actions for a build or a call (the player's answer)."""
    first = actions[0]
    if first["type"] in ("call", "check"):
        return (first["type"],)
    animal = INDEX[first["card"]]
    low = int(any(a["type"] == "declare" and a["mode"] == "low" for a in actions))
    return animal, low, tuple(sorted(INDEX[a["card"]] for a in actions if a["type"] == "support"))


# ---- what one seat may know ---------------------------------------------------------------
class InfoSet:
    """Everything ``seat`` may know of a game, and :meth:`sample` to guess the rest.

    Lifeforce has no face-down cards on the table: the engine's state is all
    public (cards on the battle stage, the graveyards, the discard piles until
    they are shuffled back, and the counts).  The seat also knows its own hand.
    The only unknown is which of the opponent's cards are in its hand and
    which in its deck.  Those cards are the opponent's **deck list** (the
    ``decks`` setup option, registered so the companion can refuse a card that
    is not in a player's deck or is in a known pile) minus its graveyard,
    discard pile and battle stage — the engine's ``_available``.  Using the
    opponent's list is a choice: a player who saw the other's deck at
    registration knows it; without it the search would have to guess from the
    whole catalogue.  :meth:`sample` deals the opponent's hand at random from
    those cards and leaves the rest in its deck; the seat's own deck is known
    as a set (its list minus its hand and piles), and a draw takes a random
    card of it.

    It is built from the engine's state and the seat's hand alone: the state
    never holds a hand, so two games that differ only in the opponent's hand
    give the same information set.
    """

    def __init__(self, state: dict, seat: int, hand: list[str]):
        _catalogue()
        self.seat = seat
        self.hand = [INDEX[c] for c in hand]
        decks = state["options"]["decks"]
        self.grave, self.discard, self.deck = [], [], []
        for s in (0, 1):
            bit_of = catalogue.BIT
            self.grave.append([INDEX[c] for c in decks[s] if bit_of[c] & state["graveyard"][s]])
            self.discard.append([INDEX[c] for c in decks[s] if bit_of[c] & state["discard"][s]])
            out = state["graveyard"][s] | state["discard"][s] | state["table"][s]
            self.deck.append([INDEX[c] for c in decks[s] if not bit_of[c] & out])
        own = set(self.hand)
        self.deck[seat] = [c for c in self.deck[seat] if c not in own]
        self.unseen = self.deck[1 - seat]            # the opponent's hand and deck, in some order
        self.opponent_hand = state["hand"][1 - seat]
        # the battle on the table
        self.table = [[], []]
        self.cur, self.life, self.tot = [-1, -1], [0, 0], [0, 0]
        duels = state["duels"]
        for d in duels:
            for s in (0, 1):
                if d["animal"][s] is not None:
                    self.table[s].append(INDEX[d["animal"][s]])
                self.table[s] += [INDEX[c] for c in d["support"][s]]
            if "strength" in d:
                self.tot = [self.tot[0] + d["strength"][0], self.tot[1] + d["strength"][1]]
        if duels:
            last = duels[-1]
            for s in (0, 1):
                if last["animal"][s] is not None and "strength" not in last:
                    animal = INDEX[last["animal"][s]]
                    self.cur[s] = animal
                    self.life[s] = lifespan(animal, last["mode"][s] == "low")
        self.n_duels = sum("strength" in d for d in duels)
        self.header = (state["phase"], state["turn"], state["starter"], state["battle"], state["battle_winner"],
                       list(state["mulliganed"]))

    def sample(self, rng: random.Random) -> Game:
        """One full game consistent with this information set, its horizon the end of the
        battle being fought (of the next one, when the decision is a call or check)."""
        g = Game.__new__(Game)
        g.rng = rng
        g.stage, g.turn, g.starter, g.battle, g.battle_winner, mull = self.header
        g.mulliganed = mull[:]
        g.phase, g.winner, g.record, g.last_battle, g.searcher = "play", None, None, None, self.seat
        g.horizon = g.battle + 1 if g.stage == "call" else g.battle
        g.duels = self.n_duels
        unseen, dealt = self.unseen[:], []        # the deck is a bag: only the hand is dealt
        k = min(self.opponent_hand, len(unseen))
        if k:
            _take(dealt, unseen, k, rng.getrandbits)
        other = 1 - self.seat
        hands = [None, None]
        hands[self.seat] = self.hand[:]
        hands[other] = dealt
        decks = [None, None]
        decks[self.seat] = self.deck[self.seat][:]
        decks[other] = unseen
        g.hand, g.deck = hands, decks
        g.discard = [self.discard[0][:], self.discard[1][:]]
        g.grave = [self.grave[0][:], self.grave[1][:]]
        g.table = [self.table[0][:], self.table[1][:]]
        g.cur, g.life, g.tot = self.cur[:], self.life[:], self.tot[:]
        return g


def battle_value(g: Game, seat: int, graves_before: list[int]) -> float:
    """What a finished battle (or the game) is worth to ``seat``, 0–1.

    The game is won by attrition — the loser of a battle loses its cards for
    good, the winner's come back after the next shuffle — so a battle is worth
    the difference of the cards it sent to each graveyard, squashed to 0–1,
    plus a little for winning it (the call or check).  The game's end is 1, 0,
    or 0.5 for a draw.
    """
    if g.phase == "over":
        return 0.5 if g.winner is None else (1.0 if g.winner == seat else 0.0)
    mine = len(g.grave[seat]) - graves_before[seat]
    theirs = len(g.grave[1 - seat]) - graves_before[1 - seat]
    won = 0.05 if g.last_battle is not None and g.last_battle[0] == seat else -0.05
    return 0.5 + 0.4 * math.tanh((theirs - mine) / 3) + won


# ---- a heuristic opponent for the benchmark ---------------------------------------------------
def greedy_move(g: Game, rng: random.Random) -> tuple:
    """See :func:`greedy`."""
    return greedy(g, rng.random)


PLAYOUT_RANDOM = 0.15


def policy_move(g: Game, rnd) -> tuple:
    """The playout policy: :func:`greedy`, and one build in :data:`PLAYOUT_RANDOM` at random."""
    if g.stage == "call":
        return CALL if rnd() < 0.3 else CHECK
    if rnd() < PLAYOUT_RANDOM:
        return random_build(g.hand[g.turn], rnd)
    return greedy(g, rnd)


def greedy(g: Game, noise) -> tuple:
    """The greedy player, seeing only its hand and the table.

    Checking: it lets the other attack (the counter sees the attack). Attacking:
    the build with the fewest cards, then the strongest animal.  Countering: the
    fewest cards that win the battle as the table stands (a Purple/Green pair never
    wins: it is a stalemate), then the strongest; when nothing wins, the fewest and
    weakest cards, to lose as little as possible.
    """
    seat = g.to_move()
    if g.stage == "call":
        return CHECK
    moves = builds(g.hand[seat])
    if g.stage == "attack":
        return min(moves, key=lambda m: (len(m[2]), -lifespan(m[0], m[1]), noise()))
    other = 1 - seat
    theirs = g.cur[other]
    winning = []
    for m in moves:
        animal = m[0]
        mine_s = lifespan(animal, m[1]) * (2 if STRONG[COLOUR[animal]][COLOUR[theirs]] else 1)
        theirs_s = g.life[other] * (2 if STRONG[COLOUR[theirs]][COLOUR[animal]] else 1)
        pg = COLOUR[animal] in PG and COLOUR[theirs] in PG
        if not pg and g.tot[seat] + mine_s > g.tot[other] + theirs_s:
            winning.append(m)
    if winning:
        return min(winning, key=lambda m: (len(m[2]), sum(MAX[c] for c in m[2]), noise()))
    return min(moves, key=lambda m: (len(m[2]), MAX[m[0]] + sum(MAX[c] for c in m[2]), noise()))


def random_move(g: Game, rng: random.Random) -> tuple:
    """The random player of the benchmark (and of the playouts): :func:`random_build`, or a
    call or check at even odds."""
    if g.stage == "call":
        return CALL if rng.random() < 0.5 else CHECK
    return random_build(g.hand[g.turn], rng.random)


# ---- the starting hand --------------------------------------------------------------------------
MULLIGAN_QUANTILE = 0.1
_THRESHOLDS: dict[tuple, int] = {}


def hand_strength(hand: list[int]) -> int:
    """The lifespan of the strongest animal the hand can field with a single support card (some
    card always can: the longest-lived card supports the shortest-lived)."""
    return max((lifespan(m[0], m[1]) for m in builds(hand) if len(m[2]) == 1), default=0)


def weak_hand(hand: list[str], deck: list[str]) -> bool:
    """Whether the companion takes a new starting hand: when :func:`hand_strength` falls below
    the weakest tenth of 400 hands its own deck deals (a fixed sample, so the same hand of the
    same deck always gets the same answer).  Rules: "If you do not like your starting hand, you
    may pick a new hand of 5 cards" — once."""
    _catalogue()
    key = tuple(deck)
    threshold = _THRESHOLDS.get(key)
    if threshold is None:
        cards = [INDEX[c] for c in deck]
        sample = random.Random(0)
        strengths = sorted(hand_strength(sample.sample(cards, HAND_SIZE)) for _ in range(400))
        threshold = _THRESHOLDS[key] = strengths[int(len(strengths) * MULLIGAN_QUANTILE)]
    return hand_strength([INDEX[c] for c in hand]) < threshold
