"""Issue 14 item 9 and issue 25 item 1: the simulated table's card panel in the real window.

Search, a seat's deck, pages kept between openings, game values on the cards,
a touch or mouse drag onto a zone, and a panel that covers nothing it feeds —
a drawer beside the board at 1280×800, a tray under it at 800×480 — so touches
go on reaching the table while it is open.  Its hand: sorted and grouped, a
card in one touch where it can go one way only, a chosen zone that takes each
next card with one touch, the whole hand with one.
"""
from kivy.core.window import Window as _Window
from kivy.base import EventLoop
from kivy.core.window import Window
from kivy.input.providers.mouse import MouseMotionEvent

from ui import harness
from ui.simtable import open_panel

from .driver import do, heard, table_screen
from .layout_checks import all_problems, feed_problems, overlap_problems, text_problems
from .test_tables import start


def mouse_drag(widget, to_window_pos, steps=5):
    """A left-button mouse drag, as Kivy's mouse provider reports one."""
    x, y = widget.to_window(*widget.center)
    ev = MouseMotionEvent("mouse", "mouse-test", [x / Window.width, y / Window.height, "left"], is_touch=True)
    EventLoop.post_dispatch_input("begin", ev)
    tx, ty = to_window_pos
    for i in range(1, steps + 1):
        px, py = x + (tx - x) * i / steps, y + (ty - y) * i / steps
        ev.move([px / Window.width, py / Window.height, "left"])
        EventLoop.post_dispatch_input("update", ev)
        harness.frames(1)
    EventLoop.post_dispatch_input("end", ev)
    harness.frames(2)


def card_button(panel, card_id):
    found = [c for c in panel.ids.grid.children if c.card_id == card_id]
    assert found, f"{card_id} is not on the panel's page"
    return found[0]


def rect(w):
    x, y = w.to_window(w.x, w.y)
    return x, y, x + w.width, y + w.height


def overlaps(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_search_pages_and_values_and_the_page_is_kept(home):
    app = home
    start(app, "sams")
    screen = table_screen(app)
    harness.tap(harness.button("Cards"))
    panel = screen._sim_panel
    assert panel.parent is not None
    panel.choose_deck("All cards")          # (the drawer's deck buttons; the 800×480 tray shows the hand)
    harness.frames(2)
    texts = [c.text for c in panel.ids.grid.children]
    assert "7♥\nattack 7" in texts or panel.pages > 1
    assert any(t.endswith("\nattack 2") for t in texts)       # the card's game value beside its face
    harness.tap(harness.button("▶"))
    assert panel.page == 1
    harness.tap(harness.button("Close"))
    assert screen.tray_height == 0 and screen.drawer_width == 0
    assert panel.parent is None
    harness.tap(harness.button("Cards"))
    assert open_panel(screen) is panel and panel.page == 1     # the page was kept
    panel.ids.query.text = "spades"
    harness.frames(2)
    ids = {c.card_id for c in panel.ids.grid.children}
    assert ids and all(i.endswith("s") for i in ids) and panel.page == 0
    panel.ids.query.text = "defence 10"                         # values are searchable too
    harness.frames(2)
    assert {c.card_id for c in panel.ids.grid.children} == {"sams.10s", "sams.10c"}
    panel.ids.query.text = ""
    panel.choose_deck("Playable now")
    harness.tap(harness.button("Close"))


def uncovered(screen, panel) -> list[str]:
    """What the open panel covers of what players must see while they feed the table: any zone,
    the top bar (turn badge, Undo), the bottom bar (actions, confirm) and the hint."""
    covered = [z for z, box in screen.zone_boxes.items() if overlaps(rect(panel), rect(box))]
    for name in ("top", "bottom", "active", "primary", "sim_hint"):
        widget = screen.ids[name]
        if widget.height > 0 and overlaps(rect(panel), rect(widget)):
            covered.append(name)
    return covered


def solo_panel_problems(screen, panel, board=True) -> list:
    """What a solo game's open panel does wrong where a player looks: covers a zone, the turn badge,
    Undo or the confirm button; breaks a word on its own buttons or (``board``) on the board it
    squeezes."""
    return [f"covers {c}" for c in uncovered(screen, panel)] + all_problems(panel, 1.0) \
        + (text_problems(screen) + overlap_problems(screen) if board else [])


def settled_problems(screen, panel, board=True) -> list:
    for _ in range(10):                 # the grid's rows and the squeezed board are laid out over a few frames
        harness.frames(2)
        problems = solo_panel_problems(screen, panel, board)
        if not problems:
            break
    return problems


def test_a_seats_deck_and_a_panel_that_covers_nothing_it_feeds_at_both_sizes(home):
    """1280×800: a drawer beside the board with each seat's deck; 800×480: a one-row tray under the
    board, which gives up its height.  Neither covers a zone, a bar or the hint, turn after turn,
    and every word on the squeezed board stays whole."""
    app = home
    session = start(app, "lifeforce")
    screen = table_screen(app)
    try:
        _Window.size = (1280, 800)
        harness.frames(4)
        panel = open_panel(screen)
        harness.frames(3)
        assert screen.drawer_width == 512 and not panel.tray
        south_deck = session.options["decks"][1]
        harness.tap(harness.button("South's deck"))
        shown = {c.card_id for c in panel.ids.grid.children}
        assert shown and shown <= set(south_deck)
        assert panel.ids.count.text.startswith(f"{len(set(south_deck))} cards")
        assert not uncovered(screen, panel)
        harness.tap(harness.button("North's deck"))
        assert not uncovered(screen, panel)
        panel.choose_deck("Playable now")
        # the feed in its strip beside the drawer, under no zone, with what was just done
        said = heard(session)
        do(app, {"type": "first_attacker", "seat": 0})
        animal = next(c for c in panel.hand() if panel.zones_for(c.id))
        harness.tap(card_button(panel, animal.id))              # the empty attacker pad takes it: one touch
        harness.frames(3)
        assert len(said) >= 2 and not overlaps(rect(panel), rect(screen.ids.feed))
        assert not feed_problems(screen, said), feed_problems(screen, said)
        _Window.size = (800, 480)              # the drawer becomes a tray
        harness.frames(4)
        assert panel.tray and screen.tray_height > 0 and screen.drawer_width == 0
        for step in range(6):                   # a battle's plays: the animal, its supports
            harness.frames(2)
            assert not uncovered(screen, panel), (step, uncovered(screen, panel))
            problems = text_problems(screen) + overlap_problems(screen) + all_problems(panel, 1.0)
            assert not problems, (step, problems[:4])
            hand = [c for c in panel.hand() if panel.zones_for(c.id)]
            if hand:
                harness.tap(card_button(panel, hand[0].id))       # one zone takes it: one touch
                if screen.sim_card is not None:
                    harness.tap(screen.zone_boxes[panel.zones_for(hand[0].id)[0]])
            elif screen.ids.primary.action is not None:
                harness.tap(screen.ids.primary)
        assert [a["type"] for a in session.actions][:3] == ["first_attacker", "play_animal", "support"]
    finally:
        _Window.size = (800, 480)
        harness.frames(3)
    panel.dismiss()


def test_a_sorted_grouped_hand_places_a_card_in_two_touches_or_one(home):
    """Sam's at 800×480: each seat's hand of five, dealt from the box, in one row, grouped by suit
    and sorted by value.  A card, then a lane: two touches.  A lane touched first is that seat's:
    each next card goes there with one touch.  The hint says so over the status line and leaves
    the confirm button and the actions uncovered."""
    from ui.simtable import card_order
    app = home
    session = start(app, "sams")
    screen = table_screen(app)
    harness.tap(harness.button("Cards"))
    panel = screen._sim_panel
    hand = panel.hand()
    assert len(hand) == 5 and hand == sorted(hand, key=card_order)
    shown = [c.card_id for c in panel.ids.grid.children[::-1]]
    assert shown == [c.id for c in hand], "the whole hand in one row, in its order"
    assert [c.attrs["suit"] for c in hand] == sorted(c.attrs["suit"] for c in hand)   # suits together
    first = hand[0].id
    harness.tap(card_button(panel, first))                  # North: a card, then a lane
    assert screen.sim_card == first and "Touch a zone for" in screen.ids.sim_hint.text
    assert not overlaps(rect(screen.ids.sim_hint), rect(screen.ids.primary))
    assert not overlaps(rect(screen.ids.sim_hint), rect(screen.ids.actions))
    harness.tap(screen.zone_boxes["0.lane1"])
    assert session.actions[-1] == {"type": "play", "seat": 0, "lane": 0, "card": first}
    assert first not in {c.id for c in panel.hand()}
    harness.frames(2)
    south = panel.hand()
    assert panel.fed() == 1 and len(south) == 5 and not {c.id for c in south} & {first}
    harness.tap(screen.zone_boxes["1.lane2"])               # South chooses lane 2 first
    assert screen.sim_zones == {1: "1.lane2"} and screen.ids.sim_hint.text.startswith("Lane 2")
    harness.tap(card_button(panel, south[0].id))
    assert session.actions[-1] == {"type": "play", "seat": 1, "lane": 1, "card": south[0].id}
    north = panel.hand()[0].id
    harness.tap(card_button(panel, north))
    harness.tap(screen.zone_boxes["0.lane1"])
    harness.frames(2)
    nxt = panel.hand()[0].id
    harness.tap(card_button(panel, nxt))                    # South's next card: one touch
    assert session.actions[-1] == {"type": "play", "seat": 1, "lane": 1, "card": nxt}
    assert len(session.actions) == 4
    harness.tap(screen.ids.sim_hint)                        # let the lane go
    assert screen.sim_zones == {} and not screen.ids.sim_hint.shown
    panel.dismiss()


def test_a_whole_hand_with_one_touch(home):
    """Territory: every creature goes on the ready pad: "Place all" enters North's with one touch,
    then the hand is South's.  Vita Luna: "Place a row" lays the attacker's white positions."""
    app = home
    session = start(app, "territory")
    screen = table_screen(app)
    harness.tap(harness.button("Cards"))
    panel = screen._sim_panel
    assert panel.fed() == 0 and panel.place_all_text.startswith("Place all")
    harness.tap(panel.ids.place_all)
    entered = [a for a in session.actions if a["type"] == "register"]
    assert len(entered) >= 10 and {a["seat"] for a in entered} == {0}
    harness.frames(2)
    assert panel.fed() == 1
    panel.dismiss()
    session = start(app, "vitaluna")
    screen = table_screen(app)
    do(app, {"type": "attack_first", "seat": 1})
    harness.tap(harness.button("Cards"))
    panel = screen._sim_panel
    harness.frames(2)
    assert panel.place_all_text == "Place a row", (panel.place_all_text, screen.phase_label)
    before = len(session.actions)
    harness.tap(panel.ids.place_all)
    placed = [a for a in session.actions[before:] if a["type"] == "place"]
    assert len(placed) >= 2 and all(a["zone"].startswith("1.white") for a in placed), placed
    assert len({a["zone"] for a in placed}) == len(placed)
    panel.dismiss()


def test_touch_a_card_then_a_zone_and_drag_with_finger_and_mouse(home):
    app = home
    session = start(app, "sams")
    screen = table_screen(app)
    panel = open_panel(screen)
    panel.ids.query.text = "7h"
    harness.frames(2)
    # Touch, then touch the zone: the panel stays open and does not swallow the zone's touch.
    harness.tap(card_button(panel, "sams.7h"))
    assert screen.sim_card == "sams.7h" and panel.parent is not None
    lane = screen.zone_boxes["0.lane1"]
    assert not overlaps(rect(panel), rect(lane))
    harness.tap(lane)
    assert session.actions[-1]["card"] == "sams.7h"
    # A finger drag onto South's lane 2 (South plays now; the panel moved to leave it free).
    panel.ids.query.text = "6s"
    harness.frames(2)
    target = screen.zone_boxes["1.lane2"]
    harness.drag(card_button(panel, "sams.6s"), target.to_window(*target.center))
    assert session.actions[-1]["card"] == "sams.6s" and session.actions[-1]["lane"] == 1
    # A mouse drag onto North's lane 3.
    panel.ids.query.text = "5 of diamonds"
    harness.frames(2)
    target = screen.zone_boxes["0.lane3"]
    mouse_drag(card_button(panel, "sams.5d"), target.to_window(*target.center))
    assert session.actions[-1]["card"] == "sams.5d" and session.actions[-1]["lane"] == 2
    assert len(session.actions) == 3
    panel.ids.query.text = ""
    panel.dismiss()


def test_clear_table_needs_a_second_tap(home, confirm_clock):
    app = home
    session = start(app, "sams")
    screen = table_screen(app)
    panel = open_panel(screen)
    app.controller.source.place("scan", "04AABBCCDDEE77")   # a tag left lying on a pad
    harness.frames(2)
    def lying():
        return {u for uids in app.controller.source.on_pad.values() for u in uids}

    assert lying()
    harness.tap(harness.button("Clear table"))
    assert lying(), "one tap cleared the table"
    harness.tap(harness.button("Tap again" if panel.tray else "Tap again to clear"))
    assert not lying()
    panel.dismiss()


def test_a_solo_game_on_the_simulated_table_never_shows_the_companions_cards(home):
    """Issue 17: draw for yourself and for the companion, play the slot it names; its faces stay unseen."""
    from companion.games import sams
    app = home
    session = start(app, "sams", solo_seat=1, solo_strength="easy")
    screen = table_screen(app)
    panel = open_panel(screen)
    assert panel.ids.count.text == "No card in your hand"          # not the box: it holds South's cards too
    # 800×480: a tray under the board, its draw and play buttons in a row above the hand (issue 25)
    harness.frames(2)
    assert panel.tray and screen.tray_height == panel.height and screen.drawer_width == 0
    assert not settled_problems(screen, panel), settled_problems(screen, panel)[:5]
    place = rect(panel)
    for n in range(5):
        harness.tap(harness.button(f"Draw for South ({5 - n})"))          # the cards it still lacks
    held = sams.solo_hand(session.state)
    assert len(held) == 5 and [a["type"] for a in session.actions] == ["solo_hand"] * 5
    secret = {t for c in held for t in (app.controller.card_text(c), app.controller.card_name(c))}
    for n in range(5):
        harness.tap(harness.button(f"Draw for North ({5 - n})"))
    mine = {c.card_id for c in panel.ids.grid.children}
    assert len(panel.solo.hand()) == 5 and mine == set(panel.solo.hand()) and not mine & set(held)
    assert not [(s, t) for s in secret for t in harness.texts() if s in t], "South's cards named on screen"
    harness.frames(2)
    assert not all_problems(panel, 1.0), all_problems(panel, 1.0)[:5]      # its buttons' words fit whole
    assert not [t for t in harness.texts() if t.endswith(": South") and t.startswith("Redraw")]  # its own choice
    # North swaps its hand of 5 (rules: for 3 new cards): the panel's hand empties, North draws 3.
    panel.dismiss()                                     # (it lies over the table's buttons)
    redraw = harness.button("Redraw: North")
    harness.tap(redraw)
    harness.tap(redraw)                                 # a hand thrown away asks twice (issue 25)
    assert session.actions[-1] == {"type": "redraw", "seat": 0}
    open_panel(screen)
    assert panel.solo.hand() == [] and panel.ids.count.text == "No card in your hand"
    for n in range(3):
        harness.tap(harness.button(f"Draw for North ({3 - n})"))
    assert len(panel.solo.hand()) == 3 and not set(panel.solo.hand()) & set(held)
    # North plays from its hand (touch the card, then the lane); South thinks and names a slot and a lane.
    card = panel.solo.hand()[0]
    harness.tap(card_button(panel, card))
    harness.tap(screen.zone_boxes["0.lane1"])
    assert session.actions[6] == {"type": "play", "seat": 0, "lane": 0, "card": card}
    app.controller.solo.wait()
    harness.frames(2)
    if session.actions[-1]["type"] == "redraw":        # it swapped its hand of 5: draw 3 for it again
        for n in range(3):
            harness.tap(harness.button(f"Draw for South ({3 - n})"))
        app.controller.solo.wait()
        harness.frames(2)
    decision = session.state["solo"]["decision"]
    label = f"Play slot {decision['slot'] + 1} on lane {decision['lane'] + 1}"
    assert screen.phase_label.startswith(f"South plays the card in slot {decision['slot'] + 1}"), \
        (session.view(None)["phase_label"], session.actions, screen.session is session)
    slot_card = session.state["solo"]["slots"][decision["slot"]]
    harness.tap(harness.button(label))
    assert session.actions[-1] == {"type": "play", "seat": 1, "lane": decision["lane"], "card": slot_card}
    assert card not in panel.solo.hand() and len(panel.solo.hand()) == 2
    # turn after turn the panel stays where it was and covers nothing (never changes sides)
    assert rect(panel) == place and not settled_problems(screen, panel), settled_problems(screen, panel)[:5]
    try:
        Window.size = (1280, 800)               # a drawer beside the board, its buttons stacked
        harness.frames(4)
        assert not panel.tray and screen.drawer_width == panel.width == 512
        assert not settled_problems(screen, panel), settled_problems(screen, panel)[:5]
        assert {b.text for b in panel.solo.children} <= set(harness.texts())
    finally:
        Window.size = (800, 480)
        harness.frames(3)
    # North plays again; South (4 cards, mid-turn: no swap) decides; Undo goes back past its decision
    # to North's play (its seat would decide again at once), and the card is back in North's hand.
    played = len(session.actions)
    second = panel.solo.hand()[0]
    harness.tap(card_button(panel, second))
    harness.tap(screen.zone_boxes["0.lane2"])
    app.controller.solo.wait()
    harness.frames(2)
    assert [a["type"] for a in session.actions[played:]] == ["play", "solo_decide"]
    panel.dismiss()                                     # (it lies over the table's buttons)
    harness.tap(harness.button("Undo"))
    assert len(session.actions) == played
    assert any(t.startswith("Undone: North") for t in harness.texts()), harness.texts()
    open_panel(screen)
    assert second in panel.solo.hand() and len(panel.solo.hand()) == 2
    panel.dismiss()


def test_a_solo_lifeforce_game_on_the_simulated_table_lays_the_companions_build_unseen(home):
    """Issue 17: in solo Lifeforce the panel lists the person's deck, draws the companion's cards
    from its own shuffled deck onto its hand pad and lays the build it names; no face of its holder
    is shown."""
    from companion.games.lifeforce import solo
    app = home
    session = start(app, "lifeforce", solo_seat=1, solo_strength="easy")
    screen = table_screen(app)
    panel = open_panel(screen)
    north, south = session.options["decks"]
    assert {c.card_id for c in panel.ids.grid.children} <= set(north)
    assert panel.ids.count.text.startswith(f"{len(north)} cards")
    assert panel.tray and screen.tray_height == panel.height      # 800×480: under the board (issue 25)
    # Lifeforce's board squeezed by the two-row tray: where its battle rows (~37 px) are too short for
    # a title line, each zone's title leads its words on one line ("Support · support 0"), whole
    assert not settled_problems(screen, panel), settled_problems(screen, panel)[:5]
    place = rect(panel)

    def secret_shown():
        held = set(solo.solo_hand(session.state)) - set(north)           # a copy in North's deck is listed
        names = {app.controller.card_name(c) for c in held}
        return [(n, t) for n in names for t in harness.texts() if n in t]

    def draw_for_south():
        while solo.missing(session.state):
            harness.tap(harness.button(f"Draw for South ({solo.missing(session.state)})"))
            assert not secret_shown()
        app.controller.solo.wait()
        harness.frames(2)

    draw_for_south()
    assert sorted(solo.solo_hand(session.state)) == sorted(set(solo.solo_hand(session.state)))
    assert set(solo.solo_hand(session.state)) <= set(south)
    if session.state["mulliganed"][1]:                    # it took a new hand: draw 5 again
        draw_for_south()
    panel.dismiss()                                       # (it lies over the table's buttons)
    do(app, {"type": "first_attacker", "seat": 1})
    app.controller.solo.wait()
    harness.frames(2)
    open_panel(screen)
    decision = session.state["solo"]["decision"]
    slots = session.state["solo"]["slots"]
    build = [slots[decision["animal"]]] + [slots[s] for s in decision["support"]]
    numbers = ", ".join(str(s + 1) for s in [decision["animal"], *decision["support"]])
    harness.tap(harness.button(f"Play slots {numbers}"))
    harness.frames(2)
    played = [(a["type"], a["card"]) for a in session.actions if a.get("seat") == 1 and "card" in a
              and a["type"] in ("play_animal", "support")]
    assert played == [("play_animal", build[0])] + [("support", c) for c in build[1:]]
    assert session.state["phase"] == "counter" and session.state["turn"] == 0
    assert not secret_shown()
    assert panel.solo.play_button.text == "Play for South" and panel.solo.play_button.disabled
    assert rect(panel) == place and not settled_problems(screen, panel)
    assert any(t.startswith("Support · ") for t in harness.texts()), harness.texts()    # a title in its words
    try:
        Window.size = (1280, 800)
        harness.frames(4)
        assert not panel.tray and screen.drawer_width == panel.width == 512
        assert not settled_problems(screen, panel), settled_problems(screen, panel)[:5]
    finally:
        Window.size = (800, 480)
        harness.frames(3)
    panel.dismiss()
