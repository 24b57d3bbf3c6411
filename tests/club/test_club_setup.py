"""The two commands of docs/club.md: `companion hub setup --dir` and `companion club join`, then a
real broker started from the files setup wrote, a hub from its hub.toml and a table from its join file."""
from __future__ import annotations

import os
import random
import subprocess

from companion.cli import main
from companion.club.broker import free_port, mosquitto_path
from companion.club.config import HubConfig, joined_club
from companion.club.hub import Hub
from companion.club.outbox import Publisher
from companion.session import Session, Store
from tests.club.conftest import missing, wait_until


def test_hub_setup_dry_run_changes_nothing(tmp_path, capsys):
    assert main(["hub", "setup", "--tables", "t1,t2", "--broker-host", "hub.local", "--dir", str(tmp_path / "root"),
                 "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.count("would: ") >= 4 and "passwords" in out and not (tmp_path / "root").exists()


def test_hub_setup_refuses_a_bad_table_name_in_one_sentence(tmp_path, capsys):
    assert main(["hub", "setup", "--tables", "t1,club/#", "--broker-host", "h", "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion hub: table name 'club/#' cannot be used") and "Traceback" not in err


def test_set_up_a_hub_and_join_a_table_in_two_commands(tmp_path, monkeypatch, capsys):
    if mosquitto_path() is None:
        missing("mosquitto")
    root, port = tmp_path / "root", free_port()
    (tmp_path / "organiser").write_text("a long organiser password\n")
    assert main(["hub", "setup", "--tables", "t1,t2", "--broker-host", "127.0.0.1", "--port", str(port),
                 "--bind", "127.0.0.1", "--dir", str(root),
                 "--organiser-password-file", str(tmp_path / "organiser")]) == 0
    etc = root / "etc"
    assert "pattern write club/%u/log" in (etc / "mosquitto/club/acl").read_text()
    hashed = (etc / "mosquitto/club/passwords").read_text()
    assert hashed.startswith("t1:$7$") and "a long organiser password" not in hashed       # hashed by mosquitto_passwd
    unit = (etc / "systemd/system/tabletop-companion-hub.service").read_text()
    assert "NoNewPrivileges=yes" in unit and "hub --config" in unit
    for private in (etc / "tabletop-companion/hub.toml", etc / "tabletop-companion/join/t1.toml"):
        assert os.stat(private).st_mode & 0o777 == 0o600
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "table-config"))
    assert main(["club", "join", str(etc / "tabletop-companion/join/t1.toml")]) == 0
    club = joined_club()
    assert club.table == "t1" and club.broker.port == port
    broker = subprocess.Popen([mosquitto_path(), "-c", str(etc / "mosquitto/conf.d/club.conf")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        capsys.readouterr()
        wait_until(lambda: main(["--data-dir", str(tmp_path / "data"), "club", "status"]) == 0
                   and "reachable" in capsys.readouterr().out)
        hub = Hub(HubConfig.load(etc / "tabletop-companion/hub.toml")).start()
        try:
            assert hub.connected.wait(10)
            with Store(tmp_path / "data" / "companion.sqlite3") as store, Publisher(store, club) as publisher:
                session = Session.start(store, "sams", seed=1)
                for _ in range(5):
                    session.act(session.rules.random_action(session.state, random.Random(1)))
                wait_until(lambda: publisher.pending() == 0)
            assert len(hub.store.messages("t1", session.id)) == 5
        finally:
            hub.close()
    finally:
        broker.terminate()
        broker.wait()
    assert main(["club", "leave"]) == 0 and joined_club() is None


def test_companion_run_starts_a_publisher_only_for_a_table_in_a_club(broker, tmp_path, monkeypatch):
    """What `companion run` calls: nothing without club.toml; with it, the outbox is on and sends."""
    from companion.club.commands import start_publisher
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    with Store(tmp_path / "alone" / "companion.sqlite3") as store:
        assert start_publisher(store) is None and store.on_change is None
    broker.club("t6").save(tmp_path / "config" / "tabletop-companion" / "club.toml")
    with Store(tmp_path / "member" / "companion.sqlite3") as store:
        publisher = start_publisher(store)
        try:
            assert publisher is not None and store.on_change is publisher.outbox
            wait_until(lambda: publisher.connected)
        finally:
            publisher.close()
        assert store.on_change is None
