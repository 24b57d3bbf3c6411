"""The registry of rules engines.

Each game lives in ``companion/games/<name>.py`` (or a package of that name)
and exposes ``RULES``, an instance of :class:`companion.engine.Rules`.  The
registry finds them by name, so adding a game never touches this file.
"""
from __future__ import annotations

import importlib
import pkgutil

from companion.engine import Rules

# The five games of the project, in the order the home screen lists them.
# A game whose module does not exist yet is shown as "coming", never broken.
KNOWN_GAMES = {
    "sams": "Sam's Battle Game",
    "lifeforce": "Lifeforce Battle",
    "vitaluna": "Vita Luna",
    "territory": "Creature Combat Territory",
    "arcmage": "Arcmage Original Rules Concept",
}

_cache: dict[str, Rules] = {}


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return f"no game called {self.args[0]!r}; known games: {', '.join(available())}"


def available() -> list[str]:
    """Names of the games whose engine exists, in KNOWN_GAMES order first."""
    present = {m.name for m in pkgutil.iter_modules(__path__)}
    ordered = [name for name in KNOWN_GAMES if name in present]
    return ordered + sorted(present - set(ordered))


def get(name: str) -> Rules:
    """The rules engine called ``name``."""
    if name not in _cache:
        if name not in available():
            raise UnknownGame(name)
        module = importlib.import_module(f"{__name__}.{name}")
        _cache[name] = module.RULES
    return _cache[name]


def coming() -> list[str]:
    """Known games whose engine is not there yet."""
    present = set(available())
    return [name for name in KNOWN_GAMES if name not in present]
