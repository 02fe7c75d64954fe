"""The one composition root: builds the hardware, pads and display the settings name, and runs the game thread.

Everything that happens, happens on the thread that calls :meth:`App.run`; hardware threads (and the page timer) only
put events on the queue. The simulator and the tests build the same App with other adapters."""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from display.backends import Display, build_display
from display.render import render
from display.screen import Line, Screen
from hardware.events import POWER, BotMove, Event, EventQueue, InputEvent, PadStatus, PageTick
from hardware.gpio import GpioButtons, GpioIndicators, Unwired, pi_pin_factory
from hardware.indicators import Indicators
from hardware.page_timer import PageTimer

from ..flow.context import DeviceNotes
from ..flow.controller import Controller, Effect
from ..flow.paging import Parts
from ..flow.seats import Seat, Source
from ..i18n import _, set_language
from ..store import Store, default_directory, now
from ..system import notify
from ..system.config import Settings
from ..system.notify import Notifier
from .first_boot import first_notes, open_network, show_starting, with_hotspot
from .loop import autoplay_table, serve
from .phones import PhonePads, Server, start_web_pads, write_join_link
from .resume import resume_unfinished
from .saver import StoreSaver
from .summary import write_summary
from .voice import build_voice

if TYPE_CHECKING:  # imported where built: pyserial is not needed before the first frame, nor at all without keypads
    from hardware.serial_pads import SerialPads

    from ..web.server import WebPads

log = logging.getLogger(__package__)  # "companion.app", the name its lines have always had


class App:
    def __init__(
        self,
        settings: Settings,
        *,
        screenshots: Path | None = None,
        pin_factory: Any = None,
        events: EventQueue | None = None,
        seed: int | None = None,
        entry: str | None = None,
        store: Store | None = None,
        acks: Any = None,
        notifier: Notifier | None = None,
        power_off: Callable[[], None] | None = None,
        summary_path: Path | None = None,
        serve_web: bool = False,
        audio: Path | None = None,
        sound_output: Any = None,  # hardware.speech's Output: tests and benchmarks choose where the voice goes
        page_clock: Callable[[], float] | None = None,  # the page timer's clock (monotonic): tests give their own
    ) -> None:
        self.settings = settings
        self.summary_path = summary_path  # where the summary picture goes, if not beside the store (a throw-away one)
        self.events = events or EventQueue()
        self.mock = settings["hardware"] == "mock"
        self._closers: list[Any] = []
        self._build_hardware(pin_factory, screenshots)
        set_language(settings["game"]["language"])  # the table's language; a resumed game keeps its own
        show_starting(settings, self.display)  # an LCD lights at once: the store and the hardware check come after
        self.screen: Screen | None = None
        self.page_timer = PageTimer(settings["display"]["page_seconds"], page_clock or time.monotonic)
        self._part: tuple[Parts, int] | None = None  # the part the page timer counts for (Parts.shown)
        self.on_effect: Callable[[Effect], None] | None = None  # the simulator draws pad LEDs and beeps
        self.notifier = notifier or Notifier()
        self.power_off = power_off or notify.power_off
        self.stopping = False
        try:
            self.store = store or Store(default_directory(settings["game"]["state_dir"]))
        except Exception:  # a full disk (StoreUnavailable): the hardware opened above is let go before saying so
            self.close()
            raise
        self._closers.append(self.store)
        self.voice = self._keep(build_voice(settings, self.store.path, audio, sound_output))
        self.saver = StoreSaver(self.store)
        self.saver.acks = acks
        # Shuffles use the operating system's randomness; a seed (tests, demos) makes them reproducible.
        rng: random.Random = random.SystemRandom() if seed is None else random.Random(seed)
        self.text_size = settings["display"]["text_size"]
        self.bot_pause = settings["game"]["bot_pause_ms"] / 1000
        self.bot_sleep: Callable[[float], None] = time.sleep  # the bot's pause; tests hold it with an event
        # Its own source: drawing from the shuffles' generator would change every later shuffle of a seeded game.
        self._bot_rng: random.Random = random.SystemRandom() if seed is None else random.Random(seed + 1)
        self._bot_busy = False
        self.summary: Path | None = None  # the finished game's summary picture, once written
        self._summary_of: int | None = None  # which game of the evening it was written for
        self.network, device = first_notes(settings)  # loop.py: watch_network
        self.controller, self.resumed = resume_unfinished(
            self.store, self.saver, lambda: self._fresh_controller(rng, entry or settings["game"]["entry"], device)
        )
        # Phones as pads (companion/web): only for a table (run, sim), never for a script or a test's App.
        self.web: WebPads | None = None
        self.phones: PhonePads | None = None
        if serve_web and settings.data.get("web", {}).get("enabled"):
            self._start_web()

    def _build_hardware(self, pin_factory: Any, screenshots: Path | None) -> None:
        """Buttons, LEDs, keypads and the display, as the settings name them (all closed again if one fails)."""
        # Simulated hardware gets GPIO only with a pin factory to drive (tests inject gpiozero's MockFactory):
        # nothing could press a mock pin made here, and gpiozero is most of the imports before the first frame.
        wired = pin_factory is not None or not self.mock
        if wired and pin_factory is None:
            pin_factory = pi_pin_factory()
        self.pin_factory = pin_factory
        data = self.settings.data
        try:
            self.buttons = self._keep(GpioButtons(data, self.events, pin_factory) if wired else Unwired())
            self.indicators: Indicators = self._keep(GpioIndicators(data, pin_factory) if wired else Unwired())
            self.pads = self._build_pads()
            self.display: Display = self._keep(self._build_display(screenshots))
        except Exception:
            self.close()
            raise

    def _fresh_controller(self, rng: random.Random, entry: str, device: DeviceNotes) -> Controller:
        """A controller for a new evening at this device: its display, store and settings."""
        game = self.settings["game"]
        return Controller(
            rng,
            entry=entry,
            cues=game["cues"],
            clock=now,
            saver=self.saver,
            parts=Parts(self.display.size, self.text_size),  # a screen too long for it is shown in parts
            storage_problem=self.store.problem,
            bot_level=game["bot_level"],
            bot_work=game["bot_work"] or None,
            device=device,
        )

    def _start_web(self) -> None:
        held = self.store.phones(self.saver.game) if self.saver.game is not None else {}
        hotspot = open_network()
        address = hotspot.address if hotspot else None
        pads = start_web_pads(self.settings["web"], self.events, held.values(), address, self.network.looking)
        if pads is not None:
            self._closers.append(pads)
            self.web = pads
            phones = self.attach_phones(pads, held)
            if hotspot is not None:  # phones join the Pi's network first: its code comes before the join code
                phones.device = with_hotspot(phones.device, hotspot)
            if self.mock:
                write_join_link(pads.url, default_directory(self.settings["game"]["state_dir"]))

    def attach_phones(self, server: Server, held: dict[str, str] | None = None) -> PhonePads:
        """Phones as pads through ``server`` (the web pads', or a test's in memory); ``held``: the seats phones hold
        in the game going on (source -> phone), stored with the seats hidden from their phones (``give_seat``)."""
        hidden = self.store.hidden(self.saver.game) & (held or {}).keys() if self.saver.game is not None else set()
        self.phones = PhonePads(self, server, held, hidden)
        self.saver.phones = self.phones.held_seats  # stored with a new game
        self.controller.add_to_screens(self.phones)  # the join code, the phones page
        return self.phones

    def give_seat(self, source: str, phone: str, hidden: bool) -> None:
        """A phone holds ``source``'s seat now (``hidden``: the seat's locked-in ballot is not the phone's to see):
        stored with the game first, so a restart keeps both."""
        if self.saver.game is not None:
            self.store.give_seat(self.saver.game, source, phone, hidden)

    def unhide(self, source: str) -> None:
        if self.saver.game is not None:
            self.store.unhide(self.saver.game, source)

    def _keep(self, thing: Any) -> Any:
        self._closers.append(thing)
        return thing

    def _build_pads(self) -> SerialPads | None:
        wired = len(self.settings["pads"]["gpio"])
        numbers = [str(n) for n in range(wired + 1, 5)]
        setting = self.settings["pads"]["serial"]
        if setting == "off" or not numbers:
            return None
        from hardware.serial_pads import SerialPads

        pads: SerialPads = self._keep(SerialPads(setting, self.events, numbers))
        return pads

    def _build_display(self, screenshots: Path | None) -> Display:
        data = self.settings.data
        if self.mock and data["display"]["driver"] != "capture":
            # Simulated hardware: the same picture at the configured LCD's size, kept in memory.
            data = {**data, "display": {**data["display"], "driver": "capture"}}
        return build_display(data, self.settings.display_size, screenshots)

    @property
    def screen_tags(self) -> tuple[str, ...]:
        return self.screen.tags if self.screen is not None else ()

    @property
    def screen_keys(self) -> tuple[tuple[str, str], ...]:
        """What the host's keys do on the screen shown (``Screen.keys``), for a window that draws the device's
        buttons: display/ may not ask the game flow itself."""
        return self.screen.keys if self.screen is not None else ()

    @property
    def phones_served(self) -> str | None:
        """Where phones and the table view reach this companion ("http://192.168.1.20:8080"), None if it serves none:
        said on the simulator's window and when it starts, so nobody finds an open port they were not told of. The
        join link with its secret stays on the setup screen's QR code."""
        return None if self.web is None else f"http://{self.web.address}:{self.web.port}"

    def seat_names(self) -> dict[str, tuple[str, str]]:
        """Each seat's colour and the name people say for it, for a window that draws the pads (computer seats by
        their source, "cpu1"..., named as computers)."""
        from ..flow.board_text import player_name

        seats = self.controller.seats
        return {
            source: (
                colour,
                _("Computer ({colour})").format(colour=player_name(colour))
                if seats.is_bot(source)
                else player_name(colour),
            )
            for source, colour in seats.joined
        }

    def show(self, screen: Screen) -> None:
        parts = self.controller.parts
        if self._part != (parts, parts.shown):  # a part appeared: it is up a whole page_seconds before it turns
            self._part = (parts, parts.shown)
            self.page_timer.restart()
        if screen != self.screen:
            self.screen = screen
            self.display.show(render(screen, self.display.size, text_size=self.text_size))

    def step(self, event: Event) -> None:
        """Handle one event: the controller decides, the hardware shows."""
        phones = self.phones
        match event:
            case InputEvent(source="host", key=key, kind="hold") if key == POWER:
                self.shut_down()
                return
            case InputEvent(key="left", kind="hold"):  # any pad's or the host's: the moment again (docs/sound.md)
                self.voice.repeat(self.controller)
            case BotMove(seat, decision, token):
                self._bot_busy = False
                self.controller.apply_bot(Seat(seat), decision, token)
            case InputEvent(source) if phones is not None and phones.holds(source):
                pass  # a keypad or GPIO pad whose seat a phone holds is not the seat's
            case PageTick():
                self.page_timer.restart()  # the next tick a whole page_seconds on, whether this one turns a part
                self.controller.handle(event)
            case InputEvent() | PadStatus():
                self.controller.handle(event)
            case _ if phones is not None:
                phones.step(event)  # a phone's press, page or request (companion/web)
            case _:
                log.debug("%s without phones: ignored", type(event).__name__)
        self.show(self.controller.screen())
        self._ask_bot()  # after the frame: the computer's view (a world sampled for it) is not the press's to wait for
        if phones is not None:
            phones.publish()
        self._write_summary()
        for effect in self.controller.take_effects():
            self._effect(effect)
        self.voice.hear(self.controller)  # after the frame: the screen never waits for the voice

    def turn_page_if_due(self) -> bool:
        """The page timer's tick, if the part shown has been up its time (the loop and the simulator ask)."""
        if self.page_timer.due_in() != 0:
            return False
        self.step(PageTick())
        return True

    def _write_summary(self) -> None:
        """When a game ends: its one-page summary (standings, chart, the board at the end) beside the record, as
        game-<id>-summary.png in the store's directory, or at ``summary_path`` (a script's game: its store is
        thrown away, so the picture goes beside the ``--record`` file). A game kept nowhere gets none."""
        state, game, store_path = self.controller.state, self.saver.game, self.store.path
        # Over once its last notices are read: until then its last decision may still be taken back (rules.md 11.4.1).
        if state is None or self.controller.stage != "over" or game is None or self._summary_of == game:
            return
        path = self.summary_path
        if path is None:
            if store_path is None:
                return
            path = store_path.with_name(f"game-{game}-summary.png")
        if write_summary(path, state, self.controller.palaces_by_year):
            self.summary, self._summary_of = path, game

    def _ask_bot(self) -> None:
        """A computer seat thinks on its own thread (the screen never waits for it) and answers through the queue,
        after a short pause so the table can follow."""
        controller = self.controller
        if self._bot_busy or controller.sync_bots:
            return
        seat = controller.pending_bot()
        if seat is None:
            return
        token = len(controller.record)
        view = controller.bot_view(seat, self._bot_rng)
        bot = controller.bots[seat]
        self._bot_busy = True

        def think() -> None:
            started = time.monotonic()
            decision = bot.decide(view)
            self.bot_sleep(max(0.0, self.bot_pause - (time.monotonic() - started)))
            self.events.put(BotMove(seat, decision, token))

        threading.Thread(target=think, name="computer player", daemon=True).start()

    def dark(self, source: str) -> None:
        """Every light of ``source``'s pad off (a phone takes its seat: the pad must not echo the phone's keys)."""
        self._effect(Effect("led", Source(source), "all", "off"))

    def _effect(self, effect: Effect) -> None:
        if self.phones is not None and self.phones.holds(effect.source):
            self.phones.cue(effect)  # on that phone alone: the table's buzzer, keypads and simulator must not show it
            return
        if self.on_effect is not None:
            self.on_effect(effect)
        keypad = self.pads is not None and self.pads.by_source(effect.source) is not None
        if effect.kind == "beep":  # on the player's keypad if it has one, else the device's buzzer
            (self.pads if keypad and self.pads is not None else self.indicators).beep(effect.source)
        elif effect.kind == "sound":
            self.voice.set_level(int(effect.state))
        elif effect.kind == "led":
            sinks: tuple[Indicators | None, ...] = (self.indicators, self.pads)
            for indicators in sinks:
                if indicators is not None:
                    indicators.led(effect.source, effect.target, effect.state)

    def run(
        self, stop: threading.Event, script: Iterable[InputEvent | PageTick] | None = None, autoplay: int | None = None
    ) -> int:
        """The game thread: wait for an event (blocking: no busy loop), handle it, redraw if the screen changed.

        With a ``script`` the events come from it instead, and the run ends when it does. With ``autoplay`` a
        simulated table plays (demos, the crash harness) until the game is over.
        """
        self.controller.answer_at_once(script is not None or autoplay is not None)
        self.show(self.controller.screen())
        if self.phones is not None:
            self.phones.publish()  # the table view shows the table from its first frame
        self.voice.hear(self.controller)
        self._ask_bot()
        self.notifier.ready("showing the first screen")
        try:
            if autoplay is not None:
                return autoplay_table(self, stop, autoplay)
            if script is not None:
                for scripted in script:
                    if stop.is_set() or self.stopping:
                        break
                    self.step(scripted)
                return 0
            serve(self, stop)  # loop.py: the queue, the page timer, the store's idle work, the watchdog
            return 0
        finally:
            self.notifier.stopping()

    def shut_down(self) -> None:
        """The host's back button held long: everything is saved already; say so, then switch the Pi off."""
        self.show(
            Screen(
                _("Shutting down"),
                (Line(_("Everything is saved."), "normal"), Line(_("Unplug when the Pi's light is off."), "normal")),
                tags=("shutdown",),
            )
        )
        self.stopping = True
        if self.mock:
            log.info("a long press of back would switch the Pi off; on simulated hardware the companion stops")
            return
        try:
            self.power_off()
        except Exception as error:  # no logind or no polkit rule: say how to fix it
            log.error("could not switch the Pi off (%s): is the polkit rule installed? (docs/building.md)", error)

    def close(self) -> None:
        display = getattr(self, "display", None)
        if display is not None:
            try:
                display.blank()
            except Exception:  # a failing screen must not keep the rest from closing
                log.debug("blanking the display failed", exc_info=True)
        for thing in reversed(self._closers):
            thing.close()
        self._closers.clear()
        if hasattr(self, "notifier"):
            self.notifier.close()
