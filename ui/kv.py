"""Loading the ``.kv`` file that sits beside each screen's or widget's module.

Every module with widgets calls ``load_kv(__file__)`` once at import time;
loading is idempotent so a module imported twice (tests, the benchmark) does
not define its rules twice.
"""
from __future__ import annotations

from pathlib import Path

_loaded: set[Path] = set()


def load_kv(module_file: str) -> None:
    """Load ``<module>.kv`` beside ``module_file`` (``ui/screens/home.py`` → ``home.kv``)."""
    from kivy.lang import Builder
    path = Path(module_file).with_suffix(".kv").resolve()
    if path in _loaded:
        return
    Builder.load_file(str(path))
    _loaded.add(path)
