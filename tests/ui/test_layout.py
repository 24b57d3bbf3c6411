"""Issue 14, items 2–4: every table fits, nothing overlaps, nothing moves under the finger.

Each game is played through the screen (cards on the simulated table's pads,
touches on buttons) from a fixed seed; after every step the table screen is
checked at 800×480 — every label's text whole inside its box, no two widgets
of a layout overlapping, text ≥ 18 px, counters ≥ 40 px, touch targets ≥ 48
px — and every few steps at 1280×800 too (and a game's first actions at
1280×800 at the largest text size); no zone's note and not the feed lies over a counter (issue 25), and at 1280×800 the
feed lies in its own strip under the board, over no zone at all, showing the
log's last entries.  The confirm button must keep its place all game long.
"""
import pytest
from kivy.core.window import Window

from companion.engine import Rng
from ui import harness

from .driver import do, heard, place, result_open, table_screen
from .layout_checks import all_problems, feed_problems, overlap_problems, overlay_problems, text_problems
from .test_tables import start

GAMES = [("sams", 3, 40), ("lifeforce", 3, 30), ("vitaluna", 5, 40), ("territory", 2, 90), ("arcmage", 4, 60)]
BIG_EVERY = 15


def resize(size):
    Window.size = size
    harness.frames(4)


def problems_now(app, size, said=()):
    screen = table_screen(app)
    found = all_problems(screen, app.fscale) if size == (800, 480) else \
        text_problems(screen) + overlap_problems(screen) + feed_problems(screen, list(said))
    found += overlay_problems(screen)
    return [f"{size[0]}x{size[1]}: {p}" for p in found]


def play_checking(app, game, seed, steps, big_every=BIG_EVERY):
    """Play ``steps`` seeded random actions through the screen, checking the layout before each;
    every ``big_every`` steps at 1280×800 too, the feed in its strip with the log's last entries."""
    session = start(app, game)
    screen = table_screen(app)
    said = heard(session)
    rng = Rng(seed)
    primary_at = None
    try:
        for step in range(steps):
            if result_open(app):
                screen.result_view.dismiss()
                harness.frames(2)
            if session.rules.is_over(session.state):
                break
            found = problems_now(app, (800, 480))
            if big_every and step % big_every == 0:
                resize((1280, 800))
                found += problems_now(app, (1280, 800), said)
                resize((800, 480))
            assert not found, f"{game}, text size {app.fscale}, step {step}:\n" + "\n".join(found[:8])
            where = tuple(screen.ids.primary.to_window(*screen.ids.primary.pos)) + tuple(screen.ids.primary.size)
            assert primary_at in (None, where), "the confirm button moved"
            primary_at = where
            do(app, session.rules.random_action(session.state, rng))
    finally:
        resize((800, 480))


@pytest.mark.parametrize("game, seed, steps", GAMES)
def test_every_label_fits_and_nothing_overlaps_at_both_sizes(home, game, seed, steps):
    play_checking(home, game, seed, steps)


@pytest.mark.parametrize("game, seed, steps", GAMES)
def test_the_largest_text_size_fits_at_800x480(home, game, seed, steps):
    """Settings' largest text size (×1.3 on every font): still whole, still apart, still ≥ 18/40/48 px."""
    from ui import theme
    theme.set_text_scale(max(theme.TEXT_SCALES))
    harness.frames(3)
    try:
        play_checking(home, game, seed, steps, big_every=0)
    finally:
        theme.set_text_scale(1.0)
        harness.frames(3)


@pytest.mark.parametrize("game, seed, steps", GAMES)
def test_at_1280x800_the_largest_text_size_keeps_the_feed_in_its_strip(home, game, seed, steps):
    """Issue 25: a game started at 1280×800 at the largest text size: its feed has its strip (five
    lines, 156 px) and the board what is left; for its first eight actions every label is whole,
    nothing overlaps, and the feed covers no zone and no counter row and shows the log's last entries."""
    from ui import theme
    theme.set_text_scale(max(theme.TEXT_SCALES))
    resize((1280, 800))
    try:
        session = start(home, game)
        screen = table_screen(home)
        said = heard(session)
        rng = Rng(seed)
        for step in range(8):
            if result_open(home):
                screen.result_view.dismiss()
                harness.frames(2)
            if session.rules.is_over(session.state):
                break
            found = problems_now(home, (1280, 800), said)
            assert not found, f"{game}, step {step}:\n" + "\n".join(found[:8])
            do(home, session.rules.random_action(session.state, rng))
    finally:
        theme.set_text_scale(1.0)
        resize((800, 480))


def zone_places(screen):
    return {z: (tuple(b.to_window(*b.pos)), tuple(b.size)) for z, b in screen.zone_boxes.items()}


def test_messages_lie_over_the_board_and_move_no_zone(home):
    app = home
    start(app, "sams")
    screen = table_screen(app)
    place(app, "0.lane1", "sams.7h")
    harness.frames(3)
    before = zone_places(screen)
    primary = tuple(screen.ids.primary.to_window(*screen.ids.primary.pos))
    place(app, "0.lane2", "sams.4s")                  # refused: South plays now — a banner
    assert screen.ids.banner.shown and "South" in screen.ids.banner.text
    screen.ids.feed.add(["a message in the feed"])
    screen.zone_boxes["1.lane3"].flash(["a note on a zone"])
    screen.sim_card = "sams.6s"                       # the simulated table's hint
    harness.frames(3)
    assert screen.ids.sim_hint.shown and screen.ids.feed.shown
    assert zone_places(screen) == before
    assert tuple(screen.ids.primary.to_window(*screen.ids.primary.pos)) == primary
    screen.cancel_sim()
    screen.ids.banner.hide()
    harness.frames(2)
    assert zone_places(screen) == before


def test_a_play_is_shown_on_its_lane_and_undo_updates_the_status_line(home):
    app = home
    session = start(app, "sams")
    screen = table_screen(app)
    place(app, "0.lane3", "sams.7h")
    place(app, "1.lane1", "sams.6s")
    assert screen.zone_boxes["1.lane1"].note, "the play is not shown on its lane"
    assert "South opens lane 1 with 6♠" in screen.last_event
    harness.tap(harness.button("Undo"))
    assert len(session.actions) == 1
    assert screen.last_event == "North opens lane 3 with 7♥"
    assert screen.zone_boxes["1.lane1"].note == []


def test_a_scored_round_marks_each_winning_lane_with_its_reason(home):
    from .test_tables import NORTH, SOUTH
    app = home
    start(app, "sams")
    screen = table_screen(app)
    for n, ((nl, nc), (sl, sc)) in enumerate(zip(NORTH, SOUTH)):
        place(app, f"0.lane{nl}", nc)
        place(app, f"1.lane{sl}", sc)
    assert result_open(app)
    screen.result_view.dismiss()
    harness.frames(3)
    lane1 = screen.zone_boxes["0.lane1"]
    assert lane1.outcome == "won" and screen.zone_boxes["1.lane1"].outcome == "lost"
    assert lane1.reason[0] == "Lane 1: North attack 10 ≥ South defence 8 — North wins"
    assert screen.lane_marks[0].text.endswith("North wins")
    assert not text_problems(screen)


def test_the_text_size_setting_reaches_every_label(home):
    from ui import theme
    app = home
    start(app, "sams")
    screen = table_screen(app)
    try:
        theme.set_text_scale(1.3)
        harness.frames(3)
        assert app.fscale == 1.3
        assert screen.ids.phase.font_size == 18 * 1.3
        # Counter digits are 40 px already; on the 800×480 screen they keep that size so the
        # larger words still find room (on a 1280×800 screen they grow with the words).
        digits = [w for w in screen.counter_boxes["vp.0"].children if getattr(w, "bold", False)]
        assert digits and digits[0].font_size == 40
        resize((1280, 800))
        assert digits[0].font_size == 40 * 1.3 and screen.ids.phase.font_size == 18 * 1.3
        resize((800, 480))
    finally:
        theme.set_text_scale(1.0)
        harness.frames(3)
    assert app.fscale == 1.0


def play_until_event(app, session, seed, kinds, max_steps=400):
    """Random legal play through the screen until an event of one of ``kinds`` happens."""
    from companion.engine import redact_event
    seen = []
    unsubscribe = session.subscribe(lambda s, events: seen.extend(redact_event(e, None) for e in events))
    rng = Rng(seed)
    try:
        for _ in range(max_steps):
            if result_open(app):
                table_screen(app).result_view.dismiss()
            found = [e for e in seen if e["type"] in kinds]
            if found or session.rules.is_over(session.state):
                return found
            seen.clear()
            do(app, session.rules.random_action(session.state, rng))
    finally:
        unsubscribe()
    return []


def test_a_vita_luna_hit_is_shown_on_the_position_it_struck(home):
    app = home
    session = start(app, "vitaluna")
    hits = play_until_event(app, session, 5, {"hit"})
    assert hits, "no hit in the game"
    hit = hits[-1]
    box = table_screen(app).zone_boxes[f"{1 - hit['seat']}.white{hit['target_column']}"]
    assert box.note and box.note[0] == hit["text"]


def test_a_fought_territory_land_is_framed_for_its_winner_with_the_totals(home):
    app = home
    session = start(app, "territory")
    fights = play_until_event(app, session, 2, {"battle_result"})
    assert fights, "no land was fought"
    fight = fights[-1]
    screen = table_screen(app)
    harness.frames(2)
    land = screen.land_cards[fight["slot"]]
    if fight["winner"] in (0, 1):
        assert land.outcome == "won"
        assert screen.zone_boxes[f"{fight['winner']}.land{fight['slot'] + 1}"].outcome == "won"
        who = screen.players[fight["winner"]]
        assert any(who in reason for reason in land.reason)
    else:
        assert land.outcome == "tie"
    assert not text_problems(screen)


def test_arcmage_domains_show_their_faction_at_both_sizes(home):
    """Issue 14 item 1: Arcmage's domains with points *and faction* (RULINGS: one faction per
    domain at a time), whole at 800×480 and 1280×800."""
    from .test_decisive import begin
    app = home
    begin(app, "arcmage", 5)
    session = app.controller.session
    rng = Rng(5)
    held = []
    for _ in range(300):
        view = session.rules.view(session.state, None)
        held = [(seat, name, d["faction"]) for seat, p in enumerate(view["detail"]["players"])
                for name, d in p["domains"].items() if d["faction"]]
        if held:
            break
        session.act(session.rules.random_action(session.state, rng))
    assert held, "no servant with a faction entered a domain"
    screen = table_screen(app)
    if result_open(app):
        screen.result_view.dismiss()
    try:
        for size in ((800, 480), (1280, 800)):
            resize(size)
            for seat, name, faction in held:
                box = screen.zone_boxes[f"{seat}.{name}"]
                shown = box.ids.info.text
                assert faction in shown or faction.split()[-1] in shown, (size, shown)
            empty = [box for zone_id, box in screen.zone_boxes.items()
                     if zone_id.split(".")[-1] in ("politics", "science", "faith") and not box.cards]
            assert all("faction" in box.info[0] for box in empty)
            assert not text_problems(screen) and not overlap_problems(screen)
        assert faction in screen.zone_boxes[f"{seat}.{name}"].ids.info.text      # 1280×800: the whole name
    finally:
        resize((800, 480))


def test_card_faces_are_drawn_to_be_read_at_a_metre_where_the_zone_has_room(home):
    """Issue 25 item 4: a playing card's face ("10♠") on a chip is at least theme.FONT_FACE px
    (16 minutes of arc at 1 m on the 7" display, ISO 9241-3's minimum) at 800×480 and
    FONT_FACE_LARGE_WINDOW at 1280×800, red suits red; a zone too full for that keeps them whole
    at the body size."""
    from ui import theme
    from ui.widgets import CardChip
    app = home
    start(app, "sams")
    screen = table_screen(app)
    place(app, "0.lane1", "sams.7h")
    place(app, "1.lane1", "sams.10s")
    harness.frames(3)

    def chips(zone):
        return [w for w in screen.zone_boxes[zone].walk(restrict=True) if isinstance(w, CardChip) and w.text]

    try:
        for size, font in (((800, 480), theme.FONT_FACE), ((1280, 800), theme.FONT_FACE_LARGE_WINDOW)):
            resize(size)
            seven, ten = chips("0.lane1"), chips("1.lane1")
            assert [c.text for c in seven] == ["7♥"] and [c.text for c in ten] == ["10♠"]
            assert seven[0].font_size == font and ten[0].font_size == font, (size, seven[0].font_size)
            assert tuple(seven[0].color) == tuple(theme.CARD_RED)
            assert not text_problems(screen) and not overlap_problems(screen)
    finally:
        resize((800, 480))


def test_a_note_on_a_zone_with_counters_leaves_them_in_sight_at_both_sizes(home, notes_clock):
    """Issue 25: Arcmage's "Goblin Sapper (1), unblocked, hits …" lay over the region's name and HP
    at 800×480.  A zone's note lies over its words, under its counters: the HP a player reads is in
    sight beside what just hit it, at both sizes."""
    from .test_decisive import begin
    app = home
    begin(app, "arcmage", 14)
    session = app.controller.session
    screen = table_screen(app)
    rng = Rng(14)
    hits = []
    session.subscribe(lambda _s, events: hits.extend(e for e in events if e.get("type") == "region_damage"))
    for _ in range(800):
        if hits or session.rules.is_over(session.state):
            break
        session.act(session.rules.random_action(session.state, rng))
    assert hits, "no region was hit"
    if result_open(app):
        screen.result_view.dismiss()
    seat = hits[-1]["seat"]
    box, hp = screen.zone_boxes[f"{seat}.region"], screen.counter_boxes[f"{seat}.hp"]
    try:
        for size in ((800, 480), (1280, 800)):
            resize(size)
            assert box.note and box.ids.note_label.text in box.note, size
            assert not overlay_problems(screen), (size, overlay_problems(screen))
            assert str(hp.value) in harness.texts(box)
    finally:
        resize((800, 480))


def test_the_feeds_strip_keeps_the_log_and_what_now_gives_it_back(home):
    """Issue 25: at 1280×800 the feed has a strip of its own (800×480 has no room: none there) that
    shows the log's last entries and stays; "what now?" (a touch on the status line) takes it for a
    while and the next move gives it back; after an undo it shows what the log shows."""
    from ui.controller import public_history
    app = home
    session = start(app, "sams")
    screen = table_screen(app)
    assert screen.feed_strip == 0
    said = heard(session)
    try:
        resize((1280, 800))
        assert screen.feed_strip > 0
        before = zone_places(screen)
        for zone, card in (("0.lane1", "sams.7h"), ("1.lane1", "sams.6s"), ("0.lane2", "sams.4s")):
            place(app, zone, card)
        harness.frames(2)
        assert zone_places(screen) == before, "a zone moved when the feed spoke"
        assert not feed_problems(screen, said), feed_problems(screen, said)
        assert screen.ids.feed.lines[-1] == "North opens lane 2 with 4♠"
        harness.tap(screen.ids.status)
        assert screen.ids.feed.lines[0].startswith("Now: ")
        place(app, "1.lane2", "sams.5s")
        harness.frames(2)
        assert not any(line.startswith("Now: ") for line in screen.ids.feed.lines)
        assert not feed_problems(screen, said), feed_problems(screen, said)
        harness.tap(harness.button("Undo"))
        harness.frames(2)
        logged = [text for _action, text in public_history(session)]
        lines = screen.ids.feed.lines
        assert len(lines) == min(len(logged), 5) and all(t.startswith(l) for l, t in zip(lines, logged[-len(lines):]))
        assert not any("lane 2 with 5♠" in line for line in lines)
    finally:
        resize((800, 480))
    assert screen.feed_strip == 0
