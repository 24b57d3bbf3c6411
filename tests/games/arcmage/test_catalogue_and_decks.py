"""The Arcmage catalogue and the deck-building rules (rules text, 'Deck Building')."""
import json
from collections import Counter

from companion.cards import Card, Catalogue, load_catalogue
from companion.games.arcmage import RULES, sample_decks, validate_deck
from companion.games.arcmage.cards import CARD_TYPES, FACTIONS

from .play import cid

CATALOGUE = load_catalogue("arcmage")


def test_the_catalogue_has_every_card_type_for_the_real_factions_with_number_and_version():
    """Issue 6: 'sample cards of the real factions (Gaian, Dark Legion, Red Banner, House of Nobles, The
    Empire) for every card type the text describes ... with card number and version'."""
    types = Counter(c["type"] for c in CATALOGUE)
    assert set(types) == set(CARD_TYPES)
    assert {c["faction"] for c in CATALOGUE} == set(FACTIONS)
    assert all(isinstance(c["number"], int) and isinstance(c["version"], int) for c in CATALOGUE)
    numbers = [c["number"] for c in CATALOGUE]
    assert len(numbers) == len(set(numbers))
    for c in CATALOGUE:
        if c["type"] == "region":
            assert c["hp"] > 0 and c["chapter"] in (1, 2, 3), c.id
        if c["type"] == "creature":
            assert {"cost", "atk", "defence"} <= set(c.attrs), c.id
        if c["type"] == "magic":
            assert c["domain"] in ("politics", "science", "faith"), c.id


def test_both_sample_decks_are_legal():
    """Issue 6: 'enough for two legal decks (ship both)'."""
    decks = sample_decks()
    assert set(decks) == {"gaian-grove", "legion-of-bones"}
    for deck in decks.values():
        assert validate_deck(deck["main"], deck["regions"]) == [], deck["id"]
    assert RULES.validate_deck is validate_deck


def _deck(**changes):
    deck = sample_decks()["gaian-grove"]
    main = dict(deck["main"])
    for slug, n in changes.items():
        main[cid(slug.replace("_", "-"))] = n
    return {k: v for k, v in main.items() if v}, list(deck["regions"])


def test_the_main_deck_must_have_exactly_60_cards():
    """Rules text: 'Every player must have a main deck of exactly 60 cards'."""
    main, regions = _deck(elf_druid=3)
    assert validate_deck(main, regions) == ["The main deck has 59 cards; it must have exactly 60."]


def test_at_most_four_copies_counting_every_version_and_name():
    """Rules text: 'It's usually allowed to have 4 copies of a card ... it is enough for it to have just the
    same card number and/or card name ... different revisions of a card, they all still count as the same
    card'."""
    extra = Catalogue("arcmage", list(CATALOGUE) + [
        Card("arcmage.elf-druid-v4", "arcmage", "Elf Druid", dict(CATALOGUE["arcmage.elf-druid"].attrs, version=4)),
        Card("arcmage.reprint", "arcmage", "Wild Boar", dict(CATALOGUE["arcmage.wild-boar"].attrs, number=999)),
    ])
    main, regions = _deck(elf_druid=3, wild_boar=3)
    main["arcmage.elf-druid-v4"] = 2          # 3 + 2 = 5 Elf Druids, same number
    main["arcmage.reprint"] = 2               # 3 + 2 = 5 Wild Boars, same name
    problems = validate_deck(main, regions, extra)
    assert problems == [
        "The main deck has 62 cards; it must have exactly 60.",
        "5 copies of Elf Druid (number 101) (counting every version and card with the same number or name); at most 4 are allowed.",
        "5 copies of Wild Boar (number 103) (counting every version and card with the same number or name); at most 4 are allowed.",
    ]


def test_a_card_may_say_it_allows_more_copies():
    """Rules text: '4 copies of a card in the deck unless otherwise explicitly stated on a card'. Skeleton
    Warrior says up to 8."""
    deck = sample_decks()["legion-of-bones"]
    assert deck["main"][cid("skeleton-warrior")] == 8
    main = dict(deck["main"], **{cid("skeleton-warrior"): 9, cid("ghoul"): 3})
    assert validate_deck(main, deck["regions"]) == [
        "9 copies of Skeleton Warrior (number 301); at most 8 are allowed."]


def test_the_chapter_has_one_to_three_regions_of_one_faction_in_order():
    """Rules text: 'a separate region deck of up to 3 cards'; 'It is only allowed to have regions from one
    single faction in the region deck'; positions 'I, II and III, meaning that the card should be first
    (on top of the chapter), second or last'."""
    main, _ = _deck()
    assert validate_deck(main, []) == ["There is no region: the chapter needs 1 to 3 region cards."]
    assert validate_deck(main, [cid("sacred-grove")]) == []
    assert validate_deck(main, [cid("whispering-woods"), cid("imperial-capital")]) == [
        "The chapter mixes factions (Gaian, The Empire); all its regions must be of one faction."]
    assert validate_deck(main, [cid("sacred-grove"), cid("whispering-woods")]) == [
        "Whispering Woods (chapter I) must come before Sacred Grove (chapter III): put the chapter in I, II, III order."]
    four = [cid("whispering-woods"), cid("heart-of-the-forest"), cid("sacred-grove"), cid("sacred-grove")]
    assert validate_deck(main, four) == [
        "The chapter has 4 regions; it may have at most 3.",
        "Sacred Grove and Sacred Grove are both chapter III; each position holds one region."]


def test_every_violation_is_reported_at_once_in_player_words():
    """Issue 6: 'every violation reported at once'."""
    main, _ = _deck(elf_druid=6)
    main[cid("necropolis")] = 1
    main["arcmage.no-such-card"] = 1
    problems = validate_deck(main, [cid("heart-of-the-forest"), cid("ghoul"), cid("cursed-marshes")])
    assert problems == [
        "The main deck has 64 cards; it must have exactly 60.",
        "arcmage.no-such-card is not a card the companion knows; add it on the Cards screen first.",
        "Necropolis is a region: it belongs in the chapter, not the main deck.",
        "6 copies of Elf Druid (number 101); at most 4 are allowed.",
        "Ghoul is not a region card: only regions go in the chapter.",
        "The chapter mixes factions (Dark Legion, Gaian); all its regions must be of one faction.",
        "Cursed Marshes (chapter I) must come before Heart of the Forest (chapter II): put the chapter in I, II, III order.",
    ]


def test_a_deck_given_as_a_list_of_physical_cards_counts_the_same():
    """The deck screen passes one list of scanned cards (ui/screens/decks.py): the region cards in it
    are the chapter, in I, II, III order whatever order they were scanned in."""
    deck = sample_decks()["gaian-grove"]
    cards = [card for card, n in deck["main"].items() for _ in range(n)]
    assert validate_deck(cards, deck["regions"]) == []
    assert RULES.validate_deck(cards + deck["regions"][::-1]) == []
    assert RULES.validate_deck(cards[1:] + [cid("sacred-grove"), cid("necropolis")]) == [
        "The main deck has 59 cards; it must have exactly 60.",
        "The chapter mixes factions (Dark Legion, Gaian); all its regions must be of one faction."]


def test_a_players_own_card_can_be_played(tmp_path, monkeypatch):
    """Issue 6: 'Players can add their own cards' (companion/cards.py: <data dir>/cards/arcmage.json)."""
    from companion.games.arcmage import cards as arc
    from .play import NORTH, act, gold, started, to_phase
    (tmp_path / "tabletop-companion" / "cards").mkdir(parents=True)
    (tmp_path / "tabletop-companion" / "cards" / "arcmage.json").write_text(json.dumps({
        "game": "arcmage", "format": 1, "cards": [{"id": "arcmage.my-treant", "name": "My Treant", "attrs": {
            "type": "creature", "faction": "gaian", "number": 9001, "version": 1,
            "cost": 2, "atk": 3, "defence": 5}}]}))
    from companion import cards as catalogue_files
    monkeypatch.setattr(catalogue_files, "_user_dir", tmp_path / "tabletop-companion")   # as `companion run` sets it
    monkeypatch.setattr(arc, "_catalogue", None)
    monkeypatch.setattr(arc, "_with_user_cards", False)
    s, _ = to_phase(gold(started(), NORTH, 2), "entrance")
    s, events = act(s, "enter", NORTH, card="arcmage.my-treant", to="front")
    assert events[0]["text"] == "North pays 2 gold: My Treant (3/5) enters the Front."


def test_the_deck_module_examples_hold():
    import doctest
    from companion.games.arcmage import decks
    assert doctest.testmod(decks).failed == 0
