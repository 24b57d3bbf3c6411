"""Words for players: a number with its noun in agreement ("1 action", "2 actions")."""
from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun`` in agreement: ``counted(1, "action")`` → "1 action"; ``counted(3, "action")`` →
    "3 actions" (``plural`` where adding an s is wrong)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
