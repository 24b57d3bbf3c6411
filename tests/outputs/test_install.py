"""firmware_config/pi/install.sh in a throwaway root, under dash and bash: the files it
writes, nothing twice, nothing through a path another user controls."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PI = REPO / "firmware_config" / "pi"
SCRIPT = PI / "install.sh"
APP_DIR = "/home/pi/tabletop-companion"
UNIT = "etc/systemd/system/tabletop-companion.service"
UNITS = ("tabletop-companion.service", "tabletop-companion-venv.service", "tabletop-companion-failed.service")
# Raspberry Pi OS runs scripts with dash as /bin/sh; people also type `bash install.sh`.
SHELLS = ["dash", "bash"]

# What Raspberry Pi OS Bookworm ships, abridged: the KMS driver and display auto-detection
# are already on, and the file ends inside a [cm5] section that our lines must not fall into.
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
# Raspberry Pi OS's device groups (and a few others), and its first user.
IMAGE_GROUPS = ("root:x:0:\ntty:x:5:\ndialout:x:20:pi\nvideo:x:44:pi\nsudo:x:27:pi\ninput:x:105:pi\n"
                "render:x:106:pi\nsystemd-journal:x:999:\ngpio:x:997:pi\ni2c:x:998:pi\nspi:x:999:pi\npi:x:1000:\n")
IMAGE_PASSWD = "root:x:0:0:root:/root:/bin/bash\npi:x:1000:1000:,,,:/home/pi:/bin/bash\n"
MODELS = {"pi4": "Raspberry Pi 4 Model B Rev 1.5", "pi5": "Raspberry Pi 5 Model B Rev 1.0"}


def make_root(path: Path, model: str | None = "pi4") -> Path:
    """An SD card as Raspberry Pi OS Bookworm leaves it: config.txt on the boot partition,
    the groups and first user; ``model`` as the firmware would report the board."""
    (path / "boot" / "firmware").mkdir(parents=True)
    (path / "boot" / "firmware" / "config.txt").write_text(IMAGE_CONFIG)
    (path / "etc").mkdir()
    (path / "etc" / "group").write_text(IMAGE_GROUPS)
    (path / "etc" / "passwd").write_text(IMAGE_PASSWD)
    if model:
        (path / "proc" / "device-tree").mkdir(parents=True)
        (path / "proc" / "device-tree" / "model").write_bytes(MODELS[model].encode() + b"\0")
    return path


def run(shell: str, root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([shutil.which(shell), str(SCRIPT), "--root", str(root), "--user", "pi",
                           "--app-dir", APP_DIR, *args], capture_output=True, text=True, timeout=60)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def install(shell: str, root: Path, *args: str) -> str:
    return run(shell, root, *args).stdout


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


def active_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]


def our_block(root: Path) -> list[str]:
    text = (root / "boot/firmware/config.txt").read_text()
    assert text.startswith(IMAGE_CONFIG)                       # the image's own lines are untouched
    return text[len(IMAGE_CONFIG):].splitlines()


@pytest.fixture(params=SHELLS)
def shell(request):
    if shutil.which(request.param) is None:
        pytest.fail(f"{request.param} is missing: apt-get install {request.param}")
    return request.param


@pytest.fixture
def pi_root(tmp_path):
    return make_root(tmp_path / "root")


def test_config_txt_gets_spi0_spi1_three_chip_selects_and_leaves_the_display_to_detection(shell, pi_root):
    install(shell, pi_root)
    ours = our_block(pi_root)
    assert ours[1] == "[all]"                                  # not inside the image's [cm5] section
    lines = active_lines((pi_root / "boot/firmware/config.txt").read_text())
    for setting in ("dtparam=spi=on", "dtoverlay=spi1-3cs", "dtoverlay=vc4-kms-v3d", "display_auto_detect=1"):
        assert lines.count(setting) == 1, setting
    assert "# dtoverlay=vc4-kms-v3d  (already set above)" in ours
    assert "# display_auto_detect=1  (already set above)" in ours
    # No display overlay is forced: with no panel attached one would stall the graphics driver.
    assert not [line for line in lines if "dsi" in line]


@pytest.mark.parametrize("display, overlay, rotation", [
    ("7inch", "dtoverlay=vc4-kms-dsi-7inch", "0"),
    ("td2", "dtoverlay=vc4-kms-dsi-ili9881-7inch", "0"),
    ("td2-landscape", "dtoverlay=vc4-kms-dsi-ili9881-7inch", "90"),
])
def test_a_named_display_gets_its_overlay_and_the_app_its_rotation(shell, pi_root, display, overlay, rotation):
    install(shell, pi_root, "--display", display)
    ours = our_block(pi_root)
    assert ours.count(overlay) == 1
    assert "display_auto_detect=0" in ours                     # the firmware's guess would set it up twice
    unit = (pi_root / UNIT).read_text()
    assert f"Environment=KCFG_GRAPHICS_ROTATION={rotation}\n" in unit   # Kivy turns picture and touch


def test_a_pi_5_panel_on_disp0_and_a_display_mounted_upside_down(shell, tmp_path):
    root = make_root(tmp_path / "pi5", model="pi5")
    out = install(shell, root, "--display", "td2-landscape", "--dsi0", "--rotate", "270")
    assert "model:     Raspberry Pi 5 Model B Rev 1.0" in out
    assert "dtoverlay=vc4-kms-dsi-ili9881-7inch,dsi0" in our_block(root)
    assert "Environment=KCFG_GRAPHICS_ROTATION=270\n" in (root / UNIT).read_text()
    # A Pi 4 has no DISP0: refused in words, nothing written.
    pi4 = make_root(tmp_path / "pi4")
    before = snapshot(pi4)
    done = run(shell, pi4, "--display", "7inch", "--dsi0", check=False)
    assert done.returncode == 2 and "Raspberry Pi 4 Model B Rev 1.5 has one display connector" in done.stderr
    assert snapshot(pi4) == before


def test_the_service_starts_the_app_full_screen_sandboxed_and_stops_retrying_with_a_reason(shell, pi_root):
    install(shell, pi_root)
    unit = (pi_root / UNIT).read_text()
    assert re.search(r"@[A-Z_]+@", unit) is None               # every placeholder filled in
    assert f'ExecStart="{APP_DIR}/.venv/bin/companion" run\n' in unit   # `companion run` is full screen by default
    assert "User=pi\n" in unit and "WantedBy=multi-user.target\n" in unit
    assert "Environment=SDL_VIDEODRIVER=kmsdrm\n" in unit
    # The sandbox issue 13 asks for: no new privileges, the system read-only but for what it writes.
    # Issue 24 adds the kernel, namespace and system call protections (docs/deploy.md); the network
    # stays reachable for a club's MQTT broker (issue 27), so no IPAddressDeny.
    for line in ("NoNewPrivileges=yes", "UMask=0077", "ProtectSystem=strict", "ProtectHome=read-only", "PrivateTmp=yes",
                 "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK", "DevicePolicy=closed",
                 "CapabilityBoundingSet=", "SystemCallFilter=@system-service", "SystemCallArchitectures=native",
                 "ProtectKernelLogs=yes", "ProtectClock=yes", "RestrictNamespaces=yes", "ProtectProc=invisible",
                 'ReadWritePaths="-/home/pi/.local/share/tabletop-companion"',   # not its own code
                 "StateDirectory=tabletop-companion", "Environment=KIVY_HOME=/var/lib/tabletop-companion/kivy"):
        assert line + "\n" in unit, line
    devices = re.findall(r"^DeviceAllow=(\S+)", unit, re.M)
    assert devices == ["char-spi", "char-gpiochip", "/dev/gpiomem", "char-drm", "char-input", "char-ttyACM",
                       "/dev/tty1"]
    # Repeated failures end in the failure screen, not a restart loop; exit 2 is not retried at all.
    for line in ("StartLimitBurst=5", "StartLimitIntervalSec=120", "OnFailure=tabletop-companion-failed.service",
                 "RestartPreventExitStatus=2", "Wants=tabletop-companion-venv.service"):
        assert line + "\n" in unit, line
    failed = (pi_root / "etc/systemd/system/tabletop-companion-failed.service").read_text()
    assert f'ExecStart=/bin/sh "{APP_DIR}/firmware_config/pi/show-failure.sh" tabletop-companion.service /dev/tty1' \
        in failed
    venv = (pi_root / "etc/systemd/system/tabletop-companion-venv.service").read_text()
    assert "ExecStart=/usr/bin/python3 -m companion.bootstrap\n" in venv and "User=pi\n" in venv
    link = pi_root / "etc/systemd/system/multi-user.target.wants/tabletop-companion.service"
    assert os.readlink(link) == "/etc/systemd/system/tabletop-companion.service"


def test_under_bash_the_groups_are_the_device_groups_not_the_callers(pi_root):
    """bash keeps the caller's group ids in $GROUPS: a script using that name gave root's 0."""
    out = install("bash", pi_root)
    unit = (pi_root / UNIT).read_text()
    assert "SupplementaryGroups=gpio spi input video render dialout\n" in unit
    assert re.findall(r"usermod -aG (\S+) pi", out) == ["gpio", "spi", "input", "video", "render", "dialout"]


def test_the_service_names_only_groups_the_system_has(shell, pi_root):
    (pi_root / "etc" / "group").write_text("root:x:0:\nvideo:x:44:pi\ninput:x:105:\ngpio:x:997:pi\n")
    output = install(shell, pi_root)
    assert "SupplementaryGroups=gpio input video\n" in (pi_root / UNIT).read_text()
    assert "usermod -aG spi" not in output and "usermod -aG gpio pi" in output


def test_a_second_run_changes_nothing(shell, pi_root):
    install(shell, pi_root)
    first = snapshot(pi_root)
    output = install(shell, pi_root)
    assert snapshot(pi_root) == first
    assert "wrote" not in output and "linked" not in output and "backed up" not in output
    assert output.rstrip().endswith("nothing to change: this system is already set up")


def test_what_it_changes_it_backs_up(shell, pi_root):
    install(shell, pi_root)
    assert (pi_root / "boot/firmware/config.txt.tabletop-backup").read_text() == IMAGE_CONFIG
    first_unit = (pi_root / UNIT).read_text()
    first_config = (pi_root / "boot/firmware/config.txt").read_text()
    out = install(shell, pi_root, "--display", "td2-landscape")
    assert "backed up  /boot/firmware/config.txt to /boot/firmware/config.txt.tabletop-backup" in out
    assert (pi_root / "boot/firmware/config.txt.tabletop-backup").read_text() == first_config
    assert (pi_root / (UNIT + ".tabletop-backup")).read_text() == first_unit
    # Switching back: the block is replaced, not stacked.
    install(shell, pi_root)
    assert (pi_root / "boot/firmware/config.txt").read_text() == first_config


def test_a_dry_run_writes_nothing_and_shows_everything(shell, pi_root):
    before = snapshot(pi_root)
    output = install(shell, pi_root, "--dry-run")
    assert snapshot(pi_root) == before
    for path in ("/boot/firmware/config.txt", *(f"/etc/systemd/system/{unit}" for unit in UNITS)):
        assert f"would write {path}:" in output
    assert "    | dtoverlay=spi1-3cs" in output
    assert "would run  apt-get install -y --no-install-recommends python3-venv" in output
    assert f"would run  runuser -u pi -- env -C {APP_DIR} python3 -m companion.bootstrap" in output
    assert "would run  systemctl daemon-reload" in output
    assert output.rstrip().endswith("dry run: nothing was changed")


def test_it_installs_the_packages_the_bootstrap_lists(shell, pi_root):
    """One list: what `python3 -m companion run` would install is what the kiosk gets."""
    sys.path.insert(0, str(REPO))
    from companion import bootstrap
    output = install(shell, pi_root, "--dry-run")
    line = next(ln for ln in output.splitlines() if "apt-get install" in ln)
    assert set(line.split("--no-install-recommends ")[1].split()) >= set(bootstrap.RUNTIME_PACKAGES)
    assert {"libgbm1", "libdrm2", "libegl1", "libgl1-mesa-dri"} <= set(line.split())


def test_an_older_image_keeps_config_txt_in_boot(shell, tmp_path):
    root = tmp_path / "root"
    (root / "boot").mkdir(parents=True)
    (root / "boot" / "config.txt").write_text("dtparam=audio=on\n")
    install(shell, root)
    assert "dtoverlay=spi1-3cs" in active_lines((root / "boot" / "config.txt").read_text())
    assert not (root / "boot" / "firmware").exists()


@pytest.mark.parametrize("layout", ["empty boot/firmware", "no boot at all"])
def test_no_boot_partition_is_refused_and_nothing_is_written(shell, tmp_path, layout):
    """An unmounted boot partition leaves an empty mount point: writing a fresh config.txt
    there would put it on the root file system, where the firmware never reads it."""
    root = tmp_path / "root"
    root.mkdir()
    if layout == "empty boot/firmware":
        (root / "boot" / "firmware").mkdir(parents=True)
    done = run(shell, root, check=False)
    assert done.returncode == 2
    assert "the boot partition is not mounted at" in done.stderr and "Traceback" not in done.stderr
    assert not [p for p in root.rglob("*") if p.is_file()]


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root, as the installer runs")
def test_as_root_it_never_writes_into_a_directory_the_user_controls(shell, pi_root):
    (pi_root / "etc/systemd/system").mkdir(parents=True)
    os.chown(pi_root / "etc/systemd/system", 1000, 1000)       # the app user's
    target = pi_root / "etc" / "shadow"
    target.write_text("root's\n")
    (pi_root / UNIT).symlink_to(target)                        # planted by that user
    done = run(shell, pi_root, check=False)
    assert done.returncode == 2
    assert "belongs to user id 1000, not root: refusing to write there as root" in done.stderr
    assert target.read_text() == "root's\n"
    os.chown(pi_root / "etc/systemd/system", 0, 0)
    os.chmod(pi_root / "etc/systemd/system", 0o777)            # anyone may write: refused too
    done = run(shell, pi_root, check=False)
    assert done.returncode == 2 and "may be written by others" in done.stderr


def test_a_symlink_at_a_file_it_writes_is_replaced_not_followed(shell, pi_root):
    (pi_root / "etc/systemd/system").mkdir(parents=True)
    target = pi_root / "etc" / "shadow"
    target.write_text("root's\n")
    (pi_root / UNIT).symlink_to(target)
    (pi_root / (UNIT + ".tabletop-backup")).symlink_to(target)
    install(shell, pi_root)
    assert target.read_text() == "root's\n"
    assert not (pi_root / UNIT).is_symlink() and "ExecStart=" in (pi_root / UNIT).read_text()


def test_a_wrong_option_is_refused_in_words(shell, tmp_path):
    sh = shutil.which(shell)
    for args, words in ((["--colour", "blue"], "install.sh: unknown option --colour"),
                        (["--root", str(tmp_path / "nowhere")], "is not a directory"),
                        (["--display", "hdmi"], "--display hdmi: choose auto, 7inch, td2 or td2-landscape"),
                        (["--rotate", "45"], "--rotate 45: choose 0, 90, 180 or 270"),
                        (["--user", "root"], "the companion runs as an ordinary user"),
                        (["--app-dir", "opt/x"], "give an absolute path"),
                        (["--dsi0"], "--dsi0 needs the display named")):
        done = subprocess.run([sh, str(SCRIPT), "--dry-run", *args], capture_output=True, text=True)
        assert done.returncode == 2, args
        assert words in done.stderr, (args, done.stderr)


def test_the_scripts_are_shellcheck_clean():
    """shellcheck comes with the test command's Debian packages (companion/bootstrap.py), so CI has it."""
    found = shutil.which("shellcheck", path=os.pathsep.join([str(Path(sys.executable).parent),
                                                              os.environ.get("PATH", "")]))
    assert found, "shellcheck is missing: apt-get install shellcheck (python3 -m companion test does)"
    scripts = sorted(str(p) for p in PI.glob("*.sh"))
    done = subprocess.run([found, "--shell=sh", *scripts], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout
    assert len(scripts) >= 3


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_accepts_the_units(tmp_path):
    """`systemd-analyze verify` on the units as installed: no unknown key, bad value or missing program."""
    app = tmp_path / "app"
    (app / ".venv" / "bin").mkdir(parents=True)
    (app / ".venv" / "bin" / "companion").write_text("#!/bin/sh\n")
    (app / ".venv" / "bin" / "companion").chmod(0o755)
    root = make_root(tmp_path / "root")
    subprocess.run(["sh", str(SCRIPT), "--root", str(root), "--user", "pi", "--app-dir", str(app)],
                   check=True, capture_output=True)
    units = [str(root / "etc/systemd/system" / unit) for unit in UNITS]
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", *units], capture_output=True, text=True,
                          env=dict(os.environ, SYSTEMD_LOG_LEVEL="notice"))
    complaints = [line for line in (done.stdout + done.stderr).splitlines() if "tabletop-companion" in line]
    assert complaints == [] and done.returncode == 0


ODD_HOME = '/home/a b&c|d"e%f\\g'          # a space, sed's & and |, a quote, a specifier, a backslash


def installed_units(tmp_path, home: str = "/home/pi") -> Path:
    """The units as install.sh writes them for a user whose home is ``home``, with a checkout to start."""
    app = tmp_path / "app"
    (app / ".venv" / "bin").mkdir(parents=True)
    (app / ".venv" / "bin" / "companion").write_text("#!/bin/sh\n")
    (app / ".venv" / "bin" / "companion").chmod(0o755)
    root = make_root(tmp_path / "root")
    (root / "etc" / "passwd").write_text(f"root:x:0:0:root:/root:/bin/bash\npi:x:1000:1000:,,,:{home}:/bin/bash\n")
    subprocess.run(["sh", str(SCRIPT), "--root", str(root), "--user", "pi", "--app-dir", str(app)],
                   check=True, capture_output=True)
    return root / "etc/systemd/system"


def systemd_unquote(word: str) -> str:
    """One double-quoted word of a unit file as systemd reads it (systemd.syntax(7), "Quoting"; the
    specifier %% is %): quotes removed, a backslash takes the next character literally."""
    assert word.startswith('"') and word.endswith('"'), word
    out, chars = [], iter(word[1:-1])
    for ch in chars:
        out.append(next(chars) if ch == "\\" else ch)
    return "".join(out).replace("%%", "%")


def test_a_home_with_spaces_quotes_and_specifiers_is_one_quoted_path(shell, tmp_path):
    """Issue 24: sed put `@DATA_DIR@` back where the home had a `&`, and the unquoted path split at
    its space, leaving the data directory read-only and /home/a writable."""
    units = installed_units(tmp_path, ODD_HOME)
    unit = (units / "tabletop-companion.service").read_text()
    paths = re.findall(r"^ReadWritePaths=(.*)$", unit, re.M)
    assert len(paths) == 1 and "@" not in paths[0]
    assert systemd_unquote(paths[0]) == f"-{ODD_HOME}/.local/share/tabletop-companion"
    if shutil.which("systemd-analyze"):
        done = subprocess.run(["systemd-analyze", "verify", "--man=no", str(units / "tabletop-companion.service")],
                              capture_output=True, text=True, env=dict(os.environ, SYSTEMD_LOG_LEVEL="notice"))
        assert "not absolute" not in done.stderr and done.returncode == 0, done.stderr


def test_a_home_with_a_control_character_is_refused_in_words(shell, tmp_path):
    root = make_root(tmp_path / "root")
    (root / "etc" / "passwd").write_text("pi:x:1000:1000:,,,:/home/a\tb:/bin/bash\n")
    done = run(shell, root, check=False)
    assert done.returncode == 2 and "holds a control character" in done.stderr
    assert not (root / UNIT).exists()


def _offline_security_supported() -> bool:
    if shutil.which("systemd-analyze") is None:
        return False
    done = subprocess.run(["systemd-analyze", "security", "--help"], capture_output=True, text=True)
    return "--offline" in done.stdout


@pytest.mark.skipif(not _offline_security_supported(),
                    reason="systemd-analyze with `security --offline` (systemd 250 or later) is not installed")
def test_the_installed_unit_scores_at_most_3_in_systemd_analyze_security(tmp_path):
    """The exposure systemd itself computes for the installed unit (0 safest, 10 unsandboxed): at most 3.0,
    with the home that once broke the sandbox."""
    units = installed_units(tmp_path, ODD_HOME)
    done = subprocess.run(["systemd-analyze", "security", "--offline=true", "--no-pager",
                           str(units / "tabletop-companion.service")], capture_output=True, text=True)
    score = re.search(r"Overall exposure level for tabletop-companion\.service: (\d+\.\d+)", done.stdout)
    assert score is not None, done.stdout + done.stderr
    assert float(score.group(1)) <= 3.0, done.stdout


def test_the_failure_screen_shows_the_apps_sentence_not_its_log(tmp_path):
    """show-failure.sh puts the app's last words on the console; journalctl here is a stand-in
    that prints what the journal holds after `companion run` gave up on the screen."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "journalctl").write_text(
        "#!/bin/sh\ncat <<'EOF'\n[INFO   ] [Kivy        ] v2.3.1\n[INFO   ] [Window      ] Provider: sdl2\n"
        "companion run: cannot open the screen: this user may not use the graphics device /dev/dri/card1.\n"
        "EOF\n")
    (bin_dir / "journalctl").chmod(0o755)
    tty = tmp_path / "tty1"
    subprocess.run(["sh", str(PI / "show-failure.sh"), "tabletop-companion.service", str(tty)], check=True,
                   env=dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}"))
    screen = tty.read_text()
    assert "The tabletop companion has stopped." in screen
    assert "cannot open the screen: this user may not use the graphics device /dev/dri/card1." in screen
    assert "[INFO" not in screen
    assert "sudo systemctl restart tabletop-companion.service" in screen


DOC_RUNS = {
    # name in docs/deploy.md: (model, arguments)
    "pi4-7inch": ("pi4", ["--display", "7inch"]),
    "pi5-td2-landscape": ("pi5", ["--display", "td2-landscape"]),
}


@pytest.mark.parametrize("name", DOC_RUNS)
def test_the_documented_dry_runs_are_what_the_script_prints(tmp_path, name):
    """docs/deploy.md shows the dry run on a fresh Raspberry Pi OS for two tables; it must stay true."""
    model, args = DOC_RUNS[name]
    output = install("dash", make_root(tmp_path / "root", model=model), "--dry-run", *args)
    doc = (REPO / "docs" / "deploy.md").read_text()
    shown = re.search(rf"<!-- dry-run {name} begin -->\n```text\n(.*?)```\n<!-- dry-run {name} end -->", doc, re.S)
    assert shown is not None, f"docs/deploy.md lost its {name} dry-run block"
    assert shown.group(1) == output
