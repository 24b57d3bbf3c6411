"""Sam's Battle Game: five lanes facing five lanes, the round's lane results between them.

North's lanes lie along the far edge and South's along the near one, lane 1
facing lane 1.  Each lane shows its stack (face-down buffs as card backs) and
its attack and defence — only what is visible while buffs lie face down, as a
lower bound ("≥").  Between the two rows each lane's number, and once the
round is scored its result; the winning lane is framed with its reason.
"""
from __future__ import annotations

import random

from companion.games import sams
from companion.games.sams import LANES, lane_strength
from ui import theme
from ui.simtable import SoloRow
from ui.tables.generic import TableScreen
from ui.widgets import BigButton, FitLabel


class SamsTable(TableScreen):
    #: either player may start the next round: one button, no name on it
    SHARED_ACTIONS = frozenset({"next_round"})

    def build_board(self, board) -> None:
        fs = self.fs()
        self._lane_texts: dict[int, str] = {}
        self.lane_marks = [FitLabel(choices=[f"Lane {n + 1}"], color=theme.MUTED) for n in range(LANES)]
        board.add_widget(self._strip(0, "pile"))
        board.add_widget(self.row(*[self.zone(f"0.lane{n + 1}") for n in range(LANES)]))
        board.add_widget(self.row(*self.lane_marks, size_hint_y=None, height=34 * fs))
        board.add_widget(self.row(*[self.zone(f"1.lane{n + 1}") for n in range(LANES)]))
        board.add_widget(self._strip(1, "discard"))

    def _strip(self, seat: int, shared: str):
        return self.row(self.seat_tag(seat, size_hint_x=None, width=120 * self.bs()),
                        self.counter(f"vp.{seat}", seat=seat),
                        self.counter(f"hand.{seat}", seat=seat),
                        self.counter(shared, ("Pile",) if shared == "pile" else ()),
                        *([self.counter("set_aside", ("Separate", "Aside"))] if shared == "discard" else []),
                        size_hint_y=None, height=theme.COUNTER_HEIGHT * self.bs())

    def show_view(self, view: dict) -> None:
        zones = view["zones"]
        last = view["detail"].get("last_round")
        for seat in (0, 1):
            for lane in range(LANES):
                zone_id = f"{seat}.lane{lane + 1}"
                box = self.zone_boxes[zone_id]
                cards = zones[zone_id]["cards"]
                self.show_zone(box, zones[zone_id], info=self.lane_info(cards))
                box.highlight = seat == self.active_seat and last is None
        for lane in range(LANES):
            mark = self.lane_marks[lane]
            result = last["lanes"][lane] if last else None
            mark.choices = self.lane_result(lane, result)
            for seat in (0, 1):
                box = self.zone_boxes[f"{seat}.lane{lane + 1}"]
                if result is None or result["outcome"] == "empty":
                    box.outcome, box.reason = "", []
                elif result["outcome"] == "win":
                    won = result["winner"] == seat
                    box.outcome = "won" if won else "lost"
                    box.reason = self.lane_reason(lane, result) if won else []
                else:
                    box.outcome, box.reason = "tie", []

    def show_card(self, view: dict, zone_ids: list[str]) -> None:
        # the card's lane alone, its attack and defence with it; the round's results (every lane's
        # outcome, mark and reason) in the next frame
        zones = view["zones"]
        for zone_id in zone_ids:
            cards = zones[zone_id]["cards"]
            self.show_zone(self.zone_boxes[zone_id], zones[zone_id], info=self.lane_info(cards))

    @staticmethod
    def lane_info(cards: list) -> list[str]:
        if not cards:
            return ["empty"]
        attack, defence = lane_strength([c for c in cards if isinstance(c, str)])
        hidden = sum(1 for c in cards if not isinstance(c, str))
        if hidden:
            return [f"visible attack {attack} · defence {defence} · {hidden} face down",
                    f"visible attack {attack} · defence {defence}",
                    f"Atk ≥{attack} · Def ≥{defence}", f"≥{attack} / ≥{defence}"]
        return [f"attack {attack} · defence {defence}", f"Atk {attack} · Def {defence}", f"{attack} / {defence}"]

    def lane_result(self, lane: int, result: dict | None) -> list[str]:
        name = f"Lane {lane + 1}"
        if result is None:
            return [name]
        outcome = result["outcome"]
        if outcome == "win":
            who = self.players[result["winner"]]
            return [f"{name}: {who} wins", f"{who} wins", who]
        if outcome == "empty":
            return [f"{name}: no battle", "no battle", "—"]
        word = "a tie" if outcome == "tie" else "a draw"
        return [f"{name}: {word}", word.split()[-1].capitalize()]

    def lane_reason(self, lane: int, result: dict) -> list[str]:
        w = result["winner"]
        attack, defence = result["attack"][w], result["defence"][1 - w]
        text = self._lane_texts.get(lane) or ""
        why = text.split(": ", 1)[-1].split(" — ")[0] if ": " in text else ""
        return [c for c in (text, why) if c] + [f"attack {attack} vs defence {defence}", f"{attack} vs {defence}",
                                                 "Wins"]

    def solo_row(self, panel) -> "SoloHands":
        return SoloHands(panel)

    def sim_hand(self, panel, seat) -> list[str] | None:
        """Each seat's hand on the simulated table, dealt from one shuffled box as players draw
        (the engine counts a hand, it never knows one): the card panel lists these five, not the
        36 cards of the box."""
        session = self.session
        if seat not in (0, 1) or "solo" in session.state:
            return None
        hands = getattr(self, "_sim_hands", None)
        if hands is None or hands.session is not session:
            hands = self._sim_hands = DealtHands(session)
        return hands.hand(seat)

    def button_actions(self) -> list[dict]:
        # The companion's choices (a slot and a lane, a swap of its hand) are its own, made on its
        # thread: no button makes one for it.
        solo = self.session.options.get("solo_seat")
        return [a for a in super().button_actions()
                if solo is None or a.get("seat") != solo or a.get("type") in self.SHARED_ACTIONS]

    def note_choices(self, ev: dict) -> list[str]:
        if ev.get("type") == "solo_decide":           # on the lane it named: which slot goes there
            slot = f"Slot {ev['slot'] + 1}"
            face = "face down" if "face down" in ev.get("text", "") else "face up"
            return [ev.get("text", ""), f"{slot} here, {face}", f"{slot} here", slot]
        if ev.get("type") == "played":
            card = ev.get("card")
            face = self.controller.card_text(card) if card else None
            return [ev.get("text", ""), f"+ {face}" if face else "+ face down", "+"]
        return super().note_choices(ev)

    def told_of(self, zones: list[str]) -> list:
        # a lane's result is also written between the rows ("Lane 2: a tie"): the feed telling of
        # that lane leaves it in sight
        lanes = {int(z.rsplit("lane", 1)[1]) - 1 for z in zones if ".lane" in z and z.rsplit("lane", 1)[1].isdigit()}
        return super().told_of(zones) + [self.lane_marks[n] for n in sorted(lanes) if 0 <= n < LANES]

    def show_outcome(self, ev: dict) -> None:
        # The lanes' results come from the view (they stay until the next round), which the
        # screen has just shown; keep the engine's sentence for each lane as its winner's reason.
        # Only that reason changes: showing the whole view again for each of the five lanes was
        # most of the work of the card that ends a round (docs/ui.md, the slowest pad events).
        lane = ev.get("lane")
        if not isinstance(lane, int):
            return
        self._lane_texts[lane] = ev.get("text", "")
        last = self.view.get("detail", {}).get("last_round")
        result = last["lanes"][lane] if last else None
        if result is not None and result["outcome"] == "win":
            self.zone_boxes[f"{result['winner']}.lane{lane + 1}"].reason = self.lane_reason(lane, result)

    def clear_outcomes(self) -> None:
        if self.view.get("detail", {}).get("last_round") is None:
            self._lane_texts = {}

    def forget_game(self) -> None:
        self._lane_texts = {}
        self._sim_hands = None


class DealtHands:
    """Both hands of a two-player game of Sam's on the simulated table: drawn from the box
    shuffled once per game (seeded, so a resumed game deals alike), topped up to the number of
    cards the engine says each seat holds, emptied when a round ends or a hand is swapped.  A card
    played leaves the hand; undone, it is back."""

    def __init__(self, session):
        self.session = session
        self.order = list(sams.DECK)
        random.Random(session.seed).shuffle(self.order)
        self.drawn: dict[int, list[str]] = {0: [], 1: []}
        state = session.state
        self._round, self._redrawn = state["round"], list(state["redrawn"])

    def hand(self, seat: int) -> list[str]:
        state = self.session.state
        if state["round"] != self._round:
            self.drawn = {0: [], 1: []}         # the round's cards went to the discard pile
        for s in (0, 1):
            if state["redrawn"][s] and not self._redrawn[s]:
                self.drawn[s] = []              # a swapped hand is set aside
        self._round, self._redrawn = state["round"], list(state["redrawn"])
        gone = state["on_table"] | state["discarded"]
        held = [c for c in self.drawn[seat] if not sams.BIT[c] & gone][:state["hand"][seat]]
        taken = {c for s in (0, 1) for c in self.drawn[s]}
        for card in self.order:
            if len(held) >= state["hand"][seat]:
                break
            if card not in taken and not sams.BIT[card] & gone:
                held.append(card)
                self.drawn[seat].append(card)
                taken.add(card)
        return held


class SoloHands(SoloRow):
    """Sam's solo game on the simulated table: one shuffled box for both hands, the person's hand
    by face, the companion's never (drawn onto its hand pad and played from the slot it names).
    The card list shows only the person's hand (:meth:`hand`)."""

    HAND = True

    def __init__(self, panel, **kwargs):
        super().__init__(panel, sams.DECK, sams.hand_zone, **kwargs)
        state = panel.screen.session.state
        self.drawn: list[str] = []          # the person's cards drawn here since the hand was last emptied
        self._round, self._redrawn = state["round"], state["redrawn"][self.person]
        self.mine = BigButton()
        self.mine.bind(on_release=lambda *_a: self.draw_mine())
        for b in (self.mine, self.theirs, self.play_button):
            self.add_widget(b)
        self.refresh()

    def deck(self) -> tuple[str, None, int]:
        return f"{self.me}'s hand", None, self.person

    def hand(self) -> list[str]:
        """The person's cards still in hand: drawn here and not on the table (an undone play's
        card is back in the hand)."""
        state = self.panel.screen.session.state
        if state["round"] != self._round or state["redrawn"][self.person] and not self._redrawn:
            self.drawn = []                 # the hand went to the discard (or separate) pile
        self._round, self._redrawn = state["round"], state["redrawn"][self.person]
        return [c for c in self.drawn if not sams.BIT[c] & state["on_table"]]

    def drawable(self, card: str) -> bool:
        state = self.panel.screen.session.state
        return (not sams.BIT[card] & (state["on_table"] | state["discarded"])
                and card not in state["solo"]["slots"] and card not in self.hand())

    def refresh_play(self, state) -> None:
        mine = max(0, state["hand"][self.person] - len(self.hand()))
        self.mine.text = f"Draw for {self.me}" + (f" ({mine})" if mine else "")
        self.mine.disabled = not mine
        decision = state["solo"]["decision"]
        self.play_button.text = (f"Play slot {decision['slot'] + 1} on lane {decision['lane'] + 1}"
                                 if decision is not None else f"Play for {self.who}")
        self.play_button.disabled = decision is None

    def draw_mine(self) -> None:
        card = self._draw()
        if card is not None:
            self.drawn.append(card)
            self.refresh()

    def play(self) -> None:
        """Lay the card of the slot the companion named on the lane it named."""
        state = self.panel.screen.session.state
        decision = state["solo"]["decision"]
        if decision is None:
            return
        card = state["solo"]["slots"][decision["slot"]]
        self.panel.screen.controller.sim_place(sams.lane_zone(self.seat, decision["lane"]), card, secret=True)


SCREEN = SamsTable
