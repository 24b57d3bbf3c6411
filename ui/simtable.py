"""The simulated table: virtual pads for everyone without reader hardware.

With no readers (or ``companion run --sim``) the composition root hands the
app a simulated table source.  This panel is the players' hands and decks:
find a card by name, or show only one seat's deck, then touch a card and a
zone of the table screen, or drag the card onto the zone, with a finger or
the mouse.  Each zone of the table screen is then its virtual pad: the card's
virtual tag (:func:`companion.tags.virtual_uid`) is put on that pad with
``source.place(pad, uid)``, and the source emits exactly the pad event a real
reader would.  The session cannot tell the difference.

The panel is not a modal view: it lies over the half of the screen away from
the zones it feeds (the chosen seat's, or the active seat's, and the shared
ones), and touches outside it reach the table, so several cards can be played
without reopening it.  It is built once per table and keeps its search,
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
the companion's shuffled deck, and "Play slots 2, 1, 4" lays its build.
"""
from __future__ import annotations

import random

from kivy.app import App
from kivy.core.window import Window
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button

from companion.games import sams
from companion.games.lifeforce import solo as lifeforce_solo
from companion.games.lifeforce.animals import BIT as LIFEFORCE_BIT
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
CARD_HEIGHT = 64


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
    deck_name = StringProperty("All cards")
    page = NumericProperty(0)
    pages = NumericProperty(1)
    shown = BooleanProperty(False)
    #: the seat whose zones the panel must leave visible (None: the active seat's)
    fed_seat = ObjectProperty(None, allownone=True)
    #: a solo game's hands (:class:`SoloHands`), else None
    solo = None

    def __init__(self, screen, **kwargs):
        super().__init__(screen=screen, **kwargs)
        controller = screen.controller
        session = screen.session
        self.catalogue = controller.catalogue(session.rules.name)
        players = session.options.get("players") or ["North", "South"]
        own = seat_decks(session.options)
        #: (button label, card ids or None for all, the seat it feeds or None)
        self.decks: list[tuple[str, list[str] | None, int | None]] = [("All cards", None, None)]
        self.solo = solo_row(self)
        if isinstance(self.solo, SoloHands):
            self.decks = [(f"{players[self.solo.person]}'s hand", None, self.solo.person)]
        elif self.solo is not None:
            self.decks = [(f"{players[self.solo.person]}'s deck", own[self.solo.person], self.solo.person)]
        if self.solo is not None:
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
        for box in screen.zone_boxes.values():
            box.bind(pos=lambda *_a: self._replace(), size=lambda *_a: self._replace())

    def _on_session_events(self, *_args) -> None:
        # (returns None: a Kivy handler that returns True would keep the event from the table screen)
        self._replace()
        if self.solo is not None:
            self.solo.refresh()

    def _session_changed(self, controller, session) -> None:
        if session is not self._session:
            controller.unbind(session=self._session_changed)
            controller.unbind(on_session_events=self._follow)
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
        if self.parent is not None:
            self.parent.remove_widget(self)
        self.shown = False

    def _fed_boxes(self) -> list:
        session = self.screen.session
        seat = self.fed_seat
        if seat is None and session is not None:
            seat = session.view(None).get("active_seat")
        return [b for b in self.screen.zone_boxes.values() if b.seat is None or seat is None or b.seat == seat]

    def _place(self, *_args) -> None:
        """A drawer beside the board, between the top bar and the bottom bar: the table screen
        narrows its board by the drawer's width (``drawer_width``), so no zone, no turn badge,
        no Undo and no confirm button is ever under it, and it never changes sides."""
        if not self.shown:
            return
        screen = self.screen
        if self.solo is not None or Window.width < DRAWER_MIN_WINDOW:
            screen.drawer_width = 0
            self._place_band()
            return
        width = round(Window.width * DRAWER_SHARE)
        top, bottom = screen.ids.top, screen.ids.bottom
        low = bottom.to_window(bottom.x, bottom.top)[1]
        high = top.to_window(top.x, top.y)[1]
        screen.drawer_width = width
        self.size_hint = (None, None)
        self.pos, self.size = (Window.width - width, low), (width, max(0, high - low))

    def _place_band(self) -> None:
        """A solo game's panel (its draw and play row needs the window's width): over the larger
        free band of the window above or below the zones being fed."""
        if not self.shown:
            return
        app = App.get_running_app()
        scale = app.scale if app else 1.0
        # room for a row of cards under the search bar; a solo panel also holds its draw and play rows
        minimum = (5 if self.solo is not None else 3) * theme.TOUCH * scale
        below = above = 0
        # The zones fed now; with no room beside them all, at least the shared ones stay free.
        for boxes in (self._fed_boxes(), [b for b in self.screen.zone_boxes.values() if b.seat is None]):
            if not boxes:
                continue
            below = min(b.to_window(b.x, b.y)[1] for b in boxes)
            above = Window.height - max(b.to_window(b.x, b.top)[1] for b in boxes)
            if max(below, above) >= minimum:
                break
        if max(below, above) < minimum:            # no room anywhere: the near half
            below, above = Window.height * 0.5, 0
        self.size_hint = (None, None)
        if below >= above:
            self.pos, self.size = (0, 0), (Window.width, below)
        else:
            self.pos, self.size = (0, Window.height - above), (Window.width, above)

    def fill(self) -> None:
        """The current page of cards matching the search and the deck filter."""
        grid = self.ids.grid
        app = App.get_running_app()
        scale = app.fscale if app else 1.0        # cards are text: they grow with the words
        cards = self.matching()
        cols = max(1, int(grid.width // (CARD_WIDTH * scale))) if grid.width > 10 else 4
        rows = max(1, int((grid.height + 4 * scale) // ((CARD_HEIGHT + 4) * scale))) if grid.height > 10 else 2
        per_page = cols * rows
        self.pages = max(1, -(-len(cards) // per_page))
        self.page = min(self.page, self.pages - 1)
        grid.cols = cols
        page = cards[self.page * per_page:(self.page + 1) * per_page]
        have = grid.children[::-1]
        for n, card in enumerate(page):
            # The face players know the card by ("7♥"), or its name, and then its values.
            text = f"{self.screen.controller.card_text(card.id)}\n{card_values(card)}"
            if n < len(have):
                have[n].card_id, have[n].text = card.id, text
            else:
                grid.add_widget(SimCard(card_id=card.id, text=text, panel=self))
        for extra in have[len(page):]:
            grid.remove_widget(extra)
        self.ids.count.text = (f"{len(cards)} card{'' if len(cards) == 1 else 's'}"
                               + (f" · {self.page + 1}/{self.pages}" if self.pages > 1 else "") if cards
                               else "No card in your hand" if isinstance(self.solo, SoloHands) and not self.query.strip()
                               else "No card matches")

    def on_size(self, *_args):
        if self.shown:
            from kivy.clock import Clock
            Clock.schedule_once(lambda _dt: self.fill(), 0)

    def matching(self) -> list:
        deck = next((d for d in self.decks if d[0] == self.deck_name), self.decks[0])[1]
        if isinstance(self.solo, SoloHands):
            deck = self.solo.hand()
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

    def _deck_buttons(self) -> None:
        box = self.ids.decks
        box.clear_widgets()
        if isinstance(self.solo, LifeforceSoloRow):
            box.add_widget(self.solo)           # the person's own deck only: no filter, search kept
            return
        if self.solo is not None:
            # A hand of a few cards needs no search and no filter: the row draws and plays instead.
            query = self.ids.query
            query.size_hint_x, query.width, query.opacity, query.disabled = None, 0, 0, True
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
        """A touched card: the next zone touched gets it (the panel stays where it is)."""
        self.screen.sim_lifting = False
        self.screen.sim_card = card_id

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


def solo_row(panel) -> "SoloRow | None":
    """The draw and play buttons of a solo game, by game; None when nobody plays solo."""
    session = panel.screen.session
    if "solo" not in session.state:
        return None
    return LifeforceSoloRow(panel) if session.rules.name == "lifeforce" else SoloHands(panel)


class SoloRow(BoxLayout):
    """A solo game's row on the simulated table: the companion's cards come from a pile shuffled
    once per game (seeded: a resumed game deals alike) and go onto its hand pad unseen; its play is
    laid from the slots it named.  A game's row says which cards may be drawn and how a play is laid."""

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


class SoloHands(SoloRow):
    """Sam's solo game on the simulated table: one shuffled box for both hands, the person's hand
    by face, the companion's never (drawn onto its hand pad and played from the slot it names).
    The card list shows only the person's hand (:meth:`hand`)."""

    def __init__(self, panel, **kwargs):
        super().__init__(panel, sams.DECK, sams.hand_zone, **kwargs)
        state = panel.screen.session.state
        self.drawn: list[str] = []          # the person's cards drawn here since the hand was last emptied
        self._round, self._redrawn = state["round"], state["redrawn"][self.person]
        self.mine = BigButton()
        self.mine.bind(on_release=lambda *_a: self.draw_mine())
        for b in (self.mine, self.theirs, self.play_button):
            self.add_widget(b)
        self.refresh()

    def hand(self) -> list[str]:
        """The person's cards still in hand: drawn here and not on the table (an undone play's
        card is back in the hand)."""
        state = self.panel.screen.session.state
        if state["round"] != self._round or state["redrawn"][self.person] and not self._redrawn:
            self.drawn = []                 # the hand went to the discard (or separate) pile
        self._round, self._redrawn = state["round"], state["redrawn"][self.person]
        return [c for c in self.drawn if not sams.BIT[c] & state["on_table"]]

    def drawable(self, card: str) -> bool:
        state = self.panel.screen.session.state
        return (not sams.BIT[card] & (state["on_table"] | state["discarded"])
                and card not in state["solo"]["slots"] and card not in self.hand())

    def refresh_play(self, state) -> None:
        mine = max(0, state["hand"][self.person] - len(self.hand()))
        self.mine.text = f"Draw for {self.me}" + (f" ({mine})" if mine else "")
        self.mine.disabled = not mine
        decision = state["solo"]["decision"]
        self.play_button.text = (f"Play slot {decision['slot'] + 1} on lane {decision['lane'] + 1}"
                                 if decision is not None else f"Play for {self.who}")
        self.play_button.disabled = decision is None

    def draw_mine(self) -> None:
        card = self._draw()
        if card is not None:
            self.drawn.append(card)
            self.refresh()

    def play(self) -> None:
        """Lay the card of the slot the companion named on the lane it named."""
        state = self.panel.screen.session.state
        decision = state["solo"]["decision"]
        if decision is None:
            return
        card = state["solo"]["slots"][decision["slot"]]
        self.panel.screen.controller.sim_place(sams.lane_zone(self.seat, decision["lane"]), card, secret=True)


class LifeforceSoloRow(SoloRow):
    """Lifeforce's solo game on the simulated table: each player has a deck of their own, so the
    person plays from theirs as in any game (the card list shows only that deck) and the companion's
    is shuffled here: a draw takes the next card of it not in its graveyard, discard pile, battle
    or holder, as the engine counts its deck; its build is laid from the slots it named."""

    def __init__(self, panel, **kwargs):
        state = panel.screen.session.state
        super().__init__(panel, seat_decks(state["options"])[state["solo"]["seat"]], lifeforce_solo.hand_zone,
                         **kwargs)
        for b in (self.theirs, self.play_button):
            self.add_widget(b)
        self.refresh()

    def drawable(self, card: str) -> bool:
        state = self.panel.screen.session.state
        gone = state["graveyard"][self.seat] | state["discard"][self.seat] | state["table"][self.seat]
        return not LIFEFORCE_BIT[card] & gone and card not in state["solo"]["slots"]

    def refresh_play(self, state) -> None:
        pending = self._pending(state)
        self.play_button.text = (f"Play slot{'s' if len(pending) > 1 else ''} "
                                 f"{', '.join(str(slot + 1) for slot, _zone in pending)}"
                                 if pending else f"Play for {self.who}")
        self.play_button.disabled = not pending

    def _pending(self, state) -> list[tuple[int, str]]:
        """The holder slots of the companion's build still to be laid, each with its pad's zone."""
        decision = state["solo"]["decision"]
        if decision is None or state["turn"] != self.seat or state["phase"] not in ("attack", "counter"):
            return []
        slots = state["solo"]["slots"]
        out = [(decision["animal"], f"{self.seat}.attacker")] if slots[decision["animal"]] is not None else []
        return out + [(s, f"{self.seat}.support") for s in decision["support"] if slots[s] is not None]

    def play(self) -> None:
        """Lay the cards of the slots the companion named on the pads it named, animal first."""
        session = self.panel.screen.session
        for slot, zone in self._pending(session.state):
            self.panel.screen.controller.sim_place(zone, session.state["solo"]["slots"][slot], secret=True)


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
            self._ghost = CardChip(text=self.panel.screen.controller.card_text(self.card_id))
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


def _window_pos(touch) -> tuple[float, float]:
    """Where a touch is in window coordinates, whatever widget transformed it."""
    return touch.sx * Window.width, touch.sy * Window.height


load_kv(__file__)
