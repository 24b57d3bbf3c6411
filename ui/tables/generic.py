"""The table screen's shared base, and the layout a game without its own screen gets.

Everything comes from the engine contract (see :mod:`companion.engine`):

* ``session.view(None)`` — the shared screen's view: active seat, phase,
  counters, what lies in each zone (face-down cards arrive as ``{"hidden":
  True}`` and are drawn as card backs; the screen never asks for a seat's
  view) and the game's ``detail``, which each game's own screen
  (``ui/tables/<game>.py``) lays out like that game's table;
* ``rules.legal_actions(state)`` and ``rules.confirm_action`` — the actions
  that are not a card on a pad become buttons; the confirm action ("Done",
  "Next round", the next phase) always sits in the same place, bottom right;
* the session's events, redacted for the shared screen: each is shown on the
  zone it happened on for a few seconds and in the feed; a decided battle
  marks the winning zone with its reason; a rejected scan is a banner.

The screen is a FloatLayout: banners, the feed and the simulated table's hint
lie *over* the board, so no zone moves when a message appears; in a window tall
enough the feed has a strip of its own under the board instead, given up once
when the window is laid out (:meth:`TableScreen.feed_strip_for`).  Sizes follow
``app.fscale`` (the text size), so a bigger window gives the board more room
and the labels more words, not bigger letters.
"""
from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import BooleanProperty, DictProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.layout import Layout
from kivy.uix.screenmanager import Screen

from companion.engine import Zone
from ui import theme
from ui.confirm import forget, second_tap
from ui.kv import load_kv
from ui.widgets import CounterBox, Feed, FitButton, FitLabel, ZoneBox, forget_measures, measure, notes_of_a_new_move

MAX_ACTION_BUTTONS = 3          # besides the confirm button
RESULT_EVENTS = ("battle_result", "game_over")
#: actions that lose something for good (the game; a hand thrown away, whose cards players then
#: shuffle back): their buttons act on a second tap (ui.confirm)
CONFIRM_ACTIONS = frozenset({"forfeit", "redraw"})
#: events that a zone flashes (everything with a zone does; these are the ones without a text worth a note)
QUIET_EVENTS = ("turn", "phase", "undone")
#: events shown in the banner (a card that did not count, and why), not as a play
BANNER_EVENTS = ("rejected", "unknown_tag", "unread_cards")


class SeatTag(FitLabel):
    """A player's name on their seat colour (seat None: neutral)."""

    seat = ObjectProperty(None, allownone=True)


class TableScreen(Screen):
    """One game in play.  ``attach`` gives it the session; it then follows it on its own."""

    game_title = StringProperty("")
    active_seat = ObjectProperty(None, allownone=True)
    active_name = StringProperty("")
    phase_label = StringProperty("")
    phase_choices = ListProperty()
    last_event = StringProperty("")
    status_choices = ListProperty()
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    simulated = BooleanProperty(False)
    #: the card the simulated table will place on the next zone touched (None: nothing picked)
    sim_card = ObjectProperty(None, allownone=True)
    sim_lifting = BooleanProperty(False)
    #: the width of the simulated table's card drawer at the board's right (0: closed)
    drawer_width = NumericProperty(0)
    #: the height of the simulated table's card tray under the board (800×480; 0: closed)
    tray_height = NumericProperty(0)
    #: the zone each seat chose on the simulated table by touching it first: its cards then go
    #: there with one touch each ({seat: zone id})
    sim_zones = DictProperty()
    #: what the simulated table waits for, over the status line ("" : nothing)
    sim_hint = StringProperty("")
    #: where the feed lies over the board: "middle", "top" or "bottom", away from the zones it tells of
    feed_place = StringProperty("middle centre")

    #: action types that are the same whoever presses them (one button, no name on it)
    SHARED_ACTIONS: frozenset = frozenset()
    #: kinds of zone (``zone_kind``) a player lays a whole pile on at once: the simulated table's
    #: card panel offers "Place all" for them (Territory's ready pad)
    WHOLE_HAND_ZONES: frozenset = frozenset()

    controller = None
    session = None
    #: the simulated table's card panel (:func:`ui.simtable.open_panel`), made when first opened
    _sim_panel = None
    #: the height of the feed's own strip under the board (0: it lies over the board), from the
    #: window's height (:meth:`feed_strip_for`, generic.kv)
    feed_strip = NumericProperty(0)
    #: the feed's last entries, whole sentences (:meth:`say`), and the zones each tells of
    _feed_texts: list = []
    _feed_told: list = []
    #: its entries are said whole ("what now?")
    _feed_whole = False
    #: the log's entries while "what now?" is in the feed, and its end
    _feed_aside = None
    _what_now_event = None
    #: the on-screen keyboard for the panel's search (:meth:`search_keyboard`), made when first needed
    _keyboard = None

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.zone_boxes: dict[str, ZoneBox] = {}
        self.counter_boxes: dict[str, CounterBox] = {}
        self.seat_tags: list[SeatTag] = []
        self._counter_ids: list[str] = []
        self.result_view = None
        self._result_trigger = None
        self._result_pending = None          # a result's events waiting for the frame that shows its card
        self._deferred_change = None         # what a deciding card decided, waiting for the frame after the card's
        self._deferred_trigger = None
        self.view: dict = {}
        self._shown_actions = None
        self._spare_buttons: list[FitButton] = []   # action buttons not shown now, kept for the next actions
        self._board_for: tuple | None = None        # the game, options and text size the board was built for
        self._feed_fits: dict = {}                  # each entry's line in the feed at a width (:meth:`_fitted`)

    # ---- life cycle ----------------------------------------------------------------
    def attach(self, controller, session) -> None:
        """Follow ``session``.  The board is built for it, unless this table's board was built for
        the same game with the same options at the same text size (a rematch, a new game of the
        same kind): then that board shows the new game (see :meth:`fits`)."""
        self.controller = controller
        self.session = session
        self.simulated = controller.simulated
        self.game_title = session.rules.title
        controller.bind(on_session_events=self._on_session_events)
        if self.result_view is None:
            from ui.screens.result import ResultView
            self.result_view = ResultView(screen=self)   # built once: scoring must not wait for it
        else:
            self.result_view.screen = self                   # let go of when the last game was closed
        if not self.fits(session):
            self.zone_boxes.clear()
            self.counter_boxes.clear()
            self.seat_tags.clear()
            self.ids.board.clear_widgets()
            self.build_board(self.ids.board)
            self._board_for = self._board_key(session)
        self.refresh()
        if self.feed_strip and session.actions:
            self._say_the_log()              # a resumed game: its strip shows the log's last entries, as it did

    def fits(self, session) -> bool:
        """Whether this table's board was built for a game like ``session``'s: it then shows that
        game as a table built for it would.  Played again on the same board, a rematch starts
        at once and leaves the memory as it was (a new board a game spread the app's memory
        over ~2 MB more of the heap: docs/ui.md, memory)."""
        return self._board_key(session) == self._board_for

    def _board_key(self, session) -> tuple:
        return session.rules.name, repr(session.options), self.fs(), self.bs()

    def detach(self) -> None:
        """Stop following the session, and clear what its game left on the table: notes, marks,
        counters, the feed, the banner, the status line, the simulated table's picked card and
        card panel, the texts measured for it."""
        if self.controller is not None:
            self.controller.unbind(on_session_events=self._on_session_events)
        self.cancel_deferred_change()
        self.cancel_pending_result()
        self._result_pending = None
        if self.result_view is not None:
            self.result_view.dismiss()
            # ...and lets go of this table: Kivy's clock may hold the view a while longer (its
            # scroll bar fades 0.5 s after a layout, then animates for 0.5 s), and through it a
            # closed game's table while the next game's is built.  A game attached hands it back.
            self.result_view.screen = None
        # The notes', the feed's and the banner's timers hold their widgets, and through them this
        # screen, for seconds: a closed game's screen is let go at once.
        for box in self.ids.board.walk(restrict=True):
            if isinstance(box, ZoneBox):
                box.clear_note()
                box.outcome, box.reason = "", []
        for counter in self.counter_boxes.values():      # a counter the next game does not keep yet
            counter.value, counter.title, counter.owner = 0, "", ""
        self._end_what_now()
        self.ids.feed.hide()
        self.ids.feed.lines = []
        self._feed_texts, self._feed_told, self._feed_whole = [], [], False
        self._feed_fits.clear()
        self.feed_place = "middle centre"
        self.ids.banner.hide()
        self.last_event, self.status_choices = "", []
        self.cancel_sim()
        panel, self._sim_panel = self._sim_panel, None  # made for this game's seats, decks and hands
        if panel is not None:
            panel.dismiss()
        if self._keyboard is not None:
            self._keyboard.done()
        self._shown_actions = None
        self.view = {}
        self._said_turn = None
        self.forget_game()
        forget_measures()
        self.session = None

    def forget_game(self) -> None:
        """Hook for a game's screen: what it remembers of the game that was shown (a rematch
        shows the next one on the same board)."""

    # ---- building blocks for a game's layout ------------------------------------------------
    @property
    def players(self) -> list[str]:
        return list(self.session.options.get("players") or ["North", "South"])

    @staticmethod
    def fs() -> float:
        """``app.fscale``: what sizes that follow the text are multiplied by."""
        app = App.get_running_app()
        return app.fscale if app else 1.0

    @staticmethod
    def bs() -> float:
        """``app.bscale``: what fixed widths are multiplied by (the text size, within the window)."""
        app = App.get_running_app()
        return app.bscale if app else 1.0

    def zone(self, zone_id: str, **kwargs) -> ZoneBox:
        """The zone box for ``zone_id`` (every zone of the game needs one: it is also its
        virtual pad on the simulated table)."""
        seat = kwargs.pop("seat", _seat_of(zone_id))
        box = ZoneBox(zone_id=zone_id, seat=seat, **kwargs)
        box.bind(on_release=self.on_zone_touched)
        self.zone_boxes[zone_id] = box
        return box

    def counter(self, counter_id: str, short: tuple[str, ...] = (), **kwargs) -> CounterBox:
        """A counter box for ``counter_id``, filled from the view's counters on every refresh."""
        box = CounterBox(counter_id=counter_id, short_titles=list(short), **kwargs)
        box.bind(on_adjust=self.on_counter_adjust)
        self.counter_boxes[counter_id] = box
        return box

    def seat_tag(self, seat: int, **kwargs) -> SeatTag:
        tag = SeatTag(seat=seat, **kwargs)
        self.seat_tags.append(tag)
        return tag

    def row(self, *widgets, **kwargs) -> BoxLayout:
        kwargs.setdefault("spacing", 4 * self.fs())
        line = BoxLayout(**kwargs)
        for w in widgets:
            line.add_widget(w)
        return line

    def column(self, *widgets, **kwargs) -> BoxLayout:
        return self.row(*widgets, orientation="vertical", **kwargs)

    # ---- the layout a game without its own screen gets ----------------------------------------
    #: a seat with more zones than this gets one row per kind of zone
    MAX_ZONES_PER_ROW = 7

    def rows(self, zones: list[Zone]) -> list[list[Zone]]:
        """Zones in rows as they lie on the table, far side (seat 0) first; a seat with many zones
        gets one row per kind ("0.white1" and "0.grey1" are kinds "white" and "grey")."""
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

    def build_board(self, board) -> None:
        """Seat 0's counters and zones at the top (the far side), shared zones, seat 1's at the
        bottom.  A game's own screen replaces this with its table."""
        view = self.session.view(None)
        strips = {0: self.row(self.seat_tag(0, size_hint_x=None, width=110 * self.bs()), size_hint_y=None,
                              height=theme.COUNTER_HEIGHT * self.bs()),
                  1: self.row(self.seat_tag(1, size_hint_x=None, width=110 * self.bs()), size_hint_y=None,
                              height=theme.COUNTER_HEIGHT * self.bs())}
        shared = 0
        for c in view.get("counters", []):
            seat = c.get("seat")
            if seat not in (0, 1):
                seat, shared = shared % 2, shared + 1
            strips[seat].add_widget(self.counter(c["id"], seat=c.get("seat")))
        board.add_widget(strips[0])
        for line in self.rows(self.session.rules.zones(self.session.options)):
            board.add_widget(self.row(*[self.zone(z.id, seat=z.seat, title=[zone_title(z.label, self.players)])
                                        for z in line]))
        board.add_widget(strips[1])

    # ---- showing the view ------------------------------------------------------------
    def refresh(self) -> None:
        session = self.session
        if session is None:
            return
        view = session.view(None)          # the shared screen: never a seat's view
        self.view = view
        self.show_common(view)
        self.show_view(view)
        self.can_undo = session.can_undo()
        self.can_redo = session.can_redo()
        self.show_actions()

    def show_common(self, view: dict) -> None:
        players = view.get("players") or self.players
        self.active_seat = view.get("active_seat")
        self.active_name = players[self.active_seat] if self.active_seat in (0, 1) else ""
        self.phase_label = view.get("phase_label", "")
        # the engine's phase in one or two words is the last resort of a large text size
        phase = str(view.get("phase") or "").replace("_", " ").capitalize()
        self.phase_choices = shorter(self.phase_label) + ([phase] if phase else [])
        for tag in self.seat_tags:
            name = players[tag.seat] if tag.seat in (0, 1) else ""
            tag.choices = [name, initials(name)]
        present = set()
        for c in view.get("counters", []):
            box = self.counter_boxes.get(c["id"])
            if box is None:
                continue
            present.add(id(box))
            box.value = c.get("value", 0)
            box.title = c.get("label", c["id"])
            box.adjustable = bool(c.get("adjustable"))
            seat = c.get("seat")
            box.owner = players[seat] if seat in (0, 1) else ""
        for box in self.counter_boxes.values():
            # a counter the game does not keep now (Vita Luna's hearts outside a battle) keeps its place
            shown = id(box) in present
            box.opacity, box.disabled = (1, False) if shown else (0, True)

    def show_view(self, view: dict) -> None:
        """Fill the zones from the view (a game's screen adds its own detail)."""
        zones = view.get("zones", {})
        for zone_id, box in self.zone_boxes.items():
            self.show_zone(box, zones.get(zone_id, {"cards": [], "summary": ""}))
            box.highlight = box.seat is not None and box.seat == self.active_seat

    def show_zone(self, box: ZoneBox, zone_view: dict, info: list[str] | None = None) -> None:
        cards = zone_view.get("cards", [])
        box.cards = [self.card_face(c) for c in cards]
        box.info = info if info is not None else shorter(zone_view.get("summary") or stack_summary(cards))

    def card_face(self, card) -> tuple[list[str], bool]:
        """``(choices, hidden)`` for one entry of a zone's ``cards``: a card back for a hidden
        card, else its face or name, and shorter forms of a long name."""
        if isinstance(card, dict) and card.get("hidden"):
            return ["?"], True
        return name_choices(self.controller.card_text(card)), False

    def zone_name(self, zone_id: str) -> str:
        """A zone's name as players say it ("White 3"), without its owner (the button's colour
        and name say whose it is)."""
        labels = getattr(self, "_zone_labels", None)
        if labels is None or labels[0] is not self.session:
            zones = self.session.rules.zones(self.session.options)
            labels = self._zone_labels = (self.session, {z.id: z.label for z in zones})
        return zone_title(labels[1].get(zone_id, pad_name(zone_id)), self.players)

    # ---- buttons for actions that are not a card on a pad ----------------------------------
    #: action fields that say where or which, shown on a button ("Undeploy land 2: North")
    DETAIL_FIELDS = ("lane", "land", "position", "zone", "to", "choice", "declare", "bid")

    def primary_action(self) -> dict | None:
        """The confirm action ("Done", "Next round", the next phase), which has its own place."""
        session = self.session
        rules, state = session.rules, session.state
        if rules.is_over(state):
            return None
        seats = [self.active_seat] if self.active_seat in (0, 1) else []
        seats += [s for s in (0, 1) if s not in seats]
        legal = rules.legal_actions(state)
        for seat in seats:
            action = rules.confirm_action(state, seat)
            if action is None:
                continue
            for candidate in legal:         # the legal action itself: it may carry the engine's label
                if {k: v for k, v in candidate.items() if k != "label"} == action:
                    return candidate
        return None

    def button_actions(self) -> list[dict]:
        """The actions players make by touch now, one button each (the confirm action first).

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
        visible = {c for z in self.view.get("zones", {}).values() for c in z.get("cards", []) if isinstance(c, str)}
        primary = self.primary_action()
        chosen, labels = ([primary], {self.action_label(primary)}) if primary else ([], set())
        for action in rules.legal_actions(state):
            if action == primary or rules.scan_for(state, action) is not None:
                continue
            if any(isinstance(v, str) and v.startswith(prefix) and v not in visible for v in action.values()):
                continue
            label = self.action_label(action)
            if label in labels:
                continue
            labels.add(label)
            chosen.append(action)
        return chosen[:MAX_ACTION_BUTTONS + (1 if primary else 0)]

    def action_label(self, action: dict) -> str:
        """A button's words for ``action``: its ``label`` if the engine gave one, else its type,
        where it happens, and whose it is."""
        if action.get("label"):
            return str(action["label"])
        words = str(action.get("type", "?")).replace("_", " ").capitalize()
        for key in self.DETAIL_FIELDS:
            value = action.get(key)
            if key in ("zone", "to") and isinstance(value, str) and value in self.zone_boxes:
                words += f" {self.zone_name(value).lower()}"     # "Unplace white 3", never "0.white3"
                continue
            if isinstance(value, (int, str)) and not isinstance(value, bool) and not str(value).startswith(
                    self.session.rules.name + "."):
                shown = value + 1 if key == "lane" and isinstance(value, int) else value
                words += f" {key.replace('_', ' ')} {shown}" if key in ("lane", "land", "position") else f" {shown}"
        seat = action.get("seat")
        if seat in (0, 1) and action.get("type") not in self.SHARED_ACTIONS:
            words = f"{words}: {self.players[seat]}"
        return words

    def show_actions(self) -> None:
        """The confirm action in its own place (bottom right, always there, blank when there is
        none) and up to three more buttons to its left; rebuilt only when the actions change."""
        actions = self.button_actions()
        if actions == self._shown_actions:
            return
        self._shown_actions = actions
        primary = self.primary_action()
        self._style(self.ids.primary, primary)
        box = self.ids.actions
        # Buttons are restyled, not made again: making one (its kv rules, its label) took a third
        # of a pad event's handling on Sam's table, whose redraw buttons come and go every turn.
        # Those not needed now are kept too: made again when the actions came back, some 65 a
        # game of Sam's (~40 KB each) were garbage that spread the app's memory (docs/ui.md).
        spare = box.children[::-1] + self._spare_buttons
        box.clear_widgets()
        for action in actions:
            if action == primary:
                continue
            if spare:
                button = spare.pop(0)
                forget(button)                       # a first tap on the old action does not count
            else:
                button = FitButton()
            self._style(button, action)
            box.add_widget(button)
        self._spare_buttons = spare

    def _style(self, button: FitButton, action: dict | None) -> None:
        if action is None:
            button.choices, button.disabled, button.opacity = [""], True, 0
            button.action = None
            return
        seat = action.get("seat") if action.get("type") not in self.SHARED_ACTIONS else None
        label = self.action_label(action)
        short = label.rsplit(": ", 1)[0] if seat in (0, 1) else label
        kind = str(action.get("type", "?")).replace("_", " ").capitalize()
        button.choices = [label, short] + shorter(short)[1:] + [kind, kind.split(" ")[0]]
        button.tone = theme.seat_colour(seat) if seat in (0, 1) else theme.HIGHLIGHT
        button.color = theme.seat_text(seat) if seat in (0, 1) else theme.CARD_TEXT
        button.disabled, button.opacity = False, 1
        button.action = action
        button.unbind(on_release=self._pressed)
        button.bind(on_release=self._pressed)

    def _pressed(self, button) -> None:
        action = getattr(button, "action", None)
        if action is None:
            return
        if action.get("type") in CONFIRM_ACTIONS and not second_tap(button):
            return                                   # nothing lost by one tap: a forfeit asks again
        self.send(action)

    # ---- touches -----------------------------------------------------------------------
    def send(self, action: dict) -> None:
        """A touched action: onto the input road, never waiting; a refusal comes back as a
        ``rejected`` event, which the banner shows (:meth:`_on_session_events`)."""
        before = self.before_action(action)
        problem = self.controller.act(action)
        if problem:
            self.ids.banner.show(problem)
        elif before:
            self.set_status(before)

    def send_steps(self, step) -> None:
        """A whole step by one touch: ``step(state)`` names each next action, applied in turn on
        the input road (``InputRoad.touch_steps``), each its own action in the log; a refusal
        stops it and comes back as a ``rejected`` event, as a touch's does."""
        problem = self.controller.act_steps(step)
        if problem:
            self.ids.banner.show(problem)

    def result_actions(self) -> list[dict]:
        """Actions the result view offers beside "Back to the table" when a battle is decided and
        the next step is a button anyway (Lifeforce's call or check): one touch reads the result
        and makes it.  None by default."""
        return []

    def before_action(self, action: dict) -> str | None:
        """Hook for a game's screen (e.g. clear the simulated table before the next round)."""
        return None

    def on_counter_adjust(self, box: CounterBox, delta: int) -> None:
        self.send({"type": "adjust", "seat": box.seat, "counter": box.counter_id, "delta": delta})

    def undo(self) -> None:
        """Handed to the road like a touch; the words and the table's cleaning come once it is
        applied (the next frames), for the game it was touched in."""
        self.controller.undo(self._went_back(self.session))

    def redo(self) -> None:
        self.controller.redo(self._went_back(self.session))

    def _went_back(self, session):
        return lambda text: self.after_undo(text) if self.session is session else None

    def after_undo(self, text: str) -> None:
        """The screen's Undo or Redo was applied: ``text`` says what went back or forth, or why
        nothing did (the disk is full).  An undo has said it already: the session's ``undone``
        event (:meth:`went_back`), as for a long press on a confirm button."""
        self.show_deferred_change()
        if text.startswith("Undone"):
            return
        if not text.startswith("Redone"):                 # refused (the disk is full): nothing went back
            self.ids.banner.show(text)
            return
        self.went_back(text)

    def went_back(self, text: str) -> None:
        """The table went back (or forth), by a touch or a long press on a confirm button: ``text``
        ("Undone: North opens lane 1 with 7♥") is said in the banner, the notes and marks of what
        was undone go, the feed tells what the log tells now and the status line its last action."""
        for box in self.ids.board.walk(restrict=True):
            if isinstance(box, ZoneBox):
                box.clear_note()
                box.outcome, box.reason = "", []
        self.refresh()
        self.ids.banner.show(text, tone=theme.NEUTRAL, seconds=4)
        # the feed tells what the log tells now: what was undone is gone from it too
        lines = self._say_the_log()
        self.set_status(lines[-1][1] if lines else "")

    def _say_the_log(self) -> list:
        """The feed anew with the log's last entries; the log's ``(action, line)`` pairs."""
        from ui.controller import public_history
        lines = public_history(self.session) if self.session is not None else []
        self.say([line for _action, line in lines[-self.ids.feed.MAX_STRIP_LINES:]], zones=[], fresh=True)
        return lines

    def say(self, texts: list[str], zones: list[str], fresh: bool = False, whole: bool = False,
            seconds: float = 5.0) -> None:
        """Add ``texts`` to the feed, each as its own bulleted entry: the longest beginning of the
        sentence that fits one line (``whole``: the whole sentence), else the whole sentence (wrapped
        under its bullet, so that no wrapped tail reads as a line of its own, "21. South counters
        now").  In its strip under the board (a window tall enough, :meth:`feed_strip_for`) the last
        entries that fit stay there; over the board the last three lie away from ``zones``, the
        zones they tell of, and from every counter row (:meth:`_place_feed`) for ``seconds``."""
        if self._feed_aside is not None and not whole:
            self._end_what_now()                 # a move while "what now?" is read: the log goes on
        if fresh:
            self._feed_texts, self._feed_told = [], []
        self._feed_whole = whole
        # only the last few can be shown: the card that ends a round in Sam's tells eleven things,
        # and fitting each of them was most of that card's way to the screen
        texts = [t for t in texts if t][-self.ids.feed.MAX_STRIP_LINES:]
        if not texts and not fresh:
            return
        keep = self.ids.feed.MAX_STRIP_LINES
        self._feed_texts = (self._feed_texts + texts)[-keep:]
        # the zones each entry tells of: an older entry's zone stays in sight too
        self._feed_told = (self._feed_told + [list(zones)] * len(texts))[-keep:]
        self._lay_feed(seconds)

    def _fitted(self, text: str, room: float) -> str:
        """The longest beginning of ``text`` that fits one line of ``room`` px under its bullet,
        else the whole sentence (wrapped under it); the whole of it in "what now?"."""
        feed = self.ids.feed
        if self._feed_whole:
            return text
        key = (text, round(room), feed.font_size)
        found = self._feed_fits.get(key)
        if found is None:
            found = next((c for c in shorter(text) if text.startswith(c)
                          and measure("• " + c, feed.font_size, feed.bold, None)[0] <= room), text)
            if len(self._feed_fits) > 200:
                self._feed_fits.clear()
            self._feed_fits[key] = found
        return found

    def _lay_feed(self, seconds: float | None = 5.0) -> None:
        """Show the feed's entries (``_feed_texts``) where it lies now: in its strip the last that
        fit, whole, to stay; over the board the last three at the first free place
        (:meth:`_place_feed`), else the last two or the last one, for ``seconds``."""
        feed = self.ids.feed
        room = feed.width - 16 * self.fs()
        texts = self._feed_texts
        if not texts:
            feed.lines = []
            feed.hide()
            return
        if feed.strip:
            space = feed.strip - 12 * self.fs()
            shown: list[str] = []
            used = 0.0
            for text in reversed(texts):
                line = self._fitted(text, room)
                height = measure("• " + line, feed.font_size, feed.bold, room)[1]
                if shown and used + height > space + 0.5:
                    break
                shown.insert(0, line)
                used += height
            feed.show(shown, seconds=None)       # nothing under it: it stays, the log's last entries
            return
        texts = texts[-feed.MAX_LINES:]
        told = self._feed_told[-len(texts):]
        lines = [self._fitted(t, room) for t in texts]
        placed = self._place_feed(lines, told)
        if self._feed_whole and placed < len(lines):
            # asked for (the status line touched): said whole for its ten seconds, over a counter row
            # if it must, never cut to its last line
            placed = self._place_feed(lines, told, avoid_counters=False)
        if not placed:
            # every place over the board covers a counter row or a zone these lines tell of (a battle
            # over the whole board): the zones' own notes and the status line tell it
            feed.lines = lines
            feed.hide()
            return
        feed.show(lines[-placed:], seconds=seconds)

    def show_what_now(self) -> None:
        """The status line touched: what may be done now (:meth:`what_now`) in the feed, for ten
        seconds, placed as the feed always is; then (or at the next move) the log's entries again."""
        aside = self._feed_aside or (self._feed_texts, self._feed_told)
        self.say(self.what_now() or ([self.last_event] if self.last_event else []), zones=[], fresh=True,
                 whole=True, seconds=10)
        self._feed_aside = aside
        if self._what_now_event is not None:
            self._what_now_event.cancel()
        self._what_now_event = Clock.schedule_once(self._end_what_now, 10)

    def _end_what_now(self, _dt=None) -> None:
        """The log's entries back in the feed after "what now?": shown in the strip (over the board
        the feed has hidden by then, and shows them with the next move)."""
        if self._what_now_event is not None:
            self._what_now_event.cancel()
            self._what_now_event = None
        aside, self._feed_aside = self._feed_aside, None
        if aside is None:
            return
        self._feed_texts, self._feed_told = aside
        self._feed_whole = False
        if self.ids.feed.strip:
            self._lay_feed(None)

    def feed_strip_for(self, board_height: float, fs: float, bs: float) -> float:
        """The height of the feed's own strip under the board of ``board_height`` px, 0 for none.

        The board gives it up only while it keeps the height every game's layout is made and
        checked for (the 800×480 board, ``BOARD_DESIGN_HEIGHT`` × ``bs``): so no zone is squeezed
        below what is checked to fit, and a 800×480 window keeps the feed over the board.  The
        strip holds ``Feed.MAX_STRIP_LINES`` lines of text (fewer when that is all the room left),
        and is taken only for at least the three entries the feed shows over the board.  At
        1280×800 that is five lines at every text size (121 px at the design size, 156 at the
        largest)."""
        line = measure("•", theme.FONT_BODY * fs, False, None)[1]
        frame = 16 * fs                     # the feed's own margins (12) and the gap above it (4)
        spare = board_height - BOARD_DESIGN_HEIGHT * bs - frame
        lines = min(Feed.MAX_STRIP_LINES, int(spare // line)) if line > 0 else 0
        return round(lines * line + frame) if lines >= Feed.MAX_LINES else 0

    def on_kv_post(self, *_args) -> None:
        # the board's new size is laid out by the next frame: the feed is placed anew then
        self._feed_trigger = Clock.create_trigger(self._feed_resized, 0)

    def feed_resized(self, *_args) -> None:
        """The board changed its size or its room (the window, the card drawer, the tray, the
        feed's strip): the feed is placed anew once the board is laid out."""
        trigger = getattr(self, "_feed_trigger", None)
        if trigger is not None:
            trigger()

    on_feed_strip = on_drawer_width = on_tray_height = feed_resized

    def _feed_resized(self, *_args) -> None:
        feed = self.ids.feed
        if feed.strip:
            if self._feed_texts:
                self._lay_feed(None)             # refitted to the strip's width, as many as fit
            return
        if not (feed.shown and feed.lines):
            return
        # the rows inside the board may not have followed its new size yet (each layout lays out
        # its children on its own trigger): laid out now, parents first, so the feed is placed by
        # where the counters are, not where they were
        for widget in self.ids.board.walk(restrict=True):
            if isinstance(widget, Layout):
                widget.do_layout()
        self._lay_feed()

    @staticmethod
    def feed_bottom(board_y: float, board_height: float, height: float, place: str) -> float:
        return feed_y(place, board_y, board_height, height)

    @staticmethod
    def feed_left(board_x: float, board_width: float, width: float, place: str) -> float:
        return feed_x(place, board_x, board_width, width)

    def _place_feed(self, lines: list[str], told: list[list[str]], avoid_counters: bool = True) -> int:
        """Place the feed over the board where it covers no counter row and none of the zones its
        lines tell of (``told``, each line's zones): of fifteen places (middle, upper, lower, top or
        bottom; centre, left or right) the first free one for all of ``lines``, else for the last
        two, else the last one.  Returns how many of the last ``lines`` it has room for there (0:
        none anywhere)."""
        feed, board = self.ids.feed, self.ids.board
        room = feed.width - 16 * self.fs()
        # line by line, the same height as the lines together: each line stays for the next two
        # moves, so only the new one is laid out (the three together were new every move)
        heights = [measure("• " + line, feed.font_size, feed.bold, room)[1] for line in lines]
        # each zone's and counter row's place in the window, once: not once for each place tried
        counters = self.counter_rows() if avoid_counters else []
        zones = [[_window_rect(box) for box in self.told_of(z)] for z in told]
        board_x, board_y = board.to_window(board.x, board.y)

        def free(place: str, height: float, rects) -> bool:
            vertical, horizontal = place.split()
            x0 = feed_x(horizontal, board_x, board.width - self.drawer_width, feed.width)
            y0 = feed_y(vertical, board_y + self.tray_height, board.height - self.tray_height, height)
            return not any(x0 < x1 - 1 and bx < x0 + feed.width - 1 and y0 < y1 - 1 and by < y0 + height - 1
                           for bx, by, x1, y1 in rects)

        places = [f"{v} {h}" for v in FEED_ROWS for h in ("centre", "left", "right")]
        for count in range(len(lines), 0, -1):
            height = sum(heights[-count:]) + 12 * self.fs()
            rects = counters + [r for line_zones in zones[len(zones) - count:] for r in line_zones]
            place = next((p for p in places if free(p, height, rects)), None)
            if place is not None:
                self.feed_place = place
                return count
        return 0

    def told_of(self, zones: list[str]) -> list:
        """The widgets that show ``zones``, which the feed telling of them leaves in sight (a game's
        screen adds what else shows them: a Territory land between its two sides' piles)."""
        return [self.zone_boxes[z] for z in dict.fromkeys(zones) if z in self.zone_boxes]

    def counter_rows(self) -> list[tuple[float, float, float, float]]:
        """The window rectangles of the rows that hold the board's counters (a seat's strip, Vita
        Luna's hearts and tracks, a region's HP), which the feed leaves in sight."""
        board = self.ids.board.__self__                 # the widget, not its weak proxy: compared by identity
        rows = {}
        for box in self.counter_boxes.values():
            row = box.parent
            if row is None or box.opacity == 0 or id(row) in rows:
                continue
            up = row
            while up is not None and up is not board and up is not up.parent:
                up = up.parent
            if up is board:                              # not a view over the table (resting creatures)
                rows[id(row)] = _window_rect(row)
        return list(rows.values())

    def what_now(self) -> list[str]:
        """What may be done now and where, from the engine: its phase in words, the zones a card
        may go on now (by the legal actions a card on a pad makes) and the buttons there are.
        Never a card: the zones and buttons are what the whole table may see."""
        session = self.session
        if session is None:
            return []
        rules, state = session.rules, session.state
        if rules.is_over(state):
            return ["The game is over: History shows every move"]
        lines = [f"Now: {self.view.get('phase_label')}"] if self.view.get("phase_label") else []
        zones: dict[int | None, list[str]] = {}
        for action in rules.legal_actions(state):
            scan = rules.scan_for(state, action)
            if scan is not None and scan[0] in self.zone_boxes:
                seat = self.zone_boxes[scan[0]].seat
                name = self.zone_name(scan[0])
                if name not in zones.setdefault(seat, []):
                    zones[seat].append(name)
        for seat, names in zones.items():
            who = f"{self.players[seat]}: a" if seat in (0, 1) else "A"
            lines.append(f"{who} card on {_listed([n[:1].lower() + n[1:] for n in names[:6]])}"
                         + (f" or {len(names) - 6} more places" if len(names) > 6 else ""))
        buttons = [self.action_label(a) for a in self.button_actions()]
        if buttons:
            lines.append("Or touch " + _listed([f"“{b}”" for b in buttons], "or"))
        return lines

    def set_status(self, text: str) -> None:
        self.last_event = text
        # the whole sentence when it fits; else its longest clause; else a pointer to the feed
        self.status_choices = shorter(text) + (["Touch to read the last move", "Last move"] if text else [])

    def on_zone_touched(self, box: ZoneBox) -> None:
        """On the simulated table a zone is also its virtual pad.  Touched with no card picked
        while the card panel is open, it is chosen: its seat's cards then go there with one
        touch each (touched again, it is let go)."""
        if not self.simulated:
            return
        if self.sim_lifting:
            self.controller.sim_lift_last(box.zone_id)
        elif self.sim_card is not None:
            card, self.sim_card = self.sim_card, None
            self.controller.sim_place(box.zone_id, card)
        elif self._sim_panel is not None and self._sim_panel.shown:
            zones = dict(self.sim_zones)
            if zones.get(box.seat) == box.zone_id:
                del zones[box.seat]
            else:
                zones[box.seat] = box.zone_id
            self.sim_zones = zones

    def sim_default_zone(self, card_id: str, zones: list[str]) -> str | None:
        """Where a card touched in the card panel goes when the engine takes it on several
        ``zones`` and the game has an obvious first place (Lifeforce: the attacker pad while it
        is empty); the player who wants another touches that zone first.  None: the next zone
        touched gets it."""
        return None

    def sim_hand(self, panel, seat) -> list[str] | None:
        """The cards ``seat`` holds on the simulated table, where the game's screen deals hands
        (Sam's); None: the card panel lists what the engine lets that seat play now."""
        return None

    def on_sim_card(self, *_args) -> None:
        taking = self.sim_card is not None or self.sim_lifting
        chosen = [z for z in self.sim_zones.values() if z in self.zone_boxes]
        for box in self.zone_boxes.values():
            box.takes_cards = taking or box.zone_id in chosen
        if self.sim_lifting:
            self.sim_hint = "Touch a zone to lift its top card (here: done)"
        elif self.sim_card is not None:
            self.sim_hint = f"Touch a zone for {self.controller.card_text(self.sim_card)} (here: cancel)"
        elif chosen:
            names = _listed([self.zone_name(z) for z in chosen], "and")
            self.sim_hint = f"{names}: touch cards to lay them there (here: stop)"
        else:
            self.sim_hint = ""

    on_sim_zones = on_sim_card

    on_sim_lifting = on_sim_card

    def solo_row(self, panel):
        """A solo game's draw and play row for the simulated table's card panel
        (:class:`ui.simtable.SoloRow`); a game with solo play has one in its own screen."""
        return None

    def open_sim_panel(self) -> None:
        from ui.simtable import open_panel
        open_panel(self)

    def search_keyboard(self, field) -> None:
        """The on-screen keyboard for the card drawer's search ``field`` (a touchscreen has no other),
        docked where it hides nothing the search needs: at 1280×800 in the drawer's lower part (the
        board untouched; the field and the first matches above it), at 800×480 along the window's
        bottom with the tray lifted onto it (the field and the matches just above the keys, the turn
        badge and Undo in sight).  Its Done, or touching a match, docks it away.  Made the first
        time it is needed."""
        from ui.keyboard import SEARCH_ROWS, DockedKeyboard
        board = self._keyboard
        if board is None:
            board = self._keyboard = DockedKeyboard(rows=SEARCH_ROWS, capitals=False, size_hint=(None, None))
            board.bind(shown=self._keyboard_shown, height=self._keyboard_shown)
            from kivy.clock import Clock
            self._redock = Clock.create_trigger(self._keyboard_shown, 0)
        if board.parent is not None:
            board.parent.remove_widget(board)
        Window.add_widget(board)                         # over the drawer, which lies over the screen
        panel = self._sim_panel
        if panel is not None and not getattr(panel, "_keyboard_bound", False):
            panel.bind(shown=self._panel_shown)          # the drawer closed: its keyboard goes with it
            panel.bind(tray=self._redock, size=self._redock, pos=self._redock)     # a window resized: docked anew
            panel._keyboard_bound = True
        board.dock_for(field)
        self._keyboard_shown()

    def _panel_shown(self, _panel, shown) -> None:
        if not shown and self._keyboard is not None:
            self._keyboard.done()

    def _keyboard_shown(self, *_args) -> None:
        board, panel = self._keyboard, self._sim_panel
        lift = 0
        if board is not None and board.parent is not None and not board.shown:
            board.parent.remove_widget(board)
        elif board is not None and board.parent is not None:
            if panel is not None and panel.shown and not panel.tray:
                board.width, board.pos = panel.width, (panel.x, panel.y)      # the drawer's lower part
            else:
                board.width, board.pos = Window.width, (0, 0)
                lift = board.top                                          # the tray rides on the keys
        if panel is not None and panel.keyboard_top != lift:
            panel.keyboard_top = lift
            panel._place()

    def cancel_sim(self) -> None:
        self.sim_card = None
        self.sim_lifting = False
        self.sim_zones = {}

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
        self.show_deferred_change()              # what an earlier change left for its next frame goes first
        public = self.session.public_events(events)
        card_zones = self.event_zones(public[0]) if public else []
        if card_zones and any(ev.get("type") in RESULT_EVENTS for ev in public):
            # The card that decides a battle, a round or the game shows in its own frame, and what it
            # decided (the zones' results, counters, notes, the feed, the result view) in the next:
            # laying all that out with the card made it the slowest card to reach the screen by
            # far (Sam's round end: four times an ordinary card's work; docs/ui.md, the slowest
            # pad events).  Nothing else is shown in between (the next change shows this one first).
            self.view = self.session.view(None)
            self.show_card(self.view, [z for z in card_zones if z in self.zone_boxes])
            self._deferred_change = public
            Window.bind(on_flip=self._after_card_frame)
            Window.canvas.ask_update()           # a frame comes even if that zone looks the same
            return
        self.show_change(public)

    def show_card(self, view: dict, zone_ids: list[str]) -> None:
        """The first frame of a deciding card: the zones as ``view`` has them (``zone_ids``, where the
        card went, among them), as the game's screen shows them; the rest waits for the next frame.
        A game's screen whose zones show more than their cards (Sam's lanes: each lane's result)
        shows only the card's zones here."""
        self.show_view(view)

    def _after_card_frame(self, *_args) -> None:
        Window.unbind(on_flip=self._after_card_frame)
        # a bound method, which Kivy's clock holds weakly (a lambda would hold this table)
        self._deferred_trigger = Clock.schedule_once(self.show_deferred_change, 0)

    def show_deferred_change(self, _dt=None) -> None:
        """Show now what a deciding card left for the frame after its own, if it is still waiting."""
        public, self._deferred_change = self._deferred_change, None
        self.cancel_deferred_change()
        if public is not None and self.session is not None:
            self.show_change(public, card_shown=True)

    def cancel_deferred_change(self) -> None:
        Window.unbind(on_flip=self._after_card_frame)
        if self._deferred_trigger is not None:
            self._deferred_trigger.cancel()
        self._deferred_change = self._deferred_trigger = None

    def showing_later(self) -> bool:
        """Whether what the game did still waits for a frame: what a deciding card decided and its
        result view (the frame after the card's), or a result view alone (the frame after its move's)."""
        return self._deferred_change is not None or self._result_pending is not None

    def show_change(self, public: list[dict], card_shown: bool = False) -> None:
        """A change of the game on the board: the view, each event on its zones, the feed and the
        status line, a decided battle's marks and the result view (in this frame when the deciding
        card had its own, ``card_shown``; else in the next).  An undo says what it took back."""
        undone = [ev for ev in public if ev.get("type") == "undone"]
        if undone:
            self.went_back(undone[-1].get("text") or "Undone")
            self.speak(public)
            return
        self.refresh()
        decided = [ev for ev in public if ev.get("type") == "battle_result"]
        if public and not decided and any(ev.get("type") not in BANNER_EVENTS for ev in public):
            self.clear_outcomes()
        if any(ev.get("type") not in BANNER_EVENTS for ev in public):
            notes_of_a_new_move()                 # this move's notes take the place of the last move's
        said = []
        for ev in public:
            kind = ev.get("type")
            if kind in BANNER_EVENTS:
                self.show_banner(ev.get("text", ""))
                continue
            text = ev.get("text")
            if not text or kind == "undone":
                continue
            said.append(text)
            if kind == "battle_result":
                self.show_outcome(ev)
            elif kind not in QUIET_EVENTS:
                for zone_id in self.event_zones(ev):
                    box = self.zone_boxes.get(zone_id)
                    if box is not None:
                        box.flash(self.note_choices(ev))
        if said:
            self.set_status(said[-1])
            self.say(said, [z for ev in public for z in self.event_zones(ev)])
        if any(ev.get("type") in RESULT_EVENTS for ev in public):
            self.show_result(public, card_shown)
        self.speak(public)

    def speak(self, public_events: list[dict]) -> None:
        """Results and whose turn aloud, when Settings turned it on: from the shared view and the
        events redacted for the table only (companion.speech), on the speaker's own thread."""
        from ui.speech import SPEAKER
        if not SPEAKER.enabled:
            return
        from companion.speech import sentences
        said, self._said_turn = sentences(public_events, self.view, getattr(self, "_said_turn", None))
        SPEAKER.tell(said)

    def show_banner(self, text: str) -> None:
        """Why a card did not count: on the table, and on the result view when it covers the table
        (a card put down during Lifeforce's call or check while the battle's result is read)."""
        self.ids.banner.show(text)
        view = self.result_view
        if view is not None and view.parent is not None:
            view.ids.banner.show(text)

    def event_zones(self, ev: dict) -> list[str]:
        """The zones an event happened on; a game's screen adds what its events name otherwise
        (a land's slot, a Vita Luna column)."""
        zones = list(ev.get("zones") or [])
        if ev.get("zone"):
            zones.append(ev["zone"])
        return zones

    def note_choices(self, ev: dict) -> list[str]:
        """What a zone says about ``ev``: the event's sentence, or shorter."""
        kind = ev.get("type", "").replace("_", " ").capitalize()
        return shorter(ev.get("text", "")) + [kind, kind.split(" ")[0], "•"]

    def show_outcome(self, ev: dict) -> None:
        """Mark a decided battle on its zones: the winner's with its reason, the others dimmed."""
        winner = ev.get("winner")
        text = ev.get("text", "")
        for zone_id in self.event_zones(ev):
            box = self.zone_boxes.get(zone_id)
            if box is None:
                continue
            if winner is None:
                box.outcome, box.reason = "tie", shorter(text) + ["Tie"]
            elif box.seat == winner:
                box.outcome, box.reason = "won", shorter(text) + ["Won"]
            else:
                box.outcome, box.reason = "lost", []

    def clear_outcomes(self) -> None:
        for box in self.zone_boxes.values():
            if box.outcome:
                box.outcome, box.reason = "", []

    def show_result(self, public_events: list[dict], card_shown: bool = False) -> None:
        """Open the result view once the frame that shows the deciding card is on screen: opening
        the view takes 25–130 ms here (its labels' textures), which would hold that card back.
        ``card_shown``: that frame was drawn already (:meth:`show_deferred_change`): open it now."""
        self.cancel_pending_result()
        self._result_pending = public_events
        if card_shown:
            self._open_result()
        else:
            Window.bind(on_flip=self._after_flip)

    def _after_flip(self, *_args) -> None:
        Window.unbind(on_flip=self._after_flip)
        self._result_trigger = Clock.schedule_once(self._open_result, 0)

    def cancel_pending_result(self) -> None:
        """A result waiting for its frame is not opened (the view was dismissed, the game closed);
        what its card decided is shown at once, if it still waited for its frame."""
        self.show_deferred_change()
        Window.unbind(on_flip=self._after_flip)
        if self._result_trigger is not None:
            self._result_trigger.cancel()
        self._result_trigger = None

    def _open_result(self, _dt=None) -> None:
        public_events, self._result_pending, self._result_trigger = self._result_pending, None, None
        if self.session is None or public_events is None:    # the game was closed in between
            return
        self.result_view.screen = self                   # a read summary lets go of its table
        self.result_view.show(public_events)


#: the board's height at 800×480 at the design text size (480 less the top and bottom bars): what every
#: game's layout is made and checked for; a taller board gives the feed a strip of its own only while
#: it keeps this much (times ``app.bscale``) for the zones
BOARD_DESIGN_HEIGHT = theme.DESIGN_SIZE[1] - 52 - 56

#: the feed's heights over the board, tried in this order: the fraction of the board's height free
#: below it (the middle first, then nearer the edges, where the seats' counter rows usually are)
FEED_ROWS = {"middle": 0.5, "upper": 0.75, "lower": 0.25, "top": 1.0, "bottom": 0.0}


def feed_y(place: str, board_y: float, board_height: float, height: float) -> float:
    """The bottom of a feed ``height`` high at ``place`` ("top …", "upper …", "middle …", "lower …",
    "bottom …") over a board."""
    return board_y + 4 + FEED_ROWS[place.split()[0]] * (board_height - height - 8)


def _window_rect(widget) -> tuple[float, float, float, float]:
    x, y = widget.to_window(widget.x, widget.y)
    return x, y, x + widget.width, y + widget.height


def feed_x(place: str, board_x: float, board_width: float, width: float) -> float:
    """The left of a feed ``width`` wide at ``place`` ("… left", "… right", "… centre") over a board."""
    horizontal = place.split()[-1]
    if horizontal == "left":
        return board_x + 4
    if horizontal == "right":
        return board_x + board_width - width - 4
    return board_x + board_width / 2 - width / 2


def _seat_of(zone_id: str):
    head = zone_id.split(".", 1)[0]
    return int(head) if head in ("0", "1") else None


def zone_kind(zone_id: str) -> str:
    """"0.white3" → "white": the zone's name without its seat and number."""
    name = zone_id.split(".", 1)[-1]
    return name.rstrip("0123456789") or name


def _listed(words: list[str], last: str = "or") -> str:
    """ "a, b or c" """
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def pad_name(pad: str) -> str:
    """A reader pad's name for players, from its id: "0.lane1" is the far side's lane 1 (seat 0
    sits along the far edge), "deck_check" the deck check.

    >>> pad_name("0.lane1"), pad_name("1.white3"), pad_name("deck_check"), pad_name("land_deck")
    ('Far lane 1', 'Near white 3', 'Deck check', 'Land deck')
    """
    import re
    side, dot, rest = pad.partition(".")
    if not dot:
        side, rest = "", pad
    words = re.sub(r"(?<=[a-z])(?=\d)", " ", rest.replace("_", " ")).strip()
    side = {"0": "far ", "1": "near "}.get(side, "")
    text = f"{side}{words}"
    return text[:1].upper() + text[1:]


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


SEPARATORS = (" — ", ": ", "; ", ". ", " (", ", ")


def shorter(text: str) -> list[str]:
    """``text`` and shorter forms of it made of whole clauses, longest first.

    A label that has no room for the whole sentence shows the longest of
    these that fits, never a word cut in half:

    >>> shorter("Battle 2: North counters — support 0; press done")[:3]
    ['Battle 2: North counters — support 0; press done', 'Battle 2: North counters — support 0', \
'Battle 2: North counters']
    """
    if not text:
        return [""]
    found = {text}
    todo = [text]
    while todo:
        part = todo.pop()
        for sep in SEPARATORS:
            if sep in part:
                head, tail = part.split(sep, 1)
                last_head, last_tail = part.rsplit(sep, 1)
                # "slots 1, 3 and 4" is a list of numbers, not two clauses: never cut it
                pieces = ([] if _in_list(sep, head, tail) else [head, tail]) + \
                    ([] if _in_list(sep, last_head, last_tail) else [last_head])
                for piece in pieces:
                    piece = piece.strip(" ;,.:—")
                    if sep == " (" and piece is tail:
                        continue
                    if piece.count("(") != piece.count(")"):
                        continue            # half a parenthesis says less than nothing
                    if piece and piece not in found and len(piece) > 2:
                        found.add(piece)
                        todo.append(piece)
    # the sentence's beginnings first (they say who and what), then its other clauses
    heads = sorted((f for f in found if f != text and text.startswith(f)), key=len, reverse=True)
    rest = sorted(found - {text} - set(heads), key=len, reverse=True)
    return [text] + heads + rest


def _in_list(sep: str, before: str, after: str) -> bool:
    return sep == ", " and before[-1:].isdigit() and after[:1].isdigit()


def initials(name: str) -> str:
    return "".join(w[0] for w in name.split() if w)[:3] or name[:3]


def name_choices(text: str) -> list[str]:
    """A card's name and shorter forms ("Indian Peafowl", "Peafowl")."""
    words = text.split()
    out = [text]
    if len(words) > 1:
        out.append(words[-1])
        out.append(words[0])
    return out


load_kv(__file__)
