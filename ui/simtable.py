"""The simulated table: virtual pads for everyone without reader hardware.

With no readers (or ``companion run --sim``) the composition root hands the
app a simulated table source.  This panel lists the game's cards; touch one
and then touch a zone of the table screen, or drag the card onto the zone.
Each zone of the table screen is then its virtual pad: the card's virtual tag
(:func:`companion.tags.virtual_uid`) is put on that pad with
``source.place(pad, uid)``, and the source emits exactly the pad event a real
reader would.  The session cannot tell the difference.

The panel is the players' hand, not the shared screen: it closes as soon as a
card is picked, and it never shows which card lies where.
"""
from __future__ import annotations

from kivy.core.window import Window
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.button import Button

from ui.kv import load_kv
from ui.widgets import CardChip, Modal

DRAG_DISTANCE = 20      # px a touch must travel before a tap becomes a drag


class SimPanel(Modal):
    screen = ObjectProperty(None)

    def __init__(self, screen, **kwargs):
        super().__init__(screen=screen, **kwargs)
        controller = screen.controller
        grid = self.ids.grid
        for card in controller.catalogue(screen.session.rules.name):
            grid.add_widget(SimCard(card_id=card.id, text=controller.card_text(card.id), panel=self))

    def pick(self, card_id: str) -> None:
        self.screen.sim_lifting = False
        self.screen.sim_card = card_id
        self.dismiss()

    def lift_mode(self) -> None:
        self.screen.sim_card = None
        self.screen.sim_lifting = True
        self.dismiss()

    def clear_table(self) -> None:
        self.screen.controller.sim_clear()
        self.dismiss()


class SimCard(Button):
    """A card of the catalogue: touch to pick it, or drag it onto a zone."""

    card_id = StringProperty("")
    panel = ObjectProperty(None)
    _ghost = None

    def on_touch_down(self, touch):
        if self.collide_point(*touch.pos) and not self.panel.screen.sim_lifting:
            touch.grab(self)
            touch.ud["sim_card_start"] = _window_pos(touch)
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
            self._ghost = CardChip(text=self.text)
            self.panel.dismiss()
            Window.add_widget(self._ghost)
        self._ghost.center = (x, y)
        return True

    def on_touch_up(self, touch):
        if touch.grab_current is not self:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        screen = self.panel.screen
        if self._ghost is None:
            self.panel.pick(self.card_id)
            return True
        Window.remove_widget(self._ghost)
        self._ghost = None
        zone = screen.zone_at(_window_pos(touch))
        if zone is not None:
            screen.controller.sim_place(zone.zone_id, self.card_id)
        return True


def _window_pos(touch) -> tuple[float, float]:
    """Where a touch is in window coordinates, whatever widget transformed it."""
    return touch.sx * Window.width, touch.sy * Window.height


load_kv(__file__)
