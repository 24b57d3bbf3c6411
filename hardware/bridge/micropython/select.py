"""``select`` for the bridge firmware in the test suite: whether USB serial (stdout) can take bytes now.

On the Pico, ``select.poll`` on ``sys.stdout`` reports ``POLLOUT`` while the CDC
TX buffer has room (MicroPython's shared/tinyusb/mp_usbd_cdc.c); here the
host (``hardware/emulator/pico.py``) keeps that buffer and answers.  A file
named like a built-in extends it on MicroPython, so this one shadows the port's.
"""
import js

POLLIN = 1
POLLOUT = 4


class _Poll:
    def __init__(self):
        self._flags = 0

    def register(self, stream, flags=POLLIN | POLLOUT):
        self._flags = flags

    def poll(self, timeout=-1):
        if self._flags & POLLOUT and js.picoCall("U") == "1":
            return [(None, POLLOUT)]
        return []


def poll():
    return _Poll()
