"""Widgets every screen uses: buttons, seat badges, counters, zones, cards, banners.

They only show what they are given and report touches; what a touch means is
decided by the screen (usually: an action sent through ``app.controller``).
"""
from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import (BooleanProperty, ColorProperty, ListProperty, NumericProperty, ObjectProperty,
                             StringProperty)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from ui import memory, theme
from ui.kv import load_kv


class BigButton(Button):
    """A flat button at least 48 px high; ``tone`` is its background colour."""

    tone = ListProperty(theme.PANEL_LIGHT)


class Panel(BoxLayout):
    """A box with a flat background colour."""

    tone = ListProperty(theme.PANEL)


class SeatBadge(Label):
    """A player's name on their seat colour (seat None: neutral)."""

    seat = ObjectProperty(None, allownone=True)


class Banner(ButtonBehavior, Label):
    """A message across the screen: a rejected scan, an error, an undo.

    ``show(text)`` displays it for ``seconds`` (one Clock event, not a
    per-frame callback); touching it hides it at once.
    """

    tone = ListProperty(theme.WARNING)
    shown = BooleanProperty(False)
    _hide_event = None

    def show(self, text: str, tone=None, seconds: float = 8.0) -> None:
        self.text = text
        self.tone = tone or theme.WARNING
        self.shown = True
        if self._hide_event is not None:
            self._hide_event.cancel()
        self._hide_event = Clock.schedule_once(lambda _dt: self.hide(), seconds)

    def hide(self) -> None:
        if self.shown:
            memory.tidy_soon()          # its redraw leaves freed memory behind, as the notes' does
        self.shown = False
        self.text = ""
        if self._hide_event is not None:
            self._hide_event.cancel()
            self._hide_event = None

    def on_press(self):
        self.hide()


class Modal(ModalView):
    """A view over the screen that opens and closes at once: no fade, so no idle
    animation frames and no touch lost to a view that is still closing.

    Flat, on the panel colour: Kivy's default background is an image in its theme
    atlas, and the first view drawn with it loads the whole atlas (a 512 × 512
    texture, about 1 MB) for a picture the app paints over."""

    background = StringProperty("")
    background_color = ColorProperty(theme.PANEL)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._anim_duration = 0

    def dismiss(self, *args, **kwargs):
        # Gone now, not after a zero-length fade at the next frame: until then the fade holds
        # the view, and a result view closed by the button that starts the next game (Rematch)
        # would keep the old table it points to alive while the new one is built.
        kwargs.setdefault("animation", False)
        return super().dismiss(*args, **kwargs)


class CounterAdjust(Modal):
    """− / + for one counter, big enough for a finger; the value shown is the session's."""

    counter = ObjectProperty(None)
    title = StringProperty("")
    value = NumericProperty(0)

    def __init__(self, counter: CounterBox, **kwargs):
        super().__init__(counter=counter, **kwargs)
        self.title = f"Correct {counter.owner}'s {counter.title}" if counter.owner else f"Correct {counter.title}"
        self.value = counter.value
        self._follow = self.setter("value")
        counter.bind(value=self._follow)

    def adjust(self, delta: int) -> None:
        self.counter.dispatch("on_adjust", delta)

    def on_dismiss(self):
        self.counter.unbind(value=self._follow)


# ---- text that fits -----------------------------------------------------------------------

_fit_cache: dict[tuple, tuple[float, float, float]] = {}
#: measured texts and words kept at most; the oldest go first.  The same few labels are measured
#: again and again (a zone's words, a counter's title), but most of a game's ~1,500 texts are its
#: sentences, each measured once or twice: kept all game long they were ~0.4 MB by its end, made
#: while play went on and alive at its busiest moment (the summary built over the table), which
#: is what set how much memory the app kept after a game (docs/ui.md, memory)
MAX_MEASURED = 600
MAX_WORDS = 800


def measure(text: str, font_size: float, bold: bool, width: float | None) -> tuple[float, float, float]:
    """``(width, height, widest word)`` of ``text`` laid out by Kivy's own text layout, wrapped at
    ``width`` (None: one line per paragraph).  Cached: the same few labels are measured again and
    again as the game goes on."""
    key = (text, round(font_size, 2), bold, None if width is None else round(width))
    found = _fit_cache.get(key)
    if found is None:
        from kivy.core.text import Label as CoreLabel
        core = CoreLabel(text=text, font_size=font_size, bold=bold, text_size=(width, None), halign="left")
        core.render()
        w, h = core._internal_size
        word = max((_word_width(core, part, key[1], bold) for part in text.split()), default=0)
        _forget_oldest(_fit_cache, MAX_MEASURED)
        _fit_cache[key] = found = (w, h, word)
    return found


def _forget_oldest(cache: dict, most: int) -> None:
    while len(cache) >= most:
        del cache[next(iter(cache))]


#: each word's width at a font size: a new sentence ("Lane 3: North attack 9 ≥ South defence 4")
#: is mostly words measured before, and measuring each word again was most of the work of the
#: pad event that ends a round in Sam's (docs/ui.md, the slowest pad events)
_word_cache: dict[tuple, float] = {}


def _word_width(core, word: str, font_size: float, bold: bool) -> float:
    key = (word, font_size, bold)
    width = _word_cache.get(key)
    if width is None:
        _forget_oldest(_word_cache, MAX_WORDS)
        width = _word_cache[key] = core.get_extents(word)[0]
    return width


def forget_measures() -> None:
    """Drop the measured texts: called when a game goes (its table with it, or kept for a
    rematch), whose texts the next game mostly does not show again.  Kept across games they
    were ~1,700 small entries after three games, made while play went on and scattered among
    the table's objects, so that some of the memory the freed table left could not go back
    (0.5 MB in `companion bench ui`'s reading after two games; docs/ui.md, memory)."""
    _fit_cache.clear()
    _word_cache.clear()


def fits(text: str, font_size: float, bold: bool, width: float, height: float) -> bool:
    """Whether ``text`` fits a ``width`` × ``height`` box whole: every word on one line, every
    line inside."""
    if not text:
        return True
    if width <= 0 or height <= 0:
        return False
    w, h, word = measure(text, font_size, bold, width)
    return word <= width and w <= width + 0.5 and h <= height + 0.5


class FitLabel(Label):
    """A label that shows the first of its ``choices`` that fits its box in whole words.

    Choices go from the most to the least detailed ("Lane 1: North attack 10 ≥ South
    defence 8 — North wins", "North wins 10 ≥ 8", "Won"): a 1280×800 screen shows the long
    ones, the 800×480 one the short ones, and nothing is ever cut off or broken mid-word.
    The last choice is shown even when it does not fit (the UI tests catch that).
    """

    choices = ListProperty()

    def __init__(self, **kwargs):
        # a bound method, which Kivy's clock holds weakly: a label whose screen was let go with a
        # pick pending must not keep that screen alive until the next frame (docs/ui.md, memory)
        self._pick_trigger = Clock.create_trigger(self._pick_later, -1)
        super().__init__(**kwargs)
        self.bind(choices=self._pick_trigger, size=self._pick_trigger, font_size=self._pick_trigger,
                  bold=self._pick_trigger)

    def _pick_later(self, _dt) -> None:
        self.pick()

    def texture_update(self, *largs):
        # The words first, when a pick is pending: drawn before it, the texture was drawn again at
        # once with the words it picked (the turn badge, whose colour and name change together
        # every turn, was drawn twice a card; docs/ui.md, the slowest pad events).
        if self._pick_trigger.is_triggered:
            self._pick_trigger.cancel()
            self.pick()
            self._trigger_texture.cancel()       # drawn now, with those words
        super().texture_update(*largs)

    def pick(self) -> None:
        pad = self.padding
        width, height = self.width - pad[0] - pad[2], self.height - pad[1] - pad[3]
        options = [c for c in self.choices if c is not None]
        chosen = ""
        for text in options:
            chosen = text
            if fits(text, self.font_size, self.bold, width, height):
                break
        self.text = chosen


class FitButton(ButtonBehavior, FitLabel):
    """A flat button (≥ 48 px) whose words are the first of ``choices`` that fit."""

    tone = ListProperty(theme.PANEL_LIGHT)


# ---- counters -------------------------------------------------------------------------------

class CounterBox(ButtonBehavior, BoxLayout):
    """One counter: a short title beside a big value (40 px digits).  Touching a counter
    players may correct opens :class:`CounterAdjust` with − and + (each touch is one logged
    ``adjust``); a small corner mark says which ones may be corrected."""

    counter_id = StringProperty("")
    seat = ObjectProperty(None, allownone=True)
    title = StringProperty("")
    #: shorter titles tried when ``title`` does not fit ("Victory points", "VP")
    short_titles = ListProperty()
    owner = StringProperty("")          # the player's name, for the adjuster's title
    value = NumericProperty(0)
    adjustable = BooleanProperty(False)

    __events__ = ("on_adjust",)

    def on_release(self):
        if self.adjustable:
            CounterAdjust(counter=self).open()

    def on_adjust(self, delta):
        pass


# ---- cards and zones ------------------------------------------------------------------------

class CardChip(Label):
    """One card in a zone: its face, or a card back when it lies face down."""

    hidden = BooleanProperty(False)
    compact = BooleanProperty(False)       # kept for the simulated table's drag ghost


#: chips no zone shows now, kept for any zone's next cards.  Making a chip (a Label and its kv
#: rules) was most of a card's way to the screen; and when each zone kept only its own few, a
#: game of Sam's made and dropped some 16 chips (~50 KB each) after its first rounds, garbage
#: that spread the app's memory over more of the heap (docs/ui.md, memory)
_spare_chips: list = []
MAX_SPARE_CHIPS = 64


class ChipArea(Widget):
    """Cards as chips, left to right and row by row, as many as fit its box.

    ``cards`` is ``[(choices, hidden)]``: each card's texts from long to short ("Indian
    Peafowl", "Peafowl").  Cards that do not fit give their place to one "+3" chip, so a
    tall stack never spills out of its zone.
    """

    cards = ListProperty()
    align = StringProperty("center")

    def __init__(self, **kwargs):
        self._trigger = Clock.create_trigger(self._arrange_later, -1)      # held weakly, as FitLabel's
        super().__init__(**kwargs)
        self.bind(cards=self._trigger, size=self._trigger, pos=self._trigger)

    def _fscale(self) -> float:
        app = App.get_running_app()
        return app.fscale if app else 1.0

    def _arrange_later(self, _dt) -> None:
        self.arrange()

    def arrange(self) -> None:
        fs = self._fscale()
        app = App.get_running_app()
        bs = app.bscale if app else 1.0
        pad, gap = 10 * bs, 4 * bs
        # Playing-card faces ("10♥", a card back) at the size read at a metre (theme.FONT_FACE)
        # when they all fit whole; else, and for names, the body size.
        face = (theme.FONT_FACE_LARGE_WINDOW if app and app.scale >= 1.5 else theme.FONT_FACE) * fs
        short = self.cards and all(len((choices or ["?"])[0]) <= 3 for choices, _hidden in self.cards)
        for font in ([face] if short else []) + [theme.FONT_BODY * fs]:
            chip_h = round(font + 11 * bs)   # 29 px at the body size; a larger text adds only its own height
            rows = max(0, int((self.height + gap) // (chip_h + gap)))
            items = []
            for choices, hidden in self.cards:
                text, width = self._chip(choices, hidden, font, pad, self.width)
                items.append((text, hidden, width))
            lines = self._rows(items, rows, gap)
            if lines is not None:
                break
        shown = len(items)
        while lines is None and shown > 0:
            shown -= 1
            more = f"+{len(items) - shown}"
            lines = self._rows(items[:shown] + [(more, False, measure(more, font, True, None)[0] + pad)],
                               rows, gap)
        lines = lines or []
        chips = self.children[::-1]
        n = 0
        block_h = len(lines) * (chip_h + gap) - gap
        top = self.y + self.height / 2 + block_h / 2 if self.align == "center" else self.top
        for r, line in enumerate(lines):
            row_w = sum(w for _t, _h, w in line) + gap * (len(line) - 1)
            x = self.x + (self.width - row_w) / 2 if self.align == "center" else self.x
            y = top - (r + 1) * chip_h - r * gap
            for text, hidden, width in line:
                if n < len(chips):
                    chip = chips[n]
                else:
                    chip = _spare_chips.pop() if _spare_chips else CardChip(size_hint=(None, None))
                    self.add_widget(chip)
                chip.text, chip.hidden = text, hidden
                chip.font_size, chip.size, chip.pos = font, (width, chip_h), (x, y)
                x += width + gap
                n += 1
        for chip in chips[n:]:
            self.remove_widget(chip)
            if len(_spare_chips) < MAX_SPARE_CHIPS:
                _spare_chips.append(chip)

    def _rows(self, items, rows: int, gap: float):
        """``items`` in at most ``rows`` rows of this width, or None when they do not fit."""
        lines: list[list] = []
        used = 0.0
        for text, hidden, width in items:
            if text is None:
                return None
            if not lines or used + gap + width > self.width:
                if len(lines) >= rows or width > self.width:
                    return None
                lines.append([])
                used = -gap
            lines[-1].append((text, hidden, width))
            used += gap + width
        return lines

    @staticmethod
    def _chip(choices, hidden, font, pad, room) -> tuple[str | None, float]:
        options = [c for c in choices if c] or ["?"]
        for text in options:
            width = max(measure(text, font, True, None)[0] + pad, font * 1.6)
            if width <= room:
                return text, width
        return None, 0.0


class ZoneBox(ButtonBehavior, FloatLayout):
    """A zone of the table: its title, its cards (hidden ones as backs) and a few words about it.

    ``title`` and ``info`` are lists of choices for a :class:`FitLabel` (longest first).
    ``counters`` (a BoxLayout, ``ids.counters``) holds counters that belong to the zone (a
    region's HP, a domain's points).  ``note`` lays what just happened here over the zone for
    a few seconds (a hit, a reveal, a claim); ``outcome`` marks a decided battle: "won"
    (a thick frame in the winner's own colour), "lost" or "tie", with its reason in ``reason``.
    """

    zone_id = StringProperty("")
    seat = ObjectProperty(None, allownone=True)
    #: what the zone said (words, counters) when its note was laid (:meth:`_check_note`)
    _note_over: tuple = ()
    title = ListProperty()
    info = ListProperty()
    #: how many lines of ``info`` at most (more when the zone is tall)
    info_lines = NumericProperty(2)
    cards = ListProperty()          # [(choices, hidden)]
    highlight = BooleanProperty(False)
    note = ListProperty()
    outcome = StringProperty("")    # "", "won", "lost", "tie"
    reason = ListProperty()
    #: the zone shows no chips (its cards are told in words, e.g. a land)
    chips = BooleanProperty(True)
    #: its words are a count and all it shows (Territory's ready pad, "Ready pile: 6 creatures"):
    #: a note would hide that number, so it gets none (the count changing, the feed and the status
    #: line tell what happened there)
    counts = BooleanProperty(False)

    #: a card is being placed (simulated table): the whole zone is its pad, counters in it included
    takes_cards = BooleanProperty(False)
    #: at most this many lines of ``info``; fewer when the zone is short
    max_info_lines = NumericProperty(2)
    #: too short for a title line above its words (a board squeezed by a solo game's tray at
    #: 800×480): the title leads the words on one line ("Support · support 0") instead of
    #: spilling over the row above
    compact = BooleanProperty(False)
    #: the words shown: ``info``, led by the title when ``compact``
    shown_info = ListProperty()

    def on_size(self, _instance, size):
        app = App.get_running_app()
        fs = app.fscale if app else 1.0
        self.info_lines = max(1, min(self.max_info_lines, int(size[1] // (64 * fs))))
        self._fit_title()

    def on_kv_post(self, *_args):
        self._fit_title()
        self.ids.counters.bind(children=self._watch_counters)

    def on_title(self, *_args):
        self._fit_title()

    def on_info(self, *_args):
        self._fit_title()
        self._check_note()

    def on_reason(self, *_args):
        self._check_note()

    def _fit_title(self) -> None:
        title_label = self.ids.get("title_label")
        if title_label is None:
            return
        app = App.get_running_app()
        scale = app.bscale if app else 1.0
        needed = title_label.font_size * 1.25 + title_label.font_size * 1.2 + 2 + 10 * scale
        self.compact = bool(self.title) and bool(self.info) and self.height < needed + self.ids.counters.height
        if self.compact:
            self.shown_info = ([f"{t} · {i}" for i in self.info for t in self.title if i is not None]
                               + [i for i in self.info if i is not None])
        else:
            self.shown_info = list(self.info)

    def on_touch_down(self, touch):
        if self.takes_cards and self.collide_point(*touch.pos) and not self.disabled:
            self.dispatch("on_release")
            return True
        return super().on_touch_down(touch)

    def flash(self, choices: list[str], seconds: float = 4.0) -> None:
        """Lay ``choices`` (longest first) over the zone until ``seconds`` after the last move, or
        until the zone's words or counters change, or the next move lays its notes."""
        if self.counts:
            return
        self.note = list(choices)
        self._note_over = self._numbers()
        _NOTES.keep(self, seconds)

    def clear_note(self) -> None:
        self.note = []
        _NOTES.boxes.discard(self)

    def _numbers(self) -> tuple:
        """What the zone says in words, counters and a battle's result ("Ready pile: 6 creatures", a
        region's HP, "North wins 5 to 3")."""
        counters = self.ids.get("counters")
        values = tuple(getattr(c, "value", None) for c in counters.children) if counters is not None else ()
        return tuple(self.info), tuple(self.reason), values

    def _check_note(self, *_args) -> None:
        # A note tells of a moment: once the zone's words or counters say something else, it is old,
        # and an old note over a new count contradicts it ("adds a creature: 6 creatures" over
        # "Ready pile: 0 creatures").  Notes never lie over a counter (widgets.kv), only over words.
        if self.note and self._numbers() != self._note_over:
            self.clear_note()

    def _watch_counters(self, _layout, children) -> None:
        for counter in children:
            counter.unbind(value=self._check_note)
            counter.bind(value=self._check_note)


class _Notes:
    """The zones' notes all go together, ``seconds`` after the last one appeared.

    A move leaves notes on several zones; each going on its own timer meant one
    redraw of the whole window per note (a tenth of a second of CPU each with a
    software renderer) in the seconds after every burst of play.  One timer
    clears them all in one frame.
    """

    def __init__(self):
        self.boxes: set = set()
        self._event = None
        self._next_move = False
        #: what times them (Kivy's clock; a test may put one it moves itself here)
        self.clock = Clock

    def next_move(self) -> None:
        """The notes laid from now on tell of a new move: the first of them takes the place of the
        notes left by earlier moves (a quick player saw a board of old notes, each one move older,
        under one timer that every move put off; the feed keeps the last few moves)."""
        self._next_move = True

    def keep(self, box, seconds: float) -> None:
        if self._next_move:
            self._next_move = False
            for old in list(self.boxes - {box}):
                old.clear_note()
        self.boxes.add(box)
        if self._event is not None:
            self._event.cancel()
        self._event = self.clock.schedule_once(self._clear, seconds)

    def _clear(self, _dt=None) -> None:
        self._event = None
        for box in list(self.boxes):
            box.clear_note()
        # the redraw that clears them leaves freed memory behind: tidied once the table is still
        memory.tidy_soon()


_NOTES = _Notes()


def notes_of_a_new_move() -> None:
    """The zones' notes laid from now on tell of a new move (:meth:`_Notes.next_move`)."""
    _NOTES.next_move()


class Feed(Label):
    """The last few things that happened: in a strip of its own under the board when the window
    has room for one (``strip``, its height: it stays, the log's last entries), else laid over the
    board for a few seconds, away from what it tells of.

    Touches go through it to the zones below: it never stands between a finger and a zone.
    """

    lines = ListProperty()
    shown = BooleanProperty(False)
    #: its height in its own strip under the board (0: it lies over the board)
    strip = NumericProperty(0)
    #: entries over the board; lines of text in its strip (whole entries, as many as fit)
    MAX_LINES = 3
    MAX_STRIP_LINES = 5
    _hide_event = None

    def add(self, texts: list[str], seconds: float | None = 5.0) -> None:
        """Show ``texts`` after the lines shown; ``seconds`` later it hides (None: it stays)."""
        if not texts:
            return
        self.show((list(self.lines) + list(texts))[-(self.MAX_STRIP_LINES if self.strip else self.MAX_LINES):],
                  seconds)

    def show(self, lines: list[str], seconds: float | None = 5.0) -> None:
        """Show exactly ``lines``; ``seconds`` later it hides (None: it stays)."""
        self.lines = list(lines)
        self.shown = True
        if self._hide_event is not None:
            self._hide_event.cancel()
            self._hide_event = None
        if seconds is not None:
            self._hide_event = Clock.schedule_once(lambda _dt: self.hide(), seconds)

    def hide(self) -> None:
        if self.shown:
            # the last thing to go on a table that settles (5 s, the notes 4 s): without this the
            # tidying could run just before it, and what its redraw freed stayed in the heap
            memory.tidy_soon()
        self.shown = False
        if self._hide_event is not None:
            self._hide_event.cancel()
            self._hide_event = None

    def on_touch_down(self, touch):
        return False



load_kv(__file__)
