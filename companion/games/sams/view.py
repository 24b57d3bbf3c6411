"""Sam's Battle Game: what each seat and the shared screen may see (face-down buffs stay hidden
until the lanes are resolved; the companion's holder is never shown).
"""
from __future__ import annotations

from companion.engine import State, counter
from companion.games.sams.cards import _INFO, CARDS_PER_TURN, LANES, TURNS, is_face_down, lane_strength, lane_zone
from companion.games.sams.solo import _solo_view, solo_instruction
from companion.words import counted


class SamsView:
    """The view part of :class:`~.rules.SamsRules`."""

    # ---- what may be seen ----------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict:
        players = state["options"]["players"]
        revealed = state["phase"] != "play"
        zones = {}
        for s in (0, 1):
            for lane in range(LANES):
                stack = state["lanes"][s][lane]
                shown, hidden = [], 0
                for pos, card in enumerate(stack):
                    if is_face_down(pos) and not revealed and seat != s:
                        shown.append({"hidden": True})
                        hidden += 1
                    else:
                        shown.append(card)
                zones[lane_zone(s, lane)] = {"cards": shown, "summary": _stack_summary(stack, shown, hidden)}
        to_play = self.to_play(state)
        if state["phase"] == "play":
            phase_label = (f"Round {state['round']}, turn {state['turn']} of {TURNS}: {players[to_play]} plays "
                           f"card {state['played'][to_play] + 1} of {CARDS_PER_TURN}")
            awaiting = "scan"
            if "solo" in state and state["solo"]["seat"] == to_play:
                phase_label = solo_instruction(state)
        elif state["phase"] == "round_over":
            phase_label = f"Round {state['round']} scored — clear the table and press Next round"
            awaiting = "confirm"
        else:
            phase_label = f"{players[state['winner']]} wins the game"
            awaiting = None
        last = state["rounds"][-1] if state["rounds"] and revealed else None
        return {
            "game": self.name, "players": players, "phase": state["phase"], "phase_label": phase_label,
            "active_seat": to_play, "awaiting": awaiting, "over": self.is_over(state),
            "result": self.result(state) if self.is_over(state) else None,
            "counters": [counter(f"vp.{s}", s, "VP", state["vp"][s]) for s in (0, 1)]
                        + [counter(f"hand.{s}", s, "Hand", state["hand"][s], adjustable=False) for s in (0, 1)]
                        + [counter("pile", None, "Draw pile", state["pile"], adjustable=False),
                           counter("discard", None, "Discard", state["discard"], adjustable=False),
                           counter("set_aside", None, "Separate pile", state["set_aside"], adjustable=False)],
            "zones": zones,
            "detail": {"round": state["round"], "turn": state["turn"], "turns": TURNS, "first": state["first"],
                       "played": state["played"], "last_round": last,
                       "may_redraw": [self._may_redraw(state, s) for s in (0, 1)],
                       "solo": _solo_view(state, seat)},
        }




def _stack_summary(stack: list[str], shown: list, hidden: int) -> str:
    """"3 cards · attack 7 · defence 5", or only what is visible while buffs are face down."""
    if not stack:
        return "empty"
    if hidden:
        red = sum(_INFO[c][0] for c in shown if isinstance(c, str) and _INFO[c][1])
        black = sum(_INFO[c][0] for c in shown if isinstance(c, str) and not _INFO[c][1])
        return f"{counted(len(stack), 'card')} ({hidden} hidden) · visible attack {red} · visible defence {black}"
    attack, defence = lane_strength(stack)
    return f"{counted(len(stack), 'card')} · attack {attack} · defence {defence}"
