"""Deck check by RFID: the pure comparison, the checker fed with pad events, and the real emulated pad."""
from companion.event import moves
from companion.event.deckcheck import DeckChecker, compare
from companion.table import PadEvent
from tests.event.helpers import new_event

DECK = ["lion", "lion", "zebra", "owl", "owl", "owl"]


def _scan(cards):
    """(uid, card) per physical card: copies of a card carry different tags."""
    return [(f"04AA{i:010X}", c) for i, c in enumerate(cards)]


def test_a_right_deck_passes_and_a_card_read_twice_is_one_card():
    scanned = _scan(DECK)
    verdict = compare(DECK, scanned + scanned[:2])
    assert verdict.ok and verdict.cards == 6
    assert verdict.sentence() == "Deck check passed: all 6 cards are the registered list."


def test_missing_extra_and_unregistered_cards_are_named():
    scanned = _scan(["lion", "zebra", "owl", "owl", "owl", "bear"]) + [("04BBBBBBBBBBBB", None)]
    verdict = compare(DECK, scanned)
    assert verdict.missing == {"lion": 1} and verdict.extra == {"bear": 1} and verdict.unregistered == ("04BBBBBBBBBBBB",)
    assert verdict.sentence() == ("Deck check: missing 1× lion; not on the list 1× bear; "
                                  "1 card with a tag this companion does not know.")
    assert verdict.as_dict() == {"ok": False, "missing": {"lion": 1}, "extra": {"bear": 1}, "unregistered": 1,
                                 "cards": 7}


def test_the_checker_answers_with_the_last_card_or_after_a_quiet_spell():
    registry = dict(_scan(DECK))
    checker = DeckChecker(DECK, registry.get, "deck-check")
    t = 10.0
    for uid, _ in _scan(DECK)[:-1]:
        assert checker.feed(PadEvent("deck-check", uid, "seen", t)) is None
        checker.feed(PadEvent("deck-check", uid, "gone", t + 0.3))
        checker.feed(PadEvent("n-attacker", "04CCCCCCCCCCCC", "seen", t + 0.1))   # another pad: ignored
        t += 0.8
    last_uid = _scan(DECK)[-1][0]
    verdict = checker.feed(PadEvent("deck-check", last_uid, "seen", t))
    assert verdict.ok and checker.verdict_at == t                  # at once, with the last card's read

    short = DeckChecker(DECK, registry.get, "deck-check", settle_s=1.5)
    for i, (uid, _) in enumerate(_scan(DECK)[:4]):
        short.feed(PadEvent("deck-check", uid, "seen", 20.0 + i))
    assert short.poll(24.4) is None                                # 1.4 s of quiet: a card may still come
    verdict = short.poll(24.5)
    assert verdict.missing == {"owl": 2} and short.verdict_at == 24.5


def test_the_check_is_a_logged_event_action_and_its_public_trace_names_no_card():
    from companion.event import pages
    state = new_event(["Ann", "Bob"], deck=DECK)
    verdict = compare(DECK, _scan(DECK[:-1]))
    state = moves.apply(state, {"type": "deck_check", "player": "p1", "verdict": verdict.as_dict()})
    assert state["deck_checks"][0]["missing"] == {"owl": 1}
    view = pages.public_view(state, now=0)
    assert view["deck_checks"] == [{"player": "Ann", "round": 0, "passed": False}]
    assert "owl" not in pages.event_json(state, now=0) and "owl" not in pages.tv_page(state, now=0)


def test_a_deck_passed_over_the_emulated_pad_is_checked_through_the_real_driver():
    from hardware.emulator.physics import Physics
    from hardware.emulator.table import EmulatedTable
    table = EmulatedTable(["deck-check"], physics=Physics(ideal=True))
    table.set_modes({"deck-check": "tap"})
    deck = _scan(DECK)
    registry = dict(deck)
    checker = DeckChecker(DECK, registry.get, "deck-check")
    table.start(lambda ev: checker.feed(ev))
    for uid, _ in deck[:-1]:
        table.place("deck-check", uid)
        assert checker.verdict is None
    table.place("deck-check", deck[-1][0])
    assert checker.verdict is not None and checker.verdict.ok
    table.close()
