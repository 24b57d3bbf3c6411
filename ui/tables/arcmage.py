"""Arcmage: each side's region, Front, three domains, vault and play pad, facing the other's.

Per side, from the edge of the table inwards: the player's counters (victory
points, hand, deck, gold) and then one row of zones — the region in play
(name and HP, touch the HP to correct it; regions left in the chapter), the
Front with its creatures (attack/defence), the Politics, Science and Faith
domains with their points and servants, the vault (face-down resources,
counted, never named) and the play pad.  Between the two sides: the turn and
the combat in progress.  Attacks, claims and region damage are shown on the
zone they touched.
"""
from __future__ import annotations

from ui import theme
from ui.tables.generic import TableScreen, name_choices
from ui.widgets import FitLabel
from ui.words import counted

DOMAINS = ("politics", "science", "faith")


class ArcmageTable(TableScreen):
    def build_board(self, board) -> None:
        self.middle = FitLabel(color=theme.MUTED, size_hint_y=None, height=30 * self.bs())
        board.add_widget(self._strip(0))
        board.add_widget(self._zones(0))
        board.add_widget(self.middle)
        board.add_widget(self._zones(1))
        board.add_widget(self._strip(1))

    def _strip(self, seat: int):
        return self.row(self.seat_tag(seat, size_hint_x=None, width=110 * self.bs()),
                        self.counter(f"{seat}.vp", ("VP",), seat=seat),
                        self.counter(f"{seat}.hand", ("Hand",), seat=seat),
                        self.counter(f"{seat}.deck", ("Deck",), seat=seat),
                        self.counter(f"{seat}.gold", ("Gold",), seat=seat),
                        size_hint_y=None, height=theme.COUNTER_HEIGHT * self.bs())

    def _zones(self, seat: int):
        region = self.zone(f"{seat}.region", chips=False, size_hint_x=1.5)
        region.ids.counters.add_widget(self.counter(f"{seat}.hp", ("HP",), seat=seat))
        zones = [region, self.zone(f"{seat}.front", title=["Front"], size_hint_x=1.8)]
        zones += [self.zone(f"{seat}.{d}", title=[d.capitalize(), d[:3].capitalize()]) for d in DOMAINS]
        zones += [self.zone(f"{seat}.vault", title=["Vault"], chips=False, size_hint_x=0.9),
                  self.zone(f"{seat}.handoff", title=["Play pad", "Play"], size_hint_x=0.9)]
        return self.row(*zones)

    def show_view(self, view: dict) -> None:
        zones, detail = view["zones"], view["detail"]
        for seat, p in enumerate(detail.get("players", [])[:2]):
            active = seat == self.active_seat
            region = p.get("region")
            box = self.zone_boxes[f"{seat}.region"]
            hp = self.counter_boxes[f"{seat}.hp"]
            hp.title = region["name"] if region else "Region"
            hp.short_titles = (name_choices(region["name"])[1:] if region else []) + ["HP"]
            left = p.get("regions_left", 0)
            plural = "s" if left != 1 else ""
            box.info = [f"{left} region{plural} in the chapter", f"{left} region{plural} left", f"{left} left",
                        ""]               # the largest text size on 800×480: the HP counter keeps its place
            front = self.zone_boxes[f"{seat}.front"]
            front.cards = [self.creature_face(c) for c in p.get("front", [])]
            front.info = self.front_info(p.get("front", []))
            for d in DOMAINS:
                domain = p.get("domains", {}).get(d, {"points": 0, "servants": []})
                dbox = self.zone_boxes[f"{seat}.{d}"]
                dbox.cards = [self.creature_face(c) for c in domain["servants"]]
                dbox.info = self.domain_info(domain)
            vault = p.get("vault", {})
            vbox = self.zone_boxes[f"{seat}.vault"]
            held = counted(vault.get('cards', 0), 'card')
            vbox.info = [f"{held} face down\n{vault.get('unmarked', 0)} unmarked",
                         f"{held}\n{vault.get('unmarked', 0)} unmarked",
                         f"{held}\n{vault.get('unmarked', 0)} free",
                         f"{vault.get('cards', 0)} · {vault.get('unmarked', 0)} free",
                         f"{vault.get('cards', 0)} · {vault.get('unmarked', 0)}"]
            pad = self.zone_boxes[f"{seat}.handoff"]
            self.show_zone(pad, zones.get(f"{seat}.handoff", {"cards": []}),
                           info=["waiting for a target", "target?"] if zones.get(f"{seat}.handoff", {}).get("cards")
                           else [""])
            for zone_id, zbox in self.zone_boxes.items():
                if zone_id.startswith(f"{seat}."):
                    zbox.highlight = active
        self.middle.choices = self.middle_line(view)

    def creature_face(self, creature: dict) -> tuple[list[str], bool]:
        name = creature.get("name") or self.controller.card_text(creature["card"])
        stats = f"{creature.get('atk', '?')}/{creature.get('def', '?')}"
        return [f"{name} {stats}"] + [f"{n} {stats}" for n in name_choices(name)[1:]] + [stats], False

    @staticmethod
    def domain_info(domain: dict) -> list[str]:
        """Its faction (one at a time: what may join it), points and servants, longest first."""
        points, n = domain["points"], len(domain["servants"])
        counts = [f"{points} points · {n} servant{'s' if n != 1 else ''}", f"{points} pts · {n}", f"{points} pts"]
        faction = domain.get("faction")
        if not faction:
            return [f"any faction\n{c}" for c in counts] + counts + [f"{points}"]
        short = faction.split()[-1]                     # "House of Nobles" → "Nobles"
        return ([f"{faction}\n{c}" for c in counts] + [f"{short}\n{c}" for c in counts]
                + [f"{short} · {points}", short])

    @staticmethod
    def front_info(front: list[dict]) -> list[str]:
        if not front:
            return ["no creatures", "empty"]
        attack = sum(c.get("atk", 0) or 0 for c in front)
        return [f"{len(front)} creature{'' if len(front) == 1 else 's'} · attack {attack}", f"{len(front)} · atk {attack}", f"{len(front)}"]

    def middle_line(self, view: dict) -> list[str]:
        detail = view["detail"]
        turn = f"Turn {detail.get('turn', 1)}"
        combat = detail.get("combat")
        if combat:
            who = self.players[combat["attacker_seat"]] if combat.get("attacker_seat") in (0, 1) else "?"
            n = len(combat.get("attackers", []))
            return [f"{turn} · {who} attacks with {n} creature{'s' if n != 1 else ''} ({combat.get('step', '')})",
                    f"{turn} · {who} attacks with {n}", turn]
        return [f"{turn} · first to {detail.get('vp_target', 10)} victory points wins",
                f"{turn} · {detail.get('vp_target', 10)} VP to win", turn]

    def event_zones(self, ev: dict) -> list[str]:
        zones = super().event_zones(ev)
        seat, kind = ev.get("seat"), ev.get("type")
        if seat not in (0, 1):
            return zones
        if kind == "claim" and ev.get("domain") in DOMAINS:
            zones.append(f"{seat}.{ev['domain']}")
        elif kind in ("enter", "move") and ev.get("to") in DOMAINS + ("front",):
            zones.append(f"{seat}.{ev['to']}")
        elif kind in ("attack", "block", "equip", "spell", "dropped"):
            zones.append(f"{seat}.front")
        elif kind in ("region_damage", "region_revealed", "region_lost", "chapter"):
            zones.append(f"{seat}.region")
        return [z for z in dict.fromkeys(zones)]


SCREEN = ArcmageTable
