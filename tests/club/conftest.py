"""A real Mosquitto on a loopback port with the club's generated configuration, and the hub on it."""
from __future__ import annotations

import os
import time

import pytest

from companion.club.broker import RunningBroker, mosquitto_path
from companion.club.config import HubConfig
from companion.club.hub import Hub
from companion.club.web import HubServer

TABLES = [f"t{n}" for n in range(1, 9)]


def missing(program: str):
    """Under `python3 -m companion test` (which installs them) a missing program fails; elsewhere it skips."""
    message = f"{program} is not installed (python3 -m companion test installs it)"
    if os.environ.get("COMPANION_REQUIRE_UI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    if mosquitto_path() is None:
        missing("mosquitto")
    with RunningBroker(tmp_path_factory.mktemp("broker"), TABLES) as running:
        yield running


@pytest.fixture(scope="module")
def hub(broker, tmp_path_factory):
    hub = Hub(HubConfig(broker.broker("hub"), tmp_path_factory.mktemp("hub") / "hub.sqlite3",
                        organiser_hash=None)).start()
    assert hub.connected.wait(10)
    server = HubServer(hub, ("127.0.0.1", 0)).start()
    hub.server = server
    yield hub
    server.close()
    hub.close()


def wait_until(check, timeout=15.0, step=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"not within {timeout} s: {getattr(check, '__doc__', None) or check}")
