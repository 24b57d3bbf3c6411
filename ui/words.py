"""Words for players: a number with its noun in agreement ("1 action", "2 actions").

The one definition is :func:`companion.words.counted` (a game's view uses it too)."""
from __future__ import annotations

from companion.words import counted

__all__ = ["counted"]
