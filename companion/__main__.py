"""``python3 -m companion …``: bootstrap a checkout, then the command line.

The command line starts at the composition root, ``ui/main.py`` (as the
``companion`` console script does), run by name so that the core imports
neither ``ui`` nor ``hardware``: a launcher, like the console script's entry
point in pyproject.toml.
"""
import runpy
import sys

from companion import bootstrap

if __name__ == "__main__":
    if bootstrap.is_checkout() and not bootstrap.in_project_venv():
        bootstrap.reexec_in_venv(sys.argv[1:])
    runpy.run_module("ui.main", run_name="__main__", alter_sys=True)
