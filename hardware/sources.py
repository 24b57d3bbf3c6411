"""Which table source the app gets: the factory (the contract is :mod:`hardware.contract`).

The UI never imports this module: the composition root (``ui/main.py``, which
``companion run`` starts) hands the app a source.
"""
from __future__ import annotations

from pathlib import Path

from companion.table import ProfileError
from hardware.contract import TableSource
from hardware.emulator.table import EmulatedTable
from hardware.readers import open_profile_table, reader_specs, spidev_node


def open_table_source(config) -> TableSource:
    """The readers of the table profile, or the simulated table, with the reason in its status.

    * ``--sim``, or no profile: the simulated table (emulated RC522 readers, one per pad);
    * a profile whose readers answer: a :class:`~hardware.polling.PolledTable` on them;
    * a profile whose readers cannot be opened (no SPI on this machine, a bridge
      not plugged in, a reader that does not answer): the simulated table, with
      the profile's pads and a status line that says why.
    """
    if getattr(config, "sim", False):
        return _fallback(EmulatedTable(), "simulated table (--sim)")
    profile = config.profile()
    if profile is None or not profile.raw.get("readers"):
        return _fallback(EmulatedTable(), "simulated table: no table profile with readers")
    if _devices_present(profile):
        # the readers poll in their own supervised process (hardware.supervisor; imported here, as
        # the simulated table needs neither it nor multiprocessing: ~0.5 MB, docs/ui.md)
        from hardware.supervisor import SupervisedTable, profile_readers
        status_path = Path(config.data_dir) / STATUS_FILE if getattr(config, "data_dir", None) else None
        table = SupervisedTable(profile_readers, (profile,), status_path=status_path)
        problems = table.wait_opened()
        if not problems:
            return table
        table.close()
    else:
        # nothing to open on this machine: let the driver say why, in-process (no process to start)
        table, problems = open_profile_table(profile)
        if table is not None:
            return table
    return _fallback(EmulatedTable(profile.pads), "simulated table, because " + "; ".join(problems))


STATUS_FILE = "reader-process.json"       # the supervisor's last word, for `companion doctor`


def _devices_present(profile) -> bool:
    """Does any device node a reader of ``profile`` needs exist here (an spidev node, a bridge's port)?"""
    try:
        specs = reader_specs(profile)
    except ProfileError:
        return False
    for spec in specs:
        if spec.kind == "bridge" and spec.port is None:
            from hardware.bridge.host import find_usb_serial
            node = find_usb_serial(spec.usb_serial)          # a bridge named by its USB serial number
        else:
            node = spec.port if spec.kind == "bridge" else spidev_node(spec, specs)
        if node and Path(node).exists():
            return True
    return False


def _fallback(table, why: str) -> TableSource:
    table.fallback_reason = why
    return table
