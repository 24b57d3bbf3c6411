"""Screenshots of the screens that are not the table, at one window size, for docs/screenshots/.

    Xvfb :99 -screen 0 1280x800x24 &
    DISPLAY=:99 .venv/bin/python -m tests.ui.shots_screens docs/screenshots 800x480
    DISPLAY=:99 .venv/bin/python -m tests.ui.shots_screens docs/screenshots 1280x800

Files are named ``<screen>-<game>-<w>x<h>.png`` (no game for screens without
one).  The app is wired as ``companion run --sim`` wires it and driven by
touches and cards on virtual pads, like the UI tests.
"""
from __future__ import annotations

import sys
from pathlib import Path

from .shots_window import shots_window


#: the simulated-table pictures that show a whole step's button (issue 25): played until it is offered
WHOLE_STEP_SHOWN = {
    "lifeforce": lambda screen: screen.ids.primary.text.startswith("Done and resolve"),
    "vitaluna": lambda screen: any(getattr(b, "text", "").startswith("Attack every turn")
                                   for b in screen.ids.actions.children),
}


def legal(session, action) -> bool:
    try:
        session.rules.apply(session.state, action)
        return True
    except Exception:
        return False


def main(out: str = "docs/screenshots", size: str = "800x480", only: str = "") -> None:
    width, height = (int(v) for v in size.split("x"))
    app = shots_window(width, height)
    from companion.engine import Rng
    from ui import harness
    from .driver import do, place, result_open, table_screen
    from .layout_checks import visible

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    controller = app.controller

    def shot(screen, game=""):
        name = "-".join(p for p in (screen, game, size) if p)
        if only and only not in name:
            return
        harness.frames(4)
        harness.screenshot(folder / f"{name}.png")
        print("wrote", folder / f"{name}.png")

    def finish(game, seed, players=("Alex", "Sam")):
        controller.start_game(game, {"players": list(players)}, seed=1)
        session = controller.session
        rng = Rng(seed)
        while not session.rules.is_over(session.state):
            action = session.rules.random_action(session.state, rng)
            if len(session.actions) > 1500:           # a long random game: Sam forfeits, for the summary
                legal = session.rules.legal_actions(session.state)
                action = next((a for a in legal if a.get("type") == "forfeit" and a.get("seat") == 1), None)
                if action is None:
                    break
            session.act(action)
        harness.frames(3)
        return session

    def close_modals():
        for view in list(harness.walk()):
            if hasattr(view, "dismiss") and view.parent is not None and view.__class__.__name__ != "Screen" \
                    and hasattr(view, "attach_to"):
                view.dismiss()
        harness.frames(2)

    def decided(game, seed):
        """The result view of the first move that decides battles (not the game): its decisive battle."""
        controller.start_game(game, {"players": ["Alex", "Sam"]}, seed=seed)
        session, rng = controller.session, Rng(seed)
        for _ in range(3000):
            if result_open(app) or session.rules.is_over(session.state):
                break
            action = session.rules.random_action(session.state, rng)
            _state, events = session.rules.apply(session.state, action)
            if sum(1 for e in events if e.get("type") == "battle_result") >= (2 if game in ("sams", "territory") else 1):
                do(app, action)                     # the deciding move through the screen, as players make it
                break
            session.act(action)
            if result_open(app):
                table_screen(app).result_view.dismiss()
        harness.frames(3)

    harness.frames(3)
    games_and_seeds = [("sams", 11), ("lifeforce", 5), ("vitaluna", 3), ("territory", 2), ("arcmage", 4)]
    for game, seed in games_and_seeds:
        decided(game, seed)
        shot("result", game)
        close_modals()
        screen = table_screen(app)
        screen.ids.feed.hide()
        adjustable = [box for box in screen.counter_boxes.values() if box.adjustable and visible(box)]
        if adjustable:
            harness.tap(adjustable[0])
            shot("counter-adjust", game)
            close_modals()
    from companion.table import UNREAD, PadEvent
    for game, zone in (("sams", "1.lane3"), ("vitaluna", "0.white2")):   # a tap pad's pile, a hold pad's
        controller.start_game(game, {"players": ["Alex", "Sam"]}, seed=2)
        harness.frames(3)
        controller.handle_pad_event(PadEvent(controller._pad_of(zone), "", UNREAD, 0.0))
        shot("unread-pile", game)
        table_screen(app).ids.banner.hide()
    controller.start_game("sams", {"players": ["Alex", "Sam"]}, seed=2)
    place(app, "1.lane1", "sams.2c")                      # refused: Alex plays first
    shot("rejected-scan", "sams")
    table_screen(app).ids.banner.hide()
    place(app, "0.lane2", "sams.7h")
    app.go("hardware")
    shot("hardware")
    for game, seed in games_and_seeds:
        finish(game, seed)
        shot("summary", game)
        close_modals()
    for game, moves in [("sams", 5), ("lifeforce", 4), ("vitaluna", 4), ("arcmage", 3), ("territory", 3)]:
        controller.start_game(game, {"players": ["Alex", "Sam"]}, seed=1)
        from ui.simtable import open_panel
        harness.frames(3)
        screen = table_screen(app)
        panel = open_panel(screen)
        # a few plays from the panel's hand (its feed and notes in the picture), then the next hand;
        # where a game's whole-step button comes later (Lifeforce's "Done and resolve", Vita Luna's
        # "Attack every turn"), each side plays as many and confirms, until the button is offered
        session, rng = controller.session, Rng(1)
        shown = WHOLE_STEP_SHOWN.get(game)
        played = {0: 0, 1: 0, None: 0}
        for _ in range(60):
            if session.rules.is_over(session.state) or (shown is None and moves <= played[None]) \
                    or (shown is not None and shown(screen)):
                break
            if result_open(app):
                screen.result_view.dismiss()
            seat = screen.active_seat if shown is not None else None
            primary = screen.primary_action()
            if played[seat] >= moves and primary is not None and legal(session, primary):
                do(app, primary)
                harness.frames(2)
                continue
            hand = [c for c in panel.hand() if panel.zones_for(c.id)]
            if hand:
                panel.pick(hand[0].id)
                if screen.sim_card is not None:
                    harness.tap(screen.zone_boxes[panel.zones_for(hand[0].id)[0]])
                controller.road.join()
                played[seat] += 1
            else:
                action = next((a for a in session.rules.legal_actions(session.state)
                               if a["type"] in ("first_attacker", "attack_first", "done", "region", "ready", "next")),
                              None) or session.rules.random_action(session.state, rng)
                do(app, action)
            harness.frames(2)
        shot("simulated-table", game)
        panel.dismiss()
    # the drawer's search with its keyboard, and a game in progress left for another (issue 25)
    controller.start_game("sams", {"players": ["Alex", "Sam"]}, seed=1)
    harness.frames(3)
    panel = open_panel(table_screen(app))
    harness.frames(3)
    panel.ids.query.focus = True
    panel.ids.query.text = "10h"
    shot("search-keyboard", "sams")
    panel.dismiss()
    controller.session.act(controller.session.rules.random_action(controller.session.state, Rng(1)))
    app.go("home")
    app.root.get_screen("home").open_game("lifeforce")
    shot("leave-game")
    close_modals()
    app.go("history")
    shot("history")
    app.go("home")
    shot("home")
    app.go("setup", game="sams")
    shot("setup", "sams")
    setup = app.root.get_screen("setup")
    setup.ids.keyboard.watch(setup.ids.player0)
    setup.ids.player0.focus = True
    shot("keyboard", "sams")
    setup.ids.keyboard.done()
    for game in ("lifeforce", "vitaluna", "territory", "arcmage"):
        app.go("setup", game=game)
        shot("setup", game)
    app.go("settings")
    shot("settings")
    for n, (game, _seed) in enumerate(games_and_seeds):
        app.go("cards", game=game)
        shot("cards", game)
        cards = app.root.get_screen("cards")
        deck = cards.deck_choices()[-1][1]
        cards.start_enrolment(deck)
        for _ in range(3):
            cards.next_blank_tag()
        known = f"04FFFFFFFFFF{n:02X}"                       # a tag that already carries a later card
        controller.store.tags.register(known, deck[-1])
        controller.source.place("scan", known)
        controller.source.lift("scan", known)
        shot("enrol", game)
        cards.stop_enrolment()
    for game in ("lifeforce", "arcmage", "territory"):
        app.go("decks", game=game)
        app.root.get_screen("decks").add_whole_catalogue()
        shot("decks", game)

    for game, step in (("sams", 40), ("lifeforce", 60), ("vitaluna", 60), ("territory", 120), ("arcmage", 200)):
        over = [g for g in controller.store.games("over") if g.game == game] or \
            [g for g in controller.store.games() if g.game == game]
        app.go("replay", game_id=over[-1].id)
        replay = app.root.get_screen("replay")
        replay.show(min(step, len(replay.story.steps)))
        shot("replay", game)
    app.stop()


if __name__ == "__main__":
    main(*sys.argv[1:])
