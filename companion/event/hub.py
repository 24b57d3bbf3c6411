"""The event on the club's hub: its pages, the organiser's actions, each table's pairing and result.

:class:`EventHub` mounts the event on a running :class:`~companion.club.web.HubServer`:

* **One writer.**  The :class:`~companion.event.store.EventStore` works on the
  hub's own SQLite connection under the hub's lock, so the tables' games and the
  event's log live in one file with one owner.  The organiser's requests (HTTP
  threads) and the tables' results (the hub's writer thread) meet at that lock.
* **Pages** (read by anyone): ``/event`` (the newest event's TV page),
  ``/event/<id>``, ``/event/<id>/player/<pid>``, ``/api/event/<id>``,
  ``/event/<id>/slips.pdf`` and ``/event/<id>/standings.pdf``.  The HTML pages
  reload at each server-sent event of ``/events?event=<id>``; their inline
  script runs under a Content-Security-Policy that names its SHA-256 and
  nothing else.
* **The organiser's actions** (``POST /organiser/event…``, the organiser's
  password as for every organiser route): create, register (a late entry once
  round 1 has started), drop, start_round, result (typed by hand: marked so),
  correct (the decision on a dispute), undo, redo.  A refusal is ``400`` with
  one sentence: ``{"error": "…"}``.
* **Tables get their pairing** over the broker: each open pairing of the
  current round is published, retained, to ``club/<table>/pairing`` (names and
  seats only); a table whose pairing is settled, or no longer exists (an undo),
  gets an empty retained message, which clears it.
* **Results come from the tables**: a table that plays an event's game marks
  its outbox rows with ``event_ref`` (event, round, table number, and which
  player sits at each seat); when such a game is over, the hub logs a ``report``
  (with the game's table and id: ``game_ref``) once the match is decided (one
  game, or best of three); the players' ``confirm``/``dispute`` rows become the
  event's ``confirm``/``dispute`` actions.  Every message is handled in the
  order the hub stored it, and handling is idempotent, so :meth:`catch_up` can
  replay every stored message after a restart.
"""
from __future__ import annotations

import base64
import hashlib
import json
import logging
import re
import time

from companion.club.config import topic
from companion.club.web import Request, Response
from companion.event import deckcheck, moves, organiser, pages, ratings, slips, standings
from companion.event.store import EventStore

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS club_event_table_games (
    table_name TEXT NOT NULL,
    game_id    INTEGER NOT NULL,
    event_id   INTEGER NOT NULL,
    round      INTEGER NOT NULL,
    tbl        INTEGER NOT NULL,                 -- the event's table number
    score      REAL NOT NULL,                    -- player a's: 1 won, 0 lost, 0.5 drawn
    PRIMARY KEY (table_name, game_id)
);
CREATE TABLE IF NOT EXISTS club_event_table_drops (   -- a table's "I drop" message, acted on once
    table_name TEXT NOT NULL,                 -- (an organiser's Undo of it is not done again by a restart)
    game_id    INTEGER NOT NULL,
    n          INTEGER NOT NULL,
    PRIMARY KEY (table_name, game_id, n)
);
CREATE TABLE IF NOT EXISTS club_event_pairing_sent (   -- what each table's retained pairing now says
    table_name TEXT PRIMARY KEY,
    event_id   INTEGER NOT NULL,
    payload    TEXT NOT NULL
);
"""
EVENT = r"(?P<event>[0-9]{1,9})"
CREATE_FIELDS = ("name", "game", "options", "format", "rounds", "round_minutes", "seed", "decks_public", "tables")
#: The seat names a game gets when nobody typed names: such games cannot be said to be anybody's.
UNNAMED = ("North", "South")


def _csp(html: str) -> dict:
    """The page's own Content-Security-Policy: its inline scripts by their SHA-256, nothing else runs."""
    hashes = " ".join("'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
                      for s in re.findall(r"<script>(.*?)</script>", html, re.S))
    return {"Content-Security-Policy": f"default-src 'none'; script-src {hashes or chr(39) + 'none' + chr(39)}; "
                                       "style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; "
                                       "base-uri 'none'; form-action 'none'; frame-ancestors *"}


def _html(html: str, status: int = 200) -> Response:
    return Response(status, html.encode(), headers=_csp(html))


def _json(data, status: int = 200) -> Response:
    return Response(status, json.dumps(data, ensure_ascii=False).encode(), "application/json")


def _refuse(sentence: str, status: int = 400) -> Response:
    return _json({"error": sentence}, status)


class EventHub:
    """The event layer mounted on a hub (``hub``) and its HTTP server (``server``)."""

    def __init__(self, hub, server, clock=time.time):
        self.hub, self.server = hub, server
        self.store = EventStore(hub.store.db, hub.store.lock, clock=clock)
        hub.store.add_schema(SCHEMA)
        with hub.store.read() as db:         # kept in the file: a restarted hub still clears what it sent
            self._published: dict[str, tuple[int, str]] = {       # club table → (event, pairing payload) sent
                t: (e, text) for t, e, text in db.execute("SELECT * FROM club_event_pairing_sent")}
        add = server.routes.add
        add("GET", "/event", self.page_newest)
        add("GET", f"/event/{EVENT}", self.page_tv)
        add("GET", f"/event/{EVENT}/player/(?P<player>p[0-9]{{1,5}})", self.page_player)
        add("GET", f"/api/event/{EVENT}", self.api_event)
        add("GET", f"/event/{EVENT}/(?P<pdf>slips|standings)\\.pdf", self.pdf)
        add("GET", "/organiser/events", self.organiser_events_page, organiser=True)
        add("GET", f"/organiser/event/{EVENT}", self.organiser_event_page, organiser=True)
        add("POST", "/organiser/event", self.organiser_create, organiser=True)
        add("POST", f"/organiser/event/{EVENT}/(?P<verb>register|drop|start_round|result|correct|undo|redo)",
            self.organiser_act, organiser=True)
        hub.log_listeners.append(self.table_message)
        hub.request_listeners.append(self.deck_scan)
        self.catch_up()

    # ---- reading -----------------------------------------------------------------------------------
    def _state(self, r: Request) -> dict | None:
        try:
            return self.store.state(int(r.match["event"]))
        except KeyError:
            return None

    def states(self) -> list[dict]:
        return [self.store.state(e["id"]) for e in self.store.events()]

    def page_newest(self, r: Request) -> Response:
        events = self.store.events()
        if not events:
            return _html(pages._page("No event", "<header><h1>No event yet</h1></header>"), 404)
        return self._tv(events[-1]["id"])

    def page_tv(self, r: Request) -> Response:
        if self._state(r) is None:
            return _html(pages._page("No such event", "<header><h1>No such event</h1></header>"), 404)
        return self._tv(int(r.match["event"]))

    def _tv(self, event_id: int) -> Response:
        return _html(pages.tv_page(self.store.state(event_id), stream=f"/events?event={event_id}"))

    def page_player(self, r: Request) -> Response:
        state = self._state(r)
        player = None if state is None else next((p for p in state["players"] if p["id"] == r.match["player"]),
                                                  None)
        if player is None:
            return _html(pages._page("No such player", "<header><h1>No such player</h1></header>"), 404)
        return _html(pages.player_page(self.states(), player["name"], self.ratings(),
                                       stream=f"/events?event={r.match['event']}",
                                       games=self.games_of(player["name"])))

    def api_event(self, r: Request) -> Response:
        """The public view; ``?rounds=all`` adds every round's pairings and results (``rounds_all``)."""
        state = self._state(r)
        if state is None:
            return _refuse("there is no such event", 404)
        view = pages.public_view(state)
        if r.query.get("rounds") == "all":
            names = {p["id"]: p["name"] for p in state["players"]}
            view["rounds_all"] = [{"number": rnd["number"], "pairings": [
                {"table": p["table"], "a": names[p["a"]], "b": names.get(p["b"]), "result": pages._result_text(p)}
                for p in rnd["pairings"]]} for rnd in state["rounds"]]
        return _json(view)

    def pdf(self, r: Request) -> Response:
        state = self._state(r)
        if state is None:
            return _refuse("there is no such event", 404)
        make = slips.slips_pdf if r.match["pdf"] == "slips" else slips.standings_pdf
        return Response(200, make(state), "application/pdf")

    # ---- ratings from every stored game of the club ------------------------------------------------
    def club_games(self, leave_out: frozenset = frozenset()) -> list[ratings.GameResult]:
        """Every finished game the hub stored whose two players have names, as rating input
        (except the (table, game id) pairs in ``leave_out``)."""
        out = []
        for g in self.hub.store.games("over"):
            found = _named_result(g)
            if found is not None and (g["table"], g["game"]) not in leave_out:
                a, b, score = found
                out.append(ratings.GameResult(g["name"], a, b, score, f"table {g['table']}", 0,
                                              (g["ended_ms"] or 0) / 1000))
        return out

    def ratings(self) -> dict:
        """openskill over every stored game of the club, in the order played.

        A friendly game (no event's) counts once the hub stored it.  An event's game played at a table
        counts only once its match is settled by the players: both agreed to the result.  A match the
        organiser decided (typed by hand for a table offline, or the decision on a dispute) counts as
        decided, and the table's games of that match do not.  Until then — reported, disputed, a best
        of three still being played, or a round since undone — the table's games wait (they are known
        by ``club_event_table_games``)."""
        with self.hub.store.read() as db:
            linked: dict[tuple, list] = {}
            for table, game_id, event_id, rnd, tbl in db.execute(
                    "SELECT table_name, game_id, event_id, round, tbl FROM club_event_table_games"):
                linked.setdefault((event_id, rnd, tbl), []).append((table, game_id))
        games, agreed = [], set()
        for event in self.store.events():
            state = self.store.state(event["id"])
            names = {p["id"]: p["name"] for p in state["players"]}
            from_tables = set()
            for rnd in state["rounds"]:
                for p in rnd["pairings"]:
                    result = p.get("result") or {}
                    if p["b"] is None or result.get("source") != "table":
                        continue
                    from_tables.add((rnd["number"], frozenset((names[p["a"]], names[p["b"]]))))
                    if result["status"] == "confirmed":
                        agreed.update(linked.get((event["id"], rnd["number"], p["table"]), []))
            games += [g for g in ratings.games_of_event(state) if (g.round, frozenset((g.a, g.b))) not in from_tables]
        waiting = {g for found in linked.values() for g in found} - agreed
        games += self.club_games(frozenset(waiting))
        games.sort(key=lambda g: g.at or 0)
        return ratings.rate(games)

    def games_of(self, name: str) -> list[dict]:
        """The stored games ``name`` played at the club's tables (only what the shared screen showed)."""
        key = ratings.player_key(name)
        out = []
        for g in self.hub.store.games("over"):
            found = _named_result(g)
            if found is None or key not in (ratings.player_key(found[0]), ratings.player_key(found[1])):
                continue
            a, b, score = found
            mine_a = ratings.player_key(a) == key
            mine = score if mine_a else 1 - score
            out.append({"table": g["table"], "game": g["title"], "opponent": b if mine_a else a,
                        "outcome": "win" if mine == 1 else ("loss" if mine == 0 else "draw"),
                        "ended": g["ended_ms"]})
        return out

    # ---- the organiser -----------------------------------------------------------------------------
    def organiser_events_page(self, r: Request) -> Response:
        from companion import games
        return _html(organiser.events_page([{**self.store.state(e["id"]), "id": e["id"]} for e in self.store.events()],
                                           games.available()))

    def organiser_event_page(self, r: Request) -> Response:
        state = self._state(r)
        if state is None:
            return _html(pages._page("No such event", "<header><h1>No such event</h1></header>"), 404)
        event_id = int(r.match["event"])
        online = {t["table"]: t["online"] for t in self.hub.store.tables()}
        return _html(organiser.event_page(state, event_id, self.store.log(event_id), online))

    @staticmethod
    def _body(r: Request) -> dict:
        if not r.body:
            return {}
        try:
            data = json.loads(r.body)
        except (ValueError, RecursionError):
            raise moves.EventError("the request is not JSON") from None
        if not isinstance(data, dict):
            raise moves.EventError("the request is a JSON object")
        return data

    def organiser_create(self, r: Request) -> Response:
        try:
            body = self._body(r)
            event_id = self.store.create(**{k: body[k] for k in CREATE_FIELDS if k in body})
        except moves.EventError as exc:
            return _refuse(str(exc))
        self.changed(event_id)
        return _json({"event": event_id, "view": pages.public_view(self.store.state(event_id))})

    def organiser_act(self, r: Request) -> Response:
        event_id = int(r.match["event"])
        try:
            state = self.store.state(event_id)
        except KeyError:
            return _refuse("there is no such event", 404)
        verb = r.match["verb"]
        try:
            body = self._body(r)
            if verb == "undo":
                self.store.undo(event_id)
            elif verb == "redo":
                self.store.redo(event_id)
            else:
                self.store.act(event_id, _organiser_action(state, verb, body))
        except moves.EventError as exc:
            return _refuse(str(exc))
        self.changed(event_id)
        return _json({"event": event_id, "view": pages.public_view(self.store.state(event_id))})

    # ---- after every change: the pages and the tables hear of it -----------------------------------
    def changed(self, event_id: int) -> None:
        self.publish_pairings(event_id)
        state = self.store.state(event_id)
        self.server.broadcast_event(event_id, {"event": event_id, "round": moves.current_round(state),
                                               "unsettled": len(moves.unsettled(state))})

    def pairing_messages(self, event_id: int) -> dict[str, dict]:
        """club table → what it is sent: each open pairing of the current round, names and seats only."""
        state = self.store.state(event_id)
        if not state["rounds"]:
            return {}
        names = {p["id"]: p["name"] for p in state["players"]}
        rnd = state["rounds"][-1]
        out = {}
        for p in rnd["pairings"]:
            if p["b"] is None or (p.get("result") and p["result"]["status"] in standings.SETTLED):
                continue
            status = (p.get("result") or {}).get("status")
            out[moves.table_name(state, p["table"])] = {
                "v": 1, "event": event_id, "event_name": state["name"], "game": state["game"],
                "options": state["options"], "format": state["format"], "round": rnd["number"],
                "table": p["table"], "players": [names[p["a"]], names[p["b"]]], "ids": [p["a"], p["b"]],
                "result": status}
        return out

    def publish_pairings(self, event_id: int) -> None:
        """Send each table of the event its pairing, and clear the pairings the event sent that are
        no longer open (settled, undone, or — after a restart — of a round that is over)."""
        wanted = {t: json.dumps(m, ensure_ascii=False, sort_keys=True)
                  for t, m in self.pairing_messages(event_id).items()}
        sends = [(table, text) for table, text in wanted.items() if self._published.get(table) != (event_id, text)]
        clears = [table for table, (owner, _) in self._published.items() if owner == event_id and table not in wanted]
        if not sends and not clears:
            return
        with self.hub.store.tx() as db:
            for table, text in sends:
                self._published[table] = (event_id, text)
                db.execute("INSERT OR REPLACE INTO club_event_pairing_sent VALUES (?, ?, ?)", (table, event_id, text))
            for table in clears:
                del self._published[table]
                db.execute("DELETE FROM club_event_pairing_sent WHERE table_name = ?", (table,))
        # Published outside the hub's lock: paho's own thread takes that lock to store what arrives.
        for table, text in sends:
            self.hub.client.publish(topic(table, "pairing"), text, qos=1, retain=True)
        for table in clears:
            self.hub.client.publish(topic(table, "pairing"), b"", qos=1, retain=True)    # clears it

    # ---- results from the tables (the hub's writer thread) -----------------------------------------
    def catch_up(self) -> None:
        """Handle again every stored message of an event's game (after a restart: idempotent)."""
        with self.hub.store.read() as db:
            rows = db.execute(
                "SELECT m.table_name, m.body FROM hub_messages m JOIN hub_games g ON g.table_name = m.table_name "
                "AND g.game_id = m.game_id WHERE m.n <= g.acked AND m.body LIKE '%\"event_ref\"%' "
                "ORDER BY m.table_name, m.game_id, m.n").fetchall()
        touched = set()
        for table, body in rows:
            event_id = self._handle(table, json.loads(body))
            if event_id is not None:
                touched.add(event_id)
        sent = {owner for owner, _ in self._published.values()}      # their stale pairings are cleared
        for event_id in sorted(touched | sent | {e["id"] for e in self.store.events()[-1:]}):
            self.changed(event_id)

    def table_message(self, table: str, text: str) -> None:
        """``Hub.log_listeners``: a table's message, stored in order (JSON text; most are no event's)."""
        if '"event_ref"' not in text:
            return
        event_id = self._handle(table, json.loads(text))
        if event_id is not None:
            self.changed(event_id)

    def _handle(self, table: str, body: dict) -> int | None:
        """One stored message of a table; the event it changed, or None."""
        with self.store.lock:              # the hub's lock: one message at a time, its checks and its action
            return self._handle_locked(table, body)

    def _handle_locked(self, table: str, body: dict) -> int | None:
        ref = body.get("event_ref")
        if not ref:
            return None
        try:
            state = self.store.state(ref["event"])
        except KeyError:
            return None
        if moves.table_name(state, ref["table"]) != table:
            log.warning("table %s sent a result for table %s of event %s: ignored", table, ref["table"], ref["event"])
            return None
        try:
            p = moves.pairing(state, ref["round"], ref["table"])
        except moves.EventError:
            return None
        if set(ref["seats"]) != {p["a"], p["b"]}:
            return None                                 # not this pairing's players (an undone round, say)
        where = {"round": ref["round"], "table": ref["table"]}
        result = p.get("result")
        try:
            if body["kind"] == "drop":
                return self._player_drop(table, body, ref, state)
            if body["kind"] in ("confirm", "dispute"):
                who = ref["seats"][body.get("seat")] if body.get("seat") in (0, 1) else None
                if who is None or not result or result["status"] not in ("reported", "disputed"):
                    return None
                if body["kind"] == "confirm" and (who in result["confirmed"] or result["status"] == "disputed"):
                    return None
                if body["kind"] == "dispute" and result["status"] == "disputed":
                    return None
                action = {"type": body["kind"], **where, "player": who}
                if body["kind"] == "dispute":
                    action["reason"] = str(body.get("reason") or "disputed at the table")[:200]
                self.store.act(ref["event"], action)
                return ref["event"]
            if body["status"] != "over" or not isinstance(body.get("result"), dict):
                return None
            games = self._tally(table, body, ref, p)      # kept even when the organiser has decided (ratings)
            if games is None or result:
                return None
            self.store.act(ref["event"], {"type": "report", **where, "games": games, "source": "table",
                                          "game_ref": {"table": table, "game_id": body["game"]}})
            return ref["event"]
        except moves.EventError as exc:
            log.warning("event %s: table %s's message refused: %s", ref["event"], table, exc)
            return None

    def _player_drop(self, table: str, body: dict, ref: dict, state: dict) -> int | None:
        """A player's own "I drop from the event", pressed at the table: logged as ``drop`` by the
        player (the organiser's Undo takes it back).  Each message acts once: a restart's catch-up
        does not drop again a player whose drop the organiser undid."""
        who = ref["seats"][body.get("seat")] if body.get("seat") in (0, 1) else None
        if who is None:
            return None
        with self.hub.store.tx() as db:
            fresh = db.execute("INSERT OR IGNORE INTO club_event_table_drops VALUES (?, ?, ?)",
                               (table, body["game"], body["n"])).rowcount
        player = next(p for p in state["players"] if p["id"] == who)
        if not fresh or player["dropped"] is not None:
            return None
        self.store.act(ref["event"], {"type": "drop", "player": who, "by": "player"})
        return ref["event"]

    # ---- deck checks from the tables (the hub's writer thread) ---------------------------------------
    def deck_scan(self, table: str, leaf: str, body: dict) -> None:
        """``Hub.request_listeners``: a table's deck-check scan so far (every card read, each message).

        Compared with the player's registered list at each message: a scan that matches is logged
        as the event's ``deck_check`` at once and answered "passed"; one that does not waits for
        the table's last message (``final``: the table heard no card for ``deckcheck.SETTLE_S``, or
        the player pressed Done), then is logged and answered with its counts.  The card names
        stay on the hub (the organiser's page): the table's shared screen shows only counts.
        A repeat of a logged check (the table asked again) gets the same answer, logged once."""
        if leaf != "deckscan":
            return
        scan = _deck_scan(body)
        if scan is None:
            log.warning("table %s sent a deck-check scan that is not one: ignored", table)
            return
        with self.store.lock:
            answer, event_id = self._deck_scan_locked(table, scan)
        if answer is not None:       # published outside the hub's lock, as the pairings are
            self.hub.client.publish(topic(table, "deckverdict"),
                                    json.dumps({"v": 1, "check": scan["check"], **answer}, ensure_ascii=False),
                                    qos=1)
        if event_id is not None:
            self.changed(event_id)

    def _deck_scan_locked(self, table: str, scan: dict) -> tuple[dict | None, int | None]:
        try:
            state = self.store.state(scan["event"])
        except KeyError:
            return {"error": "The hub has no such event."}, None
        player = next((p for p in state["players"] if p["id"] == scan["player"]), None)
        rnd = state["rounds"][-1] if state["rounds"] else None
        here = rnd is not None and any(scan["player"] in (p["a"], p["b"]) and p["b"] is not None
                                       and moves.table_name(state, p["table"]) == table for p in rnd["pairings"])
        if player is None or not here:
            return {"error": "That player is not paired at this table this round."}, None
        if not player["deck"]:
            return {"error": f"{player['name']} has no registered deck list: see the organiser."}, None
        ref = {"table": table, "check": scan["check"]}
        done = next((c for c in state["deck_checks"] if c.get("check_ref") == ref), None)
        if done is None:
            verdict = deckcheck.compare(player["deck"], scan["cards"])
            if not (verdict.ok or scan["final"]):
                return None, None                   # more cards may come: the table says when it has heard none
            self.store.act(scan["event"], {"type": "deck_check", "player": player["id"],
                                           "verdict": verdict.as_dict(), "check_ref": ref})
            done = self.store.state(scan["event"])["deck_checks"][-1]
            changed = scan["event"]
        else:
            changed = None
        return {"player": player["name"], "ok": done["ok"], "cards": done.get("cards", 0),
                "missing": sum(done.get("missing", {}).values()), "extra": sum(done.get("extra", {}).values()),
                "unregistered": done.get("unregistered", 0)}, changed

    def _tally(self, table: str, body: dict, ref: dict, p: dict) -> list[int] | None:
        """Record this finished game of the match; the match's [a wins, b wins, draws] once it is decided."""
        winner = body["result"].get("winner")
        if winner in (0, 1):
            score = 1.0 if ref["seats"][winner] == p["a"] else 0.0
        else:
            score = 0.5
        state = self.store.state(ref["event"])
        with self.hub.store.tx() as db:
            db.execute("INSERT OR IGNORE INTO club_event_table_games VALUES (?, ?, ?, ?, ?, ?)",
                       (table, body["game"], ref["event"], ref["round"], ref["table"], score))
            scores = [s for (s,) in db.execute(
                "SELECT score FROM club_event_table_games WHERE event_id = ? AND round = ? AND tbl = ? "
                "ORDER BY game_id", (ref["event"], ref["round"], ref["table"]))]
        games = [scores.count(1.0), scores.count(0.0), scores.count(0.5)]
        if state["format"] == "bo1" or max(games[0], games[1]) >= 2 or len(scores) >= 3:
            return games
        return None                                     # best of three: the next game is still to play


def _organiser_action(state: dict, verb: str, body: dict) -> dict:
    """The event's action for an organiser's request (players named by id or by name)."""
    current = moves.current_round(state)
    if verb == "register":
        return {"type": "register", "name": body.get("name"), "deck": body.get("deck")}
    if verb == "drop":
        return {"type": "drop", "player": moves.find_player(state, body.get("player", ""))["id"],
                "by": body.get("by", "organiser")}
    if verb == "start_round":
        return {"type": "start_round"}
    where = {"round": body.get("round", current), "table": body.get("table")}
    if verb == "result":                                # a table offline or without a companion: typed by hand
        return {"type": "report", **where, "games": body.get("games"), "source": "organiser"}
    return {"type": "correct", **where, "games": body.get("games"), "note": body.get("note")}


MAX_SCAN = 500            # cards in one deck check's scan: far more than any deck of the five games


def _deck_scan(body: dict) -> dict | None:
    """A table's deck-check scan, checked (anything odd: None): never trusted further."""
    cards = body.get("cards")
    ok = (isinstance(body.get("check"), str) and 0 < len(body["check"]) <= 40
          and isinstance(body.get("event"), int) and not isinstance(body["event"], bool) and 0 < body["event"] < 10**9
          and isinstance(body.get("player"), str) and len(body["player"]) <= 12
          and isinstance(body.get("final", False), bool)
          and isinstance(cards, list) and len(cards) <= MAX_SCAN
          and all(isinstance(c, list) and len(c) == 2 and isinstance(c[0], str) and 0 < len(c[0]) <= 64
                  and (c[1] is None or (isinstance(c[1], str) and 0 < len(c[1]) <= 80)) for c in cards))
    if not ok:
        return None
    return {"check": body["check"], "event": body["event"], "player": body["player"],
            "final": body.get("final", False), "cards": [(uid, card) for uid, card in cards]}


def _named_result(g: dict) -> tuple[str, str, float] | None:
    """(a's name, b's name, a's score) of a stored finished game whose players have names; else None."""
    players, result = g.get("players"), g.get("result")
    if (not isinstance(players, list) or len(players) != 2 or not all(isinstance(n, str) and n.strip() for n in players)
            or tuple(players) == UNNAMED or not isinstance(result, dict)):
        return None
    winner = result.get("winner")
    return players[0], players[1], (1.0 if winner == 0 else 0.0 if winner == 1 else 0.5)


__all__ = ["EventHub"]
