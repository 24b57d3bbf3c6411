"""Deck building rules of the Original Rules Concept ("Deck Building").

A deck is a main deck of exactly 60 cards plus a region deck (the chapter) of
1 to 3 regions of one faction, in chapter order (I on top, then II, then III).
At most 4 copies of a card, unless the card says otherwise; cards with the same
card number *or* the same name are copies of each other whatever their version::

    >>> from companion.games.arcmage.decks import sample_decks, validate_deck
    >>> deck = sample_decks()["gaian-grove"]
    >>> validate_deck(deck["main"], deck["regions"])
    []
    >>> scanned = [c for c, n in deck["main"].items() for _ in range(n)] + deck["regions"][::-1]
    >>> validate_deck(scanned)        # the deck screen: one list, regions found by type
    []
    >>> for problem in validate_deck({"arcmage.elf-druid": 5}, []):
    ...     print(problem)
    The main deck has 5 cards; it must have exactly 60.
    5 copies of Elf Druid (number 101); at most 4 are allowed.
    There is no region: the chapter needs 1 to 3 region cards.

:func:`validate_deck` reports every violation at once, each in a sentence for
the deck screen; an empty list means the deck is legal.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from companion.cards import DATA_DIR, Catalogue
from companion.engine import IllegalAction
from companion.games.arcmage import cards as arc

MAIN_DECK_SIZE = 60
MAX_REGIONS = 3


def _counts(main) -> Counter:
    if isinstance(main, dict):
        return Counter({k: int(v) for k, v in main.items()})
    return Counter(main)


def validate_deck(main, regions=None, catalogue: Catalogue | None = None) -> list[str]:
    """Every deck-building rule ``main`` and ``regions`` break, in player words.

    ``main`` is ``{card_id: copies}`` or a list of card ids (one per physical
    card); ``regions`` lists the chapter's region ids from top (I) to bottom.
    Without ``regions`` (the deck screen scans the whole deck in one go) the
    region cards among ``main`` are the chapter, put in I, II, III order.
    """
    lookup = catalogue.get if catalogue is not None else _known
    problems: list[str] = []
    counts = _counts(main)
    if regions is None:
        regions = []
        for card_id in list(counts):
            c = lookup(card_id)
            if c is not None and c.attrs.get("type") == "region":
                regions += [card_id] * max(counts.pop(card_id), 0)
        regions.sort(key=lambda r: lookup(r).attrs.get("chapter") or 0)
    total = sum(counts.values())
    if total != MAIN_DECK_SIZE:
        problems.append(f"The main deck has {total} cards; it must have exactly {MAIN_DECK_SIZE}.")
    known = {}
    for card_id in list(counts) + list(regions):
        c = lookup(card_id)
        if c is None:
            problems.append(f"{card_id} is not a card the companion knows; add it on the Cards screen first.")
        else:
            known[card_id] = c
    for card_id, n in counts.items():
        if n < 0:
            problems.append(f"{card_id}: a deck cannot hold {n} copies.")
        c = known.get(card_id)
        if c is not None and c.attrs.get("type") == "region":
            problems.append(f"{c.name} is a region: it belongs in the chapter, not the main deck.")
    problems += _copy_problems(counts, regions, known)
    problems += _chapter_problems(regions, known)
    return problems


def _copy_problems(counts: Counter, regions, known: dict) -> list[str]:
    """Cards sharing a number or a name are one card for the 4-copies rule."""
    cards = [(cid, n) for cid, n in counts.items() if cid in known]
    cards += [(cid, 1) for cid in regions if cid in known]
    groups: list[dict] = []          # each: {"numbers", "names", "ids", "count"}
    for card_id, n in cards:
        c = known[card_id]
        number, title = c.attrs.get("number"), c.name.casefold()
        matching = [g for g in groups if (number is not None and number in g["numbers"]) or title in g["names"]]
        merged = {"numbers": set(), "names": set(), "ids": [], "count": 0}
        for g in matching:
            groups.remove(g)
            merged["numbers"] |= g["numbers"]
            merged["names"] |= g["names"]
            merged["ids"] += g["ids"]
            merged["count"] += g["count"]
        if number is not None:
            merged["numbers"].add(number)
        merged["names"].add(title)
        merged["ids"].append(card_id)
        merged["count"] += n
        groups.append(merged)
    problems = []
    for g in groups:
        limit = max(arc.copies_allowed(known[cid]) for cid in g["ids"])
        if g["count"] > limit:
            first = known[g["ids"][0]]
            versions = " (counting every version and card with the same number or name)" if len(g["ids"]) > 1 else ""
            problems.append(f"{g['count']} copies of {first.name} (number {first.attrs.get('number', '?')}){versions}; "
                            f"at most {limit} are allowed.")
    return problems


def _chapter_problems(regions, known: dict) -> list[str]:
    problems = []
    if not regions:
        return ["There is no region: the chapter needs 1 to 3 region cards."]
    if len(regions) > MAX_REGIONS:
        problems.append(f"The chapter has {len(regions)} regions; it may have at most {MAX_REGIONS}.")
    chapter = [known[r] for r in regions if r in known]
    for c in chapter:
        if c.attrs.get("type") != "region":
            problems.append(f"{c.name} is not a region card: only regions go in the chapter.")
    chapter = [c for c in chapter if c.attrs.get("type") == "region"]
    factions = sorted({c.attrs.get("faction", "?") for c in chapter})
    if len(factions) > 1:
        problems.append("The chapter mixes factions (" + ", ".join(arc.faction_label(f) for f in factions)
                        + "); all its regions must be of one faction.")
    positions = [c.attrs.get("chapter") for c in chapter]
    for earlier, later in zip(chapter, chapter[1:]):
        a, b = earlier.attrs.get("chapter"), later.attrs.get("chapter")
        if isinstance(a, int) and isinstance(b, int) and a >= b:
            if a == b:
                problems.append(f"{earlier.name} and {later.name} are both chapter {arc.CHAPTER_NUMERALS.get(a, a)}; "
                                "each position holds one region.")
            else:
                problems.append(f"{later.name} (chapter {arc.CHAPTER_NUMERALS.get(b, b)}) must come before "
                                f"{earlier.name} (chapter {arc.CHAPTER_NUMERALS.get(a, a)}): put the chapter in I, II, III order.")
    for c, p in zip(chapter, positions):
        if p not in arc.CHAPTER_NUMERALS:
            problems.append(f"{c.name} has no chapter position (I, II or III) in the catalogue.")
    return problems


def _known(card_id: str):
    try:
        return arc.card(card_id)
    except IllegalAction:
        return None


def sample_decks() -> dict[str, dict]:
    """The two legal decks shipped in ``companion/data/arcmage/decks.json``, by id."""
    doc = json.loads((Path(DATA_DIR) / arc.GAME / "decks.json").read_text(encoding="utf-8"))
    return {d["id"]: d for d in doc["decks"]}
