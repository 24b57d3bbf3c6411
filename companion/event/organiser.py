"""The organiser's pages: the event run from a browser, one form or button per action.

``/organiser/events`` lists the events and has the form that creates one;
``/organiser/event/<id>`` shows the event as the organiser needs it (players,
the round's tables with each club table's online state, disputes) with a form
for each action of :mod:`companion.event.moves` the organiser takes: register
(a late entry once round 1 has started), drop, start the next round, a result
typed by hand (a table offline or without a companion: marked as such), the
decision on a dispute, undo and redo.

The pages are behind the organiser's password like every organiser route (the
browser asks once, HTTP Basic, and sends it again with each request).  The
forms do not submit themselves (the CSP says ``form-action 'none'``): the
page's one inline script, allowed by its SHA-256, posts each form as JSON to
the same ``POST /organiser/event…`` routes the CLI and the tests use, and shows
a refusal as the one sentence the hub returned; after a change it reloads the
page, which is rendered again from the event's state.  Every string from a
person goes through :func:`html.escape`.
"""
from __future__ import annotations

import html
import secrets

from companion.event import moves, standings
from companion.event.pages import STATUS, _page, game_title
from companion.words import counted

ROUND_CHOICES = 15          # the rounds menu: 1 to 15 (the event allows up to 30 by the API)


def _e(text) -> str:
    return html.escape(str(text), quote=True)


_STYLE = """
body{font-size:18px;background:#f4f6f9;color:#17212b} header{background:#18324f;color:#fff;padding:12px 24px}
header h1{font-size:30px} header .sub{font-size:18px} main{display:block;padding:12px 24px;max-width:1100px}
h2{font-size:22px;color:#18324f;margin:22px 0 8px} a{color:#1d5fa8} header a{color:#cfe3ff}
form{display:inline-flex;flex-wrap:wrap;gap:6px;align-items:center;margin:2px 0}
form.block{display:flex;flex-direction:column;align-items:stretch;max-width:520px;gap:8px}
label{display:flex;flex-direction:column;font-size:15px;color:#3b4a59;gap:2px}
input,select,textarea{font-size:17px;padding:5px 6px;border:1px solid #8a9bb0;border-radius:4px;background:#fff}
input[type=number]{width:4.2em} textarea{min-height:3.2em}
button{font-size:17px;padding:6px 14px;border-radius:4px;border:1px solid #1d5fa8;background:#1d5fa8;color:#fff}
button.quiet{background:#fff;color:#1d5fa8} button.warn{background:#a8321d;border-color:#a8321d}
table{width:100%;border-collapse:collapse;table-layout:auto;background:#fff}
td,th{padding:6px 8px;white-space:normal;overflow:visible;border-bottom:1px solid #dfe5ec;vertical-align:middle}
th{color:#3b4a59;font-size:15px;border-bottom:2px solid #b7c4d3} tr:nth-child(even) td{background:#fff}
#message{min-height:1.4em;font-size:19px;font-weight:bold;color:#a8321d;margin:10px 0}
#message.done{color:#1c6b2c} .off{color:#a8321d;font-weight:bold} .on{color:#1c6b2c} .muted{color:#66788a}
.row{display:flex;gap:10px;flex-wrap:wrap;align-items:center}
@media (max-width:700px){header{padding:10px 12px}main{padding:8px 8px}header h1{font-size:22px}
 body{font-size:16px} td,th{padding:4px 3px} input[type=number]{width:3.2em} .hide-narrow{display:none}
 header{flex-direction:column;align-items:flex-start} .round tr.head{display:none}
 .round tr{display:flex;flex-wrap:wrap;align-items:baseline;gap:0 8px;border-bottom:1px solid #b7c4d3;padding:6px 0}
 .round td{border:0;padding:1px 2px} .round td.act{flex-basis:100%}}
"""

#: Posts each ``form[data-post]`` as JSON; a refusal's sentence goes to #message, a change reloads the page.
_SCRIPT = r"""(function(){
var msg=document.getElementById('message');
function say(text){msg.textContent=text;msg.className='';}
function value(el){
 var v=el.value.trim(),kind=el.getAttribute('data-kind');
 if(kind==='int'){return v===''?undefined:(/^-?[0-9]+$/.test(v)?parseInt(v,10):v);}
 if(kind==='lines'){var l=v.split('\n').map(function(s){return s.trim();}).filter(Boolean);return l.length?l:undefined;}
 if(kind==='list'){var t=v.split(/[\s,]+/).filter(Boolean);return t.length?t:undefined;}
 if(kind==='json'){if(v==='')return undefined;try{return JSON.parse(v);}catch(e){return v;}}
 return v===''?undefined:v;}
document.querySelectorAll('form[data-post]').forEach(function(form){
 form.addEventListener('submit',function(ev){
  ev.preventDefault();
  var body={};
  form.querySelectorAll('[name]').forEach(function(el){
   var v=value(el);
   if(el.name.indexOf('games.')===0){body.games=body.games||[0,0,0];body.games[+el.name.slice(6)]=v===undefined?0:v;}
   else if(v!==undefined){body[el.name]=v;}});
  say('');
  fetch(form.getAttribute('data-post'),{method:'POST',credentials:'same-origin',
    headers:{'Content-Type':'application/json'},body:JSON.stringify(body)})
  .then(function(r){var json=(r.headers.get('Content-Type')||'').indexOf('application/json')===0;
    return (json?r.json():r.text().then(function(t){return {error:t.trim()};})).then(function(d){return [r.ok,d];});})
  .then(function(x){
    if(!x[0]){say(x[1].error||'the hub refused that');return;}
    var next=form.getAttribute('data-next');
    if(next){location.href=next.replace('{event}',x[1].event);}else{location.reload();}})
  .catch(function(){say('the hub did not answer; nothing was changed');});});});
})();"""


def _form(post: str, fields: str, button: str, cls: str = "", button_cls: str = "", next_url: str = "") -> str:
    nxt = f" data-next='{_e(next_url)}'" if next_url else ""
    return (f"<form data-post='{_e(post)}'{nxt}{' class=' + cls if cls else ''}>{fields}"
            f"<button type='submit'{' class=' + button_cls if button_cls else ''}>{_e(button)}</button></form>")


def _hidden(name: str, value, kind: str = "") -> str:
    return f"<input type='hidden' name='{name}' value='{_e(value)}'{' data-kind=' + kind if kind else ''}>"


def _games_fields(names: tuple[str, str], games=(0, 0, 0)) -> str:
    """Three numbers: games won by each player and drawn (``games``: what the table reported, to amend)."""
    return "".join(f"<label>{_e(label)}<input type='number' min='0' max='3' name='games.{i}' data-kind='int' "
                   f"value='{int(games[i])}' aria-label='{_e(label)}'></label>"
                   for i, label in enumerate((f"{names[0]} won", f"{names[1]} won", "drawn")))


def events_page(events: list[dict], available_games: list[str]) -> str:
    """The list of events (their states, each with its ``id``) and the form that creates one."""
    rows = "".join(f"<tr><td><a href='/organiser/event/{e['id']}'>{_e(e['name'])}</a></td>"
                   f"<td>{_e(game_title(e['game']))}</td><td>{_e(moves.FORMATS.get(e['format'], e['format']))}</td>"
                   f"<td><a href='/event/{e['id']}'>TV page</a></td></tr>" for e in reversed(events))
    games = "".join(f"<option value='{_e(g)}'>{_e(game_title(g))}</option>" for g in available_games)
    rounds = "<option value=''>until one player is undefeated</option>" + "".join(
        f"<option value='{n}'{' selected' if n == 4 else ''}>{n}</option>" for n in range(1, ROUND_CHOICES + 1))
    fields = (
        "<label>Event's name<input name='name' maxlength='60' required></label>"
        f"<label>Game<select name='game'>{games}</select></label>"
        "<label>Format<select name='format'><option value='bo1'>single games</option>"
        "<option value='bo3'>best of three</option></select></label>"
        f"<label>Rounds<select name='rounds' data-kind='int'>{rounds}</select></label>"
        "<label>Minutes per round<input type='number' name='round_minutes' data-kind='int' value='50' min='1' "
        "max='600'></label>"
        "<label>Deck lists public<select name='decks_public'><option value='after'>after the event</option>"
        "<option value='always'>always</option><option value='never'>never</option></select></label>"
        "<label>Club tables, in order (optional; table 1 is the first)<input name='tables' data-kind='list' "
        "placeholder='t1, t2, t3'></label>"
        "<label>Game options (JSON, optional)<textarea name='options' data-kind='json' "
        "placeholder='{}'></textarea></label>"
        + _hidden("seed", secrets.randbelow(1_000_000), "int"))
    body = ("<header><h1>Organiser</h1><div class='sub'>Events on this hub</div></header><main id='page'>"
            "<p id='message' role='alert'></p>"
            + (f"<h2>Events</h2><table><tr><th>Event</th><th>Game</th><th>Format</th><th></th></tr>{rows}</table>"
               if rows else "")
            + "<h2>Create an event</h2>"
            + _form("/organiser/event", fields, "Create the event", "block", next_url="/organiser/event/{event}")
            + "</main>")
    return _page("Organiser — events", body, _STYLE, script=f"<script>{_SCRIPT}</script>")


def _last_action(log: list[dict], names: dict) -> str:
    if not log:
        return ""
    a = log[-1]
    who = names.get(a.get("player"), a.get("name") or "")
    where = f" table {a['table']}" if a.get("table") is not None else ""
    kind = {"report": "result", "start_round": "start round", "deck_check": "deck check of"}.get(a["type"], a["type"])
    return f"{kind} {who}{where}".strip()


def deck_check_text(state: dict, player_id: str) -> str:
    """The player's last deck check for the organiser's eyes only: which cards were missing or extra."""
    checks = [c for c in state["deck_checks"] if c["player"] == player_id]
    if not checks:
        return "—"
    c = checks[-1]
    at = f"round {c['round']}" if c["round"] else "before round 1"
    table = f", {c['check_ref']['table']}" if c.get("check_ref") else ""
    if c["ok"]:
        return f"passed ({c.get('cards', '?')} cards, {at}{table})"
    parts = []
    for key, word in (("missing", "missing"), ("extra", "not on the list")):
        if c.get(key):
            parts.append(f"{word}: " + ", ".join(f"{n}× {card}" for card, n in sorted(c[key].items())))
    if c.get("unregistered"):
        parts.append(counted(c["unregistered"], "unknown tag"))
    return f"see the organiser ({at}{table}) — " + "; ".join(parts or ["no cards read"])


def event_page(state: dict, event_id: int, log: list[dict], club_tables: dict[str, bool]) -> str:
    """The organiser's view of one event: ``log`` its actions (for the undo button's label),
    ``club_tables`` the hub's tables → online."""
    post = f"/organiser/event/{event_id}"
    names = {p["id"]: p["name"] for p in state["players"]}
    rnd_no = moves.current_round(state)
    over = moves.is_over(state)
    planned = state["rounds_planned"]
    which = ("Final standings" if over else "Registration" if rnd_no == 0
             else f"Round {rnd_no}" + (f" of {planned}" if planned else " · until one undefeated"))
    points = {r.id: r.points for r in standings.compute(state)}

    player_rows = []
    for p in state["players"]:
        status = "playing"
        if p["dropped"]:
            status = f"dropped after round {p['dropped']['after_round']}" + (
                " (their own choice)" if p["dropped"]["by"] == "player" else "")
        elif p["joined"] > 1:
            status = f"late entry, from round {p['joined']}"
        deck = f"{len(p['deck'])} cards" if p["deck"] else "—"
        check = deck_check_text(state, p["id"])
        drop = "" if p["dropped"] or over else _form(f"{post}/drop", _hidden("player", p["id"]), "Drop",
                                                     button_cls="quiet")
        player_rows.append(f"<tr><td>{_e(p['name'])}</td><td class='num'>{points[p['id']]}</td>"
                           f"<td>{_e(status)}</td><td class='hide-narrow'>{_e(deck)}</td><td class='check'>{_e(check)}</td>"
                           f"<td>{drop}</td></tr>")
    players = ("<table><tr><th>Player</th><th class='num'>Pts</th><th>Status</th><th class='hide-narrow'>Deck</th>"
               "<th>Last deck check</th><th></th></tr>" + "".join(player_rows) + "</table>") if player_rows else \
        "<p class='muted'>Nobody has registered yet.</p>"
    register = "" if over else _form(
        f"{post}/register",
        "<label>Name<input name='name' maxlength='60' required></label>"
        "<label>Deck list (games with decks; one card id a line, optional)<textarea name='deck' "
        "data-kind='lines'></textarea></label>",
        "Late entry" if rnd_no else "Register", "block")

    tables = ""
    if state["rounds"]:
        rows = []
        for p in sorted(state["rounds"][-1]["pairings"], key=lambda p: (p["table"] is None, p["table"] or 0)):
            if p["b"] is None:
                rows.append(f"<tr><td></td><td></td><td>{_e(names[p['a']])}</td><td><i>bye</i></td><td>win</td>"
                            "<td class='act'></td></tr>")
                continue
            club = moves.table_name(state, p["table"])
            online = club_tables.get(club)
            where = (f"{_e(club)} <span class='{'on' if online else 'off'}'>"
                     f"{'online' if online else 'offline' if online is False else 'never joined'}</span>")
            r = p.get("result")
            pair = (names[p["a"]], names[p["b"]])
            where_fields = _hidden("round", rnd_no, "int") + _hidden("table", p["table"], "int")
            if not r:
                shown, action = "playing", _form(f"{post}/result", where_fields + _games_fields(pair),
                                                 "Enter by hand")
            else:
                a, b, d = r["games"]
                score = f"{a}–{b}" + (f"–{d}" if d else "")
                how = "entered by hand" if r.get("hand_entered") else STATUS.get(r["status"], r["status"])
                shown, action = f"{score} ({how})", ""
                if r["status"] == "disputed":
                    dispute = r.get("dispute") or {}
                    shown += f" — {names.get(dispute.get('by'), '?')}: “{dispute.get('reason', '')}”"
                    action = _form(f"{post}/correct", where_fields + _games_fields(pair, r["games"])
                                   + "<label>Note<input name='note' maxlength='200' placeholder='judge: …'></label>",
                                   "Decide")
            rows.append(f"<tr><td class='num'>{p['table']}</td><td>{where}</td><td>{_e(pair[0])}</td>"
                        f"<td>{_e(pair[1])}</td><td>{_e(shown)}</td><td class='act'>{action}</td></tr>")
        tables = (f"<h2>Round {rnd_no}</h2><table class='round'><tr class='head'><th class='num'>Table</th><th>Club table</th><th>Player</th>"
                  "<th>Opponent</th><th>Result</th><th></th></tr>" + "".join(rows) + "</table>")
    start = "" if over else _form(f"{post}/start_round", "", f"Start round {rnd_no + 1}")
    last = _last_action(log, names)
    history = _form(f"{post}/undo", "", f"Undo: {last}" if last else "Undo", button_cls="warn") + \
        _form(f"{post}/redo", "", "Redo", button_cls="quiet")
    body = (f"<header><h1>{_e(state['name'])}</h1><div class='sub'>{_e(game_title(state['game']))} · "
            f"{_e(moves.FORMATS[state['format']])} · {state['round_minutes']} minutes a round · {_e(which)} · "
            f"<a href='/event/{event_id}'>TV page</a> · <a href='/organiser/events'>all events</a></div></header>"
            "<main id='page'><p id='message' role='alert'></p>"
            f"<div class='row'>{start}{history}</div>{tables}"
            f"<h2>Players</h2>{players}"
            + (f"<h2>{'Late entry' if rnd_no else 'Register a player'}</h2>{register}" if register else "")
            + "</main>")
    return _page(f"Organiser — {state['name']}", body, _STYLE, script=f"<script>{_SCRIPT}</script>")


__all__ = ["events_page", "event_page"]
