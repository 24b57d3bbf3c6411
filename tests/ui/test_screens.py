"""The other screens in the real window: home, setup, history, cards, decks, hardware."""
import json

from companion.games.lifeforce import sample_decks
from companion.tags import virtual_uid
from ui import harness

from .driver import faces, option_button, place, table_screen
from .test_tables import start


def test_home_lists_every_game_and_resumes_the_unfinished_one(home):
    app = home
    shown = harness.texts()
    for title in ("Sam's Battle Game", "Lifeforce Battle", "Vita Luna", "Creature Combat Territory",
                  "Arcmage Original Rules Concept"):
        assert title in shown
    session = start(app, "sams")
    place(app, "0.lane3", "sams.7h")
    app.controller.close_session()                      # as after a power cut: only the database is left
    app.root.current = "home"
    harness.frames(2)
    resume = [t for t in harness.texts() if t.startswith("Resume Sam's Battle Game")]
    assert resume and f"game #{session.id}, 1 action," in resume[0]
    harness.tap(harness.button(resume[0]))
    assert app.root.current == "table"
    assert faces(table_screen(app).zone_boxes["0.lane3"]) == [("7♥", False)]


def test_setup_variants_reach_the_game(home):
    app = home
    harness.tap(harness.button("Sam's Battle Game"))
    setup = app.root.get_screen("setup")
    toggles = [w for w in harness.walk(setup) if getattr(w, "text", None) == "Off"]
    harness.tap(toggles[0])                              # Strict retaliation: On
    harness.tap(option_button(setup, "First player", "South"))  # first player
    harness.tap(harness.button("Start the game"))
    options = app.controller.session.options
    assert options["strict_retaliation"] is True and options["first_seat"] == 1
    assert "South plays card 1 of 3" in table_screen(app).phase_label


def test_history_shows_face_down_plays_without_the_card_and_undoes(home):
    app = home
    session = start(app, "sams")
    place(app, "0.lane1", "sams.7h")
    place(app, "1.lane1", "sams.6s")
    place(app, "0.lane1", "sams.9s")                     # face down
    app.go("history")
    harness.frames(2)
    shown = harness.texts()
    assert "3. North buffs lane 1 (face down)" in shown
    assert not any("9♠" in t for t in shown)
    harness.tap(harness.button("Undo"))
    assert len(session.actions) == 2


def test_cards_screen_assigns_an_unknown_tag(home):
    app = home
    app.go("cards", game="sams")
    harness.frames(2)
    app.controller.source.place("scan", "04AABBCCDD0011")      # a blank sticker on a pad
    harness.frames(1)
    screen = app.root.get_screen("cards")
    assert screen.tag_text == "Tag 04AABBCCDD0011 on pad scan: not assigned to a card yet"
    screen.ids.query.text = "queen"                      # Sam's has no face cards
    screen.search("queen")
    assert "0 cards found" in harness.texts()
    screen.search("10 of Spades")
    harness.tap(harness.button("10 of Spades  ·  sams.10s"))
    harness.tap(harness.button("Assign the picked card to this tag"))
    assert app.controller.store.tags.lookup("04AABBCCDD0011") == "sams.10s"
    assert "carries 10 of Spades" in screen.tag_text
    app.controller.source.lift("scan", "04AABBCCDD0011")


def test_decks_screen_validates_live_in_players_words(home):
    app = home
    app.go("decks", game="lifeforce")
    screen = app.root.get_screen("decks")
    screen.clear()
    store, source = app.controller.store, app.controller.source
    deck = sample_decks()[0]
    for card_id in deck[:49]:
        uid = virtual_uid(card_id)
        store.tags.register(uid, card_id)
        source.place("deck", uid)
        source.lift("deck", uid)
    harness.frames(2)
    assert "49 cards: exactly 50 needed" in " ".join(harness.texts())
    uid = virtual_uid(deck[49])
    store.tags.register(uid, deck[49])
    source.place("deck", uid)
    harness.frames(2)
    assert screen.verdict == "50 cards: a legal Lifeforce Battle deck" and screen.verdict_ok
    source.lift("deck", uid)
    source.place("deck", uid)                            # the same tag again counts once
    assert len(screen.deck) == 50
    harness.tap(harness.button("Clear"))                 # nothing lost by one tap
    assert len(screen.deck) == 50
    harness.tap(harness.button("Tap again to clear"))
    assert screen.deck == []


def test_hardware_screen_lights_the_pad_a_card_lies_on(home):
    app = home
    start(app, "sams")
    app.controller.source.set_modes({})          # Sam's lanes are tap pads; here the card stays on the pad
    place(app, "0.lane2", "sams.7h")
    app.go("hardware")
    harness.frames(2)
    tiles = {t.zone_id: t for t in app.root.get_screen("hardware").ids.pads.children}
    assert tiles["0.lane2"].highlight and tiles["0.lane2"].info == ["1 tag"]
    assert not tiles["0.lane1"].highlight
    assert not any("7♥" in t for t in harness.texts())    # tags are counted, never named
    assert any("simulated" in t for t in harness.texts())
