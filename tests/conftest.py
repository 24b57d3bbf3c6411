"""Fixtures shared by every test directory, and what keeps the suite right on two xdist workers.

``python3 -m companion test -n 2`` runs the suite on two processes (pytest-xdist).  Two things
make that safe:

* The tests of ``tests/ui`` all run on one worker, in file order, exactly as in a serial run:
  they share one Kivy window (the session's ``app`` fixture, ``tests/ui/conftest.py``) whose
  screens and settings live on from test to test, so a test sent to the other worker would meet
  another window history.  (xdist's own ``--dist loadgroup`` would do this from an ``xdist_group``
  mark, but it silently stopped grouping with pytest 9.2: pytest-dev/pytest-xdist#1386.)
* A worker ignores SIGINT once its tests are done: see ``pytest_sessionfinish`` below.
"""
import signal

import pytest

from companion.session import Store

ONE_WINDOW = "tests/ui/"


@pytest.fixture
def store(tmp_path):
    """A fresh SQLite store (the real thing, WAL + synchronous=FULL) in a temp dir."""
    with Store(tmp_path / "companion.sqlite3") as s:
        yield s


def pytest_xdist_make_scheduler(config, log):
    """With ``-n N`` (xdist's default ``--dist load``): every other test is its own unit of work,
    ``tests/ui`` is one, handed out first as the largest."""
    if config.getvalue("dist") != "load":
        return None                                  # the caller chose a distribution: theirs
    from xdist.scheduler import LoadScopeScheduling

    class OneWindowScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return ONE_WINDOW if nodeid.startswith(ONE_WINDOW) else nodeid
    return OneWindowScheduling(config, log)


@pytest.hookimpl(tryfirst=True)          # the worker's tests and all their fixtures are done
def pytest_sessionfinish(session):
    """xdist's controller stops the workers (execnet's ``Group.terminate``) as soon as the last
    test's report arrives, and execnet sends a worker a SIGINT of its own when it is still busy 5 s
    later (``WorkerGateway._terminate_execution``).  What a worker still does then — its
    sessionfinish and unconfigure hooks, pytest's final ``gc.collect()``, Hypothesis's terminal
    summary (which imports Hypothesis when no test did: a two-test suite took 16 s instead of 2 s
    at load 15, and was interrupted) — took 2.4 s on the tests/ui worker at load 7 (643,000 objects
    in its heap) and outlasts 5 s on a busier machine: the KeyboardInterrupt then lands anywhere (a
    full run printed one raised inside Hypothesis's gc callback).  Nothing is left to interrupt, so
    the worker ignores it; execnet still ends a worker stuck for 10 s more."""
    if hasattr(session.config, "workerinput"):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
