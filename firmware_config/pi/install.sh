#!/bin/sh
# Set up a Raspberry Pi to boot straight into the tabletop companion.
#
#   sudo firmware_config/pi/install.sh                    # this Pi, display found by the firmware
#   sudo firmware_config/pi/install.sh --display td2-landscape
#   firmware_config/pi/install.sh --dry-run               # show what it would do, change nothing
#   firmware_config/pi/install.sh --root /mnt/sd          # an SD card's root file system (boot partition
#                                                         # mounted at /mnt/sd/boot/firmware)
#
# It writes, and on a second run leaves exactly as they are:
#   1. config.txt: the lines of firmware_config/pi/config.txt (SPI0, SPI1 with three
#      chip selects, the KMS graphics driver) and the display's, in one marked
#      block; a line the file already has is not added twice;
#   2. three systemd units: the app, full screen and sandboxed
#      (tabletop-companion.service, enabled for boot), the venv refresh that runs
#      before it, and the screen that says why it stopped when it cannot start;
# and on the running system (no --root) it also installs the Debian packages the
# kiosk needs, builds the checkout's .venv as the app's user (the project's own
# bootstrap), adds the user to the device groups, and reloads systemd.
#
# As root it only writes into root's own directories: a directory on the way
# that another user owns or may write to is refused, files are replaced by a
# rename (a planted symlink is replaced, never followed), and whatever runs in
# the user's checkout or home runs as that user.  A changed file keeps its
# previous version as FILE.tabletop-backup.
set -eu

HERE=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
SOURCE_DIR=$(CDPATH='' cd -- "$HERE/../.." && pwd)
APP_DIR=$SOURCE_DIR
ROOT=""
DRY_RUN=0
DISPLAY_KIND=auto
ROTATION=""
DSI0=0
if [ -n "${SUDO_USER:-}" ]; then APP_USER=$SUDO_USER
elif [ "$(id -un)" != root ]; then APP_USER=$(id -un)
else APP_USER=pi; fi
UNIT=tabletop-companion.service
UNITS="tabletop-companion.service tabletop-companion-venv.service tabletop-companion-failed.service"
# Not GROUPS: bash keeps the caller's group ids in a variable of that name.
KIOSK_GROUPS="gpio spi input video render dialout"
BEGIN="# >>> tabletop-companion: written by firmware_config/pi/install.sh; edit that, not this >>>"
END="# <<< tabletop-companion <<<"

usage() {
    cat <<EOF
usage: $0 [--dry-run] [--root DIR] [--user NAME] [--app-dir DIR]
          [--display auto|7inch|td2|td2-landscape] [--rotate 0|90|180|270] [--dsi0]

  --dry-run      print every file it would write and every command it would run; change nothing
  --root DIR     install into DIR as if it were / (an SD card's root with its boot partition
                 mounted at DIR/boot/firmware, or a throwaway test dir)
  --user NAME    the account the companion runs as (default: whoever ran sudo, else you, else pi; now: $APP_USER)
  --app-dir DIR  the checkout with .venv/bin/companion (default: this checkout, $APP_DIR)
  --display      auto (default): the firmware finds the official displays by itself;
                 7inch: the original 7-inch display (800x480), even when auto-detect misses it;
                 td2: Touch Display 2, 7-inch, portrait (720x1280);
                 td2-landscape: Touch Display 2 turned on its side (the app rotates by 90)
  --rotate N     turn the app (picture and touch) by N degrees, e.g. 180 for a display mounted upside down
  --dsi0         the display is on a Pi 5's DISP0 connector (DISP1 is the default)
EOF
}

fail() { echo "install.sh: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
    case $1 in
        --dry-run) DRY_RUN=1 ;;
        --root) [ $# -ge 2 ] || fail "--root needs a directory"
                ROOT=${2%/}; shift ;;
        --user) [ $# -ge 2 ] || fail "--user needs a name"
                APP_USER=$2; shift ;;
        --app-dir) [ $# -ge 2 ] || fail "--app-dir needs a directory"
                APP_DIR=${2%/}; shift ;;
        --display) [ $# -ge 2 ] || fail "--display needs one of auto, 7inch, td2, td2-landscape"
                DISPLAY_KIND=$2; shift ;;
        --rotate) [ $# -ge 2 ] || fail "--rotate needs 0, 90, 180 or 270"
                ROTATION=$2; shift ;;
        --dsi0) DSI0=1 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

case $APP_USER in
    ''|root|*[!A-Za-z0-9._-]*) fail "--user $APP_USER: the companion runs as an ordinary user (letters, digits, . _ -)" ;;
esac
case $APP_DIR in
    /*) ;;
    *) fail "--app-dir $APP_DIR: give an absolute path" ;;
esac
case $APP_DIR in
    *[!A-Za-z0-9._/-]*) fail "--app-dir $APP_DIR: the path may hold only letters, digits and . _ / -" ;;
esac
case $DISPLAY_KIND in
    auto|7inch) OVERLAY=vc4-kms-dsi-7inch; DEFAULT_ROTATION=0 ;;
    td2) OVERLAY=vc4-kms-dsi-ili9881-7inch; DEFAULT_ROTATION=0 ;;
    td2-landscape) OVERLAY=vc4-kms-dsi-ili9881-7inch; DEFAULT_ROTATION=90 ;;
    *) fail "--display $DISPLAY_KIND: choose auto, 7inch, td2 or td2-landscape" ;;
esac
ROTATION=${ROTATION:-$DEFAULT_ROTATION}
case $ROTATION in
    0|90|180|270) ;;
    *) fail "--rotate $ROTATION: choose 0, 90, 180 or 270" ;;
esac
if [ -n "$ROOT" ] && [ ! -d "$ROOT" ]; then
    fail "--root $ROOT is not a directory"
fi
if [ -z "$ROOT" ] && [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: changing this Pi needs root: run it with sudo (or try --dry-run first)" >&2
    exit 1
fi

# The model, as the firmware tells it (a test root may carry one too).
MODEL=""
if [ -r "$ROOT/proc/device-tree/model" ]; then
    MODEL=$(tr -d '\000' < "$ROOT/proc/device-tree/model")
fi
if [ "$DSI0" = 1 ]; then
    [ "$DISPLAY_KIND" != auto ] || fail "--dsi0 needs the display named: --display 7inch, td2 or td2-landscape"
    case $MODEL in
        ''|*"Raspberry Pi 5"*|*"Compute Module"*) ;;
        *) fail "--dsi0: a $MODEL has one display connector; DISP0 is a Raspberry Pi 5's" ;;
    esac
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
CHANGED=0

say() { printf '%s\n' "$*"; }

# safe_dir DIR: refuse DIR (a path on the installed system) when root would write into
# a directory another user controls: DIR and each directory above it, down from
# $ROOT, must be root's and writable by root only.  Not root: nothing to guard.
safe_dir() {
    [ "$(id -u)" = 0 ] || return 0
    path=$ROOT
    rest=${1#/}
    while :; do
        owned_by_root "${path:-/}"
        [ -n "$rest" ] || break
        path=$path/${rest%%/*}
        case $rest in */*) rest=${rest#*/} ;; *) rest="" ;; esac
    done
}
owned_by_root() {   # owned_by_root PATH: fail unless PATH (if there) is root's and only root may write it
    [ -e "$1" ] || [ -L "$1" ] || return 0
    # shellcheck disable=SC2046  # ls -ldn's fields: mode, links, owner; of a link itself, in POSIX sh
    set -- "$1" $(ls -ldn -- "$1")
    [ "$4" = 0 ] || fail "$1 belongs to user id $4, not root: refusing to write there as root"
    case $2 in
        l*) ;;                                        # a link's own mode means nothing; its owner does
        d????????t*) ;;                               # sticky (/tmp): others cannot replace what is ours
        ?????w*|????????w*) fail "$1 may be written by others ($2): refusing to write there as root" ;;
    esac
}

# put_file PATH SOURCE MODE: make $ROOT/PATH hold exactly SOURCE's bytes (MODE "-": leave the mode;
# the boot partition is FAT, which has none).  The previous version is kept as PATH.tabletop-backup.
put_file() {
    dest=$ROOT$1
    if [ -f "$dest" ] && [ ! -L "$dest" ] && cmp -s "$2" "$dest"; then
        say "unchanged  $1"
        return 0
    fi
    CHANGED=1
    if [ "$DRY_RUN" = 1 ]; then
        [ ! -f "$dest" ] || say "would back up $1 to $1.tabletop-backup"
        say "would write $1:"
        sed 's/^/    | /' "$2"
        return 0
    fi
    dir=$(dirname -- "$1")
    safe_dir "$dir"
    mkdir -p "$ROOT$dir"
    safe_dir "$dir"
    if [ -f "$dest" ]; then
        tmp=$(mktemp "$ROOT$dir/.tabletop.XXXXXX")
        cat "$dest" > "$tmp"
        mv -f "$tmp" "$dest.tabletop-backup"
        say "backed up  $1 to $1.tabletop-backup"
    fi
    tmp=$(mktemp "$ROOT$dir/.tabletop.XXXXXX")   # a new file of our own: nothing planted to follow
    cat "$2" > "$tmp"
    if [ "$3" = - ]; then chmod 644 "$tmp" 2>/dev/null || true; else chmod "$3" "$tmp"; fi
    mv -f "$tmp" "$dest"                         # rename: replaces a link at $dest, never writes through it
    say "wrote      $1"
}

# put_link PATH TARGET: make $ROOT/PATH a symlink to TARGET (a path on the installed system).
put_link() {
    dest=$ROOT$1
    if [ -L "$dest" ] && [ "$(readlink -- "$dest")" = "$2" ]; then
        say "unchanged  $1 -> $2"
        return 0
    fi
    CHANGED=1
    if [ "$DRY_RUN" = 1 ]; then
        say "would link $1 -> $2"
        return 0
    fi
    dir=$(dirname -- "$1")
    safe_dir "$dir"
    mkdir -p "$ROOT$dir"
    safe_dir "$dir"
    ln -sfn "$2" "$dest"
    say "linked     $1 -> $2"
}

# run CMD...: on the running system only; otherwise say what would be (or is still to be) run.
run() {
    if [ "$DRY_RUN" = 1 ]; then
        say "would run  $*"
    elif [ -n "$ROOT" ]; then
        say "on the Pi, run: $*"
    else
        say "running    $*"
        "$@"
    fi
}

trim() { sed 's/^[[:space:]]*//; s/[[:space:]]*$//'; }

say "model:     ${MODEL:-unknown (no $ROOT/proc/device-tree/model)}"
say "display:   $DISPLAY_KIND, the app turned by $ROTATION degrees"

# ---- 1. config.txt -----------------------------------------------------------
# It must be the boot partition's: writing a fresh config.txt onto the root file
# system (the partition not mounted) would leave SPI off without a word.
if [ -d "$ROOT/boot/firmware" ] || [ ! -f "$ROOT/boot/config.txt" ]; then
    CONFIG_TXT=/boot/firmware/config.txt          # Raspberry Pi OS Bookworm and later
else
    CONFIG_TXT=/boot/config.txt                   # older images
fi
BOOT=$(dirname -- "$CONFIG_TXT")
if [ ! -f "$ROOT$CONFIG_TXT" ]; then
    fail "there is no $ROOT$CONFIG_TXT: the boot partition is not mounted at $ROOT$BOOT (mount it there, then run this again)"
fi
if [ -z "$ROOT" ] && command -v mountpoint >/dev/null && ! mountpoint -q "$BOOT"; then
    fail "$BOOT is not a mount point: its config.txt is not the one the firmware reads (mount the boot partition there)"
fi
awk -v b="$BEGIN" -v e="$END" '$0 == b { skip = 1; next } $0 == e { skip = 0; next } !skip' \
    "$ROOT$CONFIG_TXT" > "$WORK/config.base"
trim < "$WORK/config.base" > "$WORK/config.base.trimmed"
{
    cat "$HERE/config.txt"
    if [ "$DISPLAY_KIND" = auto ]; then
        say "display_auto_detect=1"
    else
        # Named by hand: the firmware's guess is switched off so the panel is not set up twice.
        say "display_auto_detect=0"
        if [ "$DSI0" = 1 ]; then say "dtoverlay=$OVERLAY,dsi0"; else say "dtoverlay=$OVERLAY"; fi
    fi
} > "$WORK/fragment"
{
    cat "$WORK/config.base"
    say "$BEGIN"
    while IFS= read -r line || [ -n "$line" ]; do
        setting=$(printf '%s\n' "$line" | trim)
        case $setting in
            ''|'#'*) continue ;;                      # the fragment's own comments stay in the repository
            '['*) say "$setting" ;;                   # section filters always apply to what follows
            *)  if grep -qxF -- "$setting" "$WORK/config.base.trimmed"; then
                    say "# $setting  (already set above)"
                else
                    say "$setting"
                fi ;;
        esac
    done < "$WORK/fragment"
    say "$END"
} > "$WORK/config.txt"
put_file "$CONFIG_TXT" "$WORK/config.txt" -

# ---- 2. the kiosk's units --------------------------------------------------------
# systemd refuses to start a unit that names a group the system lacks: keep the ones it has.
if [ -f "$ROOT/etc/group" ]; then
    present=""
    for group in $KIOSK_GROUPS; do
        if grep -q "^$group:" "$ROOT/etc/group"; then present="$present $group"; fi
    done
    KIOSK_GROUPS=${present# }
fi
# The user's data directory (games, tags): the one place in the home the app writes.
HOME_DIR=""
if [ -f "$ROOT/etc/passwd" ]; then
    HOME_DIR=$(awk -F: -v u="$APP_USER" '$1 == u { print $6 }' "$ROOT/etc/passwd")
fi
HOME_DIR=${HOME_DIR:-/home/$APP_USER}
case $HOME_DIR in
    /*) ;;
    *) fail "the home of $APP_USER, $HOME_DIR, is not an absolute path: fix it in /etc/passwd" ;;
esac
case $HOME_DIR in
    *[[:cntrl:]]*) fail "the home of $APP_USER holds a control character: rename it (usermod -d)" ;;
esac
DATA_DIR=$HOME_DIR/.local/share/tabletop-companion
# A value inside a quoted unit setting: systemd reads \ and " as escapes and % as a
# specifier (systemd.syntax(7), "Quoting"; systemd.unit(5), "Specifiers").
unit_escape() { printf '%s\n' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/%/%%/g'; }
# A value as sed's replacement text: \, & and the | delimiter taken literally.
sed_escape() { printf '%s\n' "$1" | sed -e 's/[\\&|]/\\&/g'; }
S_USER=$(sed_escape "$APP_USER")
S_APP_DIR=$(sed_escape "$(unit_escape "$APP_DIR")")
S_GROUPS=$(sed_escape "$KIOSK_GROUPS")
S_DATA_DIR=$(sed_escape "$(unit_escape "$DATA_DIR")")
for unit in $UNITS; do
    sed -e "s|@USER@|$S_USER|g" -e "s|@APP_DIR@|$S_APP_DIR|g" -e "s|@GROUPS@|$S_GROUPS|g" \
        -e "s|@DATA_DIR@|$S_DATA_DIR|g" -e "s|@ROTATION@|$ROTATION|g" "$HERE/$unit" > "$WORK/$unit"
    put_file "/etc/systemd/system/$unit" "$WORK/$unit" 0644
done
put_link "/etc/systemd/system/multi-user.target.wants/$UNIT" "/etc/systemd/system/$UNIT"

# ---- 3. the running system only ----------------------------------------------
# The Debian packages `companion run` needs (Mesa, EGL/GBM/DRM for KMSDRM, a
# compiler for the venv), as the project's bootstrap lists them.
# Code in a user's checkout runs as that user, not as root, where the user exists here.
if [ "$(id -u)" = 0 ] && [ -z "$ROOT" ] && id -u "$APP_USER" >/dev/null 2>&1; then
    PACKAGES=$(runuser -u "$APP_USER" -- python3 "$SOURCE_DIR/companion/bootstrap.py" --debian-packages)
else
    PACKAGES=$(python3 "$SOURCE_DIR/companion/bootstrap.py" --debian-packages)
fi
# shellcheck disable=SC2086  # a list of package names
run apt-get install -y --no-install-recommends $PACKAGES
for group in $KIOSK_GROUPS; do
    run usermod -aG "$group" "$APP_USER"
done
# In the user's home and checkout, as the user: root never writes there.
run runuser -u "$APP_USER" -- mkdir -p -m 700 "$DATA_DIR"
run runuser -u "$APP_USER" -- env -C "$APP_DIR" python3 -m companion.bootstrap
run systemctl daemon-reload

if [ "$CHANGED" = 0 ]; then
    say "nothing to change: this system is already set up"
elif [ "$DRY_RUN" = 1 ]; then
    say "dry run: nothing was changed"
else
    say "done: reboot to apply config.txt (sudo reboot); the companion then starts full screen"
fi
