"""The companion's card holder in solo play (Sam's and Lifeforce).

The person slots each card drawn for the companion face down into a holder
with numbered slots.  A slot emptied by a play is filled again first, so the
cards that stay keep their numbers and the screen's "slot 3" always means the
same card.
"""
from __future__ import annotations

from companion.engine import IllegalAction


def take(slots: list, card: str, size: int, who: str) -> tuple[list, int]:
    """``slots`` with ``card`` in the first free slot, and that slot's index."""
    slots = list(slots)
    slot = slots.index(None) if None in slots else len(slots)
    if slot >= size:
        raise IllegalAction(f"{who}'s holder is full")
    if slot == len(slots):
        slots.append(card)
    else:
        slots[slot] = card
    return slots, slot


def slot_sentence(slot: int, who: str) -> str:
    """What the screen says after a tap on the hand pad; the slot comes first, so a narrow
    status line shortens it to "Slot 3 of South's holder"."""
    return f"Slot {slot + 1} of {who}'s holder: put that card there, face down"
