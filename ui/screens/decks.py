"""Decks: scan a whole deck on a pad and see it checked live, problems in words.

Every card seen on a pad while this screen is shown joins the deck (a card
seen twice counts once: it is the same physical card).  Engines with deck
rules expose ``RULES.validate_deck(card_ids) -> list[str]``; the screen shows
its sentences after every card, or says the deck is legal.  A game without
deck rules says so instead of pretending to check.
"""
from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, ListProperty, StringProperty

from companion import games
from companion.cards import game_of
from companion.table import SEEN
from companion.tags import virtual_uid
from ui import theme
from ui.confirm import ConfirmButton  # noqa: F401  (used by decks.kv)
from ui.kv import load_kv
from ui.screens.scanning import ScanningScreen
from ui.screens.history import HistoryLine
from ui.words import counted

DECK_PAD = "deck"        # the simulated table's pad for decks scanned here


class DecksScreen(ScanningScreen):
    verdict = StringProperty("")
    verdict_ok = BooleanProperty(False)
    deck = ListProperty()            # card ids in scan order (a card may be there several times)
    #: the tag behind each entry of ``deck``: a tag counts once, a second copy of a card is another tag
    _tags: list = []

    def game_changed(self) -> None:
        self.deck, self._tags = [], []

    def refresh(self) -> None:
        self.check()

    def take_pad_event(self, ev) -> bool:
        if ev.kind != SEEN:
            return True
        controller = App.get_running_app().controller
        card_id = ev.card_id or controller.store.tags.lookup(ev.uid)
        if card_id is None:
            self.ids.banner.show(f"Unknown tag {ev.uid}: assign it a card on the Cards screen first")
        elif game_of(card_id) != self.game:
            self.ids.banner.show(f"{controller.card_name(card_id)} is a "
                                 f"{games.KNOWN_GAMES.get(game_of(card_id), game_of(card_id))} card, "
                                 f"not a {games.get(self.game).title} card: it stays out of this deck")
        elif ev.uid not in self._tags:
            self._tags = self._tags + [ev.uid]
            self.deck = self.deck + [card_id]
            self.check()
        return True

    def check(self) -> None:
        controller = App.get_running_app().controller
        box = self.ids.cards
        box.clear_widgets()
        for n, card_id in enumerate(self.deck, start=1):
            box.add_widget(HistoryLine(text=f"{n}. {controller.card_name(card_id)}"))
        problems_box = self.ids.problems
        problems_box.clear_widgets()
        if not self.game:
            self.verdict, self.verdict_ok = "No game has an engine yet.", False
            return
        rules = games.get(self.game)
        validate = getattr(rules, "validate_deck", None)
        if validate is None:
            self.verdict, self.verdict_ok = f"{rules.title} has no deck rules to check.", False
            return
        problems = list(validate(list(self.deck)))
        if problems:
            self.verdict, self.verdict_ok = f"{counted(len(self.deck), 'card')}: not a legal deck yet", False
            for p in problems:
                problems_box.add_widget(HistoryLine(text="• " + p, color=theme.TEXT))
        else:
            self.verdict, self.verdict_ok = f"{counted(len(self.deck), 'card')}: a legal {rules.title} deck", True

    def remove_last(self) -> None:
        self.deck, self._tags = self.deck[:-1], self._tags[:-1]
        self.check()

    def clear(self) -> None:
        self.deck, self._tags = [], []
        self.check()

    def add_whole_catalogue(self) -> None:
        """Simulated table only: scan every card of the catalogue, one after another."""
        controller = App.get_running_app().controller
        for card in controller.catalogue(self.game):
            uid = virtual_uid(card.id)
            controller.store.tags.register(uid, card.id)
            controller.source.place(DECK_PAD, uid)
            controller.source.lift(DECK_PAD, uid)


load_kv(__file__)
