"""Which chips count as an MFRC522: the genuine ones, the FM17522 clones, and the clones 0x82 and 0x89 (issue 12)."""
import pytest

from hardware.emulator import VirtualTag
from hardware.rc522.pcd import ReaderFault
from hardware.rc522.transport import Mfrc522Transport
from hardware.readers import PadReader, ReaderSpec


@pytest.mark.parametrize("version", [0x91, 0x92, 0x88, 0xB2, 0x12, 0x82, 0x89])
def test_every_known_chip_version_reads_a_tag(make_bench, version):
    bench = make_bench(version=version)                  # Bench.__init__ runs Pcd.init(): it would raise
    bench.put("04A1B2C3D4E5F6")
    assert bench.inventory() == ["04A1B2C3D4E5F6"]


@pytest.mark.parametrize("version", [0x82, 0x89])
def test_a_clone_reader_opens_and_says_what_it_is(make_bench, version):
    bench = make_bench(version=version)
    reader = PadReader(ReaderSpec("r", "rc522", ("p",), bus=0, cs=0), Mfrc522Transport(bench.chip, sleep=bench.clock.sleep),
                       clock=lambda: bench.clock.now)
    bench.chip.place(VirtualTag("A1B2C3D4"))
    assert reader.open() and reader.poll() == ["A1B2C3D4"]
    assert reader.status()["detail"] == f"MFRC522 clone (version 0x{version:02X})"


@pytest.mark.parametrize("version", [0x00, 0xFF, 0x37])
def test_nobody_answering_or_garbage_is_still_refused(make_bench, version):
    with pytest.raises(ReaderFault, match=f"0x{version:02X}"):
        make_bench(version=version)
