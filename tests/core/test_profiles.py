"""One verdict per table profile: `companion run` and `companion doctor` refuse the same files with the
same sentence, naming file, line and field (issue 13, item 4)."""
import io

import pytest

from companion.cards import DATA_DIR
from ui.main import main
from hardware.doctor import doctor

SAMS = (DATA_DIR.parent.parent / "firmware_config" / "tables" / "sams.toml").read_text()


@pytest.mark.parametrize("text, words", [
    ('readers = ["x"]\n', "line 1: readers[0]: 'x' is not of type 'object'"),
    (SAMS.replace("bus = 0\ncs = 0", "bus = [0]\ncs = 0", 1), "line 7: readers[0].bus: [0] is not of type 'integer'"),
    (SAMS.replace("bus = 0\ncs = 0", "bus = true\ncs = 0", 1), "line 7: readers[0].bus: True is not of type 'integer'"),
    (SAMS.replace('pads = ["n1"]', 'pads = [{ id = "n1", mode = "slide" }]'), "readers[0].pads[0]"),
    (SAMS.replace("gpio = 26", "gpio = 10"), "GPIO 10 is SPI0 MOSI"),                      # a button: doctor never looked
    (SAMS.replace('[layouts.sams]\n', '[layouts.sams]\nx9 = "0.lane9"\n'), "[layouts.sams] uses pads no reader has: x9"),
    (SAMS.replace('= "0.lane1"', '= "0.lane9"', 1), "'0.lane9', which sams does not have"),   # a layout
    (SAMS + '\n[layouts.chess]\nn1 = "a1"\n', "there is no game called 'chess'"),
    ("name = 'x'\n\xff", "line 2: byte 0xc3 is not UTF-8"),
    (SAMS.replace("[reading.positions]\n", "[reading.positions]\nzz = [0, 0]\n"),
     "[reading.positions] names pad 'zz', which no reader has"),                             # doctor raised here
])
def test_run_and_doctor_refuse_the_same_profile_with_the_same_sentence(tmp_path, capsys, text, words):
    path = tmp_path / "table.toml"
    path.write_bytes(text.encode("utf-8") if "\xff" not in text else text.encode("latin-1").replace(b"\xff", b"\xc3("))
    assert main(["--data-dir", str(tmp_path / "data"), "run", "--windowed", "--profile", str(path)]) == 2
    run_says = capsys.readouterr().err.strip()
    out = io.StringIO()
    assert doctor(profile=path, seconds=0, out=out) == 2
    doctor_says = out.getvalue().strip()
    assert words in run_says and "table.toml" in run_says and len(run_says.splitlines()) == 1, run_says
    assert run_says.split("cannot be used: ", 1)[1] == doctor_says.split("cannot be used: ", 1)[1]


def test_a_pad_mode_is_checked_with_its_line(tmp_path):
    """Pad modes (hold | tap) live in the layouts; a wrong one is named with its line."""
    from companion.table import ProfileError, load_profile
    path = tmp_path / "table.toml"
    path.write_text('[[readers]]\nid = "r"\nkind = "rc522"\nbus = 0\ncs = 0\npads = ["n1"]\n\n'
                    '[layouts.sams]\nn1 = { zone = "0.lane1", mode = "tap" }\n')
    assert load_profile(path).layout("sams").mode_of("n1") == "tap"
    path.write_text(path.read_text().replace('"tap"', '"slide"'))
    with pytest.raises(ProfileError, match=r"table.toml, line 9: layouts.sams.n1"):
        load_profile(path)


def test_the_sams_table_has_a_hand_pad_for_the_companion_and_a_game_of_two_leaves_it_unused(tmp_path, store):
    """Issue 17: solo play needs the companion's hand pad; the shipped Sam's table maps it to South."""
    from companion.games import sams
    from companion.session import Session
    from companion.simulate import register_virtual_tags
    from companion.table import SEEN, PadEvent, ProfileError, load_profile
    from companion.tags import virtual_uid
    path = DATA_DIR.parent.parent / "firmware_config" / "tables" / "sams.toml"

    def layout(options):
        found = load_profile(path).layout("sams")
        found.validate(sams.RULES.zones(sams.RULES.normalise_options(options)), str(path))
        return found

    solo = layout({"solo_seat": 1})
    assert solo.pads_of("1.hand") == ["hand"] and solo.mode_of("hand") == "tap"
    assert "hand" not in layout({}).pad_to_zone          # two people: the pad is not the game's
    with pytest.raises(ProfileError, match=r"no pad for zone 0.hand \(North's hand pad\)"):
        layout({"solo_seat": 0})                          # on this table the companion plays South
    # A card drawn for the companion and tapped on the hand pad goes into its holder.
    register_virtual_tags(store, "sams")
    session = Session.start(store, "sams", {"solo_seat": 1}, seed=1, layout=solo)
    session.handle_pad_event(PadEvent("hand", virtual_uid("sams.7h"), SEEN, 0.0))
    assert sams.solo_hand(session.state) == ["sams.7h"]
