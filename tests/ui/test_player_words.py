"""Issue 25, "Player words everywhere": every screen of every game, read as a player reads it.

Each game is started from its setup screen and played to its end through the
session (seeded random play; a game still going after its budget of actions
ends by a forfeit, which the players may always choose), at the largest text
size, at 800×480 after every action and at 1280×800 every few actions; every
result view, the end-of-game summary, History, Hardware, Settings and Home
are read too, and every sentence the game said on the way.  Every visible text must pass :func:`tests.ui.player_words.problems`:
no internal id, no underscore, no bare option key, no number disagreeing with
its noun, no instruction naming a control that is not on the screen.
"""
import re

import pytest
from kivy.core.window import Window

from companion.engine import Rng
from companion.session import Session
from ui import harness, theme

from .driver import result_open, table_screen
from .layout_checks import visible
from .player_words import problems

GAMES = [("sams", 11, 160), ("lifeforce", 5, 40), ("vitaluna", 3, 100), ("territory", 2, 70), ("arcmage", 4, 40)]
BIG_EVERY = 25


def shown() -> tuple[list[str], list[str]]:
    """The visible texts on screen, and the words of the visible, enabled buttons."""
    from kivy.uix.behaviors import ButtonBehavior
    texts, buttons = [], []
    for w in harness.walk():
        if not visible(w):
            continue
        for attr in ("text", "hint_text"):
            value = getattr(w, attr, None)
            if isinstance(value, str) and value.strip():
                texts.append(value)
        if isinstance(w, ButtonBehavior) and not w.disabled and isinstance(getattr(w, "text", None), str):
            buttons.append(w.text)
    return texts, buttons


def view_texts(app) -> list[str]:
    """The words of the game's shared view that a screen may show as they are (zone summaries on a
    generic table and in Replay, counter titles, the phase): "3 servant(s)" is caught here even
    where this game's table says it otherwise."""
    session = app.controller.session
    if session is None:
        return []
    view = session.view(None)
    texts = [z.get("summary") or "" for z in view.get("zones", {}).values()]
    texts += [c.get("label") or "" for c in view.get("counters", [])] + [view.get("phase_label") or ""]
    return [t for t in texts if t]


def read(app, where: str, found: list[str], keys: frozenset) -> None:
    harness.frames(1)
    texts, buttons = shown()
    texts += view_texts(app)
    found += [f"{where}: {p}" for p in problems(texts, buttons, keys)
              if not (where == "history" and "no such button" in p)]    # the log says what was said then


def resize(size):
    Window.size = size
    harness.frames(3)


def option_keys(game: str) -> frozenset:
    from companion.games import get
    rules = get(game)
    keys = {o.id for o in rules.options} | {c for o in rules.options for c in o.choices if isinstance(c, str)}
    return frozenset(k for k in keys if "_" in k or k != k.capitalize())


@pytest.mark.parametrize("game, seed, budget", GAMES)
def test_every_screen_speaks_the_players_words(home, game, seed, budget):
    app = home
    theme.set_text_scale(max(theme.TEXT_SCALES))
    found: list[str] = []
    keys = option_keys(game)
    try:
        app.go("setup", game=game)
        read(app, "setup", found, keys)
        resize((1280, 800))
        read(app, "setup 1280x800", found, keys)
        resize((800, 480))
        app.controller.start_game(game, {"players": ["North", "South"]}, seed=seed)
        session = app.controller.session
        rng = Rng(seed)
        # a result view opens only after a decided battle, round or game: only then is it waited for
        # (two frames a step otherwise, most of this walk's time)
        decided, said = [], []

        def heard(_s, events):
            decided.extend(e for e in events if e.get("type") in ("battle_result", "round_result", "game_over"))
            said.extend(e["text"] for e in events if isinstance(e.get("text"), str))
        session.subscribe(heard)

        def result_shown() -> bool:
            if not decided:
                return False
            decided.clear()
            return result_open(app)

        for step in range(5000):
            if session.rules.is_over(session.state):
                break
            action = session.rules.random_action(session.state, rng)
            if step >= budget:
                # past the budget: a forfeit where the game has one, else on to the end, read less often
                action = next((a for a in session.rules.legal_actions(session.state) if a.get("type") == "forfeit"),
                              action)
                session.act(action)
                if step % 50 == 0:
                    read(app, f"step {step}", found, keys)
                continue
            session.act(action)
            opened = result_shown()
            if step < 30 or step % 3 == 0 or opened:     # every screen early, then every third
                read(app, f"step {step}", found, keys)
            if step % BIG_EVERY == 0:
                resize((1280, 800))
                read(app, f"step {step} 1280x800", found, keys)
                resize((800, 480))
            if opened:
                read(app, f"result at step {step}", found, keys)
                if not session.rules.is_over(session.state):
                    table_screen(app).result_view.dismiss()
        assert session.rules.is_over(session.state)
        # every sentence the game said, as the feed, the log and History show it ("to their deck:
        # 1 creature"); an instruction in it was said to the screen of its moment
        found += [f"event: {p}" for p in problems(list(dict.fromkeys(said)), [], keys) if "no such button" not in p]
        assert result_open(app)
        read(app, "summary", found, keys)
        resize((1280, 800))
        read(app, "summary 1280x800", found, keys)
        resize((800, 480))
        table_screen(app).result_view.dismiss()
        read(app, "the table after the game", found, keys)
        # a game left after one action: History and Home count its actions ("1 action", never "1 actions")
        left = Session.start(app.controller.store, game, {"players": ["North", "South"]}, seed=seed)
        left.act(left.rules.random_action(left.state, Rng(seed)))
        for screen in ("history", "hardware", "settings", "home"):
            app.go(screen)
            read(app, screen, found, keys)
    finally:
        resize((800, 480))
        theme.set_text_scale(1.0)
        harness.frames(2)
    unique = list(dict.fromkeys(p.split(": ", 1)[1] for p in found))
    assert not unique, f"{game}: {len(unique)} problems, e.g.\n" + "\n".join(
        next(p for p in found if p.endswith(u)) for u in unique[:15])


def test_after_the_last_battle_the_habitual_tap_goes_back_to_the_table(home):
    """Issue 25, item 2: "Back to the table" closes every battle's result; on the game's end the
    button under that finger must mean the same ("Table"), never "New game"."""
    app = home
    app.controller.start_game("lifeforce", {"players": ["North", "South"]}, seed=1)
    session = app.controller.session
    view = table_screen(app).result_view
    view.game_over = False
    view.open()
    harness.frames(3)
    back = harness.button("Back to the table")
    where = back.to_window(*back.center)
    view.dismiss()
    session.act({"type": "forfeit", "seat": 1})
    assert result_open(app) and view.game_over
    harness.frames(3)
    under = [b for b in harness.find(lambda w: getattr(w, "text", None) in ("Table", "New game", "Home", "Rematch",
                                                                           "Export record"))
             if not b.disabled and b.collide_point(*b.to_widget(*where))]
    assert [b.text for b in under] == ["Table"]
    harness.tap(under[0])
    assert app.root.current == "table" and view.parent is None


def test_hearts_and_diamonds_are_red_and_spades_and_clubs_black(home):
    """Issue 25, item 4: in Sam's red is attack and black defence; the chips say which at a glance."""
    from .driver import place
    from .test_tables import start
    from ui.widgets import CardChip
    app = home
    start(app, "sams")
    place(app, "0.lane1", "sams.7h")
    place(app, "1.lane1", "sams.6s")
    place(app, "0.lane2", "sams.3d")
    harness.frames(2)
    colours = {c.text: tuple(c.color) for c in harness.find(lambda w: isinstance(w, CardChip) and w.text)}
    assert colours["7♥"] == colours["3♦"] == tuple(theme.CARD_RED)
    assert colours["6♠"] == tuple(theme.CARD_TEXT)


@pytest.mark.parametrize("typed", ["10♥", "10h", "10 H", "ten of hearts", "10 of hearts"])
def test_a_card_is_found_as_players_write_or_say_it(home, typed):
    """Issue 25, item 6: the card drawer's search finds 10♥ however it is typed."""
    from ui.simtable import open_panel
    from .test_tables import start
    app = home
    start(app, "sams")
    panel = open_panel(table_screen(app))
    try:
        panel.ids.query.text = typed
        harness.frames(2)
        assert [c.id for c in panel.matching()] == ["sams.10h"]
        assert [c.card_id for c in panel.ids.grid.children] == ["sams.10h"]
    finally:
        panel.ids.query.text = ""
        panel.dismiss()


def test_a_touch_on_the_status_line_says_what_may_be_done_now_and_where(home):
    """Issue 25, item 7: from the engine's legal actions, not a help page; it names no card."""
    from .driver import place
    from .test_tables import start
    app = home
    start(app, "sams")
    screen = table_screen(app)
    place(app, "0.lane1", "sams.7h")
    harness.tap(screen.ids.status)
    lines = screen.ids.feed.lines
    assert any(line.startswith("Now: ") and "South" in line for line in lines), lines
    assert any(line.startswith("South: a card on lane 1, lane 2") for line in lines), lines
    assert not any("North: a card" in line for line in lines)          # it is South's turn
    assert not problems(lines, shown()[1])                            # the buttons it names are there


def test_no_text_in_the_tree_leaves_a_plural_open():
    """No string of the app, its core or its hardware says "card(s)": a refusal the walk above never
    meets (Vita Luna's "has given 1 black card(s)") speaks as the rest do, through
    ``companion.words.counted``."""
    import ast
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    open_plurals = []
    for folder in ("companion", "ui", "hardware"):
        for path in sorted((root / folder).rglob("*.py")):
            source = path.read_text(encoding="utf-8")
            if "(s)" not in source or path.name == "words.py":      # (words.py names the fault it prevents)
                continue
            for node in ast.walk(ast.parse(source)):
                # a letter then "(s)", not a script's "function(s){"
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.search(r"[a-z]\(s\)(?!\{)", node.value):
                    open_plurals.append(f"{path.relative_to(root)}:{node.lineno}: {node.value.strip()[:60]!r}")
    assert not open_plurals, "\n".join(open_plurals)


def test_a_card_says_each_word_once():
    """A Vita Luna singular card's chip read "Burn / burn" and an armoured creature "armour …
    armour": its armour is said once, with its state, and a singular card says what kind it is."""
    from companion.cards import load_catalogue
    from ui.decklists import card_values
    from ui.tables.vitaluna import VitaLunaTable
    burn = next(c for c in load_catalogue("vitaluna") if c.name == "Burn")
    assert f"{burn.name}\n{card_values(burn)}" == "Burn\nsingular card"
    beetle = {"name": "Beetle", "attack": 1, "health": 2, "max_health": 2, "epics": ["armour"], "armour": True}
    assert VitaLunaTable.creature_info(beetle)[0] == "Beetle\nattack 1 · health 2/2 · armour"
    spent = dict(beetle, armour=False, health=1)
    assert VitaLunaTable.creature_info(spent)[0] == "Beetle\nattack 1 · health 1/2 · armour gone"
    for texts in (VitaLunaTable.creature_info(beetle), [f"{burn.name}\n{card_values(burn)}"]):
        assert not problems(texts, [])
