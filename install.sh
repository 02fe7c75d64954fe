#!/usr/bin/env bash
# One-command setup of Doge Companion on Raspberry Pi OS (Bookworm): sudo ./install.sh [--dry-run] [--display DRIVER]
#
# Does what README.md's "Installing on a Raspberry Pi" lines do, in order: system packages, the `doge` user and its
# groups, SPI, a venv in /opt/doge-companion/.venv with this checkout's '.[pi]', a config (only if there is none),
# the systemd unit and the polkit rule, then enables and (re)starts the service. Safe to run again: each step first
# looks whether it is already done and then does nothing (the package itself is reinstalled: that is how to update).
# --dry-run prints what it would do and changes nothing. DOGE_ROOT (tests only) puts every file under another root.
set -euo pipefail

SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="${DOGE_ROOT:-}"
PREFIX="/opt/doge-companion"
VENV="$PREFIX/.venv"
CONFIG="/etc/doge-companion/config.toml"
UNIT="/etc/systemd/system/doge-companion.service"
RULE="/etc/polkit-1/rules.d/50-doge-companion-poweroff.rules"
PACKAGES=(python3-venv python3-dev gcc polkitd)  # gcc + python3-dev: spidev has no wheels; polkitd: power-off
GROUPS_NEEDED=(gpio spi dialout)
USER_NAME="doge"
DRY_RUN=0
DISPLAY_DRIVER="ili9341"

usage() { echo "usage: sudo ./install.sh [--dry-run] [--display ili9341|st7735|st7789]"; }

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --display)
            [ $# -ge 2 ] || { echo "install.sh: --display needs a driver (ili9341, st7735, st7789)" >&2; exit 64; }
            DISPLAY_DRIVER="$2"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option '$1'; $(usage)" >&2; exit 64 ;;
    esac
    shift
done
case "$DISPLAY_DRIVER" in
    ili9341|st7735|st7789) ;;
    *) echo "install.sh: unknown display driver '$DISPLAY_DRIVER' (ili9341, st7735, st7789)" >&2; exit 64 ;;
esac
if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run it as root: sudo ./install.sh (or see what it would do: ./install.sh --dry-run)" >&2
    exit 1
fi

step() { echo "== $*"; }
ok() { echo "   ok: $*"; }
# Runs a command that changes the system, or only says so on a dry run.
act() {
    if [ "$DRY_RUN" = 1 ]; then echo "   would run: $*"; else echo "   + $*"; "$@"; fi
}
# Installs FILE's content at DEST (under ROOT) with MODE, unless it is there already, identical.
place() {
    local file="$1" dest="$ROOT$2" mode="$3"
    if [ -f "$dest" ] && cmp -s "$file" "$dest"; then ok "$2 is up to date"; return 1; fi
    act install -D -m "$mode" "$file" "$dest"
}

step "system packages: ${PACKAGES[*]}"
missing=()
for package in "${PACKAGES[@]}"; do
    status="$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)"
    [ "$status" = "install ok installed" ] || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then ok "all installed"; else
    act apt-get update
    act apt-get install -y "${missing[@]}"
fi

step "user $USER_NAME in groups ${GROUPS_NEEDED[*]}"
for group in "${GROUPS_NEEDED[@]}"; do
    getent group "$group" >/dev/null || act groupadd --system "$group"
done
if ! id "$USER_NAME" >/dev/null 2>&1; then
    act useradd --system --no-create-home --shell /usr/sbin/nologin --groups "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" \
        "$USER_NAME"
else
    lacking=()
    for group in "${GROUPS_NEEDED[@]}"; do
        id -nG "$USER_NAME" | tr ' ' '\n' | grep -qx "$group" || lacking+=("$group")
    done
    if [ ${#lacking[@]} -eq 0 ]; then ok "$USER_NAME exists with its groups"; else
        act usermod -aG "$(IFS=,; echo "${lacking[*]}")" "$USER_NAME"
    fi
fi

step "SPI"
REBOOT=0
if command -v raspi-config >/dev/null 2>&1; then
    if [ "$(raspi-config nonint get_spi)" = 0 ]; then ok "enabled"; else
        act raspi-config nonint do_spi 0
        REBOOT=1
    fi
else
    echo "   raspi-config not found (not Raspberry Pi OS?): enable SPI yourself (dtparam=spi=on in config.txt)"
fi

step "the companion in $VENV (from $SOURCE)"
if [ -x "$ROOT$VENV/bin/python" ]; then ok "venv exists"; else act python3 -m venv "$ROOT$VENV"; fi
# The rules engine compiled by mypyc (build_support/backend.py; gcc and python3-dev are here for spidev anyway): about
# twice as fast for replays and computer players. It takes a few minutes on a Pi; plain Python if it fails.
if ! act env DOGE_COMPILE_ENGINE=1 "$ROOT$VENV/bin/pip" install --disable-pip-version-check --quiet "$SOURCE[pi]"; then
    echo "   compiling the rules engine failed: installing it as plain Python (the same rules, slower)"
    act "$ROOT$VENV/bin/pip" install --disable-pip-version-check --quiet "$SOURCE[pi]"
fi

step "config $CONFIG"
if [ -f "$ROOT$CONFIG" ]; then ok "kept as it is (yours)"; elif [ "$DRY_RUN" = 1 ]; then
    echo "   would write $ROOT$CONFIG: hardware = \"pi\", [display] driver = \"$DISPLAY_DRIVER\""
else
    new_config="$(mktemp)"
    printf 'hardware = "pi"\n[display]\ndriver = "%s"\n' "$DISPLAY_DRIVER" >"$new_config"
    act install -D -m 0644 "$new_config" "$ROOT$CONFIG"
    rm -f "$new_config"
fi
if [ "$DRY_RUN" = 0 ]; then act "$ROOT$VENV/bin/doge-companion" check-config "$ROOT$CONFIG"; fi

step "systemd unit and polkit rule"
UNIT_CHANGED=0
place "$SOURCE/systemd/doge-companion.service" "$UNIT" 0644 && UNIT_CHANGED=1
place "$SOURCE/systemd/50-doge-companion-poweroff.rules" "$RULE" 0644 || true
[ "$UNIT_CHANGED" = 0 ] || act systemctl daemon-reload

step "service"
if systemctl is-enabled --quiet doge-companion 2>/dev/null; then ok "enabled"; else
    act systemctl enable doge-companion
fi
act systemctl restart doge-companion  # runs the code just installed; an unfinished game goes on

if [ "$REBOOT" = 1 ]; then echo "SPI was just enabled: reboot once (sudo reboot)."; fi
if [ "$DRY_RUN" = 1 ]; then echo "dry run: nothing was changed"; fi
echo "done. What it says: journalctl -u doge-companion -f"
