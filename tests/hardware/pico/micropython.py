"""A stand-in for MicroPython's ``micropython`` module: reports kbd_intr calls on stderr for the test."""

import sys


def kbd_intr(char):
    print(f"kbd_intr {char}", file=sys.stderr, flush=True)
