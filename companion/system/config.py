"""Configuration: the shipped defaults overlaid with the user's TOML file, checked against one schema.

Every problem is reported as one line that names the file and the key (``config.toml: display.driver: unknown
display "ssd1306" (choose st7735, st7789, ili9341, capture)``), all problems at once, so a person fixing a file by
hand over SSH sees everything in one go. Nothing here touches hardware.
"""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..i18n import _
from .schema import DIGITS, DISPLAYS, SCHEMA, check_display, check_pins, validate

if TYPE_CHECKING:
    from .card import Card

DEFAULTS_PATH = Path(__file__).with_name("defaults.toml")


class ConfigError(Exception):
    """A configuration that cannot be used; ``problems`` holds one line per problem."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


@dataclass(frozen=True)
class Settings:
    """The merged, checked configuration, and where it came from."""

    data: dict[str, Any]
    source: Path | None
    card: Path | None = None  # the card file whose settings are in ``data``
    card_problems: tuple[str, ...] = ()  # why the card file was left out (then ``data`` has none of it)
    card_file: Path | None = None  # the card file looked at, used or not

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def with_hardware(self, hardware: str | None) -> Settings:
        """The same settings on other hardware (``run --hardware mock``), or these if none is named."""
        return self if hardware is None else replace(self, data={**self.data, "hardware": hardware})

    def card_line(self) -> str | None:
        """The card file left out, as one line for the LCD's setup screen, in the language set now (the table's):
        the file is checked again over these settings, which are those it was checked over."""
        if not self.card_problems or self.card_file is None:
            return None
        from .card import one_line

        _data, problems = with_card(self.data, self.card_file)
        return one_line(problems or list(self.card_problems))

    @property
    def display_size(self) -> tuple[int, int]:
        display = self.data["display"]
        native = DISPLAYS[display["driver"]]
        return (display["width"] or native[0], display["height"] or native[1])


def user_config_path(environ: Mapping[str, str] | None = None) -> Path | None:
    """The user's file if one exists: $XDG_CONFIG_HOME (or ~/.config), then /etc."""
    environ = os.environ if environ is None else environ
    base = environ.get("XDG_CONFIG_HOME") or os.path.join(environ.get("HOME", "~"), ".config")
    for candidate in (Path(base) / "doge-companion" / "config.toml", Path("/etc/doge-companion/config.toml")):
        if candidate.is_file():
            return candidate
    return None


MAX_FILE = 1 << 20  # bytes read at most: every key set, with comments, is under 8 KiB; a longer file is refused


def _read_toml(path: Path, label: str, limit: int = MAX_FILE) -> dict[str, Any]:
    """The file's TOML, read in bounded time and memory whatever PATH names: a device (/dev/zero) or a FIFO with
    no writer is refused without reading it, a longer file than any config is refused at its size. A byte order
    mark before it (an editor on Windows may write one) is not part of the TOML."""
    try:
        return tomllib.loads(_read_bounded(path, label, limit).removeprefix("\ufeff"))
    except FileNotFoundError:
        raise ConfigError([_("{label}: no such file").format(label=label)]) from None
    except IsADirectoryError:
        raise ConfigError([_("{label}: is a directory, not a config file").format(label=label)]) from None
    except PermissionError:
        raise ConfigError([_("{label}: cannot be read (permission denied)").format(label=label)]) from None
    except OSError as error:  # a symbolic link loop, an I/O error...
        reason = error.strerror or str(error)
        raise ConfigError([_("{label}: cannot be read ({reason})").format(label=label, reason=reason)]) from None
    except UnicodeDecodeError:
        raise ConfigError([_("{label}: is not UTF-8 text").format(label=label)]) from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError([_("{label}: not valid TOML: {error}").format(label=label, error=error)]) from None
    except ValueError:  # an integer longer than Python converts (sys.get_int_max_str_digits(), 4300 digits)
        raise ConfigError(
            [_("{label}: a number in it has too many digits (at most {limit})").format(label=label, limit=DIGITS)]
        ) from None
    except RecursionError:  # arrays or tables nested a thousand deep
        raise ConfigError([_("{label}: not valid TOML: nested too deeply").format(label=label)]) from None


def _read_bounded(path: Path, label: str, limit: int) -> str:
    """The text of PATH if it is a regular file of at most MAX_FILE bytes; opening never waits (O_NONBLOCK: a FIFO
    with no writer would block open() itself)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as handle:
        status = os.fstat(fd)
        if stat.S_ISDIR(status.st_mode):
            raise IsADirectoryError(path)
        if not stat.S_ISREG(status.st_mode):
            raise ConfigError([_("{label}: is not a file (a device, a FIFO or a socket)").format(label=label)])
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise ConfigError(
            [_("{label}: is longer than any config file ({size} bytes; at most {limit})").format(
                label=label, size=status.st_size, limit=limit
            )]
        )  # fmt: skip
    return data.decode("utf-8")


def _merge(base: dict[str, Any], overlay: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in overlay.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def read_card(path: Path) -> Card | None:
    """The card file at ``path`` (None if there is none), or ConfigError with every problem, each naming it."""
    from .card import MAX_CARD, parse_card

    if not os.path.lexists(path):
        return None
    card, problems = parse_card(_read_toml(path, str(path), MAX_CARD))
    if problems:
        raise ConfigError([f"{path}: {problem}" for problem in problems])
    return card


def with_card(data: dict[str, Any], path: Path) -> tuple[dict[str, Any] | None, list[str]]:
    """``data`` with the card file's settings over it, or None and why not: a problem of the file itself, or one
    its values make with the others (a pin it takes that the owner's config uses)."""
    try:
        card = read_card(path)
    except ConfigError as error:
        return None, error.problems
    if card is None:
        return None, []
    merged = _merge(data, card.layer)
    problems = _cross_checks(merged)
    return (None, [f"{path}: {problem}" for problem in problems]) if problems else (merged, [])


def _cross_checks(data: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    if all(isinstance(data.get(table), dict) for table in ("display", "buttons", "pads", "buzzer")):
        pads = data["pads"].setdefault("gpio", [])
        if isinstance(pads, list) and all(isinstance(pad, dict) for pad in pads):
            for pad in pads:
                pad.setdefault("led", -1)
            check_pins(data, problems)
        check_display(data, problems)
    return problems


def load(
    path: Path | None = None,
    *,
    search: bool = True,
    overrides: Mapping[str, Any] | None = None,
    card: Path | None = None,
) -> Settings:
    """Defaults, overlaid with ``path`` (or the user's file when ``search``), with the card file (``card``, or when
    ``search`` the one card_path() names), with ``overrides``.

    Raises :class:`ConfigError` listing every problem of the owner's file. A card file that cannot be used is left
    out, with its problems in ``card_problems``: the companion starts whatever was written on the card.
    """
    from .card import card_path

    defaults = _read_toml(DEFAULTS_PATH, "defaults.toml")
    source = path if path is not None else (user_config_path() if search else None)
    user: dict[str, Any] = _read_toml(source, str(source)) if source is not None else {}
    label = str(source) if source is not None else "config"
    problems: list[str] = []
    validate(user, SCHEMA, "", problems)
    validate(overrides or {}, SCHEMA, "", problems)
    data = _merge(defaults, user)
    problems += _cross_checks(_merge(data, overrides or {}))
    if problems:
        raise ConfigError([f"{label}: {problem}" for problem in problems])
    card_file = card if card is not None else (card_path() if search else None)
    merged, card_problems = with_card(data, card_file) if card_file is not None else (None, [])
    if merged is not None and overrides and (later := _cross_checks(_merge(merged, overrides))):
        merged, card_problems = None, [f"{card_file}: {problem}" for problem in later]
    data = _merge(merged if merged is not None else data, overrides or {})
    _cross_checks(data)  # each GPIO pad's led filled in
    used = card_file if merged is not None else None
    return Settings(data, source, used, tuple(card_problems), card_file)


# ---------------------------------------------------------------------------------------------- printing


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    return str(value)


def to_toml(data: Mapping[str, Any]) -> str:
    """The merged configuration as TOML that :func:`load` reads back to the same data."""
    lines = [f"{key} = {_toml_value(value)}" for key, value in data.items() if not isinstance(value, dict)]
    for section, table in data.items():
        if not isinstance(table, dict):
            continue
        lines += ["", f"[{section}]"]
        lines += [f"{key} = {_toml_value(value)}" for key, value in table.items() if not _is_table_list(value)]
        for key, value in table.items():
            if _is_table_list(value):
                for item in value:
                    lines += ["", f"[[{section}.{key}]]"]
                    lines += [f"{k} = {_toml_value(v)}" for k, v in item.items()]
    return "\n".join(lines) + "\n"


def _is_table_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(item, dict) for item in value)
