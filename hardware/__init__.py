"""Everything that touches the physical world: readers, the reader bridge, the
RC522 emulator, the simulated table, pad debouncing, LEDs and buttons.

Importing this package also spares gpiozero an import it does not need here
(:func:`_defer_importlib_metadata`)."""
import importlib.machinery
import importlib.util
import sys
import types


def _entry_points(**selection):
    from importlib.metadata import entry_points
    return entry_points(**selection)


def _metadata_attribute(name: str):
    if name.startswith("__"):                   # the import system asking (``__path__``…): not a lookup
        raise AttributeError(name)
    import importlib.metadata
    return getattr(importlib.metadata, name)


def _defer_importlib_metadata() -> None:
    """Let gpiozero import without ``importlib.metadata`` until it really asks it something.

    gpiozero 2.0 (``devices.py``, ``pins/mock.py``) imports ``entry_points`` from
    ``importlib_metadata`` — the PyPI backport — when it can, else from the standard
    ``importlib.metadata``, and calls it only to turn a *name* into a class: a pin factory
    named by ``GPIOZERO_PIN_FACTORY`` or by no one (its default list), a mock pin class
    given as a string.  The companion hands gpiozero its factories as objects
    (:mod:`hardware.pins`, the simulated table's ``MockFactory``), so on a table those
    lookups do not happen; the import itself costs 1.3 MB of resident memory
    (``importlib.metadata`` brings ``email``, ``csv``, ``zipfile``, ``calendar``…:
    ``companion bench ui`` after two games: 175.2 → 173.7–174.1 MB; docs/ui.md, "Memory after two games").
    So, unless the backport is installed, its name stands for a module whose
    ``entry_points`` — and any other attribute — imports the standard one when first used:
    every lookup still works (``GPIOZERO_PIN_FACTORY=mock``), only later.
    """
    if "importlib_metadata" in sys.modules or importlib.util.find_spec("importlib_metadata") is not None:
        return                                  # the real backport: gpiozero uses it as it is
    stand_in = types.ModuleType("importlib_metadata",
                                "The standard importlib.metadata, imported when first used (hardware/__init__.py).")
    stand_in.__spec__ = importlib.machinery.ModuleSpec("importlib_metadata", None)
    stand_in.entry_points = _entry_points
    stand_in.__getattr__ = _metadata_attribute
    sys.modules["importlib_metadata"] = stand_in


_defer_importlib_metadata()
