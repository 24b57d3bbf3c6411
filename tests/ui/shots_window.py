"""The app in a real window of one size on the simulated table, for the screenshot scripts."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path


def shots_window(width: int, height: int):
    """A fresh app (its own data and Kivy home) in a ``width``×``height`` window, ready for frames.

    The window is opened at its size: resizing a running window under Xvfb can leave the
    picture read back at the old size (garbage).  Kivy is imported only here, after its
    environment is set.
    """
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix="kivy-home-")
    from companion.app_config import AppConfig
    from hardware.outputs import open_outputs
    from hardware.sources import open_table_source
    import ui.app as uiapp
    config = AppConfig(data_dir=Path(tempfile.mkdtemp(prefix="shots-")), profile_path=None, sim=True,
                       fullscreen=False, size=(width, height))
    uiapp.configure_kivy((width, height), False)
    from ui.main import open_road
    outputs = open_outputs(config)
    app = uiapp.make_app(config, open_table_source(config), outputs, open_road(outputs))   # lives as the process does
    app._run_prepare()
    return app
