"""The games database as a user meets it (issue 13): one process per data directory, files that
are not ours left alone, faults during play refused with a reason, private files, tags that
claim another card.

Faults are real SQLite conditions, not mocks: ``PRAGMA max_page_count`` makes SQLite answer
SQLITE_FULL exactly as a full disk does; ``PRAGMA query_only`` makes it answer SQLITE_READONLY
as a read-only mount does (chmod cannot stand in when the tests run as root, and it never
affects a file SQLite already holds open); damaged files are real files with bytes overwritten.
"""
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion import paths
from ui.main import main
from companion.engine import IllegalAction, Rng
from companion.session import APPLICATION_ID, SCHEMA_VERSION, NotSaved, Session, Store, StoreError, connect
from companion.simulate import ScriptedTable, register_virtual_tags
from companion.table import SEEN, PadEvent
from companion.tags import virtual_uid

CLI = [sys.executable, "-c", "import sys; from ui.main import main; sys.exit(main())"]


def play(session, n, seed=7):
    """``n`` random legal actions through the table, as players would make them."""
    table = ScriptedTable(session)
    for k in range(n):
        if session.rules.is_over(session.state):
            break
        table.play(session.rules.random_action(session.state, Rng(seed * 1000 + k)))


def digest(*files) -> str:
    """The files' bytes (an empty -wal that a reader's connection may create counts as none)."""
    h = hashlib.sha256()
    for f in files:
        h.update((Path(f).read_bytes() or b"-") if Path(f).exists() else b"-")
    return h.hexdigest()


def one_sentence(text: str) -> bool:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return len(lines) == 1 and "Traceback" not in text


# ---- privacy -----------------------------------------------------------------------------------
def test_the_data_directory_is_0700_and_the_database_0600(tmp_path):
    data = tmp_path / "data"
    _healthy(paths.database_path(data), 1)
    os.chmod(data, 0o755)                                  # as an older companion left them
    os.chmod(paths.database_path(data), 0o644)
    with Store(paths.database_path(paths.data_dir(data))) as store:
        Session.start(store, "sams", seed=1)
        assert os.stat(data).st_mode & 0o777 == 0o700
        for name in ("companion.sqlite3", "companion.sqlite3-wal", "companion.sqlite3-shm"):
            assert os.stat(data / name).st_mode & 0o777 == 0o600, name


# ---- one process per data directory ----------------------------------------------------------
def test_a_second_companion_on_the_same_data_directory_names_the_first_and_exits_2(tmp_path):
    with Store(tmp_path / "companion.sqlite3"):
        out = subprocess.run(CLI + ["--data-dir", str(tmp_path), "simulate", "--game", "sams"],
                             capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert one_sentence(out.stderr) and f"process {os.getpid()}" in out.stderr, out.stderr
    # once the first has gone, the directory is free again (the kernel drops the lock of a dead process)
    out = subprocess.run(CLI + ["--data-dir", str(tmp_path), "simulate", "--game", "sams"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


def test_list_and_export_read_a_snapshot_while_the_app_writes_and_write_nothing(tmp_path):
    db = tmp_path / "companion.sqlite3"
    with Store(db) as store:
        register_virtual_tags(store, "sams")
        session = Session.start(store, "sams", seed=4)
        play(session, 12)
        before = digest(db, str(db) + "-wal")
        listed = subprocess.run(CLI + ["--data-dir", str(tmp_path), "list"], capture_output=True, text=True)
        exported = subprocess.run(CLI + ["--data-dir", str(tmp_path), "export", str(session.id),
                                         "--include-hidden"], capture_output=True, text=True)
        assert listed.returncode == 0 and f"#{session.id}" in listed.stdout and "12 actions" in listed.stdout
        assert exported.returncode == 0 and json.loads(exported.stdout)["actions"] == session.actions
        assert digest(db, str(db) + "-wal") == before        # the readers wrote nothing
        play(session, 3, seed=8)                               # and the app writes on
    assert main(["--data-dir", str(tmp_path), "export", "99"]) == 2


# ---- files that are not a healthy companion database -------------------------------------------
def _healthy(path: Path, actions: int = 40) -> None:
    with Store(path) as store:
        register_virtual_tags(store, "sams")
        play(Session.start(store, "sams", seed=2), actions)


def _foreign(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
    db.execute("INSERT INTO contacts VALUES ('Ada', '123')")
    db.commit()
    db.close()


def _other_app(path: Path) -> None:
    _foreign(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA application_id=1234")
    db.close()


def _corrupt(path: Path) -> None:
    _healthy(path, 150)
    size = path.stat().st_size
    with open(path, "r+b") as f:                        # overwrite the middle pages (not the header)
        f.seek(4096 + (size - 4096) // 3)
        f.write(os.urandom(4096) * 2)


def _newer(path: Path) -> None:
    _healthy(path, 2)
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.close()


FAULTS = {
    "empty": (lambda p: p.write_bytes(b""), "is empty (0 bytes)", True),
    "text": (lambda p: p.write_text("these are my notes\n" * 50), "is not an SQLite database", True),
    "foreign": (_foreign, "another program's SQLite database (tables contacts)", True),
    "other-app": (_other_app, "belongs to another program (SQLite application id 0x4d2)", True),
    "corrupt": (_corrupt, "is damaged", True),
    "newer": (_newer, "written by a newer companion", False),
}


@pytest.mark.parametrize("kind", FAULTS)
def test_a_file_that_is_not_a_healthy_companion_database_is_never_written_and_can_be_moved_aside(tmp_path, kind):
    make, words, can_move = FAULTS[kind]
    db = paths.database_path(tmp_path)
    make(db)
    before = digest(db, str(db) + "-wal")
    with pytest.raises(StoreError) as exc:
        Store(db)
    assert words in str(exc.value) and one_sentence(str(exc.value))
    assert exc.value.move_aside is can_move
    assert digest(db, str(db) + "-wal") == before           # not one byte written
    for command in (["list"], ["export", "1"], ["repair"]):
        out = subprocess.run(CLI + ["--data-dir", str(tmp_path), *command], capture_output=True, text=True)
        assert out.returncode == 2 and "Traceback" not in out.stderr + out.stdout, (command, out.stderr)
        assert words in out.stderr + out.stdout
    assert digest(db, str(db) + "-wal") == before
    if not can_move:
        return
    out = subprocess.run(CLI + ["--data-dir", str(tmp_path), "repair", "--move-aside"], capture_output=True, text=True)
    assert out.returncode == 0 and "moved aside" in out.stdout
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("companion.sqlite3.broken-")
            and not p.name.endswith(("-wal", "-shm"))]
    assert len(kept) == 1 and digest(kept[0], str(kept[0]) + "-wal") == before   # the old file is kept
    with Store(db) as store:                                 # and the companion starts afresh
        assert store.games() == []


def test_a_first_version_database_is_migrated_and_keeps_its_games(tmp_path):
    """Files written before application_id/user_version existed: our tables, id 0, version 0."""
    db = tmp_path / "companion.sqlite3"
    old = sqlite3.connect(db, isolation_level=None)
    old.execute("PRAGMA journal_mode=WAL")
    from companion.session import SCHEMA
    from companion.tags import SCHEMA as TAGS
    old.executescript(SCHEMA + TAGS)
    old.execute("INSERT INTO games(game, options, seed) VALUES ('sams', ?, 9)",
                (json.dumps({"strict_majority": False, "strict_retaliation": False, "first_seat": 0,
                             "players": ["North", "South"]}),))
    old.execute("INSERT INTO actions(game_id, seq, action) VALUES (1, 1, ?)",
                (json.dumps({"type": "play", "seat": 0, "lane": 0, "card": "sams.7h"}),))
    old.execute("INSERT INTO tags(uid, card_id) VALUES ('04A2B3C4', 'sams.7h')")
    old.close()
    with Store(db) as store:
        assert store.db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert store.tags.lookup("04A2B3C4") == "sams.7h" and store.tags.pending() == []
        session = Session.resume(store, 1)
        assert session.actions == [{"type": "play", "seat": 0, "lane": 0, "card": "sams.7h"}]


# ---- faults during play ------------------------------------------------------------------------
def _fill_the_disk(store):
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count={pages}")


def _free_the_disk(store):
    store.db.execute("PRAGMA max_page_count=1073741823")


def _write_protect(store):
    store.db.execute("PRAGMA query_only=1")


def _write_allow(store):
    store.db.execute("PRAGMA query_only=0")


@pytest.mark.parametrize("fault, cure, reason", [
    (_fill_the_disk, _free_the_disk, "the disk is full"),
    (_write_protect, _write_allow, "read-only"),
])
def test_a_write_fault_during_play_refuses_the_move_with_the_reason_and_play_continues(tmp_path, fault, cure, reason):
    """An undo on a full disk may still fit (it frees a row); every write is refused when read-only."""
    db = tmp_path / "companion.sqlite3"
    with Store(db) as store:
        register_virtual_tags(store, "sams")
        session = Session.start(store, "sams", seed=12)
        play(session, 6)
        acknowledged = session.actions
        fault(store)
        refused = 0
        for k in range(300):                                   # until a write really needs new space
            state = session.state
            action = session.rules.random_action(state, Rng(k))
            try:
                session.act(action)
                acknowledged.append(action)
            except NotSaved as exc:
                assert str(exc).startswith("Not saved: ") and reason in str(exc)
                assert session.state == state and session.actions == acknowledged   # nothing moved
                refused += 1
                break
        assert refused == 1
        if fault is _write_protect:
            with pytest.raises(NotSaved):
                session.undo()
            assert session.actions == acknowledged
            with pytest.raises(IllegalAction, match=reason):   # the screen and buttons show IllegalAction
                Session.start(store, "sams", seed=1)
        events = session.handle_pad_event(PadEvent("0.lane1", virtual_uid("sams.2h"), SEEN))
        assert all(e["type"] in ("rejected", "unknown_tag") for e in events)
        assert session.actions == acknowledged
        cure(store)
        play(session, 3, seed=99)                             # space is back: play continues
        acknowledged = session.actions
    with Store(db) as store:                                   # and nothing acknowledged was lost
        assert Session.resume(store, session.id).actions == acknowledged
        assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file modes; the query_only test above covers it")
def test_a_read_only_data_directory_is_one_sentence_at_start(tmp_path):
    _healthy(tmp_path / "companion.sqlite3", 3)
    os.chmod(tmp_path / "companion.sqlite3", 0o400)
    os.chmod(tmp_path, 0o500)
    try:
        out = subprocess.run(CLI + ["--data-dir", str(tmp_path), "simulate"], capture_output=True, text=True)
        assert out.returncode == 2 and one_sentence(out.stderr), out.stderr
    finally:
        os.chmod(tmp_path, 0o700)


# ---- tags that claim another card --------------------------------------------------------------
def test_a_card_id_read_from_a_tag_never_overrides_the_registry_without_the_players(store):
    register_virtual_tags(store, "sams")
    session = Session.start(store, "sams", seed=5)
    k = 0
    while (scan := session.rules.scan_for(session.state, session.rules.random_action(session.state, Rng(k)))) is None:
        k += 1
    zone, card = scan
    claimed = "sams.10s" if card != "sams.10s" else "sams.9s"
    uid = virtual_uid(card)
    # A phone rewrote the tag's NDEF record to say it is another card.
    events = session.handle_pad_event(PadEvent(zone, uid, SEEN, 0.0, card_id=claimed))
    pending = [e for e in events if e["type"] == "relabel_pending"]
    assert len(pending) == 1 and "sams." not in pending[0]["text"]          # names no card: it may lie face down
    assert store.tags.lookup(uid) == card
    assert session.actions[-1]["card"] == card                             # the registered card was played
    [relabel] = store.tags.pending()
    assert (relabel.registered, relabel.claimed) == (card, claimed)
    store.tags.dismiss_relabel(uid)
    assert store.tags.pending() == [] and store.tags.lookup(uid) == card
    store.tags.resolve(uid, claimed)
    assert store.tags.confirm_relabel(uid) == claimed                     # the players said yes
    assert store.tags.lookup(uid) == claimed and store.tags.pending() == []


# ---- every connection is durable ----------------------------------------------------------------
def test_every_connection_the_project_opens_is_wal_with_synchronous_full(tmp_path, monkeypatch):
    """All of the project's SQLite goes through ``companion.session.connect``; check each it returns."""
    root = Path(__file__).resolve().parents[2]
    callers = [p for d in ("companion", "hardware", "ui") for p in (root / d).rglob("*.py")
               if "sqlite3.connect(" in p.read_text(encoding="utf-8")]
    assert callers == [root / "companion" / "session.py"]
    import companion.session as session_module
    opened = []
    real = session_module.connect

    def watching(path, readonly=False):
        db = real(path, readonly)
        opened.append((db.execute("PRAGMA journal_mode").fetchone()[0],
                       db.execute("PRAGMA synchronous").fetchone()[0], readonly))
        return db

    monkeypatch.setattr(session_module, "connect", watching)
    data = tmp_path / "data"
    assert main(["--data-dir", str(data), "simulate", "--game", "sams", "--seed", "3"]) == 0
    assert main(["--data-dir", str(data), "list"]) == 0
    assert main(["--data-dir", str(data), "export", "1", "-o", str(tmp_path / "r.json")]) == 0
    assert main(["--data-dir", str(data), "repair"]) == 0
    assert {ro for *_, ro in opened} == {True, False} and len(opened) >= 6
    assert all(mode == "wal" and sync == 2 for mode, sync, _ in opened), opened


# ---- Resume lists every unfinished game ----------------------------------------------------------
def test_every_unfinished_game_is_listed_with_the_reason_it_cannot_be_resumed(tmp_path):
    from companion import cards
    from companion.session import unfinished_games
    (tmp_path / "cards").mkdir()
    card_file = tmp_path / "cards" / "vitaluna.json"
    card_file.write_text(json.dumps({"game": "vitaluna", "format": 1, "cards": [
        {"id": "vitaluna.rat", "name": "Big Rat", "attrs": {"kind": "creature", "colour": "black", "attack": 2,
                                                            "health": 1, "epics": []}}]}))
    cards.use_user_dir(tmp_path)
    try:
        with Store(tmp_path / "companion.sqlite3") as store:
            luna = Session.start(store, "vitaluna", {}, seed=3)        # carries the players' card values
            sams = Session.start(store, "sams", {}, seed=3)
            with store.tx() as db:                                      # a game whose engine is gone
                db.execute("INSERT INTO games(game, options, seed) VALUES ('tiddlywinks', '{}', 1)")
            card_file.write_text('{"game": "vitaluna",\n "cards": [{"id": "vitaluna.rat", "name": 7}]}')
            listed = {u.info.id: u.problem for u in unfinished_games(store)}
            assert set(listed) == {luna.id, sams.id, 3}
            assert listed[luna.id] is None and listed[sams.id] is None    # the record carries its cards
            assert "engine does not load" in listed[3]
            with pytest.raises(IllegalAction) as exc:                   # a new Vita Luna game needs the file
                Session.start(store, "vitaluna", {}, seed=4)
            assert "vitaluna.json, line 2: cards[0].name: 7 is not of type 'string'" in str(exc.value)
    finally:
        cards.use_user_dir(None)


def test_a_window_size_that_is_not_one_is_a_sentence(tmp_path, capsys):
    assert main(["--data-dir", str(tmp_path), "run", "--size", "abc"]) == 2
    err = capsys.readouterr().err
    assert one_sentence(err) and "--size 'abc' is not a window size" in err


def test_a_shared_directory_given_as_data_dir_keeps_its_mode(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o1777)                              # like /tmp
    with Store(paths.database_path(paths.data_dir(shared))):
        assert os.stat(shared).st_mode & 0o7777 == 0o1777
        assert os.stat(shared / "companion.sqlite3").st_mode & 0o777 == 0o600


def test_a_version_2_database_gains_action_times_and_the_outbox(tmp_path):
    """Version 2 → 3: old actions keep an unknown time (None in the record); new ones get theirs."""
    from companion.session import SCHEMA, run_script
    from companion.tags import RELABEL_SCHEMA, SCHEMA as TAGS
    db = tmp_path / "companion.sqlite3"
    old = sqlite3.connect(db, isolation_level=None)
    old.execute("PRAGMA journal_mode=WAL")
    v2 = SCHEMA.replace("    t_ms     INTEGER,                             -- when it was played, Unix ms (NULL before version 3)\n", "")
    assert "t_ms" not in v2
    run_script(old, v2 + TAGS + RELABEL_SCHEMA)
    old.execute(f"PRAGMA application_id={APPLICATION_ID}")
    old.execute("PRAGMA user_version=2")
    old.execute("INSERT INTO games(game, options, seed) VALUES ('sams', ?, 9)",
                (json.dumps({"strict_majority": False, "strict_retaliation": False, "first_seat": 0,
                             "players": ["North", "South"]}),))
    old.execute("INSERT INTO actions(game_id, seq, action) VALUES (1, 1, ?)",
                (json.dumps({"type": "play", "seat": 0, "lane": 0, "card": "sams.7h"}),))
    old.close()
    with Store(db) as store:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
        assert store.db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0] == 0
        session = Session.resume(store, 1)
        session.act({"type": "play", "seat": 1, "lane": 0, "card": "sams.2c"})
        at = session.record()["at"]
        assert at[0] is None and at[1].endswith("Z")


def test_the_table_clock_stamps_the_game_and_each_action(tmp_path):
    """The games table and the action log take their times from the store's clock (the wall clock,
    or a script's paced one): a game whose actions came minutes apart lasts minutes."""
    from ui.story import duration_text
    store = Store(tmp_path / "companion.sqlite3")
    moments = iter(range(1_700_000_000, 1_700_100_000, 150))       # 150 s between two readings
    store.clock = lambda: next(moments)
    session = Session.start(store, "sams", {"players": ["A", "B"]}, seed=3)
    rng = Rng(3)
    for _ in range(4):
        session.act(session.rules.random_action(session.state, rng))
    info = next(g for g in store.games() if g.id == session.id)
    assert info.created == "2023-11-14 22:13:20"
    assert duration_text(info.created, info.updated) == "20 min"    # 8 readings after the start
    times = [r[0] for r in store.db.execute("SELECT t_ms FROM actions WHERE game_id = ? ORDER BY seq",
                                            (session.id,))]
    assert [b - a for a, b in zip(times, times[1:])] == [300_000] * 3
    store.close()
