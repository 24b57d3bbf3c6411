"""The serial reader bridge: a Pico polling up to 16 RC522s, reporting over USB serial (host side here)."""
