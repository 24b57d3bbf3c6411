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


@pytest.fixture
def bench():
    return Bench()


@pytest.fixture
def make_bench():
    """``make_bench(**chip_kwargs)``: a fresh emulated reader (several per test, or with a reset pin)."""
    return Bench
