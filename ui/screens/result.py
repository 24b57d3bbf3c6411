"""The result view: a battle or round decided with the engine's reasons, or the game's summary.

It opens over the table screen when the session reports a ``battle_result``
or ``game_over`` event and lists every event of that change as the shared
screen may see it ("Lane 3: North attack 7 ≥ South defence 5 — North wins"),
so players can check the scoring against the cards on the table.

When the game is over it becomes the end-of-game summary, told from the
game's record (:mod:`ui.story`): the winner, every battle's or round's result,
how long it took, the turning points and a chart of each side's score (or
hearts, HP, lands) over the game; then *Rematch* (same players, decks and
options, a new shuffle) and *Export record* (the JSON ``companion replay``
reads, written to ``<data dir>/exports``).
"""
from __future__ import annotations

from kivy.app import App
from kivy.graphics import Color, Line, Rectangle
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from ui import story as stories
from ui import theme
from ui.kv import load_kv
from ui.memory import tidy_soon
from ui.widgets import BigButton, Modal, forget_measures


class ResultAction(BigButton):
    """The table's next step offered on a result (:meth:`ResultView.offer`), in its seat's colour."""

    seat = ObjectProperty(None, allownone=True)


class ResultView(Modal):
    title = StringProperty("")
    subtitle = StringProperty("")
    decisive = StringProperty("")          # the battle that decided it, when the title is the round or game
    winner = ObjectProperty(None, allownone=True)
    game_over = BooleanProperty(False)
    lines = ListProperty()

    def __init__(self, screen, **kwargs):
        super().__init__(**kwargs)
        self.screen = screen
        self.story = None

    def show(self, events: list[dict]) -> None:
        """Fill the view with ``events`` (already redacted for the shared screen) and open it.

        The table screen keeps one view and refills it: building a modal and its
        labels anew for every scored battle costs more than a frame.
        """
        over = [e for e in events if e.get("type") == "game_over"]
        rounds = [e for e in events if e.get("type") == "round_result"]
        battle = stories.decisive(events)
        # The headline is what was decided: the game, else the round, else the decisive battle
        # (never simply the last one: "Land 5: nobody fought here" decides nothing).
        headline = over[-1] if over else rounds[-1] if rounds else battle if battle is not None else events[-1]
        self.game_over = bool(over)
        self.title = headline.get("text", "")
        self.winner = headline.get("winner")
        self.subtitle = ""
        self.decisive = f"Decided by {battle['text']}" if battle is not None and battle is not headline \
            and battle.get("text") else ""
        lines = [e["text"] for e in events if e.get("text") and e is not headline]
        if over and self.screen.session is not None:
            lines = self._summary(headline, battle)
        self._fill(lines)
        self.offer([] if over or self.screen.session is None else self.screen.result_actions())
        if self.parent is None:
            self.open()

    def offer(self, actions: list[dict]) -> None:
        """Buttons for the table's next step beside "Back to the table" (its ``result_actions``:
        Lifeforce's call or check): one touch closes the view and makes it."""
        row = self.ids.back_row
        for old in [b for b in row.children if getattr(b, "action", None) is not None]:
            row.remove_widget(old)
        for action in reversed(actions):        # each goes leftmost: the first ends up first
            seat = action.get("seat")
            button = ResultAction(text=self.screen.action_label(action), seat=seat if seat in (0, 1) else None)
            button.action = action
            button.bind(on_release=self._take)
            row.add_widget(button, index=len(row.children))

    def _take(self, button) -> None:
        screen = self.screen
        self.dismiss()
        if screen is not None and screen.session is not None:
            screen.send(button.action)

    def dismiss(self, *args, **kwargs):
        # A result still waiting for the frame that shows its card is not opened afterwards either.
        if self.screen is not None:
            self.screen.cancel_pending_result()
        return super().dismiss(*args, **kwargs)

    def on_dismiss(self):
        screen = self.screen
        session = screen.session if screen is not None else None
        if session is not None and session.rules.is_over(session.state):
            # The game is over and its summary read: its lines, chart and their textures (a few
            # MB) go; the view stays with its table, for the next game's results.
            self.ids.chart.story = None
            self.story = None
            self._fill([])
            # ...and lets go of the table: the button that closed it lives on in Kivy's double-
            # and triple-tap check for 0.4 s after the tap (it keeps the touch, which keeps the
            # button), long enough to keep the old table alive while a new game builds the next
            # one.  The table hands itself back when it shows a result again.
            self.screen = None
        # the round or game is over and the board clears: what the scoring freed goes back (ui.memory)
        tidy_soon()

    def _summary(self, headline: dict, battle: dict | None) -> list[str]:
        """The end-of-game story: replayed from the record, so it is the same after a resume.

        Its decisive battle is where the winner took the lead for good (:meth:`Story.decider`),
        which may be long before the last action (a forfeit, the last card drawn).
        """
        session = self.screen.session
        # The game's texts measured for fitting (~1,500, ~0.4 MB by its end) are not asked again:
        # gone before the story is told, they leave room for it instead of more memory
        # (docs/ui.md, memory).  Anything the table fits from now on is measured afresh.
        forget_measures()
        story = self.story = stories.tell(session.record(), whole_views=False)
        decider = story.decider()
        if decider is not None and decider[1] is not None:
            step, battle = decider
            rounds = [e for e in step.events if e.get("type") == "round_result" and e.get("text")]
            said = f"{rounds[-1]['text']} — {battle['text']}" if rounds else battle["text"]
            # where the winner went ahead for good: "decided by" the first round of a 5–0 game misleads
            self.decisive = f"Ahead for good from {said}"
        self.ids.chart.story = story
        self.title = story.headline
        if story.winner is not None:
            self.winner = story.winner
        info = next((g for g in session.store.games() if g.id == session.id), None)
        took = stories.duration_text(info.created, info.updated) if info else ""
        a, b = story.series
        score = f"{story.metric} {winner_first(story, a[-1], b[-1])}" if story.metric and a else ""
        steps = len(story.steps)
        self.subtitle = " · ".join(t for t in (score, f"{steps} action{'' if steps == 1 else 's'}", took) if t)
        lines = ([headline["text"]] if headline.get("text") else []) + ["Results"] + [f"  {t}" for t in story.battles()]
        points = story.turning_points()
        if points:
            lines += ["Turning points"] + [f"  {t}" for t in points]
        return lines

    def _fill(self, lines: list[str]) -> None:
        self.lines = lines
        box = self.ids.lines
        shown = box.children[::-1]
        blocks = result_blocks(lines)
        for n, text in enumerate(blocks):
            bold = text.startswith(("Round", "Battle", "Results", "Turning points"))
            if n < len(shown):
                shown[n].text, shown[n].bold = text, bold
            else:
                box.add_widget(ResultLine(text=text, bold=bold))
        for line in shown[len(blocks):]:
            box.remove_widget(line)
        self.ids.scroll.scroll_y = 1

    def new_game(self):
        app = App.get_running_app()
        game = self.screen.session.rules.name
        self.dismiss()
        app.go("setup", game=game)

    def rematch(self):
        """The same game again: same players, decks and options, a new seed."""
        session = self.screen.session
        game, options = session.rules.name, dict(session.options)
        self.dismiss()
        App.get_running_app().controller.start_game(game, options)

    def export(self):
        session = self.screen.session
        app = App.get_running_app()
        try:
            path = stories.export(session.record(), app.controller.config.data_dir / "exports", session.id)
        except OSError as exc:
            self.subtitle = f"Could not write the record: {exc.strerror or exc}"
            return
        self.subtitle = f"Record written to {path}"


class ResultLine(Label):
    """One line of the view, or a summary's list under its heading (:func:`result_blocks`)."""


def result_blocks(lines: list[str]) -> list[str]:
    """``lines`` as the view's labels show them: a summary's lists (its results and turning points,
    each entry indented under its heading) in one label each, entry under entry, where each
    entry's indent still marks where it begins; every other line in a label of its own.

    A label a line made ~20 Kivy labels for a game of Sam's, each ~35 KB of Python objects, on
    top of the round's few, all made while the finished game's table was still alive: the
    app's busiest moment for memory, which set how much it kept after the game (docs/ui.md,
    memory).  Now the summary needs no more labels than a round's result has made."""
    blocks: list[str] = []
    for text in lines:
        if text.startswith("  ") and blocks and blocks[-1].startswith("  "):
            blocks[-1] += "\n" + text
        else:
            blocks.append(text)
    return blocks


class ScoreChart(Widget):
    """Each side's score (or hearts, HP, lands) after every action, one line per seat colour.

    Drawn with Kivy's own graphics instructions, redrawn only when the story
    or the size changes: a still chart costs nothing per frame.
    """

    story = ObjectProperty(None, allownone=True)
    caption = StringProperty("")

    def on_story(self, *_args):
        self.redraw()

    def on_size(self, *_args):
        self.redraw()

    def on_pos(self, *_args):
        self.redraw()

    def redraw(self) -> None:
        self.canvas.clear()
        story = self.story
        if story is None or not story.metric or not story.series[0]:
            self.caption = ""
            return
        a, b = story.series
        low, high = min(a + b + [0]), max(a + b + [1])
        n = max(1, len(a) - 1)
        app = App.get_running_app()
        scale = app.scale if app else 1.0
        pad = 6 * scale
        x0, y0 = self.x + pad, self.y + pad
        w, h = max(1.0, self.width - 2 * pad), max(1.0, self.height - 2 * pad)
        with self.canvas:
            Color(*theme.PANEL_LIGHT)
            Rectangle(pos=self.pos, size=self.size)
            Color(*theme.MUTED)
            Line(points=[x0, y0, x0 + w, y0], width=1)
            for seat, values in ((0, a), (1, b)):
                Color(*theme.seat_colour(seat))
                points = []
                for i, v in enumerate(values):
                    points += [x0 + w * i / n, y0 + h * (v - low) / (high - low or 1)]
                if len(points) == 2:
                    points += [points[0] + w, points[1]]
                Line(points=points, width=2.2 * scale)
        names = story.players
        first, second = (1, 0) if story.winner == 1 else (0, 1)
        ends = (a[-1], b[-1])
        self.caption = (f"{story.metric} after each action — "
                        f"{names[first]} {ends[first]}, {names[second]} {ends[second]}")


def winner_first(story, a: int, b: int) -> str:
    """A final score as players say it, the winner's first: "5–3" for either winner."""
    return f"{b}–{a}" if story.winner == 1 else f"{a}–{b}"


load_kv(__file__)
