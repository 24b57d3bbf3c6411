"""The companion at the table: it plays its seat of a solo game on its own thread.

:class:`SoloSeat` watches a :class:`companion.session.Session` whose game has a
``solo_seat`` (Sam's Battle Game or Lifeforce Battle).  When that seat has a
decision to make and every card drawn for it has been tapped onto its hand
pad, it thinks (on a thread of its own, so neither the screen nor the readers
ever wait for it) and logs its decision as a ``solo_decide`` action: the
screen then says "South plays the card in slot 3 face down on lane 2" (Sam's)
or "South attacks: slot 2 on South's attacker pad, slots 1 and 4 on South's
support pad" (Lifeforce), and the pad events
of those cards are the play.  A swap of a Sam's hand is made directly.  A
decision the game has moved past (an undo while it thought) is refused by the
engine and made again.
"""
from __future__ import annotations

import threading
import time
from typing import Callable

from companion.engine import IllegalAction
from companion.games import sams
from companion.solo.player import GAMES, STRENGTHS, SamsPlayer, make_player


def has_solo_seat(session) -> bool:
    """The session's game is played against the companion (a game of :data:`GAMES` with a ``solo_seat``)."""
    return session.rules.name in GAMES and session.options.get("solo_seat") is not None


def needs_decision(state: dict) -> bool:
    """The solo seat has a decision to make, its hand is complete and it has not decided yet."""
    if state.get("game") == "lifeforce":
        from companion.games.lifeforce import solo as lifeforce_solo    # only a Lifeforce game loads it
        return lifeforce_solo.moment(state) is not None
    solo = state.get("solo")
    return (solo is not None and state["phase"] == "play" and sams.RULES.to_play(state) == solo["seat"]
            and solo["decision"] is None and not sams.solo_legal_actions(state)[0]["type"] == "solo_hand")


def decide(state: dict, player) -> dict:
    """The action that records the player's choice: ``solo_decide``, or (Sam's) a swap."""
    if state.get("game") == "lifeforce":
        return player.decide(state)
    return _decide_sams(state, player)


def _decide_sams(state: dict, player: SamsPlayer) -> dict:
    action = player.choose(state)
    if action["type"] != "play":
        return action
    slot = state["solo"]["slots"].index(action["card"])
    return {"type": "solo_decide", "seat": action["seat"], "slot": slot, "lane": action["lane"],
            "at": sams.decision_point(state)}


class SoloSeat:
    """The solo seat of one session.  ``seconds``/``iterations`` override the game's strength
    (tests use ``iterations`` so that a decision does not depend on the machine's speed)."""

    def __init__(self, session, seconds: float | None = None, iterations: int | None = None,
                 act: Callable[[dict], object] | None = None):
        options = session.options
        if not has_solo_seat(session):
            raise ValueError("this game has no solo seat")
        if seconds is None and iterations is None:
            seconds = STRENGTHS[options.get("solo_strength", "normal")]
        self.session = session
        #: where its decision goes: the table's input road (companion.inputs) in the app, the
        #: session itself where nothing else plays (tests, benchmarks)
        self._act = act if act is not None else session.act
        self.player = make_player(session.rules.name, options["solo_seat"], seconds=seconds, iterations=iterations,
                                  seed=session.seed)
        self.errors: list[str] = []
        self._thinking: threading.Thread | None = None
        self._guard = threading.Lock()
        self._closed = False
        self._unsubscribe = session.subscribe(lambda _session, _events: self.poke())
        self.poke()

    def poke(self) -> None:
        """Start thinking if it is the solo seat's move and nobody is thinking yet."""
        with self._guard:
            self._start_locked()

    def _start_locked(self) -> None:
        if self._closed or (self._thinking is not None and self._thinking.is_alive()):
            return
        state = self.session.state
        if not needs_decision(state):
            return
        self._thinking = threading.Thread(target=self._think, args=(state,), name="solo-seat", daemon=True)
        self._thinking.start()

    def _think(self, state: dict) -> None:
        action = decide(state, self.player)
        try:
            with self._guard:
                if self._closed:
                    return
            self._act(action)
        except IllegalAction as exc:
            # the game moved on while it thought (think again about the new moment), or the decision
            # could not be saved (a full disk: the next change of the game tries again)
            self.errors.append(str(exc))
        finally:
            # hand over to the next thinking (if the game moved on) in one step, so that wait()
            # never sees a gap between two
            with self._guard:
                self._thinking = None
                self._start_locked()

    def wait(self, timeout: float = 30.0) -> None:
        """Until the companion has nothing more to think about now (tests)."""
        deadline = time.monotonic() + timeout
        while True:
            with self._guard:
                thread = self._thinking
            if thread is None or time.monotonic() >= deadline:
                return
            thread.join(max(0.0, deadline - time.monotonic()))

    def close(self) -> None:
        """Stop following the game; a thought in progress is finished, never logged (at most a
        strength's think time: the game's store may close right after)."""
        with self._guard:
            if self._closed:
                return
            self._closed = True
            thread = self._thinking
        self._unsubscribe()
        if thread is not None and thread is not threading.current_thread():
            thread.join(5.0)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
