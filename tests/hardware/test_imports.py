"""What the hardware package costs to import: gpiozero without importlib.metadata until a name is looked up."""
import os
import subprocess
import sys

# A fresh interpreter: this one (pytest, pluggy) has imported importlib.metadata long ago.
PROBE = """
import sys
from hardware.emulator.table import EmulatedTable
table = EmulatedTable(["north"])                 # a pad's reader: its reset line on gpiozero's MockFactory
table.start(lambda event: None)
table.place("north", "04A1B2C3D4E5F6")
print("after a card on the simulated table:", "importlib.metadata" in sys.modules)
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin
assert MockFactory(pin_class="mockpwmpin").pin_class is MockPWMPin     # a pin class named: an entry point
print("after a lookup by name:", "importlib.metadata" in sys.modules)
import os
os.environ["GPIOZERO_PIN_FACTORY"] = "mock"
print("GPIOZERO_PIN_FACTORY=mock:", type(Device._default_pin_factory()).__name__)
table.close()
"""


def test_gpiozero_imports_importlib_metadata_only_when_it_looks_a_name_up():
    """gpiozero imports ``importlib.metadata`` (1.3 MB resident with the email, csv and zipfile
    modules it brings) only to turn names into pin factories and pin classes, which the companion
    hands over as objects; ``hardware/__init__.py`` defers that import to the first lookup, and
    every lookup still works."""
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "GPIOZERO_PIN_FACTORY": ""})
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.splitlines() == ["after a card on the simulated table: False",
                                       "after a lookup by name: True",
                                       "GPIOZERO_PIN_FACTORY=mock: MockFactory"]
