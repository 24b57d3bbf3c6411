// The club's pages: render the table's shared screen (its retained "live" message) and follow it
// live over server-sent events. Text only (textContent): nothing a table sends becomes markup.
"use strict";
(function () {
  var page = document.body.getAttribute("data-page");
  var data = JSON.parse(document.getElementById("initial").textContent);
  var root = document.getElementById("page");
  var scale = parseFloat(document.documentElement.getAttribute("data-scale")) || 1;
  document.documentElement.style.fontSize = (scale * 100) + "%";
  var updates = 0;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function players(live) {
    var p = (live && live.view && live.view.players) || [];
    return p.length === 2 ? p[0] + " v " + p[1] : "";
  }
  function cardText(live, card) {
    if (card && typeof card === "object") return card.hidden ? "face down" : (card.label || card.name || "card");
    return (live.labels && live.labels[card]) || String(card);
  }
  function zoneOwner(id) { var m = /^([01])\./.exec(id); return m ? Number(m[1]) : null; }
  function zoneName(id) { return id.replace(/^[01]\./, "").replace(/[_-]/g, " ").replace(/([a-z])(\d)/g, "$1 $2"); }

  function counters(live, seat) {
    var box = el("dl", "counters");
    ((live.view && live.view.counters) || []).forEach(function (c) {
      if ((c.seat === undefined ? null : c.seat) !== seat) return;
      var row = el("div", "counter");
      row.appendChild(el("dt", null, c.label));
      row.appendChild(el("dd", null, c.value));
      box.appendChild(row);
    });
    return box;
  }
  function zones(live, seat) {
    var box = el("div", "zones");
    var zs = (live.view && live.view.zones) || {};
    Object.keys(zs).forEach(function (id) {
      if (zoneOwner(id) !== seat) return;
      var z = zs[id] || {};
      var zone = el("section", "zone");
      zone.appendChild(el("h3", null, zoneName(id)));
      var cards = el("ul", "cards");
      (z.cards || []).forEach(function (card) {
        var hidden = card && typeof card === "object" && card.hidden;
        cards.appendChild(el("li", hidden ? "card hidden" : "card", cardText(live, card)));
      });
      zone.appendChild(cards);
      if (z.summary) zone.appendChild(el("p", "summary", z.summary));
      box.appendChild(zone);
    });
    return box;
  }
  function announcement() {
    return data.announcement ? el("p", "announcement", data.announcement) : el("span");
  }

  function renderTable() {
    root.textContent = "";
    var live = data.live;
    var head = el("header");
    head.appendChild(el("h1", null, "Table " + data.table));
    head.appendChild(el("span", data.online ? "status online" : "status offline", data.online ? "live" : "offline"));
    root.appendChild(head);
    root.appendChild(announcement());
    if (!live) { root.appendChild(el("p", "waiting", "No game on this table yet.")); return; }
    var game = el("div", "game");
    game.appendChild(el("h2", null, live.title + (players(live) ? " · " + players(live) : "")));
    game.appendChild(el("p", "phase", (live.view && live.view.phase_label) || ""));
    root.appendChild(game);
    var board = el("div", "board");
    var names = (live.view && live.view.players) || ["Seat 1", "Seat 2"];
    [0, 1].forEach(function (seat) {
      var side = el("section", "seat" + (live.view && live.view.active_seat === seat ? " active" : ""));
      side.appendChild(el("h2", null, names[seat]));
      side.appendChild(counters(live, seat));
      side.appendChild(zones(live, seat));
      board.appendChild(side);
    });
    root.appendChild(board);
    var shared = counters(live, null);
    if (shared.childNodes.length) { var s = el("section", "shared"); s.appendChild(shared); root.appendChild(s); }
    var common = zones(live, null);
    if (common.childNodes.length) root.appendChild(common);
    var evs = el("section", "events");
    evs.appendChild(el("h2", null, "Last events"));
    var list = el("ol");
    (live.events || []).slice().reverse().forEach(function (e) { list.appendChild(el("li", null, e.text)); });
    evs.appendChild(list);
    root.appendChild(evs);
    root.setAttribute("data-n", String(live.n));
    root.setAttribute("data-updates", String(updates));
  }

  function renderTables() {
    root.textContent = "";
    var head = el("header");
    head.appendChild(el("h1", null, "Club tables"));
    root.appendChild(head);
    root.appendChild(announcement());
    var list = el("ul", "tables");
    if (!data.tables.length) root.appendChild(el("p", "waiting", "No table has reported yet."));
    data.tables.forEach(function (t) {
      var li = el("li", t.online ? "table online" : "table offline");
      var a = el("a", null, "Table " + t.table);
      a.href = "/table/" + encodeURIComponent(t.table) + location.search;
      li.appendChild(a);
      li.appendChild(el("span", "status", t.online ? "live" : "offline"));
      if (t.live) {
        li.appendChild(el("span", "title", t.live.title + (players(t.live) ? " · " + players(t.live) : "")));
        li.appendChild(el("span", "phase", (t.live.view && t.live.view.phase_label) || ""));
      }
      list.appendChild(li);
    });
    root.appendChild(list);
    root.setAttribute("data-updates", String(updates));
  }

  function render() {
    if (page === "table") renderTable();
    else if (page === "tables") renderTables();
    else { root.textContent = ""; root.appendChild(el("h1", null, "No table " + data.table + " at this club")); }
  }

  function apply(u) {
    updates += 1;
    if ("announcement" in u && !u.table) { data.announcement = u.announcement; return render(); }
    if (page === "table" && u.table === data.table) {
      data.online = u.online;
      if (u.live) data.live = u.live;
    } else if (page === "tables") {
      var found = data.tables.filter(function (t) { return t.table === u.table; })[0];
      if (!found) { found = { table: u.table }; data.tables.push(found); data.tables.sort(function (a, b) { return a.table < b.table ? -1 : 1; }); }
      found.online = u.online;
      if (u.live) found.live = u.live;
    }
    render();
  }

  render();
  if (page === "table" || page === "tables") {
    var src = new EventSource(page === "table" ? "/events?table=" + encodeURIComponent(data.table) : "/events");
    src.onmessage = function (m) { apply(JSON.parse(m.data)); };
  }
})();
