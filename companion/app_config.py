"""What `companion run` was asked to do, in one plain object the composition root passes around."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from companion import paths
from companion.table import TableProfile, load_profile


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
        size = None
        if getattr(args, "size", None):
            w, _, h = args.size.lower().partition("x")
            size = (int(w), int(h))
        return cls(data_dir=paths.data_dir(getattr(args, "data_dir", None)), profile_path=profile,
                   sim=bool(getattr(args, "sim", False)),
                   fullscreen=not getattr(args, "windowed", False) and size is None, size=size)

    def profile(self) -> TableProfile | None:
        return load_profile(self.profile_path) if self.profile_path else None

    @property
    def database(self) -> Path:
        return paths.database_path(self.data_dir)
