"""The tabletop companion's core: cards, rules engines, table layouts and game sessions.

This package never imports a device driver or the UI toolkit (see
docs/architecture.md); `hardware` and `ui` build on it.
"""
__version__ = "0.1.0"
