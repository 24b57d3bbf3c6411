"""What `companion run` was asked to do, in one plain object the composition root passes around."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from companion import paths
from companion.table import TableProfile, load_profile


class SettingsError(ValueError):
    """A setting `companion run` cannot use; the message is one sentence."""


_SIZE = re.compile(r"^\s*(\d{2,5})\s*[xX×]\s*(\d{2,5})\s*$")


def parse_size(text: str) -> tuple[int, int]:
    """``"800x480"`` → ``(800, 480)``; anything else, or a window under 200 or over 10000 px, refused."""
    m = _SIZE.match(text or "")
    if not m:
        raise SettingsError(f"--size {text!r} is not a window size; write it as WIDTHxHEIGHT, e.g. 800x480")
    w, h = int(m.group(1)), int(m.group(2))
    if not (200 <= w <= 10000 and 200 <= h <= 10000):
        raise SettingsError(f"--size {w}x{h}: width and height must be between 200 and 10000 pixels")
    return w, h


@dataclass
class AppConfig:
    data_dir: Path
    profile_path: Path | None      # None: no profile found → simulated table
    sim: bool                      # --sim: simulated table even if readers exist
    fullscreen: bool = True
    size: tuple[int, int] | None = None

    @classmethod
    def from_args(cls, args) -> "AppConfig":
        profile = Path(args.profile) if getattr(args, "profile", None) else None
        if profile is None:
            default = paths.config_dir() / "table.toml"
            profile = default if default.exists() else None
        size = parse_size(args.size) if getattr(args, "size", None) else None
        return cls(data_dir=paths.data_dir(getattr(args, "data_dir", None)), profile_path=profile,
                   sim=bool(getattr(args, "sim", False)),
                   fullscreen=not getattr(args, "windowed", False) and size is None, size=size)

    def profile(self) -> TableProfile | None:
        return load_profile(self.profile_path) if self.profile_path else None

    @property
    def database(self) -> Path:
        return paths.database_path(self.data_dir)
