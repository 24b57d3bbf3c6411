"""Every output file is written whole or not at all, 0600, and every output path error is one
sentence and exit 2 (issue 24): `companion export -o`, `simulate --export`, the screens' exports.

A full disk is made three ways: /dev/full (ENOSPC on every write), RLIMIT_FSIZE in a child
process (EFBIG part-way through the file, as a disk filling up mid-write), and — where this
process may mount (root, `unshare`) — a real 64 KiB tmpfs in a private mount namespace.
"""
import json
import os
import resource
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from companion import outfiles
from companion.cli import main
from companion.session import Session, Store
from companion.simulate import play_random, register_virtual_tags
from ui import story

CLI = [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())"]
GOOD = '{"an old, good record": true}\n'


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    """A data directory holding game #1, a finished game of Lifeforce Battle (its record, 43 KB,
    is larger than the 36 KiB the full-disk test below leaves room for)."""
    folder = tmp_path_factory.mktemp("data")
    with Store(folder / "companion.sqlite3") as store:
        register_virtual_tags(store, "lifeforce")
        session = Session.start(store, "lifeforce", {}, seed=4)
        play_random(session, seed=4)
        assert session.rules.is_over(session.state)
    return folder


def export(data_dir, *args) -> list[str]:
    return ["--data-dir", str(data_dir), "export", "1", *args]


def one_sentence(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.mark.parametrize("where, words", [
    ("/dev/full", "/dev/full cannot be written: the disk is full"),
    ("{tmp}", "cannot be written: it is a directory; name a file"),
    ("{tmp}/no/such/folder/game.json", "cannot be written: its folder"),
    ("{tmp}/", "a record needs a file name, not a directory"),
])
def test_export_to_a_path_that_cannot_be_written_is_one_sentence_and_exit_2(data_dir, tmp_path, capsys, where,
                                                                              words):
    assert main(export(data_dir, "-o", where.format(tmp=tmp_path))) == 2
    line = one_sentence(capsys.readouterr().err)
    assert line.startswith("companion export: ") and words in line
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("where", ["/dev/full", "{tmp}", "{tmp}/missing/game.json"])
def test_simulate_export_to_a_path_that_cannot_be_written_is_one_sentence_and_exit_2(tmp_path, capsys, where):
    assert main(["simulate", "--game", "vitaluna", "--seed", "3", "--export", where.format(tmp=tmp_path)]) == 2
    line = one_sentence(capsys.readouterr().err)
    assert line.startswith("companion simulate: ") and "cannot be written" in line


def test_a_folder_the_user_may_not_write_is_one_sentence(data_dir, tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    old = folder / "old.json"
    old.write_text(GOOD)
    folder.chmod(0o555)
    # root writes anywhere: the child gives up the capabilities that let it (util-linux setpriv).
    drop = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv(1): nothing is refused to root")
        drop = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]
    done = subprocess.run(drop + CLI + export(data_dir, "-o", str(old)), capture_output=True, text=True,
                          env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert done.returncode == 2
    assert "cannot be written: permission denied; the old file is unchanged" in one_sentence(done.stderr)
    assert old.read_text() == GOOD


def test_a_disk_that_fills_during_the_write_leaves_the_old_file_and_no_scraps(data_dir, tmp_path):
    """RLIMIT_FSIZE makes write(2) fail with EFBIG after 36 KiB, part-way through the record
    (Python ignores SIGXFSZ): before issue 24 the old file was replaced by 36 KiB of a record.
    (Not less: SQLite's 32 KiB -shm file must still be made to read the game.)"""
    old = tmp_path / "old.json"
    old.write_text(GOOD)

    def small_disk():
        resource.setrlimit(resource.RLIMIT_FSIZE, (36864, 36864))

    done = subprocess.run(CLI + export(data_dir, "-o", str(old)), capture_output=True, text=True,
                          preexec_fn=small_disk, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert done.returncode == 2
    line = one_sentence(done.stderr)
    assert "cannot be written: the file would be larger than this system allows; the old file is unchanged" in line
    assert old.read_text() == GOOD and leftovers(tmp_path) == []


def _can_mount() -> bool:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "--propagation", "private", "true"], capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not _can_mount(), reason="mounting a tmpfs needs root and unshare(1) (CI may have neither)")
def test_a_really_full_file_system_leaves_the_old_file(data_dir, tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    script = f"""
set -e
mount -t tmpfs -o size=96k tmpfs "$1"
printf '%s' '{GOOD.strip()}' > "$1/old.json"
head -c 100000 /dev/zero > "$1/filler" 2>/dev/null || true
set +e
"$2" -c 'import sys; from companion.cli import main; sys.exit(main())' --data-dir "$3" export 1 -o "$1/old.json"
echo "exit=$?"
cat "$1/old.json"; echo
ls -a "$1"
"""
    done = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh", str(disk),
                           sys.executable, str(data_dir)], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert "exit=2" in done.stdout, done.stdout + done.stderr
    assert "cannot be written: the disk is full; the old file is unchanged" in one_sentence(done.stderr)
    assert GOOD.strip() in done.stdout                      # the old file, whole
    assert ".tmp" not in done.stdout                        # no scraps left on the full disk


def test_an_export_is_0600_whatever_the_umask_and_replaces_the_old_file_whole(data_dir, tmp_path, capsys):
    old = tmp_path / "game.json"
    old.write_text(GOOD)
    old.chmod(0o644)
    mask = os.umask(0)
    try:
        assert main(export(data_dir, "-o", str(old))) == 0
    finally:
        os.umask(mask)
    assert stat.S_IMODE(old.stat().st_mode) == 0o600
    assert json.loads(old.read_text())["game"] == "lifeforce"
    assert leftovers(tmp_path) == []


def test_a_symlinked_output_writes_its_target_and_keeps_the_link(tmp_path):
    target = tmp_path / "real.json"
    target.write_text(GOOD)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    outfiles.write_text(link, "new\n")
    assert link.is_symlink() and target.read_text() == "new\n"


def test_a_device_is_written_in_place_not_replaced(tmp_path):
    outfiles.write_text("/dev/null", "nothing\n")          # no rename over a device node
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_the_screens_export_is_0600_and_refuses_a_game_still_being_played(store, tmp_path):
    register_virtual_tags(store, "vitaluna")
    session = Session.start(store, "vitaluna", {}, seed=2)
    with pytest.raises(outfiles.OutputError, match="is still being played"):
        story.export(session.record(), tmp_path / "exports", session.id)
    play_random(session, seed=2)
    path = story.export(session.record(), tmp_path / "exports", session.id)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert json.loads(path.read_text())["actions"] == session.actions
