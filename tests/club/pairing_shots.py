"""The table's pairing screen (ui.pairing) in a real Kivy window: its screenshot, and what players read.

    Xvfb :99 -screen 0 1280x800x24 &
    DISPLAY=:99 .venv/bin/python -m tests.club.pairing_shots docs/screenshots 800x480
    DISPLAY=:99 .venv/bin/python -m tests.club.pairing_shots docs/screenshots 1280x800

It prints, as JSON, the words on the screen at each step (the test reads them):
the pairing as sent, after South's player pressed, after *Swap seats*, and the
names the game started with once both seats pressed (by touches on the
on-screen seat buttons, as on the simulated table).  Then the game is played to
its end and the answer view asks both players "do you agree?"; North's player
agrees (a touch on their button): ``event-answer-WxH.png`` is that screen.  Then
South's player taps *I drop from the event* once: ``event-answer-drop-WxH.png``
is the button asking "Drop Ana from Friday Club? Tap again to drop".
"""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

PAIRING = {"v": 1, "event": 1, "event_name": "Friday Club", "game": "sams", "options": {}, "format": "bo3",
           "round": 2, "table": 5, "players": ["Ana", "Ben"], "ids": ["p1", "p2"], "result": None}


def configure_window(width: int, height: int) -> None:
    """Kivy set up for a ``width``×``height`` window, before anything imports Kivy (a fresh KIVY_HOME)."""
    import os
    os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix="kivy-home-")
    import ui.app as uiapp
    uiapp.configure_kivy((width, height), False)


def open_view(width: int, height: int, make_view):
    """A bare app showing ``make_view()`` in its window, scaled as the companion scales it: (app, view)."""
    from kivy.app import App
    from kivy.base import EventLoop

    class Shots(App):
        fscale = min(width / 800, height / 480, 1)
        bscale = 1.0                            # ui.widgets' BigButton (the answer view's "I drop") reads it

        def build(self):
            self.view = make_view()
            return self.view

    app = Shots()
    app._run_prepare()
    EventLoop.idle()
    return app, app.view


def main(out: str = "docs/screenshots", size: str = "800x480") -> None:
    width, height = (int(v) for v in size.split("x"))
    configure_window(width, height)
    import random

    from companion.club.eventtable import EventTable
    from companion.club.outbox import Outbox
    from companion.session import Session, Store
    from ui import harness
    from ui.pairing import AnswerView, PairingView

    store = Store(Path(tempfile.mkdtemp(prefix="pairing-")) / "companion.sqlite3")
    table = EventTable(store)
    table.outbox = Outbox("t5").attach(store)   # the answers are outbox rows, as at a table in the club
    started = []

    app, view = open_view(width, height, lambda: PairingView(
        table, lambda t: started.append(t.start(Session.start, seed=1)), on_deck_check=lambda player: None))

    def words():
        harness.frames(3)
        return {"headline": view.headline.text,
                "seats": [[h.where.text, h.name.text, h.state.text, h.button.text] for h in view.halves]}

    steps = {"waiting": words()}
    table.receive(json.dumps(PAIRING).encode())
    steps["sent"] = words()
    harness.tap(view.halves[1].button)
    steps["south pressed"] = words()
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    harness.screenshot(folder / f"event-pairing-{width}x{height}.png")
    harness.tap(view.swap_button)
    steps["swapped"] = words()
    harness.tap(view.halves[0].button)
    harness.tap(view.halves[1].button)
    steps["started with"] = started[0].options["players"] if started else None
    session, rng = started[0], random.Random(3)
    while not session.rules.is_over(session.state):
        session.act(session.rules.random_action(session.state, rng))
    names, winner = session.options["players"], session.rules.result(session.state).get("winner")
    text = (f"Result: {names[winner]} won" if winner in (0, 1) else "Result: a draw") + " — do you agree?"
    from kivy.core.window import Window
    Window.remove_widget(app.root)
    answer = AnswerView(table, session, text, lambda: None)
    Window.add_widget(answer)
    harness.tap(answer.halves[0].button)
    harness.frames(3)
    steps["answer"] = {"headline": answer.headline.text,
                       "seats": [[h.where.text, h.name.text, h.state.text, h.button.text, h.dispute.text]
                                 for h in answer.halves]}
    harness.screenshot(folder / f"event-answer-{width}x{height}.png")
    harness.tap(answer.halves[1].drop)            # South's player taps "I drop from the event" once: it asks
    harness.frames(3)
    steps["drop asked"] = [h.drop.text for h in answer.halves]
    harness.screenshot(folder / f"event-answer-drop-{width}x{height}.png")
    print(json.dumps(steps))
    app.stop()
    store.close()


if __name__ == "__main__":
    main(*sys.argv[1:])
