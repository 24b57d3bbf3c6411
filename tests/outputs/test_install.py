"""firmware_config/pi/install.sh in a throwaway root: the files it writes, and nothing twice."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "firmware_config" / "pi" / "install.sh"
SHELL = shutil.which("dash") or shutil.which("sh")     # POSIX sh, as on Raspberry Pi OS
APP_DIR = "/opt/tabletop-companion"
UNIT = "etc/systemd/system/tabletop-companion.service"
KIVY_CONFIG = "var/lib/tabletop-companion/kivy/config.ini"

# What Raspberry Pi OS Bookworm ships, abridged: the KMS driver is already on, and the
# file ends inside a [cm5] section that our lines must not fall into.
IMAGE_CONFIG = """# For more options and information see http://rptl.io/configtxt
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
arm_64bit=1

[cm5]
dtoverlay=dwc2,dr_mode=host
"""


def install(root: Path, *args: str) -> str:
    done = subprocess.run([SHELL, str(SCRIPT), "--root", str(root), "--user", "pi", "--app-dir", APP_DIR, *args],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout


def snapshot(root: Path) -> dict:
    """Every file's bytes and every link's target under ``root``."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        if path.is_symlink():
            out[rel] = "-> " + os.readlink(path)
        elif path.is_file():
            out[rel] = path.read_bytes()
    return out


@pytest.fixture
def pi_root(tmp_path):
    root = tmp_path / "root"
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "boot" / "firmware" / "config.txt").write_text(IMAGE_CONFIG)
    return root


def active_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]


def test_config_txt_gets_spi0_spi1_three_chip_selects_and_the_display_once(pi_root):
    install(pi_root)
    text = (pi_root / "boot/firmware/config.txt").read_text()
    assert text.startswith(IMAGE_CONFIG)                       # the image's own lines are untouched
    lines = active_lines(text)
    for setting in ("dtparam=spi=on", "dtoverlay=spi1-3cs", "dtoverlay=vc4-kms-dsi-7inch",
                    "dtoverlay=vc4-kms-v3d"):
        assert lines.count(setting) == 1, setting
    ours = text[len(IMAGE_CONFIG):].splitlines()
    assert ours[1] == "[all]"                                  # not inside the image's [cm5] section
    assert "# dtoverlay=vc4-kms-v3d  (already set above)" in ours


def test_the_service_starts_the_app_full_screen_on_boot_and_restarts_it(pi_root):
    install(pi_root)
    unit = (pi_root / UNIT).read_text()
    assert re.search(r"@[A-Z_]+@", unit) is None               # every placeholder filled in
    assert f"ExecStart={APP_DIR}/.venv/bin/companion run\n" in unit   # `companion run` is full screen by default
    assert "Restart=always\n" in unit and "StartLimitIntervalSec=0\n" in unit
    assert "User=pi\n" in unit and "WantedBy=multi-user.target\n" in unit
    assert "Environment=SDL_VIDEODRIVER=kmsdrm\n" in unit
    link = pi_root / "etc/systemd/system/multi-user.target.wants/tabletop-companion.service"
    assert os.readlink(link) == "/etc/systemd/system/tabletop-companion.service"


def test_kivy_reads_the_touch_panel_through_one_provider(pi_root):
    """Kivy itself loads the installed file: one probesysfs line (mtdev), no hidinput twin."""
    install(pi_root)
    env = dict(os.environ, KIVY_HOME=str(pi_root / Path(KIVY_CONFIG).parent), KIVY_NO_ARGS="1",
               KIVY_NO_CONSOLELOG="1")
    probe = ("from kivy.config import Config; import json; "
             "print(json.dumps(dict(Config.items('input'))))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    providers = eval(done.stdout.strip().splitlines()[-1])     # a JSON object of str → str
    assert providers == {"%(name)s": "probesysfs,provider=mtdev", "mouse": "mouse,disable_on_activity"}
    # Kivy has now written its defaults into the file: the setup is still the same.
    assert "unchanged  /var/lib/tabletop-companion/kivy/config.ini" in install(pi_root)


def test_a_second_run_changes_nothing(pi_root):
    install(pi_root)
    first = snapshot(pi_root)
    output = install(pi_root)
    assert snapshot(pi_root) == first
    assert "wrote" not in output and "linked" not in output
    assert output.rstrip().endswith("nothing to change: this system is already set up")


def test_a_dry_run_writes_nothing_and_shows_everything(pi_root):
    before = snapshot(pi_root)
    output = install(pi_root, "--dry-run")
    assert snapshot(pi_root) == before
    for path in ("/boot/firmware/config.txt", "/" + UNIT, "/" + KIVY_CONFIG):
        assert f"would write {path}:" in output
    assert "    | dtoverlay=spi1-3cs" in output
    assert "would run  systemctl daemon-reload" in output
    assert output.rstrip().endswith("dry run: nothing was changed")


def test_an_older_image_keeps_config_txt_in_boot(tmp_path):
    root = tmp_path / "root"
    (root / "boot").mkdir(parents=True)
    (root / "boot" / "config.txt").write_text("dtparam=audio=on\n")
    install(root)
    assert "dtoverlay=spi1-3cs" in active_lines((root / "boot" / "config.txt").read_text())
    assert not (root / "boot" / "firmware").exists()


def test_the_documented_dry_run_is_what_the_script_prints(tmp_path):
    """docs/deploy.md shows the dry run on an empty root; it must stay true."""
    tmp_path.joinpath("root").mkdir()
    output = install(tmp_path / "root", "--dry-run")
    doc = (REPO / "docs" / "deploy.md").read_text()
    shown = re.search(r"<!-- dry-run begin -->\n```text\n(.*?)```\n<!-- dry-run end -->", doc, re.S)
    assert shown is not None, "docs/deploy.md lost its dry-run block"
    assert shown.group(1) == output


def test_a_wrong_option_is_refused_in_words(tmp_path):
    done = subprocess.run([SHELL, str(SCRIPT), "--colour", "blue"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "install.sh: unknown option --colour" in done.stderr
    done = subprocess.run([SHELL, str(SCRIPT), "--root", str(tmp_path / "nowhere")], capture_output=True, text=True)
    assert done.returncode == 2 and "is not a directory" in done.stderr


def test_the_service_names_only_groups_the_system_has(pi_root):
    (pi_root / "etc").mkdir()
    (pi_root / "etc" / "group").write_text("root:x:0:\nvideo:x:44:pi\ninput:x:105:\ngpio:x:997:pi\n")
    output = install(pi_root)
    unit = (pi_root / UNIT).read_text()
    assert "SupplementaryGroups=gpio input video\n" in unit
    assert "usermod -aG spi" not in output and "usermod -aG gpio pi" in output
