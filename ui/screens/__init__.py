"""The app's screens, one module (and one ``.kv``) each."""
