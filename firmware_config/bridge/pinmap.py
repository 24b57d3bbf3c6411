"""Pico pin map of the reader bridge (GP numbers).  See docs/hardware/bridge.md for the wiring."""
SPI_ID = 0
SPI_HZ = 4000000
SCK, MOSI, MISO = 18, 19, 16
CS_PINS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)   # channel i = GP i
RESET = 20                                                           # shared by all readers
UPDATE_PIN = 22                                                      # held to GND at boot: update mode
FIELDS = "switched"     # "switched": a reader's field is on only while its pad is read; "on": always on
