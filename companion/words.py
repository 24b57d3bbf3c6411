"""Words for players: a number with its noun in agreement ("1 action", "2 actions").

In the core so that a game's view (its zone summaries) and the app say counts the same way.
"""
from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun`` in agreement, never "card(s)":

    >>> counted(1, "action"), counted(3, "action"), counted(0, "copy", "copies")
    ('1 action', '3 actions', '0 copies')
    """
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
