"""A game's story, told from its record: what the end-of-game summary and History show.

Everything here is computed by replaying the record (:func:`companion.records.replay`),
never from what a screen happened to see, so a game resumed after a power cut,
a past game opened from History and the game just finished tell the same story.
Only the shared screen's view (``view(state, None)``) and events redacted for
it are used: a card that was face down when it was played is still face down
in every step's text.  No Kivy here, so tests and the exporter can use it too.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from companion import games
from companion.engine import redact_event
from companion.records import RecordError, make_record, replay

#: Counter labels worth drawing, best first: the score, then hearts/HP, then what is lost.
CHART_LABELS = ("VP", "Victory points", "Track", "Hearts", "Region HP", "Lands", "Graveyard")
DECIDED = ("round_result", "battle_result", "game_over")


@dataclass
class Step:
    """One logged action as the shared screen may tell it, and the public view after it."""

    n: int
    text: str
    view: dict
    decided: bool = False


@dataclass
class Story:
    game: str
    title: str
    players: list[str]
    steps: list[Step] = field(default_factory=list)
    start_view: dict | None = None
    metric: str = ""                                   # the counter label the chart draws
    series: tuple[list[int], list[int]] = ((), ())    # its value per seat, at the start and after each step
    result: dict | None = None
    error: str = ""                                    # the record stopped replaying here (kept, not raised)

    @property
    def winner(self):
        return (self.result or {}).get("winner")

    @property
    def headline(self) -> str:
        if self.result is None:
            return f"{self.title}: not finished"
        if self.winner in (0, 1):
            return f"{self.players[self.winner]} wins {self.title}"
        return f"{self.title}: no winner"

    def battles(self) -> list[str]:
        """Each battle's, round's or the game's decision, in the words of the engine."""
        return [s.text for s in self.steps if s.decided]

    def turning_points(self, limit: int = 6) -> list[str]:
        """Moments the lead on the chart changed hands ("Action 14: South takes the lead, VP 2–3")."""
        out = []
        a, b = self.series
        leader = None
        for n in range(1, len(a)):
            now = 0 if a[n] > b[n] else 1 if b[n] > a[n] else None
            if self.metric in ("Graveyard",):
                now = None if now is None else 1 - now             # fewer lost cards leads
            if now is not None and now != leader:
                verb = "takes the lead" if leader is not None else "leads"
                out.append(f"Action {n}: {self.players[now]} {verb}, {self.metric} {a[n]}–{b[n]}")
            if now is not None:
                leader = now
        return out[-limit:]


def record_of(store, game_id: int) -> dict:
    """The record of a stored game (as ``companion export`` writes it)."""
    game, options, seed, actions, _redo = store.load_game(game_id)
    rules = games.get(game)
    _rules, state = replay({"format": "tabletop-companion-record", "version": 1, "game": game,
                            "options": options, "seed": seed, "actions": actions})
    return make_record(rules, options, seed, actions, state)


def tell(record: dict) -> Story:
    """Replay ``record`` and tell its story for the shared screen."""
    rules = games.get(record["game"])
    options = rules.normalise_options(record.get("options") or {})
    players = list(options.get("players") or ["North", "South"])
    story = Story(record["game"], rules.title, players)
    story.start_view = rules.view(rules.setup(options, record["seed"]), None)

    def step(n, action, state, events):
        texts = [redact_event(e, None) for e in events]
        line = " · ".join(e.get("text", "") for e in texts if e.get("text")) or \
            str(action.get("type", "?")).replace("_", " ")
        # A round's result sums up its battles (Sam's lanes); otherwise each battle's result.
        decided = []
        for kind in DECIDED:
            decided = decided or [e.get("text", "") for e in texts if e.get("type") == kind and e.get("text")]
        story.steps.append(Step(n, " · ".join(decided) if decided else line, rules.view(state, None),
                                decided=bool(decided)))

    try:
        _rules, state = replay(record, on_step=step)
        story.result = rules.result(state) if rules.is_over(state) else None
    except RecordError as exc:
        story.error = str(exc)
    story.metric, story.series = _chart(story)
    return story


def _chart(story: Story) -> tuple[str, tuple[list[int], list[int]]]:
    """The counter that tells the game best: the first of CHART_LABELS that moved (a VP count
    that stayed 0 while region HP decided the game tells nothing), else any seat counter that did."""
    views = [story.start_view] + [s.view for s in story.steps]
    labels = list(dict.fromkeys(c.get("label") for c in story.start_view.get("counters", [])
                                if c.get("seat") in (0, 1)))
    candidates = [m for m in CHART_LABELS if m in labels] + [m for m in labels if m not in CHART_LABELS]
    best = ("", ([], []))
    for metric in candidates:
        series = ([], [])
        for view in views:
            for seat in (0, 1):
                value = next((c.get("value", 0) for c in view.get("counters", [])
                              if c.get("seat") == seat and c.get("label") == metric), 0)
                series[seat].append(int(value) if isinstance(value, (int, float)) else 0)
        if not best[0]:
            best = (metric, series)
        if len(set(series[0] + series[1])) > 1:
            return metric, series
    return best


def duration_text(first: str | None, last: str | None) -> str:
    """"42 min" between two SQLite timestamps; "" when either is missing."""
    try:
        start = datetime.fromisoformat(first)
        end = datetime.fromisoformat(last)
    except (TypeError, ValueError):
        return ""
    minutes = max(0, round((end - start).total_seconds() / 60))
    return f"{minutes // 60} h {minutes % 60:02d} min" if minutes >= 60 else f"{minutes} min"


def export(record: dict, folder: Path, game_id: int) -> Path:
    """Write ``record`` as ``<folder>/<game>-game-<id>.json`` (what ``companion replay`` reads)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{record['game']}-game-{game_id}.json"
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
