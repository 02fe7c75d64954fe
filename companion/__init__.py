"""Doge Companion: runs the fiddly and secret parts of the board game *Doge* beside the physical board."""

__version__ = "0.1.0"
