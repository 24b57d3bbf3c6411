"""Playing a game through the app's screen, as players at the simulated table would.

A card-placing action is made the way a player makes it on the simulated
table: pick the card (``sim_card``, what the card panel does) and touch the
zone on the table screen; the touch goes through the window, the simulated
table puts the card's virtual tag on that zone's pad and the reader stack
reports it.  Every other action is the touch of its button when the screen
shows one, else what that button sends (``screen.send``).
"""
from __future__ import annotations

from companion.engine import Rng, redact_event
from ui import harness


def table_screen(app):
    return app.root.get_screen("table")


def faces(box) -> list[tuple[str, bool]]:
    """A zone's cards as ``(face, hidden)``: each card's fullest text."""
    return [(choices[0], hidden) for choices, hidden in box.cards]


def _public_cards(events) -> set[str]:
    """Cards the shared screen's events name in their fields (a land's reveal, an ability used)."""
    out = set()
    for e in events:
        e = redact_event(e, None)
        if e.get("type") in ("rejected", "unknown_tag"):
            continue                      # a refusal never shows a card on purpose: its leaks must be caught
        for key in ("card", "creature"):
            if isinstance(e.get(key), str):
                out.add(e[key])
        out.update(c for c in e.get("creatures", []) if isinstance(c, str))
    return out


def seen_face_up(app) -> set[str]:
    """Every card the table has seen face up in this game, by the public events so far.

    A card revealed and then put back in a hidden pile in the same action (a
    Territory creature revealed at the last land, pulled back to the ready pile
    at round end) is no secret: the table saw it.
    """
    session = app.controller.session
    seen = getattr(session, "_test_seen_face_up", None)
    if seen is None:
        rules = session.rules
        state = rules.setup(session.options, session.seed)
        seen = set()
        for action in session.actions:
            state, events = rules.apply(state, action)
            seen |= _public_cards(events)
        session._test_seen_face_up = seen
        session.subscribe(lambda s, events: seen.update(_public_cards(events)))
    return seen


def hidden_faces(app) -> set[str]:
    """Names and faces of every card lying face down now, which no widget may show.

    A card is face down when the shared view shows ``{"hidden": True}`` where
    its owner's view shows the card.  A name also visible face up elsewhere on
    the shared view (another copy), or shown face up earlier in the game
    (:func:`seen_face_up`), is left out: showing it is allowed.
    """
    session = app.controller.session
    rules, state = session.rules, session.state
    shared = rules.view(state, None)["zones"]
    visible = {c for z in shared.values() for c in z.get("cards", []) if isinstance(c, str)}
    visible |= seen_face_up(app)
    secret = set()
    for seat in (0, 1):
        own = rules.view(state, seat)["zones"]
        for zone_id, zone in own.items():
            public = shared.get(zone_id, {}).get("cards", [])
            for n, card in enumerate(zone.get("cards", [])):
                if isinstance(card, str) and n < len(public) and isinstance(public[n], dict) \
                        and public[n].get("hidden") and card not in visible:
                    secret.add(card)
    faces = set()
    for card in secret:
        faces.add(app.controller.card_name(card))
        faces.add(app.controller.card_text(card))
    return {f for f in faces if f}


def assert_nothing_hidden_shown(app) -> None:
    secrets = hidden_faces(app)
    if not secrets:
        return
    shown = harness.texts()
    leaks = [(secret, text) for secret in secrets for text in shown if secret in text]
    assert not leaks, f"face-down cards shown on the shared screen: {leaks[:3]}"


def place(app, zone: str, card_id: str) -> None:
    """A player's placement on the simulated table: pick the card, touch the zone."""
    screen = table_screen(app)
    screen.sim_lifting = False
    screen.sim_card = card_id
    harness.tap(screen.zone_boxes[zone])


def do(app, action: dict) -> None:
    """Make ``action`` as players would: a card on a pad, or a touch."""
    session = app.controller.session
    scan = session.rules.scan_for(session.state, action)
    if scan is not None:
        place(app, *scan)
        return
    screen = table_screen(app)
    buttons = [b for b in [screen.ids.primary, *screen.ids.actions.children]
               if getattr(b, "action", None) == action and not b.disabled]
    if len(buttons) == 1 and screen.button_actions().count(action) == 1:
        harness.tap(buttons[0])
        if getattr(buttons[0], "armed", False):          # a forfeit asks for a second tap
            harness.tap(buttons[0])
    else:
        screen.send(action)
        harness.frames(2)


def play_until(app, seed: int, done, max_steps: int = 3000) -> int:
    """Random legal actions through the screen until ``done(app)``; checks every step."""
    rng = Rng(seed)
    session = app.controller.session
    for step in range(max_steps):
        if done(app):
            return step
        if session.rules.is_over(session.state):
            break
        before = len(session.actions)
        action = session.rules.random_action(session.state, rng)
        do(app, action)
        # (a touch may make a whole step: Lifeforce's counter's Done resolves the duel too)
        assert len(session.actions) > before and session.actions[before] == action, \
            f"step {step}: {action} was not played; banner: {table_screen(app).ids.banner.text!r}"
        assert_nothing_hidden_shown(app)
    assert done(app), f"not done after {max_steps} steps"
    return max_steps


def opens_a_result(events) -> bool:
    """Whether a move's events open the table's result view (a battle, a round or the game decided):
    a walk need wait for the view (:func:`result_open`'s frames) only after such a move."""
    from ui.tables.generic import RESULT_EVENTS
    return any(e.get("type") in RESULT_EVENTS for e in events)


def result_open(app) -> bool:
    """The result view is open (a deciding card shows in its own frame, what it decided and the view
    in the next: waited for, a few frames at most)."""
    screen = table_screen(app)
    harness.frames(2)
    for _ in range(4):
        if not screen.showing_later():
            break
        harness.frames(1)
    view = screen.result_view
    return view is not None and view.parent is not None


def option_button(setup, option_label: str, text: str):
    """The button saying ``text`` in the setup screen's row for the option labelled ``option_label``.

    Several rows may offer the same words (both "First player" and "Companion
    plays" name the players), so a touch is aimed at its row as a player's eye is.
    """
    rows = [w for w in harness.walk(setup.ids.options)
            if any(getattr(c, "text", None) == option_label for c in getattr(w, "children", ()))]
    if len(rows) != 1:
        raise LookupError(f"{len(rows)} option rows say {option_label!r}")
    button = harness.button(text, root=rows[0])
    setup.ids.options.parent.scroll_to(button, animate=False)      # as a person scrolls the form to it
    harness.frames(2)
    return button


def put(app, zone: str, card_id: str) -> None:
    """A card laid on the pad of ``zone`` (a tap on a tap pad), as the simulated table reports it.

    The readers' events go onto the input road (companion.inputs); one frame (the harness waits for
    the road first) and the game and the widgets' texts have followed."""
    from companion.simulate import free_copy
    source = app.controller.source
    pad = app.controller.session.table.layout.pads_of(zone)[0]
    source.place(pad, free_copy(card_id, {u for uids in source.on_pad.values() for u in uids}))
    harness.frames(1)


def heard(session) -> list[str]:
    """Every sentence the shared screen says as the game goes on (what the feed tells), in order."""
    from ui.tables.generic import BANNER_EVENTS
    said: list[str] = []
    session.subscribe(lambda _s, events: said.extend(
        e["text"] for e in session.public_events(events)
        if e.get("text") and e.get("type") not in BANNER_EVENTS and e.get("type") != "undone"))
    return said
