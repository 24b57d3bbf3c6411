"""Colours, sizes and fonts of the app, in one place.

Seat colours come from the Okabe–Ito palette, which people with the common
forms of colour blindness tell apart: blue for seat 0, orange for seat 1.  Red
and green are never used as the only difference between two things; warnings
are vermillion *and* say what is wrong in words.

Sizes are designed for the official 800×480 Raspberry Pi display.  Two
factors on the running app turn them into pixels:

* ``app.scale`` = ``min(width / 800, height / 480)``: the window's size
  against the design size (1.67 at 1280×800);
* ``app.fscale``: for text and everything whose size follows the text (a
  button's height, a chip, a bar).  It is the players' text-size setting
  times ``min(app.scale, 1)``: a bigger screen shows *more* (longer labels,
  more cards), not bigger letters, because the 10" 1280×800 panels have
  about the same pixel pitch as the 7" 800×480 one.

The text-size setting lives here, in one place: :func:`set_text_scale` (what
the Settings screen calls) and :func:`text_scale`.  Touch targets are never
smaller than 48 px; body text is at least 18 px and counters 40 px bold digits
(8 mm on the 7" display), readable at a metre.
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
#: hearts and diamonds, as printed: red on the card face (contrast about 5.5:1 on CARD_FACE, WCAG AA),
#: so the red suits (Sam's attack) and the black ones (defence) are told apart at a glance
CARD_RED = (0.78, 0.08, 0.08, 1)
CARD_BACK = (0.30, 0.22, 0.45, 1)
DISABLED = (0.28, 0.29, 0.31, 1)

TOUCH = 48          # minimum touch target, px at scale 1
FONT_SMALL = 18     # nothing on the table screen is smaller than body text (readable at a metre)
FONT_BODY = 18
FONT_LARGE = 24
FONT_COUNTER = 40
COUNTER_HEIGHT = 54   # a counter's box: 40 px digits need a 47 px line
#: a card chip's face ("10♥") where its zone has room: read at a metre.  ISO 9241-3 asks for
#: capital letters of at least 16 minutes of arc (20–22 preferred; quoted by IBM/Lenovo's
#: "Healthy computing: character size" and the FAA's human-factors course): 4.65 mm at 1 m.  On
#: the official 7" display (154.08 mm for 800 px: 0.193 mm a pixel) with Kivy's Roboto (capitals
#: 0.71 of the font size) that is 34 px.  The 10" 1280×800 panels' pitch (~0.17 mm, from their
#: 217 mm width: a datasheet figure not checked on a panel) asks 39 px.
FONT_FACE = 34
FONT_FACE_LARGE_WINDOW = 39

#: the text sizes players may choose in Settings (1 = the design size)
TEXT_SCALES = (1.0, 1.15, 1.3)
_text_scale = 1.0


def text_scale() -> float:
    """The players' text-size factor (1.0 unless Settings changed it)."""
    return _text_scale


def set_text_scale(factor: float) -> None:
    """Make every text ``factor`` times its design size (the running app follows at once)."""
    global _text_scale
    _text_scale = max(0.8, min(1.6, float(factor)))
    from kivy.app import App
    app = App.get_running_app()
    if app is not None and hasattr(app, "text_scale"):
        app.text_scale = _text_scale


def font_scale(scale: float, factor: float | None = None) -> float:
    """``app.fscale`` for a window whose ``app.scale`` is ``scale``."""
    return (_text_scale if factor is None else factor) * min(scale, 1.0)


def seat_colour(seat) -> tuple:
    return SEAT_COLOURS[seat] if seat in (0, 1) else NEUTRAL


def won_colour(seat) -> tuple:
    """A won lane's, land's or position's frame: the winner's own colour, on the winner's own side
    (South's winning lane is never framed in North's blue); sky blue only for a zone of no seat."""
    return SEAT_COLOURS[seat] if seat in (0, 1) else HIGHLIGHT


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


def card_colour(face: str) -> tuple:
    """The colour a card's face is written in: red for hearts and diamonds, else the card ink."""
    return CARD_RED if ("♥" in face or "♦" in face) else CARD_TEXT
