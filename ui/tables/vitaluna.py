"""Vita Luna: each side's white row facing the other's, grey reserves behind, the shared pad between.

Seen from the table: North's grey reserve along the far edge, North's white
row, then the middle band — each side's hearts and track around the shared
pad — then South's white row and South's grey reserve along the near edge.
White cards show name, attack and health; grey ones lie face down (card
backs).  Hits, moves and promotions are shown on the positions they touched.
"""
from __future__ import annotations

from companion.games.vitaluna.orders import POSITIONS
from ui import theme
from ui.tables.generic import MAX_ACTION_BUTTONS, TableScreen, shorter

#: a player's standing choice and its end: the engine's own moves (companion/games/vitaluna/orders.py)
EVERY_TURN, STOP = "attack_every_turn", "stop_attacking"
#: the screen's own whole step (never sent to the engine as such: it makes two reward actions)
REWARDS = "take_rewards"


class VitaLunaTable(TableScreen):
    """Besides the board, two whole steps by one touch (issue 25):

    * **Attack every turn** (a player's standing choice, for this battle) is the engine's own
      move (:mod:`companion.games.vitaluna.orders`): logged, kept in the game's state, so a game
      resumed after the app was closed or killed still has it; the attacks it makes are plain
      attacks the input road applies after each person's input (``Rules.follow_up``), one undo
      each, so they follow a touch, a confirm button at the table or a card on a pad alike, with
      no screen.  Its end (a creature of that player's may now move that could not when they
      chose, the battle's end, *Stop attacking every turn*) is the engine's too; the screen says
      the stop on the banner.
    * **Both take their rewards**: the two reward cards after a battle (the rules name who takes
      which colour), taken unscanned as the single reward buttons take them; also offered on the
      battle's result.
    """

    def build_board(self, board) -> None:
        side = 118 * self.bs()
        self.side_notes = [self.counter(f"hand.{seat}", ("Hand",), seat=seat, size_hint_x=None, width=side)
                           for seat in (0, 1)]
        board.add_widget(self._row(0, "grey", self.seat_tag(0, size_hint_x=None, width=side)))
        board.add_widget(self._row(0, "white", self.side_notes[0], size_hint_y=1.25))
        middle = self.row(self.counter("heart.0", ("♥",), seat=0), self.counter("track.0", seat=0),
                          self.zone("scan", chips=False, size_hint_x=2.2),
                          self.counter("track.1", seat=1), self.counter("heart.1", ("♥",), seat=1),
                          size_hint_y=None, height=theme.COUNTER_HEIGHT * self.bs())
        # bidding shows markers where the hearts will be: one place per side, whichever the game keeps now
        self.counter_boxes["markers.0"] = self.counter_boxes["heart.0"]
        self.counter_boxes["markers.1"] = self.counter_boxes["heart.1"]
        board.add_widget(middle)
        board.add_widget(self._row(1, "white", self.side_notes[1], size_hint_y=1.25))
        board.add_widget(self._row(1, "grey", self.seat_tag(1, size_hint_x=None, width=side)))

    def _row(self, seat: int, kind: str, first, **kwargs):
        zones = [self.zone(f"{seat}.{kind}{n + 1}", chips=kind == "grey") for n in range(POSITIONS)]
        return self.row(first, *zones, **kwargs)

    def show_view(self, view: dict) -> None:
        zones, detail = view["zones"], view["detail"]
        positions = detail.get("positions", {})
        turn = detail.get("turn") or {}
        for zone_id, box in self.zone_boxes.items():
            if zone_id == "scan":
                continue
            here = positions.get(zone_id)
            kind = "white" if ".white" in zone_id else "grey"
            n = zone_id[-1]
            box.title = [f"{kind.capitalize()} {n}", n] if kind == "white" else []
            if kind == "white":
                box.cards = []
                box.info = self.creature_info(here)
            else:
                self.show_zone(box, zones[zone_id], info=[] if not here else None)
                box.info = ["empty", ""] if not here else self.grey_info(here)
            box.highlight = box.seat == self.active_seat
        pad = self.zone_boxes["scan"]
        if pad.reason:               # the battle's result has the pad's one line
            pad.info = []
            return
        pad.info = shorter(zones.get("scan", {}).get("summary") or "") + ["Shared pad", "Pad"] \
            if zones.get("scan", {}).get("summary") else ["Shared pad: singular cards, rewards, exchanges, bidding",
                                                          "Shared pad", "Pad"]

    # ---- whole steps by one touch ---------------------------------------------------------------
    def button_actions(self) -> list[dict]:
        actions = super().button_actions()
        if self.session is None or self.session.rules.is_over(self.session.state):
            return actions
        if self.view.get("phase") == "rewards" and len(self.session.state["rewards"]) > 1 and any(
                a["type"] == "reward" and a.get("card") is None for a in self.session.rules.legal_actions(
                    self.session.state)):
            primary = [a for a in actions[:1] if a == self.primary_action()]
            extra = [{"type": REWARDS}]           # the two rewards the rules give now, winner's first
            return (primary + extra + actions[len(primary):])[:MAX_ACTION_BUTTONS + len(primary)]
        return actions

    def action_label(self, action: dict) -> str:
        kind, seat = action.get("type"), action.get("seat")
        if kind == EVERY_TURN:
            return f"Attack every turn: {self.players[seat]}"
        if kind == STOP:
            return f"Stop attacking every turn: {self.players[seat]}"
        if kind == REWARDS:
            return "Both take their rewards"
        if kind == "reward" and seat in (0, 1):
            return f"Take a reward: {self.players[seat]}"
        return super().action_label(action)

    def result_actions(self) -> list[dict]:
        """After a battle its two rewards, by one touch on the result."""
        return [a for a in self.button_actions() if a["type"] == REWARDS]

    def send(self, action: dict) -> None:
        if action.get("type") == REWARDS:
            rules = self.session.rules
            self.send_steps(lambda state: next((a for a in rules.legal_actions(state)
                                                if a["type"] == "reward" and a.get("card") is None), None))
            return
        super().send(action)

    def _on_session_events(self, controller, events: list) -> None:
        super()._on_session_events(controller, events)
        stopped = [ev for ev in events if ev.get("type") == "orders_stopped"]
        if stopped and self.session is not None:
            self.ids.banner.show(stopped[-1]["text"], tone=theme.NEUTRAL, seconds=4)

    def what_now(self) -> list[str]:
        lines = super().what_now()
        if any(a["type"] == EVERY_TURN for a in self.button_actions()):
            lines.append("“Attack every turn” attacks for that player on each of their turns in this battle, "
                         "until a creature of theirs can move that could not before, or “Stop attacking every "
                         "turn” is touched")
        return lines

    @staticmethod
    def creature_info(here: dict | None) -> list[str]:
        if not here:
            return ["empty", ""]
        if here.get("hidden"):
            return ["face down", "?"]
        name, atk, hp, top = here["name"], here["attack"], here["health"], here["max_health"]
        # armour is said once, with its state: an intact armour, or one already spent this battle
        epics = ", ".join(e for e in here.get("epics") or [] if e != "armour")
        armour = " · armour" if here.get("armour") else " · armour gone" if "armour" in (here.get("epics") or []) else ""
        base = f"{name}\nattack {atk} · health {hp}/{top}{armour}"
        return ([f"{base}\n{epics}"] if epics else []) + [base, f"{name}\natk {atk} · hp {hp}/{top}",
                                                          f"{name}\n{atk} / {hp}", f"{name} {atk}/{hp}", name]

    @staticmethod
    def grey_info(here: dict) -> list[str]:
        if here.get("hidden"):
            return []              # the card back says it
        return [f"{here['name']} (face down)", here["name"], ""]

    def event_zones(self, ev: dict) -> list[str]:
        zones = super().event_zones(ev)
        seat = ev.get("seat")
        if ev.get("type") == "hit" and seat in (0, 1):
            zones.append(f"{1 - seat}.white{ev['target_column']}")
        if ev.get("type") in ("singular", "singular_used", "reward", "exchange_give", "exchanged") \
                and "scan" not in zones:
            zones.append("scan")
        return zones

    def note_choices(self, ev: dict) -> list[str]:
        if ev.get("type") == "hit":
            if ev.get("target") is None:
                return [ev.get("text", ""), f"♥ −{ev.get('damage', '')}", "Hit"]
            return [ev.get("text", ""), f"−{ev.get('damage', '')}: {ev.get('outcome', '')}", f"−{ev.get('damage', '')}"]
        return super().note_choices(ev)

    def show_outcome(self, ev: dict) -> None:
        """A battle is won on the hearts and the track: the winner's white row is framed, with the
        reason on the shared pad."""
        winner = ev.get("winner")
        for seat in (0, 1):
            for n in range(POSITIONS):
                box = self.zone_boxes[f"{seat}.white{n + 1}"]
                box.outcome = "" if winner is None else ("won" if seat == winner else "lost")
                box.reason = []
        pad = self.zone_boxes["scan"]
        pad.outcome = "won" if winner is not None else "tie"
        pad.info = []
        pad.reason = shorter(ev.get("text", "")) + ["Battle won" if winner is not None else "Battle over"]



SCREEN = VitaLunaTable
