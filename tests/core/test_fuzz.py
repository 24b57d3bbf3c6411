"""Seeded, time-bounded fuzzing of every input a person hands the companion (issue 13, "Must show").

Hypothesis (``derandomize=True``: the same inputs on every run, no example
database) damages real inputs — a game record, the shipped table profiles, a
players' card file, the games database — and each must be answered with one
sentence (exit 2) or accepted, never with a traceback, and no acknowledged
action may be lost.  Each category counts what it tried and prints a line
(``-s`` shows it)::

    PYTHONPATH=$PWD python -m pytest tests/core/test_fuzz.py -q -s
"""
from __future__ import annotations

import contextlib
import io
import json
import shutil
import sqlite3
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion import cards
from companion.cards import DATA_DIR, PlayersCardError, load_catalogue, read_players_file
from ui.main import main
from companion.engine import IllegalAction, Rng
from companion.session import NotSaved, Session, Store, StoreError, unfinished_games
from companion.simulate import ScriptedTable, register_virtual_tags
from companion.table import ProfileError, load_profile
from hardware.doctor import check_profile, doctor

TABLES = DATA_DIR.parent.parent / "firmware_config" / "tables"
FUZZ = settings(derandomize=True, deadline=None, database=None, print_blob=False,
                suppress_health_check=list(HealthCheck))


def scratch() -> Path:
    shm = Path("/dev/shm")
    return Path(tempfile.mkdtemp(dir=shm if shm.is_dir() else None))


@pytest.fixture(scope="module", autouse=True)
def one_parser():
    """The command line's real parser, built once for the module: building it is most of what a
    ``companion replay`` costs in-process (argparse looks up translations for every help text), and
    it is the same parser every time; what each input meets (parsing the argv, the command) is not cached."""
    from companion import cli
    built = cli.build_parser()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cli, "build_parser", lambda: built)
        yield


def run_cli(*argv) -> tuple[int, str, str]:
    """``companion …`` in this process; any exception escaping ``main`` is a traceback a user would see."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def one_sentence(text: str) -> bool:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return len(lines) == 1 and "Traceback" not in text


def report(name: str, tally: Counter) -> None:
    print(f"\nfuzz {name}: {tally['inputs']} inputs, {tally['tracebacks']} tracebacks, "
          f"{tally['lost']} acknowledged actions lost, refused with a sentence: {tally['refused']}, "
          f"accepted: {tally['accepted']}")


# ---- damage -------------------------------------------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6)


def _paths(doc, prefix=()):
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:6]):
            yield from _paths(v, prefix + (i,))


def _set(doc, path, value, delete=False):
    if not path:
        return value
    node = doc
    for key in path[:-1]:
        node = node[key]
    if delete:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return doc


@st.composite
def damaged_json(draw, base: dict) -> bytes:
    """A JSON document damaged the ways files get damaged, or hand-edited wrongly."""
    how = draw(st.sampled_from(["value", "value", "value", "delete", "deep", "digits", "bytes", "truncate", "flip"]))
    doc = json.loads(json.dumps(base))
    text = json.dumps(doc, indent=1).encode()
    if how in ("value", "delete"):
        paths = list(_paths(doc))
        path = draw(st.sampled_from(paths[1:] if how == "delete" else paths))
        return json.dumps(_set(doc, path, draw(json_values), delete=how == "delete"), indent=1).encode()
    if how == "deep":
        depth = draw(st.sampled_from([40, 1000, 100_000]))
        path = draw(st.sampled_from(list(_paths(doc))))
        marker = "\u2603DEEP\u2603"
        raw = json.dumps(_set(doc, path, marker)).encode()
        return raw.replace(json.dumps(marker).encode(), b"[" * depth + b"]" * depth)
    if how == "digits":
        path = draw(st.sampled_from(list(_paths(doc))))
        raw = json.dumps(_set(doc, path, "\u2603N\u2603")).encode()
        return raw.replace(b'"\\u2603N\\u2603"', b"9" * draw(st.sampled_from([4301, 5000, 20000])))
    if how == "bytes":
        at = draw(st.integers(0, len(text)))
        return text[:at] + draw(st.sampled_from([b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\x00", b"\xfe\xff"])) + text[at:]
    if how == "truncate":
        return text[:draw(st.integers(0, len(text) - 1))]
    at = draw(st.integers(0, len(text) - 1))
    return text[:at] + bytes([text[at] ^ draw(st.integers(1, 255))]) + text[at + 1:]


# ---- records: companion replay ----------------------------------------------------------------
def _short_record() -> dict:
    d = scratch()
    with Store(d / "r.sqlite3") as store:
        register_virtual_tags(store, "sams")
        session = Session.start(store, "sams", {}, seed=21)
        table = ScriptedTable(session)
        for k in range(25):
            table.play(session.rules.random_action(session.state, Rng(k)))
        record = session.record()
    shutil.rmtree(d)
    return record


RECORD = _short_record()


def test_damaged_records_are_one_sentence_and_exit_2_never_a_traceback():
    tally = Counter()
    folder = scratch()

    @settings(FUZZ, max_examples=520)
    @given(damaged_json(RECORD))
    def replay_it(data):
        path = folder / "record.json"
        path.write_bytes(data)
        tally["inputs"] += 1
        try:
            code, out, err = run_cli("replay", str(path))
        except BaseException:
            tally["tracebacks"] += 1
            raise
        assert code in (0, 2)
        if code == 2:
            assert one_sentence(err) and "record.json" in err, err
            tally["refused"] += 1
        else:
            json.loads(out)
            tally["accepted"] += 1

    try:
        replay_it()
    finally:
        shutil.rmtree(folder)
        report("records", tally)
    assert tally["inputs"] >= 500 and tally["tracebacks"] == 0 and tally["refused"] >= 250


# ---- table profiles: run, doctor and the app agree ---------------------------------------------
PROFILES = {p.name: p.read_text(encoding="utf-8") for p in sorted(TABLES.glob("*.toml"))}
TOML_VALUES = ['"x"', "0", "1", "-1", "true", "false", "[0]", '["x"]', "[]", "{}", "3.5", '"s1"', "26", "10",
               '["n1", "n1"]', "99", '{ id = "n9", mode = "tap" }', '[{ id = "n1", mode = "slide" }]',
               "9" * 4400, "[" * 5000 + "]" * 5000, '"\\u0000"', "2024-01-01"]
TOML_EXTRA = ['[[leds]]\nid = "x"\nkind = "plain"\nseat = 0\ngpio = 26\n', '[buzzer]\ngpio = "twelve"\n',
              '[layouts.sams]\nn1 = "0.lane9"\n', '[layouts.chess]\nn1 = "a1"\n', "[[readers]]\n", "readers = 5\n",
              '[[buttons]]\nid = "b"\nseat = 2\ngpio = 13\n', '[[readers]]\nid = "p"\nkind = "bridge"\nport = 3\npads = ["q"]\n',
              '[pads.n1]\nmode = "hold"\n', "\xff"]


@st.composite
def damaged_profile(draw) -> bytes:
    name = draw(st.sampled_from(sorted(PROFILES)))
    lines = PROFILES[name].splitlines()
    how = draw(st.sampled_from(["value", "value", "value", "delete", "extra", "bytes", "key"]))
    settable = [i for i, line in enumerate(lines) if "=" in line and not line.lstrip().startswith("#")]
    if how == "value":
        i = draw(st.sampled_from(settable))
        key = lines[i].split("=", 1)[0]
        value = draw(st.sampled_from(TOML_VALUES) | st.integers(-5, 40).map(str))
        lines[i] = f"{key}= {value}"
    elif how == "delete":
        del lines[draw(st.integers(0, len(lines) - 1))]
    elif how == "key":
        i = draw(st.sampled_from(settable))
        lines[i] = draw(st.sampled_from(["bsu", "pad", "seat", "gpio", "kind", "id", "mode"])) + " =" + \
            lines[i].split("=", 1)[1]
    elif how == "extra":
        lines.append(draw(st.sampled_from(TOML_EXTRA)))
    text = "\n".join(lines).encode("utf-8", "surrogateescape")
    if how == "bytes":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + b"\xff\xfe" + text[at:]
    return text


def test_damaged_profiles_get_the_same_verdict_from_run_doctor_and_the_app():
    from companion import games
    tally = Counter()
    folder = scratch()

    @settings(FUZZ, max_examples=110)
    @given(damaged_profile())
    def judge(data):
        path = folder / "table.toml"
        path.write_bytes(data)
        tally["inputs"] += 1
        try:
            try:
                check_profile(path)                   # what `companion run` checks before any window opens
                run_ok = True
            except ProfileError as exc:
                assert one_sentence(str(exc)) and "table.toml" in str(exc), str(exc)
                run_ok = False
            out = io.StringIO()
            code = doctor(profile=path, seconds=0, out=out)
            if run_ok:                                 # the app takes every layout the profile offers
                profile = load_profile(path)
                for game in profile.layouts:
                    if game in games.available():
                        rules = games.get(game)
                        profile.layout(game).validate([z.id for z in rules.zones(rules.normalise_options({}))])
        except BaseException:
            tally["tracebacks"] += 1
            raise
        assert (code == 2) == (not run_ok), out.getvalue()
        if code == 2:
            assert one_sentence(out.getvalue()), out.getvalue()
            tally["refused"] += 1
        else:
            tally["accepted"] += 1

    try:
        judge()
    finally:
        shutil.rmtree(folder)
        report("profiles", tally)
    assert tally["inputs"] >= 100 and tally["tracebacks"] == 0 and tally["refused"] >= 40


# ---- players' card files ------------------------------------------------------------------------
CARD_FILES = {
    "vitaluna": {"game": "vitaluna", "format": 1, "cards": [
        {"id": "vitaluna.rat", "name": "Big Rat", "attrs": {"kind": "creature", "colour": "black", "attack": 2,
                                                            "health": 1, "epics": []}}]},
    "territory": {"game": "territory", "format": 1,
                  "biomes": [{"id": "lava", "name": "Lava", "counts_as": "desert", "why": "hot and dry"}],
                  "cards": [{"id": "territory.marsh-stalker", "name": "Marsh Stalker", "attrs": {
                      "kind": "creature", "species": "Heron", "types": ["bird"], "base_power": 3,
                      "biomes": {"swamp": 3, "lava": -2}, "abilities": [], "cost": 7, "stars": 1}}]},
    "sams": {"game": "sams", "format": 1, "cards": [
        {"id": "sams.7h", "name": "Seven of Hearts (gold foil)", "attrs": {"rank": 7, "suit": "hearts"}}]},
}


@st.composite
def damaged_card_file(draw):
    game = draw(st.sampled_from(sorted(CARD_FILES)))
    return game, draw(damaged_json(CARD_FILES[game]))


def test_a_broken_card_file_never_hides_a_game_and_says_file_line_and_field():
    tally = Counter()
    folder = scratch()
    store = Store(folder / "companion.sqlite3")
    unfinished = [Session.start(store, g, {}, seed=3).id for g in ("sams", "vitaluna", "territory")]

    @settings(FUZZ, max_examples=80)
    @given(damaged_card_file())
    def judge(case):
        game, data = case
        (folder / "cards").mkdir(exist_ok=True)
        path = folder / "cards" / f"{game}.json"
        path.write_bytes(data)
        tally["inputs"] += 1
        cards.use_user_dir(folder)
        try:
            shipped = load_catalogue(game)             # never raises: the shipped cards stay playable
            assert len(shipped) > 0
            try:
                read_players_file(game, folder)
                refused = None
            except PlayersCardError as exc:
                refused = str(exc)
                assert one_sentence(refused) and f"{game}.json" in refused, refused
                assert game in cards.user_problems()
            try:
                Session.start(store, game, {}, seed=5)   # what Start on the setup screen does
            except IllegalAction as exc:
                assert one_sentence(str(exc)), str(exc)
                refused = refused or str(exc)
            listed = [u.info.id for u in unfinished_games(store)]
            assert set(unfinished) <= set(listed)   # Resume still lists every unfinished game
        except BaseException:
            tally["tracebacks"] += 1
            raise
        finally:
            cards.use_user_dir(None)
        tally["refused" if refused else "accepted"] += 1

    try:
        judge()
    finally:
        store.close()
        shutil.rmtree(folder)
        report("card files", tally)
    assert tally["inputs"] >= 70 and tally["tracebacks"] == 0 and tally["refused"] >= 30


# ---- the database: damaged, full, read-only ----------------------------------------------------
@pytest.fixture(scope="module")
def template_db():
    """A healthy database with two games of 40 actions, to damage copies of."""
    folder = scratch()
    with Store(folder / "companion.sqlite3") as store:
        register_virtual_tags(store, "sams")
        for seed in (1, 2):
            session = Session.start(store, "sams", {}, seed=seed)
            table = ScriptedTable(session)
            for k in range(40):
                table.play(session.rules.random_action(session.state, Rng(seed * 100 + k)))
    yield folder / "companion.sqlite3"
    shutil.rmtree(folder)


def test_a_damaged_database_is_one_sentence_never_written_and_never_a_traceback(template_db):
    tally = Counter()
    TEMPLATE = template_db
    size = TEMPLATE.stat().st_size

    @settings(FUZZ, max_examples=60)
    @given(st.integers(0, size - 1), st.binary(min_size=1, max_size=512), st.sampled_from(["list", "export"]))
    def judge(offset, junk, command):
        folder = scratch()
        db = folder / "companion.sqlite3"
        data = bytearray(TEMPLATE.read_bytes())
        data[offset:offset + len(junk)] = junk
        db.write_bytes(bytes(data[:size]))
        tally["inputs"] += 1
        try:
            argv = ["--data-dir", str(folder), command] + (["1"] if command == "export" else [])
            code, out, err = run_cli(*argv)
            assert code in (0, 2) and (code == 0 or one_sentence(err)), err
            try:
                Store(db).close()
                tally["accepted"] += 1
            except StoreError as exc:
                assert one_sentence(str(exc))
                assert db.read_bytes() == bytes(data[:size])        # refused files are never written
                tally["refused"] += 1
        except BaseException:
            tally["tracebacks"] += 1
            raise
        finally:
            shutil.rmtree(folder)

    try:
        judge()
    finally:
        report("damaged database", tally)
    assert tally["inputs"] >= 50 and tally["tracebacks"] == 0 and tally["refused"] >= 10


def _fill(db) -> None:
    """The disk is full: no new page, and the free room inside the pages used up too (filler rows
    of a finished filler game and filler tags, which nothing plays with), so the next write that
    needs room fails exactly as on a full disk."""
    db.execute(f"PRAGMA max_page_count={db.execute('PRAGMA page_count').fetchone()[0]}")
    try:
        db.execute("INSERT INTO games(game, options, seed, status) VALUES ('sams', '{}', 0, 'over')")
    except sqlite3.OperationalError:
        return
    filler = db.execute("SELECT MAX(id) FROM games").fetchone()[0]
    n = db.execute("SELECT COUNT(*) FROM tags WHERE uid LIKE 'FF%'").fetchone()[0]
    for sql, args in (("INSERT INTO actions(game_id, seq, action) VALUES (?, ?, '{}')", lambda k: (filler, k)),
                      ("INSERT INTO redo(game_id, seq, action) VALUES (?, ?, '{}')", lambda k: (filler, k)),
                      ("INSERT INTO tags(uid, card_id) VALUES (?, 'sams.2h')", lambda k: (f"FF{n + k:012X}",))):
        for k in range(1, 100_000):
            try:
                db.execute(sql, args(k))
            except sqlite3.OperationalError:
                break


FAULTS = {
    "full": (_fill, lambda db: db.execute("PRAGMA max_page_count=1073741823")),
    "read-only": (lambda db: db.execute("PRAGMA query_only=1"), lambda db: db.execute("PRAGMA query_only=0")),
}


@pytest.mark.parametrize("fault", FAULTS)
def test_a_full_or_read_only_database_during_play_loses_no_acknowledged_action(fault):
    """Random play with the fault switched on and off at random moments; every move either is
    acknowledged (and then survives a restart) or is refused with the reason and moves nothing."""
    tally = Counter()
    on, off = FAULTS[fault]

    @settings(FUZZ, max_examples=60)
    @given(st.lists(st.sampled_from(["act", "act", "act", "pad", "undo", "redo", "confirm", "fault", "cure"]),
                    min_size=5, max_size=40), st.integers(0, 1000))
    def judge(script, seed):
        folder = scratch()
        db = folder / "companion.sqlite3"
        tally["inputs"] += 1
        try:
            with Store(db) as store:
                register_virtual_tags(store, "sams")
                session = Session.start(store, "sams", {}, seed=seed)
                table = ScriptedTable(session)
                for k, step in enumerate(script):
                    before_state, before_actions = session.state, session.actions
                    rules = session.rules
                    try:
                        if step == "fault":
                            on(store.db)
                        elif step == "cure":
                            off(store.db)
                        elif step == "undo":
                            session.undo()
                        elif step == "redo":
                            session.redo()
                        elif step == "confirm":
                            session.confirm(k % 2)
                        elif not rules.is_over(session.state):
                            action = rules.random_action(session.state, Rng(seed + k))
                            if step == "pad":
                                table.play(action)
                            else:
                                session.act(action)
                    except NotSaved as exc:
                        assert one_sentence(str(exc)) and str(exc).startswith("Not saved: ")
                        assert session.state == before_state and session.actions == before_actions
                        tally["refused"] += 1
                    except IllegalAction:
                        assert session.state == before_state
                    except Exception as exc:              # the scripted table says a scan was refused
                        if type(exc).__name__ != "SimulationError":
                            raise
                        assert session.actions == before_actions
                        assert "Not saved" in str(exc) or "nothing" in str(exc) or "did not play" in str(exc)
                        tally["refused"] += 1
                acknowledged, redo = session.actions, list(session._redo)
            with Store(db) as store:
                again = Session.resume(store, session.id)
                tally["lost"] += max(0, len(acknowledged) - len(again.actions))
                assert again.actions == acknowledged and again._redo == redo
                assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            tally["accepted"] += 1
        except BaseException:
            tally["tracebacks"] += 1
            raise
        finally:
            shutil.rmtree(folder)

    try:
        judge()
    finally:
        report(f"{fault} database", tally)
    assert tally["inputs"] >= 60 and tally["tracebacks"] == 0 and tally["lost"] == 0 and tally["refused"] >= 10
