"""Screenshots of each game's table for docs/screenshots/ (``table-<game>-<w>x<h>.png``;
the other screens: :mod:`tests.ui.shots_screens`), one window size a run.

    Xvfb :99 -screen 0 1280x800x24 &
    DISPLAY=:99 .venv/bin/python -m tests.ui.screenshots docs/screenshots 800x480
    DISPLAY=:99 .venv/bin/python -m tests.ui.screenshots docs/screenshots 1280x800

The app is wired as `companion run --sim` wires it (the simulated table made
of emulated readers), then played by touches and cards placed on virtual pads.
"""
from __future__ import annotations

import sys
from pathlib import Path

from .shots_window import shots_window


def main(out: str = "docs/screenshots", size: str = "800x480") -> None:
    width, height = (int(v) for v in size.split("x"))
    app = shots_window(width, height)
    from ui import harness

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)

    def shot(name):
        harness.frames(4)
        harness.screenshot(folder / f"{name}.png")
        print("wrote", folder / f"{name}.png")

    harness.frames(3)
    tables(app, shot, size)
    app.stop()


#: how far each game is played for its table's picture: (seed, until) — a moment with something on
#: every part of the table
TABLE_MOMENTS = {
    "lifeforce": (3, lambda v: all(v["zones"][f"{s}.support"]["cards"] for s in (0, 1))),
    "vitaluna": (5, lambda v: v["phase"] == "battle" and sum(1 for p in v["detail"]["positions"].values() if p) >= 10),
    "territory": (2, lambda v: any(land and land.get("fought") for land in v["detail"].get("lands") or [])),
    "arcmage": (4, lambda v: v["detail"]["turn"] >= 3 and any(p["front"] for p in v["detail"]["players"])
                and any(d["faction"] for p in v["detail"]["players"] for d in p["domains"].values())),
}


def tables(app, shot, size: str) -> None:
    """Each game's table at the window's size: ``table-<game>-<w>x<h>.png``."""
    from companion.engine import Rng
    from ui import harness
    from .driver import do, place, result_open, table_screen
    from .test_tables import NORTH, SOUTH

    def table_shot(game):
        screen = table_screen(app)
        if result_open(app):
            screen.result_view.dismiss()
        # as players see it a moment after the last move: its notes on the zones and the feed
        harness.frames(6)
        shot(f"table-{game}-{size}")

    controller = app.controller
    controller.start_game("sams", {}, seed=1)
    for (nl, nc), (sl, sc) in zip(NORTH, SOUTH):      # a whole round: every lane fought and marked
        place(app, f"0.lane{nl}", nc)
        place(app, f"1.lane{sl}", sc)
    table_shot("sams")
    for game, (seed, until) in TABLE_MOMENTS.items():
        controller.start_game(game, {}, seed=1)
        session, rng = controller.session, Rng(seed)
        for _ in range(400):
            if until(session.view(None)) or session.rules.is_over(session.state):
                break
            if result_open(app):
                table_screen(app).result_view.dismiss()
            do(app, session.rules.random_action(session.state, rng))
        table_shot(game)


if __name__ == "__main__":
    main(*sys.argv[1:])
