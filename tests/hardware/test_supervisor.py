"""Readers in their own supervised process (issue 12, Deliver 4): killed or crashed, restarted, reason shown."""
import json
import os
import signal
import threading
import time
from pathlib import Path

from companion.table import GONE, SEEN, load_profile
from hardware.supervisor import SupervisedTable, emulated_readers

TABLES = Path(__file__).resolve().parents[2] / "firmware_config" / "tables"
A = "04A1B2C3D4E5F6"


def _wait(predicate, timeout=20.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def test_a_killed_reader_process_is_restarted_and_says_why(tmp_path):
    profile = load_profile(TABLES / "table-2pad.toml")
    status_file = tmp_path / "reader-process.json"
    table = SupervisedTable(emulated_readers, (profile, {"s-attacker": [A]}), restart_delay_s=0.1,
                            status_path=status_file)
    try:
        assert table.wait_opened() == []
        assert table.pads == ["n-attacker", "s-attacker"]
        events = []
        table.start(events.append)
        assert _wait(lambda: events)
        assert [(e.pad, e.uid, e.kind) for e in events] == [("s-attacker", A, SEEN)]
        first = table.pid
        assert first != os.getpid() and table.status()[0]["ok"]
        os.kill(first, signal.SIGKILL)
        assert _wait(lambda: table.restarts == 1 and table.status()[0]["ok"] and table.pid != first)
        head = table.status()[0]
        assert "restarted 1 time, last because: killed by signal SIGKILL" in head["detail"]
        assert json.loads(status_file.read_text())["last_failure"] == "killed by signal SIGKILL"
        time.sleep(0.5)                                   # the new child reads the card again …
        assert len(events) == 1                           # … which is no new event
    finally:
        table.close()
    assert json.loads(status_file.read_text())["state"] == "stopped"


def test_a_poll_thread_stopped_by_a_bug_is_restarted_with_the_error_as_reason():
    profile = load_profile(TABLES / "table-2pad.toml")
    table = SupervisedTable(emulated_readers, (profile, {}, 3), restart_delay_s=0.1)
    try:
        assert table.wait_opened() == []
        assert _wait(lambda: table.restarts >= 1)
        assert "simulated bug after 3 cycles" in table.last_failure
        assert "simulated bug after 3 cycles" in table.status()[0]["detail"]
    finally:
        table.close()


def test_cards_lifted_while_the_process_was_down_are_reported_gone():
    """The restarted child settles and says what lies where; the supervisor reports what left meanwhile."""
    profile = load_profile(TABLES / "table-2pad.toml")
    table = SupervisedTable(emulated_readers, (profile, {}), restart_delay_s=0.1)
    try:
        table.wait_opened()
        got = threading.Event()
        events = []
        table.start(lambda ev: (events.append(ev), got.set()))
        from companion.table import PadEvent
        table._event(PadEvent("n-attacker", A, SEEN, 0.0))      # known before the crash
        os.kill(table.pid, signal.SIGKILL)
        assert _wait(lambda: any(e.kind == GONE for e in events))
        assert [(e.pad, e.kind) for e in events] == [("n-attacker", SEEN), ("n-attacker", GONE)]
    finally:
        table.close()


def _broken_build(profile):
    raise OSError("spidev0.0 vanished")


def test_a_reader_process_that_dies_while_opening_is_a_problem_not_a_restart_loop():
    profile = load_profile(TABLES / "table-2pad.toml")
    table = SupervisedTable(_broken_build, (profile,), restart_delay_s=0.1)
    try:
        problems = table.wait_opened(timeout=20)
        assert problems == ["the reader process stopped while opening the readers: OSError: spidev0.0 vanished"]
        assert table.restarts == 0
    finally:
        table.close()


# -- issue 24, Deliver 2: liveness, not presence ------------------------------------------------------

B = "04A1B2C3D4E5F7"


def test_a_stopped_reader_process_is_shown_not_ok_within_its_stated_silence_and_ok_again_when_continued(tmp_path):
    profile = load_profile(TABLES / "table-2pad.toml")
    status_file = tmp_path / "reader-process.json"
    table = SupervisedTable(emulated_readers, (profile, {"s-attacker": [A]}), restart_delay_s=0.1,
                            status_path=status_file)
    try:
        assert table.wait_opened() == []
        assert _wait(lambda: table.status()[0]["ok"])
        os.kill(table.pid, signal.SIGSTOP)
        try:
            assert _wait(lambda: not table.status()[0]["ok"], timeout=10)
            head, *readers = table.status()
            assert head["silence_limit_s"] <= 2.0                 # the stated silence, not a wall-clock race
            assert head["silent_s"] > head["silence_limit_s"]
            assert f"reader process {table.pid} not answering: no heartbeat for" in head["detail"]
            assert f"(the limit is {head['silence_limit_s']:g} s) — stopped or stuck" in head["detail"]
            assert readers and not any(r["ok"] for r in readers)   # what it said before is no news of now
            assert _wait(lambda: json.loads(status_file.read_text())["state"] == "not answering")
        finally:
            os.kill(table.pid, signal.SIGCONT)
        assert _wait(lambda: table.status()[0]["ok"])
        assert table.restarts == 0
    finally:
        table.close()


def test_a_process_silent_for_too_long_is_killed_and_restarted_with_growing_delays():
    profile = load_profile(TABLES / "table-2pad.toml")
    table = SupervisedTable(emulated_readers, (profile, {}), restart_delay_s=0.1, kill_after_s=1.0,
                            max_restart_delay_s=0.4)
    try:
        assert table.wait_opened() == []
        os.kill(table.pid, signal.SIGSTOP)                        # never continued: the supervisor kills it
        assert _wait(lambda: table.restarts == 1)
        assert table.last_failure.startswith("stopped answering (no heartbeat for ")
        assert table.last_failure.endswith("the limit is 1.5 s), so it was killed")
        for n in (2, 3, 4):
            assert _wait(lambda: table.status()[0]["ok"])
            os.kill(table.pid, signal.SIGKILL)
            assert _wait(lambda: table.restarts == n)
        assert table.restart_delays == [0.1, 0.2, 0.4, 0.4]       # doubled each quick death, capped
        assert _wait(lambda: table.status()[0]["ok"])
    finally:
        table.close()


def test_a_callback_that_raises_does_not_kill_the_supervisor(caplog):
    profile = load_profile(TABLES / "table-2pad.toml")
    table = SupervisedTable(emulated_readers, (profile, {"n-attacker": [A], "s-attacker": [B]}),
                            restart_delay_s=0.1)
    events = []

    def sink(ev):
        if not events:
            events.append(None)
            raise ValueError("the screen went away")
        events.append(ev)

    try:
        assert table.wait_opened() == []
        table.start(sink)
        assert _wait(lambda: len(events) == 2)                   # the second card still arrives
        first = table.pid
        os.kill(first, signal.SIGKILL)                            # and the thread still restarts children
        assert _wait(lambda: table.restarts == 1 and table.status()[0]["ok"] and table.pid != first)
        head = table.status()[0]
        assert "handler of reader events failed 1 time, last: ValueError: the screen went away" in head["detail"]
        assert sum("the screen went away" in r.getMessage() for r in caplog.records) == 1
    finally:
        table.close()


def test_doctor_says_the_companions_reader_process_is_not_answering(tmp_path, monkeypatch):
    import io
    from hardware.doctor import doctor
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    data = tmp_path / "tabletop-companion"
    data.mkdir()
    profile = load_profile(TABLES / "table-2pad.toml")
    table = SupervisedTable(emulated_readers, (profile, {}), status_path=data / "reader-process.json")
    try:
        assert table.wait_opened() == []
        os.kill(table.pid, signal.SIGSTOP)
        try:
            assert _wait(lambda: json.loads((data / "reader-process.json").read_text())["state"] == "not answering")
            out = io.StringIO()
            assert doctor(profile=TABLES / "table-2pad.toml", seconds=0.1, out=out, emulate=True) == 1
        finally:
            os.kill(table.pid, signal.SIGCONT)
    finally:
        table.close()
    said = out.getvalue()
    assert f"Reader process of the companion: not answering (pid {table.pid}" in said
    assert "(the limit is 1.5 s) — stopped or stuck" in said and "is stopped right now" in said
    assert said.index("What to fix:") < said.rindex("not answering")
