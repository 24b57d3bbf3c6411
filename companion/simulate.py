"""The headless simulated table: games played through pad events, with no hardware.

:class:`ScriptedTable` plays actions the way players at a table would: an
action made by putting a card down (``rules.scan_for``) becomes a ``seen``
:class:`PadEvent` on the pad of its zone, carrying the card's virtual tag;
every other action (a choice on the screen, a button) goes to the session as
it is.  After each action the table is tidied like players tidy it: cards the
game no longer places in a zone are lifted (``gone`` events).

``companion simulate`` uses it to play a record or a random legal game and
prints the outcome; the tests use it to drive sessions end to end.
"""
from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from companion import games, paths
from companion.cards import load_catalogue
from companion.engine import IllegalAction, Rng
from companion.outfiles import OutputError, write_text
from companion.records import SEED_RANGE, HiddenCards, RecordError, make_record, read_record, replay, shareable
from companion.session import Session, Store
from companion.table import GONE, SEEN, PadEvent
from companion.tags import VIRTUAL_COPIES, virtual_uid


class SimulationError(RuntimeError):
    """The simulated table could not play what it was asked to (the message says why)."""


def register_virtual_tags(store: Store, game: str) -> None:
    """Give every card of ``game`` its virtual tags (one per copy), as the simulated table does."""
    store.tags.register_many((virtual_uid(card.id, copy), card.id)
                             for card in load_catalogue(game) for copy in range(VIRTUAL_COPIES))


class ScriptedTable:
    """Feeds a session pad events for the actions it is asked to play."""

    def __init__(self, session: Session, clock=time.monotonic):
        self.session = session
        self.clock = clock
        self.on_pad: dict[str, dict[str, str]] = {}      # pad → uid → card id lying there

    def place(self, pad: str, card_id: str) -> list[dict]:
        """Put a copy of ``card_id`` on ``pad``: the first copy not already on the table."""
        uid = free_copy(card_id, {uid for cards in self.on_pad.values() for uid in cards})
        if uid is None:
            raise SimulationError(f"all {VIRTUAL_COPIES} copies of {card_id} already lie on the table")
        self.on_pad.setdefault(pad, {})[uid] = card_id
        return self.session.handle_pad_event(PadEvent(pad, uid, SEEN, self.clock()))

    def lift(self, pad: str, card_id: str) -> list[dict]:
        """Take one copy of ``card_id`` off ``pad`` (nothing happens if none lies there)."""
        cards = self.on_pad.get(pad, {})
        uid = next((u for u, c in cards.items() if c == card_id), None)
        if uid is None:
            return []
        del cards[uid]
        return self.session.handle_pad_event(PadEvent(pad, uid, GONE, self.clock()))

    def play(self, action: dict) -> list[dict]:
        """Play ``action`` through the table when a card makes it, else directly.

        Raises :class:`SimulationError` when the session did not log exactly
        this action (the scan was rejected, or read as another action).
        """
        session = self.session
        scan = session.rules.scan_for(session.state, action)
        before = len(session.actions)
        if scan is None:
            events = session.act(action)
        else:
            zone, card_id = scan
            pads = session.table.layout.pads_of(zone)
            if not pads:
                raise SimulationError(f"no pad for zone {zone} in this layout")
            events = self.place(pads[0], card_id)
            if len(session.actions) != before + 1 or session.actions[-1] != action:
                why = next((e["text"] for e in events if e["type"] in ("rejected", "unknown_tag")), "no action")
                raise SimulationError(f"placing {card_id} on pad {pads[0]} did not play {action}: {why}")
        self.tidy()
        return events

    def tidy(self) -> None:
        """Lift every card the game no longer places where it lies."""
        for pad, uid in stale_tags(self.session, self.on_pad):
            self.lift(pad, self.on_pad[pad][uid])


def free_copy(card_id: str, lying) -> str | None:
    """The virtual tag of the first copy of ``card_id`` whose UID is not in ``lying``."""
    return next((u for u in (virtual_uid(card_id, k) for k in range(VIRTUAL_COPIES)) if u not in lying), None)


def stale_tags(session: Session, on_pad: dict[str, dict[str, str]]) -> list[tuple[str, str]]:
    """(pad, uid) of the tags lying where the game no longer places their card.

    ``on_pad`` is pad → uid → card id.  Tidy players lift those cards (a
    scored lane, a dead creature); the simulated tables do it for them.  Each
    zone is looked at through its owner's view, so face-down cards count.
    """
    rules, state = session.rules, session.state
    views: dict = {}
    stale = []
    for pad, cards in on_pad.items():
        zone = session.table.layout.zone_of(pad)
        if zone is None or not cards:
            continue
        seat = _zone_seat(zone)
        if seat not in views:
            views[seat] = rules.view(state, seat)
        shown = list(views[seat]["zones"].get(zone, {}).get("cards", []))
        for uid, card_id in list(cards.items()):
            if card_id in shown:
                shown.remove(card_id)        # one shown copy accounts for one lying copy
            else:
                stale.append((pad, uid))
    return stale


def _zone_seat(zone: str) -> int | None:
    head = zone.split(".", 1)[0]
    return int(head) if head in ("0", "1") else None


#: Deals the solo player searches a decision (fixed, so a simulated game is the same on every machine).
SOLO_ITERATIONS = 20


def play_random(session: Session, seed: int, max_actions: int = 100_000,
                companion_decides: bool = False) -> list[dict]:
    """Play random legal actions through a scripted table until the game ends.

    In a solo game (a ``solo_seat`` option) the other seat plays random cards it could hold —
    never one lying face down in the companion's holder.  With ``companion_decides`` the
    companion's decisions are its solo player's (:mod:`companion.solo`), as at a table
    (``companion simulate``); without, they are random legal ones (the property tests).
    """
    table = ScriptedTable(session)
    rng = Rng(seed ^ 0x5DEECE66D)
    rules = session.rules
    solo = _solo_player(session, seed) if companion_decides else None
    if solo is not None:
        from companion.solo import seat as solo_seat
    for _ in range(max_actions):
        if rules.is_over(session.state):
            return session.actions
        if solo is not None and solo_seat.needs_decision(session.state):
            action = solo_seat.decide(session.state, solo)
        else:
            action = _random_playable(session, rng)
        table.play(action)
    raise SimulationError(f"the random game did not end within {max_actions} actions")


def _solo_player(session: Session, seed: int):
    # The solo players are imported only for a game with a companion seat: the simulated table
    # (the app's `run --sim`) imports this module, and Sam's player builds ~2.6 MB of tables
    # when imported (companion.games.sams.playout), which a two-player table never uses.
    from companion.solo import seat as solo_seat
    from companion.solo.player import make_player
    if not solo_seat.has_solo_seat(session):
        return None
    return make_player(session.rules.name, session.options["solo_seat"], seconds=None,
                       iterations=SOLO_ITERATIONS, seed=seed)


def _random_playable(session: Session, rng: Rng, tries: int = 1000) -> dict:
    """A random legal action whose card (if a card makes it) the table accepts where it goes: in
    solo play a card in the companion's holder is legal for the engine but not in a person's hand."""
    rules, state = session.rules, session.state
    for _ in range(tries):
        action = rules.random_action(state, rng)
        scan = rules.scan_for(state, action)
        if scan is None:
            return action
        try:
            rules.interpret(state, scan[0], scan[1], True)
        except IllegalAction:
            continue
        return action
    raise SimulationError(f"no random action of {rules.title} could be played from the table in {tries} tries")


def simulate(game: str = "sams", record_path: str | None = None, seed: int = 1, options: dict | None = None,
             data_dir: str | None = None, export_path: str | None = None, include_hidden: bool = False) -> dict:
    """Play a record, or a random legal game, through the simulated table; return the outcome.

    ``export_path`` gets the played game's record (whole or not at all, 0600); a game the record
    leaves unfinished is exported only with ``include_hidden`` (see :func:`records.shareable`).
    """
    if not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
        raise SimulationError(f"the seed {seed} is outside {SEED_RANGE[0]}..{SEED_RANGE[1]} (a 64-bit signed integer)")
    if record_path:
        try:
            record = read_record(record_path)
            replay(record)                       # refuse a bad record before touching a session
        except RecordError as exc:
            text = str(exc)
            raise SimulationError(text if text.startswith(str(record_path)) else f"{record_path}: {text}") from None
        game, options, seed = record["game"], record.get("options") or {}, record["seed"]
    try:
        games.get(game)
    except games.UnknownGame as exc:
        raise SimulationError(str(exc)) from None
    with tempfile.TemporaryDirectory() as scratch:
        # With --data-dir the game is kept with the others (listable, exportable); else it is scratch.
        path = paths.database_path(paths.data_dir(data_dir)) if data_dir else Path(scratch) / "simulate.sqlite3"
        with Store(path) as store:
            register_virtual_tags(store, game)
            session = Session.start(store, game, options, seed)
            if record_path:
                table = ScriptedTable(session)
                for n, action in enumerate(record["actions"], start=1):
                    try:
                        table.play(action)
                    except SimulationError as exc:
                        raise SimulationError(f"action {n}: {exc}") from None
            else:
                play_random(session, seed, companion_decides=True)
            scans = sum(1 for a in session.actions if session.rules.scan_for(session.state, a))
            outcome = {"game_id": session.id, "actions": len(session.actions),
                       "played_by_placing_cards": scans, "summary": session.rules.summary(session.state)}
            if export_path:
                try:
                    write_text(export_path, json.dumps(shareable(session, include_hidden), indent=1,
                                                       ensure_ascii=False) + "\n", "record")
                except (OutputError, HiddenCards) as exc:
                    raise SimulationError(str(exc)) from None
                outcome["exported"] = export_path
    return outcome


__all__ = ["ScriptedTable", "SimulationError", "play_random", "register_virtual_tags", "simulate", "make_record"]
