"""Screenshots of the club's pages in headless Chromium (docs/screenshots/club-*.png).

    .venv/bin/python -m tests.club.screenshots docs/screenshots

Three tables mid-game on a real broker and hub; the list of tables and one table's page at
1920×1080 (dark, as an OBS browser source) and at a phone's 390×844.
"""
from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

from companion.club.broker import RunningBroker
from companion.club.config import HubConfig
from companion.club.hub import Hub
from companion.club.outbox import Publisher
from companion.club.web import HubServer
from companion.session import Session, Store
from tests.club.chromium import Browser


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="club-shots-"))
    with RunningBroker(work / "broker", ["table-1", "table-2", "table-3"]) as broker:
        hub = Hub(HubConfig(broker.broker("hub"), work / "hub.sqlite3")).start()
        server = HubServer(hub, ("127.0.0.1", 0)).start()
        publishers = []
        for name, players, steps, seed in (("table-1", ["Ada", "Bo"], 9, 3), ("table-2", ["Cy", "Dee"], 40, 8),
                                           ("table-3", ["Eve", "Finn"], 4, 12)):
            store = Store(work / name / "companion.sqlite3")
            publisher = Publisher(store, broker.club(name)).start()
            session = Session.start(store, "sams", seed=seed, options={"players": players})
            rng = random.Random(seed)
            for _ in range(steps):
                session.act(session.rules.random_action(session.state, rng))
            publishers.append(publisher)
        deadline = time.monotonic() + 15
        while any(p.pending() for p in publishers) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)
        for url, name, size, mobile in (
                ("/?theme=dark", "club-tables-1920x1080.png", (1920, 1080), False),
                ("/table/table-1?theme=dark", "club-table-1920x1080-dark.png", (1920, 1080), False),
                ("/table/table-1", "club-table-1920x1080-light.png", (1920, 1080), False),
                ("/", "club-tables-390x844.png", (390, 844), True),
                ("/table/table-1", "club-table-390x844.png", (390, 844), True)):
            with Browser() as browser:
                browser.open(server.url + url, *size, mobile=mobile)
                time.sleep(0.3)
                browser.screenshot(out / name)
            print(out / name)
        for p in publishers:
            p.close()
        server.close()
        hub.close()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"))
