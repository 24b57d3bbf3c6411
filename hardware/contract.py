"""The reader contract: all that the app and the composition root may ask of a table.

Phoniebox's reader contract, declared in one place.  Every table source (the
polled readers, the supervised reader process, the emulated and the simulated
table) subclasses :class:`TableSource`; the factory that picks one is
:mod:`hardware.sources`.  Nothing here imports an implementation::

    source.pads                        # pad ids this table has
    source.start(on_event)             # on_event(PadEvent), possibly from a worker thread
    source.status()                    # one dict per reader: {"id", "kind", "ok", "detail"}
    source.close()                     # also a context manager
    source.simulated                   # True: place/lift/clear/set_pads put virtual cards on virtual pads
    source.can_write_tags              # True: write_card_id writes a card id onto a tag
    source.fallback_reason             # why a simulated table stands in for the profile's readers ("")
    source.set_pads(pads, modes)       # the game's layout: pads to make, "hold"/"tap" per pad
    source.place(pad, uid) / lift(pad, uid) / clear()
    source.write_card_id(pad, uid, card_id)

What a kind of table cannot do raises :class:`NotSupported` with a sentence, so
a screen asks ``source.simulated`` / ``source.can_write_tags`` instead of
probing for methods.
"""
from __future__ import annotations

from typing import Callable

from companion.table import PadEvent

EventSink = Callable[[PadEvent], None]


class NotSupported(RuntimeError):
    """This table cannot do that (a real reader cannot have a card put on it by the app)."""


class TableSource:
    pads: list[str] = []
    simulated: bool = False
    can_write_tags: bool = False
    fallback_reason: str = ""

    def start(self, on_event: EventSink) -> None:
        raise NotImplementedError

    def status(self) -> list[dict]:
        return []

    def close(self) -> None:
        pass

    def set_pads(self, pads: list[str], modes: dict[str, str] | None = None) -> None:
        """The pads a game's layout uses.  Real readers have the pads they have: nothing to do."""

    def place(self, pad: str, uid: str):
        raise NotSupported("cards are put on a real table's pads by hand")

    def lift(self, pad: str, uid: str):
        raise NotSupported("cards are lifted from a real table's pads by hand")

    def clear(self) -> None:
        """Take every virtual card off the table (a real table's cards are the players' to lift)."""

    def write_card_id(self, pad: str, uid: str, card_id: str) -> None:
        raise NotSupported("this table cannot write tags")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
