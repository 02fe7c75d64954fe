"""Which part of a long screen the table sees, and which keys turn its parts: the one paging policy of the game flow.

A notice, a question, a board-check page or the standings can be too long for a small display (160x128, above all
in German), and are then shown in parts (``display/pages.py``). The App tells the size (``Parts.size``); with no
size (the tests' controllers, computer players) nothing is cut, so what a test reads is the whole screen. A new
screen always starts at its first part.

Each mode's bindings say which of its keys would turn a part (``Binding.turn``); the router turns it
(:meth:`Parts.turn`) before the key does what it does, and a key that turned a part does nothing else. Modes never
turn parts themselves. Where ok turns the parts (a notice, a question), the footer says "ok: more" until the last
part, so nobody answers or goes on past what they could not read.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Literal

from display.pages import paginate
from display.screen import TICK, Screen

from ..i18n import _

Turn = Literal["next", "back", "cycle", "unseen", "confirm"]
"""``next``/``back``: the next or previous part, if there is one; ``cycle``: the next part, or from the last back to
the first (setup's ok while the table is not ready to start: each part is seen again); ``unseen``: the next part not
shown yet, if there is one (a notice's ok: once every part was up, by itself or by a key, ok goes on); ``confirm``:
the page timer on a notice: ``cycle`` while a part is unseen, else to a part with a line still to confirm if the one
shown has none."""

COUNTER = re.compile(r" ?\(\d+/\d+\)")  # a page counter in a footer: "ok: go on (2/5)"


class Parts:
    def __init__(self, size: tuple[int, int] | None = None, text_size: str = "normal") -> None:
        self.size = size  # the display's, set by the App
        self.text_size = text_size  # the [display] text_size setting, set by the App
        self.index = 0
        self.count = 1  # the parts of the screen last shown
        self.seen: set[int] = set()  # the parts of it shown so far
        self.shown = 0  # one more each time a part appears (a new screen, another part): the page timer restarts
        self._of: Screen | None = None
        self._shown_index = 0
        self.to_confirm: list[int] = []  # the parts with a line its player is still to confirm

    @property
    def whole(self) -> Screen | None:
        """The whole screen whose part was shown last (without its keys)."""
        return self._of

    def fresh(self) -> Parts:
        """The same display, nothing shown on it yet (a new game)."""
        return Parts(self.size, self.text_size)

    def show(self, screen: Screen, keep: bool = False) -> Screen:
        """The part of ``screen`` to show now: a new screen's first part, unless ``keep`` and the screen before was
        of the same kind (setup changed in place: a setting changed on its second part). After a player's "done"
        ticks a line the part stays up its time: the page timer's next tick brings up a part with a line still to be
        confirmed (``turn("confirm")``)."""
        if self.size is None:
            return screen
        parts = paginate(screen, self.size, self.text_size)
        bare = replace(screen, keys=())
        fresh = False
        if bare != self._of:  # the same screen with other keys (its last part's) goes on
            before = self._of
            same_kind = before is not None and before.tags == screen.tags
            if same_kind and before is not None and ticked(before, screen):
                pass  # a player's done turns no part: the timer brings the next player's lines up (turn "confirm")
            elif not (keep and same_kind):
                self.index = 0
                fresh = True
            if not (same_kind and before is not None and (keep or before.title == screen.title)):
                self.seen = set()  # a new screen: setup changed in place (its language too) and ticks keep theirs
            self._of = bare
        self.count = len(parts)
        self.to_confirm = [k for k, part in enumerate(parts) if any(line.tick_room for line in part.lines)]
        self.index = min(self.index, self.count - 1)
        if fresh or self.index != self._shown_index:
            self.shown += 1
            self._shown_index = self.index
        self.seen.add(self.index)
        return parts[self.index]

    @property
    def unseen(self) -> bool:
        """Whether a part of the screen shown has not been up yet."""
        return any(k not in self.seen for k in range(self.count))

    def compact(self, screen: Screen) -> Screen:
        """A question or the rule help as one screen where the display is small (its first ok must answer,
        not turn a part): its lines in small type if that makes it fit; else unchanged, in parts."""
        if self.size is None or len(paginate(screen, self.size, self.text_size)) == 1:
            return screen
        small = replace(screen, lines=tuple(replace(line, size="small") for line in screen.lines))
        return small if len(paginate(small, self.size, self.text_size)) == 1 else screen

    def turn(self, how: Turn) -> bool:
        """Turn a part of the screen shown; False if there was none to turn to (the key then does what it does). The
        part turned to counts as seen at once: the App draws it before anything else happens, and a script's
        controller, which draws only when asked, then pages as the device does (tests/flow/test_script.py)."""
        turned = self._turn(how)
        if turned:
            self.seen.add(self.index)
        return turned

    def _turn(self, how: Turn) -> bool:
        if how == "confirm":
            later = [k for k in (*range(self.index + 1, self.count), *range(self.index)) if k in self.to_confirm]
            if self.unseen or self.index in self.to_confirm or not later:
                return self._turn("cycle")
            self.index = later[0]
            return True
        if how == "unseen":
            later = [k for k in (*range(self.index + 1, self.count), *range(self.index)) if k not in self.seen]
            if later:
                self.index = later[0]
            return bool(later)
        if how == "back":
            if self.index > 0:
                self.index -= 1
                return True
            return False
        if self.index + 1 < self.count:
            self.index += 1
            return True
        if how == "cycle" and self.count > 1:
            self.index = 0
            return True
        return False


def ticked(before: Screen, after: Screen) -> bool:
    """Whether ``after`` is ``before`` with lines ticked: a player's "done" on the same notice."""
    return before.title == after.title and [line.text.removeprefix(TICK) for line in before.lines] == [
        line.text.removeprefix(TICK) for line in after.lines
    ]


def part_to_show(parts: Parts, whole: Screen, *, keep: bool, ok_reads_on: bool) -> Screen:
    """The part of the screen the display shows. ``keep``: setup keeps its part when a setting changes.
    ``ok_reads_on``: ok shows the next part first (a notice, a question), and the footer says so. A screen in parts
    has one page counter, the part's: a reminder page's "(2/5)" leaves the footer."""
    shown = more_to_read(parts.show(whole, keep=keep), ok_reads_on and parts.unseen)
    if shown.part is not None and COUNTER.search(shown.footer):
        shown = replace(shown, footer=COUNTER.sub("", shown.footer))
    return shown


def more_to_read(screen: Screen, ok_reads_on: bool = False) -> Screen:
    """A part of a question or a notice before its last says that ok shows the next part rather than answering or
    going on yet; its page counter ("ok: go on (2/5)") waits for the last part, so there is one counter."""
    if screen.part is None or not ok_reads_on:
        return screen
    keys = (("ok", _("more")), *((key, meaning) for key, meaning in screen.keys if key != "ok"))
    return replace(screen, footer=_("ok: more"), keys=keys)
