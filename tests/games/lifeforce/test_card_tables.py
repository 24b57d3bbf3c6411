"""Lifeforce's per-card tables agree with the cards.

The engine (:mod:`companion.games.lifeforce.animals`) and the solo player's fast model
(:mod:`companion.games.lifeforce.playout`) work each card's facts out once — its bit, its label,
its lifespan by declared mode, its lowest lifespan, its colour's index — and look them up on every
action.  Here each fact is derived again the slow way, from the card file itself (read as plain
JSON, not through the catalogue reader) and the rules text, and compared for every card: the
shipped ones, and an own card registered as a game's setup registers it.
"""
import json

import pytest

from companion.cards import DATA_DIR
from companion.games.lifeforce import animals, playout

# Rules text, "Battle variables": Blue is strong against Orange, Orange against Red, Red against
# Yellow, Yellow against Blue; "Other variables": reptiles (Purple) and amphibians (Green) cannot
# battle each other on their own.
STRONG_AGAINST = [("blue", "orange"), ("orange", "red"), ("red", "yellow"), ("yellow", "blue")]
STALEMATE = {"purple", "green"}
LABELS = {"red": "Red", "orange": "Orange", "yellow": "Yellow", "blue": "Blue", "purple": "Purple",
          "green": "Green"}
OWN = {"lifeforce.tables-test-newt": {"name": "Tables Test Newt",
                                      "attrs": {"colour": "green", "lifespan_max": 31, "lifespan_low": 12}}}


def _shipped() -> list[dict]:
    return json.loads((DATA_DIR / "lifeforce" / "cards.json").read_text(encoding="utf-8"))["cards"]


def _facts(card_id: str, name: str, attrs: dict) -> dict:
    """Everything the tables say about one card, worked out from its printed values alone."""
    high, low = attrs["lifespan_max"], attrs.get("lifespan_low")
    years = f"{low}–{high}" if low is not None else f"{high}"
    return {"label": f"{name} ({LABELS[attrs['colour']]}, {years} years)",
            "lifespan": {None: high, "max": high, "low": low if low is not None else high},
            "lowest": low if low is not None else high, "max": high, "low": low or 0,
            "colour": attrs["colour"]}


@pytest.fixture(scope="module")
def every_card() -> dict[str, dict]:
    animals.register(OWN)                    # as a game that uses the own card registers it at setup
    playout._catalogue()                     # and as the fast model brings its tables up to date
    cards = {c["id"]: _facts(c["id"], c["name"], c["attrs"]) for c in _shipped()}
    cards.update({card_id: _facts(card_id, c["name"], c["attrs"]) for card_id, c in OWN.items()})
    return cards


def test_every_card_has_its_own_bit_and_the_catalogue_order(every_card):
    shipped = [c["id"] for c in _shipped()]
    assert animals.ORDER[:len(shipped)] == shipped           # the shipped cards first, in file order
    assert set(every_card) <= set(animals.ORDER)
    assert len(set(animals.ORDER)) == len(animals.ORDER)
    for i, card_id in enumerate(animals.ORDER):
        assert animals.BIT[card_id] == 1 << i, card_id
        assert animals.cards_in(animals.BIT[card_id]) == [card_id]


def test_the_engines_tables_agree_with_every_card(every_card):
    for card_id, facts in every_card.items():
        beast = animals.ANIMALS[card_id]
        assert (beast.colour, beast.lifespan_max) == (facts["colour"], facts["max"]), card_id
        assert animals.LABEL[card_id] == facts["label"], card_id
        assert animals.LIFESPAN[card_id] == facts["lifespan"], card_id
        assert animals.LOWEST[card_id] == facts["lowest"], card_id
        assert beast.has_range == (facts["low"] != 0) == (card_id in animals.RANGED), card_id


def test_the_fast_models_tables_agree_with_every_card(every_card):
    colours = list(LABELS)
    for card_id, facts in every_card.items():
        i = playout.INDEX[card_id]
        assert animals.ORDER[i] == card_id == playout.card_id(i)
        assert playout.MAX[i] == facts["max"], card_id
        assert playout.LOW[i] == facts["low"], card_id
        assert colours[playout.COLOUR[i]] == facts["colour"], card_id
        assert playout.lifespan(i, 1) == facts["lifespan"]["low"], card_id
        assert playout.lifespan(i, 0) == facts["lifespan"]["max"], card_id


def test_every_pair_of_cards_compares_as_the_rules_say(every_card):
    """A duel's multipliers and stalemate, by table, for every pair of cards (both engines' way)."""
    ids = list(every_card)
    for a in ids:
        ca = every_card[a]["colour"]
        for b in ids:
            cb = every_card[b]["colour"]
            doubled_a, doubled_b = (ca, cb) in STRONG_AGAINST, (cb, ca) in STRONG_AGAINST
            pair = ca in STALEMATE and cb in STALEMATE
            ia, ib = playout.INDEX[a], playout.INDEX[b]
            assert playout.DUEL[playout.COLOUR[ia]][playout.COLOUR[ib]] == (1 + doubled_a, 1 + doubled_b, pair)
            beast_a, beast_b = animals.ANIMALS[a], animals.ANIMALS[b]
            life_a, life_b = every_card[a]["lifespan"]["low"], every_card[b]["lifespan"]["max"]
            assert animals.strengths(beast_a, "low", beast_b, "max") == (
                life_a * (1 + doubled_a), life_b * (1 + doubled_b), doubled_a, doubled_b)
            assert animals.is_stalemate_pair(ca, cb) == pair
            assert animals.FACING[ca, cb] == (doubled_a, doubled_b, pair)
