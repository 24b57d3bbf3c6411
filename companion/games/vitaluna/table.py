"""Vita Luna at the table: its zones (four white and four grey pads per seat and the scan pad), how a
card on a pad becomes an action, and the confirm button.
"""
from __future__ import annotations

from companion.engine import Action, IllegalAction, State, Zone
from companion.games.vitaluna.cards import COLOURS, Creature, Singular, _shipped_table, card_table
from companion.games.vitaluna.combat import GREY

SCAN = "scan"
ZONE_IDS = tuple(tuple([f"{s}.white{n}" for n in range(1, 5)] + [f"{s}.grey{n}" for n in range(1, 5)])
                 for s in (0, 1))
SLOT_OF = {zone: (s, slot) for s in (0, 1) for slot, zone in enumerate(ZONE_IDS[s])}
BETWEEN_BATTLES = ("placement", "rewards", "exchange")


def slot_label(slot: int) -> str:
    """"white 2", "grey 1"."""
    return f"white {slot + 1}" if slot < 4 else f"grey {slot - 3}"


SLOT_LABELS = tuple(slot_label(slot) for slot in range(8))


def steps_to_heart(options: dict) -> int:
    """Battles an attacker must win to reach the heart: middle → red circle → heart, one more circle extended."""
    return 3 if options.get("extended") else 2


class VitaLunaTable:
    """The table part of :class:`~.rules.VitaLunaRules`: its zones, what a card on a pad means, the confirm button;
    what a card is (this game's card table) and where it lies."""

    # ---- the cards and where they lie ------------------------------------------------------------------------
    @staticmethod
    def table(state: State) -> dict:
        edits = state["options"]["card_edits"]
        if not edits and _shipped_table:      # the common case, asked on nearly every action
            return _shipped_table[0]
        return card_table(edits)

    @staticmethod
    def _names(state: State) -> list[str]:
        return state["options"]["players"]

    def _creature(self, state: State, card: str) -> Creature:
        entry = self.table(state).get(card)
        if entry is None:
            raise IllegalAction(f"{card!r} is not a Vita Luna card in this companion's catalogue")
        if isinstance(entry, Singular):
            raise IllegalAction(f"{entry.name} is a singular card: play it on the shared pad during your turn")
        return entry

    @staticmethod
    def _where(state: State, card: str) -> tuple[int, int] | None:
        for s in (0, 1):
            row = state["board"][s]
            if card in row:
                return s, row.index(card)
        return None

    # ---- the table ---------------------------------------------------------------------------------------
    def zones(self, options: dict) -> list[Zone]:
        players = (options or {}).get("players", ["North", "South"])
        out = [Zone(ZONE_IDS[s][slot], f"{players[s]} {slot_label(slot)}", s) for s in (0, 1) for slot in range(8)]
        out.append(Zone(SCAN, "Shared pad: singular cards, rewards, exchanges, bidding", None))
        return out

    def interpret(self, state: State, zone: str, card_id: str, present: bool) -> Action | None:
        phase = state["phase"]
        names = self._names(state)
        entry = self.table(state).get(card_id)
        if entry is None:
            raise IllegalAction(f"{card_id} is not in the Vita Luna catalogue: add it on the Cards screen")
        if zone == SCAN:
            return self._interpret_scan(state, entry, present) if present else None
        where = SLOT_OF.get(zone)
        if where is None:
            raise IllegalAction(f"{zone!r} is not a Vita Luna zone")
        seat, slot = where
        here = state["board"][seat][slot]
        if not present:
            if here == card_id and phase in BETWEEN_BATTLES:
                return {"type": "unplace", "seat": seat, "zone": zone}
            return None                     # a dead creature lifted, or a card lifted to be moved
        self._creature(state, card_id)      # a singular card goes on the shared pad
        if here == card_id:
            return None
        if phase == "placement":
            return {"type": "place", "seat": seat, "zone": zone, "card": card_id}
        other = self._where(state, card_id)

        def refuse(text: str) -> IllegalAction:
            # a card put on a grey pad, or one that lies face down in a reserve, is named only for
            # the player whose card it is; everybody else reads "a card"
            full = text.replace("{card}", entry.name)
            secret = other[0] if other and other[1] in GREY else seat if slot in GREY else None
            if secret is None:
                return IllegalAction(full)
            redacted = text.replace("{card}", "A card" if text.startswith("{card}") else "a card")
            return IllegalAction(full, redacted=redacted, hidden_from=[1 - secret])

        if phase == "battle":
            turn = state["turn"]

            if card_id in state["dead"][0] or card_id in state["dead"][1]:
                raise refuse("{card} died in this battle: it stays out until the next one")
            if card_id not in state["board"][seat]:
                if other:
                    raise refuse(f"{{card}} is {names[other[0]]}'s, on {slot_label(other[1])}: put it back there")
                raise refuse("{card} is not in this battle: cards join between battles only")
            if seat != turn["seat"]:
                raise refuse(f"it is {names[turn['seat']]}'s turn: put {{card}} back on "
                             f"{slot_label(state['board'][seat].index(card_id))}")
            return {"type": "move", "seat": seat, "card": card_id, "to": zone}
        if phase in ("rewards", "exchange"):
            raise refuse(f"{{card}}: cards are placed once the rewards and exchanges are done "
                         f"({self._phase_label(state)})")
        raise refuse(f"{{card}}: no cards are placed now ({self._phase_label(state)})")

    def _interpret_scan(self, state: State, entry, _present: bool) -> Action:
        phase = state["phase"]
        names = self._names(state)
        seat = self.active_seat(state)
        if isinstance(entry, Singular):
            if phase != "battle":
                raise IllegalAction(f"{entry.name} is played during a battle, at the start of your turn")
            return {"type": "singular", "seat": seat, "name": entry.singular}
        if phase == "rewards":
            return {"type": "reward", "seat": seat, "card": entry.id}
        if phase == "exchange":
            return {"type": "exchange", "seat": seat, "card": entry.id}
        if phase == "bidding" and state["bidding"]["stage"] in COLOURS and state["bidding"]["card"] is None:
            return {"type": "reveal", "card": entry.id}
        if phase == "battle":
            raise IllegalAction(f"{entry.name}: during a battle the shared pad takes singular cards; creatures "
                                f"go on {names[seat]}'s positions")
        if phase == "placement":
            raise IllegalAction(f"{entry.name}: creatures are placed on {names[seat]}'s white or grey positions, "
                                "not on the shared pad")
        raise IllegalAction(f"{entry.name}: the shared pad takes nothing now ({self._phase_label(state)})")

    def scan_for(self, state: State, action: Action) -> tuple[str, str] | None:
        kind = action.get("type")
        if kind == "place":
            return action["zone"], action["card"]
        if kind == "move":
            return action["to"], action["card"]
        if kind == "singular":
            return SCAN, f"vitaluna.{action['name']}-{action['seat'] + 1}"
        if kind in ("reward", "exchange", "reveal") and action.get("card"):
            return SCAN, action["card"]
        return None

    def confirm_action(self, state: State, seat: int) -> Action | None:
        phase = state["phase"]
        if phase == "placement" and seat == state["placing"] and any(state["board"][seat]):
            return {"type": "done", "seat": seat}
        if phase == "battle" and seat == state["turn"]["seat"] and not state["turn"]["pending"]:
            return {"type": "attack", "seat": seat}
        if phase == "exchange" and seat == state["exchanging"] and not state["exchange"]:
            return {"type": "done", "seat": seat}
        return None
