"""The companion's own seat: a player that thinks with what its seat may know.

:class:`SamsPlayer` is the solo opponent for Sam's Battle Game.  It knows its
hand (the cards tapped face down onto its hand pad, kept in the game state's
``solo`` part), the cards it threw away itself, and the shared screen's view
of the table; from these alone it builds an information set
(:class:`companion.games.sams.playout.InfoSet`) and searches it
(:func:`companion.solo.search.search`).  It never reads a hidden part of the
state, so its choice cannot depend on a card its seat has not seen.

Strength is think time: :data:`STRENGTHS` maps the setup screen's choices to
seconds per move.
"""
from __future__ import annotations

import random

from companion.games.sams import rules as engine
from companion.games.sams import playout as model
from companion.solo.search import search

STRENGTHS = {"easy": 0.02, "normal": 0.15, "strong": 0.45}
GAMES = ("sams", "lifeforce")


def make_player(game: str, seat: int, seconds: float | None = 0.15, iterations: int | None = None, seed: int = 0):
    """The solo player of ``game``: :class:`SamsPlayer`, or
    :class:`companion.games.lifeforce.solo.LifeforcePlayer` for Lifeforce Battle."""
    if game == "lifeforce":
        from companion.games.lifeforce.solo import LifeforcePlayer
        return LifeforcePlayer(seat, seconds=seconds, iterations=iterations, seed=seed)
    if game == "sams":
        return SamsPlayer(seat, seconds=seconds, iterations=iterations, seed=seed)
    raise ValueError(f"the companion plays {' and '.join(GAMES)} only, not {game!r}")


class SamsPlayer:
    """A seat of Sam's Battle Game played by search.

    ``seconds`` bounds the thinking per move; ``iterations`` (for tests and
    benchmarks that must not depend on the machine's speed) bounds it by deals
    instead.  ``seed`` makes its choices repeatable.  Outside a solo game (the
    benchmark) the caller sets :attr:`hand` and reports every action to
    :meth:`observe`; in a solo game both come from the state.
    """

    def __init__(self, seat: int, seconds: float | None = 0.15, iterations: int | None = None, seed: int = 0):
        self.seat = seat
        self.seconds = seconds
        self.iterations = iterations
        self.rng = random.Random(seed)
        self.hand: list[str] = []
        self.known_discards: set[str] = set()
        self.known_aside: set[str] = set()

    def choose(self, state: dict) -> dict:
        """The engine action this seat plays now: a card of its hand onto a lane, or a swap."""
        if engine.RULES.to_play(state) != self.seat:
            raise ValueError("it is not this seat's turn")
        solo = state.get("solo")
        if solo is not None and solo["seat"] == self.seat:
            hand = engine.solo_hand(state)
            known = frozenset(engine.cards_in(solo["known_discards"]))
            aside = frozenset(engine.cards_in(solo["known_aside"]))
        else:
            hand, known, aside = self.hand, frozenset(self.known_discards), frozenset(self.known_aside)
        info = model.InfoSet(state, self.seat, hand, known, aside)
        vp_before = list(state["vp"])
        seat = self.seat
        move = search(info.sample, seat, lambda g: model.round_value(g, seat, vp_before), self.rng,
                      iterations=self.iterations, seconds=self.seconds)
        return model.to_action(seat, move)

    def observe(self, action: dict, events: list) -> None:
        """Follow the game when not in a solo game: cards leaving the hand, hands thrown away, reshuffles."""
        kind = action.get("type")
        if kind == "play" and action.get("seat") == self.seat and action["card"] in self.hand:
            self.hand.remove(action["card"])
        elif kind == "next_round":
            self.known_discards.update(self.hand)
            self.hand = []
        elif kind == "redraw" and action.get("seat") == self.seat:
            self.known_aside.update(self.hand)
            self.hand = []
        for e in events:
            if e.get("type") == "reshuffle":       # the separate pile became the discard pile, or the draw pile
                self.known_discards = set(self.known_aside) if e.get("set_aside") else set()
                self.known_aside = set()
