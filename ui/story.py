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
from companion.outfiles import OutputError, write_text
from companion.records import RecordError, make_record, replay, unfinished_sentence

#: Counter labels worth drawing, best first: the score, then hearts/HP, then what is lost.
CHART_LABELS = ("VP", "Victory points", "Track", "Hearts", "Region HP", "Lands", "Graveyard")
DECIDED = ("round_result", "battle_result", "game_over")


def _margin(battle: dict) -> int | None:
    """How narrowly the battle's winner won it, from the engine's own numbers (None when it gives none).

    Sam's lane: the winning strike's attack over the defence it beat; Lifeforce and
    Territory: the difference of the two totals.
    """
    w = battle.get("winner")
    if w not in (0, 1):
        return None
    attack, defence, totals = battle.get("attack"), battle.get("defence"), battle.get("totals")
    if isinstance(attack, list) and isinstance(defence, list) and len(attack) == len(defence) == 2:
        return attack[w] - defence[1 - w]
    if isinstance(totals, list) and len(totals) == 2:
        return abs(totals[0] - totals[1])
    return None


def decisive(events: list[dict]) -> dict | None:
    """The battle that decided a change of the game: what the result view headlines.

    Several battles can be decided by one action (Sam's five lanes, every land
    Territory still had to fight, each Arcmage attacker's combat); the last of
    them is often the dullest ("Land 5: nobody fought here").  The decisive one:

    1. belongs to the change's winner — the game's, else the round's, else the
       side that won more of the change's battles;
    2. was fought (both sides had creatures there: Territory says how many), not
       a walk-over;
    3. was won most narrowly (attack over defence, total over total): the one the
       loser came closest to turning — or, where the engine gives no margin, hit
       hardest (Arcmage's region damage).

    Ties keep the table's order.  None when no battle was decided, or the round or game
    they belong to was tied (no battle decided a tie).
    """
    battles = [e for e in events if e.get("type") == "battle_result"]
    if not battles:
        return None
    winner = None
    for kind in ("game_over", "round_result"):
        found = [e for e in events if e.get("type") == kind]
        if found:
            winner = found[-1].get("winner")
            if winner not in (0, 1):
                return None                   # a tied round or a drawn game: no battle decided it
            break
    else:
        won = [sum(1 for b in battles if b.get("winner") == s) for s in (0, 1)]
        winner = 0 if won[0] > won[1] else 1 if won[1] > won[0] else None
    pool = [b for b in battles if winner is not None and b.get("winner") == winner] or \
        [b for b in battles if b.get("winner") in (0, 1)] or battles

    def rank(battle: dict):
        sides = battle.get("sides")
        walkover = isinstance(sides, list) and not all(sides)
        margin = _margin(battle)
        return (walkover, margin if margin is not None else 0, -int(battle.get("damage") or 0))

    return min(pool, key=rank)


@dataclass
class Step:
    """One logged action as the shared screen may tell it, and the public view after it (None
    when the story was told without whole views: :func:`tell`)."""

    n: int
    text: str
    view: dict | None
    decided: bool = False
    events: list = field(default_factory=list)      # the decided events (battles, round, game), redacted


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

    def decider(self) -> tuple[Step, dict] | None:
        """The step and battle that decided the game: where the winner took the lead for good.

        The lead is read off the chart (VP, track, lands, region HP, cards lost); the
        step at which the winner last went ahead, or the nearest decided step before
        it, gives its decisive battle (:func:`decisive`).  A game won by forfeit or
        agreement while the chart was level still names the winner's last won battle.
        """
        w = self.winner
        if w not in (0, 1):
            return None
        a, b = self.series
        since = None                                  # the chart index where the winner's last lead began
        for n in range(1, len(a)):
            lead = 0 if a[n] > b[n] else 1 if b[n] > a[n] else None
            if self.metric == "Graveyard" and lead is not None:
                lead = 1 - lead                       # fewer cards lost leads
            if lead != w:
                since = None
            elif since is None:
                since = n
        last = since if since is not None else len(self.steps)     # series[n] is after steps[n - 1]
        # the battle that put them ahead for good; when the lead came without one (a region's
        # printed HP, a forfeit), the last battle they won
        for steps in (reversed(self.steps[:last]), reversed(self.steps[last:])):
            for step in steps:
                won = [e for e in step.events if e.get("type") == "battle_result" and e.get("winner") == w]
                if won:
                    battle = decisive(step.events)
                    return step, battle if battle is not None and battle.get("winner") == w else won[-1]
        return None

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


def tell(record: dict, whole_views: bool = True) -> Story:
    """Replay ``record`` and tell its story for the shared screen.

    The end-of-game summary needs of the views only the values its chart draws
    (``whole_views=False``): each seat's counters, step by step, kept as numbers as the replay
    goes.  A whole game's views, about 1 MB for a game of Sam's, are what the History's
    step-through needs and the summary does not; even their counters alone (~0.4 MB) were the
    largest part of what building the summary made while the finished game's table was alive,
    which is what set how much memory the app kept after a game (docs/ui.md, memory).
    """
    rules = games.get(record["game"])
    start = rules.view(rules.setup(record.get("options") or {}, record["seed"]), None)   # the core normalises
    story = Story(record["game"], rules.title, list(start["players"]))
    story.start_view = start if whole_views else None
    tracks = _Tracks(start)

    def shown(state) -> dict | None:
        view = rules.view(state, None)
        tracks.add(view)
        return view if whole_views else None

    def step(n, action, state, events):
        texts = [redact_event(e, None) for e in events]
        line = " · ".join(e.get("text", "") for e in texts if e.get("text")) or \
            str(action.get("type", "?")).replace("_", " ")
        # A round's result sums up its battles (Sam's lanes); otherwise each battle's result.
        decided = []
        for kind in DECIDED:
            decided = decided or [e.get("text", "") for e in texts if e.get("type") == kind and e.get("text")]
        story.steps.append(Step(n, " · ".join(decided) if decided else line, shown(state),
                                decided=bool(decided),
                                events=[e for e in texts if e.get("type") in DECIDED]))

    try:
        _rules, state = replay(record, on_step=step)
        story.result = rules.result(state) if rules.is_over(state) else None
    except RecordError as exc:
        story.error = str(exc)
    story.metric, story.series = tracks.chart()
    return story


class _Tracks:
    """Each seat's counters (by the labels the start view gives them) after every step, as
    numbers: what the chart is drawn from."""

    def __init__(self, start: dict):
        labels = dict.fromkeys(c.get("label") for c in start.get("counters", []) if c.get("seat") in (0, 1))
        self.series: dict[str, tuple[list[int], list[int]]] = {label: ([], []) for label in labels}
        self.add(start)

    def add(self, view: dict) -> None:
        values: dict[tuple, object] = {}
        for c in view.get("counters", []):
            if c.get("seat") in (0, 1):
                values.setdefault((c.get("seat"), c.get("label")), c.get("value", 0))
        for label, series in self.series.items():
            for seat in (0, 1):
                value = values.get((seat, label), 0)
                series[seat].append(int(value) if isinstance(value, (int, float)) else 0)

    def chart(self) -> tuple[str, tuple[list[int], list[int]]]:
        """The counter that tells the game best: the first of CHART_LABELS that moved (a VP count
        that stayed 0 while region HP decided the game tells nothing), else any seat counter that
        did."""
        labels = list(self.series)
        candidates = [m for m in CHART_LABELS if m in labels] + [m for m in labels if m not in CHART_LABELS]
        for metric in candidates:
            a, b = self.series[metric]
            if len(set(a + b)) > 1:
                return metric, (a, b)
        return (candidates[0], self.series[candidates[0]]) if candidates else ("", ([], []))


def duration_text(first: str | None, last: str | None) -> str:
    """"42 min" between two SQLite timestamps; "" when either is missing."""
    try:
        start = datetime.fromisoformat(first)
        end = datetime.fromisoformat(last)
    except (TypeError, ValueError):
        return ""
    seconds = max(0.0, (end - start).total_seconds())
    if seconds < 60:
        return "under a minute"
    minutes = round(seconds / 60)
    return f"{minutes // 60} h {minutes % 60:02d} min" if minutes >= 60 else f"{minutes} min"


def export(record: dict, folder: Path, game_id: int) -> Path:
    """Write ``record`` as ``<folder>/<game>-game-<id>.json`` (what ``companion replay`` reads), whole
    or not at all and 0600 (:mod:`companion.outfiles`).  A game still being played is refused with
    an :class:`~companion.outfiles.OutputError`: its record would show the face-down cards."""
    if not (record.get("summary") or {}).get("over"):
        raise OutputError(unfinished_sentence(f"game #{game_id}", flag=None))
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{folder} cannot be made ({exc.strerror or exc})") from None
    return write_text(folder / f"{record['game']}-game-{game_id}.json",
                      json.dumps(record, indent=1, ensure_ascii=False) + "\n", "record")
