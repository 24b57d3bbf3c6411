"""Where the companion keeps its data (XDG Base Directory conventions), and who may read it.

The data directory holds the games (face-down cards included) and the tag
registry, so it is private: mode 0700, the database 0600.  One process at a
time writes there; :class:`DataDirLock` is the OS file lock that says so.
"""
from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

DIR_MODE = 0o700
FILE_MODE = 0o600
LOCK_NAME = "companion.lock"


def data_dir(override: str | os.PathLike | None = None, create: bool = True) -> Path:
    """``--data-dir`` if given, else ``$XDG_DATA_HOME/tabletop-companion``
    (``~/.local/share/tabletop-companion``).  Created (0700) on first use."""
    if override:
        path = Path(override)
    else:
        base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
        path = Path(base) / "tabletop-companion"
    if create:
        existed = path.is_dir()
        path.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
        if not existed or holds_companion_data(path):
            make_private(path, DIR_MODE)
    return path


def holds_companion_data(directory: Path) -> bool:
    """Whether ``directory`` is a companion data directory (ours to chmod), not, say, ``--data-dir /tmp``."""
    directory = Path(directory)
    return directory.name == "tabletop-companion" or any(
        (directory / name).exists() for name in (LOCK_NAME, "companion.sqlite3"))


def make_private(path: Path, mode: int) -> None:
    """chmod ``path`` to ``mode`` when it is ours and more open than that (never follows a symlink)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if st.st_uid == os.geteuid() and (st.st_mode & 0o777) & ~mode:
        try:
            os.chmod(path, mode, follow_symlinks=False)
        except (OSError, NotImplementedError):
            pass                      # a read-only medium: the open that follows says what is wrong


def link_problem(database: Path) -> str | None:
    """The sentence refusing the database when it or its -wal/-shm is a symbolic link, else None.

    SQLite follows a link, so the games (face-down cards included) would live wherever it
    points, with that file's owner and mode; :func:`make_private` never follows links, so it
    could not make them private.
    """
    for suffix in ("", "-wal", "-shm"):
        path = Path(str(database) + suffix)
        if path.is_symlink():
            return (f"{path} is a symbolic link; the companion keeps its games only in a real file in the "
                    f"data directory: move the file it points to there, or give another --data-dir")
    return None


def config_dir() -> Path:
    """``$XDG_CONFIG_HOME/tabletop-companion``: the player's table profile lives here."""
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "tabletop-companion"


def database_path(data: Path) -> Path:
    return Path(data) / "companion.sqlite3"


class DirectoryBusy(RuntimeError):
    """Another process holds the data directory; ``pid`` says which (None if unknown)."""

    def __init__(self, directory: Path, pid: int | None):
        self.directory, self.pid = directory, pid
        who = f"process {pid}" if pid else "another process"
        super().__init__(f"{directory} is in use by {who} (another companion is running there); "
                         f"close it first, or give this one its own --data-dir")


class DataDirLock:
    """An exclusive ``flock`` on ``<data dir>/companion.lock``, holding our pid.

    The kernel drops the lock when the process dies, however it dies, so a
    power cut or ``kill -9`` never leaves a stale lock behind (unlike a pid file).
    """

    def __init__(self, directory: Path):
        self.directory = Path(directory)
        self.path = self.directory / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> "DataDirLock":
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise DirectoryBusy(self.directory, self.holder()) from None
            raise
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return self

    def holder(self) -> int | None:
        try:
            text = self.path.read_text().strip()
            return int(text) if text.isdigit() else None
        except OSError:
            return None

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                os.ftruncate(fd, 0)
            except OSError:
                pass
            os.close(fd)                 # closing drops the flock

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()
