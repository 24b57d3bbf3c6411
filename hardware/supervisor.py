"""Readers in their own process, restarted when it dies: nothing in the UI's process can stall a poll.

Polling in the UI's process shares its interpreter lock: with a busy Python
thread beside it, a 300 µs sleep came back after about 5 ms (the
interpreter's switch interval).  :class:`SupervisedTable` therefore runs the
table's readers (a :class:`~hardware.polling.PolledTable`) in a child process
and is itself the :class:`~hardware.contract.TableSource` the app sees::

    app process                                 reader process
    SupervisedTable ◄── ("event", PadEvent) ──── PolledTable (poll thread)
         │          ◄── ("status", [...]) ─────  main loop: status every 0.5 s,
         └── ("write", n, pad, uid, id) ──────►  card-id writes, close

The child's status message, every :data:`STATUS_EVERY_S`, is its heartbeat, and
says how many poll cycles it has done.  A child that is alive but silent (stopped
with SIGSTOP, stuck in the kernel) or whose poll thread has not finished a
cycle for :data:`SILENCE_S` is reported not ok at once, with how long it has
been silent; after :data:`KILL_AFTER_S` of silence the supervisor kills it.
Until its first message a child is starting, not silent: it beats only once its
readers are open, so it has :data:`OPEN_TIMEOUT_S` for that.

If the child dies (a crash, a kill, a poll thread stopped by an error, or
killed for its silence) the supervisor records why, shows it in :meth:`status`
(the Hardware screen and ``companion doctor`` show status lines) and starts a
new child after a back-off: ``restart_delay_s``, doubled for every further
child that dies within :data:`STABLE_S` of its start, at most
:data:`MAX_RESTART_DELAY_S` (systemd's ``RestartSteps=``/``RestartMaxDelaySec=``
do the same for services).  Whatever a callback (the app's event sink) raises
is logged once per kind and counted; the supervisor thread keeps going.  The new child's debouncer starts empty: it reports every
card it finds again, which the supervisor drops when it already knows the card
there, and once it has settled it says which cards lie where, so the
supervisor reports the cards that left while no one was reading.

Children are started by a ``forkserver``: forked from a clean process, never
from the app's threads.
"""
from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
import traceback

from companion.table import GONE, SEEN, PadEvent
from hardware.contract import TableSource

log = logging.getLogger(__name__)

STATUS_EVERY_S = 0.5        # the child's heartbeat
SILENCE_S = 1.5             # no heartbeat (or no finished poll cycle) for this long: not ok (3 beats missed)
KILL_AFTER_S = 5.0          # … and for this long: killed and restarted (a reader stuck in the kernel may come back)
MAX_RESTART_DELAY_S = 30.0  # the back-off's cap
STABLE_S = 60.0             # a child that ran this long before dying starts the back-off afresh
OPEN_TIMEOUT_S = 20.0


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "stopped answering"
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exited with code {code}"


def _child(build, args, conn) -> None:
    """The reader process: build the table, poll it, report; any failure is sent before dying."""
    lock = threading.Lock()

    def send(msg) -> None:
        with lock:
            conn.send(msg)

    table = None
    try:
        table, problems = build(*args)
        if table is None:
            send(("failed", problems))
            return
        send(("opened", list(table.pads), table.status()))
        table.start(lambda ev: send(("event", ev)), background=True)
        settled_at = time.monotonic() + table.debouncer.lift_s      # the cards lying there have settled by then
        settled = False
        while True:
            if conn.poll(STATUS_EVERY_S):
                msg = conn.recv()
                if msg[0] == "close":
                    break
                if msg[0] == "write":
                    _, n, pad, uid, card_id = msg
                    try:
                        table.write_card_id(pad, uid, card_id)
                        send(("written", n, None))
                    except Exception as exc:              # told to the screen as a sentence
                        send(("written", n, f"{type(exc).__name__}: {exc}"))
            thread = table._thread
            if thread is not None and not thread.is_alive():
                raise RuntimeError(table.failure or "the poll thread stopped")
            if not settled and table.cycles >= 2 and time.monotonic() >= settled_at:
                settled = True
                send(("settled", {pad: table.debouncer.on_pad(pad) for pad in table.pads}))
            # the heartbeat: a process stopped or stuck sends none; cycles tell a stuck poll thread
            send(("status", table.status(), table.cycles if thread is not None else None))
    except BaseException as exc:
        try:
            send(("died", f"{type(exc).__name__}: {exc}", traceback.format_exc(limit=4)))
        except (OSError, ValueError):
            pass
        raise
    finally:
        if table is not None:
            table.close()
        conn.close()


class SupervisedTable(TableSource):
    """A table source whose readers poll in a supervised child process.

    ``build(*args)`` runs in the child and returns ``(PolledTable, [])`` or
    ``(None, problems)``, like :func:`hardware.readers.open_profile_table`; it
    and ``args`` must be picklable (a module-level function and plain data).
    """

    simulated = False
    can_write_tags = True                  # write_card_id writes NDEF through the RC522s

    def __init__(self, build, args=(), *, restart_delay_s: float = 1.0, name: str = "readers",
                 status_path=None, silence_s: float = SILENCE_S, kill_after_s: float = KILL_AFTER_S,
                 max_restart_delay_s: float = MAX_RESTART_DELAY_S):
        self._build, self._args = build, tuple(args)
        self.status_path = status_path          # where `companion doctor` finds the supervisor's last word
        self.restart_delay_s = restart_delay_s
        self.max_restart_delay_s = max_restart_delay_s
        self.silence_s = silence_s
        self.kill_after_s = kill_after_s
        self.name = name
        self.pads: list[str] = []
        self.restarts = 0
        self.restart_delays: list[float] = []   # the back-off of every restart so far
        self.last_failure: str | None = None
        self.callback_errors = 0
        self.last_callback_error: str | None = None
        self._logged: set[str] = set()
        self.pid: int | None = None
        self._heard_at: float | None = None     # the last message from the child (monotonic)
        self._started = False                   # the child has said something: it beats from now on
        self._progress: tuple[int | None, float] = (None, 0.0)   # poll cycles, and when they last grew
        self._silent_recorded = False
        self._ctx = multiprocessing.get_context("forkserver")
        self._sink = None
        self._status: list[dict] = []
        self._on_pad: dict[str, set[str]] = {}
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._opened = threading.Event()
        self._problems: list[str] = []
        self._pending: list[PadEvent] = []
        self._writes: dict[int, tuple[threading.Event, list]] = {}
        self._write_no = 0
        self._conn = None
        self._proc = None
        self._thread = threading.Thread(target=self._supervise, name=f"{name}-supervisor", daemon=True)
        self._thread.start()

    # -- opening -----------------------------------------------------------------------------
    def wait_opened(self, timeout: float = OPEN_TIMEOUT_S) -> list[str]:
        """Wait for the first child to open its readers; returns the problems ([] when it reads)."""
        if not self._opened.wait(timeout):
            return [f"the reader process did not start within {timeout:g} s"]
        return list(self._problems)

    # -- TableSource ---------------------------------------------------------------------------
    def start(self, on_event) -> None:
        with self._lock:
            self._sink = on_event
            pending, self._pending = self._pending, []
        for ev in pending:
            self._deliver(on_event, ev)

    def status(self) -> list[dict]:
        with self._lock:
            lines = [dict(s) for s in self._status]
            alive = self._proc is not None and self._proc.is_alive()
        silence = self.silence() if alive else None
        detail = f"reader process {self.pid} running" if alive else "reader process not running"
        if silence is not None:
            detail = (f"reader process {self.pid} not answering: {silence[1]} for {silence[0]:.1f} s "
                      f"(the limit is {self.silence_s:g} s) — stopped or stuck; it is killed and restarted "
                      f"after {self.kill_after_s:g} s")
            for line in lines:                    # what it last said is no news of now
                line["ok"], line["detail"] = False, f"unknown for {silence[0]:.1f} s; last heard: {line.get('detail')}"
        if self.restarts:
            detail += f"; restarted {self.restarts} time{'s' if self.restarts > 1 else ''}, last because: " \
                      f"{self.last_failure}"
            if not alive and self.restart_delays:
                detail += f"; next start in {self.restart_delays[-1]:g} s"
        if self.callback_errors:
            detail += (f"; the app's handler of reader events failed {self.callback_errors} time{'' if self.callback_errors == 1 else 's'}, "
                       f"last: {self.last_callback_error}")
        head = {"id": "reader-process", "kind": "process", "ok": alive and silence is None, "detail": detail,
                "restarts": self.restarts, "last_failure": self.last_failure,
                "silent_s": silence[0] if silence else None, "silence_limit_s": self.silence_s,
                "restart_delays": list(self.restart_delays)}
        return [head] + lines

    def silence(self) -> tuple[float, str] | None:
        """``(seconds, what)`` once the child has been silent, or its polling stalled, over the limit; else None."""
        now = time.monotonic()
        with self._lock:
            heard, (cycles, grew), started = self._heard_at, self._progress, self._started
        if heard is None:
            return None
        if not started:
            # Still starting (a fork of the forkserver, imports, the readers opening): no heartbeat
            # yet, so none missed.  A busy machine takes seconds here (measured: 2.3 s under load,
            # 6 s to the first child opening); judged by the heartbeat's limit it was killed while
            # opening, which left the table without readers.  Opening has its own limit.
            if now - heard > OPEN_TIMEOUT_S:
                return now - heard, "silent since it started"
            return None
        if now - heard > self.silence_s:
            return now - heard, "no heartbeat"
        if cycles is not None and now - grew > self.silence_s:
            return now - grew, "no poll cycle finished"
        return None

    def write_card_id(self, pad: str, uid: str, card_id: str, timeout: float = 5.0) -> None:
        """Write a card id onto a tag, in the reader process; raises ``RuntimeError`` with its reason."""
        with self._lock:
            self._write_no += 1
            n = self._write_no
            done = (threading.Event(), [])
            self._writes[n] = done
            conn = self._conn
        if conn is None:
            raise RuntimeError("the reader process is restarting; try again in a moment")
        conn.send(("write", n, pad, uid, card_id))
        if not done[0].wait(timeout):
            raise RuntimeError("the reader process did not answer")
        if done[1][0] is not None:
            raise RuntimeError(done[1][0])

    def close(self) -> None:
        self._closing.set()
        conn, proc = self._conn, self._proc
        if conn is not None:
            try:
                conn.send(("close",))
            except (OSError, ValueError):
                pass
        if proc is not None:
            proc.join(timeout=3)
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=2)
        self._thread.join(timeout=5)

    # -- the supervisor thread --------------------------------------------------------------------
    def _supervise(self) -> None:
        quick_deaths = 0
        while not self._closing.is_set():
            started = time.monotonic()
            try:
                outcome = self._one_child()
            except Exception as exc:              # a bug here, or no process could be started: retry later
                self._log_once("supervisor", f"the reader supervisor failed: {exc!r}")
                outcome = f"the supervisor failed: {exc!r}"
            if outcome is None:
                break
            quick_deaths = quick_deaths + 1 if time.monotonic() - started < STABLE_S else 1
            delay = min(self.restart_delay_s * 2 ** (quick_deaths - 1), self.max_restart_delay_s)
            self.restarts += 1
            self.restart_delays.append(delay)
            self.last_failure = outcome
            self._record("restarting")
            self._closing.wait(delay)
        self._record("stopped")

    def _one_child(self) -> str | None:
        """Run one child until it ends; why it ended, or None when there is nothing to restart."""
        parent, child = self._ctx.Pipe()
        proc = self._ctx.Process(target=_child, args=(self._build, self._args, child),
                                 name=f"{self.name}-process", daemon=True)
        proc.start()
        child.close()
        with self._lock:
            self._conn, self._proc, self.pid = parent, proc, proc.pid
            self._heard_at, self._progress, self._started = time.monotonic(), (None, 0.0), False
        self._record("running")
        try:
            reason = self._listen(parent, proc)
        finally:
            proc.join(timeout=2)
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=2)
            with self._lock:
                self._conn = None
                for event, result in self._writes.values():
                    result.append("the reader process stopped")
                    event.set()
                self._writes.clear()
            parent.close()
        if self._closing.is_set():
            return None
        if reason == "failed":
            self._opened.set()
            return None
        if not self._opened.is_set():
            # it died before its readers were open: a fault to report, not a child to restart
            self._problems = [f"the reader process stopped while opening the readers: "
                              f"{reason or _describe_exit(proc.exitcode)}"]
            self._opened.set()
            return None
        return reason or _describe_exit(proc.exitcode)

    def _log_once(self, kind: str, text: str) -> None:
        if kind not in self._logged:
            self._logged.add(kind)
            log.exception(text)

    def _record(self, state: str) -> None:
        if self.status_path is None:
            return
        import json
        from pathlib import Path
        path = Path(self.status_path)
        partial = path.with_name(path.name + ".part")
        silence = self.silence() if state == "not answering" else None
        try:
            # written aside and renamed, so `companion doctor` never reads half a file
            partial.write_text(json.dumps(
                {"state": state, "pid": self.pid, "restarts": self.restarts, "last_failure": self.last_failure,
                 "silent_s": round(silence[0], 1) if silence else None, "silence_limit_s": self.silence_s,
                 "next_restart_s": self.restart_delays[-1] if state == "restarting" else None,
                 "at": time.strftime("%Y-%m-%d %H:%M:%S")}), encoding="utf-8")
            os.replace(partial, path)
        except OSError:
            pass                              # a read-only data dir must not stop reading

    def _listen(self, conn, proc) -> str | None:
        """Handle the child's messages until it ends; returns why it ended (None: look at the exit code)."""
        reason = None
        while True:
            try:
                if not conn.poll(0.1):
                    reason = self._check_silence(proc) or reason
                    continue
                msg = conn.recv()
            except (EOFError, OSError):
                return reason
            with self._lock:
                self._heard_at, self._started = time.monotonic(), True
            try:
                outcome = self._message(msg)
            except Exception as exc:              # a bug handling a message: log once, keep going
                self._callback_failed(exc)
                continue
            if outcome == "failed":
                return outcome
            if outcome is not None:
                reason = outcome

    def _check_silence(self, proc) -> str | None:
        """Between messages: record a silence once it is over the limit; kill a child silent for too long."""
        silence = self.silence()
        if silence is None:
            if self._silent_recorded:
                self._silent_recorded = False
                self._record("running")
            return None
        if not self._silent_recorded:
            self._silent_recorded = True
            self._record("not answering")
        if silence[0] > self.kill_after_s and proc.is_alive():
            proc.kill()
            self._silent_recorded = False
            return (f"stopped answering ({silence[1]} for {silence[0]:.1f} s, the limit is {self.silence_s:g} s), "
                    f"so it was killed")
        return None

    def _message(self, msg) -> str | None:
        """One message from the child; returns "failed", why it is dying, or None."""
        kind = msg[0]
        if kind == "event":
            self._event(msg[1])
        elif kind == "status":
            with self._lock:
                self._status = msg[1]
                cycles = msg[2] if len(msg) > 2 else None
                if cycles is None or cycles != self._progress[0]:
                    self._progress = (cycles, time.monotonic())
        elif kind == "opened":
            with self._lock:
                self.pads, self._status = msg[1], msg[2]
            self._opened.set()
        elif kind == "failed":
            self._problems = list(msg[1])
            return "failed"
        elif kind == "settled":
            self._settled(msg[1])
        elif kind == "written":
            with self._lock:
                done = self._writes.pop(msg[1], None)
            if done is not None:
                done[1].append(msg[2])
                done[0].set()
        elif kind == "died":
            return msg[1]
        return None

    def _event(self, ev: PadEvent) -> None:
        with self._lock:
            here = self._on_pad.setdefault(ev.pad, set())
            if ev.kind == SEEN:
                if ev.uid in here:
                    return                   # a restarted child finding a card that never left
                here.add(ev.uid)
            else:
                if ev.uid not in here:
                    return
                here.discard(ev.uid)
            sink = self._sink
            if sink is None:
                self._pending.append(ev)
                return
        self._deliver(sink, ev)

    def _deliver(self, sink, ev: PadEvent) -> None:
        """Hand ``ev`` to the app; whatever its handler raises is counted and logged once per kind."""
        try:
            sink(ev)
        except Exception as exc:
            self._callback_failed(exc)

    def _callback_failed(self, exc: Exception) -> None:
        self.callback_errors += 1
        self.last_callback_error = f"{type(exc).__name__}: {exc}"[:200]
        self._log_once(f"callback {type(exc).__name__}", f"a reader-event handler raised {exc!r}")

    def _settled(self, lying: dict[str, list[str]]) -> None:
        """A new child has settled: cards the supervisor knew of that it does not see have left."""
        now = time.monotonic()
        with self._lock:
            gone = [(pad, uid) for pad, uids in self._on_pad.items() for uid in uids
                    if uid not in lying.get(pad, [])]
        for pad, uid in gone:
            self._event(PadEvent(pad, uid, GONE, now))


def profile_readers(profile):
    """The builder for a real table: the profile's readers (run in the reader process)."""
    from hardware.readers import open_profile_table
    return open_profile_table(profile)


def emulated_readers(profile, tags: dict | None = None, fail_after_cycles: int | None = None):
    """A builder for tests and demos: the profile's readers emulated in the reader process.

    ``tags``: pad → UIDs lying there from the start.  ``fail_after_cycles``:
    the poll thread raises after that many cycles (a bug in the field).
    """
    from hardware.emulator.table import EmulatedTable
    table = EmulatedTable.from_profile(profile)
    table.min_cycle_s = 0.005
    for pad, uids in (tags or {}).items():
        for uid in uids:
            table.chips[pad].place(table.tag(uid))
    if fail_after_cycles is not None:
        cycle = table.poll_cycle

        def failing():
            if table.cycles >= fail_after_cycles:
                raise RuntimeError(f"simulated bug after {fail_after_cycles} cycles")
            return cycle()
        table.poll_cycle = failing
    return table, []
