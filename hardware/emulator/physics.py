"""What the ideal emulator leaves out: stacked tags detune, neighbouring fields cross-talk, tags need time.

A :class:`Physics` is shared by the emulated readers of one table (it knows
where their pads lie) and consulted by :class:`~hardware.emulator.EmulatedRC522`
whenever a frame goes on the air.  Every number below comes from a public
measurement or a standard; docs/hardware/emulator.md quotes each source.

Stacked tags (Core Electronics forum, "PiicoDev RFID Module (NFC 13.56MHz) Max Cards")
    A PiicoDev (MFRC522) user: selecting one card of two on the reader works
    ("either one - no problem"); "when 3 or more tags are on the reader, I get
    nothing, just a time out ... no data, no bit collision location".  So two
    tags on a pad each answer a REQA/WUPA round with probability
    ``TWO_STACK_ANSWER`` (0.95: "no problem", less a guessed margin), and with
    ``PILE_TAGS`` (3) or more the anticollision and SELECT frames time out.
    The tags still answer REQA/WUPA with their (identical) ATQA: the report
    does not say, and that is how the driver can tell a pile from an empty pad
    (our assumption; the walkthrough measures it on a built table).

Cross-talk (miguelbalboa/rfid#589)
    RC522s 80 mm apart, fields always on, each on its own Arduino: the free
    readers read the other pads' tags "in a random way, some times nothing,
    some times fully UID (7 bytes) sometimes UID is shifted or messed", about
    100 false reads an hour.  A tag on pad B, powered by B's field, is heard
    by reader A for one whole REQA/WUPA round with probability
    ``crosstalk_p(d)`` = ``CROSSTALK_P_80MM`` × (8 cm / d)⁶, capped at 1: 100
    an hour from a library loop of about 40 polls a second (its 25 ms timeout)
    on one or two free readers is 5e-4 a poll; the sixth power is the
    near-field dipole approximation (mutual inductance ∝ 1/d³, so power ∝
    1/d⁶) — a textbook shape, not a measurement.  It falls smoothly: no cliff.
    A heard reply is garbled (shifted by 1–8 bits) with probability
    ``GARBLE_RATE`` (a guess: #589 lists garbled replies first), else whole.
    When B's field is off the tag has no power and A, too far away to power
    it, hears nothing.

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


TWO_STACK_ANSWER = 0.95
PILE_TAGS = 3
CROSSTALK_P_80MM = 5e-4
GARBLE_RATE = 0.6
FAR_CM = 40.0            # beyond this a neighbour's tag is never heard (p < 1e-8)


def crosstalk_p(distance_cm: float) -> float:
    """The chance that a tag powered on a pad ``distance_cm`` away is heard for one REQA/WUPA round."""
    if distance_cm <= 0:
        return 1.0
    return min(1.0, CROSSTALK_P_80MM * (8.0 / distance_cm) ** 6)
POWER_UP_S = (0.5e-3, 5.0e-3)


class Physics:
    """The realistic model (``Physics()``) or the ideal one (``Physics(ideal=True)``)."""

    def __init__(self, ideal: bool = False, seed: int = 1):
        self.ideal = ideal
        self.rng = random.Random(seed)
        self.positions: dict[object, tuple[float, float]] = {}     # chip → pad centre (cm)
        self.stack_reads = 0
        self.stack_misses = 0
        self.crosstalk_rounds = 0          # rounds in which a neighbour's tag was heard
        self._coupled: dict[object, list] = {}     # chip → neighbours' tags heard in its current round

    # -- geometry ----------------------------------------------------------------------------
    def put(self, chip, at: tuple[float, float]) -> None:
        """Pad centre of ``chip``, in cm on the table."""
        self.positions[chip] = (float(at[0]), float(at[1]))

    def neighbours(self, chip) -> list:
        """Readers whose pads lie close enough to ``chip``'s that their tags can ever be heard."""
        here = self.positions.get(chip)
        if here is None:
            return []
        return [c for c, at in self.positions.items()
                if c is not chip and math.dist(here, at) < FAR_CM]

    # -- what a frame meets --------------------------------------------------------------------
    def overheard(self, chip, new_round: bool = False) -> list:
        """Tags on neighbouring pads heard with ``chip``'s frames this round (their own field powers them).

        ``new_round``: a REQA/WUPA starts a round, and who is heard is rolled
        afresh (per neighbouring tag, by its pad's distance); the anticollision
        and SELECT frames of the round meet the same tags.
        """
        if self.ideal:
            return []
        if not new_round:
            return [t for t in self._coupled.get(chip, ()) if t not in chip.tags]
        here = self.positions.get(chip)
        out = []
        for other in self.neighbours(chip):
            if not other.field_on:
                continue
            p = crosstalk_p(math.dist(here, self.positions[other]))
            for t in other.tags:
                if t not in chip.tags and t not in out and self.rng.random() < p:
                    out.append(t)
        self._coupled[chip] = out
        self.crosstalk_rounds += bool(out)
        return out

    def pile(self, chip) -> bool:
        """Too many tags on ``chip``'s pad for anticollision to work: the frames after REQA/WUPA time out."""
        return not self.ideal and len(chip.tags) >= PILE_TAGS

    def stack_miss(self, tag, chip) -> bool:
        """Rolled once per REQA/WUPA for each tag on ``chip``'s pad: is it too detuned to answer?"""
        if self.ideal or len(chip.tags) < 2 or len(chip.tags) >= PILE_TAGS:
            return False                     # a pile answers REQA (its frames after that time out)
        self.stack_reads += 1
        miss = self.rng.random() >= TWO_STACK_ANSWER
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



