"""`companion run` on a database it cannot use: the sentence on screen and the offer to move it aside.

Runs the real `companion run` in a child process (Kivy opens one window per
process); the child presses the window's real button through ``ui.fault.on_first_frame``.
"""
import os
import subprocess
import sys

DRIVER = """
import sys
import ui.fault as fault
seen = []
def press(app):
    seen.append(app.message.text)
    print("SHOWN:", " ".join(app.message.text.split()), flush=True)
    app.press("move")
fault.on_first_frame.append(press)
from ui.main import main
sys.exit(main(["--data-dir", sys.argv[1], "run", "--windowed", "--size", "800x480"]))
"""


def test_a_damaged_database_is_said_on_screen_and_moved_aside_on_request(tmp_path):
    if not os.environ.get("DISPLAY"):
        import pytest
        pytest.skip("no DISPLAY")
    db = tmp_path / "companion.sqlite3"
    db.write_text("not a database, just notes\n" * 20)
    env = dict(os.environ, KIVY_NO_CONSOLELOG="1", KIVY_HOME=str(tmp_path / "kivy"))
    out = subprocess.run([sys.executable, "-c", DRIVER, str(tmp_path)], capture_output=True, text=True,
                         timeout=120, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "The games cannot be opened." in out.stdout and "is not an SQLite database" in out.stdout
    assert "companion repair" not in out.stdout           # on screen the button is the offer
    assert "Traceback" not in out.stderr
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("companion.sqlite3.broken-")]
    assert len(kept) == 1 and kept[0].read_text().startswith("not a database")
    assert not db.exists()                    # the next start begins with an empty database
