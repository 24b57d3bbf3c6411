"""A past game, step by step: the table as the shared screen showed it after each action.

Opened from History.  The game's record is replayed once (:func:`ui.story.tell`)
and every step keeps the shared view after it, so stepping back and forth costs
nothing.  Only the shared view is drawn: a card that lay face down at a step is
a card back at that step, exactly as the table screen showed it then.
"""
from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion import games
from ui import story as stories
from ui import theme
from ui.kv import load_kv
from ui.screens.history import game_line
from ui.tables.generic import name_choices, shorter, zone_title
from ui.widgets import ZoneBox
from ui.words import counted


MAX_CHIPS = 3


class ReplayScreen(Screen):
    heading = StringProperty("")
    step_text = StringProperty("")
    position = StringProperty("")
    counters0 = StringProperty("")
    counters1 = StringProperty("")
    name0 = StringProperty("")
    name1 = StringProperty("")
    step = NumericProperty(0)
    at_start = BooleanProperty(True)
    at_end = BooleanProperty(True)
    game_id = None
    story = None

    def prepare(self, game_id: int) -> None:
        controller = App.get_running_app().controller
        self.game_id = game_id
        info = next((g for g in controller.store.games() if g.id == game_id), None)
        self.record = stories.record_of(controller.store, game_id)
        self.story = stories.tell(self.record)
        self.heading = " — ".join(game_line(controller.store, info).split(" — ")[:2]) if info else f"Game #{game_id}"
        self.name0, self.name1 = self.story.players[:2]
        self._build_board()
        self.show(len(self.story.steps))
        self.ids.banner.hide()

    def _build_board(self) -> None:
        rules = games.get(self.story.game)
        players = self.story.players
        board = self.ids.board
        board.clear_widgets()
        self.zone_boxes = {}
        scale = App.get_running_app().scale
        for row in zone_rows(rules.zones(self.record.get("options") or {})):
            line = BoxLayout(spacing=4 * scale)
            for zone in row:
                box = ZoneBox(zone_id=zone.id, title=_title_choices(zone_title(zone.label, players)), seat=zone.seat)
                self.zone_boxes[zone.id] = box
                line.add_widget(box)
            board.add_widget(line)

    def show(self, n: int) -> None:
        """The table after action ``n`` (0: as set up)."""
        story = self.story
        n = max(0, min(len(story.steps), n))
        self.step = n
        view = story.start_view if n == 0 else story.steps[n - 1].view
        self.step_text = "Set up, before the first action" if n == 0 else f"{n}. {story.steps[n - 1].text}"
        self.position = f"{n} / {len(story.steps)}"
        self.at_start, self.at_end = n == 0, n == len(story.steps)
        counters = view.get("counters", [])
        self.counters0 = _counters(counters, 0)
        self.counters1 = _counters(counters, 1)
        app = App.get_running_app()
        for zone_id, box in self.zone_boxes.items():
            zone = view.get("zones", {}).get(zone_id, {"cards": [], "summary": ""})
            cards = zone.get("cards", [])
            # A long pile shows its top cards; the summary counts them all.
            box.cards = [(["?"], True) if isinstance(c, dict) else (name_choices(app.controller.card_text(c)), False)
                         for c in cards[-MAX_CHIPS:]]
            box.summary = zone.get("summary") or (counted(len(cards), 'card') if cards else "empty")

    def next_decision(self, direction: int) -> None:
        """Jump to the next (or previous) battle or round decided."""
        steps = self.story.steps
        n = self.step + direction
        while 0 < n <= len(steps) and not steps[n - 1].decided:
            n += direction
        self.show(n)

    def export(self) -> None:
        app = App.get_running_app()
        try:
            path = stories.export(self.record, app.controller.config.data_dir / "exports", self.game_id)
        except OSError as exc:
            self.ids.banner.show(f"Could not write the record: {exc.strerror or exc}")
            return
        self.ids.banner.show(f"Record written to {path}", tone=theme.NEUTRAL, seconds=6)


def zone_rows(zones) -> list[list]:
    """Seat 0's zones at the top (a row per kind when there are many), shared ones, seat 1's."""
    rows = []
    for seat in (0, None, 1):
        mine = [z for z in zones if z.seat == seat]
        if not mine:
            continue
        if len(mine) <= 7:
            rows.append(mine)
            continue
        kinds: dict[str, list] = {}
        for z in mine:
            kinds.setdefault(z.id.split(".", 1)[-1].rstrip("0123456789"), []).append(z)
        groups = list(kinds.values())
        rows.extend(reversed(groups) if seat == 0 else groups)
    return rows


def _counters(counters: list[dict], seat: int) -> str:
    return "  ·  ".join(f"{c.get('label')} {c.get('value')}" for c in counters if c.get("seat") == seat)


def _title_choices(title: str) -> list[str]:
    """"Politics domain (servants)" → its clauses, then its first word ("Politics")."""
    return list(dict.fromkeys(shorter(title) + [title.split()[0]]))


load_kv(__file__)
