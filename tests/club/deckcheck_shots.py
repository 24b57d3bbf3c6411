"""The table's deck-check view (ui.deckcheck) in a real Kivy window: its screenshot, and what the judge reads.

    Xvfb :99 -screen 0 1280x800x24 &
    DISPLAY=:99 .venv/bin/python -m tests.club.deckcheck_shots docs/screenshots 800x480
    DISPLAY=:99 .venv/bin/python -m tests.club.deckcheck_shots docs/screenshots 1280x800

Ben's deck (Lifeforce, the deck-check pad) is passed with one card left out
and another added; *Done*; the verdict comes from :func:`companion.event.deckcheck.compare`
standing in for the hub (the hub's own answer is tested through the real broker
in tests/club/test_deck_check.py).  ``event-deckcheck-WxH.png`` is the verdict;
it prints the words on the screen at each step as JSON.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from tests.club.pairing_shots import PAIRING, configure_window, open_view

BEN = ["elk", "elk", "lynx", "crow", "frog", "toad"]


def main(out: str = "docs/screenshots", size: str = "800x480") -> None:
    width, height = (int(v) for v in size.split("x"))
    configure_window(width, height)
    from companion.club.eventtable import DeckCheck
    from companion.event.deckcheck import compare
    from companion.table import PadEvent
    from ui import harness
    from ui.deckcheck import DeckCheckView, deck_check_pad

    def hub(leaf, body):                         # the hub's answer, as companion.event.hub words it
        if body["final"] or compare(BEN, body["cards"]).ok:
            v = compare(BEN, [tuple(c) for c in body["cards"]])
            check.receive(json.dumps({"check": body["check"], "ok": v.ok, "cards": v.cards,
                                      "missing": sum(v.missing.values()), "extra": sum(v.extra.values()),
                                      "unregistered": len(v.unregistered)}).encode())
        return True

    pairing = {**PAIRING, "game": "lifeforce"}
    pad = deck_check_pad("lifeforce", {})
    check = DeckCheck(pairing, 1, pad, lambda uid: None, hub)

    app, view = open_view(width, height, lambda: DeckCheckView(check, "Lifeforce Battle", lambda: None))

    def words():
        harness.frames(3)
        return {"headline": view.headline.text, "count": view.count.text, "status": view.status.text,
                "buttons": [(b.text, b.disabled) for b in (view.done_button, view.again_button, view.close_button)]}

    steps = {"pad": pad, "open": words()}
    for i, card in enumerate([c for c in BEN if c != "frog"] + ["wolf"]):
        view.take_pad_event(PadEvent(pad, f"B{i}", "seen", time.monotonic(), card))
    steps["read"] = words()
    harness.tap(view.done_button)
    steps["verdict"] = words()
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    harness.screenshot(folder / f"event-deckcheck-{width}x{height}.png")
    print(json.dumps(steps))
    app.stop()


if __name__ == "__main__":
    main(*sys.argv[1:])
