"""The card model, the cost calculator and the catalogue (issue 5, Deliver 1–3)."""
import pytest

from companion.cards import Card
from companion.games.territory import CATALOGUE
from companion.games.territory.cards import BASE_BIOMES, Biomes, CardError, build_catalogue, parse_creature
from companion.games.territory.pricing import ability_price, ceil_div, price, star_count
from companion.games.territory.catalogue import FINAL_COST, SHIPPED, deck_problems


def creature(base=0, biomes=None, abilities=(), discount=0, **extra):
    attrs = {"kind": "creature", "species": "Test Beast", "types": ["beast"], "base_power": base,
             "biomes": biomes or {}, "abilities": list(abilities), **extra}
    if discount:
        attrs["discount"] = discount
    return parse_creature(Card("territory.test", "territory", "Testy", attrs), CATALOGUE.biomes)


def ability(**kw):
    base = {"name": "Test", "when": "activated", "effects": [{"type": "base_power", "target": "self", "amount": 1}]}
    base.update(kw)
    return base


# ---- Total Cost = 2 × Base Power + ⌈biome bonuses / 2⌉ + abilities (RULINGS, Territory)
def test_base_power_costs_two_per_point():
    """Rules, Total Cost: "For each point in Base Power, increase Total Cost by 2"."""
    b = price(creature(base=3))
    assert b.lines[0].text == "Base power 3 × 2 = 6"
    assert b.total == 6 and b.final == 6 and b.stars == 1


def test_biome_bonus_leftover_point_counts_as_two():
    """Rules: "For every 2 points in any Biome Bonus, increase Total Cost by 1. If you have 1 point left over,
    count it as 2" — Forest +2, Tundra +1 = 3 points → 2."""
    b = price(creature(base=1, biomes={"forest": 2, "tundra": 1}))
    assert [l.amount for l in b.lines if l.label == "biomes"] == [2]
    assert b.total == 2 + 2


def test_negative_biome_bonuses_subtract_rounded_up():
    """RULINGS: the signed sum is halved and rounded up: Ocean +3, Desert −4, Mountain −2 = −3 → −1."""
    b = price(creature(base=4, biomes={"ocean": 3, "desert": -4, "mountain": -2}))
    assert [l.amount for l in b.lines if l.label == "biomes"] == [-1]
    assert b.total == 7
    assert "= -3 → ⌈-3 / 2⌉ = -1" in b.text()


def test_final_cost_is_at_least_one():
    """Rules: "The Final Total Cost has a minimum of 1" — base 0 with Desert −4 totals −2."""
    b = price(creature(base=0, biomes={"desert": -4}))
    assert b.total == -2 and b.final == 1 and b.stars == 1
    assert "Final cost 1 (minimum 1)" in b.text()


def test_stated_discount_and_star_count():
    """RULINGS: discounts only when a card states one; Star Count = ⌈Final / 10⌉.  Leviathan: 12 × 2 = 24,
    bonuses 5 + 2 − 5 − 4 = −2 → −1, Tidal Wave 1 (4 − Rest 3 − Home 1 = 0, raised to 1), total 24, −6 = 18."""
    b = price(CATALOGUE.creature("territory.titan"))
    assert (b.total, b.discount, b.final, b.stars) == (24, 6, 18, 2)


@pytest.mark.parametrize("final,stars", [(1, 1), (9, 1), (10, 1), (11, 2), (20, 2), (21, 3), (100, 10)])
def test_star_count_rounds_up(final, stars):
    """Rules, Star Count: "Final Cost divided by 10, round up"."""
    assert star_count(final) == stars


def test_ceil_div_rounds_towards_plus_infinity():
    assert [ceil_div(n, 2) for n in (-3, -2, -1, 0, 1, 2, 3)] == [-1, -1, 0, 0, 1, 1, 2]


def test_hand_checked_wolf():
    """Ash the Grey Wolf: 3 × 2 = 6; Forest +2, Tundra +1 → 2; Pack Howl: other canid allies +1 Base Power
    (3 per point, 2 for one type) − Type Group canid (1 ally + 1 for a named type) = 0 → 1.  Total 9, 1 star."""
    b = price(CATALOGUE.creature("territory.ash"))
    assert [l.amount for l in b.lines] == [6, 2, 1, 9, 9, 1]
    assert b.lines[2].text.startswith("Ability Pack Howl: 2 (other allies of type canid get +1 Base Power)")


# ---- each ability cost and requirement lowers the ability's price (docs/rulings/territory.md, Ability prices)
@pytest.mark.parametrize("costs,requires,expected", [
    ([], [], 6),                                                   # deal 3 damage to one enemy: 3 × 2
    ([{"type": "rest", "amount": 2}], [], 4),                      # Rest X: −X
    ([{"type": "support"}], [], 4),                                # Support: −2
    ([{"type": "exhaust", "amount": 1}], [], 5),                   # Exhaust X: −X
    ([{"type": "sacrifice"}], [], 1),                              # Sacrifice: −5
    ([{"type": "disorient", "amount": 2}], [], 4),                 # Disorient X: −X
    ([], [{"type": "home"}], 5),                                   # Home: −1
    ([], [{"type": "biome", "biome": "ocean"}], 4),                # Biome A: −2
    ([], [{"type": "type_group"}], 5),                             # Type Group: −1
    ([], [{"type": "type_group", "count": 3}], 3),                 # Type Group X: −X
    ([], [{"type": "type_group", "of_type": "fish", "count": 2}], 3),  # Type Group A X: −X − 1
    ([], [{"type": "alone"}], 4),                                  # Alone: −2
    ([{"type": "rest", "amount": 9}], [], 1),                      # never below 1
])
def test_ability_price_from_costs_and_requirements(costs, requires, expected):
    c = creature(abilities=[ability(costs=costs, requires=requires,
                                    effects=[{"type": "damage", "target": "enemy", "amount": 3}])])
    assert ability_price(c.abilities[0])[0] == expected


@pytest.mark.parametrize("effect,expected", [
    ({"type": "base_power", "target": "allies", "amount": 1}, 3),
    ({"type": "base_power", "target": "enemies", "amount": -1}, 3),
    ({"type": "base_power", "target": "allies", "amount": 1, "of_type": "canid"}, 2),
    ({"type": "base_power", "target": "team", "amount": 2}, 8),
    ({"type": "damage", "target": "enemies", "amount": 2}, 6),
    ({"type": "shield", "target": "allies"}, 3),
    ({"type": "base_power", "target": "allies", "amount": 2, "scope": "all_lands"}, 12),
])
def test_effect_prices(effect, expected):
    c = creature(abilities=[ability(effects=[effect])])
    assert ability_price(c.abilities[0])[0] == expected


# ---- abilities the engine cannot interpret are refused when the card is loaded (Deliver 2)
@pytest.mark.parametrize("bad,words", [
    ({"effects": [{"type": "heal", "target": "allies", "amount": 1}]}, "effect 1 type 'heal'"),
    ({"effects": [{"type": "base_power", "target": "friends", "amount": 1}]}, "target 'friends'"),
    ({"effects": [{"type": "damage", "target": "enemy"}]}, "(damage) amount must be a whole number"),
    ({"when": "passive", "effects": [{"type": "damage", "target": "enemy", "amount": 1}]}, "only an activated"),
    ({"costs": [{"type": "mana", "amount": 1}]}, "cost 1 type 'mana'"),
    ({"costs": [{"type": "rest"}]}, "(rest) amount must be a whole number"),
    ({"requires": [{"type": "biome", "biome": "moon"}]}, "biome 'moon'"),
    ({"requires": [{"type": "alone"}, {"type": "type_group"}]}, "can never hold together"),
    ({"when": "sometimes"}, "'when' 'sometimes'"),
    ({"effects": []}, "has no effects"),
    ({"costs": "rest 1"}, "'costs' must be a list"),
    ({"requires": ["home"]}, "requires entry 1 must be an object"),
    ({"effects": {"type": "damage"}}, "'effects' must be a list"),
])
def test_uninterpretable_ability_is_rejected_with_the_reason(bad, words):
    with pytest.raises(CardError) as err:
        creature(abilities=[ability(**bad)])
    message = str(err.value)
    assert "territory.test (Testy)" in message and "ability 'Test'" in message
    assert words in message


def test_catalogue_reports_every_bad_card_at_once():
    cards = [Card("territory.a", "territory", "A", {"kind": "creature", "base_power": -1}),
             Card("territory.b", "territory", "B", {"kind": "land", "biome": "moon"}),
             Card("territory.c", "territory", "C", {"kind": "spell"})]
    with pytest.raises(CardError) as err:
        build_catalogue(cards, [])
    text = str(err.value)
    assert "territory.a (A): base_power must be at least 0" in text
    assert "territory.b (B): biome 'moon'" in text
    assert "territory.c (C): 'kind' must be 'creature' or 'land'" in text


# ---- custom biomes (Rules, Land Cards: Cliff and Mountain could be argued to be the same)
def test_custom_biome_counts_as_its_base_biome():
    biomes = Biomes([{"id": "cliff", "counts_as": "mountain"}])
    assert biomes.canonical("cliff") == "mountain"
    assert biomes.label("cliff") == "Cliff (counts as Mountain)"
    c = creature(base=1, biomes={"cliff": 2})
    assert c.bonus("mountain") == 2


def test_two_bonuses_for_the_same_biome_are_refused():
    with pytest.raises(CardError, match="two bonuses for Mountain"):
        creature(biomes={"mountain": 2, "cliff": 1})


def test_custom_biome_of_its_own_must_say_why():
    with pytest.raises(CardError, match="'why'"):
        Biomes([{"id": "moon"}])
    assert Biomes([{"id": "moon", "why": "no air"}]).canonical("moon") == "moon"


def test_custom_biome_alias_must_name_a_base_biome():
    with pytest.raises(CardError, match="not a base biome"):
        Biomes([{"id": "cliff", "counts_as": "hill"}])


# ---- the catalogue (Deliver 3)
def test_catalogue_has_the_eleven_base_biomes_50_lands_and_40_creatures():
    assert len(BASE_BIOMES) == 11
    assert all(b in CATALOGUE.biomes for b in BASE_BIOMES)
    assert len(CATALOGUE.lands) >= 50
    assert sum(1 for l in CATALOGUE.lands.values() if l.effects) >= 10
    assert {l.plays_as for l in CATALOGUE.lands.values()} >= set(BASE_BIOMES)
    assert len(CATALOGUE.creatures) >= 40


def test_every_catalogue_creature_costs_what_the_calculator_says():
    """Issue 5: "at least 40 creatures whose costs follow the formula"."""
    wrong = []
    for c in (c for c in CATALOGUE.creatures.values() if c.id in SHIPPED):
        b = price(c, CATALOGUE.biomes)
        if (c.cost, c.stars) != (b.final, b.stars):
            wrong.append(f"{c.id}: card says {c.cost}/{c.stars}★, calculator {b.final}/{b.stars}★")
    assert not wrong, wrong


def test_sample_decks_are_legal():
    """Rules, Deck Building: creature deck cost ≤ 100, land deck of 25; the two decks share no creature."""
    decks = CATALOGUE.decks
    assert len(decks) == 2
    seen = set()
    for key, deck in decks.items():
        assert deck_problems(deck["creatures"], deck["lands"]) == [], key
        assert sum(FINAL_COST[c] for c in deck["creatures"]) == 97, key
        assert not seen & set(deck["creatures"])
        seen |= set(deck["creatures"])


def test_deck_problems_are_said_in_words():
    """Rules, Deck Building: total cost ≤ the agreed budget, land deck of the agreed size."""
    assert deck_problems(["territory.titan"] * 2, ["territory.oasis"] * 3, budget=30) == [
        "listed twice: Titan (Ancient Leviathan)", "the creatures cost 36, over the agreed 30",
        "the land deck holds 3 lands, not the agreed 25"]


def test_designer_prices_an_entry_as_typed():
    """The designer screen prices a creature before it has an id; a bad ability comes back with its reason."""
    from companion.games.territory.pricing import price_entry
    b = price_entry({"name": "Nessie", "attrs": {"species": "Lake Monster", "types": ["aquatic"], "base_power": 4,
                                                 "biomes": {"lake": 3, "mountain": -2}}})
    assert [l.text for l in b.lines] == ["Base power 4 × 2 = 8", "Biome bonuses Lake +3, Mountain -2 = +1 → ⌈1 / 2⌉ = 1",
                                         "Total cost 9", "Final cost 9", "Star count ⌈9 / 10⌉ = 1"]
    with pytest.raises(CardError, match="Nessie.*ability 'Splash'.*target 'everyone'"):
        price_entry({"name": "Nessie", "attrs": {"base_power": 1, "abilities": [
            {"name": "Splash", "effects": [{"type": "power", "target": "everyone", "amount": 1}]}]}})


def test_pricing_docstring_example():
    import doctest
    from companion.games.territory import pricing
    assert doctest.testmod(pricing).failed == 0
