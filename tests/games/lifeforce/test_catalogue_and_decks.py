"""Lifeforce Battle: the animal catalogue and the deck building rules.

Rules text, "Step 1. Build Your Deck"; RULINGS.md, Lifeforce Battle: "Colours and classes:
Red = birds, Orange = invertebrates, Yellow = mammals, Blue = fish, Purple = reptiles,
Green = amphibians" and "Deck: exactly 50 distinct cards, ≥ 5 of each of the six colours,
≤ 10 Green, ≤ 10 Purple".
"""
import json
from collections import Counter

from companion.cards import DATA_DIR, load_catalogue
from companion.games.lifeforce import RULES, load_decks, sample_decks, validate_deck
from companion.games.lifeforce.animals import ANIMALS

from .play import cid

CLASSES = {"red": "bird", "orange": "invertebrate", "yellow": "mammal", "blue": "fish",
           "purple": "reptile", "green": "amphibian"}


def legal_deck():
    return list(sample_decks()[0])


def by_colour(colour, exclude=()):
    return [c for c in ANIMALS if ANIMALS[c].colour == colour and c not in exclude]


# ---- the catalogue -------------------------------------------------------------------

def test_catalogue_has_at_least_120_animals_in_all_six_colours_with_their_class():
    """Issue 3: ≥ 120 animal cards across the six colours; ruling: colour = class of animal."""
    catalogue = load_catalogue("lifeforce")
    assert len(catalogue) >= 120
    per_colour = Counter(card["colour"] for card in catalogue)
    assert set(per_colour) == set(CLASSES)
    for card in catalogue:
        assert card["class"] == CLASSES[card["colour"]], card.id
    # enough for two legal decks with no card in common: ≥ 10 of every colour
    assert min(per_colour.values()) >= 10


def test_every_card_has_a_whole_maximum_lifespan_and_a_source():
    """Issue 3: real maximum lifespans from published longevity data, with the source named."""
    for card in load_catalogue("lifeforce"):
        assert isinstance(card["lifespan_max"], int) and card["lifespan_max"] >= 1, card.id
        assert card["source"], card.id
        if card["source"] == "AnAge":
            # the published figure is kept; the card shows it rounded to whole years
            assert abs(card["anage_years"] - card["lifespan_max"]) <= 0.5 or card["lifespan_max"] == 1, card.id


def test_hand_checked_lifespans_from_anage():
    """A few cards checked by hand against AnAge's 'Maximum longevity (yrs)'."""
    assert ANIMALS[cid("great-tit")].lifespan_max == 15          # AnAge 15.4
    assert ANIMALS[cid("goldcrest")].lifespan_max == 7           # AnAge 7
    assert ANIMALS[cid("harbour-porpoise")].lifespan_max == 20   # AnAge 20.4
    assert ANIMALS[cid("olm")].lifespan_max == 102               # AnAge 102
    assert ANIMALS[cid("galapagos-tortoise")].lifespan_max == 177


def test_some_animals_have_a_lifespan_range():
    """Rules text: 'If an animal card has a lifespan range rather than a single number…'."""
    ranged = [a for a in ANIMALS.values() if a.has_range]
    assert len(ranged) >= 5
    tubeworm = ANIMALS[cid("seep-tubeworm")]
    assert (tubeworm.lifespan_low, tubeworm.lifespan_max) == (170, 250)
    assert tubeworm.lifespan("low") == 170 and tubeworm.lifespan("max") == 250
    assert all(a.lifespan_low < a.lifespan_max for a in ranged)


def test_catalogue_file_says_where_the_figures_come_from():
    doc = json.loads((DATA_DIR / "lifeforce" / "cards.json").read_text(encoding="utf-8"))
    assert "AnAge" in doc["note"] and "Human Ageing Genomic Resources" in doc["note"]


# ---- sample decks --------------------------------------------------------------------

def test_two_sample_decks_are_legal_and_share_no_card():
    """Issue 3: two ready-made legal sample decks, no card in common."""
    north, south = sample_decks()
    assert validate_deck(north) == [] and validate_deck(south) == []
    assert not set(north) & set(south)
    assert set(load_decks()) == {"north-sample", "south-sample"}


def test_rules_object_offers_the_deck_check_for_the_deck_screen():
    assert RULES.validate_deck(sample_decks()[1]) == []
    assert RULES.validate_deck([]) == validate_deck([])


# ---- every deck rule violation, in player words ---------------------------------------

def test_deck_must_have_exactly_50_cards():
    """Rules text: 'Your deck must have exactly 50 cards.'"""
    assert "49 cards: exactly 50 needed" in validate_deck(legal_deck()[:49])
    deck = legal_deck() + [c for c in ANIMALS if c not in legal_deck() and ANIMALS[c].colour == "red"][:1]
    assert "51 cards: exactly 50 needed" in validate_deck(deck)


def test_no_card_twice():
    """Rules text: 'Your deck cannot contain multiple copies of any card.'"""
    deck = legal_deck()
    tit = cid("great-tit")
    deck[deck.index(next(c for c in deck if ANIMALS[c].colour == "red"))] = tit
    deck[deck.index(next(c for c in deck if ANIMALS[c].colour == "red" and c != tit))] = tit
    problems = validate_deck(deck)
    assert "Great Tit twice: all cards must be different" in problems
    assert len(problems) == 1


def test_at_least_5_of_every_colour():
    """Rules text: 'Your deck must have at least 5 or more of each color type.'"""
    deck = legal_deck()
    oranges = [c for c in deck if ANIMALS[c].colour == "orange"]       # the sample deck has 8
    spare_reds = by_colour("red", exclude=deck)
    for card, red in zip(oranges[:4], spare_reds):
        deck[deck.index(card)] = red
    assert validate_deck(deck) == ["4 Orange: at least 5 needed"]


def test_at_most_10_green():
    """Rules text: 'Your deck cannot have more than 10 Green cards.'"""
    deck = legal_deck()
    greens_needed = 12 - sum(ANIMALS[c].colour == "green" for c in deck)
    swap_out = ([c for c in deck if ANIMALS[c].colour == "red"][:3]
                + [c for c in deck if ANIMALS[c].colour == "yellow"][:greens_needed - 3])
    for card, green in zip(swap_out, by_colour("green", exclude=deck)):
        deck[deck.index(card)] = green
    assert validate_deck(deck) == ["12 Green: at most 10 allowed"]


def test_at_most_10_purple():
    """Rules text: 'Your deck cannot have more than 10 Purple cards.'"""
    deck = legal_deck()
    needed = 11 - sum(ANIMALS[c].colour == "purple" for c in deck)
    swap_out = [c for c in deck if ANIMALS[c].colour == "blue"][:needed]
    for card, purple in zip(swap_out, by_colour("purple", exclude=deck)):
        deck[deck.index(card)] = purple
    assert validate_deck(deck) == ["11 Purple: at most 10 allowed"]


def test_unknown_card_is_named():
    deck = legal_deck()[:49] + ["lifeforce.dodo"]      # drops a Green: 5 Green are still enough
    assert validate_deck(deck) == ["lifeforce.dodo: not a Lifeforce Battle card"]


def test_every_violation_is_reported_at_once():
    """Issue 3: 'returns every violation at once in words a player understands'."""
    reds = by_colour("red")[:20]
    greens = by_colour("green")[:12]
    purples = by_colour("purple")[:11]
    oranges = by_colour("orange")[:4]
    deck = reds + greens + purples + oranges + [reds[0]]          # 48 cards, no Yellow, no Blue
    assert validate_deck(deck) == [
        "48 cards: exactly 50 needed",
        f"{ANIMALS[reds[0]].name} twice: all cards must be different",
        "4 Orange: at least 5 needed",
        "0 Yellow: at least 5 needed",
        "0 Blue: at least 5 needed",
        "11 Purple: at most 10 allowed",
        "12 Green: at most 10 allowed",
    ]


def test_setup_refuses_an_illegal_deck_with_the_reasons():
    import pytest
    from companion.engine import IllegalAction
    bad = legal_deck()[:49]
    with pytest.raises(IllegalAction, match="North's deck: 49 cards: exactly 50 needed"):
        RULES.setup(RULES.normalise_options({"decks": [bad, sample_decks()[1]]}), 1)
