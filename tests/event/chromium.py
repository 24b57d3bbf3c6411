"""Headless Chromium for the event's pages: the DOM after scripts ran, and screenshots."""
import shutil
import subprocess
import tempfile

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        raise RuntimeError("Chromium is not installed: run the tests with 'python3 -m companion test', "
                           "which installs it")
    return path


def run(url: str, *extra: str, timeout: float = 60) -> str:
    with tempfile.TemporaryDirectory(prefix="chromium-") as profile:
        out = subprocess.run([chromium(), *FLAGS, f"--user-data-dir={profile}", *extra, url],
                             capture_output=True, text=True, timeout=timeout)
    return out.stdout


def dom(path, after_ms: int = 3000) -> str:
    """The page's DOM as Chromium has it after its scripts ran for ``after_ms`` of virtual time."""
    return run(f"file://{path}", f"--virtual-time-budget={after_ms}", "--dump-dom")


def screenshot(path, png, size="1920,1080") -> None:
    run(f"file://{path}", f"--screenshot={png}", f"--window-size={size}", "--hide-scrollbars",
        "--virtual-time-budget=3000")
