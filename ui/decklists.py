"""The decks players can pick from: each seat's deck of the game being played, or the shipped ones.

Shipped deck lists live in ``companion/data/<game>/decks.json``; each game
wrote its own shape (a list of ``cards``, a ``main`` of counts plus
``regions``, or ``creatures`` plus ``lands``), so this reads all three and
gives ``(name, [card id, …])`` with a card repeated once per copy.
No Kivy here: the simulated table's filter and the Cards screen's enrolment
both use it.
"""
from __future__ import annotations

import json

from companion.cards import DATA_DIR


def shipped_decks(game: str) -> list[tuple[str, list[str]]]:
    path = DATA_DIR / game / "decks.json"
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    decks = doc.get("decks", []) if isinstance(doc, dict) else []
    entries = decks.values() if isinstance(decks, dict) else decks
    out = []
    for deck in entries:
        if not isinstance(deck, dict):
            continue
        cards: list[str] = []
        cards += list(deck.get("regions", []))
        for key in ("cards", "creatures", "lands"):
            cards += list(deck.get(key, []))
        for card_id, copies in (deck.get("main") or {}).items():
            cards += [card_id] * int(copies)
        if cards:
            out.append((str(deck.get("name") or deck.get("id") or f"deck {len(out) + 1}"), cards))
    return out


def seat_decks(options: dict) -> list[list[str]] | None:
    """Each seat's deck list when the game was set up with one (Lifeforce's ``decks`` option)."""
    decks = options.get("decks")
    if isinstance(decks, list) and len(decks) == 2 and all(isinstance(d, list) for d in decks):
        return decks
    return None


def short_deck_name(name: str) -> str:
    """"Gaian Grove (Gaian + House of Nobles)" → "Gaian Grove": a name that fits a button."""
    return name.split(" (", 1)[0]


#: card attributes worth showing beside a card's name on the simulated table, in order
VALUE_FORMATS = (("role", "{}"), ("lifespan_min", "{}–"), ("lifespan_max", "{} y"), ("cost", "cost {}"),
                 ("atk", "atk {}"), ("attack", "atk {}"), ("defence", "def {}"), ("health", "hp {}"),
                 ("hp", "HP {}"), ("base_power", "power {}"), ("biome", "{}"), ("singular", "singular card"))


def card_values(card) -> str:
    """The numbers a player looks for on a card ("attack 7", "red · 15 y", "atk 2 · def 3")."""
    attrs = card.attrs
    parts = []
    if "role" in attrs and "rank" in attrs:
        return f"{attrs['role']} {attrs['rank']}"
    if attrs.get("colour") and "lifespan_max" in attrs:
        parts.append(str(attrs["colour"]))
    for key, fmt in VALUE_FORMATS:
        if key in attrs and not isinstance(attrs[key], (dict, list)):
            parts.append(fmt.format(attrs[key]))
    text = " · ".join(parts).replace("– · ", "–")
    return text or str(attrs.get("kind") or attrs.get("type") or "")
