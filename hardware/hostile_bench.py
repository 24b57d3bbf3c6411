"""`companion bench hostile`: issue 24's hardware-side attacks, measured the same way for each family.

For every family it prints, as JSON: how many inputs were tried, how many
tracebacks escaped (an exception out of the code under attack), how much data
was lost (a database changed, a connection opened, a good bridge line after a
bad one not delivered), the longest time to a verdict (refused, handled, or
shown not ok) in wall time and in the working thread's CPU time (wall time on a
shared machine includes other processes' turns), and the peak resident memory of the process that ran the family
(each family runs in its own fresh Python process, so the figures do not mix).

Families:

``ports``
    hostile ``port`` values (``spy://…?file=<database>``, ``socket://`` to a
    listening loopback socket, other pyserial URL schemes, relative paths,
    ``..``, NUL and control characters, over-long strings, and random text)
    through ``companion doctor --profile`` and the loader ``companion run`` uses.
``bridge``
    CRC-valid hostile lines into a :class:`~hardware.bridge.host.BridgeReader`
    feeding a real :class:`~hardware.debounce.Debouncer`: 20,000 and 60,000
    UIDs in one POLL, 65 UIDs, a 10 MB line without a newline (given in the
    4 KB pieces the worker reads), 1,000 repeated sequence numbers, random
    sequence jumps, random bytes, 1,000 lines of the longest length whose
    checksum has to be computed to refuse them, long NDEF and FAULT lines, 10,000 distinct
    tags; each followed by a good POLL that must come through.
``liveness``
    the reader process (a real child, emulated readers) stopped with SIGSTOP:
    the time until its status says not ok, the silence limit it states, the
    back-off of repeated kills, and a callback that raises.
"""
from __future__ import annotations

import json
import os
import random
import resource
import subprocess
import sys
import time
import traceback

FAMILIES = ("ports", "bridge", "liveness")


def bench_hostile() -> dict:
    """Every family in its own Python process; their figures by family."""
    out = {}
    for family in FAMILIES:
        done = subprocess.run([sys.executable, "-m", "hardware.hostile_bench", family], capture_output=True,
                              text=True, timeout=600)
        try:
            out[family] = json.loads(done.stdout.strip().splitlines()[-1])
        except (IndexError, ValueError):
            out[family] = {"error": (done.stderr or done.stdout)[-2000:]}
    return out


class _Tally:
    def __init__(self):
        self.inputs = self.tracebacks = self.lost = 0
        self.longest_s = self.longest_cpu_s = 0.0
        self.examples: list[str] = []

    def timed(self, fn, *args, refusal=()):
        """``fn(*args)``, timed; an exception other than ``refusal`` (the one-sentence kind) is a traceback."""
        self.inputs += 1
        began, began_cpu = time.perf_counter(), time.thread_time()
        try:
            return fn(*args)
        except refusal:
            return None
        except Exception:
            self.tracebacks += 1
            if len(self.examples) < 3:
                self.examples.append(traceback.format_exc(limit=3))
        finally:
            self.longest_s = max(self.longest_s, time.perf_counter() - began)
            self.longest_cpu_s = max(self.longest_cpu_s, time.thread_time() - began_cpu)

    def figures(self, **extra) -> dict:
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss       # kB on Linux
        return {"inputs": self.inputs, "tracebacks": self.tracebacks, "lost": self.lost,
                "longest_verdict_ms": round(self.longest_s * 1000, 2),
                "longest_verdict_cpu_ms": round(self.longest_cpu_s * 1000, 2), "peak_rss_mb": round(rss / 1024, 1),
                **extra, **({"traceback_examples": self.examples} if self.examples else {})}


def _ports() -> dict:
    import io
    import socket
    import tempfile
    from pathlib import Path
    from companion.session import Store
    from companion.table import ProfileError, load_profile
    from hardware.doctor import doctor

    tally = _Tally()
    tmp = Path(tempfile.mkdtemp(prefix="bench-hostile-"))
    (tmp / "data").mkdir()
    db = tmp / "data" / "companion.sqlite3"
    Store(db).close()
    before = db.read_bytes()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.setblocking(False)
    rng = random.Random(24)
    ports = [f"spy://loop://?file={db}", f"spy:///dev/ttyACM0?file={db}", f"socket://127.0.0.1:{listener.getsockname()[1]}",
             f"rfc2217://127.0.0.1:{listener.getsockname()[1]}", "loop://", "hwgrep://.*", f"alt://{db}?class=Serial",
             str(db), "companion.sqlite3", "../data/companion.sqlite3", "/dev/serial/by-id/..",
             "/dev/ttyACM0/../../" + str(db), "/dev/ttyACM0\x00", "/dev/ttyACM0\n", "/dev/tty\x1bACM0", "/dev/sda",
             "/dev/serial/by-id/" + "x" * 190, "A" * 200]
    ports += ["".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(1, 60))) for _ in range(200)]
    good = tmp / "good.toml"
    good.write_text('[[readers]]\nid = "pico"\nkind = "bridge"\nport = "/dev/ttyACM9"\npads = ["p0"]\n')
    doctor(good, 0.1, io.StringIO())                       # imports and first-call costs, not counted
    refused = 0
    for port in ports:
        path = tmp / "evil.toml"
        escaped = "".join(c if c.isprintable() and c not in '"\\' else f"\\u{ord(c):04x}" for c in port)
        path.write_text(f'name = "evil"\n[[readers]]\nid = "pico"\nkind = "bridge"\nport = "{escaped}"\n'
                        f'pads = ["p0"]\n', encoding="utf-8")
        code = tally.timed(doctor, path, 0.1, io.StringIO())
        refused += code == 2
        tally.timed(load_profile, path, refusal=ProfileError)       # what `companion run` loads first
    try:
        listener.accept()
        connections = 1
    except BlockingIOError:
        connections = 0
    listener.close()
    tally.lost = int(db.read_bytes() != before) + connections
    return tally.figures(refused_by_doctor=refused, database_unchanged=db.read_bytes() == before,
                         connections_opened=connections)


def _bridge() -> dict:
    from hardware.bridge.host import BridgeReader
    from hardware.bridge.protocol import checksum, encode
    from hardware.debounce import Debouncer
    from hardware.ndef import encode_card_id
    from hardware.readers import ReaderSpec

    tally = _Tally()
    debouncer = Debouncer()
    reader = BridgeReader(ReaderSpec("pico", "bridge", tuple(f"p{n}" for n in range(16)), port="/dev/null"))
    delivered = []
    reader.start(lambda pad, uids, card_ids=None: delivered.append(debouncer.feed(pad, uids, time.monotonic(),
                                                                                  card_ids)), background=False)
    seq = [0]

    def line(kind, fields, n=None):
        seq[0] = (seq[0] + 1) % 65536 if n is None else n
        return encode(seq[0], kind, fields).encode()

    def uids(n):
        return ",".join(f"04{i:012X}" for i in range(n))

    rng = random.Random(24)
    message = encode_card_id("sams/042")[2:-2].rstrip(b"\0").hex().upper()
    hostile: list[tuple[str, list[bytes]]] = [
        ("20,000 UIDs in one POLL", [line("POLL", [1, uids(20_000)])]),
        ("60,000 UIDs in one POLL", [line("POLL", [1, uids(60_000)])]),
        ("65 UIDs in one POLL", [line("POLL", [1, uids(65)])]),
        ("10 MB without a newline", ["chunks"]),
        ("1,000 repeated sequence numbers", [line("POLL", [0, "-"], 7) for _ in range(1000)]),
        ("1,000 random sequence numbers", [line("POLL", [0, "-"], rng.randrange(65536)) for _ in range(1000)]),
        ("2,000 random byte strings", [rng.randbytes(rng.randrange(1, 3000)) for _ in range(2000)]),
        ("1,000 longest lines, checksum wrong", [rng.randbytes(2040) + b" *0000\n" for _ in range(1000)]),
        ("NDEF with 4 kB of hex", [line("NDEF", [2, "04A1B2C3D4E5F6", "D1" * 2000])]),
        ("FAULT with 5 kB of text", [line("FAULT", [3, "x" * 5000])]),
        ("10,000 distinct tags", [line("NDEF", [4, f"04{i:012X}", message]) for i in range(10_000)]),
    ]
    families = {}
    for name, lines in hostile:
        worst = 0.0
        if lines == ["chunks"]:
            chunk = b"5 POLL 3 " + b"A" * 4087
            for _ in range(10 * 1024 * 1024 // 4096):
                began = time.perf_counter()
                tally.timed(reader.handle_bytes, chunk)
                worst = max(worst, time.perf_counter() - began)
            tally.timed(reader.handle_bytes, b"\n")
        else:
            for raw in lines:
                began = time.perf_counter()
                tally.timed(reader.handle_line, raw)
                worst = max(worst, time.perf_counter() - began)
        fed = len(delivered)
        tally.timed(reader.handle_line, line("POLL", [5, "A1B2C3D4"]))        # a good line must come through
        tally.lost += len(delivered) == fed
        status = reader.status()
        families[name] = {"longest_ms": round(worst * 1000, 2), "bridge_ok": status["ok"]}
    status = reader.status()
    big = Debouncer()
    began = time.perf_counter()
    big.feed("p0", [f"04{i:012X}" for i in range(20_000)], 0.0)
    debounce_ms = (time.perf_counter() - began) * 1000
    return tally.figures(by_attack=families, lost_lines_counted=status["lost"], repeated=status["repeated"],
                         out_of_order=status["out_of_order"], garbled=status["garbled"],
                         card_ids_kept=len(reader.card_ids), framer_buffer_bytes=len(reader._framer._buf),
                         debouncer_20000_uids_ms=round(debounce_ms, 1))


def _liveness() -> dict:
    import signal
    from pathlib import Path
    from companion.table import load_profile
    from hardware.supervisor import SupervisedTable, emulated_readers

    tally = _Tally()
    profile = load_profile(Path(__file__).resolve().parents[1] / "firmware_config" / "tables" / "table-2pad.toml")
    errors = []

    def raising(ev):
        errors.append(ev)
        raise RuntimeError("a callback that raises")

    table = SupervisedTable(emulated_readers, (profile, {"n-attacker": ["04A1B2C3D4E5F6"]}), restart_delay_s=0.2,
                            kill_after_s=3.0)
    times = []
    try:
        table.wait_opened()
        table.start(raising)
        for _ in range(3):
            _until(lambda: table.status()[0]["ok"], 10)
            os.kill(table.pid, signal.SIGSTOP)
            began = time.monotonic()
            tally.inputs += 1
            shown = _until(lambda: not table.status()[0]["ok"], 10)
            times.append(time.monotonic() - began)
            tally.lost += not shown
            os.kill(table.pid, signal.SIGCONT)
        tally.longest_s = max(times)
        for n in range(1, 5):
            _until(lambda: table.status()[0]["ok"], 20)
            os.kill(table.pid, signal.SIGKILL)
            tally.inputs += 1
            tally.lost += not _until(lambda: table.restarts == n, 20)
        head = table.status()[0]
        return tally.figures(longest_verdict_cpu_ms=None,              # a wait on another process, not work
                             stop_to_not_ok_s=[round(t, 2) for t in times], silence_limit_s=head["silence_limit_s"],
                             restart_delays_s=table.restart_delays, callback_errors=table.callback_errors,
                             supervisor_thread_alive=table._thread.is_alive())
    finally:
        table.close()


def _until(predicate, timeout) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.01)
    return False


if __name__ == "__main__":
    print(json.dumps({"ports": _ports, "bridge": _bridge, "liveness": _liveness}[sys.argv[1]]()))
