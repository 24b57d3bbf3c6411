"""Screenshots of solo play (issue 17) at one window size, for docs/screenshots/.

    Xvfb :99 -screen 0 1280x800x24 &
    DISPLAY=:99 .venv/bin/python -m tests.ui.shots_solo docs/screenshots 800x480 instructs
    DISPLAY=:99 .venv/bin/python -m tests.ui.shots_solo docs/screenshots 1280x800 thinks [extra-folder]
    DISPLAY=:99 .venv/bin/python -m tests.ui.shots_solo docs/screenshots 800x480 lifeforce
    DISPLAY=:99 .venv/bin/python -m tests.ui.shots_solo docs/screenshots 1280x800 lifeforce

Writes ``solo-sams-setup-<w>x<h>.png`` (the setup screen, the companion
playing South) and ``solo-sams-table-<w>x<h>.png``: the table while the
companion says which slot to play on which lane (``instructs``: its longest
sentence, so the small screen's shot is that one) or while it thinks
(``thinks``).  With an extra folder it also writes there the other state, the
first card drawn for it and the simulated table's panel, for checking by eye.
With ``lifeforce`` it writes ``solo-lifeforce-setup-<w>x<h>.png`` and
``solo-lifeforce-table-<w>x<h>.png``: the table while the companion says which
slots go on which pads, the simulated table's panel open below it.
The game is set up and played by touch and by the simulated table's panel, as
a person would.
"""
from __future__ import annotations

import sys
from pathlib import Path

from .shots_window import shots_window


def main(out: str = "docs/screenshots", size: str = "800x480", table: str = "instructs", extra: str = "") -> None:
    width, height = (int(v) for v in size.split("x"))
    app = shots_window(width, height)
    from companion.games import sams
    from ui import harness
    from ui.simtable import open_panel
    from .driver import option_button, table_screen

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)

    def shot(name, where=folder):
        if where is None:
            return
        harness.frames(4)
        path = Path(where) / f"{name}-{size}.png"
        harness.screenshot(path)
        print("wrote", path)

    harness.frames(3)
    if table == "lifeforce":
        lifeforce(app, folder, shot)
        app.stop()
        return
    harness.tap(harness.button("Sam's Battle Game"))
    setup = app.root.get_screen("setup")
    harness.tap(option_button(setup, "Companion plays", "South"))
    harness.tap(option_button(setup, "Companion's strength", "Normal"))
    harness.tap(option_button(setup, "First player", "South"))
    setup.ids.options.parent.scroll_y = 0           # scrolled to the end: the companion's options in view
    shot("solo-sams-setup")
    harness.tap(harness.button("Start the game"))
    session = app.controller.session
    screen = table_screen(app)
    panel = open_panel(screen)
    if extra:                                       # the first card drawn for the companion
        found = [w for w in harness.walk(panel) if getattr(w, "text", "").startswith("Draw for South")]
        panel.dismiss()
        shot("solo-sams-draw", extra)
        found[0].dispatch("on_release")
        shot("solo-sams-drawn", extra)
        open_panel(screen)

    def press(prefix):
        harness.frames(1)                           # the companion's last move reaches the panel
        found = [w for w in harness.walk(panel) if getattr(w, "text", "").startswith(prefix) and not w.disabled]
        assert found, (prefix, [getattr(w, "text", "") for w in harness.walk(panel)][:12], session.actions[-3:])
        harness.tap(found[0])

    def settle():
        app.controller.solo.wait()
        harness.frames(2)

    def draw_all():
        while session.view(None)["detail"]["solo"]["missing"]:
            press("Draw for South")
        for _ in range(session.state["hand"][0] - len(panel.solo.hand())):
            press("Draw for North")

    def until_decided():
        for _ in range(5):                          # it may swap its hand first: then draw for it again
            draw_all()
            settle()
            if session.state["solo"]["decision"] is not None:
                return
        raise AssertionError(screen.phase_label)

    def south_plays():
        until_decided()
        press("Play slot")

    def north_plays(lane):
        harness.tap([c for c in panel.ids.grid.children][-1])
        harness.tap(screen.zone_boxes[f"0.lane{lane}"])

    for lane in (2, 4, 1):                          # a few cards on the table
        south_plays()
        north_plays(lane)
    until_decided()
    panel.dismiss()
    assert screen.phase_label.startswith("South plays the card in slot"), screen.phase_label
    screen.ids.feed.hide()                          # as it is 5 s later: the lanes uncovered
    shot("solo-sams-table" if table == "instructs" else "solo-sams-instructs", folder if table == "instructs"
         else extra or None)
    if extra:
        open_panel(screen)
        shot("solo-sams-panel", extra)
        panel.dismiss()
    if table == "thinks" or extra:
        open_panel(screen)
        press("Play slot")
        app.controller.solo.close()                 # it never answers: the screen stays on "thinking"
        north_plays(3)
        panel.dismiss()
        assert screen.phase_label == "South is thinking…", screen.phase_label
        screen.ids.feed.hide()
        shot("solo-sams-table" if table == "thinks" else "solo-sams-thinks", folder if table == "thinks"
             else extra)
    assert sams.solo_hand(session.state)
    app.stop()


def lifeforce(app, folder, shot) -> None:
    """Solo Lifeforce: the setup screen, then the table once the companion has named its attack."""
    from companion.games.lifeforce import solo
    from ui import harness
    from ui.simtable import open_panel
    from .driver import option_button, table_screen

    harness.tap(harness.button("Lifeforce Battle"))
    setup = app.root.get_screen("setup")
    harness.tap(option_button(setup, "Companion plays", "South"))
    harness.tap(option_button(setup, "Companion's strength", "Normal"))
    setup.ids.options.parent.scroll_y = 0
    shot("solo-lifeforce-setup")
    harness.tap(harness.button("Start the game"))
    session = app.controller.session
    screen = table_screen(app)
    panel = open_panel(screen)
    for _ in range(3):                              # it may take a new hand: then draw 5 again
        while solo.missing(session.state):
            harness.tap(panel.solo.theirs)
        app.controller.solo.wait()
        harness.frames(2)
    panel.dismiss()
    harness.tap(harness.button("First attacker: South"))
    app.controller.solo.wait()
    harness.frames(2)
    assert "South attacks: slot" in screen.phase_label, screen.phase_label
    panel = open_panel(screen)
    harness.frames(2)
    screen.ids.feed.hide()
    shot("solo-lifeforce-table")
    panel.dismiss()


if __name__ == "__main__":
    main(*sys.argv[1:])
