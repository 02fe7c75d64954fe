"""A stand-in for MicroPython's ``machine`` on a Pico, for running the real firmware under CPython.

Key levels come from the JSON file ``$PICO_PINS`` (``{"gpio": level}``; missing pins read 1, released, as the
pull-ups make them); the test rewrites it to press and release keys. It is re-read at most every 2 ms, about as
often as the firmware's loop scans. Outputs are reported on stderr (``pin LED 1``) for the test to read.
"""

import json
import os
import sys
import time

_levels = {}
_read_at = 0.0


def _level(gpio):
    global _levels, _read_at
    if time.monotonic() - _read_at > 0.002:
        try:
            with open(os.environ["PICO_PINS"]) as file:
                _levels = {int(key): value for key, value in json.load(file).items()}
        except (OSError, ValueError):
            pass  # the test is rewriting it: keep the last levels
        _read_at = time.monotonic()
    return _levels.get(gpio, 1)


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, gpio, mode=IN, pull=None, value=None):
        # A Pico W: its board LED hangs off the wireless chip, reached only by the name "LED" (MicroPython's name for
        # the board LED on every Pico); GP25 is the wireless chip's SPI select there, not an LED.
        if gpio == 25:
            raise ValueError("Pin(25) on a Pico W is the wireless chip's, not the LED: use Pin('LED')")
        if isinstance(gpio, str) and gpio != "LED":
            raise ValueError(f"unknown pin name {gpio!r}")
        self.gpio = gpio
        self.mode = mode
        if value is not None:
            self.value(value)

    def value(self, level=None):
        if level is None:
            return _level(self.gpio)
        print(f"pin {self.gpio} {level}", file=sys.stderr, flush=True)
        return None


class PWM:
    def __init__(self, pin):
        self.pin = pin

    def freq(self, hz):
        pass

    def duty_u16(self, duty):
        print(f"pwm {self.pin.gpio} {duty}", file=sys.stderr, flush=True)


def unique_id():
    return bytes([0xE6, 0x61, 0x04, 0x08, 0x43, 0x2A, 0x1B, 0x2C])
