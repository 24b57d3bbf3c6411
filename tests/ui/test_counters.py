"""Issue 25, item 5: counters the log agrees with.

Each of the five games is played through the session (seeded random play, an
undo and a redo every few actions), with a real window showing its table; after
every action, undo and redo the screen is read as a player reads it and
compared with the engine:

* every counter of the engine's shared view has a visible box on the table
  showing its number (a pile the engine counts but the table never shows, like
  Sam's separate pile after a redraw, reads as cards gone missing);
* the cards a player can count on the screen add up: in Sam's the draw pile,
  discard, separate pile, both hands and the cards on the lanes stay the same
  total all game (the deck does not shrink); in Lifeforce each side's deck, hand,
  discard, graveyard and cards in play add up to its deck; Vita Luna's "In hand"
  and the positions a side fills add up to the cards it holds less those out of
  the battle; Territory's ready pile says the number of creatures the engine
  has there (its deck, while decks are registered);
* the feed tells what the log tells: after an undo no undone action is in it;
  each of its lines is one line on the screen, the beginning of a logged
  sentence, never a wrapped tail; and it does not lie over the zones it tells of;
* after the game's end no button on the board stands where another one was;
* what lies over the table hides no counter (no note over a counter, the feed over no counter
  row), and a zone's note stays only while the zone says what it said when the note was laid:
  an old note never stands over a count that has changed since ("North adds a creature: 6
  creatures" over "Ready pile: 0 creatures").

Scripted: a card put down during Lifeforce's call or check, while the battle's
result covers the table, is answered on the result view.
"""
import pytest

from companion.engine import Rng
from ui import harness
from ui.tables.generic import shorter
from ui.widgets import CounterBox, measure

from .driver import put, result_open, table_screen
from .layout_checks import overlay_problems, visible

#: game, seed, actions played at random (then a forfeit where the game has one)
GAMES = [("sams", 4, 50), ("lifeforce", 3, 45), ("vitaluna", 2, 45), ("territory", 2, 45), ("arcmage", 4, 35)]
UNDO_EVERY = 6


def counter_on_screen(screen, counter: dict) -> CounterBox | None:
    box = screen.counter_boxes.get(counter["id"])
    return box if box is not None and visible(box) and box.opacity > 0 else None


def shown_number(box: CounterBox) -> int:
    """The digits the counter shows (its value label's text, as a player reads it)."""
    digits = [w.text for w in box.walk(restrict=True) if w is not box and getattr(w, "text", "").lstrip("-").isdigit()]
    assert digits, f"counter {box.counter_id} shows no number"
    return int(digits[0])


def read_counters(screen, view: dict) -> dict[str, int]:
    found, problems = {}, []
    for counter in view.get("counters", []):
        if counter["id"].startswith("rest."):
            continue                     # Territory's rest counters are read from the resting button
        box = counter_on_screen(screen, counter)
        if box is None:
            problems.append(f"{counter['label']} ({counter['value']}) is not on the table")
            continue
        found[counter["id"]] = shown_number(box)
        if found[counter["id"]] != counter["value"]:
            problems.append(f"{counter['label']} shows {found[counter['id']]}, the engine says {counter['value']}")
    assert not problems, problems
    return found


def chips(screen, zone_id: str) -> int:
    return len(screen.zone_boxes[zone_id].cards)


def leading_number(choices: list[str]) -> int:
    import re
    match = re.search(r"(\d+)", choices[0] if choices else "")
    assert match, choices
    return int(match.group(1))


class Totals:
    """What the cards a player can count on the screen add up to; the first reading is the total."""

    def __init__(self):
        self.first: dict = {}

    def same(self, key, total: int, where: str) -> None:
        self.first.setdefault(key, total)
        assert total == self.first[key], f"{where}: the cards counted on the screen add up to {total}, " \
                                         f"were {self.first[key]}"


def check_piles(game: str, app, shown: dict[str, int], totals: Totals, where: str) -> None:
    screen, state = table_screen(app), app.controller.session.state
    from companion.games.territory.catalogue import name
    if game == "sams":
        on_lanes = sum(chips(screen, f"{s}.lane{n}") for s in (0, 1) for n in range(1, 6))
        totals.same("all", sum(shown[k] for k in ("pile", "discard", "set_aside", "hand.0", "hand.1")) + on_lanes,
                    where)
    elif game == "lifeforce":
        for s in (0, 1):
            totals.same(s, sum(shown[f"{k}.{s}"] for k in ("deck", "hand", "discard", "graveyard", "in_play")), where)
    elif game == "vitaluna":
        for s in (0, 1):
            filled = sum(1 for n in range(1, 5) if screen.zone_boxes[f"{s}.white{n}"].info[:1] != ["empty"]) + \
                sum(1 for n in range(1, 5) if chips(screen, f"{s}.grey{n}"))
            held = sum(state["held"][s].values()) - len(state["dead"][s])
            assert shown[f"hand.{s}"] + filled == held, \
                f"{where}: seat {s} shows {shown[f'hand.{s}']} in hand and {filled} positions filled, holds {held}"
    elif game == "territory":
        import re
        for s in (0, 1):
            resting = {name(cid): n for cid, n in state["resting"][s].items()}
            text = screen.resting[s].text
            count = re.fullmatch(r"(?:Resting:|Rest) (\d+)", text)
            if count:
                assert int(count.group(1)) == len(resting), f"{where}: {text!r}, the engine has {resting}"
            else:
                told = sorted(text.removeprefix("Resting: ").split(", ")) if resting else [text]
                assert told == (sorted(f"{k} {n}" for k, n in resting.items()) if resting else ["Resting: none"]), \
                    f"{where}: {text!r}, the engine has {resting}"
            pile = state["decks"][s] if state["phase"] == "register" else state["ready"][s]
            said = leading_number(screen.zone_boxes[f"{s}.ready"].info)
            assert said == len(pile), f"{where}: seat {s}'s ready pad says {said}, the engine has {len(pile)}"


def check_feed(app, zones: list[str], said: set[str], logged: set[str], where: str, after_undo: bool = False) -> None:
    screen = table_screen(app)
    feed = screen.ids.feed
    if not (feed.shown and feed.lines):
        return
    forms = {form for text in logged for form in shorter(text)}
    room = feed.width - 16 * screen.fs()
    for line in feed.lines:
        # one line, or the whole sentence under its bullet: never a tail ("21. South counters now")
        assert any(text.startswith(line) for text in said), f"{where}: {line!r} is no sentence's beginning"
        if measure("• " + line, feed.font_size, feed.bold, None)[0] > room + 1:
            assert line in said, f"{where}: {line!r} wraps, and is only part of a sentence"
        if after_undo:
            assert line in forms, f"{where}: the feed shows {line!r}, which the log no longer has"
    fx, fy = feed.to_window(feed.x, feed.y)
    for zone in zones:
        box = screen.zone_boxes.get(zone)
        if box is None:
            continue
        bx, by = box.to_window(box.x, box.y)
        overlap = min(fx + feed.width, bx + box.width) - max(fx, bx), min(fy + feed.height, by + box.height) - max(fy, by)
        assert overlap[0] <= 1 or overlap[1] <= 1, f"{where}: the feed lies over {zone}, which it tells of " \
            f"{screen.feed_place} {(fx, fy, feed.width, feed.height)} {(bx, by, box.width, box.height)} {feed.lines}"


class Notes:
    """The zones' notes as a player sees them come and go: a note still shown must stand over the
    words and counters its zone showed when it appeared."""

    def __init__(self):
        self.laid: dict[int, tuple] = {}

    @staticmethod
    def says(box) -> tuple:
        counters = tuple(shown_number(c) for c in box.ids.counters.children if isinstance(c, CounterBox))
        return box.ids.info.text, counters

    def check(self, screen, where: str) -> None:
        from ui.widgets import ZoneBox
        for box in screen.ids.board.walk(restrict=True):
            if not isinstance(box, ZoneBox):
                continue
            note = box.ids.note_label.text if box.note and visible(box.ids.note_label) else ""
            if not note:
                self.laid.pop(id(box), None)
                continue
            first = self.laid.setdefault(id(box), (note, self.says(box)))
            if first[0] != note:
                self.laid[id(box)] = (note, self.says(box))
                continue
            assert self.says(box) == first[1], \
                f"{where}: {box.zone_id or 'a land'}'s note {note!r} still stands over {self.says(box)}, " \
                f"laid over {first[1]}"


def board_buttons(screen) -> list[tuple[str, tuple]]:
    from kivy.uix.behaviors import ButtonBehavior
    out = []
    status = screen.ids.status.__self__
    for w in screen.walk(restrict=True):
        if w is status:
            continue                       # the status line: its words change, its touch (what now?) does not
        if isinstance(w, ButtonBehavior) and not w.disabled and visible(w) and getattr(w, "text", ""):
            x, y = w.to_window(w.x, w.y)
            out.append((w.text, (x, y, x + w.width, y + w.height)))
    return out


@pytest.mark.parametrize("game, seed, budget", GAMES)
def test_the_counters_and_the_feed_agree_with_the_engine(home, game, seed, budget):
    app = home
    app.controller.start_game(game, {"players": ["North", "South"]}, seed=seed)
    session = app.controller.session
    screen = table_screen(app)
    rng = Rng(seed)
    totals = Totals()
    from ui.controller import public_history
    last: list = []
    said: set[str] = set()
    notes = Notes()

    def heard(_session, events):
        last[:] = events
        said.update(e.get("text", "") for e in session.public_events(events))
    session.subscribe(heard)

    def look(where: str, after_undo: bool = False) -> None:
        if any(e.get("type") in ("battle_result", "game_over") for e in last) and result_open(app) \
                and not session.rules.is_over(session.state):
            screen.result_view.dismiss()
        harness.frames(1)
        view = session.view(None)
        shown = read_counters(screen, view)
        check_piles(game, app, shown, totals, where)
        zones = [] if after_undo else [z for ev in session.public_events(last) for z in screen.event_zones(ev)]
        # the log's sentences (replayed: only after an undo or a redo, where the feed must be the log's)
        logged = {t for _a, t in public_history(session)} if after_undo else set()
        said.update(logged)
        check_feed(app, zones, said, logged, where, after_undo)
        notes.check(screen, where)
        assert not overlay_problems(screen), f"{where}: {overlay_problems(screen)}"

    look("start")
    for step in range(budget):
        if session.rules.is_over(session.state):
            break
        session.act(session.rules.random_action(session.state, rng))
        look(f"step {step}")
        if step % UNDO_EVERY == UNDO_EVERY - 1:
            screen.undo()
            look(f"undo at step {step}", after_undo=True)
            screen.redo()
            look(f"redo at step {step}", after_undo=True)
    forfeit = next((a for a in session.rules.legal_actions(session.state) if a.get("type") == "forfeit"), None)
    if forfeit is None:
        return
    before = board_buttons(screen)
    session.act(forfeit)
    assert result_open(app)
    screen.result_view.dismiss()
    harness.frames(2)
    for text, (x0, y0, x1, y1) in board_buttons(screen):
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        under = [t for t, (a, b, c, d) in before if a <= cx <= c and b <= cy <= d]
        assert not under or text in under, f"after the end {text!r} stands where {under} was"


def test_a_card_put_down_during_lifeforces_call_or_check_is_answered_on_the_result_view(home):
    from companion.games.lifeforce.rules import BIT
    app = home
    app.controller.start_game("lifeforce", {"players": ["North", "South"]}, seed=3)
    session = app.controller.session
    rng = Rng(3)
    while session.state["phase"] != "call":
        session.act(session.rules.random_action(session.state, rng))
    assert result_open(app)                          # the battle's result covers the table
    view = table_screen(app).result_view
    state = session.state
    seat = 1 - state["battle_winner"]
    card = next(c for c in BIT if BIT[c] & state["deckmask"][seat]
                and not BIT[c] & (state["table"][seat] | state["graveyard"][seat] | state["discard"][seat]))
    before = len(session.actions)
    put(app, f"{seat}.attacker", card)
    harness.frames(2)
    assert len(session.actions) == before
    assert view.ids.banner.shown and "must call or check" in view.ids.banner.text, view.ids.banner.text
    view.dismiss()


def test_territorys_ready_pad_never_hides_or_contradicts_its_count(home):
    """Issue 25: Territory's ready pad said "North adds a creature: 6 creatures" over "Ready pile:
    0 creatures" once the creatures were deployed (its note waited for a timer every move put off).
    The pad's words are its count and all it shows: it takes no note, and after every action of the
    registering and the deploying it reads the engine's number."""
    app = home
    app.controller.start_game("territory", {"players": ["North", "South"]}, seed=5)
    session = app.controller.session
    screen = table_screen(app)
    rng = Rng(5)
    for step in range(20):
        action = session.rules.random_action(session.state, rng)
        session.act(action)
        harness.frames(1)
        state = session.state
        for seat in (0, 1):
            ready = screen.zone_boxes[f"{seat}.ready"]
            pile = state["decks"][seat] if state["phase"] == "register" else state["ready"][seat]
            assert not ready.note and not visible(ready.ids.note_label), \
                f"step {step}: {ready.ids.note_label.text!r} over {ready.ids.info.text!r}"
            shown = [t for t in harness.texts(ready) if any(ch.isdigit() for ch in t)]
            assert shown and str(len(pile)) in shown[0], f"step {step}: {shown}, the engine has {len(pile)}"
    assert state["phase"] != "register", "the creatures were never deployed"
