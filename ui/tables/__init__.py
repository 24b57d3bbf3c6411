"""Table screens, one per game where the generic layout is not good enough.

``ui/tables/<game>.py`` (with its ``.kv`` beside it) defines ``SCREEN``, a
subclass of :class:`ui.tables.generic.TableScreen`; a game without one gets the
generic screen, laid out from its zones.
"""
from __future__ import annotations

import importlib
import importlib.util


def table_screen_for(game: str):
    """The table screen class for ``game``."""
    if importlib.util.find_spec(f"{__name__}.{game}") is not None:
        return importlib.import_module(f"{__name__}.{game}").SCREEN
    from ui.tables.generic import TableScreen
    return TableScreen
