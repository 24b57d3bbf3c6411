"""The window ``companion run`` shows instead of the app when the games database cannot be used.

A kiosk has no terminal: a database that is damaged, another program's, from a
newer companion, or held by another running companion must be said on the
screen, and the app must not exit and be restarted in a loop by systemd.  The
window says what is wrong in one sentence and, when moving the file aside is
the cure, offers it (the old file is kept beside the new one).  It stays up
until someone answers: *Move it aside* moves the file and closes (the next
start, by hand or by systemd, begins with an empty database); *Quit* closes.
"""
from __future__ import annotations

from typing import Callable

#: Called with the app once its window is up (tests press its buttons through this).
on_first_frame: list[Callable] = []


def show_fault(config, error, move_aside: Callable) -> str:
    """Show ``error`` (a :class:`companion.session.StoreError`) until answered; returns "moved" or "quit".

    ``move_aside(path)`` moves the database aside and returns where it went (or
    raises ``OSError``/``RuntimeError`` with a sentence).
    """
    from ui.app import configure_kivy
    configure_kivy(config.size, config.fullscreen)
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.label import Label
    from kivy.utils import escape_markup

    class FaultApp(App):
        title = "Tabletop companion"
        result = "quit"

        def build(self):
            root = BoxLayout(orientation="vertical", padding=24, spacing=16)
            head = "The games cannot be opened."
            # On screen the button below is the offer; the CLI's "run 'companion repair'" is for terminals.
            said = str(error).split("; run 'companion repair'")[0]
            self.message = Label(text=f"[b]{head}[/b]\n\n{escape_markup(said)}", markup=True, halign="center",
                                 valign="middle", font_size="20sp")
            self.message.bind(size=lambda label, size: setattr(label, "text_size", size))
            root.add_widget(self.message)
            buttons = BoxLayout(size_hint_y=None, height=88, spacing=16)
            self.buttons = {}
            if getattr(error, "move_aside", False):
                self.buttons["move"] = Button(text="Move it aside and start afresh\n(the old file is kept)",
                                              halign="center", font_size="18sp")
                self.buttons["move"].bind(on_release=lambda *_: self.move())
                buttons.add_widget(self.buttons["move"])
            self.buttons["quit"] = Button(text="Quit", font_size="18sp", size_hint_x=0.4)
            self.buttons["quit"].bind(on_release=lambda *_: self.stop())
            buttons.add_widget(self.buttons["quit"])
            root.add_widget(buttons)
            return root

        def on_start(self):
            Clock.schedule_once(lambda _dt: [hook(self) for hook in on_first_frame], 0.5)

        def press(self, name: str) -> None:
            self.buttons[name].dispatch("on_release")

        def move(self) -> None:
            try:
                kept = move_aside(error.path)
            except (OSError, RuntimeError) as exc:
                self.message.text = f"[b]The file could not be moved.[/b]\n\n{escape_markup(str(exc))}"
                return
            self.result = "moved"
            self.message.text = (f"[b]Moved aside.[/b]\n\nThe old file is kept as {escape_markup(str(kept))}.\n"
                                 f"The companion starts with an empty database next time.")
            self.buttons.pop("move").disabled = True
            Clock.schedule_once(lambda _dt: self.stop(), 2.0)

    app = FaultApp()
    app.run()
    return app.result
