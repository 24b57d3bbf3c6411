"""Vita Luna: creature cards battle on white and grey positions; winning attacks move a
counter along the track to the opponent's heart.  See :mod:`.rules`."""
from companion.games.vitaluna.rules import RULES, VitaLunaRules

__all__ = ["RULES", "VitaLunaRules"]
