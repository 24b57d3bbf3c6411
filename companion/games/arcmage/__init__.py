"""Arcmage / Gaia, the Original Rules Concept (``shared/rules/003_…``).

``RULES`` is the engine (:mod:`.game`); :func:`validate_deck` checks a deck for
the deck screen (:mod:`.decks`); the catalogue and the two sample decks live in
``companion/data/arcmage/``.
"""
from companion.games.arcmage.decks import sample_decks, validate_deck
from companion.games.arcmage.game import RULES, ArcmageRules

__all__ = ["RULES", "ArcmageRules", "validate_deck", "sample_decks"]
