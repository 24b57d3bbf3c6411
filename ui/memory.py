"""What the app does to keep its memory down on a 1–2 GB Pi (see docs/ui.md, "Measured").

* :func:`release_text_surfaces` — Kivy's SDL2 text provider draws each label's
  text into an SDL surface (width × height × 4 bytes), copies it into the
  label's texture and then *keeps the surface* until that label is drawn again
  (``kivy/core/text/text_sdl2.py``: ``_render_begin`` stores it in
  ``self._surface``, nothing drops it).  Every label on screen so holds a
  second, unused copy of its pixels: about 5 MB on Sam's table after a few
  rounds.  The patch drops the surface once its pixels are out.
* :func:`trim_heap` — glibc keeps memory freed by the program in its heap for
  later use; after a screen or a game is torn down that is megabytes that
  nothing will ask for soon.  ``malloc_trim(0)`` hands the free pages back to
  the system.  It costs a few milliseconds, so it runs on the next frame after
  a big transition (:func:`trim_heap_soon`), never on a card's way to the
  screen.  Other C libraries (musl) have no ``malloc_trim``: then it does nothing.
"""
from __future__ import annotations

import ctypes
import ctypes.util

_malloc_trim = None
_trim_event = None


def release_text_surfaces() -> None:
    """Make the text provider drop its scratch surface after each render (idempotent)."""
    from kivy.core.text import Label as CoreLabel
    render_end = CoreLabel._render_end
    if getattr(render_end, "releases_surface", False):
        return

    def _render_end(self):
        try:
            return render_end(self)      # the pixels, copied out of the surface
        finally:
            # A provider without a surface (PIL, Pango) has nothing here to drop.
            self.__dict__.pop("_surface", None)

    _render_end.releases_surface = True
    CoreLabel._render_end = _render_end


def _libc_malloc_trim():
    global _malloc_trim
    if _malloc_trim is None:
        _malloc_trim = False
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            _malloc_trim = libc.malloc_trim
            _malloc_trim.argtypes = [ctypes.c_size_t]
            _malloc_trim.restype = ctypes.c_int
        except (OSError, AttributeError):       # not glibc: nothing to trim with
            _malloc_trim = False
    return _malloc_trim


def trim_heap() -> bool:
    """Give the heap's free pages back to the system now; False when the C library cannot."""
    trim = _libc_malloc_trim()
    if not trim:
        return False
    trim(0)
    return True


def trim_heap_soon() -> None:
    """:func:`trim_heap` on the next frame, once what the transition freed has been freed
    (Kivy releases widgets' textures and graphics at the end of a frame).  Several
    transitions in one frame trim once."""
    global _trim_event
    from kivy.clock import Clock
    if _trim_event is None:
        _trim_event = Clock.create_trigger(lambda _dt: trim_heap(), 0.1)
    _trim_event()
