"""A table's part in a club event: the pairing the hub sends it, who sits where, the players' answers.

The hub publishes each open pairing of the round, retained, to
``club/<table>/pairing`` (names and seats only).  :class:`EventTable` holds the
newest one for the table's start screen — "Round 2 · Table 5: Ana (North) vs
Ben (South)" — and the seating the players confirm: the first player named
sits at seat 0 unless they swap; each player presses their own seat's button
(the physical buttons arrive as presses through ``companion.inputs``, the
simulated table's on-screen ones the same way), and once both seats have
pressed, :meth:`start` begins the game with those names, its rows marked with
the event's reference so the hub knows which match the game decides.

When the game is over each player answers the result with their seat's
button — agree (confirm) or dispute — and the answer goes to the hub as one
more row of the game's outbox, in order after the result itself.  In best of
three the table plays the match's games one after the other
(:meth:`needs_game`); the hub reports the match when it is decided, and the
answers to its last game are the ones that count.  Nothing here
blocks: the paho thread only hands over the pairing, and the answers are rows
in the table's SQLite that the publisher sends when it can.
"""
from __future__ import annotations

import json
import threading
import time

from companion.club.config import NAME
from companion.event.deckcheck import SETTLE_S
from companion.words import counted

MAX_NAME = 60
ANSWER_WITHIN_S = 5.0      # a hub that has not answered a deck check by then: the table says so


def parse_pairing(payload: bytes) -> dict | None:
    """The hub's pairing message, checked (an empty message — cleared — and anything odd: None)."""
    if not payload:
        return None
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    ok = (isinstance(data, dict)
          and all(isinstance(data.get(k), int) and not isinstance(data.get(k), bool) and data[k] > 0
                  for k in ("event", "round", "table"))
          and isinstance(data.get("game"), str) and NAME.match(data["game"]) is not None
          and isinstance(data.get("options"), dict)
          and all(isinstance(data.get(k), list) and len(data[k]) == 2 and
                  all(isinstance(x, str) and 0 < len(x) <= MAX_NAME for x in data[k]) for k in ("players", "ids")))
    return data if ok else None


def pairing_line(pairing: dict, seat_names=("North", "South"), order=(0, 1)) -> str:
    """What the start screen says: "Round 2 · Table 5: Ana (North) vs Ben (South)"."""
    at = [pairing["players"][order[0]], pairing["players"][order[1]]]
    return (f"Round {pairing['round']} · Table {pairing['table']}: "
            f"{at[0]} ({seat_names[0]}) vs {at[1]} ({seat_names[1]})")


class EventTable:
    """The newest pairing, the seats confirmed so far, and starting and answering the event's game."""

    def __init__(self, store, publisher=None):
        self.store = store
        self.outbox = publisher.outbox if publisher is not None else None
        self.listeners: list = []          # f(pairing | None), on whichever thread the change came
        self._lock = threading.Lock()
        self.pairing: dict | None = None
        self.order = [0, 1]                # pairing's player index at seat 0 and seat 1
        self.pressed: set[int] = set()
        self._seats: dict[int, tuple] = {}                     # game id → (match key, player ids by seat)
        self.answered: dict[tuple[int, int], bool] = {}     # (game id, seat) → agreed
        self.matches: dict[tuple, dict[int, str | None]] = {}  # (event, round, table) → game id → winner's id
        self.event_names: dict[int, str] = {}               # game id → its event's name (for "I drop")
        self.dropped: set[tuple[int, str]] = set()          # (event, player id): their own drop is sent
        self.ask = publisher.ask if publisher is not None else (lambda leaf, body: False)
        self.deck_check: DeckCheck | None = None
        if publisher is not None:
            publisher.on_pairing = self.receive
            publisher.on_deck_verdict = self.deck_verdict
            if publisher.last_pairing is not None:     # it came before this table was made (a started publisher)
                self.receive(publisher.last_pairing)

    def receive(self, payload: bytes) -> None:
        """The hub's retained message (paho's thread): a new pairing, or none any more."""
        pairing = parse_pairing(payload)
        with self._lock:
            if pairing == self.pairing:
                return
            self.pairing, self.order, self.pressed = pairing, [0, 1], set()
        for listener in list(self.listeners):
            listener(pairing)

    @staticmethod
    def _key(pairing: dict) -> tuple:
        return pairing["event"], pairing["round"], pairing["table"]

    def needs_game(self) -> bool:
        """Does the pairing still need a game at this table (none yet; best of three: not decided)?"""
        pairing = self.pairing
        if pairing is None:
            return False
        games = list(self.matches.get(self._key(pairing), {}).values())
        if pairing.get("format") != "bo3":
            return not games
        return len(games) < 3 and max(games.count(pid) for pid in pairing["ids"]) < 2

    # ---- seating ---------------------------------------------------------------------------------
    def names(self) -> list[str]:
        """The players' names by seat, as the players have arranged them."""
        return [self.pairing["players"][i] for i in self.order]

    def swap(self) -> None:
        """The players sit the other way round: the seats' names swap and both must press again."""
        with self._lock:
            self.order.reverse()
            self.pressed = set()

    def press(self, seat: int) -> bool:
        """Seat ``seat``'s player confirms the name shown at their seat; True once both have."""
        if seat not in (0, 1) or self.pairing is None:
            return False
        with self._lock:
            self.pressed.add(seat)
            return self.pressed == {0, 1}

    def line(self, seat_names=("North", "South")) -> str:
        return "" if self.pairing is None else pairing_line(self.pairing, seat_names, self.order)

    def start(self, session_start, seed: int | None = None, **kwargs):
        """Begin the pairing's game with the names by seat; ``session_start`` is ``Session.start``.

        The new game's rows all carry the event's reference (event, round, table, player ids by seat)."""
        if self.pairing is None or self.pressed != {0, 1}:
            raise ValueError("both players confirm their seats first")
        p = self.pairing
        options = {**p["options"], "players": self.names()}
        session = session_start(self.store, p["game"], options, seed=seed, **kwargs)
        seats = [p["ids"][i] for i in self.order]
        if self.outbox is not None:
            self.outbox.mark(self.store, session.id, {"event": p["event"], "round": p["round"], "table": p["table"],
                                                      "seats": seats})
        with self._lock:
            self.matches.setdefault(self._key(p), {})[session.id] = None
            self._seats[session.id] = (self._key(p), seats)
            self.event_names[session.id] = event_name(p)
            self.pressed = set()               # the next game of a best of three: both press again
        return session

    # ---- deck checks ------------------------------------------------------------------------------
    def start_deck_check(self, player: int, pad: str | None, lookup, clock=time.monotonic) -> "DeckCheck":
        """A deck check of the pairing's ``player`` (0 or 1) read from ``pad`` (None: any pad)."""
        if self.pairing is None:
            raise ValueError("a deck check needs the event's pairing")
        self.deck_check = DeckCheck(self.pairing, player, pad, lookup, self.ask, clock)
        return self.deck_check

    def deck_verdict(self, payload: bytes) -> None:
        """The hub's answer to a deck check (paho's thread): kept by the check it answers."""
        check = self.deck_check
        if check is not None:
            check.receive(payload)

    # ---- the result ------------------------------------------------------------------------------
    def answer(self, session, seat: int, agree: bool = True, reason: str | None = None) -> bool:
        """A player's answer to the finished game's result; False if it was already given (or too early)."""
        if seat not in (0, 1) or not session.rules.is_over(session.state) or self.outbox is None:
            return False
        key = (session.id, seat)
        with self._lock:
            if key in self.answered:
                return False
            self.answered[key] = agree
            if session.id in self._seats:          # the match's tally, for needs_game
                match, seats = self._seats[session.id]
                winner = session.rules.result(session.state).get("winner")
                self.matches[match][session.id] = seats[winner] if winner in (0, 1) else "draw"
        self.outbox.answer(self.store, session, seat, agree, reason)
        return True

    def drop_question(self, session, seat: int) -> str:
        """What the armed *I drop* button asks: "Drop Ana from Friday Club Night? Tap again to drop"."""
        names = session.options.get("players") or ["North", "South"]
        return f"Drop {names[seat]} from {self.event_names.get(session.id, 'the event')}? Tap again to drop"

    def has_dropped(self, session, seat: int) -> bool:
        if session.id not in self._seats:
            return False
        (event, _, _), seats = self._seats[session.id]
        return (event, seats[seat]) in self.dropped

    def drop(self, session, seat: int) -> bool:
        """The player at ``seat`` drops from the event (their own "I drop", after the event's game):
        sent to the hub like the answers, which logs it as the player's own drop — they are not
        paired again; the organiser's Undo takes it back.  False if not an event's game, or sent."""
        if seat not in (0, 1) or session.id not in self._seats or self.outbox is None:
            return False
        (event, _, _), seats = self._seats[session.id]
        with self._lock:
            if (event, seats[seat]) in self.dropped:
                return False
            self.dropped.add((event, seats[seat]))
        self.outbox.drop(self.store, session, seat)
        return True


def event_name(pairing: dict) -> str:
    """The event's name as the pairing gives it; an odd one (not short text): "the event"."""
    name = pairing.get("event_name")
    return name.strip() if isinstance(name, str) and 0 < len(name.strip()) <= MAX_NAME else "the event"


class DeckCheck:
    """One player's deck check at the table: the cards read, sent to the hub, and the hub's verdict.

    The registered list is on the hub, so the hub judges: every new card sends the scan so far
    (``club/<table>/deckscan``), and the hub answers "passed" as soon as it matches the list.
    When it does not, the table waits :data:`~companion.event.deckcheck.SETTLE_S` with no new card
    (a card may still be coming — the rule of :class:`~companion.event.deckcheck.DeckChecker`) or
    for *Done*, then sends the scan as final and the hub answers with the counts.  No answer within
    :data:`ANSWER_WITHIN_S` of that: :attr:`status` says so, the cards read are kept, and
    :meth:`send_again` asks once more.  :meth:`feed` and :meth:`poll` run on one thread (the UI's);
    :meth:`receive` on paho's — it only stores the answer under the lock."""

    def __init__(self, pairing: dict, player: int, pad: str | None, lookup, ask, clock=time.monotonic):
        self.pairing, self.player, self.pad = pairing, player, pad
        self.name = pairing["players"][player]
        self.lookup, self.ask, self.clock = lookup, ask, clock
        import secrets                  # here, not at the top: every table imports this module at its start (docs/ui.md)
        self.id = f"{pairing['event']}-{pairing['round']}-{secrets.token_hex(6)}"
        self.cards: list[tuple[str, str | None]] = []
        self.last_card: float | None = None
        self.sent_final: float | None = None
        self.answer: dict | None = None
        self._lock = threading.Lock()

    def feed(self, event) -> bool:
        """A pad event; True when it is a card not read before (a tag counts once however often read)."""
        if self.answer is not None or self.sent_final is not None or event.kind != "seen" or not event.uid:
            return False
        if self.pad is not None and event.pad != self.pad:
            return False
        self.last_card = self.clock()
        if any(uid == event.uid for uid, _ in self.cards):
            return False
        self.cards.append((event.uid, event.card_id or self.lookup(event.uid)))
        self._send(final=False)
        return True

    def poll(self) -> None:
        """The clock moved on: the final scan once no card has come for ``SETTLE_S``."""
        if (self.answer is None and self.sent_final is None and self.last_card is not None
                and self.clock() - self.last_card >= SETTLE_S):
            self.finish()

    def finish(self) -> None:
        """*Done*: the deck is through; the hub judges what was read."""
        if self.answer is None and self.sent_final is None and self.cards:
            self.sent_final = self.clock()
            self._send(final=True)

    def send_again(self) -> None:
        if self.answer is None and self.sent_final is not None:
            self.sent_final = self.clock()
            self._send(final=True)

    def _send(self, final: bool) -> None:
        self.ask("deckscan", {"v": 1, "check": self.id, "event": self.pairing["event"],
                              "player": self.pairing["ids"][self.player], "cards": [list(c) for c in self.cards],
                              "final": final})

    def receive(self, payload: bytes) -> None:
        try:
            data = json.loads(payload)
        except (ValueError, RecursionError):
            return
        if not isinstance(data, dict) or data.get("check") != self.id:
            return                                          # another check's answer (an earlier one)
        if "error" in data:
            answer = {"error": str(data["error"])[:200]}
        elif isinstance(data.get("ok"), bool) and all(isinstance(data.get(k), int) and not isinstance(data.get(k), bool)
                                                      for k in ("cards", "missing", "extra", "unregistered")):
            answer = {k: data[k] for k in ("ok", "cards", "missing", "extra", "unregistered")}
        else:
            return
        with self._lock:
            if self.answer is None:
                self.answer = answer

    @property
    def status(self) -> str:
        """What the screen says now, in one sentence."""
        with self._lock:
            answer = self.answer
        if answer is not None:
            if "error" in answer:
                return answer["error"]
            if answer["ok"]:
                return f"{self.name}'s deck: {answer['cards']} cards, as registered"
            parts = [f"{answer[k]} {word}" for k, word in (("missing", "missing"), ("extra", "extra"))
                     if answer[k]]
            if answer["unregistered"]:
                parts.append(counted(answer["unregistered"], "unknown tag"))
            return "See the organiser: " + ", ".join(parts or ["no cards read"])
        if self.sent_final is not None:
            if self.clock() - self.sent_final >= ANSWER_WITHIN_S:
                return (f"The hub did not answer within {ANSWER_WITHIN_S:.0f} s: the {len(self.cards)} cards read "
                        "are kept — press Send again, or see the organiser.")
            return "Asking the hub…"
        if not self.cards:
            return "Waiting for the first card…"
        return f"Next card — the verdict comes {SETTLE_S:g} s after the last one, or press Done"

    @property
    def done(self) -> bool:
        return self.answer is not None


__all__ = ["DeckCheck", "EventTable", "event_name", "parse_pairing", "pairing_line"]
