"""The contract every rules engine follows.

A game is plain data plus pure functions (the boardgame.io / OpenSpiel shape):

    rules = games.get("sams")
    state = rules.setup(options, seed)           # a fresh game
    rules.legal_actions(state)                   # what may happen now
    state, events = rules.apply(state, action)   # a new state; the old one is untouched
    rules.is_over(state), rules.result(state)
    rules.view(state, seat)                      # what one seat (or the shared screen) may see

The rules of the contract:

* **State** is JSON-serialisable plain data: dicts with string keys, lists,
  strings, ints, floats, bools and None.  ``apply`` never mutates the state it
  is given; engines copy only what they change (structural sharing keeps
  applying an action cheap).
* **Randomness** lives in the state: ``state["rng"]`` is the integer state of
  :class:`Rng`.  Same options + same seed + same actions = same game, always.
  No clock, no I/O, no global ``random``.
* **Actions** are dicts with a ``"type"`` and, when a player makes them, a
  ``"seat"`` (0 or 1).  Every other field is game specific and plain data.
  ``apply`` raises :class:`IllegalAction` with a sentence a player understands
  when an action is not allowed; the state is then unchanged.
* **Events** are dicts with a ``"type"`` and a ``"text"`` a screen can show as
  it is ("Lane 3: North attack 7 ≥ South defence 5 — North wins").  An event
  that would reveal something face down carries ``"hidden_from"`` (a list of
  seats) and a ``"redacted"`` twin that is shown to everybody else; see
  :func:`redact_event`.
* **The end.** Every state has a ``"phase"``, and it is ``"over"`` exactly when
  the game is over: that is :meth:`Rules.is_over`, and the dispatch reads it
  on every action.
* **Seats** are 0 and 1.  ``view(state, None)`` is the shared screen: only what
  both players may see.
* **Counters** that players may correct by touch are listed in the view and
  changed with ``{"type": "adjust", "seat": s, "counter": id, "delta": n}``,
  which ``apply`` accepts and logs like any action but ``legal_actions`` does
  not list (it is a correction, not a move).
* **Standard events** that the LEDs and screens understand for every game:
  ``{"type": "battle_result", "winner": seat | None, "outcome": "win" | "tie"
  | "draw", "text": ...}`` when a battle is decided (a Sam's lane, a
  Lifeforce battle, a Vita Luna battle, a Territory land, an Arcmage combat),
  with an optional ``"zones"`` list naming the zones it was fought in (lane
  LEDs); ``{"type": "round_result", "winner": seat | None, "outcome": ...}``
  when a round scores several battles at once (Sam's) — the turn lights flash
  that; ``{"type": "game_over", "winner": seat | None, "text": ...}`` once.
* **The table.** Cards reach the engine through zones (see
  :mod:`companion.table`).  ``interpret`` turns "card X appeared in zone Z" into
  an action, and ``scan_for`` is its inverse, used by the simulated table to
  play any action by putting a card on a pad.
"""
from __future__ import annotations

import random as _random
from dataclasses import dataclass
from typing import Any, Callable, Iterable

State = dict
Action = dict
Event = dict

SEATS = (0, 1)


class IllegalAction(ValueError):
    """An action that the rules do not allow now.  ``str(error)`` is for players.

    A refusal that names a card the table may not see (a card put where it
    would lie face down) also gives ``redacted``, the sentence everybody in
    ``hidden_from`` sees instead; :func:`rejected_event` turns it into a
    hidden event like any other face-down event.
    """

    def __init__(self, message: str = "", *, redacted: str | None = None,
                 hidden_from: Iterable[int] = ()):
        super().__init__(message)
        self.redacted = redacted
        self.hidden_from = list(hidden_from)


class EngineError(RuntimeError):
    """A bug or a corrupt state: never the players' fault."""


@dataclass(frozen=True)
class Zone:
    """A place on the table that a game knows about.

    ``id`` is what layouts map pads to ("0.lane3", "1.support", "deck_check").
    ``seat`` is the owner, or None for shared zones.  ``stack`` says whether
    several cards may lie there at once (a Sam's lane, a support row).
    """

    id: str
    label: str
    seat: int | None = None
    stack: bool = False

    def as_dict(self) -> dict:
        return {"id": self.id, "label": self.label, "seat": self.seat, "stack": self.stack}


@dataclass(frozen=True)
class Option:
    """A setup option shown on the setup screen (variants from the rulings)."""

    id: str
    label: str
    default: Any
    choices: tuple = ()          # empty: a bool or a free int
    help: str = ""

    def as_dict(self) -> dict:
        return {"id": self.id, "label": self.label, "default": self.default,
                "choices": list(self.choices), "help": self.help}


class Rng:
    """A small, fast, seedable generator whose whole state is one int.

    Engines keep that int in ``state["rng"]``::

        rng = Rng(state["rng"])
        order = rng.shuffled(cards)
        state["rng"] = rng.state

    Draws come from a 64-bit linear congruential generator (fast enough for
    benchmarks of thousands of games a second); shuffles use
    :class:`random.Random` seeded from it.  The state stays a single JSON number.
    """

    __slots__ = ("state",)

    # Every step is written out with the mask as a literal (0xFFFFFFFFFFFFFFFF, 2**64 - 1): a
    # constant costs nothing to load, and the random players draw once per action.

    def __init__(self, state: int):
        self.state = int(state) & 0xFFFFFFFFFFFFFFFF

    def _next(self) -> int:
        # A 64-bit linear congruential step (Knuth's MMIX constants); the high
        # bits are returned because an LCG's low bits are weak.
        self.state = state = (self.state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return state >> 16

    def draw(self) -> int:
        """The next raw number, 0 ≤ r < 2**48: ``randrange(n)`` for any n ≥ 2**48, without the
        modulo (for a caller that splits one draw into several choices)."""
        self.state = state = (self.state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return state >> 16

    def randrange(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randrange needs n > 0")
        self.state = state = (self.state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return (state >> 16) % n

    def choice(self, items):
        return items[self.randrange(len(items))]

    def shuffled(self, items: Iterable) -> list:
        out = list(items)
        _random.Random(self._next()).shuffle(out)
        return out

    def random(self) -> float:
        return self._next() / (1 << 48)


def redact_event(event: Event, seat: int | None) -> Event:
    """The version of ``event`` that ``seat`` (None: the shared screen) may see."""
    hidden = event.get("hidden_from")
    if hidden is None:
        return event
    if seat is not None and seat not in hidden:
        return {k: v for k, v in event.items() if k not in ("hidden_from", "redacted")}
    return event["redacted"]


class Rules:
    """Base class for a game's rules.  Subclasses are stateless singletons.

    Override the methods marked "required"; the rest have sensible defaults.
    Keep each game in its package ``companion/games/<name>/`` with
    ``RULES = MyRules()`` exported by its ``__init__.py``: the registry in
    :mod:`companion.games` finds it there.
    """

    name: str = ""            # registry key, e.g. "sams"
    title: str = ""           # shown to players, e.g. "Sam's Battle Game"
    rules_file: str = ""      # the authors' text in shared/rules
    options: tuple[Option, ...] = ()
    bench_unit: str = "games"  # what `companion bench engines` counts per second
    #: The game's moves: action kind → ``handler(rules, state, action) -> (new state, events)``
    #: (boardgame.io's ``moves``).  :meth:`apply` is the one dispatch every game goes through.
    MOVES: dict[str, Callable] = {}
    #: Kinds that need no seat (a deal, a reveal, a card shown on a check pad).
    UNSEATED: frozenset[str] = frozenset()

    def __init__(self) -> None:
        # Read on every action of every game, so kept on the singleton itself: CPython 3.11
        # specialises loading an instance's own attribute, not a class attribute read through it.
        # A game's MOVES is complete when its RULES is made (the end of its rules module).
        self._moves = self.MOVES
        self._unseated = self.UNSEATED
        self._wraps = type(self).dispatch is not Rules.dispatch

    # ---- required -------------------------------------------------------
    def setup(self, options: dict, seed: int) -> State:
        raise NotImplementedError

    def legal_actions(self, state: State) -> list[Action]:
        raise NotImplementedError

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        """The one dispatch: the checks every game shares, then the game's handler for the kind.

        Refused, in this order: an action that is not a dict or whose ``type`` is not one of
        :attr:`MOVES`; any action but ``adjust`` once the game is over; an action without a seat
        (0 or 1) unless its kind is in :attr:`UNSEATED`.  ``adjust`` after the end reaches the
        game's correction rules like any correction (docs/rulings/engine.md): it is logged, and
        the game decides what the corrected count means (Sam's reopens a game a VP count ended).
        Never mutates ``state``.
        """
        # Run on every action of every game (a random Lifeforce game is ~330), so each check is one
        # test on the common path, with no call but the handler's (and the game's dispatch, if it
        # has one); the refusals' sentences are built only when one is made.
        try:
            kind = action["type"]
            handler = self._moves[kind]
        except (KeyError, TypeError, IndexError):   # not a dict, no kind, an unknown one, an unhashable one
            kind = action.get("type") if isinstance(action, dict) else None
            raise IllegalAction(f"{self.title} has no action {kind!r}") from None
        if state["phase"] == "over" and kind != "adjust":     # is_over, inlined
            raise IllegalAction("the game is over")
        if "seat" not in action or action["seat"] not in (0, 1):
            if kind not in self._unseated:
                raise IllegalAction(f"{kind} needs the seat (0 or 1) of the player making it, "
                                    f"not {action.get('seat')!r}")
        if self._wraps:
            return self.dispatch(state, action, handler)
        return handler(self, state, action)

    def dispatch(self, state: State, action: Action, handler: Callable) -> tuple[State, list[Event]]:
        """Hand a checked action to its handler; a game overrides this only for what wraps every
        move of its own (Arcmage's edit log).
        A game that does not override it has its handlers called straight from :meth:`apply`."""
        return handler(self, state, action)

    def is_over(self, state: State) -> bool:
        """Whether the game has ended: its phase is ``"over"`` (the contract, for every game).
        :meth:`apply` reads the phase itself, so a game does not override this."""
        return state["phase"] == "over"

    def result(self, state: State) -> dict:
        """Who won and why: ``{"winner": seat | None, "reason": str, ...}``."""
        raise NotImplementedError

    def view(self, state: State, seat: int | None) -> dict:
        """What ``seat`` may see; ``None`` is the shared screen.

        Every view has at least these keys, which the screen and the LEDs use
        without knowing the game:

        ``game``, ``active_seat`` (int or None), ``phase`` (machine name),
        ``phase_label`` (a sentence), ``awaiting`` ("scan", "choice",
        "confirm" or None), ``counters`` (list of ``{"id", "seat", "label",
        "value", "adjustable"}``), ``zones`` (``{zone_id: {"cards": [card id
        or {"hidden": True}], "summary": str}}``), ``over``, ``result``
        (None until over), ``players`` (names).
        """
        raise NotImplementedError

    def zones(self, options: dict) -> list[Zone]:
        """Every zone a table layout for this game may map a pad to."""
        raise NotImplementedError

    def interpret(self, state: State, zone: str, card_id: str, present: bool) -> Action | None:
        """The action meant by a card appearing (present=True) or leaving a zone.

        Return None when the change means nothing to the game (a card lifted
        after it was scored).  Raise :class:`IllegalAction` with a sentence
        that says why and where the card belongs when it cannot be right.
        """
        raise NotImplementedError

    # ---- defaults ---------------------------------------------------------
    def default_options(self) -> dict:
        return {o.id: o.default for o in self.options}

    def normalise_options(self, options: dict | None) -> dict:
        """Defaults filled in, unknown keys refused."""
        merged = self.default_options()
        for key, value in (options or {}).items():
            if key not in merged and key != "players":
                raise IllegalAction(f"{self.title} has no option {key!r}")
            merged[key] = value
        merged.setdefault("players", ["North", "South"])
        return merged

    def scan_for(self, state: State, action: Action) -> tuple[str, str] | None:
        """``(zone, card_id)`` whose placement makes ``action``, or None."""
        return None

    def confirm_action(self, state: State, seat: int) -> Action | None:
        """What ``seat``'s physical confirm button means now ("done", "resolve",
        "next"), or None when it means nothing.  A long press is undo, handled
        by the session, not here."""
        return None

    def follow_up(self, state: State, action: Action) -> Action | None:
        """The action that follows a person's ``action`` at once, now that it led to ``state``, or
        None: the one thing left to do (Lifeforce's duel to resolve after the counter's Done), or
        what a player's standing choice makes (Vita Luna's *attack every turn*).  The input road
        applies it after a person's input (a touch, a confirm button, a card on a pad), each as
        its own action in the log, so one undo takes back one; undo and redo are never followed
        (the players went back to choose again).  It must be legal in ``state``."""
        return None

    def random_action(self, state: State, rng: Rng) -> Action:
        """A uniformly random legal action; engines may sample faster."""
        actions = self.legal_actions(state)
        if not actions:
            raise EngineError(f"{self.name}: no legal action in a game that is not over")
        return rng.choice(actions)

    def bench_playout(self, seed: int, on_apply=None) -> int:
        """Play random legal actions for the benchmark; return how many
        ``bench_unit`` were completed.  Default: one whole game."""
        self.playout(None, seed, on_apply=on_apply)
        return 1

    def summary(self, state: State) -> dict:
        """The final-state summary `companion replay` prints."""
        return {"game": self.name, "over": self.is_over(state), "result": self.result(state) if self.is_over(state) else None}

    def playout(self, options: dict | None, seed: int, max_actions: int = 100_000,
                on_apply: Callable[[State, Action, State, list], None] | None = None) -> State:
        """A random legal game from setup to its end (for tests, simulate and bench)."""
        state = self.setup(self.normalise_options(options), seed)
        rng = Rng(seed ^ 0x5DEECE66D)
        random_action, apply = self.random_action, self.apply   # looked up once
        for _ in range(max_actions):
            if state["phase"] == "over":                        # is_over, inlined as in apply
                return state
            action = random_action(state, rng)
            new_state, events = apply(state, action)
            if on_apply is not None:
                on_apply(state, action, new_state, events)
            state = new_state
        raise EngineError(f"{self.name}: random game did not end within {max_actions} actions")


def counter(id: str, seat: int | None, label: str, value: int, adjustable: bool = True) -> dict:
    """One entry of a view's ``counters`` list."""
    return {"id": id, "seat": seat, "label": label, "value": value, "adjustable": adjustable}


def event(type: str, text: str, **data) -> Event:
    """An event dict; ``data`` must be plain JSON-serialisable values."""
    data["type"] = type
    data["text"] = text
    return data


def rejected_event(error: IllegalAction, **data) -> Event:
    """The ``rejected`` event for a refused scan (``data``: pad, zone, card).

    When the refusal would name a face-down card, the full event (card and
    all) is for the seats not in ``error.hidden_from`` only; the redacted twin
    keeps just the pad and the zone.
    """
    if getattr(error, "redacted", None) is None:
        return event("rejected", str(error), **data)
    public = {"type": "rejected", "text": error.redacted,
              **{k: data[k] for k in ("pad", "zone", "seat") if k in data}}
    return {**data, "type": "rejected", "text": str(error), "hidden_from": list(error.hidden_from),
            "redacted": public}


def hidden_event(type: str, text: str, redacted_text: str, hidden_from: list[int], **data) -> Event:
    """An event whose full text only the seats not in ``hidden_from`` may see.

    ``data`` stays in the full version only; the redacted twin keeps the type,
    the seat and the zone so a screen can still say "South buffs lane 2".
    """
    public = {"type": type, "text": redacted_text}
    if "seat" in data:
        public["seat"] = data["seat"]
    if "zone" in data:
        public["zone"] = data["zone"]
    data["type"] = type
    data["text"] = text
    data["hidden_from"] = list(hidden_from)
    data["redacted"] = public
    return data
