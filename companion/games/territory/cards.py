"""Territory's cards: biomes, lands, creatures and their abilities, as checked data.

A creature card in ``data/territory/cards.json``::

    {"id": "territory.ash", "name": "Ash", "attrs": {
        "kind": "creature", "species": "Grey Wolf", "types": ["canid", "mammal"],
        "base_power": 3, "biomes": {"forest": 2, "ocean": -2},
        "abilities": [{"name": "Pack Howl", "when": "passive",
                       "requires": [{"type": "type_group", "of_type": "canid"}],
                       "effects": [{"type": "base_power", "target": "allies", "amount": 1}]}],
        "cost": 9, "stars": 1}}

and a land::

    {"id": "territory.pine-forest", "name": "Pine Forest", "attrs": {
        "kind": "land", "biome": "forest",
        "passive": {"name": "Canopy", "effects": [{"type": "power", "amount": 2, "of_type": "flying"}]}}}

:func:`parse_creature` and :func:`parse_land` turn those into frozen objects
and refuse anything the engine could not play, naming the card, the ability
and what is wrong (a typo in a target must never become a silent no-op).
Pricing lives in :mod:`.pricing`; the biome table, with custom biomes that
count as a base biome, in :class:`Biomes`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from companion.cards import DATA_DIR, Card, CatalogueError, load_catalogue, read_catalogue_file

GAME = "territory"

BASE_BIOMES = ("forest", "mountain", "plain", "lake", "ocean", "swamp", "desert", "tundra", "jungle",
               "cloud", "volcano")

# What each part of an ability may say.  The engine interprets exactly these.
COSTS = ("rest", "support", "exhaust", "sacrifice", "disorient")
COSTS_WITH_AMOUNT = ("rest", "exhaust", "disorient")
REQUIREMENTS = ("home", "biome", "type_group", "alone")
EFFECTS = ("base_power", "power", "damage", "shield")
TARGETS = {
    # who an effect reaches, seen from the creature that has the ability
    "base_power": ("self", "allies", "team", "enemies", "others", "all"),
    "power": ("self", "allies", "team", "enemies", "others", "all"),
    "damage": ("enemy", "enemies", "others"),
    "shield": ("self", "allies", "team"),
}
TARGET_WORDS = {"self": "itself", "allies": "other allies", "team": "all allies (itself included)",
                "enemies": "enemies", "others": "all other creatures", "all": "all creatures",
                "enemy": "one enemy of your choice"}
SCOPES = ("land", "all_lands")
WHEN = ("passive", "activated")
LAND_EFFECTS = ("power", "recovery")


class CardError(CatalogueError):
    """A card the engine cannot play; the message names the card, the ability and the problem."""


# ---------------------------------------------------------------- biomes
class Biomes:
    """The eleven base biomes plus custom ones, each custom one counting as a base biome or as itself.

    Rules, Land Cards: "if you do make your own biomes, you'll have to explain
    why it's different from the base biomes. If it's determined that they're
    the same, then your new biome will function as if it were the base biome."
    A custom biome is ``{"id": "cliff", "name": "Cliff", "counts_as": "mountain",
    "why": "bare rock, like a mountain"}``; without ``counts_as`` it is a biome
    of its own.
    """

    def __init__(self, custom: list[dict] | None = None, source: str = "biomes"):
        self.names = {b: b.capitalize() for b in BASE_BIOMES}
        self._canonical = {b: b for b in BASE_BIOMES}
        self.add(custom or [], source)

    def add(self, custom: list[dict], source: str = "biomes") -> None:
        """Add custom biomes; one already known must be defined the same way."""
        problems = []
        for n, entry in enumerate(custom, start=1):
            bid = str(entry.get("id", "")).lower() if isinstance(entry, dict) else ""
            if not bid:
                problems.append(f"custom biome {n}: no 'id'")
                continue
            if bid in BASE_BIOMES:
                problems.append(f"custom biome {bid!r} is already a base biome")
                continue
            target = entry.get("counts_as")
            if target is not None and target not in BASE_BIOMES:
                problems.append(f"custom biome {bid!r} counts as {target!r}, which is not a base biome "
                                f"({', '.join(BASE_BIOMES)})")
                continue
            if target is None and not entry.get("why"):
                problems.append(f"custom biome {bid!r} is a biome of its own but says nowhere 'why' it differs "
                                "from the base biomes")
            if bid in self._canonical and self._canonical[bid] != (target or bid):
                problems.append(f"custom biome {bid!r} already counts as {self._canonical[bid]!r}")
                continue
            self.names[bid] = entry.get("name") or bid.capitalize()
            self._canonical[bid] = target or bid
        if problems:
            raise CardError(f"{source}: " + "; ".join(problems))

    def __contains__(self, biome: str) -> bool:
        return biome in self._canonical

    def canonical(self, biome: str) -> str:
        """The biome ``biome`` plays as ("cliff" → "mountain")."""
        return self._canonical[biome]

    def name(self, biome: str) -> str:
        return self.names.get(biome, biome)

    def label(self, biome: str) -> str:
        """"Cliff (counts as Mountain)" or "Forest"."""
        base = self._canonical.get(biome, biome)
        if base != biome:
            return f"{self.name(biome)} (counts as {self.name(base)})"
        return self.name(biome)


# ---------------------------------------------------------------- abilities
@dataclass(frozen=True)
class Cost:
    kind: str
    amount: int = 0

    def text(self) -> str:
        return self.kind.capitalize() + (f" {self.amount}" if self.kind in COSTS_WITH_AMOUNT else "")


@dataclass(frozen=True)
class Requirement:
    kind: str
    biome: str | None = None
    of_type: str | None = None
    count: int = 1

    def text(self) -> str:
        if self.kind == "biome":
            return f"Biome {self.biome}"
        if self.kind == "type_group":
            return "Type Group" + (f" {self.of_type}" if self.of_type else "") + (f" {self.count}" if self.count > 1 else "")
        return self.kind.capitalize()


@dataclass(frozen=True)
class Effect:
    kind: str                 # base_power | power | damage | shield
    target: str
    amount: int = 0
    of_type: str | None = None
    scope: str = "land"

    def text(self) -> str:
        who = TARGET_WORDS[self.target]
        if self.of_type:
            who += f" of type {self.of_type}"
        where = " on every land" if self.scope == "all_lands" else ""
        if self.kind == "damage":
            return f"deal {self.amount} damage to {who}{where}"
        if self.kind == "shield":
            return f"enemy effects can't make {'it' if self.target == 'self' else who} lose Base Power{where}"
        stat = "Base Power" if self.kind == "base_power" else "power"
        if self.target == "self":
            return f"it gets {self.amount:+d} {stat}{where}"
        return f"{who} get {self.amount:+d} {stat}{where}"


@dataclass(frozen=True)
class Ability:
    name: str
    activated: bool
    costs: tuple[Cost, ...] = ()
    requires: tuple[Requirement, ...] = ()
    effects: tuple[Effect, ...] = ()

    @property
    def support(self) -> bool:
        return any(c.kind == "support" for c in self.costs)

    @property
    def needs_target(self) -> bool:
        return any(e.target == "enemy" for e in self.effects)

    def text(self) -> str:
        """"Roar (activated) – Rest 1: all other creatures get -1 Base Power"."""
        head = f"{self.name} ({'activated' if self.activated else 'passive'})"
        conditions = [c.text() for c in self.costs] + [r.text() for r in self.requires]
        if conditions:
            head += " – " + ", ".join(conditions)
        return head + ": " + "; ".join(e.text() for e in self.effects)


@dataclass(frozen=True)
class LandEffect:
    """A land's passive: "Flying creatures get +2 power here" or "removes 2 Rest counters from Forest creatures".

    ``kind`` is "power" (a power change for every creature fighting here that
    matches) or "recovery" (at round end, when this land in a land pile removes
    Rest counters from a matching creature, it removes ``amount`` instead of 1).
    ``of_type`` limits it to a type; ``home`` to creatures whose home biome this
    land's biome is.
    """

    kind: str
    amount: int
    of_type: str | None = None
    home: bool = False

    def matches(self, creature: "Creature", biome: str) -> bool:
        if self.of_type and self.of_type not in creature.types:
            return False
        return not self.home or creature.bonus(biome) > 0

    def text(self) -> str:
        who = "creatures"
        if self.of_type:
            who = f"{self.of_type.capitalize()} creatures"
        if self.home:
            who += " at home here"
        if self.kind == "power":
            return f"{who} get {self.amount:+d} power here"
        return f"removes {self.amount} Rest counters at a time from {who.lower()}"


@dataclass(frozen=True)
class Land:
    id: str
    name: str
    biome: str          # as printed ("cliff")
    plays_as: str       # canonical biome ("mountain")
    passive_name: str = ""
    effects: tuple[LandEffect, ...] = ()

    def recovery_for(self, creature: "Creature") -> int:
        """How many Rest counters this land removes from ``creature`` in one use (Round End step 3)."""
        best = 1
        for e in self.effects:
            if e.kind == "recovery" and e.matches(creature, self.plays_as):
                best = max(best, e.amount)
        return best

    def passive_text(self) -> str:
        if not self.effects:
            return ""
        return f"{self.passive_name}: " + "; ".join(e.text() for e in self.effects)


@dataclass(frozen=True)
class Creature:
    id: str
    name: str
    species: str
    types: frozenset
    base_power: int
    biomes: dict = field(hash=False, compare=False)    # biome as printed → bonus
    plays_as: dict = field(hash=False, compare=False)  # canonical biome → bonus
    abilities: tuple[Ability, ...] = ()
    discount: int = 0
    cost: int | None = None    # as printed on the card (checked against the calculator)
    stars: int | None = None

    def bonus(self, biome: str) -> int:
        """The biome bonus where the land plays as ``biome`` (canonical); 0 when the card names none."""
        return self.plays_as.get(biome, 0)

    @property
    def label(self) -> str:
        """"Ash (Grey Wolf)"."""
        return f"{self.name} ({self.species})" if self.species and self.species != self.name else self.name


# ---------------------------------------------------------------- parsing
def _int(value, what: str, problems: list, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append(f"{what} must be a whole number, not {value!r}")
        return 0
    if minimum is not None and value < minimum:
        problems.append(f"{what} must be at least {minimum}, not {value}")
    return value


def _known(value, allowed, what: str, problems: list) -> bool:
    if value in allowed:
        return True
    problems.append(f"{what} {value!r} is not one the engine knows ({', '.join(allowed)})")
    return False


def _entries(data: dict, key: str, problems: list) -> list:
    """``data[key]`` as a list of objects; anything else becomes a problem, never a silent skip."""
    value = data.get(key, [])
    if not isinstance(value, list):
        problems.append(f"'{key}' must be a list, not {value!r}")
        return []
    for n, entry in enumerate(value, start=1):
        if not isinstance(entry, dict):
            problems.append(f"{key} entry {n} must be an object with a 'type', not {entry!r}")
    return value


def _type_name(value, what: str, problems: list) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        problems.append(f"{what} must be a type name, not {value!r}")
        return None
    return value.strip().lower()


def parse_ability(data, biomes: Biomes, where: str) -> Ability:
    """One ability from card data; raises :class:`CardError` naming ``where`` and every problem."""
    problems: list[str] = []
    if not isinstance(data, dict):
        raise CardError(f"{where}: an ability must be an object with name, when, costs, requires, effects")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        problems.append("no name")
        name = "?"
    where = f"{where}, ability {name!r}"
    unknown = set(data) - {"name", "when", "costs", "requires", "effects", "text"}
    if unknown:
        problems.append(f"unknown {'field' if len(unknown) == 1 else 'fields'} {', '.join(sorted(unknown))}")
    when = data.get("when", "passive")
    _known(when, WHEN, "'when'", problems)

    costs = []
    for n, c in enumerate(_entries(data, "costs", problems), start=1):
        what = f"cost {n}"
        if not isinstance(c, dict) or not _known(c.get("type"), COSTS, f"{what} type", problems):
            continue
        amount = 0
        if c["type"] in COSTS_WITH_AMOUNT:
            amount = _int(c.get("amount"), f"{what} ({c['type']}) amount", problems, minimum=1)
        elif "amount" in c:
            problems.append(f"{what} ({c['type']}) takes no amount")
        costs.append(Cost(c["type"], amount))
    kinds = [c.kind for c in costs]
    for k in set(kinds):
        if kinds.count(k) > 1:
            problems.append(f"cost {k!r} is listed twice; add the amounts instead")

    requires = []
    for n, r in enumerate(_entries(data, "requires", problems), start=1):
        what = f"requirement {n}"
        if not isinstance(r, dict) or not _known(r.get("type"), REQUIREMENTS, f"{what} type", problems):
            continue
        kind = r["type"]
        if kind == "biome":
            b = r.get("biome")
            if b not in biomes:
                problems.append(f"{what} (biome) names biome {b!r}, which is neither a base biome nor a custom one")
                continue
            requires.append(Requirement(kind, biome=b))
        elif kind == "type_group":
            count = _int(r.get("count", 1), f"{what} (type_group) count", problems, minimum=1)
            requires.append(Requirement(kind, of_type=_type_name(r.get("of_type"), f"{what} of_type", problems),
                                        count=count))
        else:
            extra = set(r) - {"type"}
            if extra:
                problems.append(f"{what} ({kind}) takes no {', '.join(sorted(extra))}")
            requires.append(Requirement(kind))
    rkinds = [r.kind for r in requires]
    if "alone" in rkinds and "type_group" in rkinds:
        problems.append("requires both Alone and Type Group, which can never hold together")

    effects = []
    raw_effects = _entries(data, "effects", problems)
    if not raw_effects:
        problems.append("has no effects (an ability must do something)")
    for n, e in enumerate(raw_effects, start=1):
        what = f"effect {n}"
        if not isinstance(e, dict) or not _known(e.get("type"), EFFECTS, f"{what} type", problems):
            continue
        kind = e["type"]
        target = e.get("target")
        if not _known(target, TARGETS[kind], f"{what} ({kind}) target", problems):
            continue
        amount = 0
        if kind == "damage":
            amount = _int(e.get("amount"), f"{what} (damage) amount", problems, minimum=1)
        elif kind in ("base_power", "power"):
            amount = _int(e.get("amount"), f"{what} ({kind}) amount", problems)
            if amount == 0:
                problems.append(f"{what} ({kind}) changes nothing (amount 0)")
        scope = e.get("scope", "land")
        _known(scope, SCOPES, f"{what} scope", problems)
        if target == "enemy" and when != "activated":
            problems.append(f"{what}: only an activated ability can pick 'one enemy'; a passive one must say "
                            "'enemies'")
        effects.append(Effect(kind, target, amount, _type_name(e.get("of_type"), f"{what} of_type", problems),
                              scope))
    if sum(1 for e in effects if e.target == "enemy") > 1:
        problems.append("picks 'one enemy' in two effects; use one damage effect")
    if problems:
        raise CardError(f"{where}: " + "; ".join(problems))
    return Ability(name, when == "activated", tuple(costs), tuple(requires), tuple(effects))


def _check_fields(card: Card, allowed: set, problems: list) -> None:
    unknown = set(card.attrs) - allowed
    if unknown:
        problems.append(f"unknown {'field' if len(unknown) == 1 else 'fields'} {', '.join(sorted(unknown))}")


def parse_creature(card: Card, biomes: Biomes) -> Creature:
    """A creature from a catalogue card; raises :class:`CardError` naming the card and every problem."""
    where = f"{card.id} ({card.name})"
    a = card.attrs
    problems: list[str] = []
    _check_fields(card, {"kind", "species", "types", "base_power", "biomes", "abilities", "discount", "cost",
                         "stars", "notes"}, problems)
    species = a.get("species", "")
    if not isinstance(species, str):
        problems.append(f"species must be text, not {species!r}")
        species = ""
    types = a.get("types", [])
    if not isinstance(types, list) or not all(isinstance(t, str) and t for t in types):
        problems.append(f"types must be a list of names, not {types!r}")
        types = []
    base = _int(a.get("base_power"), "base_power", problems, minimum=0)
    printed = a.get("biomes", {})
    plays_as: dict[str, int] = {}
    if not isinstance(printed, dict):
        problems.append(f"biomes must map biome → bonus, not {printed!r}")
        printed = {}
    for biome, bonus in printed.items():
        if biome not in biomes:
            problems.append(f"biome {biome!r} is neither a base biome nor a custom one")
            continue
        bonus = _int(bonus, f"bonus for {biome}", problems)
        canonical = biomes.canonical(biome)
        if canonical in plays_as:
            problems.append(f"two bonuses for {biomes.label(canonical)} ({biome!r} counts as {canonical!r})")
        plays_as[canonical] = bonus
    abilities = []
    raw_abilities = a.get("abilities", [])
    if not isinstance(raw_abilities, list):
        problems.append(f"'abilities' must be a list, not {raw_abilities!r}")
        raw_abilities = []
    for n, ab in enumerate(raw_abilities, start=1):
        try:
            abilities.append(parse_ability(ab, biomes, f"ability {n}"))
        except CardError as exc:
            problems.append(str(exc))
    names = [ab.name for ab in abilities]
    if len(set(names)) != len(names):
        problems.append("two abilities share a name; players name abilities to activate them")
    discount = _int(a.get("discount", 0), "discount", problems, minimum=0)
    cost = a.get("cost")
    stars = a.get("stars")
    if problems:
        raise CardError(f"{where}: " + "; ".join(problems))
    return Creature(card.id, card.name, species, frozenset(t.lower() for t in types), base, dict(printed),
                    plays_as, tuple(abilities), discount, cost, stars)


def parse_land(card: Card, biomes: Biomes) -> Land:
    where = f"{card.id} ({card.name})"
    a = card.attrs
    problems: list[str] = []
    _check_fields(card, {"kind", "biome", "passive", "notes"}, problems)
    biome = a.get("biome")
    if biome not in biomes:
        raise CardError(f"{where}: biome {biome!r} is neither a base biome nor a custom one")
    passive = a.get("passive")
    effects = []
    pname = ""
    if passive is not None:
        if not isinstance(passive, dict):
            raise CardError(f"{where}: 'passive' must be an object with a name and effects")
        pname = passive.get("name") or "Passive"
        for n, e in enumerate(_entries(passive, "effects", problems), start=1):
            what = f"passive effect {n}"
            if not isinstance(e, dict) or not _known(e.get("type"), LAND_EFFECTS, f"{what} type", problems):
                continue
            amount = _int(e.get("amount"), f"{what} amount", problems)
            if e["type"] == "recovery" and amount < 2:
                problems.append(f"{what}: a recovery land removes at least 2 counters (every land removes 1)")
            if amount == 0:
                problems.append(f"{what} changes nothing (amount 0)")
            extra = set(e) - {"type", "amount", "of_type", "home"}
            if extra:
                problems.append(f"{what}: unknown {'field' if len(extra) == 1 else 'fields'} {', '.join(sorted(extra))}")
            effects.append(LandEffect(e["type"], amount, _type_name(e.get("of_type"), f"{what} of_type", problems),
                                      bool(e.get("home", False))))
        if not effects and not problems:
            problems.append("passive has no effects")
    if problems:
        raise CardError(f"{where}: " + "; ".join(problems))
    return Land(card.id, card.name, biome, biomes.canonical(biome), pname, tuple(effects))


# ---------------------------------------------------------------- the catalogue
@dataclass
class TerritoryCatalogue:
    """Every land and creature of the game, parsed and checked."""

    biomes: Biomes
    creatures: dict[str, Creature]
    lands: dict[str, Land]
    decks: dict[str, dict]

    def creature(self, card_id: str) -> Creature | None:
        return self.creatures.get(card_id)

    def land(self, card_id: str) -> Land | None:
        return self.lands.get(card_id)

    def name(self, card_id: str) -> str:
        c = self.creatures.get(card_id)
        if c is not None:
            return c.label
        land = self.lands.get(card_id)
        return land.name if land is not None else card_id


def _custom_biomes(path: Path) -> list[dict]:
    if not path.exists():
        return []
    from companion import validate                 # a players' file: bounded like every input file
    from companion.cards import MAX_CARD_FILE_BYTES
    try:
        doc = validate.parse_json(validate.read_text(path, MAX_CARD_FILE_BYTES, "card file"), str(path))
    except validate.InputError as exc:
        raise CatalogueError(str(exc)) from None
    return doc.get("biomes", []) if isinstance(doc, dict) else []


def build_catalogue(cards: list[Card], custom_biomes: list[dict], decks: dict | None = None,
                    source: str = "territory cards", biomes: Biomes | None = None) -> TerritoryCatalogue:
    """Parse every card; all problems are reported together so a designer fixes them in one go."""
    if biomes is None:
        biomes = Biomes(custom_biomes, source)
    else:
        biomes.add(custom_biomes, source)
    creatures, lands, problems = {}, {}, []
    for card in cards:
        kind = card.get("kind")
        try:
            if kind == "creature":
                creatures[card.id] = parse_creature(card, biomes)
            elif kind == "land":
                lands[card.id] = parse_land(card, biomes)
            else:
                problems.append(f"{card.id} ({card.name}): 'kind' must be 'creature' or 'land', not {kind!r}")
        except CardError as exc:
            problems.append(str(exc))
    if problems:
        raise CardError(f"{source}: " + " | ".join(problems))
    return TerritoryCatalogue(biomes, creatures, lands, dict(decks or {}))


def load(user_dir: Path | None = None) -> TerritoryCatalogue:
    """The shipped catalogue (plus a player's own cards and biomes from ``user_dir``), checked.

    Only an explicit ``user_dir`` is merged here: at the table, players' cards
    reach a game through its ``cards`` option, so its record replays anywhere.
    """
    cards = list(load_catalogue(GAME, user_dir)) if user_dir is not None else \
        read_catalogue_file(DATA_DIR / GAME / "cards.json", GAME)
    custom = _custom_biomes(DATA_DIR / GAME / "cards.json")
    if user_dir is not None:
        custom += _custom_biomes(Path(user_dir) / "cards" / f"{GAME}.json")
    decks_path = DATA_DIR / GAME / "decks.json"
    decks = json.loads(decks_path.read_text(encoding="utf-8"))["decks"] if decks_path.exists() else {}
    return build_catalogue(cards, custom, decks, str(DATA_DIR / GAME / "cards.json"))
