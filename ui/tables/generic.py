"""The table screen every game gets: its zones laid out like the table, driven by the view.

It knows nothing about any one game.  Everything comes from the engine
contract (see :mod:`companion.engine`):

* ``rules.zones(options)`` — the zones, laid out by seat: seat 0's zones in a
  row at the top (the far side of the table), shared zones in the middle,
  seat 1's at the bottom.  A game's own screen overrides :meth:`rows` when its
  table has more than one row per player;
* ``session.view(None)`` — the shared screen's view: active seat, phase,
  counters (adjustable ones get − and +), what lies in each zone (face-down
  cards arrive as ``{"hidden": True}`` and are drawn as card backs; the screen
  never asks for a seat's view);
* ``rules.legal_actions(state)`` — the actions that are not a card on a pad
  (``scan_for`` returns None for them) become buttons;
* the session's events, redacted for the shared screen: rejected scans become
  a banner that says why and where the card belongs, and a ``battle_result``
  or ``game_over`` opens the result view with the engine's explanation.
"""
from __future__ import annotations

from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.engine import Zone
from ui import theme
from ui.confirm import ConfirmButton
from ui.kv import load_kv
from ui.widgets import BigButton, CounterBox, ZoneBox

MAX_ACTION_BUTTONS = 4
RESULT_EVENTS = ("battle_result", "game_over")
#: actions that end a game for good: their buttons act on a second tap (ui.confirm)
CONFIRM_ACTIONS = frozenset({"forfeit"})


class TableScreen(Screen):
    """One game in play.  ``attach`` gives it the session; it then follows it on its own."""

    game_title = StringProperty("")
    active_seat = ObjectProperty(None, allownone=True)
    active_name = StringProperty("")
    phase_label = StringProperty("")
    last_event = StringProperty("")
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    simulated = BooleanProperty(False)
    #: the card the simulated table will place on the next zone touched (None: nothing picked)
    sim_card = ObjectProperty(None, allownone=True)
    sim_lifting = BooleanProperty(False)

    #: action types that are the same whoever presses them (one button, no name on it)
    SHARED_ACTIONS: frozenset = frozenset()

    controller = None
    session = None

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.zone_boxes: dict[str, ZoneBox] = {}
        self.counter_boxes: dict[str, CounterBox] = {}
        self._counter_ids: list[str] = []
        self.result_view = None

    # ---- life cycle ----------------------------------------------------------------
    def attach(self, controller, session) -> None:
        self.controller = controller
        self.session = session
        self.simulated = controller.simulated
        self.game_title = session.rules.title
        controller.bind(on_session_events=self._on_session_events)
        from ui.screens.result import ResultView
        self.result_view = ResultView(screen=self)       # built once: scoring must not wait for it
        self.build_board()
        self.refresh()

    def detach(self) -> None:
        if self.controller is not None:
            self.controller.unbind(on_session_events=self._on_session_events)
        if self.result_view is not None:
            self.result_view.dismiss()
        self.session = None

    # ---- layout --------------------------------------------------------------------
    #: a seat with more zones than this gets one row per kind of zone (Vita Luna: white, grey)
    MAX_ZONES_PER_ROW = 7

    def rows(self, zones: list[Zone]) -> list[list[Zone]]:
        """Zones in rows as they lie on the table, far side (seat 0) first.

        A seat with many zones gets one row per kind ("0.white1" and
        "0.grey1" are kinds "white" and "grey"); the kind the game lists first
        lies nearest the middle of the table, facing the opponent.
        """
        by_seat = {0: [], None: [], 1: []}
        for zone in zones:
            by_seat.setdefault(zone.seat, []).append(zone)
        rows = []
        for seat in (0, None, 1):
            mine = by_seat[seat]
            if not mine:
                continue
            if seat is None or len(mine) <= self.MAX_ZONES_PER_ROW:
                rows.append(mine)
                continue
            kinds: dict[str, list[Zone]] = {}
            for zone in mine:
                kinds.setdefault(zone_kind(zone.id), []).append(zone)
            groups = list(kinds.values())
            rows.extend(reversed(groups) if seat == 0 else groups)
        return rows

    def build_board(self) -> None:
        board = self.ids.board
        board.clear_widgets()
        self.zone_boxes.clear()
        players = self.session.options.get("players") or ["North", "South"]
        for row in self.rows(self.session.rules.zones(self.session.options)):
            line = BoxLayout(spacing=4 * self._scale())
            for zone in row:
                box = ZoneBox(zone_id=zone.id, title=zone_title(zone.label, players), seat=zone.seat)
                box.bind(on_release=self.on_zone_touched)
                self.zone_boxes[zone.id] = box
                line.add_widget(box)
            board.add_widget(line)

    @staticmethod
    def _scale() -> float:
        from kivy.app import App
        app = App.get_running_app()
        return app.scale if app else 1.0

    # ---- showing the view ------------------------------------------------------------
    def refresh(self) -> None:
        session = self.session
        if session is None:
            return
        view = session.view(None)          # the shared screen: never a seat's view
        self.show_view(view)
        self.can_undo = session.can_undo()
        self.can_redo = session.can_redo()
        self.show_actions(self.button_actions())

    def show_view(self, view: dict) -> None:
        players = view.get("players") or ["North", "South"]
        self.active_seat = view.get("active_seat")
        self.active_name = players[self.active_seat] if self.active_seat in (0, 1) else ""
        self.phase_label = view.get("phase_label", "")
        self.ids.badge0.text = players[0]
        self.ids.badge1.text = players[1]
        self.show_counters(view.get("counters", []))
        zones = view.get("zones", {})
        for zone_id, box in self.zone_boxes.items():
            self.show_zone(box, zones.get(zone_id, {"cards": [], "summary": ""}))
            box.highlight = box.seat is not None and box.seat == self.active_seat

    def show_zone(self, box: ZoneBox, zone_view: dict) -> None:
        cards = zone_view.get("cards", [])
        box.cards = [self.card_face(c) for c in cards]
        box.summary = zone_view.get("summary") or stack_summary(cards)

    def card_face(self, card) -> tuple[str, bool]:
        """``(text, hidden)`` for one entry of a zone's ``cards``."""
        if isinstance(card, dict) and card.get("hidden"):
            return "?", True
        return self.controller.card_text(card), False

    def show_counters(self, counters: list[dict]) -> None:
        ids = [c["id"] for c in counters]
        if ids != self._counter_ids:
            self._build_counters(counters)
        for c in counters:
            box = self.counter_boxes[c["id"]]
            box.value = c.get("value", 0)
            box.title = c.get("label", c["id"])
            box.adjustable = bool(c.get("adjustable"))

    def _build_counters(self, counters: list[dict]) -> None:
        strips = (self.ids.counters0, self.ids.counters1)
        for strip in strips:
            strip.clear_widgets()
        self.counter_boxes.clear()
        shared = 0
        players = self.session.options.get("players") or ["North", "South"]
        for c in counters:
            seat = c.get("seat")
            box = CounterBox(counter_id=c["id"], seat=seat, owner=players[seat] if seat in (0, 1) else "")
            box.bind(on_adjust=self.on_counter_adjust)
            self.counter_boxes[c["id"]] = box
            seat = c.get("seat")
            if seat in (0, 1):
                strips[seat].add_widget(box)
            else:                                       # shared counters alternate between the strips
                strips[shared % 2].add_widget(box)
                shared += 1
        self._counter_ids = [c["id"] for c in counters]

    # ---- buttons for actions that are not a card on a pad ----------------------------------
    #: action fields that say where or which, shown on a button ("Undeploy land 2: North")
    DETAIL_FIELDS = ("lane", "land", "position", "zone", "to", "choice", "declare", "bid")

    def button_actions(self) -> list[dict]:
        """The actions players make by touch now, one button each.

        Left out: actions made by a card on a pad (``scan_for``), and actions
        that name a card the shared screen cannot see (undeploying a face-down
        creature): its button would tell the other player which card it is.
        Players make those at the table, by lifting the card.
        """
        session = self.session
        rules, state = session.rules, session.state
        if rules.is_over(state):
            return []
        prefix = rules.name + "."
        visible = {c for z in session.view(None)["zones"].values() for c in z.get("cards", []) if isinstance(c, str)}
        chosen, labels = [], set()
        for action in rules.legal_actions(state):
            if rules.scan_for(state, action) is not None:
                continue
            if any(isinstance(v, str) and v.startswith(prefix) and v not in visible for v in action.values()):
                continue
            label = self.action_label(action)
            if label in labels:
                continue
            labels.add(label)
            chosen.append(action)
        return chosen[:MAX_ACTION_BUTTONS]

    def action_label(self, action: dict) -> str:
        """A button's words for ``action``: its ``label`` if the engine gave one, else its type,
        where it happens, and whose it is."""
        if action.get("label"):
            return str(action["label"])
        words = str(action.get("type", "?")).replace("_", " ").capitalize()
        for key in self.DETAIL_FIELDS:
            value = action.get(key)
            if isinstance(value, (int, str)) and not isinstance(value, bool) and not str(value).startswith(
                    self.session.rules.name + "."):
                shown = value + 1 if key == "lane" and isinstance(value, int) else value
                words += f" {key.replace('_', ' ')} {shown}" if key in ("lane", "land", "position") else f" {shown}"
        seat = action.get("seat")
        if seat in (0, 1) and action.get("type") not in self.SHARED_ACTIONS:
            players = self.session.options.get("players") or ["North", "South"]
            words = f"{words}: {players[seat]}"
        return words

    def show_actions(self, actions: list[dict]) -> None:
        """One button per action; rebuilt only when the actions change (most changes leave them)."""
        if actions == getattr(self, "_shown_actions", None):
            return
        self._shown_actions = actions
        box = self.ids.actions
        box.clear_widgets()
        for action in actions:
            seat = action.get("seat") if action.get("type") not in self.SHARED_ACTIONS else None
            style = dict(text=self.action_label(action), tone=theme.seat_colour(seat) if seat in (0, 1)
                         else theme.HIGHLIGHT, color=theme.seat_text(seat) if seat in (0, 1) else theme.CARD_TEXT,
                         size_hint_x=None, width=150 * self._scale())
            if action.get("type") in CONFIRM_ACTIONS:         # nothing lost by one tap: ask for a second
                button = ConfirmButton(**style)
                button.bind(on_confirm=lambda _b, a=action: self.send(a))
            else:
                button = BigButton(**style)
                button.bind(on_release=lambda _b, a=action: self.send(a))
            box.add_widget(button)

    # ---- touches -----------------------------------------------------------------------
    def send(self, action: dict) -> None:
        """A touched action: into the session; a refusal is shown in the banner."""
        before = self.before_action(action)
        problem = self.controller.act(action)
        if problem:
            self.ids.banner.show(problem)
        elif before:
            self.last_event = before

    def before_action(self, action: dict) -> str | None:
        """Hook for a game's screen (e.g. clear the simulated table before the next round)."""
        return None

    def on_counter_adjust(self, box: CounterBox, delta: int) -> None:
        self.send({"type": "adjust", "seat": box.seat, "counter": box.counter_id, "delta": delta})

    def undo(self) -> None:
        text = self.controller.undo()
        if text:
            self.ids.banner.show(text, tone=theme.NEUTRAL, seconds=4)

    def redo(self) -> None:
        text = self.controller.redo()
        if text:
            self.ids.banner.show(text, tone=theme.NEUTRAL, seconds=4)

    def on_zone_touched(self, box: ZoneBox) -> None:
        """On the simulated table a zone is also its virtual pad."""
        if not self.simulated:
            return
        if self.sim_lifting:
            self.controller.sim_lift_last(box.zone_id)
        elif self.sim_card is not None:
            card, self.sim_card = self.sim_card, None
            self.controller.sim_place(box.zone_id, card)

    def open_sim_panel(self) -> None:
        from ui.simtable import open_panel
        open_panel(self)

    def cancel_sim(self) -> None:
        self.sim_card = None
        self.sim_lifting = False

    def zone_at(self, window_pos) -> ZoneBox | None:
        """The zone under a point of the window (for cards dragged from the simulated table)."""
        for box in self.zone_boxes.values():
            if box.collide_point(*box.to_widget(*window_pos)):
                return box
        return None

    # ---- events ------------------------------------------------------------------------
    def _on_session_events(self, _controller, events: list) -> None:
        if self.session is None:
            return
        self.refresh()
        public = self.session.public_events(events)
        for ev in public:
            if ev.get("type") in ("rejected", "unknown_tag"):
                self.ids.banner.show(ev.get("text", ""))
            elif ev.get("text") and ev.get("type") not in ("undone",):
                self.last_event = ev["text"]
        if any(ev.get("type") in RESULT_EVENTS for ev in public):
            self.show_result(public)

    def show_result(self, public_events: list[dict]) -> None:
        self.result_view.show(public_events)


def zone_kind(zone_id: str) -> str:
    """"0.white3" → "white": the zone's name without its seat and number."""
    name = zone_id.split(".", 1)[-1]
    return name.rstrip("0123456789") or name


def zone_title(label: str, players: list[str]) -> str:
    """A zone's title without its owner's name: the seat colour already says whose it is.

    >>> zone_title("North lane 3", ["North", "South"]), zone_title("South: Front", ["North", "South"])
    ('Lane 3', 'Front')
    """
    for name in players:
        for joint in (": ", "'s ", " "):
            if label.startswith(name + joint) and len(label) > len(name + joint):
                rest = label[len(name + joint):]
                return rest[0].upper() + rest[1:]
    return label


def stack_summary(cards: list) -> str:
    """"3 cards (2 hidden)": what a zone shows when the engine gives no summary."""
    if not cards:
        return "empty"
    hidden = sum(1 for c in cards if isinstance(c, dict) and c.get("hidden"))
    text = f"{len(cards)} card{'s' if len(cards) != 1 else ''}"
    return f"{text} ({hidden} hidden)" if hidden else text


load_kv(__file__)
