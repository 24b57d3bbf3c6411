"""Creature Combat Territory: the row of lands, each side's creatures in front of each land.

Seen from the table: North's ready pile, resting creatures and lands won
along the far edge; then the lands in a row, each with North's creatures
above it and South's below it, and the land deck at the end; South's piles
along the near edge.  Each land shows its name, biome and passive (the whole
passive when there is room, its name otherwise); creatures lie face down
(card backs) until their land is fought.  A fought land is framed for its
winner with the totals, and each reveal, ability and damage is shown on the
land where it happened.
"""
from __future__ import annotations

from ui import theme
from ui.tables.generic import TableScreen, shorter
from ui.widgets import CounterBox, FitButton, Modal, ZoneBox
from ui.words import counted

LANDS = 5


class TerritoryTable(TableScreen):
    #: a side's creature deck is scanned onto its ready pad in one go (the simulated table's "Place all")
    WHOLE_HAND_ZONES = frozenset({"ready"})

    def build_board(self, board) -> None:
        fs = self.fs()
        self.land_cards = [ZoneBox(chips=False, max_info_lines=6) for _ in range(LANDS)]
        self.resting = [self._resting_button(seat) for seat in (0, 1)]
        board.add_widget(self._strip(0))
        columns = []
        for n in range(LANDS):
            self.land_cards[n].size_hint_y = 1.5
            columns.append(self.column(self.zone(f"0.land{n + 1}"), self.land_cards[n], self.zone(f"1.land{n + 1}"),
                                       spacing=2 * fs))
        deck = self.zone("land_deck", seat=None, chips=False, title=["Land deck", "Lands"],
                         size_hint_x=None, width=118 * self.bs())
        deck.ids.counters.add_widget(self.counter("land_deck", ("Left", ""), seat=None))
        board.add_widget(self.row(*columns, deck))
        board.add_widget(self._strip(1))

    def _strip(self, seat: int):
        ready = self.zone(f"{seat}.ready", chips=False, counts=True)
        return self.row(self.seat_tag(seat, size_hint_x=None, width=110 * self.bs()),
                        self.counter(f"lands.{seat}", ("Won",), seat=seat, size_hint_x=None, width=130 * self.bs()),
                        ready, self.resting[seat], size_hint_y=None, height=theme.COUNTER_HEIGHT * self.bs())

    def _resting_button(self, seat: int) -> FitButton:
        button = FitButton(tone=theme.PANEL_LIGHT, size_hint_x=1.4)
        button.bind(on_release=lambda _b: self.open_resting(seat))
        return button

    # ---- showing the view ------------------------------------------------------------
    def show_view(self, view: dict) -> None:
        zones, detail = view["zones"], view["detail"]
        lands = {entry["slot"]: entry for entry in detail.get("lands") or [] if entry}
        for n in range(LANDS):
            land = lands.get(n)
            card = self.land_cards[n]
            card.title = [f"Land {n + 1}"] if land is None else [f"{land['name']}", f"Land {n + 1}"]
            card.info = self.land_info(n, land)
            for seat in (0, 1):
                zone_id = f"{seat}.land{n + 1}"
                box = self.zone_boxes[zone_id]
                self.show_zone(box, zones.get(zone_id, {"cards": []}), info=self.pile_info(land, seat))
                box.highlight = seat == self.active_seat
            if land and land.get("fought"):
                self._mark_land(n, land.get("winner"), self._reason(land))
        for seat in (0, 1):
            ready = self.zone_boxes[f"{seat}.ready"]
            if view.get("phase") == "register":
                # the creatures added so far make the deck, which becomes the ready pile when both
                # decks are registered: the feed's "adds Pike to their deck" is counted here
                count = (detail.get("decks") or [{}, {}])[seat].get("count", 0)
                ready.info = [f"Deck: {counted(count, 'creature')} registered", f"Deck: {count}", f"{count} in deck"]
            else:
                count = len(zones[f"{seat}.ready"]["cards"])
                ready.info = [f"Ready pile: {counted(count, 'creature')}", f"Ready: {count}", f"{count} ready"]
            ready.highlight = seat == self.active_seat
            piles = detail.get("resting", [[], []])[seat]
            names = [f"{c['name']} {p['rest']}" for p in piles for c in p["creatures"]]
            resting = sum(len(p["creatures"]) for p in piles)
            self.resting[seat].choices = ([f"Resting: {', '.join(names)}", f"Resting: {resting}", f"Rest {resting}"]
                                          if names else ["Resting: none", "Resting: 0", "Rest 0"])
        deck = self.zone_boxes["land_deck"]
        deck.info = []

    @staticmethod
    def land_info(n: int, land: dict | None) -> list[str]:
        if land is None:
            return ["not dealt yet", "—"]
        biome = land["biome"]
        passive = land.get("passive") or ""
        if not passive:
            return [biome, biome.split(" (")[0], ""]
        name = passive.split(":", 1)[0]
        return [f"{biome}\n{passive}", f"{biome.split(' (')[0]}\n{passive}", f"{biome}\n{name}",
                f"{biome.split(' (')[0]}\n{name}", biome.split(" (")[0],
                ""]          # a land squeezed by a large text size keeps its name (the title), not its biome

    def pile_info(self, land: dict | None, seat: int) -> list[str]:
        if land is None:
            return [""]
        pile = land["piles"][seat]
        if not pile:
            return ["nobody", ""]
        if land.get("totals"):
            return [f"power {land['totals'][seat]}", f"{land['totals'][seat]}"]
        return [""]

    def _reason(self, land: dict) -> list[str]:
        totals = land.get("totals") or [0, 0]
        winner = land.get("winner")
        if winner in (0, 1):
            who = self.players[winner]
            return [f"{who} wins {totals[winner]} to {totals[1 - winner]}", f"{who} {totals[winner]}–{totals[1 - winner]}",
                    who]
        return [f"nobody wins, {totals[0]} to {totals[1]}", "nobody wins", "—"]

    def _mark_land(self, n: int, winner, reason: list[str]) -> None:
        card = self.land_cards[n]
        card.outcome = "won" if winner in (0, 1) else "tie"
        card.reason = reason
        for seat in (0, 1):
            box = self.zone_boxes[f"{seat}.land{n + 1}"]
            box.outcome = "" if winner not in (0, 1) else ("won" if winner == seat else "lost")

    # ---- what just happened ----------------------------------------------------------
    def event_zones(self, ev: dict) -> list[str]:
        zones = super().event_zones(ev)
        slot, seat = ev.get("slot"), ev.get("seat")
        if isinstance(slot, int) and seat in (0, 1) and ev.get("type") in ("damage", "shielded", "ability"):
            zone = f"{seat}.land{slot + 1}"
            if zone not in zones:
                zones.append(zone)
        return zones

    def told_of(self, zones: list[str]) -> list:
        # a side's pile at a land is told as the land's ("Land 2 (Eagle Crag): North reveals Waddle")
        lands = {int(z.rsplit("land", 1)[1]) - 1 for z in zones if ".land" in z and z.rsplit("land", 1)[1].isdigit()}
        return super().told_of(zones) + [self.land_cards[n] for n in sorted(lands) if 0 <= n < LANDS]

    def _on_session_events(self, controller, events: list) -> None:
        super()._on_session_events(controller, events)
        if self.session is None:
            return
        for ev in self.session.public_events(events):
            if ev.get("type") == "dealt" and isinstance(ev.get("slot"), int) and ev["slot"] < LANES_SHOWN:
                self.land_cards[ev["slot"]].flash(shorter(ev.get("text", "")) + ["Dealt"])

    def show_outcome(self, ev: dict) -> None:
        slot = ev.get("slot")
        if isinstance(slot, int) and slot < LANDS:
            self._mark_land(slot, ev.get("winner"), [ev.get("text", "")] + self._reason(
                {"totals": ev.get("totals"), "winner": ev.get("winner")}))

    def clear_outcomes(self) -> None:
        super().clear_outcomes()
        for card in self.land_cards:
            card.outcome, card.reason = "", []
        if self.view:
            self.show_view(self.view)

    # ---- the resting creatures' counters ---------------------------------------------------
    def open_resting(self, seat: int) -> None:
        counters = [c for c in self.view.get("counters", []) if c["id"].startswith("rest.") and c.get("seat") == seat]
        if not counters:
            return
        RestingView(self, seat, counters).open()


LANES_SHOWN = LANDS


class RestingView(Modal):
    """A side's resting creatures, each with its rest counter (touch one to correct it)."""

    def __init__(self, screen: TerritoryTable, seat: int, counters: list[dict], **kwargs):
        super().__init__(size_hint=(0.9, None), **kwargs)
        fs = screen.fs()
        self.screen = screen
        box = screen.column(padding=8 * fs)
        self.ids_made = []
        for c in counters:
            counter = screen.counter(c["id"], (c.get("label", "").replace("Rest: ", ""),), seat=seat,
                                     size_hint_max_x=None)
            self.ids_made.append(c["id"])
            box.add_widget(counter)
        done = FitButton(choices=["Done"], tone=theme.NEUTRAL, size_hint_y=None, height=theme.TOUCH * fs)
        done.bind(on_release=lambda _b: self.dismiss())
        box.add_widget(done)
        self.height = (theme.COUNTER_HEIGHT + 4) * fs * len(counters) + (theme.TOUCH + 24) * fs
        self.add_widget(box)
        screen.show_common(screen.view)

    def on_dismiss(self):
        for counter_id in self.ids_made:
            self.screen.counter_boxes.pop(counter_id, None)


SCREEN = TerritoryTable
