"""Fixtures shared by every test directory."""
import pytest

from companion.session import Store


@pytest.fixture
def store(tmp_path):
    """A fresh SQLite store (the real thing, WAL + synchronous=FULL) in a temp dir."""
    with Store(tmp_path / "companion.sqlite3") as s:
        yield s
