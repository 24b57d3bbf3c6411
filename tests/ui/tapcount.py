"""How many touches a game costs on the simulated table (issue 25, deliverable 1).

    DISPLAY=:99 .venv/bin/python -m tests.ui.tapcount 800x480 [games] [seed]

The first six rounds or battles of a game of each game, seeded random legal play, every action made by
touches through the window as a player makes it: a card is found in the card
drawer (its deck chosen, its page turned to) and touched, then its zone; any
other action is its button (two touches for one that asks again).  Every touch
is counted; the counts are printed per round (Sam's) or battle (the others) as
JSON, with Territory's count to enter its first 11 creatures.
"""
from __future__ import annotations

import json
import sys


#: rounds or battles counted per game (a random Lifeforce game runs to ~2,500 actions)
UNITS = 6


def main(size: str = "800x480", games: str = "sams,lifeforce,vitaluna,territory,arcmage", seed: str = "3") -> None:
    from .shots_window import shots_window
    width, height = (int(v) for v in size.split("x"))
    app = shots_window(width, height)
    from companion.engine import Rng
    from ui import harness
    from ui.simtable import open_panel
    from .driver import result_open, table_screen

    taps = [0]

    def tap(widget):
        taps[0] += 1
        harness.tap(widget)

    def find_card(panel, card):
        """Touch the card in the drawer: its deck's filter if it is not listed, then pages."""
        if card not in {c.id for c in panel.matching()}:
            deck = next(n for n, cards, _s in panel.decks if cards is None or card in cards)
            tap(next(b for b in panel.ids.decks.children if getattr(b, "text", "") == deck))
        ids = [c.id for c in panel.matching()]
        for _ in range(len(ids)):
            shown = [c for c in panel.ids.grid.children if c.card_id == card]
            if shown:
                tap(shown[0])
                return
            want = ids.index(card)
            per_page = max(1, len(panel.ids.grid.children))
            tap(harness.button("▶" if want >= (panel.page + 1) * per_page else "◀"))
        raise LookupError(card)

    report = {}
    for game in games.split(","):
        app.controller.start_game(game, {"players": ["North", "South"]}, seed=int(seed))
        harness.frames(3)
        screen = table_screen(app)
        session = app.controller.session
        taps[0] = 0
        tap(harness.button("Cards"))
        panel = screen._sim_panel
        rng = Rng(int(seed))
        per, last, creatures_at = [], 0, None
        for _ in range(4000):
            if session.rules.is_over(session.state) or len(per) >= UNITS:
                break
            if result_open(app):
                tap(harness.button("Back to the table"))
            action = session.rules.random_action(session.state, rng)
            before = len(session.actions)
            scan = session.rules.scan_for(session.state, action)
            if scan is not None:
                if panel.parent is None:
                    tap(harness.button("Cards"))
                find_card(panel, scan[1])
                tap(screen.zone_boxes[scan[0]])
            else:
                buttons = [b for b in [screen.ids.primary, *screen.ids.actions.children]
                           if getattr(b, "action", None) == action and not b.disabled]
                if buttons:
                    tap(buttons[0])
                    if getattr(buttons[0], "armed", False):
                        tap(buttons[0])
                else:
                    screen.send(action)               # no button for it (a counter's −/+): not counted
                    harness.frames(1)
            if len(session.actions) == before:
                raise AssertionError(f"{game}: {action} was not played")
            ended = _ended(session, game)
            if ended:
                per.append(taps[0] - last)
                last = taps[0]
            if game == "territory" and creatures_at is None and session.state.get("phase") != "register":
                creatures_at = taps[0]
        report[game] = {"per_round" if game == "sams" else "per_battle": per,
                        "median": sorted(per)[len(per) // 2] if per else None, "total": taps[0],
                        "actions": len(session.actions)}
        if creatures_at is not None:
            report[game]["to_enter_creatures"] = creatures_at
        panel.dismiss()
        print(json.dumps({game: report[game]}), flush=True)
    app.stop()


def _ended(session, game) -> bool:
    """Whether the last action ended a round (Sam's) or a battle (the others)."""
    marker = "_tapcount_seen"
    state = session.state
    done = (state.get("round"), ) if game == "sams" else (state.get("battle"), state.get("round"))
    prev = getattr(session, marker, None)
    setattr(session, marker, done)
    return prev is not None and prev != done


if __name__ == "__main__":
    main(*sys.argv[1:])
