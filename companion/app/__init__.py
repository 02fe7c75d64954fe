"""The composition root: the App builds the hardware, display, store, web pads and game flow the settings name, and
runs the one game thread (app.py); the store's saver for the flow (saver.py); phones wired in (phones.py); the
unfinished game resumed after a restart, or set aside when it cannot be (resume.py).

Everything below may be imported here: the game flow, the web pads, the store, the system glue, the bots, display/
and hardware/. Only the command line imports the App.
"""

from .app import App

__all__ = ["App"]
