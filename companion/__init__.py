"""Doge Companion: runs the fiddly and secret parts of the board game *Doge* beside the physical board."""

__version__ = "0.1.0"
# No earlier day than this can be a real one on a device running this version: a Pi has no clock of its own, and
# before its time is synchronised it starts at systemd's built-in epoch. A stamp before it is shown as "date unknown"
# (flow/modes/evening.py's ``known_time``). Move it with each release, never past a release's own day.
RELEASED = "2026-11-22"
