"""Issue 25, item 8: spoken results (off by default), heard through espeak-ng into WAV files.

Turned on in Settings, a Sam's round with face-down buffs is played on the simulated table:
the round's result and whose turn it is are said, no sentence names a card lying face down
when it is said, and what espeak-ng made of them is not silence.
"""
import array
import shutil
import wave

import pytest

from ui import harness
from ui.speech import SPEAKER

from .driver import hidden_faces, place, result_open, table_screen
from .test_tables import NORTH, SOUTH, start

#: RMS of 16-bit samples above which a WAV is speech, not silence (silence is 0; espeak-ng's
#: speech measures in the thousands: a floor well below it, a guess checked against it)
SILENCE_FLOOR = 300


def rms(path) -> float:
    with wave.open(str(path)) as w:
        assert w.getsampwidth() == 2
        samples = array.array("h", w.readframes(w.getnframes()))
    return (sum(s * s for s in samples) / max(1, len(samples))) ** 0.5


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (companion bootstrap)")
def test_results_and_turns_are_said_aloud_and_never_a_face_down_card(home, tmp_path):
    app = home
    assert not SPEAKER.enabled, "spoken results are on by default"
    app.go("settings")
    harness.frames(2)
    switch = app.root.get_screen("settings").ids.speech_switch
    assert switch.text == "Off"
    harness.tap(switch)                                         # Spoken results: On
    assert SPEAKER.enabled and switch.text == "On"
    SPEAKER.wav_dir, SPEAKER.told, SPEAKER.spoken = tmp_path, [], []
    try:
        start(app, "sams")
        heard = 0
        for (nl, nc), (sl, sc) in zip(NORTH, SOUTH):
            for zone, card in ((f"0.lane{nl}", nc), (f"1.lane{sl}", sc)):
                place(app, zone, card)
                secret = hidden_faces(app)
                for sentence in SPEAKER.told[heard:]:
                    assert not [s for s in secret if s in sentence], f"{sentence!r} names a face-down card"
                heard = len(SPEAKER.told)
        assert result_open(app)
        told = SPEAKER.told
        assert any(t.startswith("Round 1: North wins 3 lanes to 0") for t in told), told
        assert "North's turn" in told and "South's turn" in told
        assert not any("≥" in t or "♥" in t for t in told)      # symbols are said in words
        SPEAKER.wait(20)
        spoken = dict(SPEAKER.spoken)
        result = next(t for t in told if t.startswith("Round 1"))
        assert spoken[result] is not None and rms(spoken[result]) > SILENCE_FLOOR
        assert rms(spoken["South's turn"]) > SILENCE_FLOOR
        table_screen(app).result_view.dismiss()
    finally:
        SPEAKER.enabled, SPEAKER.wav_dir = False, None
