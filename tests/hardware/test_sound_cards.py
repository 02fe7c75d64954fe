"""sound.device = "default" on fake /proc and /sys trees: the jack where ALSA's default would be an HDMI card with
no screen attached, ALSA's own default otherwise, a named device as it is."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from hardware.sound_cards import cards, choose_device

HDMI_FIRST = """\
 0 [vc4hdmi        ]: vc4-hdmi - vc4-hdmi
                      vc4-hdmi
 1 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones
                      bcm2835 Headphones
"""
JACK_FIRST = """\
 0 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones
                      bcm2835 Headphones
 1 [vc4hdmi        ]: vc4-hdmi - vc4-hdmi
                      vc4-hdmi
"""
ZERO_2_W_USB = """\
 0 [vc4hdmi        ]: vc4-hdmi - vc4-hdmi
                      vc4-hdmi
 1 [Device         ]: USB-Audio - USB Audio Device
                      C-Media Electronics Inc. USB Audio Device at usb-3f980000.usb-1, full speed
"""


def tree(root: Path, asound: str | None, screen: bool = False) -> Path:
    if asound is not None:
        (root / "proc" / "asound").mkdir(parents=True)
        (root / "proc" / "asound" / "cards").write_text(asound)
    connector = root / "sys" / "class" / "drm" / "card0-HDMI-A-1"
    connector.mkdir(parents=True)
    (connector / "status").write_text("connected\n" if screen else "disconnected\n")
    return root


def test_the_cards_are_read_as_alsa_lists_them(tmp_path: Path) -> None:
    found = cards(tree(tmp_path, HDMI_FIRST))
    assert [(c.number, c.id, c.hdmi) for c in found] == [(0, "vc4hdmi", True), (1, "Headphones", False)]


def test_hdmi_first_and_no_screen_plays_on_the_jack(tmp_path: Path) -> None:
    choice = choose_device("default", tree(tmp_path, HDMI_FIRST))
    assert choice.device == "plughw:CARD=Headphones"
    assert choice.why == (
        "plughw:CARD=Headphones (the 3.5 mm jack): ALSA's default, card 0 (vc4hdmi), is HDMI with no screen attached"
    )


@pytest.mark.parametrize(("asound", "screen"), [(HDMI_FIRST, True), (JACK_FIRST, False)])
def test_alsas_default_where_it_can_play(tmp_path: Path, asound: str, screen: bool) -> None:
    choice = choose_device("default", tree(tmp_path, asound, screen))
    assert choice.device == "default" and choice.why.startswith("ALSA's default, card 0 ")


def test_no_jack_takes_a_usb_card(tmp_path: Path) -> None:
    assert choose_device("default", tree(tmp_path, ZERO_2_W_USB)).device == "plughw:CARD=Device"


def test_an_alsa_configuration_or_a_named_device_is_kept(tmp_path: Path) -> None:
    root = tree(tmp_path, HDMI_FIRST)
    assert choose_device("plughw:CARD=vc4hdmi", root).device == "plughw:CARD=vc4hdmi"
    (root / "etc").mkdir()
    (root / "etc" / "asound.conf").write_text("defaults.pcm.card 1\n")
    choice = choose_device("default", root)
    assert choice.device == "default" and "asound.conf" in choice.why


def test_the_card_images_jack_setting_is_alsas_default(tmp_path: Path) -> None:
    """The card image's udev rule writes /run/doge-companion-jack.conf once the jack's card is there: ALSA's default
    is then the jack, whatever the card order, and the start's line says where that came from."""
    root = tree(tmp_path, HDMI_FIRST)
    (root / "run").mkdir()
    (root / "run" / "doge-companion-jack.conf").write_text("defaults.pcm.!card Headphones\n")
    choice = choose_device("default", root)
    assert choice.device == "default"
    assert choice.why == f"ALSA's default, as {root / 'run' / 'doge-companion-jack.conf'} sets it"


def test_no_sound_card_keeps_the_default(tmp_path: Path) -> None:
    assert choose_device("default", tree(tmp_path, None)).why == "ALSA's default: /proc/asound/cards lists no card"


def test_the_start_says_which_device_plays_in_one_line(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from companion.app.voice import build_voice
    from companion.system import config

    data = config.load(None, search=False).data
    data = {**data, "hardware": "pi", "sound": {**data["sound"], "device": "null"}}
    with caplog.at_level(logging.INFO):
        voice = build_voice(config.Settings(data, None), None, None, None)
    assert voice.device == "null", "the sound page names it"
    voice.close()
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("sound: plays on")]
    assert said == ['sound: plays on sound.device "null", as the config says'], caplog.text


def test_under_the_services_procsubset_the_cards_come_from_sysfs(tmp_path: Path) -> None:
    """/proc/asound is hidden from the companion's unit (ProcSubset=pid); /sys/class/sound is not."""
    root = tree(tmp_path, None)
    for number, card_id in ((0, "vc4hdmi"), (1, "Headphones")):
        (root / "sys" / "class" / "sound" / f"card{number}").mkdir(parents=True)
        (root / "sys" / "class" / "sound" / f"card{number}" / "id").write_text(card_id + "\n")
    (root / "sys" / "class" / "sound" / "controlC0").mkdir()
    assert [(c.number, c.id, c.hdmi) for c in cards(root)] == [(0, "vc4hdmi", True), (1, "Headphones", False)]
    assert choose_device("default", root).device == "plughw:CARD=Headphones"
