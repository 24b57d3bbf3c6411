"""The hub's pages in a real headless Chromium: a table's page follows the cards as they are placed,
and no page ever shows a face-down card."""
from __future__ import annotations

import random

import pytest

from companion.club.outbox import Publisher
from companion.session import Session, Store
from tests.club.chromium import Browser, chromium_path
from tests.club.conftest import missing, wait_until
from tests.club.test_club import faces, hidden_cards


@pytest.fixture(scope="module")
def browser():
    if chromium_path() is None:
        missing("chromium")
    with Browser() as b:
        yield b


def _label(card: str) -> str:
    return next(iter(faces({card}) - {card}))


def test_a_table_page_follows_the_cards_as_they_are_placed_and_hides_face_down_ones(broker, hub, browser, tmp_path):
    with Store(tmp_path / "companion.sqlite3") as store, Publisher(store, broker.club("t2")) as publisher:
        session = Session.start(store, "sams", seed=5, options={"players": ["Ada", "Bo"]})
        rng = random.Random(5)
        session.act(session.rules.random_action(session.state, rng))
        wait_until(lambda: publisher.pending() == 0)
        browser.open(f"{hub.server.url}/table/t2?theme=dark", 1920, 1080)
        assert "Table t2" in browser.text() and "Ada v Bo" in browser.text()
        placed = 0
        seen_hidden = 0
        while session.state["phase"] == "play" and placed < 14:
            action = session.rules.random_action(session.state, rng)
            session.act(action)
            placed += 1
            shown = session.view(None)["phase_label"]
            # The page changes by itself (server-sent events): the phase line a player reads, live.
            browser.wait_for(f"document.body.innerText.includes({shown!r})", timeout=5)
            text = browser.text()
            hidden = faces(hidden_cards(session))
            seen_hidden += len(hidden)
            for card in hidden:
                assert card not in text and card not in browser.html(), f"face-down {card} on the page"
            if action["card"] not in hidden_cards(session):           # a face-up card shows by its symbol
                assert _label(action["card"]) in text
            assert "face down" in text or not hidden
        assert seen_hidden > 0
        # The list of tables shows this table, its game and where it stands.
        browser.open(f"{hub.server.url}/", 390, 844, mobile=True)
        text = browser.text()
        assert "Table t2" in text and "Sam's Battle Game · Ada v Bo" in text and shown in text
