"""``companion bench files``: the file-side attacks of issue 24, each run in a child process and
measured the same way — inputs tried, tracebacks, data lost, the longest time to a verdict and
the peak memory (the child's own ``ru_maxrss`` from ``wait4``) — printed as JSON.

Families: hostile records (``replay``), hostile card files (``price``), output paths that
cannot be written (``export -o`` with an old file in place), exports of a game in progress
(hidden cards), seeds at and beyond the 64-bit range and solo options (``simulate``).  The
kiosk unit's ``systemd-analyze security`` score is added where systemd-analyze runs.
"""
from __future__ import annotations

import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion import records

CLI = [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())"]
HEAD = '{"format": "tabletop-companion-record", "version": 1, "game": "sams", "seed": 1, "actions": [], "summary": '


#: Started between the bench and the measured child.  Linux keeps a process's peak RSS across
#: exec(), and a child forked (or vforked) from a big process starts with that process's pages
#: counted; so a small launcher spawns the command and reports the command's own ``ru_maxrss``
#: (an overestimate by at most the launcher's ~10 MB) as the last line of stderr.
LAUNCHER = """
import os, sys
pid = os.posix_spawn(sys.executable, [sys.executable, *sys.argv[1:]], os.environ)
_pid, status, usage = os.wait4(pid, 0)
sys.stderr.write(f"\\nmaxrss_kb={usage.ru_maxrss}\\n")
sys.exit(os.waitstatus_to_exitcode(status))
"""


def measured(args: list[str], prefix=(), preexec=None) -> dict:
    """``companion ARGS`` in a child: its exit status, seconds, peak RSS in MB (its own), whether it
    printed a traceback, the last line it said, and its stdout."""
    start = time.perf_counter()
    done = subprocess.run([*prefix, sys.executable, "-c", LAUNCHER, *CLI[1:], *args], capture_output=True,
                          preexec_fn=preexec, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    seconds = time.perf_counter() - start
    err = done.stderr.decode("utf-8", "replace")
    err, _, peak = err.rpartition("maxrss_kb=")
    return {"exit": done.returncode, "seconds": round(seconds, 2),
            "peak_mb": round(int(peak) / 1024, 1) if peak.strip().isdigit() else None,
            "traceback": "Traceback" in err, "said": (err.strip().splitlines() or [""])[-1],
            "out": done.stdout.decode("utf-8", "replace")}


def _family(results: dict[str, dict], lost: int = 0) -> dict:
    return {"inputs": len(results), "tracebacks": sum(r["traceback"] for r in results.values()),
            "data_lost": lost, "longest_s": max(r["seconds"] for r in results.values()),
            "peak_mb": max(r["peak_mb"] for r in results.values()),
            "cases": {name: {k: v for k, v in r.items() if k != "out"} for name, r in results.items()}}


def hostile_records(folder: Path) -> dict:
    cap = records.MAX_BYTES - len(HEAD) - 10
    nodes = records.MAX_NODES
    texts = {
        "empty-lists-20MB": "[" + "[],"[:3] * (cap // 3 - 1) + "[]]",
        "empty-objects-20MB": "[" + "{},"[:3] * (cap // 3 - 1) + "{}]",
        "short-strings-at-cap": "[" + ",".join(f'"{i:06x}"' for i in range(nodes - 50)) + "]",
        "short-strings-over-cap": "[" + ",".join(f'"{i:06x}"' for i in range(2 * nodes)) + "]",
        "big-ints-at-cap": "[" + ",".join(str(10 ** 7 + i) for i in range(nodes - 50)) + "]",
        "objects-at-cap": "[" + ",".join(['{"k":1}'] * (nodes // 4 - 50)) + "]",
        "nested-20MB": "[" * cap,
        "one-19MB-string": '"' + "x" * (cap - 2) + '"',
        "commas-in-strings": "[" + ",".join(['",,,,,,,,,,:::::::[[[[{{{{"'] * (cap // 30)) + "]",
        "long-number": "1" * 5000,
    }
    results = {}
    for name, body in texts.items():
        path = folder / f"{name}.json"
        text = HEAD + body + "}"
        path.write_text(text[:records.MAX_BYTES - 2] + "}" if len(text) > records.MAX_BYTES else text)
        results[name] = measured(["replay", str(path)])
    normal = folder / "normal.json"
    measured(["simulate", "--game", "lifeforce", "--seed", "2", "--export", str(normal)])
    results["normal-lifeforce-record"] = measured(["replay", str(normal)])
    out = _family(results)
    out["record_bytes_normal"] = normal.stat().st_size
    return out


def hostile_card_files(folder: Path) -> dict:
    texts = {
        "empty-lists-5MB": '{"cards": [' + ",".join(["[]"] * 1_600_000) + "]}",
        "objects-over-cap": '{"cards": [' + ",".join(['{"a": []}'] * 300_000) + "]}",
        "nested": "[" * 1_000_000,
    }
    results = {}
    for name, text in texts.items():
        path = folder / f"{name}.json"
        path.write_text(text)
        results[name] = measured(["price", str(path)])
    return _family(results)


def output_paths(folder: Path, data: Path) -> dict:
    """``export -o`` of a finished game onto paths that cannot take it, each with an old file to keep."""
    good = '{"old": "good"}\n'
    results, lost = {}, 0

    def case(name, target: Path | str, keep: Path | None, prefix=(), preexec=None):
        nonlocal lost
        if keep is not None:
            keep.write_text(good)
        results[name] = measured(["--data-dir", str(data), "export", "1", "-o", str(target)], prefix, preexec)
        if keep is not None and keep.read_text() != good:
            lost += 1
        scraps = [p.name for p in Path(keep or folder).parent.iterdir() if p.name.endswith(".tmp")] \
            if keep is not None else []
        lost += len(scraps)

    case("dev-full", "/dev/full", None)
    case("a-directory", folder, None)
    case("missing-folder", folder / "no" / "such" / "x.json", None)
    case("trailing-slash", str(folder) + "/", None)
    small = folder / "small"
    small.mkdir()
    case("file-size-limit-36KiB", small / "old.json", small / "old.json",
         preexec=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (36864, 36864)))
    locked = folder / "locked"
    locked.mkdir()
    (locked / "old.json").write_text(good)
    locked.chmod(0o555)
    if os.geteuid() != 0 or shutil.which("setpriv"):
        case("permission-denied", locked / "old.json", locked / "old.json",
             prefix=["setpriv", "--bounding-set=-dac_override,-dac_read_search"] if os.geteuid() == 0 else [])
    locked.chmod(0o755)
    return _family(results, lost)


def hidden_exports(folder: Path) -> dict:
    """An unfinished solo game exported without and with --include-hidden: what leaks."""
    from companion.session import Session, Store
    from companion.simulate import SimulationError, play_random, register_virtual_tags
    data = folder / "hidden"
    with Store(data / "companion.sqlite3") as store:
        register_virtual_tags(store, "sams")
        session = Session.start(store, "sams", {"solo_seat": 1}, seed=5)
        try:
            play_random(session, seed=5, max_actions=12)
        except SimulationError:
            pass
        held = [c for c in session.state["solo"]["slots"] if c]
    plain = measured(["--data-dir", str(data), "export", "1"])
    asked = measured(["--data-dir", str(data), "export", "1", "--include-hidden", "-o", str(folder / "h.json")])
    results = {"without-flag": plain, "with-include-hidden": asked}
    out = _family(results)
    out["held_cards"] = len(held)
    out["held_cards_in_plain_export"] = sum(card in plain["out"] for card in held)
    out["export_mode_with_flag"] = oct((folder / "h.json").stat().st_mode & 0o777)
    return out


def seeds_and_solo(folder: Path) -> dict:
    results = {}
    for seed in ((1 << 63) - 1, 1 << 63, (1 << 64) - 1, 1 << 64, -(1 << 63) - 1):
        results[f"simulate-seed-{seed}"] = measured(["simulate", "--game", "vitaluna", "--seed", str(seed)])
        path = folder / f"seed-{seed}.json"
        path.write_text(json.dumps({"format": records.FORMAT, "version": 1, "game": "vitaluna", "seed": seed,
                                    "actions": []}))
        results[f"simulate-record-seed-{seed}"] = measured(["simulate", "--record", str(path)])
    for game in ("sams", "lifeforce"):
        for seat in (0, 1):
            results[f"simulate-{game}-solo_seat={seat}"] = measured(
                ["simulate", "--game", game, "--seed", "2", "--option", f"solo_seat={seat}"])
    return _family(results)


def unit_exposure(folder: Path) -> dict:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        return {"skipped": "systemd-analyze is not installed"}
    repo = Path(__file__).resolve().parents[1]
    root = folder / "root"
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "boot" / "firmware" / "config.txt").write_text("dtparam=audio=on\n")
    (root / "etc").mkdir()
    home = '/home/a b&c|d"e%f\\g'
    (root / "etc" / "passwd").write_text(f"pi:x:1000:1000::{home}:/bin/sh\n")
    subprocess.run(["sh", str(repo / "firmware_config" / "pi" / "install.sh"), "--root", str(root), "--user", "pi",
                    "--app-dir", str(repo)], check=True, capture_output=True)
    unit = root / "etc" / "systemd" / "system" / "tabletop-companion.service"
    done = subprocess.run([analyze, "security", "--offline=true", "--no-pager", str(unit)], capture_output=True,
                          text=True)
    score = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
    return {"home": home, "exposure": float(score.group(1)) if score else None,
            "read_write_paths": re.findall(r"^ReadWritePaths=(.*)$", unit.read_text(), re.M)}


def bench_files() -> dict:
    from companion.simulate import simulate
    with tempfile.TemporaryDirectory(prefix="bench-files-") as scratch:
        folder = Path(scratch)
        data = folder / "data"
        simulate(game="lifeforce", seed=4, data_dir=str(data))          # game #1, finished
        families = {"records": hostile_records(folder), "card_files": hostile_card_files(folder),
                    "output_paths": output_paths(folder, data), "hidden_exports": hidden_exports(folder),
                    "seeds_and_solo": seeds_and_solo(folder)}
        families["unit"] = unit_exposure(folder)
    totals = [f for f in families.values() if "inputs" in f]
    families["all"] = {"inputs": sum(f["inputs"] for f in totals), "tracebacks": sum(f["tracebacks"] for f in totals),
                       "data_lost": sum(f["data_lost"] for f in totals),
                       "longest_s": max(f["longest_s"] for f in totals), "peak_mb": max(f["peak_mb"] for f in totals)}
    return families
