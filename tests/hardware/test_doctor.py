"""`companion doctor`: what it says about a table, in words a tinkerer can act on."""
import io
from pathlib import Path

from ui.main import main
from companion.table import load_profile
from hardware.doctor import doctor
from hardware.emulator.table import EmulatedTable

TABLES = Path(__file__).resolve().parents[2] / "firmware_config" / "tables"


def run(**kwargs):
    out = io.StringIO()
    code = doctor(out=out, seconds=0.1, **kwargs)
    return code, out.getvalue()


def test_without_spi_it_says_so_and_does_not_crash():
    code, text = run(profile=TABLES / "table-2pad.toml")
    assert code == 1
    assert "north-attacker: RC522 on SPI0 CE0, reset on GPIO 25; pads n-attacker" in text
    assert "this machine has no SPI bus 0" in text and "dtparam=spi=on" in text and "--emulate" in text


def test_the_command_line_runs_it(capsys):
    assert main(["doctor", "--profile", str(TABLES / "table-2pad.toml"), "--seconds", "0.1"]) == 1
    assert "no SPI" in capsys.readouterr().out


def test_emulated_it_lists_chip_versions_pads_and_live_reads():
    code, text = run(profile=TABLES / "table-2pad.toml", emulate=True)
    assert code == 0
    assert "north-attacker: MFRC522 v2.0 (version 0x92), CRC coprocessor OK" in text
    assert "Pads: n-attacker, s-attacker" in text
    assert "pad n-attacker: card 04D0C70A11E501 put down" in text and "pad s-attacker: empty" in text
    assert "All readers answer." in text


def test_a_reader_without_power_or_miso_is_named_with_what_to_check():
    table = EmulatedTable.from_profile(load_profile(TABLES / "table-2pad.toml"))
    table.chips["n-attacker"].faults.dead = True
    code, text = run(profile=TABLES / "table-2pad.toml", table=table)
    assert code == 1
    assert ("reader north-attacker on SPI0 CE0 does not answer: version register reads 0x00 — "
            "check 3.3 V, GND and the MISO wire") in text


def test_a_card_across_two_pads_is_reported():
    table = EmulatedTable.from_profile(load_profile(TABLES / "table-2pad.toml"))
    tag = table.tag("04A1B2C3D4E5F6")
    table.chips["n-attacker"].place(tag)
    table.chips["s-attacker"].place(tag)
    code, text = run(profile=TABLES / "table-2pad.toml", table=table)
    assert code == 1 and "seen on pads n-attacker and s-attacker at once" in text


def test_a_bad_profile_is_explained_with_exit_code_2(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[readers]]\nid = "x"\nkind = "rc522"\nbus = 0\ncs = 7\npads = ["a"]\n')
    code, text = run(profile=bad)
    assert code == 2 and "SPI0 has chip selects 0, 1, not 7" in text and "bad.toml" in text


def test_a_missing_bridge_is_explained():
    code, text = run(profile=TABLES / "table-16pad.toml")
    assert code == 1 and "/dev/ttyACM0 is not there" in text and "USB cable" in text


def test_emulated_bridge_table_runs_the_firmware_and_reports_it():
    code, text = run(profile=TABLES / "table-16pad.toml", emulate=True)
    assert code == 0
    assert "firmware bridge-5 16 switched; chip versions by channel: 0=92" in text
    assert "bridge: the firmware's fields are switched" in text
    assert "pad pad1: card 04D0C70A11E502 put down" in text and "0 lost, 0 garbled" in text


def test_a_reader_that_reads_0xff_points_at_the_miso_buffer():
    from hardware.readers import ReaderSpec, diagnose
    from hardware.rc522.pcd import ReaderFault
    spec = ReaderSpec("pad-3", "rc522", ("pad3",), bus=1, cs=0, reset_gpio=25)
    text = diagnose(spec, ReaderFault("version register reads 0xFF"))
    assert text.startswith("reader pad-3 on SPI1 CE0 does not answer: version register reads 0xFF")
    assert "74HC125" in text
