"""LEDs and buttons driven by session state (placeholder until the outputs issue lands)."""
from __future__ import annotations


class NoOutputs:
    """A table without LEDs or buttons."""

    def attach(self, session, act=None) -> None:
        pass

    def close(self) -> None:
        pass


def open_outputs(config):
    return NoOutputs()
