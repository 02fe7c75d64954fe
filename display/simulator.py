"""``doge-companion sim``: the whole device in a pygame window.

The LCD's image at its true pixel size scaled up, the device's four buttons and every player's pad, clickable and
bound to keys shown beside them; pad LEDs light as on the real pads. Underneath is the same App (controller, engine,
configuration, store) on mock hardware, run on this thread: pygame wants the main thread, and the simulator's loop
is the game thread. The window is drawn here rather than with luma's pygame emulator, which exits the process on ESC
and takes over the window (STACK-NOTES).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.engine import AREAS
from companion.i18n import N_, _
from hardware.events import POWER, InputEvent

from .render import ACCENT, BACKGROUND, DIM, PLAYER_COLOURS, TEXT

AREA_LABELS = ("Can", "Cas", "Dor", "SMa", "SPo", "SCr", "Qua")
HOST_KEYS = {"left": "K_LEFT", "right": "K_RIGHT", "ok": "K_RETURN", "back": "K_BACKSPACE"}
HOST_HINTS = {"left": N_("Left arrow"), "right": N_("Right arrow"), "ok": N_("Enter"), "back": N_("Backspace")}
KEY_LABELS = {"left": N_("left"), "right": N_("right"), "ok": N_("ok"), "back": N_("back")}
PAD_KEYS = {  # pad -> (left, ok, right, back)
    "1": ("q", "w", "e", "r"),
    "2": ("a", "s", "d", "f"),
    "3": ("z", "x", "c", "v"),
    "4": ("u", "i", "o", "p"),
}
HOLD_KEYS = {("host", "back"): InputEvent("host", "back", "hold")}
FRAME_S = 1 / 60  # the window is redrawn at most this often: a burst of presses changes it once on screen


@dataclass
class Button:
    source: str
    key: str
    label: str
    rect: Any  # pygame.Rect
    hint: str = ""
    hold: InputEvent | None = None  # what a long press means, if anything

    @property
    def press(self) -> InputEvent:
        return InputEvent(self.source, self.key)


class Simulator:
    def __init__(self, app: Any, scale: int | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        self.pygame = pygame
        self.app = app
        self.clock = clock
        self.hold_seconds = app.settings["buttons"]["hold_ms"] / 1000
        self.shutdown_seconds = app.settings["buttons"]["shutdown_hold_s"] or None
        self._long_fired = False
        pygame.display.init()  # not pygame.init(): no sound is needed, and the mixer complains without audio
        pygame.font.init()
        physical = (app.display.device.width, app.display.device.height)
        if app.display.device.rotate % 2:
            physical = (physical[1], physical[0])
        width, height = physical
        self.scale = scale or max(1, min(4, 640 // width))
        self.lcd_rect = pygame.Rect(20, 20, width * self.scale, height * self.scale)
        self.three_button = len(app.settings["pads"]["gpio"])
        self.buttons: list[Button] = []
        self.leds: dict[str, dict[str, str]] = {}
        self.flash: dict[str, float] = {}
        self.down: dict[tuple[str, str], tuple[float, Button, bool]] = {}
        self._layout()
        self.surface = pygame.display.set_mode(self.size)
        pygame.display.set_caption("Doge Companion")
        self.font = pygame.font.Font(None, 22)
        self.small = pygame.font.Font(None, 18)
        app.on_effect = self._effect
        self.dirty = True
        self._drawn_frames = -1
        self._drawn_at: float | None = None
        self.drawn = 0  # window frames drawn
        self._lcd: Any = None
        self._lcd_frame = -1
        self._texts: dict[tuple[str, tuple[int, ...], bool], Any] = {}

    # ------------------------------------------------------------------ layout

    def _layout(self) -> None:
        pygame = self.pygame
        lcd = self.lcd_rect
        y = lcd.bottom + 16
        x = lcd.left
        for key in ("left", "back", "ok", "right"):
            rect = pygame.Rect(x, y, 92, 40)
            self.buttons.append(Button("host", key, key, rect, HOST_HINTS[key], HOLD_KEYS.get(("host", key))))
            x += 100
        left = max(lcd.right, x) + 30
        top = 20
        self.pad_boxes: dict[str, Any] = {}
        for number in ("1", "2", "3", "4"):
            keys = PAD_KEYS[number]
            if int(number) <= self.three_button:
                height = 90
                for index, (key, hint) in enumerate((("left", keys[0]), ("ok", keys[1]), ("right", keys[2]))):
                    rect = pygame.Rect(left + 40 + index * 80, top + 36, 70, 40)
                    hold = InputEvent(number, "back") if key == "ok" else None
                    self.buttons.append(Button(number, key, _(KEY_LABELS[key]), rect, hint.upper(), hold))
            else:
                height = 150
                for index, label in enumerate(AREA_LABELS):
                    rect = pygame.Rect(left + 40 + index * 46, top + 34, 42, 34)
                    self.buttons.append(Button(number, f"area:{AREAS[index]}", label, rect))
                for value in range(4):
                    rect = pygame.Rect(left + 40 + value * 46, top + 74, 42, 30)
                    self.buttons.append(Button(number, f"marker:{value}", str(value), rect))
                for index, (key, hint) in enumerate((("left", keys[0]), ("ok", keys[1]), ("right", keys[2]))):
                    rect = pygame.Rect(left + 40 + 4 * 46 + 8 + index * 44, top + 74, 40, 30)
                    label = {"left": "<", "ok": _(KEY_LABELS["ok"]), "right": ">"}[key]
                    self.buttons.append(Button(number, key, label, rect, hint.upper()))
                rect = pygame.Rect(left + 40, top + 110, 86, 28)
                self.buttons.append(Button(number, "back", _(KEY_LABELS["back"]), rect, keys[3].upper()))
            self.pad_boxes[number] = pygame.Rect(left, top, 380, height - 6)
            top += height
        self.size = (left + 400, max(top + 10, self.lcd_rect.bottom + 90))
        self.keymap: dict[int, Button] = {}
        for button in self.buttons:
            if button.source == "host":
                self.keymap[getattr(pygame, HOST_KEYS[button.key])] = button
            elif button.key in ("left", "ok", "right", "back") and button.hint:
                self.keymap[getattr(pygame, f"K_{button.hint.lower()}")] = button
        for number in ("1", "2", "3", "4"):  # 3-button pads: the back key is a held ok
            if int(number) <= self.three_button:
                ok = next(b for b in self.buttons if b.source == number and b.key == "ok")
                self.keymap[getattr(pygame, f"K_{PAD_KEYS[number][3]}")] = Button(number, "back", "back", ok.rect)

    # ------------------------------------------------------------------ input

    def _effect(self, effect: Any) -> None:
        if effect.kind == "led":
            leds = self.leds.setdefault(effect.source, {})
            if effect.target == "all":
                for target in leds:
                    leds[target] = effect.state
            else:
                leds[effect.target] = effect.state
        elif effect.kind == "beep":
            self.flash[effect.source] = self.clock() + 0.15
        self.dirty = True

    def _begin(self, ident: tuple[str, str], button: Button) -> None:
        if button.hold is None:
            self.app.step(button.press)
            self.down[ident] = (self.clock(), button, True)
        else:
            self.down[ident] = (self.clock(), button, False)
        self.dirty = True

    def _end(self, ident: tuple[str, str]) -> None:
        started, button, fired = self.down.pop(ident, (0.0, None, True))
        if button is not None and not fired:
            held = self.clock() - started >= self.hold_seconds
            self.app.step(button.hold if held and button.hold else button.press)
        self.dirty = True

    def check_holds(self) -> None:
        """A long press counts the moment it is long enough, as on the device."""
        now = self.clock()
        for ident, (started, button, fired) in list(self.down.items()):
            if not fired and button.hold is not None and now - started >= self.hold_seconds:
                self.down[ident] = (started, button, True)
                self.app.step(button.hold)
                self.dirty = True
            limit = self.shutdown_seconds if button.source == "host" and button.key == "back" else None
            if limit is not None and not self._long_fired and now - started >= limit:
                self._long_fired = True
                self.app.step(InputEvent("host", POWER, "hold"))
        if not self.down:
            self._long_fired = False

    def handle(self, event: Any) -> bool:
        """One pygame event; False when the window is being closed."""
        pygame = self.pygame
        if event.type == pygame.QUIT:
            return False
        if event.type == pygame.KEYDOWN and event.key in self.keymap:
            button = self.keymap[event.key]
            if button.key == "back" and button.source != "host" and int(button.source) <= self.three_button:
                self.app.step(InputEvent(button.source, "back"))
                return True
            self._begin(("key", str(event.key)), button)
        elif event.type == pygame.KEYUP and ("key", str(event.key)) in self.down:
            self._end(("key", str(event.key)))
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            clicked = next((b for b in self.buttons if b.rect.collidepoint(event.pos)), None)
            if clicked is not None:
                self._begin(("mouse", "1"), clicked)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self._end(("mouse", "1"))
        elif event.type in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE):
            self.dirty = True
        return True

    def pump(self, wait_ms: int = 0) -> bool:
        """Handle what is queued (waiting up to ``wait_ms`` for something); False when the window closed."""
        pygame = self.pygame
        first = pygame.event.wait(wait_ms) if wait_ms else pygame.event.poll()
        events = [first, *pygame.event.get()]
        for event in events:
            if event.type != pygame.NOEVENT and not self.handle(event):
                return False
        for hardware_event in self.app.events.drain():  # serial pads, if any are plugged in
            self.app.step(hardware_event)
            self.dirty = True
        self.check_holds()
        if self.flash and min(self.flash.values()) < self.clock():
            self.flash = {s: t for s, t in self.flash.items() if t >= self.clock()}
            self.dirty = True
        if self.stale and (self._drawn_at is None or self.clock() - self._drawn_at >= FRAME_S):
            self.draw()
        return not self.app.stopping

    @property
    def stale(self) -> bool:
        """The window does not show the latest state yet."""
        return self.dirty or self.app.display.frames != self._drawn_frames

    def run(self) -> int:
        """Until the window is closed. Blocks on pygame's event queue between events: no busy loop."""
        self.app.show(self.app.controller.screen())
        self.draw()
        while self.pump(wait_ms=16 if self.stale else 100):
            pass
        return 0

    # ------------------------------------------------------------------ drawing

    def _text(self, text: str, colour: Any, small: bool = False) -> Any:
        """Labels are drawn every frame but rarely change: render each once."""
        key = (text, tuple(colour), small)
        surface = self._texts.get(key)
        if surface is None:
            surface = self._texts[key] = (self.small if small else self.font).render(text, True, colour)
        return surface

    def draw(self) -> None:
        pygame = self.pygame
        surface = self.surface
        surface.fill((30, 30, 36))
        image = self.app.display.last_image
        if image is not None and self._lcd_frame != self.app.display.frames:
            frame = pygame.image.frombytes(image.convert("RGB").tobytes(), image.size, "RGB")
            self._lcd = pygame.transform.scale(frame, self.lcd_rect.size)
            self._lcd_frame = self.app.display.frames
        if self._lcd is not None:
            surface.blit(self._lcd, self.lcd_rect)
        pygame.draw.rect(surface, DIM, self.lcd_rect.inflate(6, 6), 3)
        seats = dict(self.app.seat_names())
        computers = [seat for source, seat in seats.items() if source not in self.pad_boxes]
        for number in self.pad_boxes:  # a computer player sits at a pad nobody took: that pad shows it
            if number not in seats and computers:
                seats[number] = computers.pop(0)
        for number, box in self.pad_boxes.items():
            colour = PLAYER_COLOURS.get(seats[number][0], DIM) if number in seats else DIM
            pygame.draw.rect(surface, BACKGROUND, box, border_radius=8)
            width = 4 if self.flash.get(number, 0) >= self.clock() else 2
            pygame.draw.rect(surface, colour, box, width, border_radius=8)
            name = seats[number][1] if number in seats else _("free")
            surface.blit(
                self._text(_("Pad {n}: {name}").format(n=number, name=name), colour), (box.left + 10, box.top + 8)
            )
            lit = self.leds.get(number, {}).get("turn", "off") != "off"
            pygame.draw.circle(surface, ACCENT if lit else (60, 60, 60), (box.right - 20, box.top + 16), 8)
            keys = PAD_KEYS[number]
            keys_text = _("keys {left} {ok} {right}, back {back}").format(
                left=keys[0].upper(), ok=keys[1].upper(), right=keys[2].upper(), back=keys[3].upper()
            )
            surface.blit(self._text(keys_text, DIM, small=True), (box.left + 180, box.top + 10))
        for button in self.buttons:
            lit = self.leds.get(button.source, {}).get(button.key, "off") != "off"
            pressed = any(b is button for _start, b, _fired in self.down.values())
            fill = ACCENT if lit else (90, 90, 100) if pressed else (55, 58, 70)
            pygame.draw.rect(surface, fill, button.rect, border_radius=6)
            text = self._text(button.label, BACKGROUND if lit else TEXT)
            surface.blit(text, text.get_rect(center=button.rect.center))
            if button.source == "host":
                hint = self._text(button.hint, DIM, small=True)
                surface.blit(hint, hint.get_rect(midtop=(button.rect.centerx, button.rect.bottom + 4)))
        footer = _("Host: ok goes on, left: rule help, back: board check, hold back: undo. Close the window to stop.")
        surface.blit(self._text(footer, DIM, small=True), (20, self.size[1] - 22))
        pygame.display.flip()
        self.dirty = False
        self._drawn_frames = self.app.display.frames
        self._drawn_at = self.clock()
        self.drawn += 1

    def save(self, path: str) -> None:
        if self.stale:
            self.draw()
        self.pygame.image.save(self.surface, path)

    def close(self) -> None:
        self.pygame.quit()
