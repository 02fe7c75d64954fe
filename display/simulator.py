"""``doge-companion sim``: the whole device in a pygame window.

The LCD's image at its true pixel size scaled up, the device's four buttons and every player's pad, clickable and
bound to keys written on them; pad LEDs light as on the real pads. Every button has a key: the host's are the arrows,
Enter and Backspace; each pad's left, ok, right and back have letters of their own (PAD_KEYS); a keypad's seven area
and four marker keys are too many to give every pad its own, so one keypad at a time has the focus (F1-F4 pick it,
Tab goes to the next, a click on a keypad moves it there) and the area keys G H J K L B N and the marker keys 0-3
go to it. The hint line at the bottom names what the host's keys do on the screen shown (``Screen.keys``).

Underneath is the same App (controller, engine, configuration, store) on mock hardware, run on this thread: pygame
wants the main thread, and the simulator's loop is the game thread. The window is drawn here rather than with luma's
pygame emulator, which exits the process on ESC and takes over the window (library-notes.md).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.engine import AREAS
from companion.i18n import N_, _
from hardware.events import POWER, InputEvent

from .mixer import Mixer
from .render import ACCENT, BACKGROUND, DIM, PLAYER_COLOURS, TEXT

log = logging.getLogger(__name__)

AREA_LABELS = ("Can", "Cas", "Dor", "SMa", "SPo", "SCr", "Qua")
HOST_KEYS = {"left": "K_LEFT", "right": "K_RIGHT", "ok": "K_RETURN", "back": "K_BACKSPACE"}
HOST_HINTS = {"left": N_("Left arrow"), "right": N_("Right arrow"), "ok": N_("Enter"), "back": N_("Backspace")}
KEY_LABELS = {
    "left": N_("left"),
    "right": N_("right"),
    "ok": N_("ok"),
    "back": N_("back"),
    "hold:back": N_("hold back"),
    "any": N_("any key"),
}
PAD_KEYS = {  # pad -> (left, ok, right, back)
    "1": ("q", "w", "e", "r"),
    "2": ("a", "s", "d", "f"),
    "3": ("z", "x", "c", "v"),
    "4": ("u", "i", "o", "p"),
}
AREA_KEYS = ("g", "h", "j", "k", "l", "b", "n")  # the focused keypad's area keys, in the order drawn (AREAS)
MARKER_KEYS = ("0", "1", "2", "3")  # its marker keys, by value
FOCUS_KEYS = {"1": "K_F1", "2": "K_F2", "3": "K_F3", "4": "K_F4"}  # which keypad the area and marker keys go to
HOLD_KEYS = {  # a long press: the host's back asks to undo; left (any pad's too) says the moment again
    ("host", "back"): InputEvent("host", "back", "hold"),
    ("host", "left"): InputEvent("host", "left", "hold"),
    **{(pad, "left"): InputEvent(pad, "left", "hold") for pad in ("1", "2", "3", "4")},
}
HINT_ROWS = 3  # the host's keys, the phones' address, the keypads' keyboard keys
FRAME_S = 1 / 60  # the window is redrawn at most this often: a burst of presses changes it once on screen


@dataclass
class Button:
    """One clickable button; ``hint`` is its keyboard key as drawn, ``code`` the pygame key it is bound to (an area or
    marker key only while its keypad has the focus). ``label`` is translated when drawn: the language can change."""

    source: str
    key: str
    label: str
    rect: Any  # pygame.Rect
    hint: str = ""
    hold: InputEvent | None = None  # what a long press means, if anything
    code: int = 0

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
        pygame.display.init()  # not pygame.init(): the mixer only for a voice, and it complains without audio
        pygame.font.init()
        self.mixer = self._mixer(app)
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
        self.tiny = pygame.font.Font(None, 15)  # a pad button's key, in its corner
        app.on_effect = self._effect
        self.dirty = True
        self._drawn_frames = -1
        self._drawn_at: float | None = None
        self.drawn = 0  # window frames drawn
        self._lcd: Any = None
        self._lcd_frame = -1
        self._texts: dict[tuple[str, tuple[int, ...], bool, bool], Any] = {}

    def _mixer(self, app: Any) -> Mixer | None:
        """The window's audio for the companion's voice (sound.voice), or one line saying why there is none."""
        voice = getattr(app, "voice", None)
        if voice is None or not voice.enabled:
            return None
        try:
            mixer = Mixer(self.pygame)
        except self.pygame.error as error:
            log.error("sound: no audio output for the window (%s); the simulator goes on silently", error)
            return None
        voice.start(mixer)
        return mixer

    # ------------------------------------------------------------------ layout

    def _layout(self) -> None:
        pygame = self.pygame
        lcd = self.lcd_rect
        y = lcd.bottom + 16
        x = lcd.left
        for key in ("left", "back", "ok", "right"):
            rect = pygame.Rect(x, y, 92, 40)
            code = getattr(pygame, HOST_KEYS[key])
            self.buttons.append(
                Button("host", key, KEY_LABELS[key], rect, HOST_HINTS[key], HOLD_KEYS.get(("host", key)), code)
            )
            x += 100
        left = max(lcd.right, x) + 30
        top = 20
        self.pad_boxes: dict[str, Any] = {}
        self.keypads: list[str] = []
        for number in ("1", "2", "3", "4"):
            keys = PAD_KEYS[number]
            if int(number) <= self.three_button:
                height = 110
                for index, (key, letter) in enumerate(zip(("left", "ok", "right"), keys, strict=False)):
                    rect = pygame.Rect(left + 40 + index * 80, top + 36, 70, 40)
                    hold = InputEvent(number, "back") if key == "ok" else HOLD_KEYS.get((number, key))
                    self.buttons.append(Button(number, key, KEY_LABELS[key], rect, letter.upper(), hold, _code(letter)))
            else:
                height = 150
                self.keypads.append(number)
                for index, (label, letter) in enumerate(zip(AREA_LABELS, AREA_KEYS, strict=True)):
                    rect = pygame.Rect(left + 14 + index * 50, top + 34, 46, 34)
                    area = f"area:{AREAS[index]}"
                    self.buttons.append(Button(number, area, label, rect, letter.upper(), code=_code(letter)))
                for value, letter in enumerate(MARKER_KEYS):
                    rect = pygame.Rect(left + 14 + value * 50, top + 74, 46, 30)
                    self.buttons.append(Button(number, f"marker:{value}", str(value), rect, letter, code=_code(letter)))
                for index, (key, letter) in enumerate(zip(("left", "ok", "right"), keys, strict=False)):
                    rect = pygame.Rect(left + 224 + index * 50, top + 74, 46, 30)
                    label = {"left": "<", "ok": KEY_LABELS["ok"], "right": ">"}[key]
                    hold = HOLD_KEYS.get((number, key))
                    self.buttons.append(Button(number, key, label, rect, letter.upper(), hold, _code(letter)))
                rect = pygame.Rect(left + 14, top + 110, 96, 28)
                self.buttons.append(
                    Button(number, "back", KEY_LABELS["back"], rect, keys[3].upper(), code=_code(keys[3]))
                )
            self.pad_boxes[number] = pygame.Rect(left, top, 380, height - 6)
            top += height
        self.hint_top = max(top, y + 64)  # under the pads and the host's buttons: the hint lines
        self.size = (left + 400, self.hint_top + 8 + HINT_ROWS * 20)  # every hint line whole
        self.focus = self.keypads[0] if self.keypads else None
        self.focus_keys = {getattr(pygame, FOCUS_KEYS[number]): number for number in self.keypads}
        self.keymap: dict[int, Button] = {}  # keys that always mean the same button
        self.focused: dict[str, dict[int, Button]] = {number: {} for number in self.keypads}  # the focused keypad's
        for button in self.buttons:
            if button.key.startswith(("area:", "marker:")):
                self.focused[button.source][button.code] = button
            else:
                self.keymap[button.code] = button
        for number in ("1", "2", "3", "4"):  # 3-button pads: the back key is a held ok
            if int(number) <= self.three_button:
                ok = next(b for b in self.buttons if b.source == number and b.key == "ok")
                self.keymap[_code(PAD_KEYS[number][3])] = Button(
                    number, "back", "back", ok.rect, code=_code(PAD_KEYS[number][3])
                )

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

    def key_button(self, code: int) -> Button | None:
        """The button a key press means now: its own, or an area or marker key of the keypad that has the focus."""
        button = self.keymap.get(code)
        if button is None and self.focus is not None:
            button = self.focused[self.focus].get(code)
        return button

    def handle(self, event: Any) -> bool:
        """One pygame event; False when the window is being closed."""
        pygame = self.pygame
        if event.type == pygame.QUIT:
            return False
        if self.mixer is not None and event.type == self.mixer.event:
            self.mixer.handle(event)
        if event.type == pygame.KEYDOWN and event.key in self.focus_keys:
            self.focus = self.focus_keys[event.key]
            self.dirty = True
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_TAB and self.focus is not None:
            self.focus = self.keypads[(self.keypads.index(self.focus) + 1) % len(self.keypads)]
            self.dirty = True
        elif event.type == pygame.KEYDOWN and (button := self.key_button(event.key)) is not None:
            if button.key == "back" and button.source != "host" and int(button.source) <= self.three_button:
                self.app.step(InputEvent(button.source, "back"))
                return True
            self._begin(("key", str(event.key)), button)
        elif event.type == pygame.KEYUP and ("key", str(event.key)) in self.down:
            self._end(("key", str(event.key)))
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            clicked = next((b for b in self.buttons if b.rect.collidepoint(event.pos)), None)
            if clicked is not None:
                if clicked.source in self.keypads:  # the keyboard's area and marker keys follow the mouse
                    self.focus = clicked.source
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
        if self.app.turn_page_if_due():  # a notice's parts turn by themselves, as on the device
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

    def _text(self, text: str, colour: Any, small: bool = False, tiny: bool = False) -> Any:
        """Labels are drawn every frame but rarely change: render each once."""
        key = (text, tuple(colour), small, tiny)
        surface = self._texts.get(key)
        if surface is None:
            face = self.tiny if tiny else self.small if small else self.font
            surface = self._texts[key] = face.render(text, True, colour)
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
            self._draw_pad(number, box, seats)
        for button in self.buttons:
            self._draw_button(button)
        for index, line in enumerate(self.hint_lines()):
            surface.blit(self._text(line, DIM, small=True), (20, self.hint_top + 4 + index * 20))
        pygame.display.flip()
        self.dirty = False
        self._drawn_frames = self.app.display.frames
        self._drawn_at = self.clock()
        self.drawn += 1

    def _draw_pad(self, number: str, box: Any, seats: dict[str, tuple[str, str]]) -> None:
        """The pad's frame in its player's colour, its name, its LED, and which keys are its left, ok, right and
        back (and, on a keypad, which key gives it the area and marker keys: it is outlined while it has them)."""
        pygame, surface = self.pygame, self.surface
        colour = PLAYER_COLOURS.get(seats[number][0], DIM) if number in seats else DIM
        if number == self.focus:
            pygame.draw.rect(surface, ACCENT, box.inflate(8, 8), 2, border_radius=10)
        pygame.draw.rect(surface, BACKGROUND, box, border_radius=8)
        width = 4 if self.flash.get(number, 0) >= self.clock() else 2
        pygame.draw.rect(surface, colour, box, width, border_radius=8)
        name = seats[number][1] if number in seats else _("free")
        surface.blit(self._text(_("Pad {n}: {name}").format(n=number, name=name), colour), (box.left + 10, box.top + 8))
        lit = self.leds.get(number, {}).get("turn", "off") != "off"
        pygame.draw.circle(surface, ACCENT if lit else (60, 60, 60), (box.right - 20, box.top + 16), 8)
        for index, line in enumerate(self.pad_hints(number)):
            keypad = number in self.keypads
            at = (box.left + 124, box.top + 110 + index * 16) if keypad else (box.left + 40, box.top + 82)
            focused = index == 1 and number == self.focus
            surface.blit(self._text(line, ACCENT if focused else DIM, small=True), at)

    def _draw_button(self, button: Button) -> None:
        """The button, its label, and its key: beneath a host button, in a pad button's corner (dim on a keypad
        that does not have the focus, whose area and marker keys go elsewhere)."""
        pygame, surface = self.pygame, self.surface
        lit = self.leds.get(button.source, {}).get(button.key, "off") != "off"
        pressed = any(b is button for _start, b, _fired in self.down.values())
        fill = ACCENT if lit else (90, 90, 100) if pressed else (55, 58, 70)
        pygame.draw.rect(surface, fill, button.rect, border_radius=6)
        text = self._text(_(button.label), BACKGROUND if lit else TEXT)
        shift = 0 if button.source == "host" else -4  # room for the key in the corner
        surface.blit(text, text.get_rect(center=(button.rect.centerx + shift, button.rect.centery + 1)))
        if button.source == "host":
            hint = self._text(_(button.hint), DIM, small=True)
            surface.blit(hint, hint.get_rect(midtop=(button.rect.centerx, button.rect.bottom + 4)))
            return
        waiting = button.key.startswith(("area:", "marker:")) and button.source != self.focus
        colour = BACKGROUND if lit else (120, 120, 130) if waiting else ACCENT
        corner = self._text(button.hint, colour, tiny=True)
        surface.blit(corner, corner.get_rect(topright=(button.rect.right - 3, button.rect.top + 2)))

    def pad_hints(self, number: str) -> list[str]:
        """Under a pad: which key is its left, ok, right and back; on a keypad, the key that gives it the focus."""
        left, ok, right, back = (letter.upper() for letter in PAD_KEYS[number])
        if number not in self.keypads:
            text = _("left {left}, ok {ok}, right {right}; back {back} or hold ok")
            return [text.format(left=left, ok=ok, right=right, back=back)]
        focus = FOCUS_KEYS[number][2:]
        return [
            _("left {left}, ok {ok}, right {right}, back {back}").format(left=left, ok=ok, right=right, back=back),
            _("areas, markers: {key} or Tab").format(key=focus)
            if number != self.focus
            else _("areas, markers: these keys ({key})").format(key=focus),
        ]

    def hint_lines(self) -> list[str]:
        """What the host's keys do on the screen shown (the screen says it: ``Screen.keys``, through the App), and,
        with keypads, how the keyboard reaches their area and marker keys."""
        meanings: dict[str, list[str]] = {}
        for key, meaning in self.app.screen_keys:  # keys with the same meaning named together: "ok/right: ..."
            meanings.setdefault(meaning, []).append(_(KEY_LABELS.get(key, key)))
        named = "; ".join(f"{'/'.join(keys)}: {meaning}" for meaning, keys in meanings.items())
        lines = [(_("Host: {keys}.").format(keys=named) if named else "") + " " + _("Close the window to stop.")]
        served = getattr(self.app, "phones_served", None)
        if served:  # the port is open to the network: say so (web.enabled = false closes it)
            lines.append(_("Phones and the table view: {address} (web.enabled = false turns it off).").format(
                address=served))  # fmt: skip
        if self.keypads:
            focus = ", ".join(FOCUS_KEYS[number][2:] for number in self.keypads)
            areas = " ".join(letter.upper() for letter in AREA_KEYS)
            text = _("Keypads: {focus} or Tab picks the one that gets the area keys {areas} and the marker keys 0-3.")
            lines.append(text.format(focus=focus, areas=areas))
        return [line.strip() for line in lines]

    def save(self, path: str) -> None:
        if self.stale:
            self.draw()
        self.pygame.image.save(self.surface, path)

    def close(self) -> None:
        self.pygame.quit()


def _code(letter: str) -> int:
    """The pygame key of a letter or digit key as written on a button."""
    import pygame

    return int(pygame.key.key_code(letter))
