"""The app's one link to the core: the store, the table source, the outputs and the session.

Screens never hold a session, a store or a source of their own; they read
``app.controller`` and listen to it::

    controller.bind(session=...)                       # a game was started, resumed or closed
    controller.bind(on_session_events=...)             # something happened in the game
    controller.bind(on_pad_event=...)                  # a tag appeared on / left a pad

Every input enters the game by one road (:class:`companion.inputs.InputRoad`,
built by the composition root, :func:`ui.main.open_road`): the table source hands its pad events to
it, the buttons their presses, the companion's seat its decisions and the
screens their touches (:meth:`AppController.act`, which hands over and goes on:
a refusal comes back as a ``rejected`` event, like a refused scan's), undos and
redos (:meth:`AppController.undo`: handed over too, their words said once applied).  The road applies them in turn on its own thread; this
controller never relays a pad event, it only follows: the session's changes
and the pads' sightings are handed to the Kivy main thread
(:func:`on_main_thread`) before any widget sees them.  The hand-over wakes the
main loop at once rather than at its next frame.

A screen that scans with the pads (Cards, Decks, the Hardware test) sets
``pad_taker``: the road then gives it every pad event instead of the game.
"""
from __future__ import annotations

import threading
from collections import deque

from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.properties import DictProperty, ObjectProperty

from companion.cards import Catalogue, CatalogueError, game_of, load_catalogue
from companion.engine import IllegalAction, redact_event
from companion.inputs import InputRoad, undo_to_a_person
from companion.records import RecordError, replay
from companion.session import Session, Store
from companion.table import GONE, PadEvent, ProfileError
from companion.simulate import free_copy, register_virtual_tags, stale_tags


def on_main_thread(callback) -> None:
    """Run ``callback(dt)`` on the Kivy main thread as soon as it can: with Kivy's free clock
    (``ui.app.configure_kivy``) the main loop stops sleeping for it; with another clock, at the
    next frame."""
    schedule = getattr(Clock, "schedule_once_free", None)
    if schedule is None:
        Clock.schedule_once(callback, -1)
    else:
        schedule(callback, 0)


class AppController(EventDispatcher):
    """Owns the store and the current session; routes pad events and actions."""

    session = ObjectProperty(None, allownone=True)
    #: pad id → the tag UIDs lying on it now (the Hardware screen lights pads from this)
    on_pad = DictProperty()

    __events__ = ("on_session_events", "on_pad_event")

    def __init__(self, config, source, outputs, road: InputRoad, store: Store | None = None, **kwargs):
        super().__init__(**kwargs)
        self.config = config
        self.source = source
        self.outputs = outputs
        self.store = store if store is not None else Store(config.database)
        self.simulated = source.simulated
        #: every input's way into the game (pad events, presses, touches, the companion's seat);
        #: the composition root builds and closes it (ui.main.open_road)
        self.road = road
        self._pad_taker = None
        self._stop_watching = self.road.watch_pads(self._pad_seen)
        self._catalogues: dict[str, Catalogue] = {}
        self._unsubscribe = None
        self.solo = None                #: the companion's seat (companion.solo.seat.SoloSeat), if it plays one
        self._main_thread = threading.main_thread()
        self._changes: deque[list] = deque()          # the session's changes not shown yet
        self._changes_lock = threading.Lock()
        self._started = False

    # ---- the table source --------------------------------------------------
    def start_source(self) -> None:
        """Let the table report: its pad events go straight onto the input road, never through here."""
        if not self._started:
            self._started = True
            self.source.start(self.road.submit)

    def handle_pad_event(self, ev: PadEvent) -> None:
        """``ev`` as if the table had reported it: onto the road (tests, the benchmark)."""
        self.road.submit(ev)

    @property
    def pad_taker(self):
        """A callable ``(PadEvent) -> bool`` of the screen that scans with the pads now, on the main thread."""
        return self._pad_taker

    @pad_taker.setter
    def pad_taker(self, taker) -> None:
        self._pad_taker = taker
        self.road.take_pads(None if taker is None else
                            lambda ev: on_main_thread(lambda _dt: taker(ev)))

    def _pad_seen(self, ev: PadEvent) -> None:
        """The road's watcher (its thread): the screens see the sighting on the main thread."""
        on_main_thread(lambda _dt: self._show_pad(ev))

    def _show_pad(self, ev: PadEvent) -> None:
        if ev.uid:                                      # an ``unread`` notice names no tag
            here = set(self.on_pad.get(ev.pad, ()))
            if ev.kind == GONE:
                here.discard(ev.uid)
            else:
                here.add(ev.uid)
            self.on_pad[ev.pad] = sorted(here)
        self.dispatch("on_pad_event", ev)

    def on_pad_event(self, ev):
        pass

    def pads(self) -> list[str]:
        """Every pad the table has or has reported a tag on, in a stable order."""
        known = list(self.source.pads)
        return known + sorted(p for p in self.on_pad if p not in known)

    def reader_status(self) -> list[dict]:
        try:
            return list(self.source.status())
        except Exception as exc:                        # a broken reader must not take the screen down
            return [{"id": "table", "kind": "?", "ok": False, "detail": f"status unavailable: {exc}"}]

    # ---- catalogues ----------------------------------------------------------
    def catalogue(self, game: str) -> Catalogue:
        """The game's cards (shipped + the player's own); empty if the game has none yet."""
        if game not in self._catalogues:
            try:
                self._catalogues[game] = load_catalogue(game, self.config.data_dir)
            except CatalogueError:
                self._catalogues[game] = Catalogue(game, [])
        return self._catalogues[game]

    def card_text(self, card_id: str) -> str:
        """A card's short face ("7♥") or name, for a zone on screen."""
        card = self.catalogue(game_of(card_id)).get(card_id)
        if card is None:
            return card_id
        return str(card.get("symbol") or card.name)

    def card_name(self, card_id: str) -> str:
        card = self.catalogue(game_of(card_id)).get(card_id)
        return card.name if card is not None else card_id

    # ---- sessions -------------------------------------------------------------
    def start_game(self, game: str, options: dict, seed: int | None = None) -> Session:
        """Start a new game; raises IllegalAction or ProfileError with a sentence for players.
        The core normalises the options and builds the layout from the table profile."""
        session = Session.start(self.store, game, options, seed, profile=self._profile())
        self._open(session)
        return session

    def resume(self, game_id: int) -> Session:
        session = Session.resume(self.store, game_id, profile=self._profile())
        self._open(session)
        return session

    def _profile(self):
        return self.config.profile() if self.config.profile_path else None

    def abandon(self, game_id: int) -> None:
        if self.session is not None and self.session.id == game_id:
            self.close_session()
        self.store.abandon(game_id)

    def close_session(self) -> None:
        self._let_go()
        self.road.attach(None)
        self.session = None

    def _let_go(self) -> None:
        # what the open session holds (its subscription, its solo seat), without a change of
        # ``session``: a new game replaces the open one in one change, so that a rematch's table
        # can stay (ui.root) instead of going with a "no game" in between
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self.solo is not None:
            self.solo.close()
            self.solo = None

    def _open(self, session: Session) -> None:
        self._let_go()
        if self.simulated:
            register_virtual_tags(self.store, session.rules.name)
            self.source.clear()
            self.source.set_pads(list(session.table.layout.pad_to_zone), session.table.layout.modes)
        self._unsubscribe = session.subscribe(self._session_changed)
        self.outputs.attach(session)
        self.road.attach(session)
        self.session = session
        # the companion's own seat thinks on its own thread and acts through the session like a player;
        # its players and their search are imported only for a game that has one (memory: docs/ui.md)
        if session.options.get("solo_seat") is not None:
            from companion.solo.seat import SoloSeat, has_solo_seat
            self.solo = SoloSeat(session, act=self.road.act) if has_solo_seat(session) else None

    def _session_changed(self, session: Session, events: list) -> None:
        """The session's listener (mostly on the input road's thread): shown on the main thread."""
        with self._changes_lock:
            self._changes.append(events)
        if threading.current_thread() is self._main_thread:
            self._show_changes()
        else:
            on_main_thread(lambda _dt: self._show_changes())

    def _show_changes(self) -> None:
        """On the main thread: every change not shown yet, in the order the session made them (undo
        and redo's answers call it first, so their screen has drawn the change before it says it)."""
        while True:
            with self._changes_lock:
                if not self._changes:
                    return
                events = self._changes.popleft()
            self._after_change(events)

    def _after_change(self, events: list) -> None:
        self.dispatch("on_session_events", events)
        self.sim_tidy()

    def sim_tidy(self) -> None:
        """On the simulated table, lift the cards the game took off the table (a scored lane,
        a dead creature), as players would lift the real ones."""
        if not self.simulated or self.session is None:
            return
        for pad, uid in stale_tags(self.session, self.session.table.on_pad):
            self.source.lift(pad, uid)

    def on_session_events(self, events):
        pass

    # ---- actions from touches --------------------------------------------------
    def act(self, action: dict) -> str | None:
        """A touched action, handed to the input road like a pad event: never waits for it.

        The verdict comes back as the session's events (:meth:`on_session_events`, on the
        main thread): the action's own when it was applied, a ``rejected`` event with the
        players' sentence when it was not, which the table screen's banner shows.  Returns a
        sentence only when no game is open (nothing to hand it to)."""
        if self.session is None:
            return "no game is running"
        self.road.touch(action)
        return None

    def act_steps(self, step) -> str | None:
        """A touch that makes a whole step, several actions in turn (``InputRoad.touch_steps``):
        handed to the road like :meth:`act`, never waits."""
        if self.session is None:
            return "no game is running"
        self.road.touch_steps(step)
        return None

    def undo(self, then=None) -> None:
        """Undo the last thing a person did, on the road, never waiting for it (issue 26: the UI
        never blocks on the road).  ``then(text)`` is called on the main thread once the road has
        applied it, after the screen has seen the session's change: ``text`` says what was undone
        in words the shared screen may show ("Undone: …"), or why nothing was (the disk is full);
        it is not called when there was nothing to undo."""
        self._on_road(self._undo_on_road, then)

    def redo(self, then=None) -> None:
        """Redo what was undone last, as :meth:`undo` (``then("Redone: …")``)."""
        self._on_road(self._redo_on_road, then)

    def _on_road(self, work, then) -> None:
        if self.session is None:
            return
        future = self.road.submit(work)
        future.add_done_callback(lambda done: on_main_thread(lambda _dt: self._answer(done, then)))

    def _answer(self, done, then) -> None:
        """On the main thread: the change first (the screen redraws from it), then the words."""
        self._show_changes()
        try:
            text = done.result()
        except IllegalAction as exc:                 # e.g. NotSaved: the disk is full
            text = str(exc)
        if text and then is not None:
            then(text)

    @staticmethod
    def _undo_on_road(session: Session | None) -> str | None:
        if session is None or not session.can_undo():
            return None
        # in a solo game, back past the companion's choices; the last undone event names the person's
        # action in the shared screen's words (companion.session.public_line)
        events = undo_to_a_person(session)
        return events[-1].get("text", "Undone") if events else "Undone"

    @staticmethod
    def _redo_on_road(session: Session | None) -> str | None:
        if session is None or not session.can_redo():
            return None
        session.redo()
        lines = public_history(session)
        return f"Redone: {lines[-1][1]}" if lines else "Redone"

    # ---- the simulated table -------------------------------------------------------
    def sim_place(self, zone: str, card_id: str, secret: bool = False) -> None:
        """Put a copy of ``card_id`` (its first copy not on the table) on the pad of ``zone``;
        ``secret``: a card whose face the table may not see (the companion's), never named."""
        pad = self._pad_of(zone)
        if pad is None:
            return
        uid = free_copy(card_id, {u for uids in self.source.on_pad.values() for u in uids})
        if uid is None:
            face = "that card" if secret else self.card_text(card_id)
            self.dispatch("on_session_events", [{"type": "rejected", "text": f"Every copy of "
                                                  f"{face} already lies on the table"}])
            return
        self.source.place(pad, uid)

    def sim_lift_last(self, zone: str) -> None:
        """Lift the last tag put on ``zone``'s pad (simulated table only)."""
        pad = self._pad_of(zone)
        if pad is None:
            return
        uids = self.source.on_pad.get(pad) or set()
        if not uids:
            return
        order = self._placed_order(pad, uids)
        self.source.lift(pad, order[-1])

    def sim_clear(self) -> None:
        if self.simulated:
            self.source.clear()

    def _placed_order(self, pad: str, uids) -> list[str]:
        # The session's table remembers insertion order per pad; the source keeps a set.
        known = list(self.session.table.on_pad.get(pad, {})) if self.session is not None else []
        return [u for u in known if u in uids] + sorted(u for u in uids if u not in known)

    def _pad_of(self, zone: str) -> str | None:
        if not self.simulated:
            return None
        if self.session is None:
            return zone
        pads = self.session.table.layout.pads_of(zone)
        return pads[0] if pads else None


def public_history(session: Session) -> list[tuple[dict, str]]:
    """Every logged action with what the shared screen may say about it.

    The text is made of the action's events as redacted for the shared screen,
    so a face-down card is never named ("South buffs lane 2 (face down)").
    The log is replayed from the record, which costs a few microseconds per
    action.
    """
    lines: list[tuple[dict, str]] = []

    def step(_n, action, _state, events):
        texts = [redact_event(e, None).get("text", "") for e in events]
        lines.append((action, " · ".join(t for t in texts if t) or action.get("type", "?").replace("_", " ")))

    try:
        replay(session.record(), on_step=step)
    except (RecordError, ValueError):
        pass
    return lines


__all__ = ["AppController", "public_history", "IllegalAction", "ProfileError"]
