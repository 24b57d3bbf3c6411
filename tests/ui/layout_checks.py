"""What every screen must satisfy, checked on the real widgets a real window drew.

* every label's text fits its box whole: no line outside it, no word broken
  in the middle, no "…" (Kivy's own text layout is the judge);
* no two visible widgets of a layout overlap, and none sticks out of its
  layout (overlays — banners, the feed, a zone's note — lie in FloatLayouts
  on purpose and are left out);
* body text at least 18 px, counters at least 40 px and touch targets at least
  48 px at 800×480.
"""
from __future__ import annotations

from kivy.core.text import Label as CoreLabel
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.stacklayout import StackLayout
from kivy.uix.behaviors import ButtonBehavior

SLACK = 1.0         # px: rounding in Kivy's layouts


def visible(widget) -> bool:
    w = widget
    while w is not None:
        if w.opacity == 0 or getattr(w, "disabled", False) and w.opacity == 0:
            return False
        if w.width <= 0 or w.height <= 0:
            return False
        parent = w.parent
        if parent is w:
            break
        w = parent
    return True


def _widgets(root):
    stack = [root]
    while stack:
        w = stack.pop()
        yield w
        stack.extend(w.children)


def label_problem(label: Label) -> str | None:
    """Why ``label``'s text does not fit its box whole, or None."""
    text = label.text
    if not text.strip():
        return None
    if label.shorten:
        return f"{text!r} may be shortened with an ellipsis"
    pad = label.padding
    width = label.width - pad[0] - pad[2]
    height = label.height - pad[1] - pad[3]
    wrap = label.text_size[0]
    core = CoreLabel(text=text, font_size=label.font_size, bold=label.bold, font_name=label.font_name,
                     text_size=(wrap - pad[0] - pad[2] if wrap else None, None), line_height=label.line_height)
    core.render()
    w, h = core._internal_size
    if w > width + SLACK or h > height + SLACK:
        return f"{text!r} needs {w:.0f}×{h:.0f} px, has {width:.0f}×{height:.0f}"
    if wrap:
        for word in text.split():
            ww = core.get_extents(word)[0]
            if ww > width + SLACK:
                return f"{text!r}: the word {word!r} ({ww:.0f} px) is broken across lines in {width:.0f} px"
    if label.max_lines and text.count("\n") + 1 > label.max_lines:
        return f"{text!r} has more lines than max_lines"
    return None


def text_problems(root) -> list[str]:
    out = []
    for w in _widgets(root):
        if isinstance(w, Label) and visible(w):
            problem = label_problem(w)
            if problem:
                out.append(f"{type(w).__name__}: {problem}")
    return out


def _rect(w):
    x, y = w.to_window(w.x, w.y)
    return x, y, x + w.width, y + w.height


def _overlap(a, b) -> bool:
    return a[0] < b[2] - SLACK and b[0] < a[2] - SLACK and a[1] < b[3] - SLACK and b[1] < a[3] - SLACK


LAYOUTS = (BoxLayout, GridLayout, StackLayout)


def overlap_problems(root) -> list[str]:
    """Siblings in a layout that overlap, and children that stick out of their layout."""
    out = []
    for parent in _widgets(root):
        kids = [k for k in parent.children if visible(k)]
        if not kids:
            continue
        if isinstance(parent, LAYOUTS) or type(parent).__name__ == "ChipArea":
            p = _rect(parent)
            rects = [(k, _rect(k)) for k in kids]
            for k, r in rects:
                if r[0] < p[0] - SLACK or r[1] < p[1] - SLACK or r[2] > p[2] + SLACK or r[3] > p[3] + SLACK:
                    out.append(f"{_name(k)} sticks out of {_name(parent)}: {r} not in {p}")
            for i, (a, ra) in enumerate(rects):
                for b, rb in rects[i + 1:]:
                    if _overlap(ra, rb):
                        out.append(f"{_name(a)} overlaps {_name(b)} in {_name(parent)}")
    return out


def _name(w) -> str:
    text = getattr(w, "text", "")
    return f"{type(w).__name__}({text[:30]!r})" if text else type(w).__name__


def size_problems(root, fscale: float = 1.0) -> list[str]:
    """Text under 18 px times ``fscale`` (the text size), counter digits under 40 px and touch
    targets under 48 px (already readable at a metre and a finger's size, whatever the text size)."""
    out = []
    for w in _widgets(root):
        if not visible(w):
            continue
        if isinstance(w, Label) and w.text.strip() and w.font_size < 18 * fscale - 0.01:
            out.append(f"{_name(w)} is {w.font_size:.1f} px")
        if type(w).__name__ == "CounterBox":
            value = [k for k in w.children if isinstance(k, Label) and k.bold]
            if not value or value[0].font_size < 40 - 0.01:
                out.append(f"counter {w.counter_id} digits are under 40 px")
        if isinstance(w, (Button, ButtonBehavior)) and not getattr(w, "disabled", False) \
                and type(w).__name__ != "ZoneBox" and (w.height < 48 - SLACK or w.width < 48 - SLACK):
            out.append(f"{_name(w)} is a {w.width:.0f}×{w.height:.0f} touch target")
    return out


def overlay_problems(screen) -> list[str]:
    """What lies over the table hides no counter: no zone's note over a counter (a region's HP, the
    land deck's), and the feed over no row that holds counters (a seat's strip, Vita Luna's hearts
    and tracks) — the numbers a player reads stay in sight whatever was just said."""
    from ui.widgets import CounterBox, ZoneBox
    board = screen.ids.board
    counters = [w for w in _widgets(board) if isinstance(w, CounterBox) and visible(w)]
    rows = {id(c.parent): c.parent for c in counters}
    out = []
    for box in _widgets(board):
        if isinstance(box, ZoneBox) and box.note and visible(box.ids.note_label):
            note = _rect(box.ids.note_label)
            for counter in counters:
                if _overlap(note, _rect(counter)):
                    out.append(f"the note {box.ids.note_label.text!r} on {box.zone_id or 'a zone'} lies over "
                               f"the counter {counter.title!r} ({counter.value})")
    feed = screen.ids.feed
    if feed.shown and feed.lines and visible(feed):
        for row in rows.values():
            if _overlap(_rect(feed), _rect(row)):
                hidden = [f"{c.title} {c.value}" for c in counters if c.parent is row and _overlap(_rect(feed), _rect(c))]
                out.append(f"the feed ({screen.feed_place}) lies over a counter row: {hidden or _name(row)}")
    return out


def all_problems(root, fscale: float = 1.0) -> list[str]:
    return text_problems(root) + overlap_problems(root) + size_problems(root, fscale)


def feed_problems(screen, said: list[str]) -> list[str]:
    """In a window with room for it (1280×800) the feed lies in its own strip under the board: over
    no zone and no counter row at all, beside the card drawer, and it reads as the log's last
    entries — at least the three the feed shows over the board (all there are when fewer), each
    whole under its bullet (the beginning of its sentence on one line, or the whole sentence),
    ``said`` (every sentence the table said, in order) ending with them, and all inside the strip."""
    from kivy.core.window import Window
    from ui.widgets import CounterBox, ZoneBox
    feed = screen.ids.feed
    if not feed.strip:
        return [f"the feed has no strip of its own at {Window.width}×{Window.height}"]
    out = []
    where = _rect(feed)
    if where[2] > Window.width - screen.drawer_width + SLACK or where[1] < _rect(screen.ids.bottom)[3] - SLACK:
        out.append(f"the feed {where} is not between the bottom bar and the board, beside the drawer")
    covered = [w for w in _widgets(screen.ids.board) if isinstance(w, (ZoneBox, CounterBox)) and visible(w)
               and _overlap(where, _rect(w))]
    out += [f"the feed lies over {getattr(w, 'zone_id', '') or getattr(w, 'counter_id', '') or _name(w)}"
            for w in covered]
    shown = feed.text.split("\n") if feed.text else []
    if not all(line.startswith("• ") for line in shown):
        out.append(f"a feed line without its bullet: {shown}")
    lines = [line[2:] for line in shown]
    if len(lines) < min(3, len(said)):
        out.append(f"the feed shows {len(lines)} entries of {len(said)}: {lines}")
    last = said[len(said) - len(lines):] if lines else []
    for line, text in zip(lines, last):
        if not text.startswith(line):
            out.append(f"the feed shows {line!r} where the log's entry is {text!r} (the last: {said[-3:]})")
    core = CoreLabel(text=feed.text, font_size=feed.font_size, bold=feed.bold, text_size=(feed.text_size[0], None))
    core.render()
    if core._internal_size[1] > feed.height - 12 * screen.fs() + SLACK:
        out.append(f"the feed's {len(lines)} entries need {core._internal_size[1]:.0f} px, its strip has "
                   f"{feed.height - 12 * screen.fs():.0f}")
    return out
