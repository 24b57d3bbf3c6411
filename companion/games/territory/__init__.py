"""Creature Combat Territory (``shared/rules/002_…``): see :mod:`.rules` for the engine,
:mod:`.cards` for the card model, :mod:`.pricing` for the cost calculator and
:mod:`.table` for zones, scans and what each seat may see."""
from .catalogue import CATALOGUE
from .rules import RULES, TerritoryRules

__all__ = ["CATALOGUE", "RULES", "TerritoryRules"]
