"""``time`` for the bridge firmware in the test suite: sleeps are modelled time, kept by the RC522 emulator.

A file named like a built-in extends it on MicroPython (docs: "Extending
built-in libraries from Python"), so this one shadows the port's ``time``.
"""
import js


def sleep_us(us):
    if not isinstance(us, int):             # as the real one: "TypeError: can't convert float to int"
        raise TypeError("can't convert %s to int" % type(us).__name__)
    js.picoSend("T %d" % us)


def sleep_ms(ms):
    sleep_us(ms * 1000)


def sleep(s):
    sleep_us(int(s * 1000000))


def ticks_us():
    return int(js.picoCall("C"))


def ticks_diff(a, b):
    return a - b
