"""Gaiaton Lifeforce Battle: 50-card animal decks, attack and counterattack with support.

* :mod:`.animals` — the catalogue (real animals, real maximum lifespans) and colour strengths;
* :mod:`.decks` — the deck building rules (:func:`validate_deck`) and the sample decks;
* :mod:`.rules` — the rules engine, ``RULES``.

The deck screen calls ``validate_deck(card_ids)`` (also ``RULES.validate_deck``).
"""
from companion.games.lifeforce.decks import load_decks, sample_decks, validate_deck
from companion.games.lifeforce.rules import RULES, LifeforceRules

__all__ = ["RULES", "LifeforceRules", "validate_deck", "sample_decks", "load_decks"]
