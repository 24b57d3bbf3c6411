"""Screenshots of each game's table at 800×480 and 1280×800 for docs/screenshots/
(``table-<game>-<w>x<h>.png``; the other screens: :mod:`tests.ui.shots_screens`).

    Xvfb :99 -screen 0 1280x800x24 &
    DISPLAY=:99 .venv/bin/python -m tests.ui.screenshots docs/screenshots

The app is wired as `companion run --sim` wires it (the simulated table made
of emulated readers), then played by touches and cards placed on virtual pads.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path


def main(out: str = "docs/screenshots") -> None:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix="kivy-home-")
    from companion.app_config import AppConfig
    from hardware.outputs import open_outputs
    from hardware.sources import open_table_source
    import ui.app as uiapp
    config = AppConfig(data_dir=Path(tempfile.mkdtemp(prefix="shots-")), profile_path=None, sim=True,
                       fullscreen=False, size=(800, 480))
    uiapp.configure_kivy((800, 480), False)
    app = uiapp.make_app(config, open_table_source(config), open_outputs(config))
    app._run_prepare()
    from ui import harness

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)

    def shot(name):
        harness.frames(4)
        harness.screenshot(folder / f"{name}.png")
        print("wrote", folder / f"{name}.png")

    harness.frames(3)
    tables(app, shot)
    app.stop()


#: how far each game is played for its table's picture: (seed, until) — a moment with something on
#: every part of the table
TABLE_MOMENTS = {
    "lifeforce": (3, lambda v: all(v["zones"][f"{s}.support"]["cards"] for s in (0, 1))),
    "vitaluna": (5, lambda v: v["phase"] == "battle" and sum(1 for p in v["detail"]["positions"].values() if p) >= 10),
    "territory": (2, lambda v: any(land and land.get("fought") for land in v["detail"].get("lands") or [])),
    "arcmage": (4, lambda v: v["detail"]["turn"] >= 3 and any(p["front"] for p in v["detail"]["players"])),
}


def tables(app, shot) -> None:
    """Each game's table at 800×480 and 1280×800: ``table-<game>-<w>x<h>.png``."""
    from kivy.core.window import Window
    from companion.engine import Rng
    from ui import harness
    from .driver import do, place, result_open, table_screen
    from .test_tables import NORTH, SOUTH

    def both_sizes(game):
        screen = table_screen(app)
        if result_open(app):
            screen.result_view.dismiss()
        screen.ids.feed.hide()
        for box in screen.zone_boxes.values():          # the notes of the last moves last seconds, not forever
            box.clear_note()
        for size in ((800, 480), (1280, 800)):
            Window.size = size
            harness.frames(6)
            shot(f"table-{game}-{size[0]}x{size[1]}")
        Window.size = (800, 480)
        harness.frames(3)

    controller = app.controller
    controller.start_game("sams", {}, seed=1)
    for (nl, nc), (sl, sc) in zip(NORTH, SOUTH):      # a whole round: every lane fought and marked
        place(app, f"0.lane{nl}", nc)
        place(app, f"1.lane{sl}", sc)
    both_sizes("sams")
    for game, (seed, until) in TABLE_MOMENTS.items():
        controller.start_game(game, {}, seed=1)
        session, rng = controller.session, Rng(seed)
        for _ in range(400):
            if until(session.view(None)) or session.rules.is_over(session.state):
                break
            if result_open(app):
                table_screen(app).result_view.dismiss()
            do(app, session.rules.random_action(session.state, rng))
        both_sizes(game)


if __name__ == "__main__":
    main(*sys.argv[1:])
