"""An event as plain data and pure moves (the boardgame.io shape).

The state is a JSON-able dict; :func:`apply` returns a new state and never
changes its input; an action it refuses raises :class:`EventError` with one
sentence for the organiser and changes nothing.  :func:`prepare` completes an
action with what is derived from the state when it is taken — a round's
pairings — so the log keeps exactly what happened and replays it even if the
pairing code changes later (the pairing itself is deterministic in the state
and the event's seed, which the property test checks).

Actions (``type``):

``create``       name, game, options, format ("bo1" single games | "bo3" best of three),
                 rounds (a number, or None: until one player is undefeated), round_minutes,
                 seed, decks_public ("never" | "after" the event | "always"), tables (optional: the
                 club's table names, table number k being the k-th; default t1, t2, …)
``register``     name, deck (card ids, optional) — after round 1 has started it is a late entry
``drop``         player, by ("organiser" | "player": the player's own "I drop")
``start_round``  pairings (filled in by :func:`prepare`)
``report``       round, table, games [a wins, b wins, draws], source ("table" with game_ref:
                 the table and game id of the record | "organiser": typed by hand, marked so)
``confirm``      round, table, player — both players confirm a table's result
``dispute``      round, table, player, reason — the result waits for the organiser
``correct``      round, table, games, note — the organiser's decision, final
``deck_check``   player, verdict (from :mod:`companion.event.deckcheck`)

Every action also carries ``at`` (seconds since the epoch), put there by the store.
"""
from __future__ import annotations

import re

from companion.engine import IllegalAction
from companion.event import DECKS_PUBLIC, FORMATS, standings, swiss
MAX_NAME = 60
MAX_DECK = 200
TABLE_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")      # a club table's name (companion.club.config.NAME)


class EventError(IllegalAction):
    """An action the event refuses now; ``str(error)`` is one sentence for the organiser."""


def _player(state: dict, pid) -> dict:
    for p in state["players"]:
        if p["id"] == pid:
            return p
    raise EventError(f"there is no player {pid!r} in this event")


def player_name(state: dict, pid: str | None) -> str:
    return "—" if pid is None else _player(state, pid)["name"]


def find_player(state: dict, text: str) -> dict:
    """A player by id ("p3") or by name (case-insensitive)."""
    for p in state["players"]:
        if p["id"] == text or p["name"].casefold() == str(text).strip().casefold():
            return p
    raise EventError(f"there is no player called {str(text)[:MAX_NAME]!r} in this event")


def current_round(state: dict) -> int:
    return len(state["rounds"])


def is_active(player: dict, round_number: int) -> bool:
    """Does ``player`` take part in round ``round_number`` (entered by then, not dropped before)?"""
    dropped = player.get("dropped")
    return player["joined"] <= round_number and (dropped is None or dropped["after_round"] >= round_number)


def active_players(state: dict, round_number: int) -> list[dict]:
    return [p for p in state["players"] if is_active(p, round_number)]


def pairing(state: dict, round_number, table) -> dict:
    if not isinstance(round_number, int) or not 1 <= round_number <= current_round(state):
        raise EventError(f"there is no round {round_number} yet")
    for p in state["rounds"][round_number - 1]["pairings"]:
        if p["table"] == table and p["b"] is not None:
            return p
    raise EventError(f"round {round_number} has no table {table}")


def unsettled(state: dict) -> list[dict]:
    """The current round's pairings without a result that counts."""
    if not state["rounds"]:
        return []
    return [p for p in state["rounds"][-1]["pairings"]
            if not p.get("result") or p["result"]["status"] not in standings.SETTLED]


def is_over(state: dict) -> bool:
    """All rounds played (or, "until one undefeated", at most one active player without a loss or draw)."""
    if not state["rounds"] or unsettled(state):
        return False
    if state["rounds_planned"] is not None:
        return current_round(state) >= state["rounds_planned"]
    rows = standings.compute(state)
    played = current_round(state)
    active = {p["id"] for p in active_players(state, played + 1)}
    perfect = [r for r in rows if r.id in active and r.points == 3 * (r.wins + r.losses + r.draws)
               and r.wins > 0]
    return len(perfect) <= 1 or len(active) < 2


def check_games(state: dict, games) -> tuple[int, int, int]:
    """A result as (a's wins, b's wins, draws), checked against the event's format."""
    if (not isinstance(games, (list, tuple)) or len(games) != 3
            or not all(isinstance(g, int) and not isinstance(g, bool) and g >= 0 for g in games)):
        raise EventError("a result is three whole numbers: games won by each player, and games drawn")
    a, b, d = games
    if state["format"] == "bo1":
        if a + b + d != 1:
            raise EventError("a single-game match has one result: 1-0, 0-1 or a draw (0-0-1)")
    elif a > 2 or b > 2 or (a == 2 and b == 2) or a + b + d > 3 or a + b + d == 0:
        raise EventError(f"{a}-{b}-{d} is not the result of a best-of-three match")
    return a, b, d


def table_name(state: dict, number: int) -> str:
    """The club table that plays table ``number`` of the event: the k-th of ``tables``, else ``t<k>``."""
    tables = state.get("tables")
    return tables[number - 1] if tables and number <= len(tables) else f"t{number}"


def bye_games(state: dict) -> list[int]:
    return [1, 0, 0] if state["format"] == "bo1" else [2, 0, 0]


# ---- what the log records beyond what the organiser typed -------------------------------------

def candidates(state: dict, round_number: int) -> list[swiss.Candidate]:
    """The active players as pairing sees them: points, rank, past opponents, byes, last table."""
    rows = {r.id: r for r in standings.compute(state)}
    opponents: dict[str, set] = {p["id"]: set() for p in state["players"]}
    byes = {p["id"]: 0 for p in state["players"]}
    last_table: dict[str, int | None] = {}
    for rnd in state["rounds"]:
        for p in rnd["pairings"]:
            if p["b"] is None:
                byes[p["a"]] += 1
            else:
                opponents[p["a"]].add(p["b"])
                opponents[p["b"]].add(p["a"])
    if state["rounds"]:
        for p in state["rounds"][-1]["pairings"]:
            last_table[p["a"]] = p["table"]
            if p["b"] is not None:
                last_table[p["b"]] = p["table"]
    return [swiss.Candidate(p["id"], p["name"], rows[p["id"]].points, rows[p["id"]].rank - 1,
                            frozenset(opponents[p["id"]]), byes[p["id"]], last_table.get(p["id"]))
            for p in active_players(state, round_number)]


def prepare(state: dict | None, action: dict) -> dict:
    """``action`` completed with what the state decides when it is taken (a round's pairings)."""
    if state is not None and action.get("type") == "start_round" and "pairings" not in action:
        _check_can_start(state)
        number = current_round(state) + 1
        found = swiss.pair_round(candidates(state, number), state["seed"], number)
        action = {**action, "pairings": [p.as_dict() for p in found]}
    return action


# ---- the moves -------------------------------------------------------------------------------------

def _check_can_start(state: dict) -> None:
    if is_over(state):
        raise EventError("the event is over: every round has been played")
    open_tables = unsettled(state)
    if open_tables:
        tables = ", ".join(str(p["table"]) for p in open_tables[:8])
        raise EventError(f"round {current_round(state)} is not finished: no settled result at table "
                         f"{tables}{' …' if len(open_tables) > 8 else ''}")
    if len(active_players(state, current_round(state) + 1)) < 2:
        raise EventError("a round needs at least two players")


def _text(value, what: str, limit: int = MAX_NAME) -> str:
    if not isinstance(value, str) or not value.strip():
        raise EventError(f"the {what} is missing")
    text = " ".join(value.split())
    if len(text) > limit or not text.isprintable():
        raise EventError(f"the {what} must be printable text of at most {limit} characters")
    return text


def _create(_state, action: dict) -> dict:
    fmt = action.get("format", "bo3")
    if fmt not in FORMATS:
        raise EventError(f"the format is one of {', '.join(FORMATS)}, not {str(fmt)[:20]!r}")
    rounds = action.get("rounds")
    if rounds is not None and (not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 30):
        raise EventError("the number of rounds is 1 to 30, or none: until one player is undefeated")
    minutes = action.get("round_minutes", 50)
    if not isinstance(minutes, int) or isinstance(minutes, bool) or not 1 <= minutes <= 600:
        raise EventError("the time per round is 1 to 600 minutes")
    public = action.get("decks_public", "after")
    if public not in DECKS_PUBLIC:
        raise EventError(f"deck lists are public {', '.join(DECKS_PUBLIC)}")
    seed = action.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise EventError("the seed is a whole number")
    if not isinstance(action.get("options") or {}, dict):
        raise EventError("the game's options are a JSON object, such as {}")
    tables = action.get("tables")
    if tables is not None and (not isinstance(tables, list) or len(tables) > 500
                               or not all(isinstance(t, str) and TABLE_NAME.match(t) for t in tables)
                               or len(set(tables)) != len(tables)):
        raise EventError("the club's tables are a list of different table names (lower-case letters, digits, '-')")
    return {"name": _text(action.get("name"), "event's name"), "game": _text(action.get("game"), "game", 20),
            "options": dict(action.get("options") or {}), "format": fmt, "rounds_planned": rounds,
            "round_minutes": minutes, "seed": seed, "decks_public": public, "created_at": action.get("at"),
            "tables": tables,
            "players": [], "rounds": [], "deck_checks": []}


def _register(state: dict, action: dict) -> dict:
    name = _text(action.get("name"), "player's name")
    if any(p["name"].casefold() == name.casefold() for p in state["players"]):
        raise EventError(f"there is already a player called {name!r}; add something to tell them apart")
    if is_over(state):
        raise EventError("the event is over; nobody can enter now")
    deck = action.get("deck")
    if deck is not None:
        if not isinstance(deck, list) or len(deck) > MAX_DECK:
            raise EventError(f"a deck list is a list of at most {MAX_DECK} card ids")
        deck = [_text(c, "card id", 80) for c in deck]
    player = {"id": f"p{len(state['players']) + 1}", "name": name, "deck": deck,
              "joined": current_round(state) + 1, "dropped": None}
    return {**state, "players": state["players"] + [player]}


def _drop(state: dict, action: dict) -> dict:
    player = _player(state, action.get("player"))
    by = action.get("by", "organiser")
    if by not in ("organiser", "player"):
        raise EventError("a drop is by the organiser or by the player")
    if player["dropped"] is not None:
        raise EventError(f"{player['name']} has already dropped")
    dropped = {**player, "dropped": {"after_round": current_round(state), "by": by}}
    return {**state, "players": [dropped if p is player else p for p in state["players"]]}


def _start_round(state: dict, action: dict) -> dict:
    _check_can_start(state)
    pairings = action.get("pairings")
    if not isinstance(pairings, list):
        raise EventError("a round starts with its pairings")
    number = current_round(state) + 1
    rows = []
    for p in pairings:
        row = {"table": p["table"], "a": p["a"], "b": p["b"], "why": p["why"], "result": None}
        if p["b"] is None:
            row["result"] = {"games": bye_games(state), "source": "bye", "status": "final",
                             "hand_entered": False, "confirmed": []}
        rows.append(row)
    return {**state, "rounds": state["rounds"] + [{"number": number, "started_at": action.get("at"),
                                                   "pairings": rows}]}


def _report(state: dict, action: dict) -> dict:
    p = pairing(state, action.get("round"), action.get("table"))
    games = list(check_games(state, action.get("games")))
    source = action.get("source")
    if source not in ("table", "organiser"):
        raise EventError("a result comes from the table or from the organiser")
    old = p.get("result")
    if old and old["status"] in standings.SETTLED:
        raise EventError(f"table {p['table']} of round {action['round']} already has a settled result; "
                         "the organiser can correct it")
    result = {"games": games, "source": source, "confirmed": [],
              "status": "reported" if source == "table" else "final", "hand_entered": source == "organiser"}
    if source == "table":
        ref = action.get("game_ref")
        if not isinstance(ref, dict):
            raise EventError("a table's result names its game (game_ref: table and game id)")
        result["game_ref"] = {k: ref[k] for k in ("table", "game_id", "record_sha256") if k in ref}
    return _with_pairing(state, action, {**p, "result": result})


def _with_pairing(state: dict, action: dict, new: dict) -> dict:
    """``state`` with one pairing replaced; everything else is shared, not copied (moves never mutate)."""
    at = action["round"] - 1
    rows = list(state["rounds"][at]["pairings"])
    i = next(i for i, p in enumerate(rows) if p["table"] == action["table"] and p["b"] is not None)
    rows[i] = new
    rounds = list(state["rounds"])
    rounds[at] = {**rounds[at], "pairings": rows}
    return {**state, "rounds": rounds}


def _answer(state: dict, action: dict) -> dict:
    p = pairing(state, action.get("round"), action.get("table"))
    who = action.get("player")
    if who not in (p["a"], p["b"]):
        raise EventError(f"only the two players of table {p['table']} can confirm or dispute its result")
    result = p.get("result")
    if not result or result["status"] not in ("reported", "disputed"):
        raise EventError(f"table {p['table']} has no reported result waiting for the players")
    result = {**result, "confirmed": list(result["confirmed"])}
    if action["type"] == "dispute":
        result["status"] = "disputed"
        result["dispute"] = {"by": who, "reason": _text(action.get("reason") or "no reason given", "reason", 200)}
    else:
        if result["status"] == "disputed":
            raise EventError(f"the result of table {p['table']} is disputed: the organiser decides")
        if who not in result["confirmed"]:
            result["confirmed"].append(who)
        if set(result["confirmed"]) == {p["a"], p["b"]}:
            result["status"] = "confirmed"
    return _with_pairing(state, action, {**p, "result": result})


def _correct(state: dict, action: dict) -> dict:
    p = pairing(state, action.get("round"), action.get("table"))
    games = list(check_games(state, action.get("games")))
    old = p.get("result") or {}
    result = {"games": games, "source": "organiser", "status": "final", "hand_entered": True,
              "confirmed": [], "corrected": bool(old),
              "note": _text(action.get("note") or "organiser's decision", "note", 200)}
    if old.get("game_ref"):
        result["game_ref"] = old["game_ref"]
    return _with_pairing(state, action, {**p, "result": result})


def _deck_check(state: dict, action: dict) -> dict:
    player = _player(state, action.get("player"))
    if player["deck"] is None:
        raise EventError(f"{player['name']} has no registered deck list to check against")
    verdict = action.get("verdict")
    if not isinstance(verdict, dict) or "ok" not in verdict:
        raise EventError("a deck check records its verdict")
    check = {"player": player["id"], "round": current_round(state), "at": action.get("at"),
             **{k: verdict[k] for k in ("ok", "missing", "extra", "unregistered", "cards") if k in verdict}}
    if isinstance(action.get("check_ref"), dict):      # which table's check (the hub answers a repeat from it)
        check["check_ref"] = {"table": str(action["check_ref"].get("table"))[:32],
                              "check": str(action["check_ref"].get("check"))[:40]}
    return {**state, "deck_checks": state["deck_checks"] + [check]}


MOVES = {"register": _register, "drop": _drop, "start_round": _start_round, "report": _report,
         "confirm": _answer, "dispute": _answer, "correct": _correct, "deck_check": _deck_check}


def apply(state: dict | None, action: dict) -> dict:
    """The state after ``action``; ``state`` is None before ``create``.  Never changes ``state``."""
    if not isinstance(action, dict):
        raise EventError("an action is a JSON object")
    kind = action.get("type")
    if state is None:
        if kind != "create":
            raise EventError("an event begins with create")
        return _create(None, action)
    if kind not in MOVES:
        raise EventError(f"an event has no action {str(kind)[:30]!r}")
    return MOVES[kind](state, action)
