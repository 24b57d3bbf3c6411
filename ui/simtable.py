"""The simulated table: virtual pads for everyone without reader hardware.

With no readers (or ``companion run --sim``) the composition root hands the
app a simulated table source.  This panel is the players' hands and decks:
find a card by name, or show only one seat's deck, then touch a card and a
zone of the table screen, or drag the card onto the zone, with a finger or
the mouse.  Each zone of the table screen is then its virtual pad: the card's
virtual tag (:func:`companion.tags.virtual_uid`) is put on that pad with
``source.place(pad, uid)``, and the source emits exactly the pad event a real
reader would.  The session cannot tell the difference.

The panel is not a modal view and covers nothing of the board: at 1280×800 a
drawer beside it, at 800×480 a tray under it (the board gives up that room),
so every zone, the turn badge, Undo and the confirm button stay in sight and
in reach, and the panel never changes sides as the turn does; touches outside
it reach the table, so several cards can be played without reopening it.  It is built once per table and keeps its search,
filter and page while it is closed and reopened.  It never shows which card
lies where; a card's face and values are the players' own knowledge.

In a solo game (Sam's or Lifeforce with a ``solo_seat``) the companion's cards are the one
thing the person may not know, so the panel deals as hands at a real table
do, from one shuffled pile: "Draw for North" puts the next card in the
person's hand, which is then all the card list shows (the whole box would name
the companion's cards too, and leaving only those out would name them by their
absence); "Draw for South" taps the next card on the companion's hand pad
without showing it; "Play slot 3 on lane 2" lays the card of the slot the
companion named on the lane it named.  In Lifeforce each player has a deck of
their own: the list shows the person's, "Draw for South" takes the next card of
the companion's shuffled deck, and "Play slots 2, 1, 4" lays its build.  This
module keeps what every game shares (:class:`SoloRow`); each game's row lives
with its table screen (``SoloHands`` in ``ui/tables/sams.py``,
``LifeforceSoloRow`` in ``ui/tables/lifeforce.py``, made by ``solo_row``).
"""
from __future__ import annotations

import random

from kivy.app import App
from kivy.core.window import Window
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button

from ui import theme
from ui.confirm import ConfirmButton  # noqa: F401  (used by simtable.kv)
from ui.decklists import card_values, seat_decks, shipped_decks, short_deck_name
from ui.kv import load_kv
from ui.widgets import BigButton, CardChip

#: the card drawer's share of the window's width (800×480: 320 px, the board keeps 480; 1280×800: 512)
DRAWER_SHARE = 0.4
#: a narrower window (800×480) keeps the whole width for the board: the five games' boards broke
#: their words at 480 px (measured on the screenshots), so there the panel lies over the band away
#: from the zones being fed, between the top and the bottom bar
DRAWER_MIN_WINDOW = 1000
DRAG_DISTANCE = 20      # px a touch must travel before a tap becomes a drag
CARD_WIDTH = 150        # px at text size 1: a card button, its name and values on up to three lines
TRAY_CARD_WIDTH = 86    # px at text size 1 in the 800×480 tray: a hand of five in one row
CARD_HEIGHT = 64
TRAY_CARD_HEIGHT = 52   # px at text size 1: two whole lines of 18 px text (face, values) in the tray
#: the deck choice that lists the cards the fed seat may put on a pad now, by the engine
PLAYABLE = "Playable now"
#: card attributes that group a hand, as the games use them (a suit, a kind, a colour), and that sort it
GROUP_KEYS = ("suit", "kind", "type", "colour", "class", "faction", "biome")
VALUE_KEYS = ("rank", "lifespan_max", "attack", "atk", "power", "cost", "health")


def card_order(card) -> tuple:
    """Where a card goes in a sorted, grouped hand: its group (suit, kind…), then its value, then
    its name — so "2♥ 7♥ 10♥ | 3♠ 9♠" and Lifeforce's red animals by lifespan."""
    attrs = card.attrs
    group = next((str(attrs[k]) for k in GROUP_KEYS if isinstance(attrs.get(k), str)), "")
    value = next((attrs[k] for k in VALUE_KEYS if isinstance(attrs.get(k), (int, float))), 0)
    return group, value, card.name


def open_panel(screen) -> "SimPanel":
    """Show the table screen's panel, made the first time (it keeps its search, filter and page)."""
    panel = getattr(screen, "_sim_panel", None)
    if panel is None:
        panel = screen._sim_panel = SimPanel(screen=screen)
    panel.open()
    return panel


class SimPanel(BoxLayout):
    screen = ObjectProperty(None)
    query = StringProperty("")
    deck_name = StringProperty(PLAYABLE)
    #: laid as a one-row tray under the board (a window too narrow for a drawer beside it)
    tray = BooleanProperty(False)
    #: rows of buttons over the cards: the deck choices (one row), a solo game's draw and play
    #: buttons (stacked in the drawer, one row in the tray), none in a two-player tray
    deck_rows = NumericProperty(1)
    #: the search field is offered (not for a solo game's dealt hand of a few cards)
    searchable = BooleanProperty(True)
    #: the top of the search keyboard docked along the window's bottom (0: none): the tray lies on it
    keyboard_top = NumericProperty(0)
    #: "Place all 13" when every card of the hand goes on one zone now, else ""
    place_all_text = StringProperty("")
    page = NumericProperty(0)
    pages = NumericProperty(1)
    per_page = 1          # cards a page shows now (set by fill)
    shown = BooleanProperty(False)
    #: the seat whose zones the panel must leave visible (None: the active seat's)
    fed_seat = ObjectProperty(None, allownone=True)
    #: a solo game's draw and play row (:class:`SoloRow`, from the table screen's ``solo_row``), else None
    solo = None

    def __init__(self, screen, **kwargs):
        super().__init__(screen=screen, **kwargs)
        controller = screen.controller
        session = screen.session
        self.catalogue = controller.catalogue(session.rules.name)
        players = session.options.get("players") or ["North", "South"]
        own = seat_decks(session.options)
        #: (button label, card ids or None for all, the seat it feeds or None)
        self.decks: list[tuple[str, list[str] | None, int | None]] = [(PLAYABLE, None, None), ("All cards", None, None)]
        # A solo game's row comes from the game's own table screen (ui/tables/<game>.py).
        self.solo = screen.solo_row(self) if "solo" in session.state else None
        if self.solo is not None:
            self.decks = [self.solo.deck()]
            self.deck_name = self.decks[0][0]
            self.fed_seat = self.solo.person
        elif own is not None:
            self.decks += [(f"{players[s]}'s deck", own[s], s) for s in (0, 1)]
        else:
            self.decks += [(short_deck_name(name), cards, None) for name, cards in shipped_decks(session.rules.name)]
        self._deck_buttons()
        self._session = session          # the table may stay for the next game (a rematch): the panel does not
        controller.bind(session=self._session_changed)
        # Follow the board: the active seat changes with each action, and a zone may move.
        from kivy.clock import Clock
        self._replace = Clock.create_trigger(self._place, 0)
        self._follow = self._on_session_events
        controller.bind(on_session_events=self._follow)
        # a hand follows the pads too: a card the game took off the table is lifted after its events
        self._refill = Clock.create_trigger(self._fill_shown, 0)
        self._pads = self._on_pad_event
        controller.bind(on_pad_event=self._pads)
        for box in screen.zone_boxes.values():
            box.bind(pos=lambda *_a: self._replace(), size=lambda *_a: self._replace())

    def _on_session_events(self, *_args) -> None:
        # (returns None: a Kivy handler that returns True would keep the event from the table screen)
        self._replace()
        if self.solo is not None:
            self.solo.refresh()
        elif self.shown:
            self.fill()                  # the hand changed with the play

    def _on_pad_event(self, *_args) -> None:
        if self.shown and self.solo is None:
            self._refill()

    def _fill_shown(self, _dt=None) -> None:
        if self.shown:
            self.fill()

    def _session_changed(self, controller, session) -> None:
        if session is not self._session:
            controller.unbind(session=self._session_changed)
            controller.unbind(on_session_events=self._follow)
            controller.unbind(on_pad_event=self._pads)
            self.dismiss()

    # ---- showing ---------------------------------------------------------------------
    def open(self) -> None:
        if self.parent is None:
            Window.add_widget(self)
        self.shown = True
        Window.bind(size=self._place)
        self._place()
        if self.solo is not None:
            self.solo.refresh()             # the game went on while the panel was closed
        self.fill()

    def dismiss(self) -> None:
        Window.unbind(size=self._place)
        self.screen.drawer_width = 0
        self.screen.tray_height = 0
        if self.parent is not None:
            self.parent.remove_widget(self)
        self.shown = False

    def _place(self, *_args) -> None:
        """A drawer beside the board, between the top bar and the bottom bar: the table screen
        narrows its board by the drawer's width (``drawer_width``), so no zone, no turn badge,
        no Undo and no confirm button is ever under it, and it never changes sides."""
        if not self.shown:
            return
        screen = self.screen
        top, bottom = screen.ids.top, screen.ids.bottom
        low = bottom.to_window(bottom.x, bottom.top)[1]
        high = top.to_window(top.x, top.y)[1]
        self.size_hint = (None, None)
        app = App.get_running_app()
        fs, scale, bs = (app.fscale, app.scale, app.bscale) if app else (1.0, 1.0, 1.0)
        solo_buttons = len(self.solo.children) if self.solo is not None else 0
        if Window.width < DRAWER_MIN_WINDOW:
            # 800×480: a tray one card tall between the board and the bottom bar (a solo game's
            # draw and play buttons in a row above the cards); the board gives up that height (its
            # zones keep their words whole: tests/ui/test_simtable.py, tests/ui/test_solo.py)
            height = round(TRAY_CARD_HEIGHT * fs + 8 * scale) + (round((theme.TOUCH + 4) * bs) if solo_buttons else 0)
            self.tray = True
            self.deck_rows = 1 if solo_buttons else 0
            self._dock_decks()
            screen.drawer_width, screen.tray_height = 0, height
            self.pos, self.size = (0, max(low, self.keyboard_top)), (Window.width, height)
            return
        self.tray = False
        self.deck_rows = solo_buttons or 1        # a solo game's buttons stacked: each keeps its words whole
        self._dock_decks()
        width = round(Window.width * DRAWER_SHARE)
        screen.drawer_width, screen.tray_height = width, 0
        self.pos, self.size = (Window.width - width, low), (width, max(0, high - low))

    def _dock_decks(self) -> None:
        """The deck choices (a solo game's buttons) between the search and the cards in the drawer;
        in the tray a solo game's buttons make a row of their own above the cards."""
        decks, line = self.ids.decks, self.ids.line
        home = self if self.tray and self.solo is not None else line
        if self.solo is not None:
            self.solo.orientation = "horizontal" if self.tray else "vertical"
        if decks.parent is home:
            return
        decks.parent.remove_widget(decks)
        if home is self:
            self.add_widget(decks, index=len(self.children))           # the top row
        else:
            line.add_widget(decks, index=len(line.children) - 1)       # under the search row

    def fill(self) -> None:
        """The current page of cards matching the search and the deck filter."""
        grid = self.ids.grid
        app = App.get_running_app()
        scale = app.fscale if app else 1.0        # cards are text: they grow with the words
        cards = self.matching()
        whole = self.deck_name == PLAYABLE and not self.query.strip() and self.solo is None
        zone = self.place_all_zone() if whole else None
        self.place_all_text = ((f"Place all {len(cards)}" if len(cards) <= 15 else "Place all") if zone
                               else "Place a row" if whole and self.row_zones() else "")
        wide = (TRAY_CARD_WIDTH if self.tray else CARD_WIDTH) * scale
        cols = max(1, int(grid.width // wide)) if grid.width > 10 else 4
        if self.tray:
            # the row's width less what the tray's buttons take (simtable.kv), arrows only when needed
            bs = app.bscale if app else 1.0
            room = self.width - 8 * (app.scale if app else 1.0) - 12 * bs \
                - ((88 if self.searchable else 0) + 64 + 20 + 172) * bs \
                - (118 * bs if self.place_all_text else 0)
            cols = max(1, int(room // wide))
            if len(cards) > cols:
                cols = max(1, int((room - 96 * bs) // wide))
        rows = 1 if self.tray else \
            max(1, int((grid.height + 4 * scale) // ((CARD_HEIGHT + 4) * scale))) if grid.height > 10 else 2
        per_page = self.per_page = cols * rows
        self.pages = max(1, -(-len(cards) // per_page))
        self.page = min(self.page, self.pages - 1)
        grid.cols = cols
        # in the tray a card keeps its width however few there are (a lone card is not a banner)
        grid.col_force_default = self.tray
        grid.col_default_width = max(1, (grid.width - 4 * scale * (cols - 1)) / cols) if self.tray else 0
        page = cards[self.page * per_page:(self.page + 1) * per_page]
        have = grid.children[::-1]
        width = grid.width / cols - 10 * scale
        for n, card in enumerate(page):
            # The face players know the card by ("7♥"), or its name, and then its values.
            text = self.card_label(card, width) if self.tray else \
                f"{self.screen.controller.card_text(card.id)}\n{card_values(card)}"
            if n < len(have):
                have[n].card_id, have[n].text = card.id, text
            else:
                grid.add_widget(SimCard(card_id=card.id, text=text, panel=self))
        for extra in have[len(page):]:
            grid.remove_widget(extra)
        self.ids.count.text = (f"{len(cards)} card{'' if len(cards) == 1 else 's'}"
                               + (f" · {self.page + 1}/{self.pages}" if self.pages > 1 else "") if cards
                               else "No card in your hand" if self.solo is not None and self.solo.HAND and not self.query.strip()
                               else "No card matches")

    def card_label(self, card, width: float) -> str:
        """A card in the tray, one line of face or name and one of values, each whole: the
        longest form of each that fits ``width`` ("Castle Ravensworth" → "Ravensworth")."""
        from ui.tables.generic import name_choices
        from ui.widgets import measure
        app = App.get_running_app()
        font = theme.FONT_BODY * (app.fscale if app else 1.0)
        face = self.screen.controller.card_text(card.id)
        values = card_values(card)
        parts = values.split(" · ")
        value_choices = [" · ".join(parts[:n]) for n in range(len(parts), 0, -1)]
        value_choices += [_abbreviated(v) for v in value_choices]

        def first_fit(choices):
            return next((c for c in choices if measure(c, font, False, None)[0] <= width), choices[-1])
        return f"{first_fit(name_choices(face)[:1] + sorted(name_choices(face)[1:], key=len, reverse=True))}" \
               f"\n{first_fit(value_choices)}"

    def on_size(self, *_args):
        if self.shown:
            from kivy.clock import Clock
            Clock.schedule_once(lambda _dt: self.fill(), 0)

    def matching(self) -> list:
        deck = next((d for d in self.decks if d[0] == self.deck_name), self.decks[0])[1]
        if self.deck_name == PLAYABLE and not self.query.strip() or self.solo is not None and self.solo.HAND:
            return self.hand()
        cards = list(self.catalogue)
        if deck is not None:
            wanted = set(deck)
            cards = [c for c in cards if c.id in wanted]
        text = self.query.strip().lower()
        if text:
            found = {c.id for c in self.catalogue.find(text)}
            face = card_face_query(text)
            text_of = self.screen.controller.card_text
            cards = [c for c in cards if c.id in found or text in card_values(c).lower()
                     or face and text_of(c.id).lower() == face]
        # The hand first: cards lying on the table go last (kept: a game may hold several copies),
        # so the cards still to play fill the first pages and fewer touches turn them.
        from companion.tags import virtual_uid
        lying = {u for uids in self.screen.controller.source.on_pad.values() for u in uids}
        return sorted(cards, key=lambda c: virtual_uid(c.id) in lying)

    def fed(self) -> int | None:
        """The seat the panel feeds: the one chosen, else the one to act now."""
        if self.fed_seat is not None:
            return self.fed_seat
        session = self.screen.session
        if session is None:
            return None
        seat = session.view(None).get("active_seat")
        if seat is None and self.deck_name == PLAYABLE:
            # both seats may play (Territory's creatures entered, Lifeforce's deck check): the
            # first that still has cards to play, so its hand is one seat's and "Place all" fits
            for candidate in (0, 1):
                if any(session.rules.scan_for(session.state, a) and a.get("seat") == candidate
                       for a in session.rules.legal_actions(session.state)):
                    return candidate
        return seat

    def playable(self) -> dict[str, list[str]]:
        """Each card the fed seat may put on a pad now, by the engine's legal actions, with the
        zones it may go on (a shared zone too)."""
        session = self.screen.session
        if session is None:
            return {}
        key = (id(session.state), self.fed())
        if getattr(self, "_playable_key", None) == key:
            return self._playable
        seat, rules, state = key[1], session.rules, session.state
        out: dict[str, list[str]] = {}
        for action in rules.legal_actions(state):
            scan = rules.scan_for(state, action)
            if scan is None or scan[0] not in self.screen.zone_boxes:
                continue
            zone_seat = self.screen.zone_boxes[scan[0]].seat
            if seat is not None and (zone_seat not in (None, seat) or action.get("seat") not in (None, seat)):
                continue
            zones = out.setdefault(scan[1], [])
            if scan[0] not in zones:
                zones.append(scan[0])
        self._playable_key, self._playable = key, out
        return out

    def hand(self) -> list:
        """The fed seat's hand, sorted and grouped (:func:`card_order`): a solo game's dealt hand;
        else the hand the game's screen keeps (Sam's deals one, as players draw); else every card
        the engine lets that seat put on a pad now."""
        by_id = {c.id: c for c in self.catalogue}
        if self.solo is not None and self.solo.HAND:
            ids = self.solo.hand()
        else:
            ids = self.screen.sim_hand(self, self.fed())
            if ids is None:
                # a card lying on the table is not in a hand (moving it is the player's hand's job)
                from companion.tags import virtual_uid
                lying = {u for uids in self.screen.controller.source.on_pad.values() for u in uids}
                ids = [c for c in self.playable() if virtual_uid(c) not in lying]
        cards = [by_id[c] for c in dict.fromkeys(ids) if c in by_id]
        return sorted(cards, key=card_order)

    def zones_for(self, card_id: str) -> list[str]:
        return self.playable().get(card_id, [])

    def place_all_zone(self) -> str | None:
        """The one zone every card of the hand goes on now (Territory's ready pad while creatures
        are entered), or None.  "Place all" then lays the whole hand there with one touch."""
        from ui.tables.generic import zone_kind
        hand = self.hand()
        zones = {tuple(self.zones_for(c.id)) for c in hand}
        if len(hand) > 1 and len(zones) == 1:
            only = next(iter(zones))
            # only where the game lays a whole pile there (its screen says so): a pad that takes
            # any number of cards may still want a few (Lifeforce's support row)
            if len(only) == 1 and zone_kind(only[0]) in self.screen.WHOLE_HAND_ZONES:
                return only[0]
        return None

    def row_zones(self) -> list[str]:
        """The free zones of one kind the fed seat fills now card after card, keeping its turn
        (Vita Luna's white positions while it places): "Place a row" lays the hand's first
        cards there, one each.  Empty where a placement passes the turn (Sam's lanes, by the
        engine: its ``apply`` is pure, so the first placement is tried on a copy)."""
        from ui.tables.generic import zone_kind
        hand = self.hand()
        if len(hand) < 2:
            return []
        first = self.zones_for(hand[0].id)
        row = [z for z in first if zone_kind(z) == zone_kind(first[0])] if first else []
        if len(row) < 2:
            return []
        session = self.screen.session
        rules, state, seat = session.rules, session.state, self.fed()
        action = next((a for a in rules.legal_actions(state)
                       if rules.scan_for(state, a) == (row[0], hand[0].id)), None)
        if action is None:
            return []
        try:
            after, _events = rules.apply(state, action)
        except Exception:                        # an engine's refusal: no row offered
            return []
        if rules.view(after, None).get("active_seat") not in (seat, None) or not any(
                rules.scan_for(after, a) and a.get("seat") == seat for a in rules.legal_actions(after)):
            return []
        return row

    def place_all(self) -> None:
        """Lay the hand with one touch: every card on its one zone, or a row (:meth:`row_zones`),
        in the hand's order, while the engine takes them."""
        zone = self.place_all_zone()
        pairs = ([(zone, card.id) for card in self.hand()] if zone is not None
                 else list(self._row_pairs()))
        controller = self.screen.controller
        road = getattr(controller, "road", None)
        for zone, card in pairs:
            if zone not in self.zones_for(card):
                break
            session = self.screen.session
            before = len(session.actions)
            controller.sim_place(zone, card)
            if road is not None:
                road.join()                  # each card is read and played before the next is laid
            if len(session.actions) == before:
                break
        self.fill()

    def _row_pairs(self):
        row, used = self.row_zones(), set()
        for zone in row:
            card = next((c.id for c in self.hand() if c.id not in used and zone in self.zones_for(c.id)), None)
            if card is not None:
                used.add(card)
                yield zone, card

    def _deck_buttons(self) -> None:
        box = self.ids.decks
        box.clear_widgets()
        if self.solo is not None and not self.solo.HAND:
            box.add_widget(self.solo)           # the person's own deck only: no filter, search kept
            return
        if self.solo is not None:
            # A hand of a few cards needs no search and no filter: the row draws and plays instead.
            self.searchable = False
            box.add_widget(self.solo)
            return
        app = App.get_running_app()
        scale = app.scale if app else 1.0
        for name, _cards, _seat in self.decks:
            chosen = name == self.deck_name
            b = BigButton(text=name, tone=theme.HIGHLIGHT if chosen else theme.PANEL_LIGHT,
                          color=theme.CARD_TEXT if chosen else theme.TEXT)
            b.bind(on_release=lambda _b, n=name: self.choose_deck(n))
            box.add_widget(b)

    # ---- players' touches ---------------------------------------------------------------
    def keyboard(self, focused: bool) -> None:
        """The on-screen keyboard comes with the search field (a touchscreen has no other)."""
        if focused:
            self.screen.search_keyboard(self.ids.query)

    def search(self, text: str) -> None:
        self.query = text
        self.page = 0
        self.fill()

    def choose_deck(self, name: str) -> None:
        self.deck_name = name
        self.fed_seat = next((seat for n, _c, seat in self.decks if n == name), None)
        self.page = 0
        self._deck_buttons()
        self._place()
        self.fill()

    def turn(self, delta: int) -> None:
        self.page = max(0, min(self.pages - 1, self.page + delta))
        self.fill()

    def pick(self, card_id: str) -> None:
        """A touched card: placed at once where it can go only one way (the one zone the engine
        takes it on now, or the zone touched first) or where the game puts it first
        (``sim_default_zone``); else the next zone touched gets it."""
        screen = self.screen
        screen.sim_lifting = False
        keyboard = getattr(screen, "_keyboard", None)
        if keyboard is not None and keyboard.shown:
            keyboard.done()                  # the card found: the zones it goes on come back in sight
        zones = self.zones_for(card_id)
        armed = [z for z in screen.sim_zones.values() if z in zones]
        default = screen.sim_default_zone(card_id, zones) if len(zones) > 1 else None
        if armed:
            screen.controller.sim_place(armed[0], card_id)
        elif len(zones) == 1:
            screen.controller.sim_place(zones[0], card_id)
        elif default in zones:
            screen.controller.sim_place(default, card_id)
        else:
            screen.sim_card = card_id

    def lift_mode(self) -> None:
        self.screen.sim_card = None
        self.screen.sim_lifting = True

    def clear_table(self) -> None:
        self.screen.controller.sim_clear()

    def on_touch_down(self, touch):
        # Touches outside the panel belong to the table below it.
        if not self.collide_point(*touch.pos):
            return False
        super().on_touch_down(touch)
        return True

    def on_touch_move(self, touch):
        if touch.grab_current is None and not self.collide_point(*touch.pos):
            return False
        return super().on_touch_move(touch)

    def on_touch_up(self, touch):
        if touch.grab_current is None and not self.collide_point(*touch.pos):
            return False
        return super().on_touch_up(touch)


NUMBER_WORDS = {"ace": "a", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
                "seven": "7", "eight": "8", "nine": "9", "ten": "10", "jack": "j", "queen": "q", "king": "k"}
SUITS = {"h": "♥", "d": "♦", "c": "♣", "s": "♠", "heart": "♥", "diamond": "♦", "club": "♣", "spade": "♠"}


ABBREVIATIONS = (("defence", "def"), ("attack", "atk"), ("health", "hp"), ("power", "pow"))


def _abbreviated(values: str) -> str:
    """ "defence 10" → "def 10": the words players know from the card, shorter."""
    for word, short in ABBREVIATIONS:
        values = values.replace(word, short)
    return values


def card_face_query(text: str) -> str | None:
    """A playing card's face as players type or say it, as the screen writes it, or None:
    "10h", "10♥", "10 h", "ten of hearts" and "10 of hearts" are all "10♥".

    >>> card_face_query("10h"), card_face_query("ten of hearts"), card_face_query("7 ♠"), card_face_query("yak")
    ('10♥', '10♥', '7♠', None)
    """
    import re
    match = re.fullmatch(r"\s*(\d+|[ajqk]|[a-z]+)\s*(?:of\s+)?([hdcs♥♦♣♠]|hearts?|diamonds?|clubs?|spades?)\s*",
                         text.lower())
    if match is None:
        return None
    rank, suit = match.groups()
    rank = NUMBER_WORDS.get(rank, rank)
    if not (rank.isdigit() or rank in "ajqk"):
        return None
    suit = SUITS.get(suit.rstrip("s") if len(suit) > 1 else suit, suit)
    return f"{rank}{suit}"


class SoloRow(BoxLayout):
    """A solo game's row on the simulated table: the companion's cards come from a pile shuffled
    once per game (seeded: a resumed game deals alike) and go onto its hand pad unseen; its play is
    laid from the slots it named.  A game's row says which cards may be drawn and how a play is laid;
    each game's row lives with its table screen (``ui/tables/<game>.py``, ``solo_row``)."""

    #: True: the card list shows only the hand this row dealt the person (:meth:`hand`), with no
    #: search or filter; False: the person's own deck (:meth:`deck`), searchable
    HAND = False

    def __init__(self, panel, pile: list[str], hand_zone, **kwargs):
        app = App.get_running_app()
        super().__init__(spacing=4 * (app.scale if app else 1.0), **kwargs)
        self.panel = panel
        session = panel.screen.session
        self.seat = session.state["solo"]["seat"]
        self.person = 1 - self.seat
        players = session.options.get("players") or ["North", "South"]
        self.who, self.me = players[self.seat], players[self.person]
        self.order = list(pile)
        random.Random(session.seed).shuffle(self.order)
        self.next = 0
        self.hand_zone = hand_zone(self.seat)
        self.theirs = BigButton()
        self.theirs.bind(on_release=lambda *_a: self.draw_theirs())
        self.play_button = BigButton(tone=theme.HIGHLIGHT, color=theme.CARD_TEXT)
        self.play_button.bind(on_release=lambda *_a: self.play())

    def deck(self) -> tuple[str, list[str] | None, int]:
        """The panel's one deck choice: its label, its cards (None: :meth:`hand`'s), the person's seat."""
        raise NotImplementedError

    def hand(self) -> list[str]:
        """The person's cards in hand, when the row deals them (``HAND``)."""
        raise NotImplementedError

    def drawable(self, card: str) -> bool:
        """``card`` may lie in the pile drawn from now."""
        raise NotImplementedError

    def _draw(self) -> str | None:
        # The next card of the shuffled pile that may be drawn, going round like a pile reshuffled.
        for step in range(len(self.order)):
            card = self.order[(self.next + step) % len(self.order)]
            if self.drawable(card):
                self.next = (self.next + step + 1) % len(self.order)
                return card
        return None

    def draw_theirs(self) -> None:
        """Tap the next card of the pile on the companion's hand pad, its face unseen."""
        card = self._draw()
        if card is not None:
            self.panel.screen.controller.sim_place(self.hand_zone, card, secret=True)

    def refresh(self) -> None:
        session = self.panel.screen.session
        if session is None or "solo" not in session.state:
            return
        missing = session.view(None)["detail"]["solo"]["missing"]
        self.theirs.text = f"Draw for {self.who}" + (f" ({missing})" if missing else "")
        self.theirs.disabled = not missing
        self.refresh_play(session.state)
        if self.panel.shown:
            self.panel.fill()

    def refresh_play(self, state) -> None:
        raise NotImplementedError


class SimCard(Button):
    """A card of the catalogue: touch to pick it, or drag it onto a zone."""

    card_id = StringProperty("")
    panel = ObjectProperty(None)
    _ghost = None

    def on_touch_down(self, touch):
        if self.collide_point(*touch.pos) and not self.panel.screen.sim_lifting:
            touch.grab(self)
            touch.ud["sim_card_start"] = _window_pos(touch)
            self.state = "down"
            return True
        return super().on_touch_down(touch)

    def on_touch_move(self, touch):
        if touch.grab_current is not self:
            return super().on_touch_move(touch)
        x, y = _window_pos(touch)
        if self._ghost is None:
            sx, sy = touch.ud["sim_card_start"]
            if abs(x - sx) + abs(y - sy) < DRAG_DISTANCE:
                return True
            self._ghost = _ghost(self.panel.screen.controller.card_text(self.card_id))
            Window.add_widget(self._ghost)
        self._ghost.center = (x, y)
        return True

    def on_touch_up(self, touch):
        if touch.grab_current is not self:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        self.state = "normal"
        screen = self.panel.screen
        if self._ghost is None:
            self.panel.pick(self.card_id)
            return True
        Window.remove_widget(self._ghost)
        self._ghost = None
        pos = _window_pos(touch)
        if self.panel.collide_point(*pos):
            return True                           # dropped back onto the panel: nothing happens
        zone = screen.zone_at(pos)
        if zone is not None:
            screen.controller.sim_place(zone.zone_id, self.card_id)
        return True


def _ghost(text: str) -> CardChip:
    """The chip that follows a dragged card: the body text, sized to its words (a chip in a zone
    is sized by its zone's ``ChipArea``)."""
    app = App.get_running_app()
    fs = app.fscale if app else 1.0
    chip = CardChip(text=text, font_size=theme.FONT_BODY * fs)
    chip.texture_update()
    chip.size = (max(chip.texture_size[0] + 10 * fs, 30 * fs), 30 * fs)
    return chip


def _window_pos(touch) -> tuple[float, float]:
    """Where a touch is in window coordinates, whatever widget transformed it."""
    return touch.sx * Window.width, touch.sy * Window.height


load_kv(__file__)
