"""Solo Lifeforce Battle through pad events, headless: the person at the table and the companion.

The test is the person: it deals from real (modelled) decks — the fast model
:mod:`companion.games.lifeforce.playout` keeps who holds which card and draws from each
deck as a shuffled deck would — plays its own seat, taps the cards it draws for
the companion face down on the companion's hand pad, and places the cards of
the slots the screen names on the pads it names.  The companion decides on its
own thread (:class:`companion.solo.seat.SoloSeat`).
"""
import random

import pytest

from companion.engine import IllegalAction, redact_event
from companion.games.lifeforce import RULES, sample_decks, solo
from companion.games.lifeforce.animals import ANIMALS
from companion.session import Session
from companion.simulate import ScriptedTable, register_virtual_tags
from companion.games.lifeforce import playout as model
from companion.solo.seat import SoloSeat

HUMAN, SOLO = 0, 1
DECKS = sample_decks()


def _pad(session, zone):
    return session.table.layout.pads_of(zone)[0]


def _names(cards) -> set[str]:
    return {ANIMALS[c].name for c in cards}


class Person:
    """One person at a solo table: the physical decks (``deal``), the pads, the companion's thread."""

    def __init__(self, store, seed: int, solo_seat: int = SOLO, iterations: int = 30):
        register_virtual_tags(store, "lifeforce")
        self.session = Session.start(store, "lifeforce", {"solo_seat": solo_seat, "solo_strength": "easy"},
                                     seed=seed)
        self.table = ScriptedTable(self.session)
        self.deal = model.new_game(seed, DECKS)
        self.rng = random.Random(seed)
        self.solo_seat, self.human = solo_seat, 1 - solo_seat
        self.shown: list[str] = []         # every text the shared screen showed
        self.secret_ever: set[str] = set()  # every card that lay in the companion's holder
        self.session.subscribe(lambda _s, events: self.shown.extend(
            e["text"] for e in self.session.public_events(events)))
        self.companion = SoloSeat(self.session, iterations=iterations)
        self.followed = 0                   # the logged actions the physical cards have followed

    def close(self):
        self.companion.close()

    def screen(self) -> str:
        view = self.session.view(None)
        self.shown.append(view["phase_label"])
        return view["phase_label"]

    def draw_for_companion(self):
        state = self.session.state
        held = solo.solo_hand(state)
        drawn = [model.card_id(c) for c in self.deal.hand[self.solo_seat] if model.card_id(c) not in held]
        for card in drawn[:solo.missing(state)]:          # as many as the screen asks for
            self.secret_ever.add(card)
            before = len(self.session.actions)
            self.table.place(_pad(self.session, solo.hand_zone(self.solo_seat)), card)
            assert self.session.actions[before]["type"] == "solo_hand", "the hand pad takes every card drawn for it"
            self.table.tidy()

    def last(self) -> dict:
        return self.session.actions[-1] if self.session.actions else {}

    def follow(self) -> bool:
        """Draw for the companion, let it think, and follow what it decided with the physical
        cards (its new hand, its call or check).  True when it took a new hand (draw again)."""
        session, deal, seat = self.session, self.deal, self.solo_seat
        self.draw_for_companion()
        self.companion.wait()
        followed = self.followed
        self.followed = len(session.actions)
        for action in session.actions[followed:]:
            if action["type"] == "solo_decide" and action["choice"] == "mulligan":
                deal.mulligan(seat)                     # the holder's cards go back, 5 new ones are drawn
                return True
            if action["type"] == "solo_decide" and action["choice"] in ("call", "check"):
                deal.call(action["choice"] == "call")
        return False

    def step(self) -> None:
        """One thing the person does, as the screen asks."""
        session, deal, seat = self.session, self.deal, self.solo_seat
        if self.follow():
            return
        state = session.state
        self.screen()
        phase = state["phase"]
        if phase == "setup":
            if solo.undecided_at_setup(state):
                return                                  # still thinking (wait() returned early)
            first = self.rng.randrange(2)
            session.act({"type": "first_attacker", "seat": first})
            deal.start(first)
        elif phase == "resolve":
            session.confirm(self.human)
        elif phase == "call":
            if state["battle_winner"] != seat:
                call = self.rng.random() < 0.5
                session.act({"type": "call" if call else "check", "seat": self.human})
                deal.call(call)
        elif state["turn"] == seat:
            decision = state["solo"]["decision"]
            if decision is None:
                return
            label = self.screen()
            assert f"slot {decision['animal'] + 1} on" in label, label
            slots = state["solo"]["slots"]
            animal, support = slots[decision["animal"]], [slots[s] for s in decision["support"]]
            before = len(session.actions)
            self.table.place(_pad(session, f"{seat}.attacker"), animal)
            assert len(session.actions) == before + 1, "the card of the named slot on the named pad is the play"
            for card in support:
                self.table.place(_pad(session, f"{seat}.support"), card)
            assert len(session.actions) == before + 1 + len(support)
            self.table.tidy()
            deal.apply((model.INDEX[animal], int(decision["mode"] == "low"), tuple(model.INDEX[c] for c in support)))
            assert session.state["turn"] != seat or session.state["phase"] not in ("attack", "counter")
        else:
            animal, low, support = model.random_build(deal.hand[self.human], self.rng.random)
            self.table.place(_pad(session, f"{self.human}.attacker"), model.card_id(animal))
            if model.LOW[animal]:
                session.act({"type": "declare", "seat": self.human, "mode": "low" if low else "max"})
            for card in support:
                self.table.place(_pad(session, f"{self.human}.support"), model.card_id(card))
            session.act({"type": "done", "seat": self.human})
            self.table.tidy()
            deal.apply((animal, low, tuple(support)))


@pytest.fixture
def people(store):
    """Persons at solo tables on the test's store; their companions stop before the store closes."""
    made: list[Person] = []

    def person(seed: int, **kw) -> Person:
        made.append(Person(store, seed, **kw))
        return made[-1]

    yield person
    for p in made:
        p.close()


def play_whole_game(person: Person) -> Person:
    for _ in range(3000):
        if person.session.state["phase"] == "over":
            break
        person.step()
    return person


def test_a_whole_solo_game_through_pad_events(people):
    person = play_whole_game(people(5))
    session, deal = person.session, person.deal
    assert session.state["phase"] == "over"
    assert session.state["winner"] == deal.winner, "the engine and the physical cards agree on the game"
    for seat in (0, 1):
        assert RULES.counts(session.state, seat)["graveyard"] == len(deal.grave[seat])
    choices = {a["choice"] for a in session.actions if a["type"] == "solo_decide"}
    assert "build" in choices and choices & {"keep", "mulligan"}
    assert any(" attacker pad" in text and "slot" in text for text in person.shown)
    assert not any(" drew " in text for text in person.shown)


def test_the_screen_never_names_a_card_in_the_companions_holder(people):
    """Every text shown while the game runs is checked against the holder of that moment."""
    person = people(9)
    seen: list[tuple[str, set]] = []

    def watch(session, events):
        secret = _names(solo.solo_hand(session.state))
        for e in session.public_events(events):
            seen.append((repr(e), secret | set(solo.solo_hand(session.state))))
        view = session.view(None)
        seen.append((repr(view), secret | set(solo.solo_hand(session.state))))

    person.session.subscribe(watch)
    for _ in range(400):
        if person.session.state["phase"] == "over":
            break
        person.step()
    assert len(seen) > 100
    for text, secret in seen:
        for word in secret:
            assert word not in text, (word, text)


def _ready(person: Person, first: int) -> list[str]:
    """The companion's hand tapped in and kept (or taken anew), ``first`` attacking."""
    while person.follow():
        pass
    person.session.act({"type": "first_attacker", "seat": first})
    person.deal.start(first)
    person.companion.wait()
    return solo.solo_hand(person.session.state)


def test_a_wrong_card_is_refused_with_where_it_goes_back_never_its_face(people):
    person = people(2)
    held = _ready(person, first=SOLO)
    session = person.session
    decision = session.state["solo"]["decision"]
    assert decision is not None
    slots = session.state["solo"]["slots"]
    wrong = next(n for n, c in enumerate(slots) if c is not None and n != decision["animal"])
    before = len(session.actions)
    shown = []
    for zone in ("1.attacker", "0.attacker", "0.support", "deck_check"):
        shown += session.public_events(person.table.place(_pad(session, zone), slots[wrong]))
        person.table.lift(_pad(session, zone), slots[wrong])
    undrawn = model.card_id(person.deal.deck[SOLO][0])       # never drawn: secret too
    for zone in ("1.support", "0.support"):
        shown += session.public_events(person.table.place(_pad(session, zone), undrawn))
    assert [a["type"] for a in session.actions[before:]] == ["identify"], "nothing was played"
    assert [e["type"] for e in shown] == ["rejected"] * 3 + ["identify"] + ["rejected"] * 2
    assert f"slot {wrong + 1}" in shown[0]["text"] and "attacker pad" in shown[0]["text"]
    assert f"slot {wrong + 1}" in shown[1]["text"]
    for e in shown:
        assert "card" not in e, e
        for name in _names(held + [undrawn]):
            assert name not in e["text"], e["text"]
    assert session.state["solo"]["decision"] == decision


def test_the_companions_buttons_are_its_own(people):
    person = people(2)
    _ready(person, first=SOLO)
    session = person.session
    for action in ({"type": "done", "seat": SOLO}, {"type": "declare", "seat": SOLO, "mode": "low"},
                   {"type": "adjust", "seat": SOLO, "counter": "hand.1", "delta": -1}):
        with pytest.raises(IllegalAction, match="South"):
            session.act(action)
    assert "done" not in session.view(None)["detail"]["buttons"]


def test_first_attacker_waits_for_the_companion_to_look_at_its_hand(store):
    register_virtual_tags(store, "lifeforce")
    session = Session.start(store, "lifeforce", {"solo_seat": SOLO}, seed=3)
    assert session.view(None)["phase_label"].startswith("Draw 5 cards for South")
    with pytest.raises(IllegalAction, match="draw 5 for South"):
        session.act({"type": "first_attacker", "seat": 0})
    assert "first_attacker" not in session.view(None)["detail"]["buttons"]


def test_the_hand_pad_refuses_what_cannot_be_drawn(store):
    register_virtual_tags(store, "lifeforce")
    session = Session.start(store, "lifeforce", {"solo_seat": SOLO}, seed=3)
    table = ScriptedTable(session)
    hand_pad = _pad(session, "1.hand")
    north_card = DECKS[0][0]
    events = table.place(hand_pad, north_card)
    assert [e["type"] for e in events] == ["rejected"] and "North's" in events[0]["text"]
    for card in DECKS[1][:5]:
        table.place(hand_pad, card)
        table.tidy()
    events = table.place(hand_pad, DECKS[1][5])          # a sixth card: the holder is complete
    public = session.public_events(events)
    assert public[0]["type"] == "rejected" and "card" not in public[0]
    assert ANIMALS[DECKS[1][5]].name not in public[0]["text"]
    assert solo.solo_hand(session.state) == DECKS[1][:5]


def test_resume_restores_the_companions_hand_and_decision(people, store):
    person = people(2)
    held = _ready(person, first=SOLO)
    session = person.session
    decision = session.state["solo"]["decision"]
    assert decision is not None
    person.close()
    again = Session.resume(store, session.id)
    assert solo.solo_hand(again.state) == held
    assert again.state["solo"]["decision"] == decision
    assert again.view(None)["phase_label"] == session.view(None)["phase_label"]


def test_undo_makes_the_companion_think_again(people):
    person = people(2)
    _ready(person, first=SOLO)
    session = person.session
    assert session.actions[-1]["type"] == "solo_decide"
    session.undo()
    assert session.state["solo"]["decision"] is None
    person.companion.wait()
    assert session.actions[-1]["type"] == "solo_decide" and session.state["solo"]["decision"] is not None


def test_a_decision_for_a_moment_that_passed_is_refused(people):
    person = people(2)
    _ready(person, first=SOLO)
    session = person.session
    decision = dict(session.actions[-1])
    person.close()
    session.undo()
    with pytest.raises(IllegalAction, match="moved on"):
        session.act(dict(decision, at=["attack", 2, 1, 5, False]))
    session.act(decision)                               # the same decision for its own moment stands


def _south_to_counter(seed: int, north_hand_seed: int):
    """A solo game (the companion plays South) where North attacked: the same table, the same
    holder for South, but North's hand and both decks dealt from ``north_hand_seed``."""
    state = RULES.setup({"solo_seat": SOLO}, seed)
    held = DECKS[SOLO][10:15]
    for card in held:
        state, _ = RULES.apply(state, {"type": "solo_hand", "seat": SOLO, "card": card})
    state, _ = RULES.apply(state, {"type": "solo_decide", "seat": SOLO, "at": solo.decision_point(state),
                                   "choice": "keep"})
    state, _ = RULES.apply(state, {"type": "first_attacker", "seat": HUMAN})
    deal = random.Random(north_hand_seed).sample(DECKS[HUMAN][:40], 5)       # what North holds
    attack = ["lifeforce.common-swift", "lifeforce.canada-goose"]
    assert all(c in DECKS[HUMAN] for c in attack)
    for kind, card in zip(("play_animal", "support"), attack):
        state, _ = RULES.apply(state, {"type": kind, "seat": HUMAN, "card": card})
    state, _ = RULES.apply(state, {"type": "done", "seat": HUMAN})
    return state, deal


def test_the_companions_choice_never_depends_on_cards_it_has_not_seen():
    """Two games that differ only in what the companion has not seen — North's hand, the order
    of both decks, the session's seed — give the same decision for the same random seed."""
    decisions = []
    for seed, north in ((1, 1), (2, 7)):
        state, _north_hand = _south_to_counter(seed, north)
        player = solo.LifeforcePlayer(SOLO, seconds=None, iterations=300, seed=5)
        decisions.append(player.decide(state))
    assert decisions[0] == decisions[1]
    assert decisions[0]["choice"] == "build"
    assert decisions[0] in [dict(a) for a in RULES.legal_actions(state) if a["type"] == "solo_decide"]


def test_undoing_a_tap_on_the_hand_pad_does_not_name_the_card(store):
    register_virtual_tags(store, "lifeforce")
    session = Session.start(store, "lifeforce", {"solo_seat": SOLO}, seed=3)
    card = DECKS[SOLO][0]
    session.act({"type": "solo_hand", "seat": SOLO, "card": card})
    [undone] = session.public_events(session.undo())
    # in the shared screen's words: where the card went, face down, never which card it was
    assert undone["text"].startswith("Undone: ") and "face down" in undone["text"]
    assert card not in undone["text"] and ANIMALS[card].name not in undone["text"]


def test_a_card_everybody_knows_on_the_companions_pad_is_refused_with_its_name(people):
    """Only the companion's secret cards go unnamed: the other player's card on its pad is named
    with where it belongs, as in a game of two."""
    person = people(2)
    _ready(person, first=SOLO)
    session = person.session
    north_card = model.card_id(person.deal.hand[HUMAN][0])
    events = session.public_events(person.table.place(_pad(session, "1.attacker"), north_card))
    assert events[0]["type"] == "rejected"
    assert ANIMALS[north_card].name in events[0]["text"] and "North's side" in events[0]["text"]
    events = session.public_events(person.table.place(_pad(session, "0.attacker"), north_card))
    assert "North waits" in events[0]["text"] and "slot" in events[0]["text"]


@pytest.mark.parametrize("solo_seat", [0, 1])
def test_random_solo_games_through_the_table_end_and_replay(store, solo_seat):
    """Random legal actions (the person's draws for the companion, its decisions taken at random,
    the other player's random play) through the scripted table: the game ends, and its record
    replays to the same state — the companion's holder included."""
    from companion.records import replay
    from companion.simulate import play_random
    register_virtual_tags(store, "lifeforce")
    seed = 3 + solo_seat
    session = Session.start(store, "lifeforce", {"solo_seat": solo_seat}, seed=seed)
    actions = play_random(session, seed)
    assert session.state["phase"] == "over"
    assert any(a["type"] == "solo_decide" and a["choice"] == "build" for a in actions)
    assert replay(session.record())[1] == session.state


def _by_strength(deck: list[str]) -> list[list[str]]:
    """Five-card hands of ``deck`` from the weakest to the strongest (model.hand_strength)."""
    rng = random.Random(0)
    hands = [rng.sample(deck, 5) for _ in range(300)]
    return sorted(hands, key=lambda h: model.hand_strength([model.INDEX[c] for c in h]))


def test_the_companion_takes_a_new_hand_only_when_its_hand_is_weak_and_the_person_draws_again(store):
    """Rules, step 2: "If you do not like your starting hand, you may pick a new hand of 5 cards …
    You may exchange your starting hand only once."  The companion keeps a strong hand; a weak one
    goes back into its deck, the screen says which slots to empty, and 5 new cards are drawn."""
    deck = DECKS[SOLO]
    weakest, strongest = _by_strength(deck)[0], _by_strength(deck)[-1]
    assert model.weak_hand(weakest, deck) and not model.weak_hand(strongest, deck)
    register_virtual_tags(store, "lifeforce")
    session = Session.start(store, "lifeforce", {"solo_seat": SOLO, "solo_strength": "easy"}, seed=4)
    table = ScriptedTable(session)
    shown: list[str] = []
    session.subscribe(lambda _s, events: shown.extend(e["text"] for e in session.public_events(events)))
    with SoloSeat(session, iterations=20) as companion:
        for card in weakest:
            table.place(_pad(session, "1.hand"), card)
            table.tidy()
        companion.wait()
        assert session.actions[-1]["choice"] == "mulligan"
        assert session.state["mulliganed"][SOLO] and solo.solo_hand(session.state) == []
        assert session.view(None)["phase_label"].startswith("Draw 5 cards for South")
        with pytest.raises(IllegalAction, match="draw 5 for South"):
            session.act({"type": "first_attacker", "seat": HUMAN})
        fresh = [c for c in deck if c not in weakest][:5]
        for card in fresh:
            table.place(_pad(session, "1.hand"), card)
            table.tidy()
        companion.wait()
        assert solo.solo_hand(session.state) == fresh and session.actions[-1]["type"] == "solo_hand"
        session.act({"type": "first_attacker", "seat": HUMAN})          # no second exchange to wait for
    assert "Put the cards in slots 1, 2, 3, 4 and 5 of South's holder back into South's deck, shuffle it, " \
           "then draw 5 for South" in shown
