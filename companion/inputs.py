"""The one road every input takes into the game: pad events, button presses, touches, the companion.

A reader's thread, a button's thread, the screen's touches and the companion's
own seat (solo play) each hand what happened to :class:`InputRoad`; one worker
thread applies everything in the order it was handed over, through the session
open now.  Nothing that reports an input ever applies it itself, so the screen
never does game work for a card on a pad, and a press and a scan that come at
the same moment are applied one after the other in a known order::

    road = InputRoad()
    source.start(road.submit)          # pad events: hand over and go on (never waits)
    road.attach(session)               # the game the road feeds (None: no game open)
    road.confirm(seat)                 # a button press: waits for its own result (a button's thread)
                                       # (a person's touch, press or card is followed by what the rules
                                       # make follow it: Rules.follow_up, each its own action)
    road.touch(action)                 # a touch: hand over and go on; its verdict reaches the listeners
    road.touch_steps(step)             # one touch that makes several actions, each its own (a whole step)
    road.act(action)                   # the companion's decision: waits, raises IllegalAction (its own thread)
    road.join()                        # until everything handed over has been applied (tests)

What happens is not returned to whoever listens: the session tells its
listeners (the screen, the lights, the companion's seat) after every change,
from the road's thread.  A touch's verdict travels the same way: the action's
events when it is applied, a ``rejected`` event with the players' sentence
(redacted for the shared screen like a refused scan's) when it is not, so the
screen never waits for the road.

Pad events are also shown to :meth:`watch_pads` watchers (the screen lights a
pad that has a tag on it) before they go on.  A screen that scans with the pads
(enrolling a tag on the Cards screen, building a deck) takes them with
:meth:`take_pads`: while it does, no pad event reaches the game.
"""
from __future__ import annotations

import logging
import queue
import threading
from concurrent.futures import Future
from typing import Callable

from companion.engine import IllegalAction, event, rejected_event
from companion.table import PadEvent

log = logging.getLogger(__name__)

PadWatcher = Callable[[PadEvent], None]


class InputRoad:
    """One queue and one worker thread between every input and the session (see the module)."""

    def __init__(self, session=None):
        self._session = session
        self._taker: PadWatcher | None = None
        self._press_taker: Callable[[int], None] | None = None
        self._watchers: list[PadWatcher] = []
        self._queue: queue.Queue = queue.Queue()
        self._idle = threading.Condition()
        self._pending = 0
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="input-road", daemon=True)
        self._thread.start()

    # ---- wiring --------------------------------------------------------------
    @property
    def session(self):
        return self._session

    @property
    def options(self) -> dict:
        """The open game's options (a button names its player from them); {} with no game open."""
        session = self._session
        return session.options if session is not None else {}

    def attach(self, session) -> None:
        """Feed ``session`` from now on (None: no game is open; pad events then only go to watchers)."""
        self._session = session

    def take_pads(self, taker: PadWatcher | None) -> None:
        """Give every pad event to ``taker`` instead of the game until ``take_pads(None)``."""
        self._taker = taker

    def take_presses(self, taker: Callable[[int], None] | None) -> None:
        """Give every confirm press (its seat) to ``taker`` instead of the game until ``take_presses(None)``
        (a club event's pairing screen: each player presses to confirm their seat)."""
        self._press_taker = taker

    def watch_pads(self, watcher: PadWatcher) -> Callable[[], None]:
        """Show every pad event to ``watcher`` (on the road's thread); returns a stop."""
        self._watchers.append(watcher)
        return lambda: self._watchers.remove(watcher)

    @property
    def thread(self) -> threading.Thread:
        """The worker: every change an input makes happens on it."""
        return self._thread

    # ---- handing over -----------------------------------------------------------
    def submit(self, item) -> Future:
        """Hand over a :class:`PadEvent` or a callable ``(session) -> events``; never waits.

        The returned future holds the callable's result or its :class:`IllegalAction`."""
        return self._enqueue(item)

    def _enqueue(self, item) -> Future:
        future: Future = Future()
        with self._idle:
            if self._closed:
                future.set_exception(IllegalAction("the table is closing"))
                return future
            self._pending += 1
        self._queue.put((item, future))
        return future

    def call(self, work: Callable, timeout: float | None = None):
        """Run ``work(session)`` on the road, in turn, and wait for its result (or its exception).

        For inputs whose sender wants the answer: a touch shows the players' sentence
        for a refused move, a button reports it.  Called on the road's own thread
        (a listener acting on a change), it runs at once instead of waiting for itself."""
        if threading.current_thread() is self._thread:
            return work(self._session)
        return self._enqueue(work).result(timeout)

    def touch(self, action: dict) -> Future:
        """A touched action, handed over like a pad event: never waits.  Its verdict goes to the
        session's listeners (see the module).  It is for the game open when it was made: if that
        game was closed or replaced by the time the road comes to it, nothing happens."""
        meant = self._session
        return self._enqueue(lambda session: _followed(session if session is meant else None, action))

    def touch_steps(self, step: Callable[[dict], dict | None], limit: int = 64) -> Future:
        """A whole step made by one touch (Vita Luna's two rewards taken at once): ``step(state)``
        names the next action, applied in turn on the road as its own touch (each is its own action
        in the log, one undo each, followed as a touch is), until it names none, one is refused (its
        ``rejected`` event, as a touch's) or ``limit`` ran out.
        ``step`` runs on the road's thread and must only read the state it is given."""
        meant = self._session

        def run(session) -> list:
            events: list = []
            for _ in range(limit):
                if session is not meant or session is None:
                    break
                action = step(session.state)
                if action is None:
                    break
                done = _followed(session, action)
                events += done
                if any(ev.get("type") == "rejected" for ev in done):
                    break
            return events
        return self._enqueue(run)

    def act(self, action: dict) -> list:
        """A decided action (the companion's seat, on its own thread): waits; raises
        :class:`IllegalAction` (no game: "no game is running")."""
        return self.call(lambda s: _need(s).act(action))

    def confirm(self, seat: int) -> list:
        """A player's confirm button (``Session.confirm``, or the press taker's: :meth:`take_presses`)."""
        def press(session):
            taker = self._press_taker
            if taker is not None:
                taker(seat)
                return [{"type": "seat_pressed", "seat": seat}]
            session = _need(session)
            logged = len(session.actions)
            return _follow(session, session.confirm(seat), logged)
        return self.call(press)

    def undo(self) -> list:
        """A long press: the last thing a person did, undone (:func:`undo_to_a_person`)."""
        return self.call(lambda s: undo_to_a_person(_need(s)))

    def redo(self) -> list:
        return self.call(lambda s: _need(s).redo())

    def join(self, timeout: float = 10.0) -> bool:
        """Until everything handed over so far has been applied; False if ``timeout`` ran out."""
        if threading.current_thread() is self._thread:
            return self._queue.empty()
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def close(self, timeout: float = 5.0) -> None:
        """Apply what was handed over, then stop; later inputs are refused."""
        with self._idle:
            if self._closed:
                return
            self._closed = True
        self._queue.put(None)
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- the worker -------------------------------------------------------------
    def _run(self) -> None:
        while True:
            entry = self._queue.get()
            if entry is None:
                return
            item, future = entry
            try:
                if isinstance(item, PadEvent):
                    future.set_result(self._pad_event(item))
                else:
                    future.set_result(item(self._session))
            except BaseException as exc:   # the sender's to see (a touch's banner); the road goes on
                if not isinstance(exc, IllegalAction):
                    log.exception("an input failed")
                future.set_exception(exc)
            finally:
                with self._idle:
                    self._pending -= 1
                    if self._pending == 0:
                        self._idle.notify_all()

    def _pad_event(self, ev: PadEvent) -> list:
        for watcher in list(self._watchers):
            try:
                watcher(ev)
            except Exception:                  # a screen that cannot show it must not lose the card
                log.exception("a pad watcher failed")
        taker, session = self._taker, self._session
        if taker is not None:
            taker(ev)
            return []
        if session is None:
            return []
        try:
            logged = len(session.actions)
            return _follow(session, session.handle_pad_event(ev), logged)
        except Exception as exc:               # never raises for bad input; a fault still gets its sentence
            log.exception("a pad event could not be applied")
            session.report([{"type": "rejected", "pad": ev.pad,
                             "text": f"The card on pad {ev.pad} could not be read into the game: {exc}"}])
            return []


def undo_to_a_person(session) -> list:
    """Undo the last thing a person did.  In a solo game that goes back past the companion's own
    choices (a slot and lane, a swap): its seat would make them again at once, so an undo that took
    back only those could never get past them.  Raises :class:`IllegalAction` with nothing to undo."""
    solo = session.options.get("solo_seat")
    events: list = []
    while solo is not None and session.can_undo() and _companions(session.actions[-1], solo):
        events += session.undo()
    if session.can_undo() or not events:
        events += session.undo()
    return events


def _companions(action: dict, solo_seat: int) -> bool:
    """An action the companion's seat makes by itself (not a card a person laid for it)."""
    return action.get("seat") == solo_seat and action.get("type") in ("solo_decide", "redraw")


#: the most follow-ups one input makes (Vita Luna's battle fought by both players' standing choice
#: takes a few dozen attacks at most); a bound, so that a game's follow_up can never spin the road
FOLLOW_UPS = 500


def _followed(session, action: dict) -> list:
    """A person's touch applied on the road, then what the rules make follow it."""
    if session is None:
        return []
    logged = len(session.actions)
    return _follow(session, _touched(session, action), logged)


def _follow(session, events: list, logged: int) -> list:
    """After a person's input logged an action (the log is longer than ``logged``): each action
    ``Rules.follow_up`` names, applied in turn as its own action in the log (one undo each), until
    it names none or one is refused (its ``rejected`` event, as a touch's)."""
    actions = session.actions
    if len(actions) <= logged:
        return events
    last = actions[-1]
    for _ in range(FOLLOW_UPS):
        action = session.rules.follow_up(session.state, last)
        if action is None:
            break
        done = _touched(session, action)
        events = events + done
        if any(ev.get("type") == "rejected" for ev in done):
            break
        last = action
    return events


def _touched(session, action: dict) -> list:
    """A touch applied on the road; a refusal becomes a ``rejected`` event for the listeners."""
    if session is None:
        return []
    try:
        return session.act(action)
    except IllegalAction as exc:
        return session.report([rejected_event(exc, **_seat_of(action))])
    except Exception as exc:                   # a fault still gets its sentence; the road goes on
        log.exception("a touch could not be applied")
        return session.report([event("rejected", f"That could not be done: {exc}", **_seat_of(action))])


def _seat_of(action: dict) -> dict:
    seat = action.get("seat")
    return {"seat": seat} if seat in (0, 1) else {}


def _need(session):
    if session is None:
        raise IllegalAction("no game is running")
    return session
