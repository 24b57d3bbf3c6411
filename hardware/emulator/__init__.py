"""A register-level MFRC522 emulator and virtual ISO 14443-3 tags, with a time model and fault injection."""
from hardware.emulator.chip import EmulatedRC522, Faults, ModelClock
from hardware.emulator.physics import Physics
from hardware.emulator.tags import VirtualTag

__all__ = ["EmulatedRC522", "Faults", "ModelClock", "Physics", "VirtualTag"]
