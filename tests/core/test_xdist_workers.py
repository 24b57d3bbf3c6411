"""``python3 -m companion test -n 2``: what tests/conftest.py promises of the two xdist workers.

A small suite in a temporary folder, laid out like ours (``tests/ui`` and another folder), run by
a real pytest with two real xdist workers and our conftest's hooks: every test under ``tests/ui``
runs on one worker in file order (they share one Kivy window), and a worker that has finished
ignores the SIGINT execnet sends a worker still busy 5 s after the controller asked it to stop.
"""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

RECORD = """
import os
from pathlib import Path

def record(name):
    with open(Path(__file__).parents[2] / "out" / os.environ["PYTEST_XDIST_WORKER"], "a") as f:
        f.write(name + "\\n")
"""


def write_suite(root: Path) -> None:
    (root / "out").mkdir()
    (root / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n")
    (root / "conftest.py").write_text(textwrap.dedent("""
        import os, signal
        from pathlib import Path
        from tests.conftest import pytest_sessionfinish, pytest_xdist_make_scheduler  # ours

        def pytest_unconfigure(config):
            if hasattr(config, "workerinput"):
                ignored = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
                with open(Path(__file__).parent / "out" / "sigint", "a") as f:
                    f.write(f"{config.workerinput['workerid']} {ignored}\\n")
    """))
    for folder, count in (("ui", 12), ("core", 12)):
        (root / "tests" / folder).mkdir(parents=True)
        tests = "".join(f"\ndef test_{folder}_{n:02}():\n    record('{folder}_{n:02}')\n" for n in range(count))
        (root / "tests" / folder / f"test_{folder}.py").write_text(RECORD + tests)


def test_two_workers_keep_tests_ui_together_in_order_and_ignore_a_late_sigint(tmp_path):
    write_suite(tmp_path)
    run = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "-q", "tests"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stdout + run.stderr
    assert "24 passed" in run.stdout, run.stdout
    ran = {w.name: w.read_text().split() for w in (tmp_path / "out").glob("gw*")}
    assert len(ran) == 2, f"one worker did everything: {ran}"
    ui_workers = [w for w, names in ran.items() if any(n.startswith("ui_") for n in names)]
    assert len(ui_workers) == 1, f"tests/ui was split between workers: {ran}"
    assert [n for n in ran[ui_workers[0]] if n.startswith("ui_")] == [f"ui_{n:02}" for n in range(12)]
    assert sorted((tmp_path / "out" / "sigint").read_text().split("\n")[:-1]) == ["gw0 True", "gw1 True"]
