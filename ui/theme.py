"""Colours, sizes and fonts of the app, in one place.

Seat colours come from the Okabe–Ito palette, which people with the common
forms of colour blindness tell apart: blue for seat 0, orange for seat 1.  Red
and green are never used as the only difference between two things; warnings
are vermillion *and* say what is wrong in words.

Sizes are designed for the official 800×480 Raspberry Pi display and scale
with the window (the app's ``scale`` is ``min(width / 800, height / 480)``),
so a 1280×800 screen shows the same layout, bigger.  Touch targets are never
smaller than 48 px at scale 1; counters use 34 px bold digits (7 mm on the 7" display), readable at 1 m.
"""
from __future__ import annotations

from pathlib import Path

DESIGN_SIZE = (800, 480)

SEAT_COLOURS = ((0.0, 0.447, 0.698, 1), (0.902, 0.624, 0.0, 1))   # Okabe–Ito blue, orange
SEAT_TEXT = ((1, 1, 1, 1), (0.08, 0.08, 0.08, 1))                 # readable on each seat colour
NEUTRAL = (0.35, 0.37, 0.40, 1)
BACKGROUND = (0.10, 0.11, 0.12, 1)
PANEL = (0.17, 0.18, 0.20, 1)
PANEL_LIGHT = (0.24, 0.25, 0.28, 1)
TEXT = (0.95, 0.95, 0.95, 1)
MUTED = (0.70, 0.72, 0.75, 1)
WARNING = (0.835, 0.369, 0.0, 1)                                   # Okabe–Ito vermillion
HIGHLIGHT = (0.337, 0.706, 0.914, 1)                               # Okabe–Ito sky blue
CARD_FACE = (0.96, 0.95, 0.90, 1)
CARD_TEXT = (0.08, 0.08, 0.08, 1)
CARD_BACK = (0.30, 0.22, 0.45, 1)
DISABLED = (0.28, 0.29, 0.31, 1)

TOUCH = 48          # minimum touch target, px at scale 1
FONT_SMALL = 15
FONT_BODY = 18
FONT_LARGE = 24
FONT_COUNTER = 34


def seat_colour(seat) -> tuple:
    return SEAT_COLOURS[seat] if seat in (0, 1) else NEUTRAL


def seat_text(seat) -> tuple:
    return SEAT_TEXT[seat] if seat in (0, 1) else TEXT


def register_fonts() -> None:
    """Use DejaVu Sans everywhere: unlike Kivy's Roboto it has ♥ ♦ ♠ ♣ ≥ and the
    other symbols the engines' sentences use."""
    import kivy
    from kivy.core.text import DEFAULT_FONT, LabelBase
    regular = Path(kivy.__file__).parent / "data" / "fonts" / "DejaVuSans.ttf"
    bold = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
    LabelBase.register(DEFAULT_FONT, str(regular), fn_bold=str(bold) if bold.exists() else str(regular))

#: Players' text-size setting (Settings → Text size): every font size is multiplied by it,
#: layout sizes are not.  Widgets read it through the running app's ``text_scale``
#: property, so a change redraws every label at once; this module keeps the value
#: for code that runs before the app exists.
TEXT_SCALES = (1.0, 1.15, 1.3)
text_scale = 1.0


def set_text_scale(value: float) -> None:
    """Make every text ``value`` times its designed size (the app's labels follow at once)."""
    global text_scale
    text_scale = float(value)
    try:
        from kivy.app import App
    except ImportError:                     # pragma: no cover - theme is imported without Kivy too
        return
    app = App.get_running_app()
    if app is not None and hasattr(app, "text_scale"):
        app.text_scale = text_scale
