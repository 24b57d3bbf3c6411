"""The layering of docs/architecture.md, as import-linter contracts (pyproject.toml, [tool.importlinter]).

The core imports neither ``ui`` nor ``hardware`` (nor a driver or Kivy); the UI
talks to no driver, only its composition root (``ui/main.py``) picks a table
source; ``hardware`` sits below the UI; no game imports another; the reader
contract imports no implementation.
"""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT = Path(sys.executable).parent / "lint-imports"


def lint(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT), "--no-cache", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_every_layering_contract_is_kept():
    done = lint()
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout and "5 kept" in done.stdout


def test_a_broken_contract_fails_the_run(tmp_path):
    """The check can fail: a contract the code breaks (Sam's rules import the engine contract) is reported."""
    config = tmp_path / "broken.toml"
    config.write_text('[tool.importlinter]\nroot_packages = ["companion"]\n\n'
                      '[[tool.importlinter.contracts]]\nname = "Sam\'s without the engine"\ntype = "forbidden"\n'
                      'source_modules = ["companion.games.sams.rules"]\nforbidden_modules = ["companion.engine"]\n')
    done = lint("--config", str(config))
    assert done.returncode == 1
    assert "BROKEN" in done.stdout and "companion.games.sams.rules -> companion.engine" in done.stdout
