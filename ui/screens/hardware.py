"""Hardware: every pad lights up while a card lies on it; the readers' status.

The pad tiles follow the controller's record of what lies on each pad, which
is fed by the same pad events the game gets, so a pad that stays dark under a
card points at the reader, its wiring or the tag.  Reader status comes from
the table source (``source.status()``, the same report ``companion doctor``
prints).  Only the number of tags is shown, never which card: a face-down
card stays face down here too.  The readers' lines are read again every
half second while the screen is shown, so a reader process that stops
answering turns to FAULT, with the reason, without a touch on Refresh.
"""
from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.uix.screenmanager import Screen

from ui import theme
from ui.kv import load_kv
from ui.screens.history import HistoryLine
from ui.tables.generic import pad_name
from ui.widgets import ZoneBox


class HardwareScreen(Screen):
    STATUS_EVERY_S = 0.5
    _shown: list = []
    _ticking = None

    def on_pre_enter(self, *args):
        controller = App.get_running_app().controller
        controller.bind(on_pad=self._pads_changed)
        self.refresh()
        self._ticking = Clock.schedule_interval(lambda _dt: self.show_readers(), self.STATUS_EVERY_S)

    def on_leave(self, *args):
        App.get_running_app().controller.unbind(on_pad=self._pads_changed)
        if self._ticking is not None:
            self._ticking.cancel()

    def _pads_changed(self, *_args):
        self.show_pads()

    def refresh(self) -> None:
        self._shown = []
        self.show_readers()
        self.show_pads(rebuild=True)

    def show_readers(self) -> None:
        lines = [(bool(status.get("ok")), f"{'OK ' if status.get('ok') else 'FAULT '} {status.get('id', '?')} "
                                          f"({status.get('kind', '?')}): {status.get('detail', '')}")
                 for status in App.get_running_app().controller.reader_status()]
        if lines == self._shown:
            return
        self._shown = lines
        box = self.ids.readers
        box.clear_widgets()
        for ok, text in lines:
            box.add_widget(HistoryLine(text=text, color=theme.TEXT if ok else theme.WARNING))

    def show_pads(self, rebuild: bool = False) -> None:
        controller = App.get_running_app().controller
        grid = self.ids.pads
        pads = controller.pads()
        tiles = {t.zone_id: t for t in grid.children}
        if rebuild or set(tiles) != set(pads):
            grid.clear_widgets()
            tiles = {}
            for pad in pads:
                tiles[pad] = ZoneBox(zone_id=pad, title=[pad_name(pad)])
                grid.add_widget(tiles[pad])
        for pad, tile in tiles.items():
            count = len(controller.on_pad.get(pad, ()))
            tile.highlight = count > 0
            tile.info = [f"{count} tag{'s' if count != 1 else ''}" if count else "empty"]
            tile.cards = [(["●"], True)] * min(count, 6)
        self.ids.no_pads.opacity = 0 if pads else 1


load_kv(__file__)
