"""Where the companion keeps its data (XDG Base Directory conventions)."""
from __future__ import annotations

import os
from pathlib import Path


def data_dir(override: str | os.PathLike | None = None) -> Path:
    """``--data-dir`` if given, else ``$XDG_DATA_HOME/tabletop-companion``
    (``~/.local/share/tabletop-companion``).  Created on first use."""
    if override:
        path = Path(override)
    else:
        base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
        path = Path(base) / "tabletop-companion"
    path.mkdir(parents=True, exist_ok=True)
    return path


def config_dir() -> Path:
    """``$XDG_CONFIG_HOME/tabletop-companion``: the player's table profile lives here."""
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "tabletop-companion"


def database_path(data: Path) -> Path:
    return Path(data) / "companion.sqlite3"
