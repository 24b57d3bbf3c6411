"""Game records: export, replay, and clear errors for bad records (docs/record-format.md)."""
import json
import subprocess
import sys

import pytest

from companion.cli import main
from companion.records import RecordError, make_record, replay
from companion.session import Session
from companion.simulate import play_random, register_virtual_tags


@pytest.fixture
def finished(store):
    register_virtual_tags(store, "sams")
    session = Session.start(store, "sams", {"strict_retaliation": True}, seed=21)
    play_random(session, seed=21)
    return session


def test_exported_record_replays_to_the_same_state(finished):
    record = finished.record()
    json.loads(json.dumps(record))                        # plain JSON all the way down
    rules, state = replay(record)
    assert state == finished.state
    assert record["summary"]["winner"] == state["winner"]


def test_replay_command_prints_the_summary(finished, tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished.record()))
    assert main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["winner"] == finished.state["winner"] and out["vp"] == finished.state["vp"]
    assert len(out["rounds"]) == len(finished.state["rounds"])
    assert all(len(r["lanes"]) == 5 for r in out["rounds"])


def test_illegal_entry_is_named_and_exits_non_zero(finished, tmp_path, capsys):
    record = finished.record()
    record["actions"][9] = dict(record["actions"][9], seat=1 - record["actions"][9]["seat"])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "action 10" in err and "illegal" in err


@pytest.mark.parametrize("mutate, message", [
    (lambda r: r.update(format="chess-pgn"), "'format'"),
    (lambda r: r.update(version=99), "version 99"),
    (lambda r: r.update(game="tiddlywinks"), "'game' 'tiddlywinks'"),
    (lambda r: r.update(seed="abc"), "seed: 'abc' is not of type 'integer'"),
    (lambda r: r.update(actions={}), "actions: {} is not of type 'array'"),
    (lambda r: r["actions"].insert(3, ["play"]), r"actions\[3\]: \['play'\] is not of type 'object'"),
    (lambda r: r["actions"].insert(0, {"type": "castle"}), "action 1"),
    (lambda r: r["actions"].append({"type": "next_round", "seat": 0}), "already over"),
    (lambda r: r["options"].update(colour="blue"), "'options'"),
])
def test_malformed_records_say_what_is_wrong(finished, mutate, message):
    record = finished.record()
    mutate(record)
    with pytest.raises(RecordError, match=message):
        replay(record)


def test_not_json_is_a_clear_error(tmp_path, capsys):
    path = tmp_path / "x.json"
    path.write_text("{not json")
    assert main(["replay", str(path)]) == 2
    assert "x.json, line 1: not valid JSON (column 2" in capsys.readouterr().err


def test_simulate_plays_a_record_through_pad_events(finished, tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished.record()))
    assert main(["simulate", "--record", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["summary"]["vp"] == finished.state["vp"]
    assert out["played_by_placing_cards"] == sum(a["type"] == "play" for a in finished.actions)


def test_simulate_a_random_game_exports_a_replayable_record(tmp_path, capsys):
    export = tmp_path / "random.json"
    assert main(["simulate", "--seed", "4", "--option", "strict_majority=true", "--export", str(export)]) == 0
    out = json.loads(capsys.readouterr().out)
    record = json.loads(export.read_text())
    assert record["options"]["strict_majority"] is True
    rules, state = replay(record)
    assert state["vp"] == out["summary"]["vp"] and max(state["vp"]) == 5


def test_simulate_with_data_dir_keeps_the_game_to_list_and_export(tmp_path, capsys):
    data = tmp_path / "data"
    assert main(["--data-dir", str(data), "simulate", "--seed", "2"]) == 0
    game_id = json.loads(capsys.readouterr().out)["game_id"]
    assert main(["--data-dir", str(data), "list"]) == 0
    listing = capsys.readouterr().out
    assert f"#{game_id}" in listing and "sams" in listing and "over" in listing
    out = tmp_path / "exported.json"
    assert main(["--data-dir", str(data), "export", str(game_id), "-o", str(out)]) == 0
    rules, state = replay(json.loads(out.read_text()))
    assert rules.is_over(state)
    assert main(["--data-dir", str(data), "export", "999"]) == 2


def test_python_dash_m_companion_entry_point_runs_in_the_venv():
    out = subprocess.run([sys.executable, "-m", "companion", "games"], capture_output=True, text=True, check=True)
    assert "sams" in out.stdout and "Sam's Battle Game" in out.stdout


# ---- record format v2: each action's time ------------------------------------------------------------
def test_a_record_says_when_each_action_was_played(finished):
    import time
    from datetime import datetime
    record = finished.record()
    assert record["version"] == 2 and len(record["at"]) == len(record["actions"])
    times = [datetime.fromisoformat(t.replace("Z", "+00:00")).timestamp() for t in record["at"]]
    assert times == sorted(times) and abs(times[-1] - time.time()) < 600       # played just now, in order


def test_a_version_1_record_is_upgraded_and_replays(finished):
    from companion.records import upgrade
    old = finished.record()
    old["version"] = 1
    del old["at"]
    new = upgrade(old)
    assert new["version"] == 2 and new["at"] == [None] * len(old["actions"]) and old["version"] == 1
    assert replay(old)[1] == finished.state


def test_times_that_do_not_match_the_actions_are_named(finished):
    record = finished.record()
    record["at"] = record["at"][:-1]
    with pytest.raises(RecordError, match="'at' has"):
        replay(record)
    record["at"] = ["yesterday"] * len(record["actions"])
    with pytest.raises(RecordError, match="at"):
        replay(record)
