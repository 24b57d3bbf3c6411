"""A club event's screens over the running app (ui.pairing): the pairing, then the players' answers.

:class:`EventOverlay` is given the app and the table's
:class:`~companion.club.eventtable.EventTable` (``ui.main`` makes one when the
table has joined a club).  When the hub sends a pairing and no game is being
played, the pairing opens over whatever screen is shown; when both players have
pressed, the game starts through the app's controller (as the Setup screen
starts one) and the overlay closes.  When that game is over, the answer view
opens: each player agrees or disputes; once both have answered it closes.
On the pairing, each seat's *Deck check* opens that player's deck check
(:mod:`ui.deckcheck`) over it; the pads read for it until it closes.
While either is open the physical seat buttons press it (the input road's
``take_presses``): on the pairing, "that's me"; on the answer, "I agree".
"""
from __future__ import annotations

from kivy.clock import Clock
from kivy.core.window import Window

from companion.engine import IllegalAction
from ui.deckcheck import DeckCheckView, deck_check_pad
from ui.pairing import AnswerView, PairingView
from ui.widgets import Modal


class EventOverlay:
    def __init__(self, app, event_table):
        self.app, self.table = app, event_table
        self.pairing_modal = Modal(auto_dismiss=False, size_hint=(1, 1))
        self.pairing_view = PairingView(event_table, self._start, on_deck_check=self.open_deck_check)
        self.pairing_modal.add_widget(self.pairing_view)
        self.deck_modal: Modal | None = None
        self.deck_view: DeckCheckView | None = None
        self.answer_modal: Modal | None = None
        self._event_game: int | None = None
        event_table.listeners.append(lambda pairing: Clock.schedule_once(lambda dt: self._pairing(pairing)))
        if event_table.pairing is not None:
            Clock.schedule_once(lambda dt: self._pairing(event_table.pairing))

    def _playing(self) -> bool:
        session = self.app.controller.session
        return session is not None and not session.rules.is_over(session.state)

    def _presses_to(self, view) -> None:
        """The physical seat buttons (through the input road) press ``view``'s seats; None: the game's again."""
        road = self.app.controller.road
        road.take_presses(None if view is None else
                          lambda seat: Clock.schedule_once(lambda dt: view.press(seat)))

    def _pairing(self, pairing) -> None:
        if pairing is None:
            self.pairing_modal.dismiss()
            self._presses_to(None)
        elif not self._playing() and self.answer_modal is None and self.table.needs_game():
            self.pairing_view.refresh()
            self.pairing_modal.open()
            self._presses_to(self.pairing_view)

    def open_deck_check(self, player: int) -> DeckCheckView:
        """The pairing's ``player``'s deck check over the pairing: the pads come to it until it closes."""
        from companion.event.pages import game_title
        controller, pairing = self.app.controller, self.table.pairing
        pad = deck_check_pad(pairing["game"], pairing["options"], controller._profile())
        check = self.table.start_deck_check(player, pad, controller.store.tags.lookup)
        view = DeckCheckView(check, game_title(pairing["game"]), self._close_deck_check)
        self.deck_modal, self.deck_view = Modal(auto_dismiss=False, size_hint=(1, 1)), view
        self.deck_modal.add_widget(view)
        self.deck_modal.open()
        controller.pad_taker = view.take_pad_event
        self._presses_to(None)
        return view

    def _close_deck_check(self) -> None:
        controller = self.app.controller
        if self.deck_modal is not None:
            if controller.pad_taker == self.deck_view.take_pad_event:
                controller.pad_taker = None
            self.deck_modal.dismiss()
            self.deck_modal = self.deck_view = None
        self.table.deck_check = None
        if self.pairing_modal.parent is not None:
            self._presses_to(self.pairing_view)

    def _start(self, table) -> None:
        controller = self.app.controller
        try:
            session = table.start(lambda store, game, options, seed=None: controller.start_game(game, options, seed))
        except (IllegalAction, ValueError) as exc:
            self.pairing_view.headline.text = str(exc)
            return
        self._event_game = session.id
        session.subscribe(lambda s, events: Clock.schedule_once(lambda dt: self._changed(s)))
        self.pairing_modal.dismiss()
        self._presses_to(None)

    def _changed(self, session) -> None:
        if session.id != self._event_game or self.answer_modal is not None or not session.rules.is_over(session.state):
            return
        result = session.rules.result(session.state)
        names = session.options.get("players") or ["North", "South"]
        winner = result.get("winner")
        text = (f"Result: {names[winner]} won" if winner in (0, 1) else "Result: a draw") + " — do you agree?"
        self.answer_modal = Modal(auto_dismiss=False, size_hint=(1, 1))
        view = AnswerView(self.table, session, text, self._answered)
        self.answer_modal.add_widget(view)
        self.answer_modal.open()
        self._presses_to(_Agree(view))              # a seat's button agrees; Dispute is on the screen
        # The game's summary (ui.screens.result) opens for the same change, maybe after this: the
        # players answer first, so this stays on top; the summary is there when it closes.
        Window.bind(children=self._keep_on_top)

    def _keep_on_top(self, window, children) -> None:
        modal = self.answer_modal
        if modal is not None and modal.parent is window and children and children[0] is not modal:
            Clock.schedule_once(lambda dt: self._raise(modal))

    def _raise(self, modal) -> None:
        if modal is self.answer_modal and modal.parent is Window and Window.children[0] is not modal:
            Window.remove_widget(modal)
            Window.add_widget(modal)

    def _answered(self) -> None:
        Window.unbind(children=self._keep_on_top)
        self._presses_to(None)
        if self.answer_modal is not None:
            self.answer_modal.dismiss()
        self.answer_modal, self._event_game = None, None
        if self.table.pairing is not None:                 # the match's next game, or the next round
            self._pairing(self.table.pairing)


class _Agree:
    """A seat's physical button on the answer view: that player agrees."""

    def __init__(self, view: AnswerView):
        self.view = view

    def press(self, seat: int) -> None:
        if (self.view.session.id, seat) not in self.view.event_table.answered:
            self.view.answer(seat, True)
