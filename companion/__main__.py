"""``python3 -m companion …``: bootstrap a checkout, then the command line."""
import sys

from companion import bootstrap

if __name__ == "__main__":
    if bootstrap.is_checkout() and not bootstrap.in_project_venv():
        bootstrap.reexec_in_venv(sys.argv[1:])
    from companion.cli import main
    sys.exit(main())
