#!/usr/bin/env bash
# One-command setup of Doge Companion on Raspberry Pi OS (Bookworm):
#   sudo ./install.sh [--dry-run] [--force] [--display DRIVER]
#   sudo ./install.sh --uninstall [--purge] [--dry-run]     # remove it (the games kept, unless --purge)
#   ./install.sh --image [--pins-only]   # inside a card image's root being built (python3 dev.py image)
#   ./install.sh --list-packages         # the Debian packages it needs here, one a line (the image includes them)
#
# Does what docs/building.md's "Installing on a Raspberry Pi" lines do, in order: system packages, the `doge` user and its
# groups, SPI, a venv in /opt/doge-companion/.venv with the pinned versions of requirements/pi-<machine>.txt and a
# wheel built from this checkout, a config (only if there is none), the systemd unit, the polkit rule and (with the
# web pads on, the default) the unit's network drop-in, then enables and (re)starts the service. Safe to run again:
# each step first looks whether it is already done and then does nothing (the wheel itself is rebuilt and reinstalled:
# that is how to update). --dry-run prints what it would do and changes nothing. It refuses a machine that is not
# Raspberry Pi OS with systemd running, unless --force. --image installs into the root file system of a card image
# being built (build_support/image: Debian's own kernel and raspi-firmware, run in a chroot): the same steps, with no
# service started and SPI set in Debian's /etc/default/raspi-firmware-custom; --pins-only stops after the pinned
# packages (the image's cached base). One description of an installed device, for both.
# DOGE_ROOT (tests only) puts every file under another root.
set -euo pipefail

SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="${DOGE_ROOT:-}"
PREFIX="/opt/doge-companion"
VENV="$PREFIX/.venv"
CONFIG="/etc/doge-companion/config.toml"
UNIT="/etc/systemd/system/doge-companion.service"
RULE="/etc/polkit-1/rules.d/50-doge-companion-poweroff.rules"
DROPINS="/etc/systemd/system/doge-companion.service.d"
DROP_IN="$DROPINS/web-pads.conf"
# gcc + python3-dev: spidev has no wheels; polkitd: power-off; espeak-ng + alsa-utils: the voice (docs/sound.md)
PACKAGES=(python3-venv python3-dev gcc polkitd espeak-ng alsa-utils)
GROUPS_NEEDED=(gpio spi dialout audio)  # audio: /dev/snd, for the voice
USER_NAME="doge"
DRY_RUN=0
FORCE=0
DISPLAY_DRIVER="ili9341"
IMAGE=0
PINS_ONLY=0
LIST_PACKAGES=0
# What this run downloads goes here first, so a failed download is told from a failed build.
DOWNLOADS="/var/cache/doge-companion/downloads"
WHEELS="/var/cache/doge-companion/wheel"
SETUPTOOLS="/var/cache/doge-companion/setuptools.txt"  # the lock's setuptools lines, installed before the rest
# Set when this script enables SPI; /run is emptied by the reboot that SPI needs, and so is this reminder.
REBOOT_MARK="/run/doge-companion-install.reboot"
# spidev takes writes of at most its bufsiz, 4,096 bytes unless set: writebytes2 cuts a frame's pixels into writes
# that size, each an ioctl of its own (docs/config.md). 65,536 sends a whole ILI9341 frame in 3 writes instead of 38.
# Read when spidev loads (a module on Pi OS), so at the next boot. Debian's kernel has spidev built in, where
# modprobe.d is never read: there the kernel's command line sets it, through raspi-firmware's cmdline.txt.
SPIDEV_CONF="/etc/modprobe.d/doge-companion-spidev.conf"
SPIDEV_BUFSIZ=65536
RASPI_CMDLINE="/etc/default/raspi-extra-cmdline"
# Debian's raspi-firmware (no raspi-config there) writes config.txt with this file's lines at each kernel update.
RASPI_CUSTOM="/etc/default/raspi-firmware-custom"
# Debian has no gpio and spi groups nor rules giving them the devices (Raspberry Pi OS has both).
UDEV_RULES="/etc/udev/rules.d/60-doge-companion-gpio-spi.rules"
# The Wi-Fi of a card image (doge-companion network: the card file's networks, else the Pi's own access point).
NETWORK_UNIT="/etc/systemd/system/doge-companion-network.service"

usage() {
    echo "usage: sudo ./install.sh [--dry-run] [--force] [--display ili9341|st7735|st7789]"
    echo "       sudo ./install.sh --uninstall [--purge] [--dry-run]"
    echo "       ./install.sh --image [--pins-only]   (as root in a card image's root: python3 dev.py image)"
    echo "       ./install.sh --list-packages"
}
UNINSTALL=0
PURGE=0

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --force) FORCE=1 ;;
        --display)
            [ $# -ge 2 ] || { echo "install.sh: --display needs a driver (ili9341, st7735, st7789)" >&2; exit 64; }
            DISPLAY_DRIVER="$2"; shift ;;
        --uninstall) UNINSTALL=1 ;;
        --purge) PURGE=1 ;;
        --image) IMAGE=1 ;;
        --pins-only) PINS_ONLY=1 ;;
        --list-packages) LIST_PACKAGES=1 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option '$1' ($(usage | tr -s ' \n' ' '))" >&2; exit 64 ;;
    esac
    shift
done
if [ "$PURGE" = 1 ] && [ "$UNINSTALL" = 0 ]; then
    echo "install.sh: --purge goes with --uninstall: sudo ./install.sh --uninstall --purge" >&2; exit 64
fi
case "$DISPLAY_DRIVER" in
    ili9341|st7735|st7789) ;;
    *) echo "install.sh: unknown display driver '$DISPLAY_DRIVER' (ili9341, st7735, st7789)" >&2; exit 64 ;;
esac
if [ "$PINS_ONLY" = 1 ] && [ "$IMAGE" = 0 ]; then
    echo "install.sh: --pins-only goes with --image (the card image's cached base)" >&2; exit 64
fi
if [ "$DRY_RUN" = 0 ] && [ "$LIST_PACKAGES" = 0 ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run it as root: sudo ./install.sh (or see what it would do: ./install.sh --dry-run)" >&2
    exit 1
fi

# --uninstall: undoes what the steps below did, keeping the games (/var/lib/doge-companion), the owner's config
# (/etc/doge-companion) and the user doge who owns them, so that installing again goes on with them; --purge removes
# those too. Never touched: the Debian packages, the groups, SPI, and this checkout. Safe to run again.
uninstall() {
    local removed=0
    gone() { if [ -e "$ROOT$1" ] || [ -L "$ROOT$1" ]; then act rm -rf "$ROOT$1"; removed=1; fi; }
    step "service"
    if [ -d "$ROOT/run/systemd/system" ] && systemctl cat doge-companion >/dev/null 2>&1; then
        act systemctl disable --now doge-companion
        removed=1
    else
        ok "no doge-companion service"
    fi
    step "systemd unit, its drop-ins and the polkit rule"
    if [ -f "$ROOT$NETWORK_UNIT" ] && [ -d "$ROOT/run/systemd/system" ]; then
        act systemctl disable doge-companion-network
    fi
    gone "$UNIT"
    gone "$NETWORK_UNIT"
    gone "$RULE"
    for dropin in "$ROOT$DROPINS"/*.conf; do
        [ -f "$dropin" ] || continue
        if [ "$PURGE" = 1 ] || cmp -s "$dropin" "$SOURCE/systemd/$(basename "$dropin")"; then
            gone "${dropin#"$ROOT"}"
        else
            echo "   kept: ${dropin#"$ROOT"} (yours; --purge removes it)"
        fi
    done
    if [ -d "$ROOT$DROPINS" ] && [ -z "$(ls -A "$ROOT$DROPINS")" ]; then gone "$DROPINS"; fi
    if [ "$removed" = 1 ] && [ -d "$ROOT/run/systemd/system" ]; then
        act systemctl daemon-reload
        act systemctl reset-failed doge-companion 2>/dev/null || true
    fi
    step "the companion's venv and downloads"
    gone "$VENV"
    gone /var/cache/doge-companion
    gone "$REBOOT_MARK"
    gone "$SPIDEV_CONF"
    gone "$UDEV_RULES"
    step "games, config and user $USER_NAME"
    if [ "$PURGE" = 1 ]; then
        gone /var/lib/doge-companion
        gone /etc/doge-companion
        # the card file's Wi-Fi as NetworkManager keeps it (with its passwords), and the Pi's own network's
        gone /var/lib/doge-companion-network
        gone /etc/modprobe.d/doge-companion-wifi-country.conf
        for keyfile in "$ROOT"/etc/NetworkManager/system-connections/doge-*.nmconnection; do
            if [ -f "$keyfile" ]; then gone "${keyfile#"$ROOT"}"; fi
        done
        if id "$USER_NAME" >/dev/null 2>&1; then act userdel "$USER_NAME"; removed=1; fi
    else
        for kept in /var/lib/doge-companion /etc/doge-companion; do
            [ ! -e "$ROOT$kept" ] || echo "   kept: $kept (--purge removes it)"
        done
        if id "$USER_NAME" >/dev/null 2>&1; then echo "   kept: user $USER_NAME, who owns the games"; fi
    fi
    [ "$removed" = 1 ] || echo "nothing to remove: the companion is not installed"
    if [ "$DRY_RUN" = 1 ]; then echo "dry run: nothing was changed"; fi
    echo "left as they were: the Debian packages, the groups, SPI, and this checkout ($SOURCE: sudo rm -rf $SOURCE)"
}

# Raspberry Pi OS says so in /etc/rpi-issue (and ID=raspbian on 32-bit); systemd is running when /run/systemd/system
# exists (sd_booted()). Anything else would get users, groups and files in /etc and /opt for a service that cannot run.
refusal=""
if ! [ -f "$ROOT/etc/rpi-issue" ] && ! grep -qs '^ID=raspbian' "$ROOT/etc/os-release"; then
    refusal="this is not Raspberry Pi OS (no /etc/rpi-issue)"
fi
if ! [ -d "$ROOT/run/systemd/system" ]; then
    refusal="${refusal:+$refusal, and }systemd is not running as PID 1"
fi
if [ -n "$refusal" ] && [ "$FORCE" = 0 ] && [ "$UNINSTALL" = 0 ] && [ "$IMAGE" = 0 ] && [ "$LIST_PACKAGES" = 0 ]; then
    if [ "$DRY_RUN" = 0 ]; then
        echo "install.sh: $refusal: nothing changed (sudo ./install.sh --force installs anyway)" >&2
        exit 1
    fi
    echo "install.sh: $refusal: a real run would refuse (--force installs anyway)"
fi

# The userland's architecture, not the kernel's: 32-bit Pi OS on a Pi 4 or 5 runs a 64-bit kernel (uname -m: aarch64).
ARCH="$(dpkg --print-architecture 2>/dev/null || uname -m)"
HASHES=()
case "$ARCH" in
    # The 64-bit lock carries the hash of every file pip may fetch (python3 dev.py lock): pip installs nothing else.
    arm64|aarch64) PINS="requirements/pi-aarch64.txt"; HASHES=(--require-hashes) ;;
    *) PINS="requirements/pi-armv7l.txt" ;;  # 32-bit Pi OS; a universal lock, so also what --force uses elsewhere
esac
if [ "$ARCH" = armhf ] || [ "$ARCH" = armv7l ]; then
    # PyPI has no 32-bit ARM wheels of lgpio (its sdist needs swig) nor of Pillow (libjpeg, zlib); Pi OS's own pip
    # configuration adds piwheels, which has both, and these build them when it does not.
    PACKAGES+=(swig libjpeg-dev zlib1g-dev)
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
if [ "$UNINSTALL" = 1 ]; then uninstall; exit 0; fi
if [ "$LIST_PACKAGES" = 1 ]; then printf '%s\n' "${PACKAGES[@]}"; exit 0; fi

step "system packages: ${PACKAGES[*]}"
missing=()
for package in "${PACKAGES[@]}"; do
    status="$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)"
    [ "$status" = "install ok installed" ] || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then ok "all installed"; else
    echo "   downloads: ${missing[*]} and what they need, from the system's package archives (apt)"
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
SPIDEV_REBOOT=0
if command -v raspi-config >/dev/null 2>&1; then
    if [ "$(raspi-config nonint get_spi)" = 0 ]; then ok "enabled"; else
        act raspi-config nonint do_spi 0
        REBOOT=1
        if [ "$DRY_RUN" = 0 ]; then mkdir -p "$(dirname "$ROOT$REBOOT_MARK")" && touch "$ROOT$REBOOT_MARK"; fi
    fi
    [ ! -e "$ROOT$REBOOT_MARK" ] || REBOOT=1
elif [ -f "$ROOT/etc/default/raspi-firmware" ]; then
    # Debian's raspi-firmware: its kernel hook copies this file's lines into config.txt, read by the GPU at boot
    if grep -qsx 'dtparam=spi=on' "$ROOT$RASPI_CUSTOM"; then ok "enabled ($RASPI_CUSTOM)"; else
        act sh -c "echo dtparam=spi=on >>'$ROOT$RASPI_CUSTOM'"
        hook="$ROOT/etc/kernel/postinst.d/z50-raspi-firmware"
        for kernel in "$ROOT"/boot/vmlinuz-*; do
            [ -x "$hook" ] && [ -f "$kernel" ] && act env DEB_MAINT_PARAMS=configure "$hook" "${kernel##*/vmlinuz-}"
        done
        [ "$IMAGE" = 1 ] || REBOOT=1
    fi
    place "$SOURCE/systemd/60-doge-companion-gpio-spi.rules" "$UDEV_RULES" 0644 || true
else
    echo "   raspi-config not found (not Raspberry Pi OS?): enable SPI yourself (dtparam=spi=on in config.txt)"
fi
if grep -qs '/spidev\.ko$' "$ROOT"/lib/modules/*/modules.builtin && [ -f "$ROOT/etc/default/raspi-firmware" ]; then
    # raspi-firmware's kernel hook appends this file's one line to cmdline.txt
    if grep -qsw "spidev.bufsiz=$SPIDEV_BUFSIZ" "$ROOT$RASPI_CMDLINE"; then ok "spidev.bufsiz ($RASPI_CMDLINE)"; else
        if [ -s "$ROOT$RASPI_CMDLINE" ]; then act sed -i "1s/\$/ spidev.bufsiz=$SPIDEV_BUFSIZ/" "$ROOT$RASPI_CMDLINE"
        else act sh -c "echo spidev.bufsiz=$SPIDEV_BUFSIZ >'$ROOT$RASPI_CMDLINE'"; fi
        hook="$ROOT/etc/kernel/postinst.d/z50-raspi-firmware"
        for kernel in "$ROOT"/boot/vmlinuz-*; do
            [ -x "$hook" ] && [ -f "$kernel" ] && act env DEB_MAINT_PARAMS=configure "$hook" "${kernel##*/vmlinuz-}"
        done
    fi
    if [ -e "$ROOT$SPIDEV_CONF" ]; then act rm -f "$ROOT$SPIDEV_CONF"; fi  # never read: spidev is built in
else
    spidev_conf="$(mktemp)"
    echo "options spidev bufsiz=$SPIDEV_BUFSIZ" >"$spidev_conf"
    place "$spidev_conf" "$SPIDEV_CONF" 0644 || true
    rm -f "$spidev_conf"
fi
loaded="$(cat "$ROOT/sys/module/spidev/parameters/bufsiz" 2>/dev/null || true)"
if [ -n "$loaded" ] && [ "$loaded" != "$SPIDEV_BUFSIZ" ]; then SPIDEV_REBOOT=1; fi

step "the companion in $VENV (from $SOURCE, versions pinned in $PINS)"
fail() { echo "install.sh: $*" >&2; exit 1; }
if [ -x "$ROOT$VENV/bin/python" ]; then ok "venv exists"; else act python3 -m venv "$ROOT$VENV"; fi
PIP=("$ROOT$VENV/bin/pip" --disable-pip-version-check --quiet)
# In a card image, the base installed the lock already (--pins-only) and noted its hash: nothing to download again.
PINS_STAMP="$ROOT$VENV/.doge-companion-pins"
pins_hash="$(sha256sum "$SOURCE/$PINS" | cut -d' ' -f1)"
if [ "$IMAGE" = 1 ] && [ "$(cat "$PINS_STAMP" 2>/dev/null)" = "$pins_hash" ]; then
    ok "the pinned packages are installed ($PINS as when they were)"
else
    count="$(grep -c '^[A-Za-z]' "$SOURCE/$PINS")"
    echo "   downloads: $count Python packages pinned in $PINS (from pip's indexes: PyPI, and piwheels on Pi OS 32-bit)"
    hashed=""
    [ ${#HASHES[@]} = 0 ] \
        || hashed=" (their hashes are PyPI's: pip.conf's extra-index-url, such as piwheels, serves others)"
    act "${PIP[@]}" download --dest "$ROOT$DOWNLOADS" -r "$SOURCE/$PINS" \
        || fail "downloading the Python packages failed (no network? see pip's message above$hashed); run it again"
    # setuptools first: spidev and lgpio are built from their sdists with it, offline (no build isolation). Its own
    # lines of the lock, hashes and all (a bare name on the command line is not allowed with hashes).
    if [ "$DRY_RUN" = 0 ]; then
        mkdir -p "$(dirname "$ROOT$SETUPTOOLS")"
        awk '/^setuptools==/ {p = 1} p {print} p && !/\\$/ {exit}' "$SOURCE/$PINS" >"$ROOT$SETUPTOOLS"
    fi
    { act "${PIP[@]}" install --no-index --find-links "$ROOT$DOWNLOADS" "${HASHES[@]}" -r "$ROOT$SETUPTOOLS" \
        && act "${PIP[@]}" install --no-index --find-links "$ROOT$DOWNLOADS" --no-build-isolation "${HASHES[@]}" \
            -r "$SOURCE/$PINS"; } \
        || fail "building a pinned package failed (see pip's message above; spidev and lgpio need gcc and" \
            "python3-dev)"
    [ "$IMAGE" = 0 ] || [ "$DRY_RUN" = 1 ] || echo "$pins_hash" >"$PINS_STAMP"
fi
if [ "$PINS_ONLY" = 1 ]; then echo "done: the pinned packages (--pins-only)"; exit 0; fi
# The rules engine compiled by mypyc (build_support/backend.py; gcc and python3-dev are here for spidev anyway): about
# twice as fast for replays and computer players. It takes a few minutes on a Pi; plain Python if it fails. Built
# without isolation, from the pinned setuptools, Babel and mypy just installed: nothing more is downloaded.
[ "$DRY_RUN" = 1 ] || rm -rf "$ROOT$WHEELS"
BUILD=(wheel --no-build-isolation --no-deps --wheel-dir "$ROOT$WHEELS" "$SOURCE")
# DOGE_COMPILE_ENGINE=0 in the environment asks for the plain engine straight away (quicker to install).
if [ "${DOGE_COMPILE_ENGINE:-1}" = 0 ]; then
    act "${PIP[@]}" "${BUILD[@]}" || fail "building the companion's wheel failed (see pip's message above)"
elif ! act env DOGE_COMPILE_ENGINE=1 "${PIP[@]}" "${BUILD[@]}"; then
    echo "   compiling the rules engine failed: building it as plain Python (the same rules, slower)"
    act "${PIP[@]}" "${BUILD[@]}" || fail "building the companion's wheel failed (see pip's message above)"
fi
wheel="$ROOT$WHEELS/doge_companion-*.whl"
if [ "$DRY_RUN" = 0 ]; then wheel="$(echo $wheel)"; fi  # the one wheel just built
act "${PIP[@]}" install --no-index --no-deps --force-reinstall "$wheel"

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

step "systemd unit, polkit rule and the web pads' network"
UNIT_CHANGED=0
place "$SOURCE/systemd/doge-companion.service" "$UNIT" 0644 && UNIT_CHANGED=1
place "$SOURCE/systemd/50-doge-companion-poweroff.rules" "$RULE" 0644 || true
# Phones and the table view (web.enabled, on by default) need the local network, which the unit's sandbox closes:
# the drop-in opens it, and only it (docs/web-pads.md). Only a config that says web.enabled = false goes without.
web_enabled=true
if [ "$DRY_RUN" = 0 ] && [ -x "$ROOT$VENV/bin/doge-companion" ]; then
    web_enabled="$("$ROOT$VENV/bin/doge-companion" print-config --config "$ROOT$CONFIG" 2>/dev/null \
        | awk '/^\[/ { web = ($0 == "[web]") } web && $1 == "enabled" { print $3 }')"
fi
if [ "$web_enabled" = false ]; then
    if [ ! -f "$ROOT$DROP_IN" ]; then ok "web pads off (web.enabled = false): the unit keeps no network"
    else act rm -f "$ROOT$DROP_IN" && UNIT_CHANGED=1; fi
else
    place "$SOURCE/systemd/web-pads.conf" "$DROP_IN" 0644 && UNIT_CHANGED=1
fi
if [ -f "$SOURCE/systemd/doge-companion-network.service" ]; then
    place "$SOURCE/systemd/doge-companion-network.service" "$NETWORK_UNIT" 0644 && UNIT_CHANGED=1
fi
[ "$UNIT_CHANGED" = 0 ] || [ "$IMAGE" = 1 ] || act systemctl daemon-reload

step "service"
# The network unit is a card image's (its Wi-Fi from the card file, else the Pi's own access point): on Raspberry Pi
# OS the owner's network is already set up, and an access point opened by a router slower than the Pi would take the
# Pi off it, so there it is placed and left for the owner to enable (docs/card-file.md).
for unit in doge-companion doge-companion-network; do
    [ "$unit" = doge-companion ] || [ -f "$ROOT$NETWORK_UNIT" ] || continue
    if systemctl is-enabled --quiet "$unit" 2>/dev/null; then ok "$unit enabled"
    elif [ "$unit" = doge-companion ] || [ "$IMAGE" = 1 ]; then act systemctl enable "$unit"
    else ok "$unit placed, not enabled (the card file's Wi-Fi: sudo systemctl enable $unit; docs/card-file.md)"; fi
done
if [ "$IMAGE" = 1 ]; then
    ok "not started: a card image starts it at its first boot"
else
    act systemctl restart doge-companion  # runs the code just installed; an unfinished game goes on
fi

if [ "$REBOOT" = 1 ]; then echo "SPI was enabled and needs a reboot: reboot once (sudo reboot)."
elif [ "$SPIDEV_REBOOT" = 1 ]; then
    echo "spidev still takes writes of $loaded bytes: the next boot makes them $SPIDEV_BUFSIZ (sudo reboot)."
fi
if [ "$DRY_RUN" = 1 ]; then echo "dry run: nothing was changed"; fi
echo "done. What it says: journalctl -u doge-companion -f"
