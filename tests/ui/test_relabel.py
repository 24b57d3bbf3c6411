"""A tag whose own memory (NDEF) names another card than this table registered: the Cards screen shows
the claim and only the players' Assign makes it so (issue 13, item 6)."""
from companion.table import GONE, SEEN, PadEvent
from ui import harness


def cards_screen_with_a_registered_tag(app, uid: str):
    """The Cards screen open for Sam's, ``uid`` registered as the 7 of Hearts; returns the store."""
    store = app.controller.store
    store.tags.register(uid, "sams.7h")
    app.go("cards", game="sams")
    harness.frames(2)
    return store


def test_a_claimed_card_is_shown_on_the_cards_screen_and_assign_confirms_it(home):
    app = home
    uid = "04C1A1A1A1A1A1"
    store = cards_screen_with_a_registered_tag(app, uid)
    # A phone rewrote the tag: it now says it is the 10 of spades.
    app.controller.handle_pad_event(PadEvent("scan", uid, SEEN, 0.0, card_id="sams.10s"))
    harness.frames(1)
    screen = app.root.get_screen("cards")
    assert "carries 7 of Hearts" in screen.tag_text and "the tag itself says 10 of Spades" in screen.tag_text
    assert store.tags.lookup(uid) == "sams.7h"                 # nothing changed by itself
    harness.tap(harness.button("Assign the picked card to this tag"))
    assert store.tags.lookup(uid) == "sams.10s" and store.tags.pending() == []
    app.controller.handle_pad_event(PadEvent("scan", uid, GONE, 0.0))


def test_while_enrolling_a_tag_is_what_this_table_registered_and_its_claim_waits(home):
    """A registered tag whose memory claims another card, seen while a deck is enrolled: the
    note names the registered card (the claim overrides nothing) and the claim waits for Assign."""
    app = home
    uid = "04C1A1A1A1A1B2"
    store = cards_screen_with_a_registered_tag(app, uid)
    screen = app.root.get_screen("cards")
    harness.tap(harness.button("Enrol a whole deck"))
    harness.tap(harness.button("Every Sam's card (36 cards)"))
    app.controller.handle_pad_event(PadEvent("scan", uid, SEEN, 0.0, card_id="sams.10s"))
    harness.frames(1)
    assert "carries 7 of Hearts" in screen.enrol_note and "10 of Spades" not in screen.enrol_note
    assert store.tags.lookup(uid) == "sams.7h"
    assert [(r.uid, r.registered, r.claimed) for r in store.tags.pending()] == [(uid, "sams.7h", "sams.10s")]
    app.controller.handle_pad_event(PadEvent("scan", uid, GONE, 0.0))
    harness.tap(harness.button("Stop"))
    store.tags.dismiss_relabel(uid)


def test_a_claim_the_database_cannot_keep_is_one_sentence_on_the_cards_screen(home):
    """Bad input gets one sentence: the claim of a registered tag seen while the store refuses
    writes (here its read-only mode) is said on the banner; the registry keeps its card."""
    app = home
    uid = "04C1A1A1A1A1C3"
    store = cards_screen_with_a_registered_tag(app, uid)
    screen = app.root.get_screen("cards")
    store.readonly = True
    try:
        app.controller.handle_pad_event(PadEvent("scan", uid, SEEN, 0.0, card_id="sams.10s"))
        harness.frames(1)
    finally:
        store.readonly = False
    assert "read-only" in screen.ids.banner.text and "carries 7 of Hearts" in screen.tag_text
    assert store.tags.lookup(uid) == "sams.7h" and store.tags.pending() == []
    app.controller.handle_pad_event(PadEvent("scan", uid, GONE, 0.0))
