"""What the ideal emulator leaves out: stacked tags detune, neighbouring fields cross-talk, tags need time.

A :class:`Physics` is shared by the emulated readers of one table (it knows
where their pads lie) and consulted by :class:`~hardware.emulator.EmulatedRC522`
whenever a frame goes on the air.  Every number below comes from a public
measurement or a standard; docs/hardware/emulator.md quotes each source.

Stacked tags (electronics.stackexchange q519993; Core Electronics forum,
"PiicoDev RFID Module max cards"; miguelbalboa/rfid)
    Two tags whose antennas lie on top of each other detune each other: each
    answers a REQA/WUPA round with probability ``ALIGNED_FACTOR`` (0.05: a
    two-card stack "hangs" the reader, about 0 reads in 20 tries); a tag whose
    sticker is offset by ``ALIGN_CM`` or more from another couples much better
    (``OFFSET_FACTOR`` = 0.7 per offset neighbour).  The factors multiply, so
    three aligned tags practically never answer ("3 or more tags: just a time out").

Cross-talk (miguelbalboa/rfid#589)
    RC522s 80 mm apart read each other's tags "some times nothing, some times
    fully UID, sometimes UID is shifted or messed" while every field is on.
    A tag lying on pad B, powered by B's field, hears the frames of a reader A
    within ``CROSSTALK_CM``; A hears its reply garbled (shifted by 1–8 bits)
    with probability ``GARBLE_RATE``, else whole.  When B's field is off the tag
    has no power and A, too far away to power it, hears nothing.

Power-up (ISO/IEC 14443-3 §5.2.1; MFRC522 datasheet)
    A PICC must accept REQA within 5 ms of an unmodulated field; the PCD should
    give it at least 5.1 ms.  Each tag here needs a delay drawn uniformly from
    ``POWER_UP_S`` every time it is powered (field switched on, or laid into a
    field) and stays silent until then.

All randomness comes from one seeded :class:`random.Random`.
"""
from __future__ import annotations

import math
import random

from hardware.readers import CROSSTALK_CM

ALIGNED_FACTOR = 0.05
OFFSET_FACTOR = 0.7
ALIGN_CM = 1.5
GARBLE_RATE = 0.6
POWER_UP_S = (0.5e-3, 5.0e-3)


class Physics:
    """The realistic model (``Physics()``) or the ideal one (``Physics(ideal=True)``)."""

    def __init__(self, ideal: bool = False, seed: int = 1):
        self.ideal = ideal
        self.rng = random.Random(seed)
        self.positions: dict[object, tuple[float, float]] = {}     # chip → pad centre (cm)
        self.stack_reads = 0
        self.stack_misses = 0

    # -- geometry ----------------------------------------------------------------------------
    def put(self, chip, at: tuple[float, float]) -> None:
        """Pad centre of ``chip``, in cm on the table."""
        self.positions[chip] = (float(at[0]), float(at[1]))

    def neighbours(self, chip) -> list:
        """Readers whose pads lie within the cross-talk distance of ``chip``'s pad."""
        here = self.positions.get(chip)
        if here is None:
            return []
        return [c for c, at in self.positions.items()
                if c is not chip and math.dist(here, at) < CROSSTALK_CM]

    # -- what a frame meets --------------------------------------------------------------------
    def overheard(self, chip) -> list:
        """Tags on neighbouring pads that hear ``chip``'s frames: their own field powers them."""
        if self.ideal:
            return []
        out = []
        for other in self.neighbours(chip):
            if other.field_on:
                out.extend(t for t in other.tags if t not in chip.tags and t not in out)
        return out

    def stack_miss(self, tag, chip) -> bool:
        """Rolled once per REQA/WUPA for each tag on ``chip``'s pad: is it too detuned to answer?"""
        if self.ideal or len(chip.tags) < 2:
            return False
        p = 1.0
        for other in chip.tags:
            if other is not tag:
                p *= ALIGNED_FACTOR if math.dist(tag.offset, other.offset) < ALIGN_CM else OFFSET_FACTOR
        self.stack_reads += 1
        miss = self.rng.random() >= p
        self.stack_misses += miss
        return miss

    def power_up_delay(self) -> float:
        return 0.0 if self.ideal else self.rng.uniform(*POWER_UP_S)

    def garble(self, bits: list[int]) -> list[int] | None:
        """A reply heard from a neighbouring pad: whole, or shifted by 1–8 bits (#589's "shifted or messed")."""
        roll = self.rng.random()
        if roll >= GARBLE_RATE:
            return bits
        shift = self.rng.randint(1, 8)
        return ([0] * shift + bits)[:len(bits)]



