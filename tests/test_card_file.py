"""The card file (docs/card-file.md): doge-companion.toml on the card's FAT partition, a layer over the owner's config
file; a bad one is left out whole, said in one line on the LCD's setup screen and in the journal, and the companion
starts all the same. Its Wi-Fi password never reaches a problem line, a log or any output."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli.command import main
from companion.i18n import set_language
from companion.system import config
from companion.system.card import card_path

ROOT = Path(__file__).resolve().parents[1]
SECRET = "correct horse battery"
GOOD = f"""# written on a laptop
language = "de"
display = "st7735"

[game]
players = 4

[wifi]
country = "it"
ssid = "Casa"
password = "{SECRET}"

[[wifi.networks]]
ssid = "Club; 2nd floor"
password = "another {SECRET}"
"""


def card(tmp_path: Path, text: str | bytes, name: str = "doge-companion.toml") -> Path:
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


def owner(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_the_card_is_a_layer_over_the_owners_file_and_its_short_forms_map_onto_config_keys(tmp_path: Path) -> None:
    mine = owner(tmp_path, '[display]\ndriver = "st7789"\nrotate = 1\n[game]\nlanguage = "it"\nplayers = 3\n')
    settings = config.load(mine, card=card(tmp_path, GOOD))
    assert settings.card == tmp_path / "doge-companion.toml" and settings.card_problems == ()
    assert settings["display"]["driver"] == "st7735", "the card's display = ... wins over the owner's file"
    assert settings["display"]["rotate"] == 1, "what the card does not set stays the owner's"
    assert settings["game"]["language"] == "de" and settings["game"]["players"] == 4
    assert settings["game"]["bot_level"] == "normal", "and what neither sets, the defaults'"
    assert "wifi" not in settings.data and SECRET not in config.to_toml(settings.data)


def test_the_table_form_wins_over_the_short_form(tmp_path: Path) -> None:
    settings = config.load(search=False, card=card(tmp_path, 'language = "de"\n[game]\nlanguage = "it"\n'))
    assert settings["game"]["language"] == "it"


def test_the_card_path_comes_from_the_environment_or_the_fat_partition() -> None:
    assert card_path({}) == Path("/boot/firmware/doge-companion.toml")
    assert card_path({"DOGE_CARD_FILE": "/tmp/x.toml"}) == Path("/tmp/x.toml")
    assert card_path({"DOGE_CARD_FILE": ""}) is None


def test_a_search_finds_the_card_where_the_environment_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOGE_CARD_FILE", str(card(tmp_path, 'display = "st7735"\n')))
    assert config.load(owner(tmp_path, ""))["display"]["driver"] == "st7735"
    assert config.load(search=False)["display"]["driver"] == "ili9341", "search=False: the defaults alone"


BAD = {
    "bad-toml": ('language = "de\n', "not valid TOML"),
    "unknown-key": ('langauge = "de"\n', "langauge: unknown key"),
    "bad-value": ('display = "st7736"\n', 'display: unknown display "st7736"'),
    "wrong-type": ('[game]\nplayers = "4"\n', 'game.players: must be a whole number, not "4"'),
    "binary": (bytes(range(256)) * 4, "is not UTF-8 text"),
    "too-big": ("# " + "x" * 70_000 + "\n", "is longer than any config file"),
    "pin-taken": ("[buzzer]\npin = 5\n", "GPIO 5 is already used by buttons.left"),
    "short-password": ('[wifi]\nssid = "Casa"\npassword = "hunter2"\n', "8 to 63 characters, not 7"),
    "wifi-unknown-key": ('[wifi]\nssid = "Casa"\npasword = "x"\n', "wifi.pasword: unknown key"),
    "same-ssid-twice": (
        '[wifi]\nssid = "Casa"\npassword = "first password"\n[[wifi.networks]]\nssid = "Casa"\n'
        'password = "second password"\n',
        'wifi: the network "Casa" is given twice',
    ),
}


@pytest.mark.parametrize("name", BAD)
def test_a_bad_card_is_left_out_whole_and_said_in_one_line(name: str, tmp_path: Path) -> None:
    text, said = BAD[name]
    mine = owner(tmp_path, "[game]\nplayers = 4\n")
    settings = config.load(mine, card=card(tmp_path, text))
    assert settings.data == config.load(mine, search=False).data, "defaults and the owner's file, nothing of the card"
    assert settings.card is None and settings.card_file == tmp_path / "doge-companion.toml"
    assert any(said in problem for problem in settings.card_problems), settings.card_problems
    assert all(problem.startswith(f"{tmp_path}/doge-companion.toml: ") for problem in settings.card_problems)
    line = settings.card_line()
    assert line is not None and "\n" not in line and said in line and "fix it on the card" in line
    assert "hunter2" not in line


def test_a_card_with_a_good_layer_and_a_bad_wifi_is_left_out_too(tmp_path: Path) -> None:
    settings = config.load(search=False, card=card(tmp_path, 'language = "de"\n[wifi]\ncountry = "Germany"\n'))
    assert settings["game"]["language"] == "en" and settings.card_problems


def test_no_card_file_is_no_problem(tmp_path: Path) -> None:
    settings = config.load(search=False, card=tmp_path / "doge-companion.toml")
    assert settings.card is None and settings.card_problems == () and settings.card_line() is None


def test_the_lcd_line_is_said_in_the_tables_language(tmp_path: Path) -> None:
    settings = config.load(search=False, card=card(tmp_path, "[game]\nplayers = 9\n"))
    try:
        set_language("de")
        german = settings.card_line()
    finally:
        set_language("en")
    assert german is not None and german != settings.card_line() and "game.players" in german


def test_a_byte_order_mark_from_a_windows_editor_is_not_a_problem(tmp_path: Path) -> None:
    settings = config.load(search=False, card=card(tmp_path, '\ufefflanguage = "it"\r\n'.encode()))
    assert settings["game"]["language"] == "it"


def test_check_config_checks_a_card_file_by_its_name_or_with_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "none"))
    good = card(tmp_path, GOOD)
    assert main(["check-config", str(good)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(f"{good}: OK (a card file") and "Casa, Club; 2nd floor" in out and "country IT" in out
    assert err == ""
    other = card(tmp_path, GOOD, "wifi.toml")
    assert main(["check-config", str(other)]) == 78, "by another name it is an owner's config: [wifi] is unknown"
    capsys.readouterr()
    assert main(["check-config", "--card", str(other)]) == 0
    capsys.readouterr()
    bad = card(tmp_path, BAD["short-password"][0] + "display = 3\n", "sd.toml")
    assert main(["check-config", "--card", str(bad)]) == 78
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 2 and "hunter2" not in err
    assert main(["check-config", "--card", str(tmp_path / "missing.toml")]) == 78
    assert "no such file" in capsys.readouterr().err


def test_check_config_with_no_file_names_the_cards_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "none"))
    monkeypatch.setenv("DOGE_CARD_FILE", str(card(tmp_path, 'display = "st7736"\n')))
    assert main(["check-config"]) == 78
    assert 'doge-companion.toml: display: unknown display "st7736"' in capsys.readouterr().err


def test_no_output_shows_a_wifi_password(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """rules.md 11's "secrets stay secret", for the owner's Wi-Fi: check-config and print-config, good card or bad."""
    for text in (GOOD, GOOD + "\n[buzzer]\npin = 5\n", GOOD.replace("[game]", "[game]\nplayers = 7")):
        path = card(tmp_path, text)
        main(["check-config", str(path)])
        os.environ["DOGE_CARD_FILE"] = str(path)
        try:
            main(["print-config"])
        finally:
            del os.environ["DOGE_CARD_FILE"]
        out, err = capsys.readouterr()
        assert SECRET not in out + err and "horse" not in out + err


def test_run_starts_with_a_bad_card_and_says_so_in_the_journal(tmp_path: Path) -> None:
    path = card(tmp_path, f'display = "st7736"\n[wifi]\nssid = "Casa"\npassword = "{SECRET}"\n')
    script = tmp_path / "keys.txt"
    script.write_text("host ok\n")
    result = subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--hardware", "mock", "--script", str(script)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "DOGE_CARD_FILE": str(path), "XDG_CONFIG_HOME": str(tmp_path / "none")},
    )
    assert result.returncode == 0, result.stderr
    assert 'doge-companion.toml: display: unknown display "st7736"' in result.stderr
    assert "the card file is left out" in result.stderr and SECRET not in result.stdout + result.stderr
