"""The speaker thread with the real eSpeak NG and aplay (Debian's espeak-ng and alsa-utils, requirements/system.txt):
what it renders is measured in the WAV files it keeps; a device that never takes audio, one that is missing and one
that comes back are stand-in players in aplay's place. Waits are hang guards only: every verdict is an event or a count.
"""

from __future__ import annotations

import logging
import statistics
import sys
import threading
import wave
from array import array
from pathlib import Path

import pytest

from hardware.speaker import Speaker
from hardware.speech import Alsa, Espeak, WavCapture
from tests.hardware.test_serial_pads import wait_for
from tests.system_tools import need_tool

SAID = {"en": "Red wins!", "de": "Grün gewinnt!", "it": "Vince il Rosso!"}
LONG = "A sentence long enough to fill any pipe between the engine and the player, and then some more. " * 8
# A device that opens (the start's check plays it 882 bytes of silence) and then never takes audio. A shell, not a
# Python stand-in: it is started for every utterance, and bench pi's row with it must not measure interpreters starting.
STUCK = ("sh", "-c", 'n=$(head -c 1024 | wc -c); [ "$n" -lt 1024 ] || exec sleep 600', "stuck")


@pytest.fixture(autouse=True)
def engine_and_player() -> None:
    need_tool("espeak-ng")
    need_tool("aplay")


def measured(path: Path) -> dict[str, float]:
    """A WAV's format and loudness, read with the standard library."""
    with wave.open(str(path)) as audio:
        frames = audio.readframes(audio.getnframes())
        samples = array("h", frames)
        return {
            "rate": audio.getframerate(),
            "channels": audio.getnchannels(),
            "width": audio.getsampwidth(),
            "seconds": audio.getnframes() / audio.getframerate(),
            "peak": max(max(samples), -min(samples)),
            "rms": statistics.fmean(s * s for s in samples[::20]) ** 0.5,
        }


def test_a_capture_keeps_every_utterance_in_order_as_non_silent_wav_in_each_language(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    speaker = Speaker(Espeak(), WavCapture(tmp_path), rate=160, volume=80)
    for language, text in [*SAID.items(), ("en", SAID["en"])]:  # the first again: the same bytes
        speaker.say(text, language)
    assert speaker.flush(timeout=60)
    speaker.close()
    files = sorted(tmp_path.glob("speech-*.wav"))
    assert [f.name for f in files] == [f"speech-{n:05d}.wav" for n in range(1, 5)], "nothing cut or dropped"
    index = (tmp_path / "speech.txt").read_text(encoding="utf-8").splitlines()
    assert index == [
        f"{n:05d}\t{lang}\t{text}" for n, (lang, text) in enumerate([*SAID.items(), ("en", SAID["en"])], 1)
    ]
    for path in files:
        found = measured(path)
        assert (found["rate"], found["channels"], found["width"]) == (22050, 1, 2)
        assert found["seconds"] > 0.5 and found["peak"] > 3000 and found["rms"] > 500, (path.name, found)
    assert files[0].read_bytes() == files[3].read_bytes(), "the same text and settings: the same bytes"
    assert len({path.read_bytes() for path in files[:3]}) == 3
    assert speaker.said == 4 and speaker.fault is None
    assert not any(text in caplog.text for text in SAID.values()), "no utterance in the log"


def test_the_volume_is_the_engines_amplitude_and_zero_is_silence(tmp_path: Path) -> None:
    assert Espeak().command("de", 150, 40)[1:] == ["-b", "1", "-v", "de", "-s", "150", "-a", "40", "--stdout"]
    speaker = Speaker(Espeak(), WavCapture(tmp_path), volume=0)
    speaker.say("Nobody hears this.", "en")
    speaker.set_volume(30)
    speaker.say("Quietly.", "en")
    assert speaker.flush(timeout=60)
    speaker.close()
    assert [line.split("\t")[2] for line in (tmp_path / "speech.txt").read_text().splitlines()] == ["Quietly."]


def test_alsa_plays_through_aplay_to_the_end(caplog: pytest.LogCaptureFixture) -> None:
    speaker = Speaker(Espeak(), Alsa("null"))
    speaker.say(SAID["it"], "it")
    assert speaker.flush(timeout=60)
    speaker.close()
    assert (speaker.fault, speaker.said, speaker.cut_short, speaker.failed) == (None, 1, 0, 0)
    assert "sound:" not in caplog.text


def test_say_never_waits_for_a_device_that_takes_no_audio_and_a_later_one_for_its_moment_cuts_it_short() -> None:
    speaker = Speaker(Espeak(), Alsa("null", player=STUCK))
    speaker.say(LONG, "en", "count")
    first = wait_for(lambda: (job := speaker.job) is not None and len(job.processes) == 2 and job)
    # the speaker's thread is now stuck writing to a player that never reads; the game thread's say() still returns
    game_thread = threading.Thread(target=speaker.say, args=("Short.", "en", "count"))
    game_thread.start()
    game_thread.join(timeout=10)  # a hang guard: say() never waits for the speaker's thread
    assert not game_thread.is_alive()
    assert [process.wait(timeout=10) for process in first.processes] == [-9, -9], "engine and player killed"
    second = wait_for(lambda: (job := speaker.job) is not None and job is not first and len(job.processes) == 2 and job)
    assert second.utterance.text == "Short." and speaker.cut_short == 1 and speaker.said == 0
    speaker.close()
    engine, player = (process.wait(timeout=10) for process in second.processes)  # close() leaves no child
    assert player == -9 and engine in (0, -9), "the short one's engine may have finished before the cut"
    assert not speaker._thread.is_alive()


def test_a_missing_engine_is_one_line_at_start_and_then_silence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    speaker = Speaker(Espeak(), WavCapture(tmp_path / "voice"))
    assert speaker.wait_checked(timeout=60) and speaker.fault == "engine"
    speaker.say("Red wins!", "en")
    speaker.say("Blue wins!", "en")
    assert speaker.flush(timeout=60)
    speaker.close()
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("sound:")]
    assert lines == ["sound: espeak-ng is not installed (sudo apt install espeak-ng); the companion goes on silently"]
    assert caplog.records[0].levelno == logging.ERROR and not (tmp_path / "voice" / "speech.txt").exists()


@pytest.mark.parametrize(
    ("output", "line"),
    [
        (Alsa("plughw:CARD=Nope"), 'sound: cannot play on "plughw:CARD=Nope" ('),
        (
            Alsa("default", player=("no-such-player",)),
            "sound: no-such-player is not installed (sudo apt install alsa-utils)",
        ),
    ],
)
def test_a_device_that_cannot_play_is_one_line_at_start(
    output: Alsa, line: str, caplog: pytest.LogCaptureFixture
) -> None:
    speaker = Speaker(Espeak(), output)
    assert speaker.wait_checked(timeout=60) and speaker.fault == "device"
    speaker.say("Red wins!", "en")
    assert speaker.flush(timeout=60)
    speaker.close()
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("sound:")]
    assert len(lines) == 1 and lines[0].startswith(line) and lines[0].endswith("; the companion goes on silently")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_device_that_comes_back_is_used_again_and_one_that_goes_away_is_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    plugged = tmp_path / "plugged"
    player = (
        sys.executable,
        "-c",
        "import os, sys; sys.stdin.buffer.read(); sys.exit(not os.path.exists(sys.argv[1]))",
    )
    clock = Clock()
    speaker = Speaker(Espeak(), Alsa("usb", player=(*player, str(plugged))), retry_s=60, clock=clock)
    assert speaker.wait_checked(timeout=60) and speaker.fault == "device"
    speaker.say("Not yet.", "en")  # within a minute of the check: not tried again
    assert speaker.flush(timeout=60) and speaker.fault == "device" and speaker.said == 0
    plugged.touch()
    clock.now = 60.0
    speaker.say("Now it plays.", "en")
    assert speaker.flush(timeout=60) and speaker.fault is None and speaker.said == 1
    plugged.unlink()
    speaker.say("Unplugged while it plays.", "en")
    assert speaker.flush(timeout=60) and speaker.fault == "device" and speaker.said == 1
    speaker.close()
    lines = [(r.levelname, r.getMessage()) for r in caplog.records if r.getMessage().startswith("sound:")]
    assert [level for level, _message in lines] == ["ERROR", "WARNING", "ERROR"], lines
    assert lines[0][1] == 'sound: cannot play on "usb" (status 1); the companion goes on silently'
    assert lines[2][1].startswith('sound: the audio device "usb" stopped playing (aplay status 1)')
    assert not any(text in caplog.text for text in ("Not yet", "Now it plays", "Unplugged"))


def test_an_utterance_is_cut_only_by_a_later_one_for_its_moment() -> None:
    """A count stuck playing (a device that never takes audio, so it plays as long as the test likes).
    A computer player's move that adds to it, and the next moment, queue behind it: nothing cut or dropped. Only
    the count said anew (the repeat key) replaces it, and what waited for it; the next moment still waits."""
    speaker = Speaker(Espeak(), Alsa("null", player=STUCK))
    speaker.say(LONG, "en", "count")
    count = wait_for(lambda: (job := speaker.job) is not None and len(job.processes) == 2 and job)
    speaker.say("Yellow: two houses in Cannaregio.", "en", "count", adds=True)
    speaker.say("Round one: choose on your keypads.", "en", "round")
    assert not count.stopped and all(process.poll() is None for process in count.processes)
    assert (speaker.cut_short, speaker.dropped) == (0, 0)
    speaker.say(LONG, "en", "count")  # the same moment, said anew in full
    assert [process.wait(timeout=10) for process in count.processes] == [-9, -9]
    again = wait_for(lambda: (job := speaker.job) is not None and job is not count and len(job.processes) == 2 and job)
    assert again.utterance.text == "Round one: choose on your keypads."
    assert (speaker.cut_short, speaker.dropped) == (1, 1), "the count cut, its added move dropped"
    speaker.close()
