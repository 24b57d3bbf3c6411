"""Hidden stays hidden outside the screen too (issue 24): an unfinished game's record is not
exported unless asked for by name, the database is private whatever path reaches it, and a
database that is a symbolic link is refused; seeds and solo options in `simulate`."""
import json
import os
import stat

import pytest

from companion import paths
from companion.cli import main
from companion.records import SEED_RANGE
from companion.session import Session, Store, StoreError
from companion.simulate import SimulationError, play_random, register_virtual_tags, simulate
from companion.solo.seat import needs_decision


def unfinished_solo_game(store) -> Session:
    """A solo game of Sam's Battle Game in progress: the companion (seat 1) holds cards face down."""
    register_virtual_tags(store, "sams")
    session = Session.start(store, "sams", {"solo_seat": 1}, seed=5)
    with pytest.raises(SimulationError, match="did not end"):
        play_random(session, seed=5, max_actions=12)
    assert [c for c in session.state["solo"]["slots"] if c]
    return session


def test_an_unfinished_solo_game_is_not_exported_without_asking_for_the_hidden_cards(store, tmp_path, capsys):
    session = unfinished_solo_game(store)
    held = [c for c in session.state["solo"]["slots"] if c]
    data = ["--data-dir", str(tmp_path)]
    out = tmp_path / "game.json"
    assert main(data + ["export", str(session.id), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"companion export: game #{session.id} is still being played") and \
        "--include-hidden" in err and len(err.strip().splitlines()) == 1
    assert not out.exists()
    assert main(data + ["export", str(session.id)]) == 2            # to the terminal neither
    assert not any(card in capsys.readouterr().out for card in held)
    # Asked for by name: the whole record, the companion's holder included, in a private file.
    assert main(data + ["export", str(session.id), "--include-hidden", "-o", str(out)]) == 0
    record = json.loads(out.read_text())
    drawn = [a["card"] for a in record["actions"] if a["type"] == "solo_hand"]
    assert set(held) <= set(drawn)
    assert stat.S_IMODE(out.stat().st_mode) == 0o600


def test_a_finished_game_exports_without_asking(store, tmp_path, capsys):
    register_virtual_tags(store, "vitaluna")
    session = Session.start(store, "vitaluna", {}, seed=3)
    play_random(session, seed=3)
    assert main(["--data-dir", str(tmp_path), "export", str(session.id)]) == 0
    assert json.loads(capsys.readouterr().out)["actions"] == session.actions


def test_simulate_exports_a_record_it_leaves_unfinished_only_when_asked(tmp_path, capsys):
    full = tmp_path / "full.json"
    assert main(["simulate", "--game", "vitaluna", "--seed", "3", "--export", str(full)]) == 0
    record = json.loads(full.read_text())
    record["actions"] = record["actions"][:10]
    record["at"] = record["at"][:10]                   # format v2: one time per action
    part = tmp_path / "part.json"
    part.write_text(json.dumps(record))
    capsys.readouterr()
    out = tmp_path / "out.json"
    assert main(["simulate", "--record", str(part), "--export", str(out)]) == 2
    assert "is still being played" in capsys.readouterr().err and not out.exists()
    assert main(["simulate", "--record", str(part), "--export", str(out), "--include-hidden"]) == 0
    assert json.loads(out.read_text())["actions"] == record["actions"]


def test_a_database_that_is_a_symbolic_link_is_refused_in_one_sentence(tmp_path, capsys):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    with Store(elsewhere / "companion.sqlite3"):
        pass
    target = elsewhere / "companion.sqlite3"
    target.chmod(0o644)
    data = tmp_path / "data"
    data.mkdir()
    (data / "companion.sqlite3").symlink_to(target)
    for readonly in (False, True):
        with pytest.raises(StoreError, match="is a symbolic link; the companion keeps its games only in a real file"):
            Store(data / "companion.sqlite3", readonly=readonly)
    for command in (["list"], ["export", "1"]):
        assert main(["--data-dir", str(data), *command]) == 2
        err = capsys.readouterr().err
        assert "is a symbolic link" in err and len(err.strip().splitlines()) == 1
    assert stat.S_IMODE(target.stat().st_mode) == 0o644 and not (elsewhere / "companion.sqlite3-wal").exists()
    # A -wal planted as a link is refused the same way.
    (data / "companion.sqlite3").unlink()
    with Store(data / "companion.sqlite3"):
        pass
    (data / "companion.sqlite3-wal").symlink_to(elsewhere / "planted")
    with pytest.raises(StoreError, match="companion.sqlite3-wal is a symbolic link"):
        Store(data / "companion.sqlite3")


def test_the_database_and_its_wal_and_shm_are_0600_through_a_linked_data_dir(tmp_path):
    real = tmp_path / "real" / "tabletop-companion"
    real.mkdir(parents=True)
    link = tmp_path / "link"
    link.symlink_to(real)
    mask = os.umask(0)
    try:
        with Store(paths.database_path(link)) as store:
            Session.start(store, "sams", {}, seed=1)
            files = [real / n for n in ("companion.sqlite3", "companion.sqlite3-wal", "companion.sqlite3-shm")]
            assert all(f.exists() for f in files)
            assert [stat.S_IMODE(f.stat().st_mode) for f in files] == [0o600] * 3
        for f in files:
            if f.exists():
                f.chmod(0o644)                               # loosened by hand, or by an older companion
        with Store(paths.database_path(link)):
            assert [stat.S_IMODE(f.stat().st_mode) for f in files if f.exists()] == \
                [0o600] * sum(f.exists() for f in files)
    finally:
        os.umask(mask)


@pytest.mark.parametrize("seed", [SEED_RANGE[1] + 1, (1 << 64) - 1, SEED_RANGE[0] - 1])
def test_a_seed_outside_64_bit_signed_is_one_sentence(tmp_path, capsys, seed):
    """Before issue 24 the schema took 0..2^64-1 and SQLite raised OverflowError above 2^63-1."""
    assert main(["simulate", "--seed", str(seed)]) == 2
    err = capsys.readouterr().err
    assert f"the seed {seed} is outside" in err and len(err.strip().splitlines()) == 1
    record = tmp_path / "seed.json"
    record.write_text(json.dumps({"format": "tabletop-companion-record", "version": 1, "game": "sams",
                                  "seed": seed, "actions": []}))
    for command in (["replay", str(record)], ["simulate", "--record", str(record)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert ", line 1: seed: " in err and len(err.strip().splitlines()) == 1


def test_the_largest_seed_plays_and_is_kept(tmp_path, capsys):
    assert main(["--data-dir", str(tmp_path), "simulate", "--game", "vitaluna", "--seed", str(SEED_RANGE[1])]) == 0
    assert main(["--data-dir", str(tmp_path), "export", "1"]) == 0
    assert json.loads(capsys.readouterr().out.split("\n}\n", 1)[1])["seed"] == SEED_RANGE[1]


def test_simulate_plays_a_solo_game_with_the_companion_deciding_its_seat(tmp_path):
    """Before issue 24 `simulate --option solo_seat=1` always ended with exit 2: the random player
    of the other seat picked cards lying face down in the companion's holder."""
    outcome = simulate(game="sams", seed=2, options={"solo_seat": 1}, data_dir=str(tmp_path))
    assert outcome["summary"]["over"] is True
    with Store(paths.database_path(tmp_path)) as store:
        session = Session.resume(store, outcome["game_id"])
    kinds = [a["type"] for a in session.actions if a.get("seat") == 1]
    assert "solo_hand" in kinds and "solo_decide" in kinds
    assert not needs_decision(session.state)
