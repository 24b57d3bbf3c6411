"""Spoken results through espeak-ng, on a thread of their own (issue 25; off by default).

:func:`tell` queues sentences (from :mod:`companion.speech`, which makes them
from the shared screen only) and returns at once: the UI never waits for a
voice.  One worker thread runs ``espeak-ng`` per sentence as an argument list
(never a shell: the sentence is one argument, after ``--``), to the audio out,
or into a WAV file when ``wav_dir`` is set (the tests listen that way).  No
espeak-ng on the machine is said once in the log and nothing else happens.
"""
from __future__ import annotations

import logging
import queue
import shutil
import subprocess
import threading
from pathlib import Path

log = logging.getLogger(__name__)

#: espeak-ng's words per minute: a little slower than its 175 default, for a table at a metre (a guess)
WORDS_PER_MINUTE = 150


class Speaker:
    """Says queued sentences one after another on its own thread."""

    def __init__(self, program: str = "espeak-ng"):
        self.program = program
        self.enabled = False
        #: where each sentence goes as ``said-<n>.wav`` instead of the audio out (None: the audio out)
        self.wav_dir: Path | None = None
        self.told: list[str] = []                            # every sentence queued, in order
        self.spoken: list[tuple[str, Path | None]] = []     # what was said, and its WAV file if any
        self._queue: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        self._missing_said = False

    def tell(self, sentences: list[str]) -> None:
        """Queue ``sentences`` when speech is on; returns at once."""
        if not self.enabled or not sentences:
            return
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._work, name="speech", daemon=True)
            self._thread.start()
        for sentence in sentences:
            self.told.append(sentence)
            self._queue.put(sentence)

    def wait(self, timeout: float = 10.0) -> None:
        """Until everything queued has been said (for tests)."""
        done = threading.Event()
        self._queue.put(done)
        done.wait(timeout)

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if isinstance(item, threading.Event):
                item.set()
                continue
            self._say(item)

    def _say(self, sentence: str) -> None:
        exe = shutil.which(self.program)
        if exe is None:
            if not self._missing_said:
                log.warning("spoken results are on but %s is not installed (apt install espeak-ng)", self.program)
                self._missing_said = True
            return
        wav = None
        args = [exe, "-s", str(WORDS_PER_MINUTE)]
        if self.wav_dir is not None:
            wav = Path(self.wav_dir) / f"said-{len(self.spoken)}.wav"
            args += ["-w", str(wav)]
        try:
            subprocess.run(args + ["--", sentence], capture_output=True, timeout=30, check=True)
        except (OSError, subprocess.SubprocessError) as exc:
            log.warning("espeak-ng could not say %r: %s", sentence, exc)
            return
        self.spoken.append((sentence, wav))


#: the app's one speaker (Settings turns it on)
SPEAKER = Speaker()
