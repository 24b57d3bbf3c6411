"""The event's pages as functions of its state: a TV page for the room and a page per player.

Server-agnostic: each function returns a complete HTML document (inline CSS,
no external files, a few lines of JavaScript only for the round timer) or
JSON-able data, so the club's hub can mount them as routes and push
:func:`public_view` over server-sent events, and the organiser's CLI can write
them to files.  Every string that came from a person (event, player and card
names) goes through :func:`html.escape`.

Nothing hidden is shown: results, pairings and standings are public; a deck
list appears only when the event says so (``decks_public``: "always", or
"after" once the event is over), and a deck check shows only whether it
passed — never which cards were missing or extra.
"""
from __future__ import annotations

import html
import json
import time

from companion.event import moves, standings

STATUS = {"reported": "awaiting both players", "confirmed": "confirmed", "final": "entered by organiser",
          "disputed": "disputed — organiser called"}
SHORT = {"reported": "to confirm", "final": "organiser", "disputed": "disputed"}     # the TV's narrow column


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def game_title(name: str) -> str:
    """The game's title as players know it ("Sam's Battle Game"); the name itself for a game not installed."""
    from companion import games
    try:
        return games.get(name).title
    except games.UnknownGame:              # an event of a game this companion does not have
        return name


def decks_visible(state: dict) -> bool:
    return state["decks_public"] == "always" or (state["decks_public"] == "after" and moves.is_over(state))


def _result_text(p: dict, words: dict = STATUS, parts: bool = False):
    r = p.get("result")
    if p["b"] is None or not r:
        text = "bye" if p["b"] is None else "playing"
        return (text, "") if parts else text
    a, b, d = r["games"]
    score = f"{a}–{b}" + (f"–{d}" if d else "")
    status = "" if r["status"] == "confirmed" else words[r["status"]]
    if parts:
        return score, status
    return f"{score} ({status})" if status else score


def public_view(state: dict, now: float | None = None) -> dict:
    """What any page may show of the event, as JSON: no deck list unless public, deck checks as passed or not."""
    now = time.time() if now is None else now
    rows = standings.compute(state)
    points = {r.id: r.points for r in rows}
    names = {p["id"]: p["name"] for p in state["players"]}
    rnd = state["rounds"][-1] if state["rounds"] else None
    pairings = []
    if rnd:
        for p in sorted(rnd["pairings"], key=lambda p: (p["table"] is None, p["table"] or 0)):
            club = moves.table_name(state, p["table"]) if state.get("tables") and p["table"] is not None else None
            pairings.append({"table": p["table"], "club_table": club, "a": names[p["a"]], "a_points": points[p["a"]],
                             "b": names.get(p["b"]), "b_points": points.get(p["b"]), "why": p["why"],
                             "result": _result_text(p), "score_and_status": _result_text(p, SHORT, parts=True)})
    ends = None
    if rnd and rnd.get("started_at") is not None and moves.unsettled(state):
        ends = rnd["started_at"] + 60 * state["round_minutes"]
    return {
        "name": state["name"], "game": state["game"], "game_title": game_title(state["game"]),
        "format": moves.FORMATS[state["format"]],
        "round": moves.current_round(state), "rounds_planned": state["rounds_planned"],
        "over": moves.is_over(state), "round_ends_at": ends,
        "seconds_left": None if ends is None else max(0, int(ends - now)),
        "pairings": pairings,
        "standings": [r.as_dict() for r in rows],
        "players": [{"id": p["id"], "name": p["name"], "dropped": p["dropped"] is not None,
                     "deck": p["deck"] if decks_visible(state) else None} for p in state["players"]],
        "deck_checks": [{"player": names[c["player"]], "round": c["round"], "passed": c["ok"]}
                        for c in state["deck_checks"]],
    }


_STYLE = """
*{box-sizing:border-box} body{margin:0;background:#0f1620;color:#f1f4f8;font-family:'DejaVu Sans',Verdana,sans-serif}
header{display:flex;align-items:center;justify-content:space-between;padding:18px 40px;background:#18324f}
h1{font-size:48px;margin:0} .sub{font-size:30px;color:#b9cde4}
.timer{font-size:88px;font-weight:bold;font-variant-numeric:tabular-nums;color:#ffd45c}
.timer.over{color:#ff7b6b} main{display:grid;grid-template-columns:minmax(0,54fr) minmax(0,46fr);gap:36px;padding:22px 40px}
h2{font-size:34px;margin:0 0 10px;color:#9fc3ff} table{width:100%;border-collapse:collapse;table-layout:fixed}
td,th{padding:5px 10px;text-align:left;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
th{color:#9fb3c8;font-weight:normal;border-bottom:2px solid #2d4763;font-size:0.72em;text-overflow:clip}
tr:nth-child(even) td{background:#162434} tr[hidden]{display:none} .tbl{font-weight:bold;color:#ffd45c;text-align:right}
.pts{color:#9fb3c8} .res{color:#a6e3a1} .num{text-align:right;font-variant-numeric:tabular-nums}
.club{font-size:0.5em;font-weight:normal;color:#9fb3c8;overflow:hidden;text-overflow:ellipsis}
.drop{color:#7d8b99;text-decoration:line-through} .page{font-size:24px;color:#9fb3c8} .st{font-size:0.62em;color:#f5c26b}
"""


def _page(title: str, body: str, extra_style: str = "", script: str = "") -> str:
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width,initial-scale=1'>"
            f"<title>{_e(title)}</title><style>{_STYLE}{extra_style}</style></head>"
            f"<body>{body}{script}</body></html>")


def _clock(seconds: int | None) -> str:
    if seconds is None:
        return ""
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


PAIRINGS_PER_PAGE = 14       # rows readable across a room at 1920×1080 (34 px)
STANDINGS_PER_PAGE = 16
PAGE_SECONDS = 12            # a long list turns a page this often


def _pages(rows: list[str], per_page: int, kind: str) -> str:
    """Rows in pages: the first shown, the rest hidden until the page's script turns to them."""
    return "".join(f"<tr data-{kind}='{i // per_page}'{' hidden' if i >= per_page else ''}>{row}</tr>"
                   for i, row in enumerate(rows))


def _reload_on(stream: str | None) -> str:
    """JavaScript that reloads the page at each server-sent event of ``stream`` (the hub's ``/events?event=ID``)."""
    if not stream:
        return ""
    return f"new EventSource({json.dumps(stream)}).onmessage=function(){{location.reload();}};"


#: The TV page on a phone (a player checking their table from their seat): one column, text for a hand's length.
TV_NARROW = ("@media (max-width:700px){header{padding:10px 14px;flex-wrap:wrap}h1{font-size:26px}"
             ".sub{font-size:15px}.timer{font-size:40px}main{grid-template-columns:1fr;gap:18px;padding:12px 10px}"
             "h2{font-size:22px}table{font-size:14px !important;table-layout:auto}td,th{padding:4px 3px}"
             "td:nth-child(2),td:nth-child(3){white-space:normal}.page{font-size:14px}}")


def tv_page(state: dict, now: float | None = None, stream: str | None = None) -> str:
    """The room's screen at 1920×1080: round timer, this round's pairings by table, the standings.

    Long lists turn pages every ``PAGE_SECONDS`` (page 1/3 …) instead of shrinking the text.
    ``stream``: on the hub, the URL of the event's server-sent events; the page reloads at each."""
    view = public_view(state, now)
    pair_rows = [
        f"<td class='tbl'>{'' if p['table'] is None else p['table']}"
        f"{'' if not p['club_table'] else '<div class=club>' + _e(p['club_table']) + '</div>'}</td>"
        f"<td>{_e(p['a'])} <span class='pts'>{p['a_points']}</span></td>"
        f"<td>{'<i>bye</i>' if p['b'] is None else _e(p['b']) + ' <span class=pts>' + str(p['b_points']) + '</span>'}"
        f"</td><td class='res'>{_e(p['score_and_status'][0])} <span class='st'>{_e(p['score_and_status'][1])}</span>"
        f"</td>" for p in view["pairings"]]
    stand_rows = [
        f"<td class='num{' drop' if r['dropped'] else ''}'>{r['rank']}</td>"
        f"<td class='{'drop' if r['dropped'] else ''}'>{_e(r['name'])}</td>"
        f"<td class='num'>{r['points']}</td><td class='num'>{r['record']}</td>"
        f"<td class='num'>{r['omw'] * 100:.1f}</td><td class='num'>{r['gw'] * 100:.1f}</td>"
        f"<td class='num'>{r['ogw'] * 100:.1f}</td>" for r in view["standings"]]
    pair_pages = max(1, -(-len(pair_rows) // PAIRINGS_PER_PAGE))
    stand_pages = max(1, -(-len(stand_rows) // STANDINGS_PER_PAGE))
    planned = view["rounds_planned"]
    which = f"Round {view['round']}" + (f" of {planned}" if planned else " · until one undefeated")
    if view["over"]:
        which = "Final standings"
    elif view["round"] == 0:
        which = "Registration"
    timer = _clock(view["seconds_left"])
    body = (f"<header><div><h1>{_e(view['name'])}</h1><div class='sub'>{_e(view['game_title'])} · "
            f"{_e(view['format'])} · {_e(which)}</div></div>"
            f"<div class='timer{' over' if view['seconds_left'] == 0 else ''}' id='timer' "
            f"data-ends='{view['round_ends_at'] or ''}'>{timer}</div></header>"
            f"<main id='page'><section><h2>Pairings <span class='page' data-of='{pair_pages}' id='pair-page'>"
            f"{'1/' + str(pair_pages) if pair_pages > 1 else ''}</span></h2><table style='font-size:34px'>"
            "<colgroup><col style='width:11%'><col style='width:30%'><col style='width:30%'><col style='width:29%'>"
            "</colgroup><tr><th class='num'>Table</th><th>Player</th><th>Opponent</th><th>Result</th></tr>"
            f"{_pages(pair_rows, PAIRINGS_PER_PAGE, 'pair')}</table>"
            f"</section><section><h2>Standings <span class='page' data-of='{stand_pages}' id='stand-page'>"
            f"{'1/' + str(stand_pages) if stand_pages > 1 else ''}</span></h2><table style='font-size:28px'>"
            "<colgroup><col style='width:7%'><col style='width:29%'><col style='width:8%'><col style='width:14%'>"
            "<col style='width:14%'><col style='width:14%'><col style='width:14%'></colgroup>"
            "<tr><th class='num'>#</th><th>Player</th><th class='num'>Pts</th><th class='num'>W–L–D</th>"
            "<th class='num'>OMW%</th><th class='num'>GW%</th><th class='num'>OGW%</th></tr>"
            f"{_pages(stand_rows, STANDINGS_PER_PAGE, 'stand')}</table></section></main>")
    script = ("<script>(function(){var t=document.getElementById('timer');var e=parseFloat(t.dataset.ends);"
              "function f(){var s=Math.max(0,Math.floor(e-Date.now()/1000));"
              "t.textContent=String(Math.floor(s/60)).padStart(2,'0')+':'+String(s%60).padStart(2,'0');"
              "if(!s)t.className='timer over';}if(e){f();setInterval(f,1000);}"
              "var turn=0;function page(kind){var label=document.getElementById(kind+'-page');"
              "var of=parseInt(label.dataset.of);if(of<2)return;var k=turn%of;"
              "document.querySelectorAll('tr[data-'+kind+']').forEach(function(r){"
              "r.hidden=parseInt(r.getAttribute('data-'+kind))!==k;});label.textContent=(k+1)+'/'+of;}"
              f"setInterval(function(){{turn++;page('pair');page('stand');}},{PAGE_SECONDS * 1000});"
              f"{_reload_on(stream)}}})();</script>")
    return _page(f"{view['name']} — {which}", body, TV_NARROW, script=script)


def player_page(states: list[dict], name: str, ratings: dict | None = None, stream: str | None = None,
                games: list[dict] | None = None) -> str:
    """One player across ``states`` (events, oldest first): ratings, matches, head-to-head, public decks.

    ``ratings``: :func:`companion.event.ratings.rate`'s table (the hub's: every stored game of the
    club); by default the events' own matches.  ``games``: the hub's stored games of the player
    (table, game, opponent, outcome), results only.  ``stream`` as for :func:`tv_page`."""
    from companion.event.ratings import player_key, rate_events
    key = player_key(name)
    ratings = rate_events(states) if ratings is None else ratings
    blocks = []
    shown_name = name
    rating_rows = []
    for game, board in sorted(ratings.items()):
        if key in board:
            entry = board[key]
            shown_name = entry["name"]
            spark = _sparkline([h["rating"] for h in entry["history"]])
            rating_rows.append(f"<tr><td>{_e(game_title(game))}</td><td class='num'>{entry['rating']:.1f}</td>"
                               f"<td class='num'>{entry['games']}</td><td>{spark}</td></tr>")
    if rating_rows:
        blocks.append("<h2>Ratings</h2><table><tr><th>Game</th><th class='num'>Rating</th>"
                      "<th class='num'>Games</th><th>History</th></tr>" + "".join(rating_rows) + "</table>")
    h2h: dict[str, list[int]] = {}
    event_blocks = []
    for state in states:
        me = next((p for p in state["players"] if player_key(p["name"]) == key), None)
        if me is None:
            continue
        names = {p["id"]: p["name"] for p in state["players"]}
        row = next(r for r in standings.compute(state) if r.id == me["id"])
        lines = []
        for rnd in state["rounds"]:
            for p in rnd["pairings"]:
                if me["id"] not in (p["a"], p["b"]):
                    continue
                if p["b"] is None:
                    lines.append(f"<tr><td class='num'>{rnd['number']}</td><td></td><td><i>bye</i></td>"
                                 f"<td>win</td><td></td></tr>")
                    continue
                mine_a = p["a"] == me["id"]
                other = names[p["b"] if mine_a else p["a"]]
                r = p.get("result")
                outcome, score, how = "playing", "", ""
                if r:
                    a, b, d = r["games"] if mine_a else (r["games"][1], r["games"][0], r["games"][2])
                    score = f"{a}–{b}" + (f"–{d}" if d else "")
                    outcome = "win" if a > b else ("loss" if a < b else "draw")
                    how = "entered by organiser" if r.get("hand_entered") else STATUS.get(r["status"], "")
                    if r["status"] in standings.SETTLED:
                        tally = h2h.setdefault(other, [0, 0, 0])
                        tally[0 if a > b else (1 if a < b else 2)] += 1
                lines.append(f"<tr><td class='num'>{rnd['number']}</td><td class='num'>{p['table']}</td>"
                             f"<td>{_e(other)}</td><td>{outcome} {score}</td><td class='pts'>{_e(how)}</td></tr>")
        deck = ""
        if me["deck"] and decks_visible(state):
            deck = ("<p class='deck'>Deck: " + ", ".join(_e(c) for c in me["deck"]) + "</p>")
        elif me["deck"]:
            deck = "<p class='pts'>Deck list registered (shown after the event).</p>"
        checks = [c for c in state["deck_checks"] if c["player"] == me["id"]]
        if checks:
            deck += "<p>" + "; ".join(f"deck check in round {c['round']}: {'passed' if c['ok'] else 'see the organiser'}"
                                      for c in checks) + "</p>"
        dropped = " · dropped" if me["dropped"] else ""
        event_blocks.insert(0, f"<h2>{_e(state['name'])} <span class='pts'>({_e(game_title(state['game']))})</span></h2>"
                      f"<p>#{row.rank} · {row.points} points · {row.record}{dropped}</p>"
                      "<table><tr><th class='num'>Round</th><th class='num'>Table</th><th>Opponent</th>"
                      "<th>Result</th><th></th></tr>" + "".join(lines) + "</table>" + deck)
    blocks += event_blocks                      # the newest event first
    if games:
        blocks.append("<h2>Games at the club's tables</h2><table><tr><th>Table</th><th>Game</th><th>Opponent</th>"
                      "<th>Result</th></tr>" + "".join(
                          f"<tr><td>{_e(g['table'])}</td><td>{_e(g['game'])}</td><td>{_e(g['opponent'])}</td>"
                          f"<td>{_e(g['outcome'])}</td></tr>" for g in reversed(games)) + "</table>")
    if h2h:
        blocks.append("<h2>Head to head</h2><table><tr><th>Opponent</th><th class='num'>W–L–D</th></tr>" +
                      "".join(f"<tr><td>{_e(o)}</td><td class='num'>{w}–{l}–{d}</td></tr>"
                              for o, (w, l, d) in sorted(h2h.items(), key=lambda kv: kv[0].casefold())) + "</table>")
    if not blocks:
        blocks.append("<p>No games yet.</p>")
    style = ("body{font-size:22px} main{display:block;max-width:1100px;margin:auto;padding:20px}"
             "table{table-layout:auto} td{white-space:normal}"
             "h2{margin-top:28px} .deck{font-size:18px;color:#c9d6e3;white-space:normal}"
             "@media (max-width:600px){body{font-size:17px} h1{font-size:30px} header{padding:12px}"
             "td,th{padding:4px 5px} td.pts{font-size:13px} svg{width:110px}}")
    body = f"<header><h1>{_e(shown_name)}</h1></header><main id='page'>{''.join(blocks)}</main>"
    script = f"<script>{_reload_on(stream)}</script>" if stream else ""
    return _page(shown_name, body, style, script)


def _sparkline(values: list[float], width: int = 220, height: int = 36) -> str:
    if len(values) < 2:
        return ""
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1.0
    pts = " ".join(f"{i * width / (len(values) - 1):.1f},{height - (v - lo) / span * (height - 4) - 2:.1f}"
                   for i, v in enumerate(values))
    return (f"<svg width='{width}' height='{height}' viewBox='0 0 {width} {height}' preserveAspectRatio='none' "
            "role='img' aria-label='rating history'>"
            f"<polyline fill='none' stroke='#ffd45c' stroke-width='3' points='{pts}'/></svg>")


def event_json(state: dict, now: float | None = None) -> str:
    """:func:`public_view` as JSON text (for a server-sent event or an API route)."""
    return json.dumps(public_view(state, now), ensure_ascii=False)
