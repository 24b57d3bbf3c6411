"""The cost calculator: what a creature costs in a deck, and why.

Rules, Total Cost, with the agreed ruling (RULINGS.md, Creature Combat Territory)::

    Total Cost = 2 × Base Power + ⌈signed sum of biome bonuses / 2⌉ + ability prices
    Final Cost = max(1, Total Cost − the discount the card states)
    Star Count = ⌈Final Cost / 10⌉

"For every 2 points in any Biome Bonus, increase Total Cost by 1. If you have 1
point left over, count it as 2" is the rounding up; a negative sum rounds up
too (−3 → −1).  The text leaves ability prices open ("Abilities have varying
costs"); this project prices them from their parts (docs/rulings/territory.md,
"Ability prices")::

    >>> from companion.games.territory import CATALOGUE
    >>> from companion.games.territory.pricing import price
    >>> print(price(CATALOGUE.creature("territory.ash")).text())
    Base power 3 × 2 = 6
    Biome bonuses Forest +2, Tundra +1 = +3 → ⌈3 / 2⌉ = 2
    Ability Pack Howl: 2 (other allies of type canid get +1 Base Power) − 2 (Type Group canid) = 0, raised to the minimum 1
    Total cost 9
    Final cost 9
    Star count ⌈9 / 10⌉ = 1

Every line of a :class:`CostBreakdown` is meant for the designer screen.
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.cards import Card

from .cards import GAME, Ability, Biomes, Creature, Effect, parse_creature

# Price per point of an effect, by whom it reaches.  A point to one creature is
# worth what a point of Base Power costs (2); reaching every ally or enemy at
# the land is worth more, a double-edged "all others" less.
EFFECT_WEIGHT = {"self": 2, "allies": 3, "team": 4, "enemies": 3, "others": 2, "all": 2, "enemy": 2}
SHIELD_PRICE = {"self": 2, "allies": 3, "team": 4}
ALL_LANDS_FACTOR = 2
# What a cost or a requirement takes off an ability's price.
COST_REBATE = {"rest": 1, "exhaust": 1, "disorient": 1}         # per point
FLAT_COST_REBATE = {"support": 2, "sacrifice": 5}
REQUIREMENT_REBATE = {"home": 1, "biome": 2, "alone": 2}          # type_group: its count, +1 for a named type
MIN_ABILITY_PRICE = 1
MIN_FINAL_COST = 1
MAX_FINAL_COST = 100      # Rules, Creature Deck: "Each creature has a cost ranging from 0 to 100"


def ceil_div(a: int, b: int) -> int:
    """⌈a / b⌉ for ints, negative ``a`` included (−3 / 2 → −1)."""
    return -((-a) // b)


def star_count(final_cost: int) -> int:
    """Rules, Star Count: "equal to its Final Cost divided by 10, round up"."""
    return ceil_div(final_cost, 10)


def effect_price(effect: Effect) -> int:
    if effect.kind == "shield":
        value = SHIELD_PRICE[effect.target]
        if effect.of_type:
            value -= 1
    else:
        weight = EFFECT_WEIGHT[effect.target]
        if effect.of_type:
            weight = max(1, weight - 1)
        value = abs(effect.amount) * weight
    if effect.scope == "all_lands":
        value *= ALL_LANDS_FACTOR
    return value


def ability_price(ability: Ability) -> tuple[int, str]:
    """The price of one ability and the sum that made it ("3 − Rest 1 (1) − Home (1) = 1")."""
    parts = [(effect_price(e), e.text()) for e in ability.effects]
    total = sum(p for p, _ in parts)
    words = " + ".join(f"{p} ({t})" for p, t in parts)
    for c in ability.costs:
        rebate = COST_REBATE.get(c.kind, 0) * c.amount + FLAT_COST_REBATE.get(c.kind, 0)
        total -= rebate
        words += f" − {rebate} ({c.text()})"
    for r in ability.requires:
        if r.kind == "type_group":
            rebate = r.count + (1 if r.of_type else 0)
        else:
            rebate = REQUIREMENT_REBATE[r.kind]
        total -= rebate
        words += f" − {rebate} ({r.text()})"
    if total < MIN_ABILITY_PRICE:
        return MIN_ABILITY_PRICE, f"{words} = {total}, raised to the minimum {MIN_ABILITY_PRICE}"
    return total, f"{words} = {total}"


@dataclass(frozen=True)
class CostLine:
    label: str
    amount: int
    text: str


@dataclass(frozen=True)
class CostBreakdown:
    """How a creature's cost is made, line by line, for the designer screen."""

    lines: tuple[CostLine, ...]
    total: int
    discount: int
    final: int
    stars: int

    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)

    def as_dict(self) -> dict:
        return {"lines": [{"label": l.label, "amount": l.amount, "text": l.text} for l in self.lines],
                "total": self.total, "discount": self.discount, "final": self.final, "stars": self.stars}


def price(creature: Creature, biomes: Biomes | None = None) -> CostBreakdown:
    """The Total Cost, Final Cost and Star Count of ``creature``, each part explained."""
    biomes = biomes or Biomes()
    lines = [CostLine("base_power", 2 * creature.base_power,
                      f"Base power {creature.base_power} × 2 = {2 * creature.base_power}")]
    bonus_sum = sum(creature.biomes.values())
    bonus_cost = ceil_div(bonus_sum, 2)
    if creature.biomes:
        listed = ", ".join(f"{biomes.name(b)} {v:+d}" for b, v in creature.biomes.items())
        lines.append(CostLine("biomes", bonus_cost,
                              f"Biome bonuses {listed} = {bonus_sum:+d} → ⌈{bonus_sum} / 2⌉ = {bonus_cost}"))
    else:
        lines.append(CostLine("biomes", 0, "No biome bonuses = 0"))
    total = lines[0].amount + bonus_cost
    for ability in creature.abilities:
        amount, how = ability_price(ability)
        lines.append(CostLine(f"ability:{ability.name}", amount, f"Ability {ability.name}: {how}"))
        total += amount
    lines.append(CostLine("total", total, f"Total cost {total}"))
    final = max(MIN_FINAL_COST, total - creature.discount)
    if creature.discount:
        lines.append(CostLine("discount", -creature.discount, f"Discount stated on the card −{creature.discount}"))
    lines.append(CostLine("final", final, f"Final cost {final}"
                          + (f" (minimum {MIN_FINAL_COST})" if total - creature.discount < MIN_FINAL_COST else "")))
    stars = star_count(final)
    lines.append(CostLine("stars", stars, f"Star count ⌈{final} / 10⌉ = {stars}"))
    if final > MAX_FINAL_COST:
        lines.append(CostLine("over_limit", final - MAX_FINAL_COST,
                              f"Over the limit by {final - MAX_FINAL_COST}: a creature costs 0 to {MAX_FINAL_COST} "
                              "(Rules, Creature Deck), so no game takes this card"))
    return CostBreakdown(tuple(lines), total, creature.discount, final, stars)


def price_entry(entry: dict, biomes: Biomes | None = None) -> CostBreakdown:
    """The designer's calculator: price a creature from a catalogue entry as a player types it in.

    ``entry`` is ``{"id": "territory.…", "name": …, "attrs": {...}}`` (the
    cards.json shape; ``id`` may be left out while designing).  A card the
    engine could not play raises :class:`~.cards.CardError` with every reason.
    """
    card = Card(entry.get("id") or f"{GAME}.new-creature", GAME, entry.get("name") or "New creature",
                dict(entry.get("attrs", {}), kind="creature"))
    biomes = biomes or Biomes()
    return price(parse_creature(card, biomes), biomes)
