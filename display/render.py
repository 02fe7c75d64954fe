"""Screen model -> PIL image, for each display size. Pure: no device, no state, the same model gives the same image."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from .screen import Screen, Size

BACKGROUND = (16, 20, 32)
TEXT = (235, 235, 225)
DIM = (150, 155, 170)
ACCENT = (212, 175, 55)  # the gold of the Doge's cap
PLAYER_COLOURS = {
    "red": (220, 60, 50),
    "blue": (70, 130, 230),
    "green": (60, 170, 80),
    "yellow": (235, 200, 40),
    "purple": (150, 90, 200),
    "white": (235, 235, 235),
}
# Type sizes per display height class: small (128 px), medium (240 px), large (>= 320 px).
_SIZES: dict[str, dict[Size | str, int]] = {
    "small": {"title": 13, "large": 16, "normal": 11, "small": 9},
    "medium": {"title": 20, "large": 26, "normal": 17, "small": 13},
    "large": {"title": 24, "large": 32, "normal": 20, "small": 15},
}


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu (on Raspberry Pi OS and most desktops) has every letter German and Italian need; Pillow's own
    scalable font lacks the umlauts and accents (STACK-NOTES), so it is only the last resort."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for candidate in (name, f"/usr/share/fonts/truetype/dejavu/{name}"):
        try:
            return ImageFont.truetype(candidate, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


def size_class(height: int) -> str:
    return "small" if height < 200 else "medium" if height < 320 else "large"


def render(screen: Screen, size: tuple[int, int]) -> Image.Image:
    width, height = size
    sizes = _SIZES[size_class(min(width, height))]
    image = Image.new("RGB", size, BACKGROUND)
    draw = ImageDraw.Draw(image)
    margin = max(3, width // 40)
    title_font = font(sizes["title"], bold=True)
    draw.text((margin, margin), screen.title, font=title_font, fill=ACCENT)
    y = margin + sizes["title"] + margin
    draw.line((margin, y - margin // 2, width - margin, y - margin // 2), fill=DIM)
    for line in screen.lines:
        line_font = font(sizes[line.size], bold=line.size == "large")
        colour = PLAYER_COLOURS.get(line.colour or "", TEXT)
        draw.text((margin, y), line.text, font=line_font, fill=colour)
        y += sizes[line.size] + max(2, sizes[line.size] // 4)
    footer_font = font(sizes["small"])
    if screen.footer:
        draw.text((margin, height - margin - sizes["small"]), screen.footer, font=footer_font, fill=DIM)
    if screen.rule:
        label = f"§{screen.rule}"
        right = width - margin - int(draw.textlength(label, font=footer_font))
        draw.text((right, margin), label, font=footer_font, fill=DIM)
    return image
