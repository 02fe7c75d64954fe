# Doge keypad firmware for a Raspberry Pi Pico (MicroPython). Copy main.py and padcore.py to the Pico.
# Protocol: docs/pad-protocol.md. Wiring: README.md beside this file. Edit the tables below to match your build.
import random
import select
import sys
import time

import machine
import micropython
from padcore import PadCore

LAYOUT = "keypad"  # "keypad" (the table below) or "3button" (left, right, ok on GP2, GP3, GP4; hold ok = back)
KEYS = {  # GPIO -> key; each key switches its GPIO to ground (internal pull-ups)
    2: "area:cannaregio",
    3: "area:castello",
    4: "area:dorsoduro",
    5: "area:san_marco",
    6: "area:san_polo",
    7: "area:santa_croce",
    8: "area:quarantia",
    9: "marker:0",
    10: "marker:1",
    11: "marker:2",
    12: "marker:3",
    13: "ok",
    14: "back",
}
if LAYOUT == "3button":
    KEYS = {2: "left", 3: "right", 4: "ok"}
LEDS = {"turn": 25}  # 25 is the Pico's own LED; add e.g. "area:castello": 17 for an LED per key
BUZZER = 15  # a passive piezo between GP15 and ground; None for none
DEBOUNCE_MS = 20  # a key must read the same for this long before it counts
HOLD_MS = 800  # on the 3-button layout, holding ok this long means back

micropython.kbd_intr(-1)  # a stray Ctrl-C byte from the host must not stop the firmware

pins = {gpio: machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP) for gpio in KEYS}
leds = {name: machine.Pin(gpio, machine.Pin.OUT, value=0) for name, gpio in LEDS.items()}
led_state = dict.fromkeys(leds, "off")
buzzer = machine.PWM(machine.Pin(BUZZER)) if BUZZER is not None else None
beep_until = 0


def set_led(target, state):
    for name in leds if target == "all" else [target]:
        if name in leds:
            led_state[name] = state
            leds[name].value(1 if state == "on" else 0)


def beep(ms):
    global beep_until
    if buzzer is not None:
        buzzer.freq(2000)
        buzzer.duty_u16(32768)
        beep_until = time.ticks_add(time.ticks_ms(), ms)


def write(data):
    sys.stdout.write(data.decode())


def now_ms():
    return time.ticks_ms()


pad_id = "".join("%02x" % b for b in machine.unique_id())
core = PadCore(pad_id, LAYOUT, random.getrandbits(16), write, now_ms, set_led, beep)
core.hello()

stable = dict.fromkeys(pins, 1)  # 1 = released (pull-up)
changed_at = dict.fromkeys(pins)
pressed_at = dict.fromkeys(pins, 0)
held = dict.fromkeys(pins, False)
poller = select.poll()
poller.register(sys.stdin, select.POLLIN)

while True:
    now = time.ticks_ms()
    for gpio, pin in pins.items():
        raw = pin.value()
        if raw == stable[gpio]:
            changed_at[gpio] = None
        elif changed_at[gpio] is None:
            changed_at[gpio] = now
        elif time.ticks_diff(now, changed_at[gpio]) >= DEBOUNCE_MS:
            stable[gpio] = raw
            changed_at[gpio] = None
            key = KEYS[gpio]
            if raw == 0:
                pressed_at[gpio] = now
                held[gpio] = False
                if not (LAYOUT == "3button" and key == "ok"):
                    core.key(key)
            elif LAYOUT == "3button" and key == "ok" and not held[gpio]:
                core.key("ok")
        is_ok_down = LAYOUT == "3button" and KEYS[gpio] == "ok" and stable[gpio] == 0
        if is_ok_down and not held[gpio] and time.ticks_diff(now, pressed_at[gpio]) >= HOLD_MS:
            held[gpio] = True
            core.key("back")
    while poller.poll(0):
        core.feed(sys.stdin.read(1).encode())
    core.tick()
    for name, state in led_state.items():
        if state == "blink":
            leds[name].value((now // 250) % 2)
    if buzzer is not None and beep_until and time.ticks_diff(now, beep_until) >= 0:
        buzzer.duty_u16(0)
        beep_until = 0
    time.sleep_ms(2)
