"""A Vita Luna battle in progress: the creatures on the board, their health and armour,
the hearts, and the attack step that turns one player's white row into hits.

Positions: each player has four white (in play) and four grey (reserve)
positions.  ``board[seat]`` is a list of 8 slots — 0–3 the white positions in
columns 1–4, 4–7 the grey ones behind them — holding a card id or None.
Column n of one player faces column n of the other.  Each player attacks from
their *own* left to right: seat 0 sits at columns 1→4, seat 1 opposite, so
its left is column 4 (``ATTACK_ORDER``).

A :class:`Fight` is a mutable working copy of the battle part of a state;
``apply`` makes one, changes it and writes it back into the new state, so the
state it was given is never touched::

    fight = Fight.of(state, table)
    events, loser = fight.attack_step(seat=0, names=["North", "South"])
    fight.store(new_state)
"""
from __future__ import annotations

from companion.engine import event
from companion.games.vitaluna.cards import ARMOUR, POISONOUS, PRONGED, RESISTANT, RETALIATE

WHITE = (0, 1, 2, 3)
GREY = (4, 5, 6, 7)
ATTACK_ORDER = ((0, 1, 2, 3), (3, 2, 1, 0))
HEARTS = 10


class Fight:
    __slots__ = ("table", "board", "health", "spent", "heart", "dead")

    def __init__(self, table, board, health, spent, heart, dead):
        self.table = table
        self.board = board          # [[8 slots], [8 slots]]
        self.health = health        # card → health left, only for injured creatures
        self.spent = spent          # set of creatures whose armour is gone this battle
        self.heart = heart          # [hearts of seat 0, of seat 1]
        self.dead = dead            # [[cards of seat 0 out of this battle], [...]]

    @classmethod
    def of(cls, state: dict, table: dict) -> "Fight":
        return cls(table, [list(state["board"][0]), list(state["board"][1])], dict(state["health"]),
                   set(state["spent"]), list(state["heart"]), [list(state["dead"][0]), list(state["dead"][1])])

    def store(self, new: dict) -> None:
        new["board"] = self.board
        new["health"] = self.health
        new["spent"] = sorted(self.spent)
        new["heart"] = self.heart
        new["dead"] = self.dead

    # ---- reading -------------------------------------------------------------
    def hp(self, card: str) -> int:
        return self.health.get(card, self.table[card].health)

    def creatures(self, seat: int) -> int:
        return sum(1 for c in self.board[seat] if c is not None)

    def losers(self) -> list[int]:
        """Seats that have lost: no heart left, or no creature left on white and grey."""
        return [s for s in (0, 1) if self.heart[s] <= 0 or not any(self.board[s])]

    # ---- changing --------------------------------------------------------------
    def kill(self, seat: int, slot: int) -> None:
        card = self.board[seat][slot]
        self.board[seat][slot] = None
        self.health.pop(card, None)
        self.dead[seat].append(card)

    def strike(self, seat: int, slot: int, damage: int, poison: bool) -> str:
        """One hit on the creature at ``board[seat][slot]``; returns what happened, in words.

        Armour absorbs any one hit (poison included); poison kills unless the
        target is resistant (then it is a regular hit); otherwise health drops.
        """
        card = self.board[seat][slot]
        creature = self.table[card]
        if creature.epics & ARMOUR and card not in self.spent:
            self.spent.add(card)
            return "armour absorbs it"
        if poison and not creature.epics & RESISTANT:
            self.kill(seat, slot)
            return "poisoned, dies"
        left = self.hp(card) - damage
        if left <= 0:
            self.kill(seat, slot)
            return "dies"
        self.health[card] = left
        return f"{left} left"

    def attack_step(self, seat: int, names: list[str]) -> tuple[list, int | None]:
        """``seat``'s white creatures attack from their left to right (rules, Fighting).

        Returns the events (one per hit, retaliation and heart damage) and the
        seat that lost the battle, or None.  The battle ends as soon as an
        attack leaves a player with no heart or no creature; when one attack
        does both to both players, its target loses (RULINGS, Vita Luna).
        """
        events: list = []
        table, row, foe = self.table, self.board[seat], 1 - seat
        target_row = self.board[foe]
        for col in ATTACK_ORDER[seat]:
            card = row[col]
            if card is None:
                continue
            creature = table[card]
            if creature.attack <= 0:
                continue
            if creature.epics & PRONGED:
                # one damage on each diagonal, never on the creature opposite; off-board prongs are lost
                targets = [c for c in ((col - 1, col + 1) if seat == 0 else (col + 1, col - 1)) if 0 <= c < 4]
                damage, what = 1, f"{creature.name} (pronged)"
            else:
                targets, damage, what = [col], creature.attack, f"{creature.name} ({creature.attack})"
            poison = bool(creature.epics & POISONOUS)
            if poison:
                what = what[:-1] + ", poisonous)"
            # the dicts engine.event makes, written out (same keys, same order): a battle is mostly hits
            for t in targets:
                victim = target_row[t]
                if victim is None:
                    heart = self.heart[foe] = self.heart[foe] - damage
                    events.append({"seat": seat, "column": col + 1, "target_column": t + 1, "attacker": card,
                                   "target": None, "damage": damage, "heart": heart, "type": "hit",
                                   "text": f"{what} hits {names[foe]}'s heart: {heart if heart > 0 else 0} left"})
                    continue
                victim_creature = table[victim]
                before = self.health.get(victim, victim_creature.health)       # hp, inlined
                outcome = self.strike(foe, t, damage, poison)
                events.append({"seat": seat, "column": col + 1, "target_column": t + 1, "attacker": card,
                               "target": victim, "damage": damage, "outcome": outcome, "type": "hit",
                               "text": f"{what} hits {victim_creature.name} ({before} health): {outcome}"})
                if victim_creature.epics & RETALIATE and row[col] == card:
                    # retaliation is one plain damage, even when the hit killed the retaliator
                    back = self.strike(seat, col, 1, False)
                    took = "armour absorbs it" if back == "armour absorbs it" else f"takes 1, {back}"
                    events.append(event("retaliation", f"{victim_creature.name} retaliates: {creature.name} {took}",
                                        seat=foe, column=t + 1, attacker=victim, target=card, damage=1,
                                        outcome=back))
            foe_lost = self.heart[foe] <= 0 or not any(target_row)
            self_lost = not any(row)                   # retaliation may have killed the last attacker
            if foe_lost or self_lost:
                return events, (foe if foe_lost else seat)
        return events, None
