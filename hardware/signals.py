"""What the lights say: session state and standard events → a :class:`Look` per light.

Pure functions of the shared view (``rules.view(state, None)``) and the
standard events of :mod:`companion.engine`, so every game gets the same
signals without the lights knowing the game.  ``docs/leds.md`` is the
players' version of this module.

Turn lights (one per seat, in the seat's colour: blue for seat 0, orange for
seat 1):

==========================================  ========================================
the game                                    the seat's light
==========================================  ========================================
your move, a card is awaited on a pad        pulses (breathes)
your move, a button press is awaited         two short blinks, a pause
your move, a choice on the screen            steady, full brightness
the other player's move                      steady, dim
game over, you won (or a drawn game)         slow blink
game over, you lost                          off
==========================================  ========================================

With ``active_seat`` None (both may act, e.g. "press Next") both lights show
the awaited signal.

A decided battle flashes once on top of that, then the turn signal returns:
the winner's light three quick blinks while the loser's goes dark; a tie two
long blinks on both; a draw one dim glow on both.  When one change decides
several battles at once (Sam's five lanes), the turn lights flash the
round's ``round_result`` (or, without one, the sum of the battles: the seat
that won more of them wins the flash) and the lane lights show each battle.
"""
from __future__ import annotations

from dataclasses import dataclass

from hardware.leds import DIM, OFF, SEAT_COLOURS, Look


def seat_look(view: dict, seat: int) -> Look:
    """The steady turn signal of ``seat``'s light for the shared ``view``."""
    colour = SEAT_COLOURS[seat]
    if view.get("over"):
        winner = (view.get("result") or {}).get("winner")
        return Look(colour, "blink") if winner in (None, seat) else OFF
    active = view.get("active_seat")
    awaiting = view.get("awaiting")
    if active == seat or (active is None and awaiting is not None):
        return Look(colour, {"scan": "pulse", "confirm": "double_blink"}.get(awaiting, "solid"))
    return Look(colour, "solid", DIM)


def solo_target(view: dict) -> tuple[str, int] | None:
    """(zone, seat) where the companion's seat plays its decided card next (solo play), or None:
    the light of that zone's pad pulses in the companion's colour until the card lies there.

    The engine names the zone in ``detail.solo.target`` (a Sam's lane, a Lifeforce attacker or
    support pad); a view without it (an older Sam's record) gives the decision's lane."""
    solo = (view.get("detail") or {}).get("solo")
    if not solo or not solo.get("decision") or view.get("active_seat") != solo.get("seat"):
        return None
    if solo.get("target"):
        return solo["target"], solo["seat"]
    if "lane" not in solo["decision"]:
        return None
    return f"{solo['seat']}.lane{solo['decision']['lane'] + 1}", solo["seat"]


@dataclass(frozen=True)
class BattleOutcome:
    """``winner`` (a seat or None) and ``outcome`` ("win", "tie", "draw") of one or more battles."""

    winner: int | None
    outcome: str


def battle_outcome(events: list[dict]) -> BattleOutcome | None:
    """The outcome the turn lights flash for the ``battle_result`` events of one change.

    A ``round_result`` among them (a round that scores several battles, as
    Sam's five lanes) is what the round decided, and wins.  Otherwise, one
    battle: its own outcome.  Several: the seat that won more of them wins;
    equal wins (or only ties) make a tie; only draws a draw.
    """
    for e in events:
        if e.get("type") == "round_result":
            return BattleOutcome(e.get("winner"), e.get("outcome", "win" if e.get("winner") is not None else "tie"))
    battles = [e for e in events if e.get("type") == "battle_result"]
    if not battles:
        return None
    if len(battles) == 1:
        return BattleOutcome(battles[0].get("winner"), battles[0].get("outcome", "draw"))
    wins = [sum(1 for b in battles if b.get("outcome") == "win" and b.get("winner") == s) for s in (0, 1)]
    if wins[0] != wins[1]:
        return BattleOutcome(0 if wins[0] > wins[1] else 1, "win")
    if wins[0] or any(b.get("outcome") == "tie" for b in battles):
        return BattleOutcome(None, "tie")
    return BattleOutcome(None, "draw")


def seat_flash(outcome: BattleOutcome, seat: int) -> Look:
    """The one-off flash of ``seat``'s light for a decided battle."""
    colour = SEAT_COLOURS[seat]
    if outcome.outcome == "win" and outcome.winner is not None:
        return Look(colour, "win") if outcome.winner == seat else Look(colour, "loss")
    if outcome.outcome == "tie":
        return Look(colour, "tie")
    return Look(colour, "draw")


def lane_look(result: BattleOutcome | None, kind: str, seat: int | None) -> Look:
    """A lane light after the battle fought beside it (``result`` None: no battle shown).

    An RGB lane light shows the winner's colour, white for a tie and dim
    white for a draw.  A plain lane light belongs to one ``seat``: on when that
    seat won the lane, dim for a tie, off otherwise.
    """
    if result is None:
        return OFF
    if kind == "rgb":
        if result.outcome == "win" and result.winner is not None:
            return Look(SEAT_COLOURS[result.winner])
        return Look("white", "solid", 1.0 if result.outcome == "tie" else DIM)
    if result.outcome == "win" and result.winner == seat:
        return Look(SEAT_COLOURS[seat])
    if result.outcome == "tie":
        return Look(SEAT_COLOURS[seat], "solid", DIM)
    return OFF


def is_refusal(event: dict) -> bool:
    """Events that sound the buzzer: a scan the rules refused, an unknown tag, a refused button."""
    return event.get("type") in ("rejected", "unknown_tag", "button_rejected")


class LaneMemory:
    """Which battle each zone last saw, for the lane lights.

    A zone keeps its result until the cards in any zone of that battle change (the table was
    cleared, a new round began) or an undo goes back to before the battle.
    Snapshots are kept per number of logged actions so that undo restores
    exactly what the lights showed at that point.
    """

    def __init__(self):
        # zone → (result, the cards then in every zone of that battle)
        self.results: dict[str, tuple[BattleOutcome, dict]] = {}
        self._by_count: dict[int, dict] = {}

    def update(self, view: dict, events: list[dict], action_count: int) -> None:
        """Take in one change: its events and the view after it."""
        if any(e.get("type") == "undone" for e in events):
            self.results = dict(self._by_count.get(action_count, {}))
        else:                                    # a new action: later snapshots belong to an undone branch
            for count in [c for c in self._by_count if c > action_count]:
                del self._by_count[count]
        zones = view.get("zones") or {}

        def cards(zone: str):
            return (zones.get(zone) or {}).get("cards")

        for e in events:
            if e.get("type") == "battle_result":
                result = BattleOutcome(e.get("winner"), e.get("outcome", "draw"))
                then = {zone: cards(zone) for zone in e.get("zones") or []}
                for zone in then:
                    self.results[zone] = (result, then)
        self.results = {zone: (result, then) for zone, (result, then) in self.results.items()
                        if all(cards(z) == c for z, c in then.items())}
        self._by_count[action_count] = dict(self.results)

    def result_for(self, zones: set[str]) -> BattleOutcome | None:
        """The latest battle fought in any of ``zones`` (a lane light's zones)."""
        found = [self.results[z][0] for z in sorted(zones) if z in self.results]
        return found[0] if found else None
