"""The hub's pages: live tables, a page per table, server-sent events; read-only for everybody.

*Why the standard library's* ``ThreadingHTTPServer``: the pages are four GET
routes, a JSON API and one event stream, served to a few dozen browsers
(spectators, an OBS browser source) on a club's LAN.  A framework (Flask,
aiohttp) would add a dependency and a server model to keep up to date for no
feature used here; SSE is a long-lived ``text/event-stream`` response, which
a thread per client serves plainly (32 tables' spectators are tens of threads).

Every page shows what the table's shared screen shows: the table's retained
``live`` message, itself ``view(state, None)`` and redacted events.  The pages
render it with ``textContent`` only (a player's name never becomes markup),
under a Content-Security-Policy that runs no script but ours.

Changing anything takes the organiser's password (HTTP Basic, user
``organiser``, checked against the PBKDF2 hash in hub.toml): see
:meth:`Routes.add` with ``organiser=True``.  The one change the hub itself
offers is an announcement line shown on every page; the event layer adds its
own routes the same way.
"""
from __future__ import annotations

import base64
import queue
import re
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources

from companion.club.config import NAME, check_password
from companion.session import dumps

ANNOUNCE_SCHEMA = """
CREATE TABLE IF NOT EXISTS hub_announcement (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    text  TEXT NOT NULL,
    at_ms INTEGER NOT NULL
);
"""
MAX_POST_BYTES = 16_000
KEEPALIVE = 15.0                   # seconds between SSE comments, so proxies and OBS keep the stream open
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                               "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors *",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


@dataclass
class Request:
    method: str
    path: str
    query: dict
    match: re.Match
    body: bytes = b""
    headers: dict = field(default_factory=dict)


@dataclass
class Response:
    status: int
    body: bytes
    content_type: str = "text/html; charset=utf-8"
    headers: dict = field(default_factory=dict)       # e.g. a page's own Content-Security-Policy


class Routes:
    """Method + path pattern → handler.  ``organiser=True``: only with the organiser's password."""

    def __init__(self):
        self._routes: list[tuple[str, re.Pattern, object, bool]] = []

    def add(self, method: str, pattern: str, handler, organiser: bool = False) -> None:
        if method != "GET" and not organiser:
            raise ValueError("a route that changes anything needs the organiser's password (organiser=True)")
        self._routes.append((method, re.compile(f"^{pattern}$"), handler, organiser))

    def find(self, method: str, path: str):
        allowed = False
        for m, pattern, handler, organiser in self._routes:
            match = pattern.match(path)
            if match:
                if m == method:
                    return handler, match, organiser
                allowed = True
        return ("not allowed" if allowed else None), None, False


def _static(name: str) -> bytes:
    return resources.files("companion.club").joinpath("static", name).read_bytes()


def _embed(data) -> str:
    """JSON inside a ``<script type="application/json">``: ``<`` escaped, so no text can close the tag."""
    return dumps(data).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _html(title: str, kind: str, data, query: dict) -> bytes:
    theme = "dark" if query.get("theme") == "dark" else "light"
    scale = query.get("scale", "1")
    scale = scale if re.fullmatch(r"[0-3](\.[0-9]{1,2})?", scale) else "1"
    return (f'<!doctype html><html lang="en" class="{theme}" data-scale="{scale}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{_text(title)}</title><link rel="stylesheet" href="/static/club.css"></head>'
            f'<body data-page="{kind}"><main id="page"></main>'
            f'<script type="application/json" id="initial">{_embed(data)}</script>'
            f'<script src="/static/club.js"></script></body></html>').encode()


def _text(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


class HubServer:
    """The hub's HTTP server on its own threads; ``close()`` stops it."""

    def __init__(self, hub, address: tuple[str, int]):
        self.hub = hub
        self.store = hub.store
        self.store.add_schema(ANNOUNCE_SCHEMA)
        self.routes = Routes()
        self._subscribers: list[tuple[str | None, queue.Queue]] = []
        self._lock = threading.Lock()
        self.routes.add("GET", "/", self.page_tables)
        self.routes.add("GET", r"/table/(?P<table>[a-z0-9][a-z0-9-]{0,31})", self.page_table)
        self.routes.add("GET", "/api/tables", lambda r: self._json(self._tables()))
        self.routes.add("GET", r"/api/table/(?P<table>[a-z0-9][a-z0-9-]{0,31})", self.api_table)
        self.routes.add("GET", "/api/games", lambda r: self._json(self.store.games()))
        self.routes.add("GET", r"/static/(?P<name>club\.(css|js))", self.static)
        self.routes.add("POST", "/organiser/announce", self.announce, organiser=True)
        hub.listeners.append(self._changed)
        server = self

        class Handler(_Handler):
            hub_server = server

        self.httpd = ThreadingHTTPServer(address, Handler)
        self.httpd.daemon_threads = True
        self.address = self.httpd.server_address
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="club-hub-http", daemon=True)

    def start(self) -> "HubServer":
        self._thread.start()
        return self

    def close(self) -> None:
        with self._lock:
            for _, q in self._subscribers:
                q.put(None)
        self.httpd.shutdown()
        self.httpd.server_close()

    @property
    def url(self) -> str:
        host, port = self.address[:2]
        return f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{port}"

    # ---- pages and API ----------------------------------------------------------------------------
    def _announcement(self) -> str | None:
        with self.store.read() as db:
            row = db.execute("SELECT text FROM hub_announcement WHERE id = 1").fetchone()
        return row[0] if row else None

    def _tables(self) -> list[dict]:
        return [{"table": t["table"], "online": t["online"], "live": t["live"]} for t in self.store.tables()]

    def page_tables(self, r: Request) -> Response:
        return Response(200, _html("Club tables", "tables",
                                   {"tables": self._tables(), "announcement": self._announcement()}, r.query))

    def page_table(self, r: Request) -> Response:
        name = r.match["table"]
        found = self.store.table(name)
        if found is None:
            return Response(404, _html("No such table", "missing", {"table": name}, r.query))
        data = {"table": name, "online": found["online"], "live": found["live"], "announcement": self._announcement()}
        return Response(200, _html(f"Table {name}", "table", data, r.query))

    def api_table(self, r: Request) -> Response:
        found = self.store.table(r.match["table"])
        if found is None:
            return Response(404, b'{"error": "no such table"}', "application/json")
        return self._json({"table": found["table"], "online": found["online"], "live": found["live"]})

    def static(self, r: Request) -> Response:
        name = r.match["name"]
        kind = "text/css" if name.endswith(".css") else "text/javascript"
        return Response(200, _static(name), kind + "; charset=utf-8")

    def announce(self, r: Request) -> Response:
        form = urllib.parse.parse_qs(r.body.decode("utf-8", "replace"))
        text = (form.get("text") or [""])[0].strip()[:200]
        with self.store.tx() as db:
            if text:
                db.execute("INSERT OR REPLACE INTO hub_announcement(id, text, at_ms) VALUES (1, ?, ?)",
                           (text, int(time.time() * 1000)))
            else:
                db.execute("DELETE FROM hub_announcement")
        self._broadcast(None, {"announcement": text or None})
        return self._json({"announcement": text or None})

    @staticmethod
    def _json(data) -> Response:
        return Response(200, dumps(data).encode(), "application/json")

    # ---- server-sent events --------------------------------------------------------------------------
    def _changed(self, table: str, live) -> None:
        """The hub stored a table's new screen (or its online status): tell every page that shows it."""
        if live is None:
            found = self.store.table(table)
            update = {"table": table, "online": found["online"] if found else False, "live": found and found["live"]}
        else:
            update = {"table": table, "online": True, "live": live}
        self._broadcast(table, update)

    def _broadcast(self, table: str | None, update: dict) -> None:
        data = dumps(update)
        with self._lock:
            for wanted, q in self._subscribers:
                if table is None or wanted == table or (wanted is None and not table.startswith("event:")):
                    q.put(data)

    def broadcast_event(self, event_id: int, update: dict) -> None:
        """Tell the pages of event ``event_id`` (``/events?event=ID``) that it changed."""
        self._broadcast(f"event:{event_id}", update)

    def stream(self, handler: "_Handler", table: str | None) -> None:
        q: queue.Queue = queue.Queue(maxsize=1000)
        with self._lock:
            self._subscribers.append((table, q))
        try:
            handler.send_response(200)
            handler.send_header("Content-Type", "text/event-stream; charset=utf-8")
            for k, v in SECURITY_HEADERS.items():
                handler.send_header(k, v)
            handler.end_headers()
            handler.wfile.write(b"retry: 1000\n\n")
            handler.wfile.flush()
            while True:
                try:
                    data = q.get(timeout=KEEPALIVE)
                except queue.Empty:
                    handler.wfile.write(b": keepalive\n\n")
                    handler.wfile.flush()
                    continue
                if data is None:
                    return
                handler.wfile.write(b"data: " + data.encode() + b"\n\n")
                handler.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            return
        finally:
            with self._lock:
                self._subscribers.remove((table, q))

    def authorised(self, headers) -> bool:
        stored = self.hub.config.organiser_hash
        auth = headers.get("Authorization", "")
        if not stored or not auth.startswith("Basic "):
            return False
        try:
            user, _, password = base64.b64decode(auth[6:], validate=True).decode("utf-8").partition(":")
        except (ValueError, UnicodeDecodeError):
            return False
        return user == "organiser" and check_password(password, stored)


class _Handler(BaseHTTPRequestHandler):
    hub_server: HubServer
    server_version = "companion-hub"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):       # a spectator's visit is not worth a line on the console
        pass

    def do_GET(self):
        self._serve("GET")

    def do_POST(self):
        self._serve("POST")

    def do_PUT(self):
        self._serve("PUT")

    def do_DELETE(self):
        self._serve("DELETE")

    def _serve(self, method: str) -> None:
        url = urllib.parse.urlsplit(self.path)
        query = {k: v[0] for k, v in urllib.parse.parse_qs(url.query).items()}
        server = self.hub_server
        if method == "GET" and url.path == "/events":
            table = query.get("table")
            if table is not None and not NAME.match(table):
                return self._send(Response(404, b"no such table\n", "text/plain"))
            event = query.get("event")
            if event is not None:                 # an event's pages: only that event's news
                if not event.isdigit() or len(event) > 9:
                    return self._send(Response(404, b"no such event\n", "text/plain"))
                table = f"event:{int(event)}"
            return server.stream(self, table)
        handler, match, organiser = server.routes.find(method, url.path)
        if handler is None:
            return self._send(Response(404, b"not found\n", "text/plain; charset=utf-8"))
        if handler == "not allowed":
            return self._send(Response(405, b"these pages are read-only\n", "text/plain; charset=utf-8"),
                              {"Allow": "GET"})
        body = b""
        if method == "POST":
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_POST_BYTES:
                return self._send(Response(413, b"too long\n", "text/plain"))
            body = self.rfile.read(length)
        if organiser and not server.authorised(self.headers):
            time.sleep(0.5)                       # a guesser gets two tries a second per connection
            return self._send(Response(401, b"the organiser's password is needed\n", "text/plain; charset=utf-8"),
                              {"WWW-Authenticate": 'Basic realm="club organiser", charset="UTF-8"'})
        self._send(handler(Request(method, url.path, query, match, body, dict(self.headers))))

    def _send(self, response: Response, extra: dict | None = None) -> None:
        self.send_response(response.status)
        self.send_header("Content-Type", response.content_type)
        self.send_header("Content-Length", str(len(response.body)))
        for k, v in {**SECURITY_HEADERS, **response.headers, **(extra or {})}.items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(response.body)
