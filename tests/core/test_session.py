"""Sessions: the SQLite action log, resume, undo/redo, pad events in, rejections out."""
import json
import sqlite3

import pytest

from companion import paths
from companion.engine import IllegalAction
from companion.session import Session, Store
from companion.simulate import play_random, register_virtual_tags
from companion.table import GONE, SEEN, Layout, PadEvent
from companion.tags import virtual_uid


@pytest.fixture
def sams(store):
    register_virtual_tags(store, "sams")
    return Session.start(store, "sams", {}, seed=5)


def seen(pad, card):
    return PadEvent(pad, virtual_uid(card), SEEN, 0.0)


def test_database_is_wal_with_full_sync(store):
    """Issue 2: SQLite in WAL mode with synchronous=FULL."""
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2      # FULL


def test_every_action_is_committed_before_the_state_moves(sams, store):
    sams.act({"type": "play", "seat": 0, "lane": 0, "card": "sams.7h"})
    other = sqlite3.connect(store.path)             # a second reader sees it: it is committed
    rows = other.execute("SELECT seq, action FROM actions WHERE game_id=?", (sams.id,)).fetchall()
    assert rows == [(1, json.dumps({"card": "sams.7h", "lane": 0, "seat": 0, "type": "play"},
                                   separators=(",", ":")))]


def test_illegal_action_changes_nothing(sams):
    with pytest.raises(IllegalAction):
        sams.act({"type": "play", "seat": 1, "lane": 0, "card": "sams.7h"})
    assert sams.actions == [] and sams.store.db.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 0


def test_resume_rebuilds_the_exact_state(tmp_path):
    path = tmp_path / "db.sqlite3"
    with Store(path) as store:
        register_virtual_tags(store, "sams")
        session = Session.start(store, "sams", {"strict_majority": True}, seed=11)
        for _ in range(60):
            play_random_steps(session, 1)
        state, game_id = session.state, session.id
    with Store(path) as store:
        assert store.unfinished().id == game_id
        again = Session.resume(store, game_id)
        assert again.state == state and again.options["strict_majority"] is True


def play_random_steps(session, n, seed=3):
    from companion.engine import Rng
    rng = Rng(seed + len(session.actions))
    for _ in range(n):
        session.act(session.rules.random_action(session.state, rng))


def test_undo_and_redo_survive_a_restart(tmp_path):
    path = tmp_path / "db.sqlite3"
    with Store(path) as store:
        s = Session.start(store, "sams", {}, seed=1)
        s.act({"type": "play", "seat": 0, "lane": 0, "card": "sams.7h"})
        s.act({"type": "play", "seat": 1, "lane": 2, "card": "sams.5s"})
        after_two = s.state
        events = s.undo()
        assert events[0]["type"] == "undone" and len(s.actions) == 1 and s.can_redo()
    with Store(path) as store:
        s = Session.resume(store, 1)
        assert len(s.actions) == 1 and s.can_redo()
        s.redo()
        assert s.state == after_two and not s.can_redo()
        s.undo()
        s.act({"type": "play", "seat": 1, "lane": 4, "card": "sams.2c"})   # a new action drops redo
        assert not s.can_redo()
        with pytest.raises(IllegalAction):
            s.redo()


def test_undo_with_nothing_to_undo_is_a_clear_error(sams):
    with pytest.raises(IllegalAction, match="nothing to undo"):
        sams.undo()


def test_pad_events_become_actions(sams):
    events = sams.handle_pad_event(seen("0.lane3", "sams.7h"))
    assert sams.actions == [{"type": "play", "seat": 0, "lane": 2, "card": "sams.7h"}]
    assert events[0]["text"] == "North opens lane 3 with 7♥"


def test_repeated_sighting_is_not_a_second_play(sams):
    sams.handle_pad_event(seen("0.lane3", "sams.7h"))
    assert sams.handle_pad_event(seen("0.lane3", "sams.7h")) == []
    assert len(sams.actions) == 1


def test_unknown_tag_is_an_event_not_an_exception(sams):
    events = sams.handle_pad_event(PadEvent("0.lane1", "04AABBCCDDEE11", SEEN))
    assert events == [{"type": "unknown_tag", "pad": "0.lane1", "uid": "04AABBCCDDEE11",
                       "text": "Unknown tag 04AABBCCDDEE11 on pad 0.lane1: assign it a card on the Cards screen"}]
    assert sams.actions == []


def test_card_on_the_wrong_players_lane_is_rejected_with_where_it_belongs(sams):
    events = sams.handle_pad_event(seen("1.lane2", "sams.7h"))
    assert events[0]["type"] == "rejected"
    assert "it is North's turn" in events[0]["text"] and sams.actions == []


def test_card_of_another_game_is_rejected(sams, store):
    store.tags.register("04010203", "lifeforce.great-tit")
    events = sams.handle_pad_event(PadEvent("0.lane1", "04010203", SEEN))
    assert events[0]["type"] == "rejected" and "not a Sam's Battle Game card" in events[0]["text"]


def test_card_on_a_pad_the_game_does_not_use(store):
    register_virtual_tags(store, "sams")
    layout = Layout("sams", {f"p{n}": z for n, z in enumerate(
        [f"{s}.lane{l}" for s in (0, 1) for l in range(1, 6)])})
    s = Session.start(store, "sams", {}, seed=1, layout=layout)
    events = s.handle_pad_event(seen("deck-check", "sams.7h"))
    assert events[0]["type"] == "rejected" and "not used" in events[0]["text"]
    s.handle_pad_event(seen("p2", "sams.7h"))
    assert s.actions[-1]["lane"] == 2


def test_lifting_a_played_card_mid_round_is_flagged_and_logged_nowhere(store):
    """On a hold pad a lifted card leaves its zone, and Sam's refuses that mid-round."""
    register_virtual_tags(store, "sams")
    zones = [f"{s}.lane{l}" for s in (0, 1) for l in range(1, 6)]
    sams = Session.start(store, "sams", {}, seed=5, layout=Layout("sams", {z: z for z in zones},
                                                                   {z: "hold" for z in zones}))
    sams.handle_pad_event(seen("0.lane1", "sams.7h"))
    events = sams.handle_pad_event(PadEvent("0.lane1", virtual_uid("sams.7h"), GONE))
    assert events[0]["type"] == "rejected" and "put it back" in events[0]["text"]
    assert len(sams.actions) == 1


def test_lifting_a_tapped_card_means_nothing(sams):
    """A Sam's lane is a tap pad by default: the card goes onto the lane's pile, the game keeps it."""
    assert sams.table.layout.mode_of("0.lane1") == "tap"
    sams.handle_pad_event(seen("0.lane1", "sams.7h"))
    assert sams.handle_pad_event(PadEvent("0.lane1", virtual_uid("sams.7h"), GONE)) == []
    assert sams.view()["zones"]["0.lane1"]["cards"] == ["sams.7h"] and len(sams.actions) == 1


def test_listeners_hear_every_change(sams):
    heard = []
    unsubscribe = sams.subscribe(lambda session, events: heard.append([e["type"] for e in events]))
    sams.handle_pad_event(seen("0.lane1", "sams.7h"))
    sams.undo()
    unsubscribe()
    sams.redo()
    assert heard == [["played"], ["undone"]]


def test_whole_game_through_pad_events_is_listed_as_over(sams, store):
    play_random(sams, seed=8)
    info = store.games()[0]
    assert info.status == "over" and info.result["winner"] in (0, 1)
    assert store.unfinished() is None
    scans = [a for a in sams.actions if a["type"] == "play"]
    assert len(scans) >= 24 * 5                      # at least five rounds of 24 cards


def test_confirm_button_starts_the_next_round(sams):
    while sams.state["phase"] == "play":
        play_random_steps(sams, 1)
    assert sams.confirm(1)[0]["type"] == "round_start"
    assert sams.confirm(0) == []                       # mid-round the button means nothing


def test_data_dir_follows_xdg_and_can_be_overridden(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert paths.data_dir() == tmp_path / "xdg" / "tabletop-companion"
    assert paths.data_dir(tmp_path / "mine") == tmp_path / "mine"
    assert (tmp_path / "mine").is_dir()


def test_report_tells_listeners_without_logging(sams):
    heard = []
    sams.subscribe(lambda session, events: heard.extend(events))
    sams.report([{"type": "button_rejected", "seat": 0, "text": "North's button: nothing to confirm"}])
    assert heard[0]["type"] == "button_rejected" and sams.actions == []


def test_simulated_table_has_a_tag_per_copy_and_a_duplicate_card_is_refused(sams):
    """Sam's has one of each card: a second physical 7♥ (another tag, same card) is refused."""
    from companion.simulate import ScriptedTable
    table = ScriptedTable(sams)
    table.place("0.lane1", "sams.7h")
    events = table.place("1.lane2", "sams.7h")                 # copy 1: a different UID
    uids = [uid for cards in table.on_pad.values() for uid in cards]
    assert len(set(uids)) == 2
    assert events[0]["type"] == "rejected" and "already lies in North's lane 1" in events[0]["text"]
    assert len(sams.actions) == 1


def test_every_module_of_the_games_package_is_a_game_that_loads():
    """`companion games` lists the five games and no broken engine: a helper module placed in
    companion/games/ would be taken for a game that fails to load."""
    import pkgutil
    from pathlib import Path
    from companion import games
    on_disk = {m.name for m in pkgutil.iter_modules([str(Path(games.__file__).parent)])}
    assert on_disk == set(games.KNOWN_GAMES)          # (other tests add engines of their own to the path)
    assert all(games.get(name).name == name for name in on_disk)
