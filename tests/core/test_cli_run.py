"""`companion run` with a table profile that cannot be used: a sentence and exit code 2, no window."""
import pytest

from ui.main import main
from companion.cards import DATA_DIR

SAMS_TABLE = DATA_DIR.parent.parent / "firmware_config" / "tables" / "sams.toml"


@pytest.mark.parametrize("text, message", [
    ('name = "x"\n[[readers]\n', "not valid TOML"),
    (SAMS_TABLE.read_text().replace("gpio = 26", "gpio = 10"), "GPIO 10 is SPI0 MOSI"),
    (SAMS_TABLE.read_text().replace("gpio = 26", "gpio = 5"), "GPIO 5 is used twice"),
])
def test_a_broken_profile_is_refused_before_the_window_opens(tmp_path, capsys, text, message):
    profile = tmp_path / "table.toml"
    profile.write_text(text)
    assert main(["--data-dir", str(tmp_path / "data"), "run", "--windowed", "--profile", str(profile)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion run: the table profile cannot be used:") and message in err
