"""A phone's marker keys never lose a choice silently either (docs/pad-protocol.md, "Keying a ballot"): every
sequence of up to 6 marker keys pressed on a phone leaves its ballot holding one marker a key, in the order keyed,
except where a key asked for a marker of a value none is left of (or a fifth): that key is refused with the phone's
own cue, told to that phone alone right after the view its press brought, and the others stay. The keypad's side:
tests/flow/modes/test_marker_keys.py."""

from __future__ import annotations

import json
from itertools import product
from pathlib import Path

from companion.app import App
from companion.engine import private_view
from companion.store import Store
from companion.web.publisher import WebHello
from hardware.events import InputEvent
from tests.helpers import app_settings
from tests.web.memory import Lights, Pages


def test_every_sequence_of_up_to_6_marker_keys_on_a_phone_gives_the_ballot_the_keys_say_or_its_cue(
    tmp_path: Path,
) -> None:
    app = App(app_settings(tmp_path), seed=3, store=Store(None, memory=True))
    try:
        pages = Pages(app, ["a", "b", "c"])
        for phone in "abc":
            app.step(WebHello(phone))  # each sits down
        app.step(InputEvent("host", "right"))  # ballots on keypads (and phones)
        while app.controller.stage == "setup" or app.controller.notices:
            app.step(InputEvent("host", "ok"))
        state = app.controller.state
        assert state is not None and state.phase == "ballot" and app.controller.seats.entry == "keypads"
        device, keypads = Lights(), Lights()
        app.indicators, app.pads = device, keypads  # type: ignore[assignment]
        held = list(private_view(state, 0).markers)
        for name in ("a", "b", "c", "table"):
            pages.take(name)
        checked = refused = 0
        for length in range(1, 7):
            for values in product(range(4), repeat=length):
                app.controller.between.keying.clear(0)
                pages.press("a", "area:castello")
                pages.take("a")
                expected: list[int] = []
                for value in values:
                    pages.press("a", f"marker:{value}")
                    sent = [json.loads(text) for text in pages.take("a")]
                    assert sent and sent[0]["t"] == "view", values  # the press's own view comes first
                    cues = [message for message in sent if message["t"] == "cue"]
                    if expected.count(value) < held.count(value) and len(expected) < 4:
                        expected.append(value)
                        assert cues == [], values
                    else:
                        assert sent[1:] == [{"t": "cue", "key": f"marker:{value}"}], values
                        refused += 1
                    assert sent[0]["mine"]["keyed"]["markers"] == expected, values
                keyed = app.controller.between.keying.keypad[0]
                assert keyed.markers == expected, values
                checked += 1
        assert checked == 4 + 4**2 + 4**3 + 4**4 + 4**5 + 4**6
        assert refused > 0
        assert pages.take("b") == [] and pages.take("c") == [] and pages.take("table") == []  # nobody else hears
        assert device.calls == [] and keypads.calls == []  # nor the table's buzzer, LEDs or keypads
    finally:
        app.close()
