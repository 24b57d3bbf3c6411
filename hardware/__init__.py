"""Everything that touches the physical world: readers, the reader bridge, the
RC522 emulator, the simulated table, pad debouncing, LEDs and buttons."""
