"""Cards: scan a tag and assign it a card, write the card id onto the tag, find a card, enrol a deck.

While this screen is shown the pads scan for it: the last tag seen on any pad
is "the tag in hand".  Pick a card from the search results and touch
*Assign* to record in the tag registry which card that tag carries.  A table
whose source can write tags (``source.write_card_id(pad, uid, card_id)``)
also offers to write the card id onto the tag itself, so the tag works on any
companion without the registry.  On the simulated table, *New blank tag*
puts a fresh virtual tag on a pad.

*Enrol a deck* leads through a whole deck (the game's cards, or one of its
shipped decks): the screen names the next card in large letters, the player
puts that card's tag on any pad, and the screen registers it (and writes the
card id onto it when the table can and the player wants) and names the next
one, with no touch on the screen in between.  Tags already known and the same
tag twice are flagged in words (:mod:`ui.enrol`).
"""
from __future__ import annotations

import secrets

from kivy.app import App
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty

from companion import games
from companion.table import SEEN
from companion.tags import BadUid
from ui import theme
from ui.decklists import shipped_decks
from ui.enrol import Enrolment
from ui.kv import load_kv
from ui.screens.scanning import ScanningScreen
from ui.widgets import BigButton, Modal
from ui.words import counted

MAX_RESULTS = 40
SCAN_PAD = "scan"        # the simulated table's pad for tags scanned here


class CardsScreen(ScanningScreen):
    tag_text = StringProperty("No tag yet: put a card on any pad")
    selected_text = StringProperty("No card picked")
    can_assign = BooleanProperty(False)
    can_write = BooleanProperty(False)
    #: enrolling a deck: the next card's name, the progress, the last word about a tag
    enrolment = ObjectProperty(None, allownone=True)
    enrol_card = StringProperty("")
    enrol_progress = StringProperty("")
    enrol_note = StringProperty("")
    enrol_write = BooleanProperty(True)
    can_reassign = BooleanProperty(False)
    can_write_tags = BooleanProperty(False)
    _conflict_uid = None
    uid = None
    pad = None
    selected = None

    def refresh(self) -> None:
        self.search(self.ids.query.text)
        self._update()

    def game_changed(self) -> None:
        self.stop_enrolment()

    def on_pre_enter(self, *args):
        if self.enrolment is not None and self.enrolment.done:
            self.stop_enrolment()                # a deck enrolled earlier: back to one tag at a time
        super().on_pre_enter(*args)

    def take_pad_event(self, ev) -> bool:
        """Every tag seen on a pad while this screen is shown is the tag to work on."""
        if ev.kind == SEEN:
            self.uid, self.pad = ev.uid, ev.pad
            if ev.card_id:                       # the tag names its own card: a claim, never an override
                try:
                    App.get_running_app().controller.store.tags.resolve(ev.uid, ev.card_id)
                except ValueError as exc:        # NotSaved: the claim waits for the next sighting
                    self.ids.banner.show(str(exc))
            if self.enrolment is not None and not self.enrolment.done:
                self._enrol_sighting(ev)
            self._update()
        return True

    # ---- enrolling a whole deck --------------------------------------------------------
    def deck_choices(self) -> list[tuple[str, list[str]]]:
        controller = App.get_running_app().controller
        everything = [c.id for c in controller.catalogue(self.game)]
        return [(f"Every {games.short_name(self.game)} card", everything)] + shipped_decks(self.game)

    def choose_deck(self) -> None:
        EnrolChooser(screen=self).open()

    def start_enrolment(self, cards: list[str]) -> None:
        self.enrolment = Enrolment(list(cards))
        controller = App.get_running_app().controller
        self.can_write_tags = self.enrol_write = controller.source.can_write_tags
        self.enrol_note = "Put the card's tag on any pad. The next card is named as soon as it is read."
        self._show_enrolment()

    def stop_enrolment(self) -> None:
        self.enrolment = None
        self.can_reassign = False
        self._conflict_uid = None
        if "enrol_flags" in self.ids:
            self.ids.enrol_flags.clear_widgets()

    def _enrol_sighting(self, ev) -> None:
        controller = App.get_running_app().controller
        name = controller.card_name
        carries = controller.store.tags.lookup(ev.uid) or ev.card_id    # this table's registry first
        outcome = self.enrolment.saw(ev.uid, carries)
        self.can_reassign, self._conflict_uid = False, None
        if outcome.kind == "enrolled":
            self.enrol_note = self._register(ev, outcome.card_id)
        elif outcome.kind == "known":
            self.enrol_note = f"Tag {ev.uid} already carries {name(outcome.card_id)}: nothing to do."
        elif outcome.kind == "repeat":
            self.enrol_note = f"Tag {ev.uid} is {name(outcome.other)}'s, enrolled just now."
        elif outcome.kind == "duplicate":
            self.enrol_note = (f"Tag {ev.uid} was enrolled a moment ago as {name(outcome.other)}: "
                               f"the same tag twice. Put {name(outcome.card_id)}'s own tag on the pad.")
            self._flag(self.enrol_note)
        elif outcome.kind == "conflict":
            self.enrol_note = (f"Tag {ev.uid} already carries {name(outcome.other)}, not {name(outcome.card_id)}. "
                               f"Put the right tag on, or touch Reassign.")
            self.can_reassign, self._conflict_uid = True, ev.uid
            self._flag(self.enrol_note)
        self._show_enrolment()

    def _register(self, ev, card_id: str) -> str:
        controller = App.get_running_app().controller
        try:
            controller.store.tags.register(ev.uid, card_id)
        except (BadUid, ValueError) as exc:
            self.enrolment.back()
            return f"Tag {ev.uid} cannot be registered: {exc}"
        text = f"Tag {ev.uid} now carries {controller.card_name(card_id)}."
        if self.enrol_write and controller.source.can_write_tags:
            try:
                controller.source.write_card_id(ev.pad, ev.uid, card_id)
                text += " The card id is written on the tag."
            except Exception as exc:             # registered anyway; the tag just lacks the id
                text += f" It could not be written on the tag ({exc})."
                self._flag(f"{controller.card_name(card_id)}: registered, not written ({exc})")
        return text

    def reassign(self) -> None:
        if self.enrolment is None or self._conflict_uid is None:
            return
        uid = self._conflict_uid
        card = self.enrolment.current
        self.enrolment.reassign(uid)
        self.enrol_note = self._register(_Sighting(self.pad, uid), card)
        self.can_reassign, self._conflict_uid = False, None
        self._show_enrolment()

    def skip_card(self) -> None:
        self.enrolment.skip()
        self._show_enrolment()

    def back_card(self) -> None:
        self.enrolment.back()
        self._show_enrolment()

    def toggle_write(self) -> None:
        self.enrol_write = not self.enrol_write

    def _flag(self, text: str) -> None:
        from ui.screens.history import HistoryLine
        self.ids.enrol_flags.add_widget(HistoryLine(text="⚠ " + text, color=theme.WARNING), index=0)

    def _show_enrolment(self) -> None:
        controller = App.get_running_app().controller
        e = self.enrolment
        if e is None:
            return
        if e.done:
            self.enrol_card = "Deck enrolled"
            self.enrol_progress = f"All {counted(len(e.cards), 'card')} · {len(e.flags)} flagged"
        else:
            self.enrol_card = controller.card_name(e.current)
            self.enrol_progress = f"Card {e.position + 1} of {len(e.cards)}"

    def next_blank_tag(self) -> None:
        """Simulated table: the player's next card, a blank sticker, goes on the scan pad."""
        self.new_blank_tag()

    def search(self, text: str) -> None:
        controller = App.get_running_app().controller
        box = self.ids.results
        box.clear_widgets()
        if not self.game:
            return
        catalogue = controller.catalogue(self.game)
        found = catalogue.find(text.strip()) if text.strip() else list(catalogue)
        for card in found[:MAX_RESULTS]:
            b = BigButton(text=f"{card.name}  ·  {card.id}", size_hint_y=None, height=theme.TOUCH * _scale(),
                          halign="left", tone=theme.HIGHLIGHT if card.id == self.selected else theme.PANEL_LIGHT,
                          color=theme.CARD_TEXT if card.id == self.selected else theme.TEXT)
            b.bind(on_release=lambda _b, cid=card.id: self.select(cid))
            box.add_widget(b)
        self.ids.count.text = (f"{counted(len(found), 'card')} found" + (f", first {MAX_RESULTS} shown" if len(found) > MAX_RESULTS
                                                              else ""))

    def select(self, card_id: str) -> None:
        self.selected = card_id
        self.search(self.ids.query.text)
        self._update()

    def _update(self) -> None:
        controller = App.get_running_app().controller
        if self.uid is not None:
            carries = controller.store.tags.lookup(self.uid)
            where = f"on pad {self.pad}"
            self.tag_text = (f"Tag {self.uid} {where}: " +
                             (f"carries {controller.card_name(carries)}" if carries else "not assigned to a card yet"))
            claim = next((r for r in controller.store.tags.pending() if r.uid == self.uid), None)
            if claim is not None:                # confirming a relabel is assigning the claimed card
                self.selected = self.selected or claim.claimed
                self.tag_text += (f"; the tag itself says {controller.card_name(claim.claimed)}: "
                                  f"Assign to accept that")
        self.selected_text = f"Picked: {controller.card_name(self.selected)}" if self.selected else "No card picked"
        self.can_assign = self.uid is not None and self.selected is not None
        self.can_write = self.can_assign and controller.source.can_write_tags

    def assign(self) -> None:
        controller = App.get_running_app().controller
        try:
            controller.store.tags.register(self.uid, self.selected)
        except (BadUid, ValueError) as exc:
            self.ids.banner.show(str(exc))
            return
        self.ids.banner.show(f"Tag {self.uid} now carries {controller.card_name(self.selected)}",
                             tone=theme.NEUTRAL, seconds=4)
        self._update()

    def write(self) -> None:
        controller = App.get_running_app().controller
        try:
            controller.source.write_card_id(self.pad, self.uid, self.selected)
        except Exception as exc:                # a tag that moved or cannot be written: say so
            self.ids.banner.show(f"Could not write the tag: {exc}")
            return
        self.assign()

    def forget(self) -> None:
        if self.uid is not None:
            App.get_running_app().controller.store.tags.forget(self.uid)
            self._update()

    def new_blank_tag(self) -> None:
        """Simulated table only: a fresh virtual tag appears on the scan pad."""
        controller = App.get_running_app().controller
        uid = "04" + secrets.token_hex(6).upper()
        for held in list(controller.source.on_pad.get(SCAN_PAD, ())):
            controller.source.lift(SCAN_PAD, held)   # the last one is taken away; the new one stays while the
        controller.source.place(SCAN_PAD, uid)       # screen reads and writes it (it hears of it a frame later)



class _Sighting:
    def __init__(self, pad, uid):
        self.pad, self.uid = pad, uid


class EnrolChooser(Modal):
    """Which deck to enrol: every card of the game, or a shipped deck (copies count)."""

    screen = ObjectProperty(None)

    def on_open(self):
        box = self.ids.choices
        box.clear_widgets()
        for name, cards in self.screen.deck_choices():
            b = BigButton(text=f"{name} ({counted(len(cards), 'card')})", size_hint_y=None, height=theme.TOUCH * _scale())
            b.bind(on_release=lambda _b, c=cards: self.choose(c))
            box.add_widget(b)

    def choose(self, cards):
        self.dismiss()
        self.screen.start_enrolment(cards)


def _scale() -> float:
    app = App.get_running_app()
    return app.scale if app else 1.0


load_kv(__file__)
