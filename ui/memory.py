"""What the app does to keep its memory down on a 1–2 GB Pi (see docs/ui.md, "Measured").

* :func:`release_text_surfaces` — Kivy's SDL2 text provider draws each label's
  text into an SDL surface (width × height × 4 bytes), copies it into the
  label's texture and then *keeps the surface* until that label is drawn again
  (``kivy/core/text/text_sdl2.py``: ``_render_begin`` stores it in
  ``self._surface``, nothing drops it).  Every label on screen so holds a
  second, unused copy of its pixels: about 5 MB on Sam's table after a few
  rounds.  The patch drops the surface once its pixels are out.
* :func:`tidy_soon` — after a big transition (a screen change, a game opened or
  closed, a round's result closed) what the old screen held is garbage, but
  widgets hold each other in cycles, which only Python's full collection
  frees, and glibc then keeps the freed memory in its heap for later.  Once the
  table has been still for :data:`STILL` seconds (no pad event, no move: a
  full collection takes ~60 ms here, more on a Pi, and must not delay a card
  on its way to the screen) the app collects and calls ``malloc_trim(0)``,
  which hands the free pages back to the system (under a millisecond).
  Other C libraries (musl) have no ``malloc_trim``: then only the collection runs.
* :func:`settle_startup` — right after the first frame: one full collection,
  then ``gc.freeze()``, which moves every object alive then (modules, classes,
  the home screen: the app's lasting part, some 57,000 objects) out of the
  collector's sight.  Every later full collection (Python's own, every few
  thousand allocations, and the tidying above) then only walks what was made
  since: ~14 ms instead of ~60 ms here, so neither the tidying nor the idle
  table cost much CPU.  The price: a frozen object that later becomes cyclic
  garbage is never collected.  Little of the startup set ever goes (the home
  screen's first row of game buttons, rebuilt on its first visit: ~0.3 MB,
  once); the screens and tables made later are collected as usual.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import gc

_malloc_trim = None
_tidy_event = None


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


def settle_startup() -> None:
    """Collect what loading left and freeze the rest (see the module's docstring)."""
    gc.collect()
    gc.freeze()


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


#: seconds without a pad event or a move before the tidying after a transition runs
STILL = 1.0
_pending = False


def tidy_soon() -> None:
    """Collect and trim once the table has been still for :data:`STILL` seconds
    (several transitions in a row tidy once)."""
    global _pending
    _pending = True
    _arm()


def postpone() -> None:
    """Something happened at the table (a pad event, a move): a pending tidying waits again."""
    if _pending:
        _arm()


def _arm() -> None:
    global _tidy_event
    from kivy.clock import Clock
    if _tidy_event is None:
        _tidy_event = Clock.create_trigger(_tidy, STILL)
    _tidy_event.cancel()
    _tidy_event()


def collect_now() -> None:
    """Free a screen just let go (its widgets hold each other in cycles) before its successor is
    built, so that the successor takes the memory it leaves instead of more."""
    gc.collect()


def _tidy(_dt=None) -> None:
    global _pending
    _pending = False
    gc.collect()
    trim_heap()
