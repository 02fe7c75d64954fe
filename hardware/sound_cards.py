"""Which ALSA device the voice plays on when the config says ``sound.device = "default"`` (docs/sound.md, "Which
device plays").

With no ALSA configuration of its own, "default" is card 0, and on Debian's kernel the card order is not fixed: the
HDMI card (vc4-hdmi, ids ``vc4hdmi``, ``vc4hdmi0``, ``vc4hdmi1``) may come first, and vc4-hdmi refuses to open with
no screen attached, so a headless Pi would be silent though its jack (snd-bcm2835, card id ``Headphones``) works.
So "default" here means: ALSA's own default where something chose it (an /etc/asound.conf or ~/.asoundrc) or where
it is not an HDMI card with no screen on it; else the jack; else a USB card; else ALSA's default, as it was.
A device the config names is used as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

JACK = "Headphones"
CARD_LINE = re.compile(r"\s*(\d+)\s+\[(\S+)\s*\]:\s*(\S+)\s+-\s+(.*)")


@dataclass(frozen=True)
class Card:
    number: int
    id: str  # what ALSA's CARD= takes
    driver: str
    name: str

    @property
    def hdmi(self) -> bool:
        return "hdmi" in self.id.lower() or "hdmi" in self.driver.lower()


def cards(root: Path = Path("/")) -> list[Card]:
    """The sound cards /proc/asound/cards lists, else sysfs's (the companion's unit has ProcSubset=pid, which hides
    /proc/asound); none: no sound driver loaded."""
    try:
        text = (root / "proc/asound/cards").read_text(errors="replace")
    except OSError:
        return _sysfs_cards(root)
    found = []
    for line in text.splitlines():
        match = CARD_LINE.match(line)
        if match:
            found.append(Card(int(match[1]), match[2], match[3], match[4].strip()))
    return found


def _sysfs_cards(root: Path) -> list[Card]:
    found = []
    for card in sorted((root / "sys/class/sound").glob("card[0-9]*")):
        try:
            card_id = (card / "id").read_text().strip()
        except OSError:
            continue
        number = card.name[len("card") :]
        driver = (card / "device" / "driver").resolve().name if (card / "device" / "driver").exists() else ""
        if number.isdigit():
            found.append(Card(int(number), card_id, driver, card_id))
    return sorted(found, key=lambda card: card.number)


def hdmi_connected(root: Path = Path("/")) -> bool:
    """Whether any HDMI connector has a screen on it (the DRM connectors' status in sysfs)."""
    for status in sorted((root / "sys/class/drm").glob("card*-HDMI-A-*/status")):
        try:
            if status.read_text().strip() == "connected":
                return True
        except OSError:
            continue
    return False


def alsa_configured(root: Path = Path("/"), home: Path | None = None) -> Path | None:
    """An ALSA configuration someone wrote, which may give "default" a meaning of its own; on the card image, the
    file its udev rule writes when the jack's card appears (docs/sound.md, "On the card image")."""
    written = (root / "etc/asound.conf", root / "run/doge-companion-jack.conf")
    for path in (*written, *([home / ".asoundrc"] if home is not None else [])):
        if path.is_file():
            return path
    return None


@dataclass(frozen=True)
class Choice:
    device: str  # what aplay -D takes
    why: str  # the one line the first start logs


def choose_device(configured: str, root: Path = Path("/"), home: Path | None = None) -> Choice:
    """The device to play on, and why, for a configured ``sound.device``."""
    if configured != "default":
        return Choice(configured, f'sound.device "{configured}", as the config says')
    written = alsa_configured(root, home)
    if written is not None:
        return Choice("default", f"ALSA's default, as {written} sets it")
    found = cards(root)
    if not found:
        return Choice("default", "ALSA's default: /proc/asound/cards lists no card")
    first = min(found, key=lambda card: card.number)
    if not first.hdmi or hdmi_connected(root):
        return Choice("default", f"ALSA's default, card {first.number} ({first.id}: {first.name})")
    jack = next((card for card in found if card.id == JACK), None)
    other = jack or next((card for card in found if not card.hdmi), None)
    if other is None:
        return Choice("default", f"ALSA's default, card {first.number} ({first.id}), HDMI with no screen attached")
    what = "the 3.5 mm jack" if other is jack else other.name
    return Choice(
        f"plughw:CARD={other.id}",
        f"plughw:CARD={other.id} ({what}): ALSA's default, card {first.number} ({first.id}), is HDMI with no "
        "screen attached",
    )
