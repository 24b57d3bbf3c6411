"""Readers on the emulator: one RC522 with the real transport and driver, in modelled time.

(No ``__init__.py`` in this directory on purpose: it would make pytest import it
as a package named ``hardware``, shadowing the real one.)
"""
import pytest

from hardware.emulator import EmulatedRC522, ModelClock, VirtualTag
from hardware.rc522.pcd import Pcd
from hardware.rc522.transport import Mfrc522Transport


class Bench:
    """An emulated RC522 on a modelled clock, driven by the real transport and ISO 14443-3 layer."""

    def __init__(self, **chip_kwargs):
        self.clock = ModelClock()
        self.chip = EmulatedRC522(self.clock, **chip_kwargs)
        self.transport = Mfrc522Transport(self.chip, sleep=self.clock.sleep)
        self.pcd = Pcd(self.transport)
        self.pcd.init()

    def put(self, *uids, kind=None):
        tags = [VirtualTag(u, kind) for u in uids]
        for t in tags:
            self.chip.place(t)
        return tags

    def inventory(self, known=()):
        return sorted(u.hex().upper() for u in self.pcd.inventory([bytes.fromhex(k) for k in known]))


def poll_for(table, clock, seconds: float) -> None:
    """Poll every pad of ``table`` in cycles until ``seconds`` of ``clock`` (modelled time) have passed:
    the debouncer decides by time (a card counts once it has rested for its settle window)."""
    end = clock() + seconds
    while clock() < end:
        table.poll_cycle()


def settle(table, model) -> None:
    """Long enough for every placement and removal to be reported (the debouncer's lift window and a cycle)."""
    poll_for(table, lambda: model.now, table.debouncer.lift_s + 0.1)


@pytest.fixture
def bench():
    return Bench()


@pytest.fixture
def make_bench():
    """``make_bench(**chip_kwargs)``: a fresh emulated reader (several per test, or with a reset pin)."""
    return Bench
