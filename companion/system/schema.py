"""What a configuration may hold: every key's check, and the checks across keys (pins used twice, a display's
size and offsets). Each check returns one line that says what is wrong, quoting at most SHOWN characters of the
value, or None."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Mapping
from typing import Any

from display.panels import PANELS, accepts_size, offset_limits
from display.screen import TEXT_SIZES

from ..i18n import _, shown

DISPLAYS = {**{name: panel.native for name, panel in PANELS.items()}, "capture": (320, 240)}
LANGUAGES = ("en", "de", "it")
GPIO_PINS = range(2, 28)  # BCM 2..27 on the 40-pin header; 0 and 1 belong to the HAT EEPROM
SPI0_PINS = {9: "MISO", 10: "MOSI", 11: "SCLK"}
SPI0_CE = {0: 8, 1: 7}
BUS_SPEEDS_MHZ = (0.5, 1, 2, 4, 8, 16, 20, 24, 28, 32, 36, 40, 44, 48, 50, 52)
MAX_TEXT = 1024  # the longest text value: a path on a Pi is far shorter; a huge one once made `run` spin for minutes
MAX_PORTS = 8
DIGITS = sys.get_int_max_str_digits() or 4300
ALSA_DEVICE = re.compile(r"[A-Za-z0-9_.:,=][A-Za-z0-9_.:,=-]{0,63}")  # never "-...": aplay would take an option
SHOWN = 40  # how much of a bad value a problem line repeats: one line, whatever the file holds


Check = Callable[[Any], str | None]  # returns what is wrong, or None


def _integer(low: int, high: int) -> Check:
    def check(value: Any) -> str | None:
        if type(value) is not int:
            return _("must be a whole number, not {show}").format(show=_show(value))
        if not low <= value <= high:
            return _("must be from {low} to {high}, not {value}").format(low=low, high=high, value=_show(value))
        return None

    return check


def _pin(value: Any) -> str | None:
    if type(value) is not int:
        return _("must be a BCM GPIO number (or -1 for none), not {show}").format(show=_show(value))
    if value != -1 and value not in GPIO_PINS:
        return _("GPIO {value} is not a usable pin: choose 2 to 27, or -1 for none").format(value=_show(value))
    return None


def _boolean(value: Any) -> str | None:
    return None if type(value) is bool else _("must be true or false, not {show}").format(show=_show(value))


def _choice(*options: str) -> Check:
    def check(value: Any) -> str | None:
        if value in options and type(value) is str:
            return None
        return _("unknown value {show} (choose {value})").format(show=_show(value), value=", ".join(options))

    return check


def _display(value: Any) -> str | None:
    if type(value) is str and value in DISPLAYS:
        return None
    return _("unknown display {show} (choose {value})").format(show=_show(value), value=", ".join(DISPLAYS))


def _speed(value: Any) -> str | None:
    if type(value) in (int, float) and type(value) is not bool and value in (0, *BUS_SPEEDS_MHZ):
        return None
    return _("must be one of {value} (MHz), not {show}").format(
        value=", ".join(f"{s:g}" for s in (0, *BUS_SPEEDS_MHZ)), show=_show(value)
    )


def _text(value: Any) -> str | None:
    if type(value) is not str:
        return _("must be text in quotes, not {show}").format(show=_show(value))
    return _bounded(value)


def _bounded(value: str) -> str | None:
    """Every text the companion takes from the config is short and printable."""
    if len(value) > MAX_TEXT:
        return _("is {length} characters long (at most {limit})").format(length=len(value), limit=MAX_TEXT)
    if not value.isprintable():
        return _("must not contain control characters, not {show}").format(show=_show(value))
    return None


def _directory(value: Any) -> str | None:
    """A folder: "~/x" and "~doge/x" need a home directory that exists for that user on this machine."""
    problem = _text(value)
    if problem is None and value.startswith("~"):
        try:
            expanded = os.path.expanduser(value)
        except RuntimeError:  # no HOME and no password entry
            expanded = value
        if expanded.startswith("~"):
            user = value[1:].split("/", 1)[0]
            return _("{show}: this machine has no user {user} whose home it could be").format(
                show=_quote(value), user=_quote(user or "$HOME")
            )
    return problem


def _serial(value: Any) -> str | None:
    if value in ("auto", "off"):
        return None
    if type(value) is list and all(type(port) is str and port for port in value):
        if len(value) > MAX_PORTS:
            return _("lists {length} ports (at most {limit})").format(length=len(value), limit=MAX_PORTS)
        for port in value:
            problem = _bounded(port)
            if problem:
                return problem
        missing = [port for port in value if not os.path.exists(port)]
        if missing:
            return _('serial port {item} does not exist (is the pad plugged in? or use "auto")').format(
                item=shown(missing[0], SHOWN)
            )
        return None
    return _('must be "auto", "off" or a list of serial ports, not {show}').format(show=_show(value))


def _bind(value: Any) -> str | None:
    """An address of this machine to listen on: an IPv4 or IPv6 address ("0.0.0.0": every network)."""
    import ipaddress

    if type(value) is str and len(value) <= 64:
        try:
            ipaddress.ip_address(value)
            return None
        except ValueError:
            pass
    return _('must be an IP address such as "0.0.0.0" (every network) or "127.0.0.1", not {show}').format(
        show=_show(value)
    )


def _alsa_device(value: Any) -> str | None:
    """An ALSA device name as ``aplay -D`` takes it; whether it can play is found at start, not here."""
    if type(value) is not str:
        return _("must be text in quotes, not {show}").format(show=_show(value))
    if not ALSA_DEVICE.fullmatch(value):
        return _(
            '{show} is not an ALSA device name (e.g. "default", "plughw:CARD=Headphones"; aplay -L lists them)'
        ).format(show=_show(value))
    return None


GPIO_PAD: dict[str, Check] = {"left": _pin, "right": _pin, "ok": _pin, "led": _pin}
SCHEMA: dict[str, Any] = {
    "hardware": _choice("pi", "mock"),
    "game": {
        "language": _choice(*LANGUAGES),
        "players": _integer(3, 4),
        "cues": _boolean,
        "entry": _choice("private", "keypads"),
        "bot_level": _choice("easy", "normal", "hard"),
        "bot_pause_ms": _integer(0, 10000),
        "bot_work": _integer(0, 1_000_000_000),
        "state_dir": _directory,
    },
    "display": {
        "driver": _display,
        "width": _integer(0, 1024),
        "height": _integer(0, 1024),
        "rotate": _integer(0, 3),
        "bgr": _boolean,
        "inverse": _boolean,
        "h_offset": _integer(0, 1024),
        "v_offset": _integer(0, 1024),
        "spi_port": _integer(0, 1),
        "spi_device": _integer(0, 1),
        "bus_speed_mhz": _speed,
        "dc_pin": _pin,
        "reset_pin": _pin,
        "backlight_pin": _pin,
        "backlight_active_low": _boolean,
        "text_size": _choice(*TEXT_SIZES),
        "page_seconds": _integer(0, 60),
    },
    "buttons": {
        "left": _pin,
        "right": _pin,
        "ok": _pin,
        "back": _pin,
        "bounce_ms": _integer(0, 500),
        "hold_ms": _integer(100, 10000),
        "shutdown_hold_s": _integer(0, 60),
    },
    "pads": {"serial": _serial, "hold_ms": _integer(100, 10000), "gpio": [GPIO_PAD]},
    "buzzer": {"pin": _pin, "tonal": _boolean},
    "web": {"enabled": _boolean, "port": _integer(1024, 65535), "bind": _bind},
    "sound": {
        "voice": _choice("on", "off"),
        "rate": _integer(80, 300),
        "volume": _integer(0, 100),
        "device": _alsa_device,
    },
}


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _quote(value)
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    try:
        return shown(repr(value), SHOWN)
    except ValueError:  # TOML's hex allows more digits than repr() converts (sys.get_int_max_str_digits())
        return _("a number of about {count} digits").format(count=int(value.bit_length() * 0.30103) + 1)


def _quote(text: str) -> str:
    """A value as a problem line shows it: in quotes, control characters escaped, at most SHOWN characters."""
    return f'"{shown(text, SHOWN)}"'


def validate(data: Mapping[str, Any], schema: Mapping[str, Any], prefix: str, problems: list[str]) -> None:
    for key, value in data.items():
        path = f"{prefix}{key}" if key in schema else f"{prefix}{_quote(key)[1:-1]}"
        rule = schema.get(key)
        if rule is None:
            known = ", ".join(schema)
            problems.append(_("{path}: unknown key (known here: {known})").format(path=path, known=known))
        elif isinstance(rule, dict):
            if not isinstance(value, dict):
                problems.append(_("{path}: must be a table [{path}], not {show}").format(path=path, show=_show(value)))
            else:
                validate(value, rule, f"{path}.", problems)
        elif isinstance(rule, list):
            if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
                problems.append(
                    _("{path}: must be a list of tables [[{path}]], not {show}").format(path=path, show=_show(value))
                )
                continue
            for index, item in enumerate(value):
                validate(item, rule[0], f"{path}[{index}].", problems)
                for needed in ("left", "right", "ok"):
                    if needed not in item:
                        problems.append(
                            _("{path}[{index}].{needed}: missing (a 3-button pad needs left, right, ok)").format(
                                path=path, index=index, needed=needed
                            )
                        )
        else:
            problem = rule(value)
            if problem:
                problems.append(f"{path}: {problem}")


def check_display(data: Mapping[str, Any], problems: list[str]) -> None:
    """What the driver itself would refuse (sizes, offsets past the controller's memory), once each value is valid."""
    display = data["display"]
    keys = ("driver", "width", "height", "h_offset", "v_offset")
    if any(SCHEMA["display"][key](display[key]) for key in keys) or display["driver"] not in PANELS:
        return  # a bad value, reported already; or the capture, which takes any size
    driver, panel = display["driver"], PANELS[display["driver"]]
    size = (display["width"] or panel.native[0], display["height"] or panel.native[1])
    shown = f"{size[0]}x{size[1]}"
    if not accepts_size(driver, size):
        if panel.sizes is not None:
            accepted = ", ".join(f"{w}x{h}" for w, h in panel.sizes)
            problem = _("{driver} accepts {value}, not {size}").format(driver=driver, value=accepted, size=shown)
            widths = {w for w, _h in panel.sizes}
        else:
            limit = f"{panel.memory[0]}x{panel.memory[1]}"
            problem = _("{driver} addresses at most {value}, not {size}").format(driver=driver, value=limit, size=shown)
            widths = set(range(1, panel.memory[0] + 1))
        if accepts_size(driver, (size[1], size[0])):
            problem += " " + _("(a portrait panel: swap width and height, and set rotate = 1 or 3)")
        problems.append(f"display.{'height' if size[0] in widths else 'width'}: {problem}")
        return
    for key, most in zip(("h_offset", "v_offset"), offset_limits(driver, size), strict=True):
        if display[key] > most:
            problem = _("{value} puts a {size} picture outside the {driver}'s memory (at most {limit})")
            problems.append(
                f"display.{key}: " + problem.format(value=display[key], size=shown, driver=driver, limit=most)
            )


def pins_in_use(data: Mapping[str, Any]) -> list[tuple[str, int]]:
    used: list[tuple[str, int]] = []
    display = data["display"]
    if display["driver"] != "capture":
        used += [(f"display.{key}", display[key]) for key in ("dc_pin", "reset_pin", "backlight_pin")]
        if display["spi_port"] == 0:
            used += [(_("display (SPI0 {name})").format(name=name), pin) for pin, name in SPI0_PINS.items()]
            ce = SPI0_CE.get(display["spi_device"])
            if ce is not None:
                used.append((_("display (SPI0 CE{item})").format(item=display["spi_device"]), ce))
    used += [(f"buttons.{key}", data["buttons"][key]) for key in ("left", "right", "ok", "back")]
    for index, pad in enumerate(data["pads"].get("gpio", [])):
        used += [
            (f"pads.gpio[{index}].{key}", pad[key]) for key in GPIO_PAD if key in pad
        ]  # unknown keys: said already
    used.append(("buzzer.pin", data["buzzer"]["pin"]))
    return [(name, pin) for name, pin in used if type(pin) is int and pin != -1]


def check_pins(data: Mapping[str, Any], problems: list[str]) -> None:
    owner: dict[int, str] = {}
    for name, pin in pins_in_use(data):
        if pin in owner:
            problems.append(
                _("{name}: GPIO {pin} is already used by {item}").format(name=name, pin=pin, item=owner[pin])
            )
        else:
            owner[pin] = name


# ---------------------------------------------------------------------------------------------- loading
