"""Lifeforce Battle: each side's attack card and support row, facing across the deck check.

Each side has its attacking animal (name, colour, lifespan and the declared
mode), its support row with the support total against the lifespan, and its
deck, hand, discard and graveyard counters.  The deck-check pad lies between
the two sides with the battle number and the last battle's result.
"""
from __future__ import annotations

from companion.games.lifeforce import solo
from companion.games.lifeforce.animals import BIT
from ui import theme
from ui.decklists import seat_decks
from ui.simtable import SoloRow
from ui.tables.generic import TableScreen, name_choices
from ui.widgets import FitLabel


class LifeforceTable(TableScreen):
    #: either player may resolve a duel whose two sides stand: one button, "Resolve"
    SHARED_ACTIONS = frozenset({"resolve"})

    def build_board(self, board) -> None:
        self.middle = FitLabel(color=theme.MUTED)
        board.add_widget(self._strip(0))
        board.add_widget(self._battle_row(0))
        board.add_widget(self.row(self.middle, self.zone("deck_check", chips=False, size_hint_x=0.4),
                                  size_hint_y=None, height=theme.COUNTER_HEIGHT * self.bs()))
        board.add_widget(self._battle_row(1))
        board.add_widget(self._strip(1))

    def _strip(self, seat: int):
        return self.row(self.seat_tag(seat, size_hint_x=None, width=110 * self.bs()),
                        self.counter(f"hand.{seat}", seat=seat, size_hint_x=0.85),
                        self.counter(f"deck.{seat}", seat=seat, size_hint_x=1.2),     # two digits
                        self.counter(f"discard.{seat}", ("Disc.",), seat=seat),
                        self.counter(f"graveyard.{seat}", ("Grave",), seat=seat),
                        self.counter(f"in_play.{seat}", ("Play",), seat=seat),
                        size_hint_y=None, height=theme.COUNTER_HEIGHT * self.bs())

    def _battle_row(self, seat: int):
        return self.row(self.zone(f"{seat}.attacker", title=["Attacker", "Attack"], chips=False, size_hint_x=0.36),
                        self.zone(f"{seat}.support", title=["Support"]))

    def show_view(self, view: dict) -> None:
        zones, detail = view["zones"], view["detail"]
        duel = detail["duels"][-1]["cards"] if detail.get("duels") else [None, None]
        for seat in (0, 1):
            side = duel[seat] or {}
            attacker = self.zone_boxes[f"{seat}.attacker"]
            self.show_zone(attacker, zones[f"{seat}.attacker"], info=self.animal_info(side))
            support = self.zone_boxes[f"{seat}.support"]
            self.show_zone(support, zones[f"{seat}.support"], info=self.support_info(side))
            for box in (attacker, support):
                box.highlight = seat == self.active_seat
        self.show_zone(self.zone_boxes["deck_check"], zones["deck_check"],
                       info=["Deck check: place a card to see whose it is", "Deck check: place a card", "Deck check"])
        self.middle.choices = self.battle_line(detail)

    # ---- whole steps by one touch (issue 25) ---------------------------------------------------
    def sim_default_zone(self, card_id: str, zones: list[str]) -> str | None:
        """A battle opens with an animal on the attacker pad (the status line asks for it): a card
        touched while that pad is empty goes there; touch the support pad first to lay it as
        support instead."""
        return next((z for z in zones if z.endswith(".attacker")), None)

    def action_label(self, action: dict) -> str:
        kind, seat = action.get("type"), action.get("seat")
        if seat in (0, 1) and self.session is not None:
            if kind == "done" and self._resolves_next(action):
                return f"Done and resolve: {self.players[seat]}"
            if kind == "call":
                return f"Call: {self.players[seat]} attacks next"
            if kind == "check":
                return f"Check: {self.players[1 - seat]} attacks next"
        return super().action_label(action)

    def _resolves_next(self, action: dict) -> bool:
        """Whether the road follows ``action`` by resolving the duel (the counter's Done: both sides
        stand, and the rules' ``follow_up`` makes the one step left; companion/inputs.py)."""
        rules, state = self.session.rules, self.session.state
        try:
            after, _events = rules.apply(state, action)
        except Exception:                        # refused: the touch gets its sentence as usual
            return False
        return rules.follow_up(after, action) is not None

    def result_actions(self) -> list[dict]:
        """The winner's call or check, on the battle's result: reading it and choosing is one touch."""
        return [a for a in self.session.rules.legal_actions(self.session.state) if a["type"] in ("call", "check")]

    def solo_row(self, panel) -> "LifeforceSoloRow":
        return LifeforceSoloRow(panel)

    @staticmethod
    def animal_info(side: dict) -> list[str]:
        if not side.get("animal"):
            return ["no animal yet", "none yet"]
        name, colour = side.get("name") or "?", (side.get("colour") or "").capitalize()
        life = side.get("lifespan")
        mode = f" · says {side['mode']}" if side.get("mode") else ""
        return ([f"{name}\n{colour} · {life} years{mode}", f"{name}\n{life} years{mode}", f"{name} · {life} y"]
                + [f"{n}\n{life} y" for n in name_choices(name)[1:]] + name_choices(name)[1:])

    @staticmethod
    def support_info(side: dict) -> list[str]:
        total = side.get("support_total", 0)
        life = side.get("lifespan")
        if life is None:
            return [f"support {total}", f"{total}"]
        mark = " ✓" if total >= life else ""
        return [f"support {total} against lifespan {life}{mark}", f"support {total} of {life}{mark}",
                f"{total} of {life}{mark}"]

    def battle_line(self, detail: dict) -> list[str]:
        now = f"Battle {detail.get('battle', 1)}"
        last = detail.get("last_battle")
        if not last:
            return [now]
        totals = last.get("totals") or [0, 0]
        winner = last.get("winner")
        who = self.players[winner] if winner in (0, 1) else "nobody"
        high, low = (totals[winner], totals[1 - winner]) if winner in (0, 1) else (max(totals), min(totals))
        return [f"{now} · battle {last['battle']}: {who} won {high} to {low}",
                f"{now} · last: {who} won {high}–{low}", f"{now} · {who} won last", now]



class LifeforceSoloRow(SoloRow):
    """Lifeforce's solo game on the simulated table: each player has a deck of their own, so the
    person plays from theirs as in any game (the card list shows only that deck) and the companion's
    is shuffled here: a draw takes the next card of it not in its graveyard, discard pile, battle
    or holder, as the engine counts its deck; its build is laid from the slots it named."""

    def __init__(self, panel, **kwargs):
        state = panel.screen.session.state
        super().__init__(panel, seat_decks(state["options"])[state["solo"]["seat"]], solo.hand_zone,
                         **kwargs)
        for b in (self.theirs, self.play_button):
            self.add_widget(b)
        self.refresh()

    def deck(self) -> tuple[str, list[str], int]:
        return f"{self.me}'s deck", seat_decks(self.panel.screen.session.options)[self.person], self.person

    def drawable(self, card: str) -> bool:
        state = self.panel.screen.session.state
        gone = state["graveyard"][self.seat] | state["discard"][self.seat] | state["table"][self.seat]
        return not BIT[card] & gone and card not in state["solo"]["slots"]

    def refresh_play(self, state) -> None:
        pending = self._pending(state)
        self.play_button.text = (f"Play slot{'s' if len(pending) > 1 else ''} "
                                 f"{', '.join(str(slot + 1) for slot, _zone in pending)}"
                                 if pending else f"Play for {self.who}")
        self.play_button.disabled = not pending

    def _pending(self, state) -> list[tuple[int, str]]:
        """The holder slots of the companion's build still to be laid, each with its pad's zone."""
        decision = state["solo"]["decision"]
        if decision is None or state["turn"] != self.seat or state["phase"] not in ("attack", "counter"):
            return []
        slots = state["solo"]["slots"]
        out = [(decision["animal"], f"{self.seat}.attacker")] if slots[decision["animal"]] is not None else []
        return out + [(s, f"{self.seat}.support") for s in decision["support"] if slots[s] is not None]

    def play(self) -> None:
        """Lay the cards of the slots the companion named on the pads it named, animal first."""
        session = self.panel.screen.session
        for slot, zone in self._pending(session.state):
            self.panel.screen.controller.sim_place(zone, session.state["solo"]["slots"][slot], secret=True)


SCREEN = LifeforceTable
