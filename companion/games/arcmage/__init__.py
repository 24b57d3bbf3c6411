"""Arcmage / Gaia, the Original Rules Concept (``shared/rules/003_…``).

``RULES`` is the engine (:mod:`.rules`; the turn skeleton it follows is :mod:`.skeleton`, how a card on a pad becomes an action :mod:`.table`, what each seat sees :mod:`.view`); :func:`validate_deck` checks a deck for
the deck screen (:mod:`.decks`); the catalogue and the two sample decks live in
``companion/data/arcmage/``.
"""
from companion.games.arcmage.decks import sample_decks, validate_deck
from companion.games.arcmage.rules import RULES, ArcmageRules

__all__ = ["RULES", "ArcmageRules", "validate_deck", "sample_decks"]
