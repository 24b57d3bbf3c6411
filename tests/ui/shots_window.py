"""The app in a real window of one size on the simulated table, for the screenshot scripts."""
from __future__ import annotations

import calendar
import os
import tempfile
from pathlib import Path

#: when the screenshots' first game starts, by the table's clock: a Saturday afternoon
TABLE_START = calendar.timegm((2026, 11, 21, 14, 0, 0))
#: seconds between two actions at a real table: a card read or a button touched, and the thought
#: before it.  A guess, not a measurement: it makes a random game of Sam's of ~150 actions last
#: ~12 minutes, of the order of the 9-minute game issue 25's tester played by hand
SECONDS_PER_ACTION = 5


def paced_clock(store, start: float = TABLE_START, pace: float = SECONDS_PER_ACTION):
    """The table's clock for a script that plays in seconds what people play in minutes: each
    action logged moves it on by ``pace`` (never back: an undo keeps the time it took), so the
    game log's own times, and the summaries and History that read them, are those of real play."""
    last = start

    def clock() -> float:
        nonlocal last
        logged = store.db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
        last = max(last, start + pace * logged)
        return last
    return clock


def shots_window(width: int, height: int):
    """A fresh app (its own data and Kivy home) in a ``width``×``height`` window, ready for frames.

    The app keeps its games where it does for a newcomer, ``~/.local/share/tabletop-companion``
    (XDG defaults), in a throwaway home named as a Pi's first user's is (``…/home/pi``), so
    Settings reads as on the Pi; the table's clock is paced as people play (:func:`paced_clock`).
    The window is opened at its size: resizing a running window under Xvfb can leave the
    picture read back at the old size (garbage).  Kivy is imported only here, after its
    environment is set.
    """
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix="kivy-home-")
    home = Path(tempfile.mkdtemp(prefix="shots-")) / "home" / "pi"
    home.mkdir(parents=True)
    os.environ["HOME"] = str(home)
    for xdg in ("XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        os.environ.pop(xdg, None)
    from companion import paths
    from companion.app_config import AppConfig
    from hardware.outputs import open_outputs
    from hardware.sources import open_table_source
    import ui.app as uiapp
    config = AppConfig(data_dir=paths.data_dir(), profile_path=None, sim=True,
                       fullscreen=False, size=(width, height))
    uiapp.configure_kivy((width, height), False)
    from ui.main import open_road
    outputs = open_outputs(config)
    app = uiapp.make_app(config, open_table_source(config), outputs, open_road(outputs))   # lives as the process does
    app.controller.store.clock = paced_clock(app.controller.store)
    app._run_prepare()
    return app
