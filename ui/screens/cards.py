"""Cards: scan a tag and assign it a card, write the card id onto the tag, find a card.

While this screen is shown the pads scan for it: the last tag seen on any pad
is "the tag in hand".  Pick a card from the search results and touch
*Assign* to record in the tag registry which card that tag carries.  A table
whose source can write tags (``source.write_card_id(pad, uid, card_id)``)
also offers to write the card id onto the tag itself, so the tag works on any
companion without the registry.  On the simulated table, *New blank tag*
puts a fresh virtual tag on a pad.
"""
from __future__ import annotations

import secrets

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty

from companion.table import SEEN
from companion.tags import BadUid
from ui import theme
from ui.kv import load_kv
from ui.screens.scanning import ScanningScreen
from ui.widgets import BigButton

MAX_RESULTS = 40
SCAN_PAD = "scan"        # the simulated table's pad for tags scanned here


class CardsScreen(ScanningScreen):
    tag_text = StringProperty("No tag yet: put a card on any pad")
    selected_text = StringProperty("No card picked")
    can_assign = BooleanProperty(False)
    can_write = BooleanProperty(False)
    uid = None
    pad = None
    selected = None

    def refresh(self) -> None:
        self.search(self.ids.query.text)
        self._update()

    def take_pad_event(self, ev) -> bool:
        """Every tag seen on a pad while this screen is shown is the tag to work on."""
        if ev.kind == SEEN:
            self.uid, self.pad = ev.uid, ev.pad
            if ev.card_id:                       # the tag names its own card: a claim, never an override
                App.get_running_app().controller.store.tags.resolve(ev.uid, ev.card_id)
            self._update()
        return True

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
        self.ids.count.text = (f"{len(found)} cards found" + (f", first {MAX_RESULTS} shown" if len(found) > MAX_RESULTS
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
        self.can_write = self.can_assign and callable(getattr(controller.source, "write_card_id", None))

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
        controller.source.place(SCAN_PAD, uid)
        controller.source.lift(SCAN_PAD, uid)



def _scale() -> float:
    app = App.get_running_app()
    return app.scale if app else 1.0


load_kv(__file__)
