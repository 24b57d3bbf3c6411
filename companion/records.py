"""Game records: a whole game as one JSON document that replays to the same result.

The format is documented in docs/record-format.md.  In short::

    {
      "format": "tabletop-companion-record",
      "version": 2,
      "game": "sams",
      "options": {...},          # every setup option, defaults filled in
      "seed": 1234,
      "actions": [{...}, ...],   # in order, exactly as the session logged them
      "at": ["2026-11-27T20:15:03.120Z", ...],   # when each was played (v2; null: unknown)
      "summary": {...}           # informative: what the exporter saw at the end
    }

Replaying ignores ``summary``; it rebuilds everything from options, seed and
actions, so a record is checked, never trusted.  A record of an older version
is brought up to this one step by step (:data:`UPGRADES`) before it is checked.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from companion import games
from companion.engine import EngineError, IllegalAction, Rules, State

FORMAT = "tabletop-companion-record"
VERSION = 2                     # 1: no times; 2: "at", when each action was played


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


def make_record(rules: Rules, options: dict, seed: int, actions: list[dict], final_state: State,
                times_ms: list[int | None] | None = None) -> dict:
    """``times_ms``: when each action was played (Unix ms, None where unknown); None: all unknown."""
    times = list(times_ms) if times_ms is not None else [None] * len(actions)
    if len(times) != len(actions):
        raise ValueError(f"{len(times)} times for {len(actions)} actions")
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": rules.name,
        "options": options,
        "seed": seed,
        "exported": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "actions": list(actions),
        "at": [iso_ms(t) for t in times],
        "summary": rules.summary(final_state),
    }


def iso_ms(t_ms: int | None) -> str | None:
    """Unix milliseconds as ``2026-11-27T20:15:03.120Z`` (None stays None: time unknown)."""
    if t_ms is None:
        return None
    return datetime.fromtimestamp(t_ms / 1000, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def _upgrade_1_to_2(record: dict) -> dict:
    actions = record.get("actions")
    return {**record, "version": 2, "at": [None] * (len(actions) if isinstance(actions, list) else 0)}


#: From version n to n + 1: a record of any older version is read by upgrading it step by step.
UPGRADES = {1: _upgrade_1_to_2}


def upgrade(record):
    """``record`` at :data:`VERSION` (a new dict; the argument is untouched); other values pass through
    unchanged, for :func:`replay` to refuse with its sentence."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        return record
    version = record.get("version")
    while isinstance(version, int) and not isinstance(version, bool) and version in UPGRADES:
        record = UPGRADES[version](record)
        version = record["version"]
    return record


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
        "version": {"enum": [1, VERSION]},
        "game": {"type": "string", "maxLength": 40},
        "options": {"type": "object", "maxProperties": 64},
        "seed": {"type": "integer", "minimum": SEED_RANGE[0], "maximum": SEED_RANGE[1]},
        "exported": {"type": "string", "maxLength": 64},
        "actions": {"type": "array", "maxItems": MAX_ACTIONS, "items": {
            "type": "object", "required": ["type"], "maxProperties": 32,
            "properties": {"type": {"type": "string", "minLength": 1, "maxLength": 64}}}},
        "at": {"type": "array", "maxItems": MAX_ACTIONS, "items": {
            "anyOf": [{"type": "null"}, {"type": "string", "maxLength": 40,
                                         "pattern": r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?(Z|[+-]\d\d:\d\d)$"}]}},
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
    # companion.validate (jsonschema, ~0.1 s and 3 MB) is imported when a file or options are first
    # checked, not with this module: the app imports this one before its first frame (docs/ui.md)
    from companion import validate
    try:
        validate.check(options if options is not None else {}, options_schema(rules), source)
    except validate.InputError as exc:
        raise IllegalAction(str(exc)) from None


def read_record(path: str | Path) -> dict:
    """A record file, checked against :data:`SCHEMA` (the sentence names the line and field)."""
    from companion import validate
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
    from companion import validate
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    record = upgrade(record)
    if record.get("format") != FORMAT:
        raise RecordError(f"'format' is {_brief(record.get('format'))}, expected {FORMAT!r}")
    if record.get("version") != VERSION:
        raise RecordError(f"record version {_brief(record.get('version'))} is not supported "
                          f"(this companion reads versions 1 to {VERSION})")
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
    if "at" in record and len(record["at"]) != len(actions):      # the actions said what was wrong first
        raise RecordError(f"'at' has {len(record['at'])} times for {len(actions)} actions; it needs one each")
    return rules, state


def _brief(value) -> str:
    from companion import validate
    text = validate.printable(repr(value) if isinstance(value, str)
                              else json.dumps(value, ensure_ascii=False, default=repr))
    return text if len(text) <= 120 else text[:119] + "…"
