"""The Kivy touchscreen app.  Widgets show session state and send actions; they
never talk to a driver (the composition root hands the app a table source)."""
