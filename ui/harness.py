"""Driving the real app without a person: frames, touches, and everything it shows.

Used by the UI tests, the screenshot script and the benchmark.  Touches go
through the window exactly like a finger's (Kivy's ``UnitTestTouch``), so a
button that is hidden, disabled or covered does not react to them either.
"""
from __future__ import annotations

from kivy.base import EventLoop
from kivy.core.window import Window
from kivy.uix.widget import Widget


def frames(n: int = 2) -> None:
    """Let Kivy run ``n`` frames (clock callbacks, layout, drawing), each after the input road
    has applied what was handed to it (a card placed, a press), so its effects are on screen."""
    for _ in range(n):
        settle()
        EventLoop.idle()


def settle(timeout: float = 10.0) -> None:
    """Until the running app's input road (companion.inputs) has applied everything handed to it."""
    from kivy.app import App
    app = App.get_running_app()
    road = getattr(getattr(app, "controller", None), "road", None)
    if road is not None and not road.join(timeout):
        raise TimeoutError(f"the input road is still busy after {timeout} s")


def tap(widget: Widget) -> None:
    """Touch the middle of ``widget`` and lift the finger, as a player would."""
    from kivy.tests.common import UnitTestTouch
    frames(1)
    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()
    frames(2)


def drag(widget: Widget, to_window_pos: tuple[float, float], steps: int = 5) -> None:
    """Press ``widget``, move to a window position in ``steps``, release."""
    from kivy.tests.common import UnitTestTouch
    frames(1)
    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    tx, ty = to_window_pos
    for i in range(1, steps + 1):
        touch.touch_move(x + (tx - x) * i / steps, y + (ty - y) * i / steps)
        frames(1)
    touch.touch_up()
    frames(2)


def walk(root: Widget | None = None):
    """Every widget on screen: the window's children (screens, popups) and theirs."""
    stack = list((root or Window).children)
    while stack:
        w = stack.pop()
        yield w
        stack.extend(w.children)


def texts(root: Widget | None = None) -> list[str]:
    """The text of every widget on screen (labels, buttons, inputs, hint texts)."""
    out = []
    for w in walk(root):
        for attr in ("text", "hint_text"):
            value = getattr(w, attr, None)
            if isinstance(value, str) and value:
                out.append(value)
    return out


def find(predicate, root: Widget | None = None) -> list[Widget]:
    return [w for w in walk(root) if predicate(w)]


def button(text: str, root: Widget | None = None) -> Widget:
    """The one visible, enabled button whose text is ``text``."""
    from kivy.uix.behaviors import ButtonBehavior
    found = [w for w in walk(root) if isinstance(w, ButtonBehavior) and getattr(w, "text", None) == text
             and not w.disabled and w.opacity > 0]
    if len(found) != 1:
        raise LookupError(f"{len(found)} enabled buttons say {text!r}")
    return found[0]


def screenshot(path) -> None:
    """Save what the window shows now as a PNG at ``path``."""
    from pathlib import Path
    frames(2)
    path = Path(path).resolve()
    saved = Window.screenshot(str(path))          # Kivy appends a counter: <stem>0001.png
    if saved:
        Path(saved).replace(path)
