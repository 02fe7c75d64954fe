"""The device's screen at one moment: the view of the mode on top, with the host's keys there, the banners that
belong on every screen (a store that cannot save, an unplugged pad), what the App adds (the phones'), cut to the part
of it the display shows (paging.py). Built only from what it is given: drawing changes nothing but the pager, and
which parts of the notice on top have been up (a notice goes only once every part was)."""

from __future__ import annotations

from dataclasses import replace

from display.screen import Line, Screen

from ..i18n import _
from .context import Context, Mode
from .modes import NOTICES
from .modes.undo_confirm import undo_key
from .paging import part_to_show
from .views import keep_names_together


def keys_of(mode: Mode, ctx: Context) -> tuple[tuple[str, str], ...]:
    """What the host's keys do on ``mode``'s screen (``Screen.keys``): the labels of its bindings, in their order."""
    return tuple((b.key, b.label) for b in mode.bindings(ctx) if b.by == "host" and b.label)


def compose(ctx: Context, top: Mode, storage_problem: str | None) -> Screen:
    screen = replace(top.view(ctx), keys=(*keys_of(top, ctx), *(() if top.holds_back else undo_key(ctx))))
    banner = [
        Line(_("Pad {pad} is unplugged: plug it back in").format(pad=source), "small", "red")
        for source in sorted(ctx.seats.unplugged)
    ]
    if storage_problem:
        banner.insert(0, Line(storage_problem, "small", "red"))
    if banner:
        screen = replace(screen, lines=(*banner, *screen.lines))
    whole = keep_names_together(ctx.additions.add(ctx, top, screen))
    setup = ctx.stage == "setup" and not ctx.between.overlays  # a setting changed: setup keeps its part
    if top.reads_whole:
        whole = ctx.parts.compact(whole)
    shown = part_to_show(ctx.parts, whole, keep=setup, ok_reads_on=top.ok_reads_on(ctx))
    if top is NOTICES:
        cut = ctx.parts.size is not None
        ctx.between.top_part_shown(ctx.parts.index if cut else 0, ctx.parts.count if cut else 1)
    return shown
