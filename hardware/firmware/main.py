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
LEDS = {"turn": "LED"}  # the board LED on a Pico and a Pico W (GP25 on a Pico only); e.g. "area:castello": 17 too
BUZZER = 15  # a passive piezo between GP15 and ground; None for none
DEBOUNCE_MS = 20  # a key must read the same for this long before it counts
HOLD_MS = 800  # on the 3-button layout, holding ok this long means back
# Updating the firmware (README.md beside this file): the pad leaves the REPL free, without running, when
MAINTENANCE_GPIO = 4 if LAYOUT == "3button" else 14  # ... this key (back; ok on 3 buttons) is held at power-up,
BOOT_WINDOW_MS = 2000  # ... or a Ctrl-C (what mpremote sends) arrives within this long of power-up.

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


poller = select.poll()
poller.register(sys.stdin, select.POLLIN)


def maintenance():
    """Why the firmware must not start (the REPL stays free for mpremote), or None.

    Once running, the firmware ignores Ctrl-C (kbd_intr(-1)): a stray 0x03 from the host must not stop a pad mid-
    game. So the way back to the REPL is decided here, at power-up: the maintenance key held down (read twice,
    20 ms apart, against contact bounce), or a Ctrl-C within BOOT_WINDOW_MS. With Ctrl-C enabled, MicroPython's USB
    driver raises KeyboardInterrupt on it, which ends main.py just the same; reading it here covers the other case.
    Other bytes (the host's "?") are dropped: HELLO follows the window anyway.
    """
    key = pins.get(MAINTENANCE_GPIO)
    if key is not None and key.value() == 0:
        time.sleep_ms(DEBOUNCE_MS)
        if key.value() == 0:
            return "key held at power-up"
    deadline = time.ticks_add(time.ticks_ms(), BOOT_WINDOW_MS)
    while time.ticks_diff(deadline, time.ticks_ms()) > 0:
        while poller.poll(0):
            if sys.stdin.read(1) == "\x03":
                return "Ctrl-C at power-up"
        time.sleep_ms(10)
    return None


reason = maintenance()
if reason is not None:  # main.py ends here; MicroPython then starts its REPL
    for led in leds.values():
        led.value(1)
    write(("E maintenance: %s; firmware stopped, REPL free\n" % reason).encode())
    RUNNING = False
else:
    micropython.kbd_intr(-1)  # from now on a stray Ctrl-C byte from the host must not stop the firmware
    RUNNING = True

pad_id = "".join("%02x" % b for b in machine.unique_id())
core = PadCore(pad_id, LAYOUT, random.getrandbits(16), write, now_ms, set_led, beep)
if RUNNING:
    core.hello()

stable = dict.fromkeys(pins, 1)  # 1 = released (pull-up)
changed_at = dict.fromkeys(pins)
pressed_at = dict.fromkeys(pins, 0)
held = dict.fromkeys(pins, False)

while RUNNING:
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
