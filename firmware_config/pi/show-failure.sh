#!/bin/sh
# show-failure.sh UNIT TTY: put UNIT's last words on the console TTY.
# tabletop-companion-failed.service runs it when the companion has stopped for good.
set -u
unit=$1
tty=$2
{
    printf '\033c'                       # a clear screen, cursor home
    printf 'The tabletop companion has stopped.\n\n'
    # The app says what is wrong in one sentence on stderr; show its last lines.
    journalctl -u "$unit" -b -n 8 -o cat --no-pager 2>/dev/null |
        grep -v -e '^\[' -e '^ *$' | tail -n 6 | cut -c 1-240
    printf '\nFix that, then: sudo systemctl restart %s\n' "$unit"
    printf 'The whole log: journalctl -u %s -b\n' "$unit"
} > "$tty"
