"""A whole solo game of Sam's Battle Game through pad events, headless.

The test is the person at the table: it deals from a real (modelled) deck,
plays its own seat, taps the companion's drawn cards onto the companion's hand
pad and plays the card in the slot the screen names onto the lane it names.
The companion decides on its own thread (:class:`companion.solo.seat.SoloSeat`).
"""
import random

from companion.engine import redact_event
from companion.games import sams
from companion.session import Session
from companion.simulate import ScriptedTable, register_virtual_tags
from companion.games.sams import playout as model
from companion.solo.seat import SoloSeat

SOLO = 1


def _pad(session, zone):
    return session.table.layout.pads_of(zone)[0]


def play_solo_game(store, seed: int, shown: list[str]) -> Session:
    register_virtual_tags(store, "sams")
    session = Session.start(store, "sams", {"solo_seat": SOLO, "solo_strength": "easy"}, seed=seed)
    session.subscribe(lambda _s, events: shown.extend(e["text"] for e in session.public_events(events)))
    table = ScriptedTable(session)
    deck = model.new_game(seed)                # the physical cards: who holds what, the pile
    rng = random.Random(seed)
    solo = SoloSeat(session, iterations=40)
    for _ in range(2000):
        state = session.state
        if state["phase"] == "over":
            break
        if state["phase"] == "round_over":
            session.confirm(0)
            deck.next_round()
            table.tidy()
            continue
        held = sams.solo_hand(state)
        for card in [sams.DECK[c] for c in deck.hands[SOLO] if sams.DECK[c] not in held]:
            table.place(_pad(session, sams.hand_zone(SOLO)), card)   # draw for the companion, tap it
            table.tidy()
        seat = sams.RULES.to_play(session.state)
        if seat == SOLO:
            solo.wait()
            state = session.state
            last = session.actions[-1] if session.actions else {}
            if last.get("type") == "redraw" and last.get("seat") == SOLO and len(deck.hands[SOLO]) == 5 \
                    and not deck.redrawn[SOLO]:
                deck.apply((model.REDRAW,))
                continue
            decision = state["solo"]["decision"]
            if decision is None:
                continue
            card = state["solo"]["slots"][decision["slot"]]
            before = len(session.actions)
            table.place(_pad(session, sams.lane_zone(SOLO, decision["lane"])), card)
            assert len(session.actions) == before + 1, "the card in the named slot on the named lane is the play"
            deck.apply((model.PLAY, decision["lane"], model.INDEX[card]))
        else:
            hand = deck.hands[seat]
            card, lane = rng.choice(hand), rng.randrange(5)
            table.play({"type": "play", "seat": seat, "lane": lane, "card": sams.DECK[card]})
            deck.apply((model.PLAY, lane, card))
        table.tidy()
    solo.close()
    return session


def test_a_whole_solo_game_through_pad_events(store):
    shown: list[str] = []
    session = play_solo_game(store, 4, shown)
    assert session.state["phase"] == "over"
    assert any("plays the card in slot" in text for text in shown)
    # every card the companion held: never named on the shared screen while it was secret
    for action in session.actions:
        if action["type"] == "solo_hand":
            symbol = sams.symbol(action["card"])
            assert not any(f"drew {symbol}" in t for t in shown)


def test_a_wrong_card_from_the_holder_is_refused_without_naming_it(store):
    register_virtual_tags(store, "sams")
    session = Session.start(store, "sams", {"solo_seat": 1, "first_seat": 1}, seed=2)
    table = ScriptedTable(session)
    for card in ("sams.2h", "sams.9s", "sams.5d", "sams.10c", "sams.7h"):
        table.place(_pad(session, "1.hand"), card)
    table.tidy()
    assert sams.solo_hand(session.state) == ["sams.2h", "sams.9s", "sams.5d", "sams.10c", "sams.7h"]
    session.act({"type": "solo_decide", "seat": 1, "slot": 2, "lane": 3, "at": sams.decision_point(session.state)})
    assert "plays the card in slot 3 face up on lane 4" in session.view()["phase_label"]
    events = table.place(_pad(session, "1.lane2"), "sams.10c")
    rejected = [redact_event(e, None) for e in events if e["type"] == "rejected"]
    assert rejected and "slot 4" in rejected[0]["text"] and "10" not in rejected[0]["text"]
    assert session.state["solo"]["decision"] == {"slot": 2, "lane": 3}
    before = len(session.actions)
    table.place(_pad(session, "1.lane4"), "sams.5d")
    assert len(session.actions) == before + 1 and session.state["lanes"][1][3] == ["sams.5d"]


def test_the_shared_screen_never_shows_the_companions_hand(store):
    register_virtual_tags(store, "sams")
    session = Session.start(store, "sams", {"solo_seat": 0}, seed=3)
    table = ScriptedTable(session)
    events = table.place(_pad(session, "0.hand"), "sams.8c")
    texts = [e["text"] for e in session.public_events(events)]
    assert texts == ["Slot 1 of North's holder: put that card there, face down"]
    view = session.view(None)
    assert "sams.8c" not in repr(view) and "8♣" not in repr(view)
    assert view["detail"]["solo"]["slots"] == [True]


def test_a_decision_for_a_moment_that_passed_is_refused(store):
    import pytest
    from companion.engine import IllegalAction
    register_virtual_tags(store, "sams")
    session = Session.start(store, "sams", {"solo_seat": 1, "first_seat": 1}, seed=2)
    table = ScriptedTable(session)
    for card in ("sams.2h", "sams.9s", "sams.5d", "sams.10c", "sams.7h"):
        table.place(_pad(session, "1.hand"), card)
    with pytest.raises(IllegalAction):
        session.act({"type": "solo_decide", "seat": 1, "slot": 0, "lane": 0, "at": [1, 2, 0, 0]})
