"""The host's sound setting during a game: left of the board check's map, ok steps the voice up and then off, and
the App is asked to apply the level (an Effect); the page says why nothing is heard when nothing can be."""

from __future__ import annotations

import pytest

from companion.cli.gallery import SIZES
from companion.flow.controller import Controller, Effect
from companion.flow.sound import LEVELS, Sound, sound_view
from companion.i18n import LANGUAGES, set_language
from display.pages import paginate
from display.render import render
from display.screen import TEXT_SIZES, Screen
from tests.flow.builders import press, read_notices, table


def sound_page(level: int = 80, silent: str | None = None) -> tuple[Controller, Screen]:
    controller = table().controller
    read_notices(controller)
    controller.seats.sound = Sound(level, silent)  # type: ignore[arg-type]
    press(controller, "host", "back")
    press(controller, "host", "left")
    controller.take_effects()
    return controller, controller.screen()


def test_host_back_then_left_is_the_sound_page_and_ok_steps_the_level_up_then_off() -> None:
    controller, screen = sound_page(60)
    assert screen.tags == ("sound",) and screen.lines[0].text == "Voice: 60%"
    levels = []
    for _ in range(len(LEVELS)):
        press(controller, "host", "ok")
        levels.append(controller.seats.sound.level)
    assert levels == [80, 100, 0, 20, 40, 60]
    assert controller.take_effects() == [Effect("sound", "host", state=str(level)) for level in levels]
    assert controller.screen().tags == ("sound",), "ok stays on the page"


def test_a_level_between_the_steps_goes_to_the_next_step() -> None:
    assert Sound(70, None).next_level() == 80 and Sound(100, None).next_level() == 0 and Sound(0).next_level() == 20


def test_right_is_the_map_left_the_year_so_far_back_closes() -> None:
    controller, _screen = sound_page()
    press(controller, "host", "right")
    assert controller.screen().tags == ("board", "page:0")
    press(controller, "host", "left")
    press(controller, "host", "left")
    assert controller.screen().tags == ("this-year",)  # the last page: the year so far
    press(controller, "host", "right")
    press(controller, "host", "back")
    assert not controller.overlays and controller.take_effects() == []


@pytest.mark.parametrize(
    ("silent", "says"),
    [
        ("config", "off in the config"),
        ("no speaker", "has no speaker"),
        ("engine", "espeak-ng is not installed"),
        ("device", "audio device cannot play"),
    ],
)
def test_the_page_says_why_nothing_is_heard(silent: str, says: str) -> None:
    controller, screen = sound_page(80, silent)
    assert says in screen.text()
    press(controller, "host", "ok")
    changed = controller.take_effects()
    # with no speaker at all there is nothing to turn up (ok closes); a missing engine or device keeps the level
    if silent in ("config", "no speaker"):
        assert changed == [] and not controller.overlays
    else:
        assert changed == [Effect("sound", "host", state="100")] and controller.screen().tags == ("sound",)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_variant_of_the_page_fits_every_display_in_every_language(language: str) -> None:
    """The gallery (docs/screens, test_layout.py) shows the page of a working voice; the others are checked here."""
    set_language(language)
    cases = ((100, None), (0, None), (80, "config"), (80, "no speaker"), (40, "engine"), (60, "device"))
    for (level, silent), device in ((case, device) for case in cases for device in (None, "plughw:CARD=Headphones")):
        screen = sound_view(Sound(level, silent, device))  # type: ignore[arg-type]
        for size in SIZES:
            for text_size in TEXT_SIZES:
                problems: list[str] = []
                for part in paginate(screen, size, text_size):
                    render(part, size, problems, text_size)
                assert problems == [], (level, silent, size, text_size)


def test_the_page_names_the_device_it_plays_on() -> None:
    """docs/sound.md, "Which device plays": the device the start chose, on a Pi."""
    screen = sound_view(Sound(80, None, "plughw:CARD=Headphones"))
    assert "Plays on Headphones" in [line.text for line in screen.lines]
    assert "Plays on null" in sound_view(Sound(80, None, "null")).text()
    assert "Plays on" not in sound_view(Sound(80, None)).text()
