"""What the table says aloud (issue 25, spoken results; off by default).

Battle, round and game results and whose turn it is, made only from what the
shared screen shows: the events redacted for the whole table
(``session.public_events``) and the shared view (``view(state, None)``).  A
card lying face down never reaches these, so no sentence can name it.  The
sentences are the screen's own, with its symbols said in words.
"""
from __future__ import annotations

#: the events that are said aloud (a play, a hit or a note is read on the table, not heard)
SPOKEN_EVENTS = ("battle_result", "round_result", "game_over")

#: symbols of the screen's sentences, as they are said
SAID = {"≥": " at least ", "≤": " at most ", "–": " to ", "—": ", ", "·": ",", "→": " to ", "♥": " of hearts",
        "♦": " of diamonds", "♠": " of spades", "♣": " of clubs", "×": " times ", "#": "number "}


def plain(text: str) -> str:
    """A screen sentence as it is said: "9 ≥ defence 3" → "9 at least defence 3"."""
    for symbol, words in SAID.items():
        text = text.replace(symbol, words)
    return " ".join(text.split())


def sentences(public_events: list[dict], view: dict, last_turn: int | None) -> tuple[list[str], int | None]:
    """What to say after a change: its results, and whose turn it is when that changed.

    ``public_events`` are the change's events redacted for the shared screen, ``view`` the shared
    view after it, ``last_turn`` the seat whose turn was said last; returns the sentences and the
    seat said now.
    """
    said = [plain(e["text"]) for e in public_events if e.get("type") in SPOKEN_EVENTS and e.get("text")]
    seat = view.get("active_seat")
    over = view.get("over") or any(e.get("type") == "game_over" for e in public_events)
    players = view.get("players") or ["North", "South"]
    if not over and seat in (0, 1) and seat != last_turn:
        said.append(f"{players[seat]}'s turn")
        last_turn = seat
    return said, last_turn
