#!/bin/sh
# Set up a Raspberry Pi to boot straight into the tabletop companion.
#
#   sudo firmware_config/pi/install.sh                 # this Pi
#   firmware_config/pi/install.sh --dry-run            # show what it would write, change nothing
#   firmware_config/pi/install.sh --root /mnt/sd       # an SD card's root file system, or a test dir
#
# It writes, and on a second run leaves exactly as they are:
#   1. config.txt: the lines of firmware_config/pi/config.txt (SPI0, SPI1 with
#      three chip selects, the official 7-inch display) in one marked block;
#      a line the file already has is not added twice;
#   2. /etc/systemd/system/tabletop-companion.service, enabled for boot
#      (full screen, restarted whenever it stops);
#   3. /var/lib/tabletop-companion/kivy/config.ini: one input provider per
#      touch device, so a touch is never counted twice.
# On the running system (no --root) it also adds the user to the groups that
# may use the GPIO, SPI, input and display devices, and reloads systemd.
set -eu

HERE=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
APP_DIR=$(CDPATH='' cd -- "$HERE/../.." && pwd)
ROOT=""
DRY_RUN=0
if [ -n "${SUDO_USER:-}" ]; then APP_USER=$SUDO_USER
elif [ "$(id -un)" != root ]; then APP_USER=$(id -un)
else APP_USER=pi; fi
UNIT=tabletop-companion.service
KIVY_HOME=/var/lib/tabletop-companion/kivy
GROUPS="gpio spi input video render"
BEGIN="# >>> tabletop-companion: written by firmware_config/pi/install.sh; edit that, not this >>>"
END="# <<< tabletop-companion <<<"

usage() {
    cat <<EOF
usage: $0 [--dry-run] [--root DIR] [--user NAME] [--app-dir DIR]

  --dry-run      print every file it would write and every command it would run; change nothing
  --root DIR     install into DIR as if it were / (an SD card's root, a throwaway test dir)
  --user NAME    the account the companion runs as (default: whoever ran sudo, else you, else pi; now: $APP_USER)
  --app-dir DIR  the checkout with .venv/bin/companion (default: this checkout, $APP_DIR)
EOF
}

while [ $# -gt 0 ]; do
    case $1 in
        --dry-run) DRY_RUN=1 ;;
        --root) [ $# -ge 2 ] || { echo "install.sh: --root needs a directory" >&2; exit 2; }
                ROOT=${2%/}; shift ;;
        --user) [ $# -ge 2 ] || { echo "install.sh: --user needs a name" >&2; exit 2; }
                APP_USER=$2; shift ;;
        --app-dir) [ $# -ge 2 ] || { echo "install.sh: --app-dir needs a directory" >&2; exit 2; }
                APP_DIR=${2%/}; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

if [ -n "$ROOT" ] && [ ! -d "$ROOT" ]; then
    echo "install.sh: --root $ROOT is not a directory" >&2
    exit 2
fi
if [ -z "$ROOT" ] && [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: changing this Pi needs root: run it with sudo (or try --dry-run first)" >&2
    exit 1
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT INT TERM
CHANGED=0

say() { printf '%s\n' "$*"; }

# put_file PATH SOURCE MODE: make $ROOT/PATH hold exactly SOURCE's bytes (MODE "-": leave the mode;
# the boot partition is FAT, which has none).
put_file() {
    dest=$ROOT$1
    if [ -f "$dest" ] && cmp -s "$2" "$dest"; then
        say "unchanged  $1"
        return 0
    fi
    CHANGED=1
    if [ "$DRY_RUN" = 1 ]; then
        say "would write $1:"
        sed 's/^/    | /' "$2"
        return 0
    fi
    mkdir -p "$(dirname -- "$dest")"
    cp "$2" "$dest.tabletop-new"
    [ "$3" = - ] || chmod "$3" "$dest.tabletop-new"
    mv "$dest.tabletop-new" "$dest"
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
    mkdir -p "$(dirname -- "$dest")"
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

# ---- 1. config.txt -----------------------------------------------------------
if [ -d "$ROOT/boot/firmware" ] || [ ! -f "$ROOT/boot/config.txt" ]; then
    CONFIG_TXT=/boot/firmware/config.txt          # Raspberry Pi OS Bookworm and later
else
    CONFIG_TXT=/boot/config.txt                   # older images
fi
if [ -f "$ROOT$CONFIG_TXT" ]; then
    # The file without our block (from an earlier run): what the user and the image set.
    awk -v b="$BEGIN" -v e="$END" '$0 == b { skip = 1; next } $0 == e { skip = 0; next } !skip' \
        "$ROOT$CONFIG_TXT" > "$WORK/config.base"
else
    : > "$WORK/config.base"
fi
trim < "$WORK/config.base" > "$WORK/config.base.trimmed"
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
    done < "$HERE/config.txt"
    say "$END"
} > "$WORK/config.txt"
put_file "$CONFIG_TXT" "$WORK/config.txt" -

# ---- 2. the kiosk service ----------------------------------------------------
# systemd refuses to start a unit that names a group the system lacks: keep the ones it has.
if [ -f "$ROOT/etc/group" ]; then
    present=""
    for group in $GROUPS; do
        if grep -q "^$group:" "$ROOT/etc/group"; then present="$present $group"; fi
    done
    GROUPS=${present# }
fi
sed -e "s|@USER@|$APP_USER|g" -e "s|@APP_DIR@|$APP_DIR|g" -e "s|@KIVY_HOME@|$KIVY_HOME|g" \
    -e "s|@GROUPS@|$GROUPS|g" "$HERE/$UNIT" > "$WORK/$UNIT"
put_file "/etc/systemd/system/$UNIT" "$WORK/$UNIT" 0644
put_link "/etc/systemd/system/multi-user.target.wants/$UNIT" "/etc/systemd/system/$UNIT"

# ---- 3. Kivy's touch settings ------------------------------------------------
# Kivy adds its own defaults to this file when it first starts; that is the
# same setup as long as [input] holds exactly our providers and the cursor stays off.
settings() {   # the settings lines of an ini file's [input] section, and show_cursor, sorted
    awk '/^[[:space:]]*[;#]/ || /^[[:space:]]*$/ { next }
         /^\[/ { section = $0; next }
         section == "[input]" || /^show_cursor[[:space:]]*=/ { gsub(/[[:space:]]+/, " "); print section " " $0 }' "$1" | sort
}
if [ -f "$ROOT$KIVY_HOME/config.ini" ] &&
   [ "$(settings "$ROOT$KIVY_HOME/config.ini")" = "$(settings "$HERE/kivy-config.ini")" ]; then
    say "unchanged  $KIVY_HOME/config.ini"
else
    put_file "$KIVY_HOME/config.ini" "$HERE/kivy-config.ini" 0644
fi

# ---- the running system only -------------------------------------------------
for group in $GROUPS; do
    run usermod -aG "$group" "$APP_USER"
done
run chown -R "$APP_USER:" "$(dirname -- "$KIVY_HOME")"
run systemctl daemon-reload

if [ "$CHANGED" = 0 ]; then
    say "nothing to change: this system is already set up"
elif [ "$DRY_RUN" = 1 ]; then
    say "dry run: nothing was changed"
else
    say "done: reboot to apply config.txt (sudo reboot); the companion then starts full screen"
fi
