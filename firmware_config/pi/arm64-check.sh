#!/bin/sh
# The README's commands on a 64-bit Raspberry Pi OS (bookworm) user space, without a Pi.
#
#   sudo firmware_config/pi/arm64-check.sh [WORKDIR]        # default WORKDIR: /var/tmp/companion-arm64
#
# It builds a Debian bookworm arm64 root file system with debootstrap (Raspberry
# Pi OS Lite 64-bit is bookworm arm64 plus the Raspberry Pi archive), runs it
# under qemu-user through binfmt_misc, copies this checkout in as the user
# `pi`, and there runs, exactly as the README says:
#
#   python3 -m companion games        the bootstrap: Debian packages, .venv, the project (lgpio included)
#   python3 -m companion test ...     a subset of the suite (all of it takes hours under qemu)
#   python3 -m companion run --sim    the app under Xvfb for 60 s, with a screenshot of its first screen
#   python3 -m companion run          with no X display and no /dev/dri: one sentence, exit 2
#
# then prints what passed and how long each step took, and leaves the
# screenshot in WORKDIR/arm64-run.png.  It takes about an hour on two cores:
# too slow for CI, rerun it by hand after a change to the bootstrap, the
# dependencies or the start-up code.  docs/deploy.md keeps its last result.
#
# Needs root (debootstrap, chroot), the packages debootstrap and
# qemu-user-static, and the Debian archive and PyPI over the network.  A
# second run reuses WORKDIR's root file system and re-copies the checkout.
set -eu

WORKDIR=${1:-/var/tmp/companion-arm64}
# It runs for an hour: run a copy, so that editing the checkout meanwhile cannot change it mid-way.
if [ -z "${ARM64_CHECK_APP_DIR:-}" ]; then
    HERE=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
    ARM64_CHECK_APP_DIR=$(CDPATH='' cd -- "$HERE/../.." && pwd)
    [ -f "$ARM64_CHECK_APP_DIR/pyproject.toml" ] || { echo "arm64-check.sh: run it from a checkout" >&2; exit 2; }
    mkdir -p "$WORKDIR"
    cp "$0" "$WORKDIR/arm64-check.running.sh"
    export ARM64_CHECK_APP_DIR
    exec sh "$WORKDIR/arm64-check.running.sh" "$WORKDIR"
fi
APP_DIR=$ARM64_CHECK_APP_DIR
TARGET=$WORKDIR/rootfs
MIRROR=${MIRROR:-http://deb.debian.org/debian}
TESTS=${TESTS:-tests/core tests/outputs tests/ui/test_startup.py}

if [ "$(id -u)" != 0 ]; then
    echo "arm64-check.sh: needs root (debootstrap and chroot): run it with sudo" >&2
    exit 2
fi
for tool in debootstrap chroot; do
    command -v "$tool" >/dev/null || { echo "arm64-check.sh: $tool is missing: apt-get install debootstrap" >&2; exit 2; }
done
[ -e /usr/libexec/qemu-binfmt/aarch64-binfmt-P ] || [ -e /usr/bin/qemu-aarch64-static ] ||
    { echo "arm64-check.sh: qemu-user-static is missing: apt-get install qemu-user-static" >&2; exit 2; }

# Make the kernel run arm64 programs through qemu (what systemd-binfmt does at boot).
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
# With the C flag: set-user-id programs (sudo, which the bootstrap uses for apt) keep working.
if ! grep -q '^flags: .*C' /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null; then
    [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || echo -1 > /proc/sys/fs/binfmt_misc/qemu-aarch64
    sed 's/:[A-Z]*$/:OCPF/' /usr/lib/binfmt.d/qemu-aarch64.conf > /proc/sys/fs/binfmt_misc/register
fi

mkdir -p "$WORKDIR"
LOG=$WORKDIR/arm64-check.log
: > "$LOG"
RESULTS=$WORKDIR/results.txt
: > "$RESULTS"
START=$(date +%s)

say() { printf '%s\n' "$*" | tee -a "$LOG"; }
# step NAME CMD...: run, log, and note "NAME: passed|FAILED (exit N) in S s".
step() {
    name=$1; shift
    say "== $name"
    t0=$(date +%s)
    if "$@" >> "$LOG" 2>&1; then status=passed; else status="FAILED (exit $?)"; fi
    line="$name: $status in $(( $(date +%s) - t0 )) s"
    say "$line"
    printf '%s\n' "$line" >> "$RESULTS"
}

MOUNTED=""
cleanup() {
    for m in $MOUNTED; do umount -l "$m" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM
bind() {    # bind HOSTPATH: the same path inside the root file system
    mkdir -p "$TARGET$1"
    mount --bind "$1" "$TARGET$1"
    MOUNTED="$TARGET$1 $MOUNTED"
}

# ---- 1. the root file system -------------------------------------------------
if [ ! -x "$TARGET/usr/bin/python3" ]; then
    rm -rf "$TARGET"
    step "debootstrap bookworm arm64" debootstrap --arch=arm64 --variant=minbase \
        --include=python3,sudo,ca-certificates,procps bookworm "$TARGET" "$MIRROR"
fi
[ -x "$TARGET/usr/bin/python3" ] || { say "the root file system could not be built: see $LOG"; exit 1; }
say "user space: $(chroot "$TARGET" uname -m), $(chroot "$TARGET" python3 --version)"

mount -t proc proc "$TARGET/proc"; MOUNTED="$TARGET/proc $MOUNTED"
bind /sys
bind /dev
bind /dev/pts
# The host's resolver and CA bundle: the archive and PyPI as the host reaches them.
cp /etc/resolv.conf "$TARGET/etc/resolv.conf"
cp /etc/ssl/certs/ca-certificates.crt "$TARGET/etc/ssl/certs/host-ca.crt"
printf 'deb %s bookworm main\ndeb %s bookworm-updates main\n' "$MIRROR" "$MIRROR" > "$TARGET/etc/apt/sources.list"
# A Pi image's first user: in sudo without a password, as Raspberry Pi Imager sets it up.
chroot "$TARGET" sh -c 'id pi >/dev/null 2>&1 || useradd -m -s /bin/bash -G sudo pi'
printf 'pi ALL=(ALL) NOPASSWD: ALL\n' > "$TARGET/etc/sudoers.d/010_pi-nopasswd"
chroot "$TARGET" apt-get update -q >> "$LOG" 2>&1 || true

# ---- 2. this checkout, as a fresh clone would be ----------------------------
# Everything but .venv is replaced; the bootstrap refreshes a kept .venv as it would
# after a `git pull` (FRESH=1 starts from no .venv, as a new clone does).
mkdir -p "$TARGET/home/pi/companion"
find "$TARGET/home/pi/companion" -mindepth 1 -maxdepth 1 ! -name .venv -exec rm -rf {} +
[ "${FRESH:-0}" = 0 ] || rm -rf "$TARGET/home/pi/companion/.venv"
# The tracked files as they are now (uncommitted edits included): what a clone would hold.
git -C "$APP_DIR" ls-files -z | (cd "$APP_DIR" && xargs -0 tar cf -) | tar xf - -C "$TARGET/home/pi/companion"
say "checkout: $(git -C "$APP_DIR" rev-parse --short HEAD)$(git -C "$APP_DIR" diff --quiet || echo ' plus uncommitted edits')"
chroot "$TARGET" chown -R pi: /home/pi/companion
# As a booted system has it: X's socket directory is root's, open to all.
mkdir -p "$TARGET/tmp/.X11-unix" && chmod 1777 "$TARGET/tmp/.X11-unix"

as_pi() {   # as_pi CMD: a login shell of pi's in the checkout
    chroot "$TARGET" runuser -l pi -c "export PIP_CERT=/etc/ssl/certs/host-ca.crt REQUESTS_CA_BUNDLE=/etc/ssl/certs/host-ca.crt; cd ~/companion || exit 1; $1"
}

# ---- 3. the README's commands ---------------------------------------------------
step "python3 -m companion games (first run: bootstrap)" as_pi "python3 -m companion games"
step "lgpio in the venv" as_pi ".venv/bin/python -c 'import lgpio, gpiozero.pins.lgpio; print(lgpio.__file__)'"
step "python3 -m companion doctor --emulate" as_pi \
    "python3 -m companion doctor --emulate --profile firmware_config/tables/table-2pad.toml --seconds 0.5"
# shellcheck disable=SC2086  # TESTS is a list of paths
step "python3 -m companion test (${TESTS})" as_pi "python3 -m companion test -p no:cacheprovider $TESTS"
# The app itself, as `companion run` starts it, on a virtual display; a hook on its
# first frame saves a screenshot three seconds in and then closes the window.
cat > "$TARGET/home/pi/companion/.arm64-shot.py" <<'EOF'
import sys
import ui.app
from kivy.clock import Clock

def first(app):
    def shoot(dt):
        from kivy.core.window import Window
        Window.screenshot("/home/pi/arm64-run.png")
        app.stop()
    Clock.schedule_once(shoot, 3)

ui.app.on_first_frame.append(first)
from companion.cli import main
sys.exit(main(["--data-dir", "/home/pi/arm64-data", "run", "--sim", "--windowed", "--size", "800x480"]))
EOF
chroot "$TARGET" chown pi: /home/pi/companion/.arm64-shot.py
rm -f "$TARGET"/home/pi/arm64-run*.png
step "python3 -m companion run --sim under Xvfb (screenshot)" as_pi \
    "Xvfb :42 -screen 0 1024x600x24 -nolisten tcp & xvfb=\$!; sleep 3;
     DISPLAY=:42 timeout 600 .venv/bin/python .arm64-shot.py; status=\$?; kill \$xvfb; exit \$status"
for shot in "$TARGET"/home/pi/arm64-run*.png; do    # Kivy numbers it: arm64-run0001.png
    [ -f "$shot" ] && cp "$shot" "$WORKDIR/arm64-run.png" && say "screenshot: $WORKDIR/arm64-run.png"
done
# No X, no Wayland, no /dev/dri (a chroot has no GPU): the app must say so and exit 2, not hang or draw nowhere.
step "python3 -m companion run without any display: one sentence, exit 2" as_pi \
    "env -u DISPLAY -u WAYLAND_DISPLAY timeout 300 python3 -m companion run --sim; [ \$? = 2 ]"

say ""
say "arm64 check finished in $(( ($(date +%s) - START) / 60 )) min:"
tee -a "$LOG" < "$RESULTS"
! grep -q FAILED "$RESULTS"
