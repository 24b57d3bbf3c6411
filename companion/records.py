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

from companion import games
from companion.engine import EngineError, IllegalAction, Rules, State

FORMAT = "tabletop-companion-record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be replayed; the message names the first bad entry."""


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


def read_record(path: str | Path) -> dict:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None


def replay(record: dict, on_step=None) -> tuple[Rules, State]:
    """Rebuild the final state of ``record``; raises :class:`RecordError` on the first bad entry.

    ``on_step(n, action, state, events)`` is called after each action (n from 1).
    """
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f"'format' is {record.get('format')!r}, expected {FORMAT!r}")
    if record.get("version") != VERSION:
        raise RecordError(f"record version {record.get('version')!r} is not supported (this companion reads {VERSION})")
    try:
        rules = games.get(record.get("game"))
    except (games.UnknownGame, TypeError):
        raise RecordError(f"'game' {record.get('game')!r} is not a game this companion knows "
                          f"({', '.join(games.available())})") from None
    seed = record.get("seed")
    if not isinstance(seed, int):
        raise RecordError(f"'seed' must be an integer, not {seed!r}")
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise RecordError("'actions' must be a list")
    try:
        options = rules.normalise_options(record.get("options") or {})
        state = rules.setup(options, seed)
    except (IllegalAction, ValueError, TypeError) as exc:
        raise RecordError(f"'options' cannot set up {rules.title}: {exc}") from None
    for n, action in enumerate(actions, start=1):
        if not isinstance(action, dict) or "type" not in action:
            raise RecordError(f"action {n}: not an action object with a 'type': {json.dumps(action)[:80]}")
        if rules.is_over(state):
            raise RecordError(f"action {n} ({action.get('type')}): the game was already over")
        try:
            state, events = rules.apply(state, action)
        except IllegalAction as exc:
            raise RecordError(f"action {n} ({json.dumps(action, ensure_ascii=False)}): illegal: {exc}") from None
        except (KeyError, TypeError, ValueError, EngineError) as exc:
            raise RecordError(f"action {n} ({json.dumps(action, ensure_ascii=False)}): malformed: {exc!r}") from None
        if on_step is not None:
            on_step(n, action, state, events)
    return rules, state
