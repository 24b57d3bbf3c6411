"""How many touches a game costs on the simulated table (issue 25, deliverable 1).

    DISPLAY=:99 .venv/bin/python -m tests.ui.tapcount 800x480 [games] [seed]

The first rounds or battles of each game, played as a person plays them, every
action made by touches through the window and counted.  The plan is the game's
obvious one, not a strategy (a guess at what a first-time player does, not a
measurement of players):

* the card panel is opened once and stays open; its hand lists what the seat to
  act may play now, sorted and grouped;
* where every card of the hand goes on one zone (Territory's creatures onto the
  ready pad), "Place all" lays them with one touch;
* Sam's: each seat builds one lane a turn (turn 1 on lane 1 …): it touches the
  lane once, then each card of its three with one touch (``SAMS_LANE``);
* otherwise the first card of the hand goes on the first zone that takes it: one
  touch when the engine takes it on one zone only, two (card, zone) when it
  has a choice;
* a seat places at most ``PLACE_CAP[game]`` cards before it touches the confirm
  button, when there is one (Lifeforce's animal and two supports: guesses);
  Vita Luna's seat places until its four white positions are filled;
* Vita Luna: once the cards are placed, each turn is its attack (singular cards
  and moves are optional; a plain plan leaves them), so it takes the screen's
  "Attack every turn", which says just that, when it is offered, else Attack;
* a battle's result is read, then its next step taken: the result view's own
  button for it when it offers one (Lifeforce's call, Vita Luna's rewards),
  else "Back to the table";
* other actions are their button, the confirm button first; never forfeit,
  redraw, mulligan, withdraw, cancel, stopping a standing choice or taking a
  card back.

Counted per round (Sam's), turn (Arcmage) or battle (the others) as JSON; Territory's also
until its creatures are entered.  Drags are not used (each would count as one
touch, and a person on a touchscreen taps).
"""
from __future__ import annotations

import json
import sys

#: rounds or battles counted per game
UNITS = 3
#: how many cards a seat lays before it confirms, where it may confirm (a guess at a plain plan)
PLACE_CAP = {"sams": 99, "lifeforce": 3, "vitaluna": 4, "territory": 5, "arcmage": 2}
#: actions a plain plan never takes by touch
AVOID = {"forfeit", "redraw", "mulligan", "withdraw", "cancel", "unplace", "unregister", "undeploy", "adjust",
         "discard", "discard_region", "spend", "exhaust", "stop_attacking"}
#: the button a plain plan takes before the confirm button: it makes the plan's own next turns too
PLAN_FIRST = {"vitaluna": "attack_every_turn"}


def main(size: str = "800x480", games: str = "sams,lifeforce,vitaluna,territory,arcmage", seed: str = "3",
         units: str = str(UNITS)) -> None:
    import os
    from .shots_window import shots_window
    width, height = (int(v) for v in size.split("x"))
    app = shots_window(width, height)
    for game in games.split(","):
        report = play_game(app, game, int(seed), int(units), trace=bool(os.environ.get("TAPCOUNT_TRACE")))
        report.pop("words")
        print(json.dumps({game: report}), flush=True)
    app.stop()


def play_game(app, game: str, seed: int = 3, units: int = UNITS, trace: bool = False) -> dict:
    """One game started on ``app``'s simulated table and played by the plan (see the module) until
    ``units`` rounds or battles are over: the touches each took, and ``words``, the words of every
    button the table offered on the way (the result view's too)."""
    from companion.engine import Rng
    from ui import harness
    from .driver import result_open, table_screen

    taps = [0]

    def tap(widget):
        if widget.disabled:
            raise AssertionError(f"the plan touched a disabled button: {getattr(widget, 'text', widget)!r}")
        taps[0] += 1
        harness.tap(widget)

    def card_widget(panel, card):
        """Its card in the panel, the page turned to it (a touch a page)."""
        ids = [c.id for c in panel.matching()]
        if card not in ids:
            raise LookupError(f"{card} is not in the card panel's list {ids[:8]}")
        for _ in range(len(ids) + 1):
            shown = [c for c in panel.ids.grid.children if c.card_id == card]
            if shown:
                return shown[0]
            tap(harness.button("▶" if ids.index(card) >= (panel.page + 1) * panel.per_page else "◀"))
        raise LookupError(f"{card} is not in the card panel: {ids[:8]}, page {panel.page + 1} of {panel.pages}")

    words: set[str] = set()
    app.controller.start_game(game, {"players": ["North", "South"]}, seed=seed)
    harness.frames(3)
    screen = table_screen(app)
    session = app.controller.session
    rules = session.rules
    taps[0] = 0
    tap(harness.button("Cards"))
    panel = screen._sim_panel
    rng = Rng(seed)
    per, last, creatures_at, placed = [], 0, None, {0: 0, 1: 0}
    for _ in range(3000):
        if rules.is_over(session.state) or len(per) >= units:
            break
        if screen.showing_later():
            result_open(app)                     # the result opens on the frame after its card's
        if screen.result_view.parent is not None:
            offered = [b for b in screen.result_view.ids.back_row.children if getattr(b, "action", None)]
            words.update(b.text for b in offered)
            if offered:
                tap(offered[-1])                 # the first, left of "Back to the table"
                app.controller.road.join()
                harness.frames(1)
            else:
                try:
                    tap(harness.button("Back to the table"))
                except LookupError:
                    tap(harness.button("Table"))
            if not offered or not _ended(session, game):
                continue
            per.append(taps[0] - last)
            last = taps[0]
            continue
        if panel.parent is None:
            tap(harness.button("Cards"))
        state = session.state
        before = len(session.actions)
        seat = panel.fed()
        primary = screen.ids.primary
        can_confirm = primary.action is not None and not primary.disabled
        hand = [c for c in panel.hand() if panel.zones_for(c.id)]
        capped = can_confirm and seat in (0, 1) and placed[seat] >= PLACE_CAP[game]
        if game == "vitaluna" and seat in (0, 1):
            positions = session.view(None)["detail"].get("positions", {})
            capped = can_confirm and all(positions.get(f"{seat}.white{n}") for n in range(1, 5))
        if game == "vitaluna" and can_confirm and "places" not in str(session.view(None).get("phase_label")):
            capped = True      # a plain plan attacks: no singular cards, no moves (they are optional)
        if hand and not capped:
            if panel.place_all_text:
                tap(panel.ids.place_all)
            elif game == "sams":
                lane = f"{seat}.lane{state['turn']}"
                if screen.sim_zones.get(seat) != lane:
                    tap(screen.zone_boxes[lane])
                tap(card_widget(panel, hand[0].id))
            else:
                card = hand[0].id
                zones = panel.zones_for(card)
                tap(card_widget(panel, card))
                if len(zones) > 1 and screen.sim_card == card:
                    tap(screen.zone_boxes[zones[0]])
            app.controller.road.join()
            harness.frames(1)
            if seat in (0, 1):
                placed[seat] += len(session.actions) - before
        else:
            buttons = [b for b in [primary, *reversed(screen.ids.actions.children)]
                       if getattr(b, "action", None) and not b.disabled and b.opacity > 0]
            words.update(b.text for b in buttons)
            buttons = [b for b in buttons if b.action.get("type") not in AVOID]
            first = [b for b in buttons if b.action.get("type") == PLAN_FIRST.get(game)]
            buttons = first + [b for b in buttons if b not in first]
            if buttons:
                tap(buttons[0])
                if getattr(buttons[0], "armed", False):
                    tap(buttons[0])
                app.controller.road.join()
                harness.frames(1)
                placed = {0: 0, 1: 0}
            if len(session.actions) == before:
                # nothing a plain plan touches (a choice only the rules' random player makes here)
                action = rules.random_action(state, rng)
                if rules.scan_for(state, action) is None:
                    screen.send(action)            # not counted: no button a person would find
                else:
                    app.controller.sim_place(*rules.scan_for(state, action))
                    taps[0] += 2
                app.controller.road.join()
                harness.frames(1)
        if trace:
            print(taps[0], [a.get("type") for a in session.actions[before:]], session.view(None).get("phase_label"))
        if len(session.actions) == before:
            raise AssertionError(f"{game}: the plan made no move in {session.view(None).get('phase_label')!r}")
        if _ended(session, game):
            per.append(taps[0] - last)
            last = taps[0]
        if game == "territory" and creatures_at is None and session.state.get("phase") != "register":
            creatures_at = taps[0]
    report = {{"sams": "per_round", "arcmage": "per_turn"}.get(game, "per_battle"): per,
              "median": sorted(per)[len(per) // 2] if per else None, "total": taps[0],
              "actions": len(session.actions), "words": sorted(words)}
    if creatures_at is not None:
        report["to_enter_creatures"] = creatures_at
    panel.dismiss()
    return report


def _ended(session, game) -> bool:
    """Whether the last action ended a round (Sam's) or a battle (the others)."""
    marker = "_tapcount_seen"
    state = session.state
    done = ((state.get("round"), ) if game == "sams" else (state.get("turn"), ) if game == "arcmage"
            else (state.get("battle"), state.get("round")))
    prev = getattr(session, marker, None)
    setattr(session, marker, done)
    return prev is not None and prev != done


if __name__ == "__main__":
    main(*sys.argv[1:])
