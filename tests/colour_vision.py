"""Colour-vision deficiencies simulated on pixels, and what a player's mark looks like through them.

The matrices are Machado, Oliveira and Fernandes (2009), "A Physiologically-based Model for Simulation of Color
Vision Deficiency", severity 1.0 (dichromacy, the strongest), applied to linear RGB: sRGB is decoded, multiplied
and encoded again. A mark's *mask* is where a picture differs, through the simulation, from the same picture without
the mark: its pixels with the colour set aside, so two players' marks compare by their shapes alone (a mark whose
colour the simulation takes into the background's has none).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence

from PIL import Image, ImageChops

Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]
MACHADO: dict[str, Matrix] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
VISIBLE = 24  # 8-bit sRGB steps, summed over the channels, below which a pixel is taken for the background's
Mask = frozenset[tuple[int, int]]


def _decode(value: float) -> float:
    value /= 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def _encode(value: float) -> float:
    value = min(1.0, max(0.0, value))
    return 255 * (12.92 * value if value <= 0.0031308 else 1.055 * value ** (1 / 2.4) - 0.055)


# Linear light in 8 bits loses steps among the darkest shades: a mask needs only a mark told from the background.
_TO_LINEAR = [round(_decode(v) * 255) for v in range(256)] * 3
_TO_SRGB = [round(_encode(v / 255)) for v in range(256)] * 3


def simulate(image: Image.Image, deficiency: str) -> Image.Image:
    """``image`` as a person with ``deficiency`` (a key of :data:`MACHADO`) sees it, per Machado et al."""
    rows = MACHADO[deficiency]
    matrix = (*rows[0], 0.0, *rows[1], 0.0, *rows[2], 0.0)
    linear = image.convert("RGB").point(_TO_LINEAR)
    return linear.convert("RGB", matrix).point(_TO_SRGB)


def mask(picture: Image.Image, without: Image.Image) -> Mask:
    """Where ``picture`` visibly differs from ``without`` (the same picture without the mark), cut to its own
    bounding box: a mark moved by a pixel is the same shape."""
    difference = ImageChops.difference(picture.convert("RGB"), without.convert("RGB"))
    red, green, blue = difference.split()
    total = ImageChops.add(ImageChops.add(red, green), blue)  # clipped at 255: enough for a threshold
    seen = total.point(lambda v: 255 if v > VISIBLE else 0)
    box = seen.getbbox()
    if box is None:
        return frozenset()
    crop = seen.crop(box)
    width = crop.width
    return frozenset((i % width, i // width) for i, v in enumerate(crop.tobytes()) if v)


def masks_through(pictures: Sequence[Image.Image], without: Sequence[Image.Image], deficiency: str) -> tuple[Mask, ...]:
    """A mark's masks on each part of a screen (or each picture), through ``deficiency``."""
    return tuple(mask(simulate(p, deficiency), simulate(w, deficiency)) for p, w in zip(pictures, without, strict=True))


def alike(marks: Mapping[str, tuple[Mask, ...]], least: int = 3, slack: int = 0) -> list[str]:
    """The pairs of players whose marks are the same shape on every part: fewer than ``least`` pixels of one mask
    more than ``slack`` pixels away from the other's; and each player whose mark vanished (no pixel seen). Empty:
    every player's mark differs from every other's."""
    found = [f"{player}: nothing seen" for player, masks in marks.items() if not any(masks)]
    for (a, first), (b, second) in itertools.combinations(marks.items(), 2):
        if all(_apart(x, y, slack) < least for x, y in zip(first, second, strict=True)):
            found.append(f"{a} and {b}")
    return found


def _apart(first: Mask, second: Mask, slack: int) -> int:
    """How many pixels of either mask lie more than ``slack`` pixels (in x or y) from every pixel of the other."""
    near = range(-slack, slack + 1)

    def grown(mask: Mask) -> set[tuple[int, int]]:
        return {(x + dx, y + dy) for x, y in mask for dx in near for dy in near}

    return len(first - grown(second)) + len(second - grown(first))


def distances(colours: Iterable[tuple[int, int, int]], deficiency: str | None) -> list[float]:
    """Each pair's distance in CIELAB (Delta E 1976, D65) as seen with ``deficiency`` (None: normal vision)."""
    labs = [_lab(_seen(colour, deficiency)) for colour in colours]
    return [sum((p - q) ** 2 for p, q in zip(a, b, strict=True)) ** 0.5 for a, b in itertools.combinations(labs, 2)]


def _seen(colour: tuple[int, int, int], deficiency: str | None) -> tuple[float, float, float]:
    linear = [_decode(v) for v in colour]
    if deficiency is None:
        return (linear[0], linear[1], linear[2])
    rows = MACHADO[deficiency]
    r, g, b = (min(1.0, max(0.0, sum(k * v for k, v in zip(row, linear, strict=True)))) for row in rows)
    return (r, g, b)


def _lab(linear: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = linear
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
