"""Computer players: easy, normal and hard (players.py), and how much the hard one may think on this machine
(calibration.py).

Beside the game flow, above the engine: a player sees only what its seat may see (a view of public facts, its own
markers, and worlds in which everything it cannot know is drawn at random) and imports nothing but the engine.
"""

from .players import YEAR_WORK, Bot, BotView, EasyBot, HardBot, NormalBot, make_bot, make_view

__all__ = ["YEAR_WORK", "Bot", "BotView", "EasyBot", "HardBot", "NormalBot", "make_bot", "make_view"]
