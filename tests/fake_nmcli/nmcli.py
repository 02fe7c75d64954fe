"""A stand-in for NetworkManager's nmcli, for `doge-companion network`'s tests (there is no library double for it).

Run as nmcli (the tests put a two-line sh wrapper on PATH), it answers the few commands `network` gives, in nmcli's
terse form (-t: fields split at ':', values escape ':' as '\\:'), from a JSON file ($FAKE_NMCLI):
{"devices": [["wlan0", "wifi", "disconnected"]], "reachable": ["Home"]}. The keyfiles it knows are those in
$FAKE_NMCLI_ROOT/etc/NetworkManager/system-connections as of the last "connection reload", as NetworkManager's
own. A device connects to a network in "reachable" once a reload finds its keyfile; "connection up" brings a known
connection up. Every call's arguments go to $FAKE_NMCLI.log.
"""

import json
import os
import sys
from pathlib import Path

state_file = Path(os.environ["FAKE_NMCLI"])
state = json.loads(state_file.read_text())
with open(f"{state_file}.log", "a") as log:
    log.write(json.dumps(sys.argv[1:]) + "\n")
args = [a for a in sys.argv[1:] if a not in ("-t",)]
if args[:1] == ["--wait"]:
    args = args[2:]


def keyfiles() -> dict[str, dict[str, str]]:
    """Each keyfile's id -> its keys (sections merged: only id, type, ssid and mode are read)."""
    folder = Path(os.environ["FAKE_NMCLI_ROOT"]) / "etc/NetworkManager/system-connections"
    found = {}
    for path in sorted(folder.glob("*.nmconnection")) if folder.is_dir() else ():
        keys = dict(line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)
        found[keys["id"]] = keys
    return found


def terse(*fields: str) -> str:
    return ":".join(f.replace("\\", "\\\\").replace(":", "\\:") for f in fields)


if args[:3] == ["-f", "DEVICE,TYPE,STATE", "device"]:
    print("\n".join(terse(*device) for device in state["devices"]))
elif args[:4] == ["-f", "NAME,TYPE", "connection", "show"]:
    kinds = {"wifi": "802-11-wireless", "ethernet": "802-3-ethernet"}
    print("\n".join(terse(name, kinds[keys["type"]]) for name, keys in state.get("known", {}).items()))
elif args == ["connection", "reload"]:
    state["known"] = keyfiles()
    for keys in state["known"].values():
        if keys.get("mode") == "infrastructure" and keys.get("ssid") in state.get("reachable", []):
            for device in state["devices"]:
                if device[1] == "wifi":
                    device[2] = "connected"
elif args == ["radio", "wifi", "on"]:
    pass
elif args[:2] == ["connection", "up"] and args[2] in state.get("known", {}):
    for device in state["devices"]:
        if device[0] == args[args.index("ifname") + 1]:
            device[2] = "connected"
    state.setdefault("up", []).append(args[2])
else:
    print(f"Error: the stand-in does not know: {' '.join(sys.argv[1:])}", file=sys.stderr)
    sys.exit(2)
state_file.write_text(json.dumps(state))
