"""Issue 24, Deliver 2 on the Hardware screen: a reader process that stops answering turns to FAULT, with why."""
import os
import signal
import time
from pathlib import Path

from companion.table import load_profile
from hardware.supervisor import SupervisedTable, emulated_readers
from ui import harness

TABLES = Path(__file__).resolve().parents[2] / "firmware_config" / "tables"


def _shown_within(predicate, timeout=10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        harness.frames(1)
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_a_stopped_reader_process_turns_to_fault_on_the_open_hardware_screen(home):
    app = home
    controller = app.controller
    table = SupervisedTable(emulated_readers, (load_profile(TABLES / "table-2pad.toml"), {}), restart_delay_s=0.1)
    saved = controller.source
    try:
        assert table.wait_opened() == []
        controller.source = table
        app.go("hardware")
        assert _shown_within(lambda: any(t.startswith(f"OK  reader-process (process): reader process {table.pid} "
                                                      f"running") for t in harness.texts()))
        os.kill(table.pid, signal.SIGSTOP)
        try:
            expected = (f"FAULT  reader-process (process): reader process {table.pid} not answering: no heartbeat "
                        f"for ")
            assert _shown_within(lambda: any(t.startswith(expected) for t in harness.texts()))   # no Refresh touched
            line = next(t for t in harness.texts() if t.startswith(expected))
            assert "s (the limit is 1.5 s) — stopped or stuck; it is killed and restarted after 5 s" in line
            if os.environ.get("COMPANION_SHOTS"):
                harness.screenshot(Path(os.environ["COMPANION_SHOTS"]) / "hardware-reader-process-stopped.png")
        finally:
            os.kill(table.pid, signal.SIGCONT)
        assert _shown_within(lambda: any(t.startswith("OK  reader-process") for t in harness.texts()))
    finally:
        controller.source = saved
        app.go("home")
        table.close()
