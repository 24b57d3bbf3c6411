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

# For tabs and buttons where the full title does not fit.
SHORT_NAMES = {"sams": "Sam's", "lifeforce": "Lifeforce", "vitaluna": "Vita Luna", "territory": "Territory",
               "arcmage": "Arcmage"}

_cache: dict[str, Rules] = {}


def short_name(name: str) -> str:
    return SHORT_NAMES.get(name) or KNOWN_GAMES.get(name, name)


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return f"no game called {self.args[0]!r}; known games: {', '.join(available())}"


_broken: dict[str, str] = {}


def _load(name: str) -> Rules | None:
    if name not in _cache and name not in _broken:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
            _cache[name] = module.RULES
        except Exception as exc:          # a half-built engine must not break the others
            _broken[name] = f"{type(exc).__name__}: {exc}"
    return _cache.get(name)


def available() -> list[str]:
    """Names of the games whose engine loads, in KNOWN_GAMES order first."""
    present = {m.name for m in pkgutil.iter_modules(__path__)}
    ordered = [name for name in KNOWN_GAMES if name in present]
    return [name for name in ordered + sorted(present - set(ordered)) if _load(name) is not None]


def broken() -> dict[str, str]:
    """Engines that exist but fail to load, with the reason (shown by `companion games`)."""
    available()
    return dict(_broken)


def get(name: str) -> Rules:
    """The rules engine called ``name``."""
    rules = _load(name) if isinstance(name, str) and name.isidentifier() else None
    if rules is None:
        raise UnknownGame(name)
    return rules


def coming() -> list[str]:
    """Known games whose engine is not there yet."""
    present = set(available())
    return [name for name in KNOWN_GAMES if name not in present]
