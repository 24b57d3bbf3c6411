"""Every file the companion writes for a person (exports, records, reports, settings), written whole or not at all.

:func:`write_text` writes to a temporary file beside the target (created
0600: a record may hold face-down cards), ``fsync``\\s it, renames it over
the target and ``fsync``\\s the directory, so a full disk, a kill or a power
cut leaves either the old file or the new one — never a truncated one (the
recipe of `rename(2)`'s atomicity and LWN's "Ensuring data reaches disk",
https://lwn.net/Articles/457667/).  A target that is not a regular file
(``/dev/null``, ``/dev/full``, a FIFO) has no old contents to keep and
cannot be renamed over, so it is written in place.

Every failure is an :class:`OutputError` whose message is one sentence
naming the path and the reason ("…: the disk is full"); the commands print
it and exit 2, the screens show it.
"""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

FILE_MODE = 0o600

_REASONS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EFBIG: "the file would be larger than this system allows",
    errno.EROFS: "the disk is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOENT: "no such directory",
    errno.ENOTDIR: "a part of the path is not a directory",
    errno.EISDIR: "it is a directory",
    errno.ENAMETOOLONG: "the name is too long",
    errno.ELOOP: "too many symbolic links",
    errno.EIO: "an input/output error (a failing disk or card)",
}


class OutputError(OSError):
    """A file that could not be written; the message is one sentence, and the old file is untouched.
    (An ``OSError``, so callers that already said "could not write" for one keep working.)"""


def reason(exc: OSError) -> str:
    """Why ``exc`` happened, in words a player reads."""
    return _REASONS.get(exc.errno, exc.strerror or str(exc))


def write_text(path: str | os.PathLike, text: str, what: str = "file") -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically, mode 0600; returns the path written."""
    return write_bytes(path, text.encode("utf-8"), what)


def write_bytes(path: str | os.PathLike, data: bytes, what: str = "file") -> Path:
    """Write ``data`` to ``path`` atomically, mode 0600 (see the module's docstring)."""
    shown = os.fspath(path)
    if not shown or shown.endswith(os.sep):
        raise OutputError(f"{shown or 'an empty name'}: a {what} needs a file name, not a directory")
    path = Path(path)
    try:
        target = Path(os.path.realpath(path))         # a symlink's target is written, the link stays
        try:
            st = os.stat(target)
        except FileNotFoundError:
            st = None
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise OutputError(f"{shown} cannot be written: it is a directory; name a file")
        if st is not None and not stat.S_ISREG(st.st_mode):
            _write_in_place(target, data)
            return path
        if not target.parent.is_dir():
            raise OutputError(f"{shown} cannot be written: its folder {target.parent} does not exist")
        _replace(target, data)
    except OutputError:
        raise
    except OSError as exc:
        raise OutputError(f"{shown} cannot be written: {reason(exc)}"
                          + ("; the old file is unchanged" if path.exists() else "")) from None
    return path


def _write_in_place(target: Path, data: bytes) -> None:
    fd = os.open(target, os.O_WRONLY | os.O_CLOEXEC)
    try:
        _write_all(fd, data)
    finally:
        os.close(fd)


def _replace(target: Path, data: bytes) -> None:
    directory = target.parent
    fd, tmp = _create_temporary(target)
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    fsync_dir(directory)


def _create_temporary(target: Path) -> tuple[int, Path]:
    """A new file beside ``target``, 0600, named so that it is never taken for the real one."""
    for _ in range(100):
        tmp = target.with_name(f".{target.name}.{os.urandom(4).hex()}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE)
        except FileExistsError:
            continue
        os.fchmod(fd, FILE_MODE)                    # whatever the umask said
        return fd, tmp
    raise FileExistsError(errno.EEXIST, "no free temporary name")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def fsync_dir(directory: str | os.PathLike) -> None:
    """Make a rename in ``directory`` durable (a no-op where directories cannot be opened)."""
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
