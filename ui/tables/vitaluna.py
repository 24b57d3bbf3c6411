"""Vita Luna: each side's white row facing the other's, grey reserves behind, the shared pad between.

Seen from the table: North's grey reserve along the far edge, North's white
row, then the middle band — each side's hearts and track around the shared
pad — then South's white row and South's grey reserve along the near edge.
White cards show name, attack and health; grey ones lie face down (card
backs).  Hits, moves and promotions are shown on the positions they touched.
"""
from __future__ import annotations

from kivy.clock import Clock

from companion.games.vitaluna.table import ZONE_IDS
from ui import theme
from ui.tables.generic import MAX_ACTION_BUTTONS, TableScreen, shorter

POSITIONS = 4
#: the screen's own whole-step buttons (never sent to the engine as such: each makes engine actions)
EVERY_TURN, STOP, REWARDS = "attack_every_turn", "stop_attacking", "take_rewards"


class VitaLunaTable(TableScreen):
    """Besides the board, two whole steps by one touch (issue 25), each made of the engine's own
    actions, one undo each:

    * **Attack every turn** (a player's standing choice, for this battle): that player attacks
      now and, on each of their later turns, at once, while no creature of theirs may move in
      the white row that could not when they chose it (:func:`movers`); one that may now (a
      position came free beside it, a reserve card may come up) stops it, so do *Stop attacking
      every turn*, an undo and the battle's end.  (A creature that could move then was left
      where it was by the player's choice; a second free position for it does not ask again: a
      guess at what "attack every turn" means to a player, which keeps a battle at two or three
      touches of it.)  Singular cards wait while it stands: that is the choice the player made.
      When both players chose it, the battle is fought to the next such stop with no touch
      between.
    * **Both take their rewards**: the two reward cards after a battle (the rules name who takes
      which colour), taken unscanned as the single reward buttons take them; also offered on the
      battle's result.
    """

    def attach(self, controller, session) -> None:
        #: seat → the creatures it could move when it chose to attack every turn (Attack every turn)
        self.orders: dict[int, frozenset] = {}
        if not hasattr(self, "_orders_trigger"):
            self._orders_trigger = Clock.create_trigger(self._follow_orders, 0)
        super().attach(controller, session)

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
        self._check_orders(view)
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
        legal = self.session.rules.legal_actions(self.session.state)
        attack = next((a for a in legal if a["type"] == "attack"), None)
        extra = []
        if attack is not None and attack["seat"] not in self.orders:
            extra.append({"type": EVERY_TURN, "seat": attack["seat"]})
        extra += [{"type": STOP, "seat": seat} for seat in sorted(self.orders)]
        if self.view.get("phase") == "rewards" and len(self.session.state["rewards"]) > 1 \
                and any(a["type"] == "reward" and a.get("card") is None for a in legal):
            extra.append({"type": REWARDS})       # the two rewards the rules give now, winner's first
        primary = [a for a in actions[:1] if a == self.primary_action()]
        return (primary + extra + actions[len(primary):])[:MAX_ACTION_BUTTONS + len(primary)]

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
        kind, seat = action.get("type"), action.get("seat")
        if kind == STOP:
            self.orders.pop(seat, None)
            self._shown_actions = None
            self.refresh()
            return
        if kind == REWARDS:
            rules = self.session.rules
            self.send_steps(lambda state: next((a for a in rules.legal_actions(state)
                                                if a["type"] == "reward" and a.get("card") is None), None))
            return
        if kind == EVERY_TURN:
            state = self.session.state
            self.orders[seat] = movers(self.session.rules.legal_actions(state), state, seat)
            self._shown_actions = None
            action = {"type": "attack", "seat": seat}
        if action.get("type") != "attack":
            super().send(action)
            return
        sent = []
        follow = self._orders_step()

        def step(state):
            if not sent:
                sent.append(action)
                return action
            return follow(state)
        self.send_steps(step)

    def _orders_step(self):
        """The next attack the standing orders make in ``state``, or None (a copy of the orders:
        it runs on the input road)."""
        rules, orders = self.session.rules, dict(self.orders)

        def step(state):
            legal = rules.legal_actions(state)
            seat = next((a["seat"] for a in legal if a["type"] == "attack"), None)
            if seat not in orders or not movers(legal, state, seat) <= orders[seat]:
                return None
            return {"type": "attack", "seat": seat}
        return step

    def _check_orders(self, view: dict) -> None:
        """Orders end with the battle; one whose player has a new move now stops (said on the
        banner); one that stands for the seat to act is followed (a confirm button pressed at the
        table: a touch's own attack follows them at once, on the road)."""
        if not self.orders:
            return
        if view.get("phase") != "battle":
            self.orders.clear()
            self._shown_actions = None
            return
        legal = self.session.rules.legal_actions(self.session.state)
        seat = next((a["seat"] for a in legal if a["type"] == "attack"), None)
        if seat not in self.orders:
            return
        if movers(legal, self.session.state, seat) <= self.orders[seat]:
            self._orders_trigger()
            return
        del self.orders[seat]
        self._shown_actions = None
        self.ids.banner.show(f"A creature of {self.players[seat]}'s can move now: attacking every turn stops here",
                             tone=theme.NEUTRAL, seconds=4)

    def _follow_orders(self, _dt=None) -> None:
        if self.session is not None and self.orders:
            self.send_steps(self._orders_step())

    def after_undo(self, text: str) -> None:
        self.orders.clear()                      # a player went back to choose again
        self._shown_actions = None
        super().after_undo(text)

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
        epics = ", ".join(here.get("epics") or [])
        armour = " · armour" if here.get("armour") else ""
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


def movers(legal: list[dict], state: dict, seat: int) -> frozenset:
    """The creatures of ``seat`` the engine lets move in the white row now: a creature on white to
    another white position (a step, a swap), a reserve card promoted to a free white position.

    What the whole table can tell from the board, so that a stop of *Attack every turn* says
    nothing about a face-down card: a white creature's epics lie face up, and a promotion does not
    depend on which card it is; a reserve card's move within the reserve, or a swap with the
    reserve that its own (hidden) move anywhere allows, is left out."""
    row = state["board"][seat]
    white = set(ZONE_IDS[seat][:POSITIONS])
    out = set()
    for a in legal:
        if a["type"] != "move" or a["seat"] != seat or a["to"] not in white:
            continue
        on_white = row.index(a["card"]) < POSITIONS
        if on_white or row[ZONE_IDS[seat].index(a["to"])] is None:
            out.add(a["card"])
    return frozenset(out)


SCREEN = VitaLunaTable
