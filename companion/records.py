"""Game records: a whole game as one JSON document that replays to the same result.

The format is documented in docs/record-format.md.  In short::

    {
      "format": "tabletop-companion-record",
      "version": 1,
      "game": "sams",
      "options": {...},          # every setup option, defaults filled in
      "seed": 1234,
      "actions": [{...}, ...],   # in order, exactly as the session logged them
      "summary": {...}           # informative: what the exporter saw at the end
    }

Replaying ignores ``summary``; it rebuilds everything from options, seed and
actions, so a record is checked, never trusted.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from companion import games, validate
from companion.engine import EngineError, IllegalAction, Rules, State

FORMAT = "tabletop-companion-record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be replayed; the message names the first bad entry."""


class HiddenCards(ValueError):
    """A record that would show what a player at the table may not see yet (one sentence)."""


def shareable(session, include_hidden: bool = False) -> dict:
    """``session``'s record, for a file that leaves the game: refused (:class:`HiddenCards`) while the
    game is still being played, unless ``include_hidden`` says the person asked for everything.

    A record must replay, so it holds every action — the cards drawn into the companion's
    holder in solo play, every face-down card — and the seed, which fixes every shuffle: the
    order of every deck still to be drawn.  Nothing in it can be left out and still replay, so
    an unfinished game is not exported at all (docs/record-format.md, "Hidden information").
    """
    if include_hidden or session.rules.is_over(session.state):
        return session.record()
    raise HiddenCards(unfinished_sentence(f"game #{session.id}"))


def unfinished_sentence(which: str, flag: str | None = "--include-hidden") -> str:
    """Why the record of an unfinished game is not written, and (``flag``) how to ask for it anyway."""
    return (f"{which} is still being played: its record would show the face-down cards and, through its "
            f"seed, the order of every deck; export it when the game ends"
            + (f", or ask for the hidden cards with {flag}" if flag else ""))


def make_record(rules: Rules, options: dict, seed: int, actions: list[dict], final_state: State) -> dict:
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": rules.name,
        "options": options,
        "seed": seed,
        "exported": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "actions": list(actions),
        "summary": rules.summary(final_state),
    }


MAX_BYTES = 20_000_000          # a long game is ~100 bytes an action; this is 200,000 of them
MAX_ACTIONS = 100_000
#: Values and keys a record may hold (:func:`companion.validate.count_nodes`, counted before parsing).
#: Measured (``companion bench files``): the records of random games count at most 20 an action
#: (Creature Combat Territory, summary included), and the longest random game we made was 10,498
#: actions (Lifeforce; a game at a table is a few hundred), ~210,000 in all.  A million leaves five
#: times that, and bounds what a hostile record can make to ~100 MB of Python objects.
MAX_NODES = 1_000_000
#: SQLite keeps integers as signed 64-bit, so that is the seed's range (docs/record-format.md).
SEED_RANGE = (-(1 << 63), (1 << 63) - 1)

#: The record format, as JSON Schema (docs/record-format.md says the same in words).  An action's
#: fields beyond ``type`` belong to its game, whose rules check them when the record is replayed.
SCHEMA = {
    "type": "object",
    "required": ["format", "version", "game", "seed", "actions"],
    "properties": {
        "format": {"const": FORMAT},
        "version": {"const": VERSION},
        "game": {"type": "string", "maxLength": 40},
        "options": {"type": "object", "maxProperties": 64},
        "seed": {"type": "integer", "minimum": SEED_RANGE[0], "maximum": SEED_RANGE[1]},
        "exported": {"type": "string", "maxLength": 64},
        "actions": {"type": "array", "maxItems": MAX_ACTIONS, "items": {
            "type": "object", "required": ["type"], "maxProperties": 32,
            "properties": {"type": {"type": "string", "minLength": 1, "maxLength": 64}}}},
        "summary": {},
    },
}


def options_schema(rules: Rules) -> dict:
    """The setup options of ``rules`` as JSON Schema: a choice is one of its choices, a
    yes/no option a boolean, a number an integer; ``players`` are the two seats' names."""
    props: dict = {"players": {"type": "array", "minItems": 2, "maxItems": 2,
                               "items": {"type": "string", "minLength": 1, "maxLength": 40}}}
    for option in rules.options:
        if option.choices:
            props[option.id] = {"enum": list(option.choices)}
        elif isinstance(option.default, bool):
            props[option.id] = {"type": "boolean"}
        elif isinstance(option.default, int):
            props[option.id] = {"type": "integer", "minimum": 0, "maximum": 1_000_000}
    return {"type": "object", "maxProperties": 64, "properties": props}


def check_options(rules: Rules, options, source: str = "options") -> None:
    """Refuse wrongly typed setup options in one sentence (:class:`IllegalAction`, as the setup screen shows)."""
    try:
        validate.check(options if options is not None else {}, options_schema(rules), source)
    except validate.InputError as exc:
        raise IllegalAction(str(exc)) from None


def read_record(path: str | Path) -> dict:
    """A record file, checked against :data:`SCHEMA` (the sentence names the line and field)."""
    try:
        record, text = validate.load(path, SCHEMA, "json", MAX_BYTES, "record", MAX_NODES)
        try:
            rules = games.get(record["game"])
        except games.UnknownGame:
            return record                        # replay() says which games there are
        validate.check(record, {"properties": {"options": options_schema(rules)}}, str(path), text)
    except validate.InputError as exc:
        raise RecordError(str(exc)) from None
    return record


def replay(record: dict, on_step=None) -> tuple[Rules, State]:
    """Rebuild the final state of ``record``; raises :class:`RecordError` on the first bad entry.

    ``on_step(n, action, state, events)`` is called after each action (n from 1).
    """
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f"'format' is {_brief(record.get('format'))}, expected {FORMAT!r}")
    if record.get("version") != VERSION:
        raise RecordError(f"record version {_brief(record.get('version'))} is not supported "
                          f"(this companion reads {VERSION})")
    try:
        validate.check(record, SCHEMA, "the record")
    except validate.InputError as exc:
        raise RecordError(str(exc)) from None
    try:
        rules = games.get(record.get("game"))
    except (games.UnknownGame, TypeError):
        raise RecordError(f"'game' {_brief(record.get('game'))} is not a game this companion knows "
                          f"({', '.join(games.available())})") from None
    seed = record["seed"]
    actions = record["actions"]
    try:
        check_options(rules, record.get("options") or {}, "the record's options")
        options = rules.normalise_options(record.get("options") or {})
        state = rules.setup(options, seed)
    except (IllegalAction, EngineError, LookupError, ValueError, TypeError, AttributeError) as exc:
        raise RecordError(f"'options' cannot set up {rules.title}: {exc}") from None
    for n, action in enumerate(actions, start=1):
        if rules.is_over(state):
            raise RecordError(f"action {n} ({_brief(action.get('type'))}): the game was already over")
        try:
            state, events = rules.apply(state, action)
        except IllegalAction as exc:
            raise RecordError(f"action {n} ({_brief(action)}): illegal: {exc}") from None
        except (LookupError, TypeError, ValueError, AttributeError, ArithmeticError, EngineError) as exc:
            raise RecordError(f"action {n} ({_brief(action)}): malformed: {exc!r}") from None
        if on_step is not None:
            on_step(n, action, state, events)
    return rules, state


def _brief(value) -> str:
    text = validate.printable(repr(value) if isinstance(value, str)
                              else json.dumps(value, ensure_ascii=False, default=repr))
    return text if len(text) <= 120 else text[:119] + "…"
